package walk

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

// TestWalkAgreesWithGitRandom walks random trees under random .gitignore
// files and checks that the walk keeps the files git itself lists as
// untracked and not ignored (git ls-files --others --exclude-standard):
// git is the reference for what a rule means, folder by folder, with no
// re-inclusion below a folder it ignores.
func TestWalkAgreesWithGitRandom(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	rounds := 150
	if testing.Short() {
		rounds = 40
	}
	dirNames := []string{"a", "b", "ab", "tmp"}
	fileNames := []string{"x.go", "a.go", "b.py"}
	pieces := []string{"a", "b", "ab", "*", "**", "*.go", "a*", "*b", "[ab]", "x.go", "tmp", "?", "a*b", "*a*", "[!a]*", "", `\!a`}
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	randPattern := func() string {
		var b strings.Builder
		if rng.IntN(3) == 0 {
			b.WriteByte('!')
		}
		if rng.IntN(4) == 0 {
			b.WriteByte('/')
		}
		for i := range 1 + rng.IntN(3) {
			if i > 0 {
				b.WriteByte('/')
			}
			b.WriteString(pick(pieces))
		}
		if rng.IntN(3) == 0 {
			b.WriteByte('/')
		}
		return b.String()
	}
	// Every folder up to depth 2 holds every file name.
	var dirs []string
	var grow func(prefix string, depth int)
	grow = func(prefix string, depth int) {
		dirs = append(dirs, prefix)
		if depth == 2 {
			return
		}
		for _, d := range dirNames {
			grow(path.Join(prefix, d), depth+1)
		}
	}
	grow("", 0)
	for round := range rounds {
		files := map[string]string{}
		for _, d := range dirs {
			for _, f := range fileNames {
				files[path.Join(d, f)] = "x\n"
			}
		}
		for range 1 + rng.IntN(3) {
			d := dirs[rng.IntN(1+len(dirNames)+len(dirNames)*len(dirNames))] // to depth 2
			var rules []string
			for range 1 + rng.IntN(4) {
				rules = append(rules, randPattern())
			}
			files[path.Join(d, ".gitignore")] += strings.Join(rules, "\n") + "\n"
		}
		root := t.TempDir()
		writeTree(t, root, files)
		cmd := exec.Command(git, "init", "-q")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+root,
			"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		cmd = exec.Command(git, "ls-files", "-z", "--others", "--exclude-standard")
		cmd.Dir, cmd.Env = root, append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+root,
			"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git ls-files: %v", err)
		}
		var want []string
		for p := range bytes.SplitSeq(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
			if len(p) > 0 {
				want = append(want, string(p))
			}
		}
		slices.Sort(want)
		got := walkPaths(t, root, Options{})
		slices.Sort(got)
		if !slices.Equal(got, want) {
			var ig []string
			for p, c := range files {
				if strings.HasSuffix(p, ".gitignore") {
					ig = append(ig, fmt.Sprintf("%s: %q", p, strings.Fields(c)))
				}
			}
			slices.Sort(ig)
			var extra, missing []string
			for _, p := range got {
				if !slices.Contains(want, p) {
					extra = append(extra, p)
				}
			}
			for _, p := range want {
				if !slices.Contains(got, p) {
					missing = append(missing, p)
				}
			}
			t.Fatalf("round %d, ignore files %s\nthe walk keeps what git ignores: %q\nthe walk drops what git keeps: %q", round, strings.Join(ig, "; "), extra, missing)
		}
	}
}
