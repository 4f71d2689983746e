package walk

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestWalkAgreesWithGitRandom walks random trees under random .gitignore
// files and checks that the walk keeps the files git itself lists as
// tracked, or untracked and not ignored (git ls-files --cached --others
// --exclude-standard):
// git is the reference for what a rule means, folder by folder, with no
// re-inclusion below a folder it ignores.
func TestWalkAgreesWithGitRandom(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	rounds := 150
	if testing.Short() {
		rounds = 25
	}
	dirNames := []string{"a", "b", "ab", "tmp", "é"}
	fileNames := []string{"x.go", "a.go", "b.py", "é.go"}
	pieces := []string{"a", "b", "ab", "*", "**", "*.go", "a*", "*b", "[ab]", "x.go", "tmp", "?", "a*b", "*a*", "[!a]*", "", `\!a`,
		"a**", "***", "??.go", "?.go", "[é]*", `a\/b`, "[z-a]*"}
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
		initArgs := []string{"init", "-q"}
		if round%4 == 3 {
			initArgs = append(initArgs, "--object-format=sha256")
		}
		if out, err := gitAt(git, root, root, initArgs...).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		// In half the rounds git tracks some files, ignored ones among
		// them (git add -f): git ignores no file it tracks, and neither
		// does the walk. Index versions 2, 3 (an intent-to-add entry's
		// extended flags) and 4 (paths prefix-compressed).
		if round%2 == 1 {
			var add []string
			for p := range files {
				if rng.IntN(5) == 0 {
					add = append(add, p)
				}
			}
			slices.Sort(add)
			if len(add) > 0 {
				if out, err := gitAt(git, root, root, append([]string{"add", "-f", "--"}, add...)...).CombinedOutput(); err != nil {
					t.Fatalf("git add: %v\n%s", err, out)
				}
			}
			switch round % 8 {
			case 1:
				if out, err := gitAt(git, root, root, "update-index", "--index-version", "4").CombinedOutput(); err != nil {
					t.Fatalf("git update-index: %v\n%s", err, out)
				}
			case 5:
				for p := range files {
					if !slices.Contains(add, p) && rng.IntN(10) == 0 {
						if out, err := gitAt(git, root, root, "add", "-f", "-N", "--", p).CombinedOutput(); err != nil {
							t.Fatalf("git add -N: %v\n%s", err, out)
						}
						break
					}
				}
			}
		}
		// The walk of the repository, and of a folder in it, whose
		// entries the ignore files above it decide too; git lists a
		// folder's own when run in it.
		sub := dirs[1+rng.IntN(len(dirs)-1)]
		for _, at := range []string{"", sub} {
			if at != "" && ignoredFolder(t, git, root, at) {
				continue // git lists nothing in it; hone walks what it was asked to
			}
			dir := filepath.Join(root, filepath.FromSlash(at))
			want := gitListed(t, git, root, dir)
			var got []string
			if _, err := os.Stat(dir); err == nil {
				got = walkPaths(t, dir, Options{})
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				reportMismatch(t, round, at, files, got, want)
			}
		}
	}
}

// ignoredFolder reports whether git ignores the folder at, or a folder
// above it.
func ignoredFolder(t *testing.T, git, root, at string) bool {
	t.Helper()
	elems := strings.Split(at, "/")
	for i := range elems {
		err := gitAt(git, root, root, "check-ignore", "--no-index", "-q", strings.Join(elems[:i+1], "/")).Run()
		if err == nil {
			return true
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("git check-ignore %s: %v", at, err)
		}
	}
	return false
}

// reportMismatch fails the test with the round's ignore files and the
// paths the walk of the folder at and git disagree on.
func reportMismatch(t *testing.T, round int, at string, files map[string]string, got, want []string) {
	t.Helper()
	{
		{
			var ig []string
			for p, c := range files {
				if strings.HasSuffix(p, ".gitignore") {
					ig = append(ig, fmt.Sprintf("%s: %q", p, strings.Fields(c)))
				}
			}
			slices.Sort(ig)
			extra, missing := pathDiff(got, want)
			t.Fatalf("round %d, walking %q, ignore files %s\nthe walk keeps what git ignores: %q\nthe walk drops what git keeps: %q", round, at, strings.Join(ig, "; "), extra, missing)
		}
	}
}

// TestWalkAgreesWithGitEdges checks patterns where git's reading is easy
// to get wrong, one root ignore file of one pattern at a time, against
// git itself: "?" and classes match a byte, not a character; a run of
// stars is "**" only between slashes, or glued to the literal part before
// a pattern's first wildcard ("a**/b"); an escaped slash is a slash; a
// class range's first byte is a member ("[z-a]"); a class that does not
// close matches nothing; trailing spaces go but an escaped one.
func TestWalkAgreesWithGitEdges(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	if runtime.GOOS == "windows" {
		t.Skip("file names with tabs, brackets and trailing spaces")
	}
	tree := map[string]string{}
	for _, p := range []string{"é.go", "éa.go", "a.go", "ab.go", "x/é/b.go", "ab/c/b", "ab/b", "a/b",
		"a/x/y/b", "axx/b", "b", "ab/c/d.go", "a]b", "]", "a[b", "ü/z.go", "日本.go", "a b", "a\tb",
		"[a].go", "2.go", "A.go", "xa/b/c", "sp ", "sp", "axb", "z", "q\v", "q "} {
		tree[p] = "x\n"
	}
	for _, p := range []string{"?.go", "??.go", "???.go", "[é].go", "[!a].go", "[^a].go", "***", "a***",
		"a**/b", "a**", "**b", "***/b", "a/***", `a\/b`, "a[/]b", "a[/]*", "[a-é]*", `\é.go`, "a/**/**/b",
		"**/**", "*/", "[[:alpha:]]*", "[[:digit:]].go", "[[:upper:]].go", "[]]", "[]a]*", "[!]]", "a[",
		"[a", `\`, `a\`, "[a-]*", "[-a]*", "[z-a]*", "[[:foo:]]*", "[[:alpha:]", "[a].go", `\[a\].go`,
		"?", "[?]*", "*/b", "**/b/**", "ab/**/b", "a b", "a?b", "[[]*", "x/?/b.go", "x/??/b.go", "*/*/",
		"ab/c/", "/ab/c", "ab/c", "[é]*", "[!é]*", "?*.go", "日?.go", "日??.go", "xa/**/", "**/c", "a/**b",
		"x**/é", "a?**/b", `a**\/b`, "sp ", `sp\ `, `sp\  `, "sp  ", "[[:x]*", "[[:]]*",
		"a[!/]b", "[z/]", "a**//b", "a**//", "q[[:space:]]", "q[[:blank:]]"} {
		root := t.TempDir()
		files := map[string]string{".gitignore": p + "\n"}
		for k, v := range tree {
			files[k] = v
		}
		writeTree(t, root, files)
		if out, err := gitAt(git, root, root, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		want := gitListed(t, git, root, root)
		got := walkPaths(t, root, Options{})
		slices.Sort(got)
		if !slices.Equal(got, want) {
			extra, missing := pathDiff(got, want)
			t.Errorf("pattern %q: the walk keeps what git ignores %q, and drops what git keeps %q", p, extra, missing)
		}
	}
}

// pathDiff lists the paths of got that want lacks, and those of want that
// got lacks.
func pathDiff(got, want []string) (extra, missing []string) {
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
	return extra, missing
}
