package walk

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

func TestConfigValue(t *testing.T) {
	for _, tt := range []struct {
		config, want string
		ok           bool
	}{
		{"[core]\n\texcludesFile = ~/.gitignore_global\n", "~/.gitignore_global", true},
		{"[Core]\nexcludesfile=/a/b # a comment\n", "/a/b", true},
		{"[core] excludesfile = \"/with space/x\"\n", "/with space/x", true},
		{"[core]\nexcludesfile = /first\n[user]\nname = x\n[core]\nexcludesfile = /last\n", "/last", true},
		{"[core \"sub\"]\nexcludesfile = /no\n", "", false},
		{"[user]\nexcludesfile = /no\n", "", false},
		{"; [core]\n[core]\n# excludesfile = /no\n", "", false},
		{"[core]\nexcludesfile = /a\\\\b\n", "/a\\b", true},
	} {
		got, ok := configValue([]byte(tt.config), "core", "excludesfile")
		if got != tt.want || ok != tt.ok {
			t.Errorf("configValue(%q) = %q, %v; want %q, %v", tt.config, got, ok, tt.want, tt.ok)
		}
	}
}

// TestWalkGlobalExcludes: the user's excludes file ignores what git
// ignores by it, found where git finds it, below the repository's own
// rules in priority.
func TestWalkGlobalExcludes(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	for _, tc := range []struct {
		name   string
		config map[string]string // files under HOME
	}{
		{"the default file", map[string]string{".config/git/ignore": "*.tmp\nscratch/\n"}},
		{"core.excludesFile", map[string]string{
			".gitconfig":         "[core]\n\texcludesFile = ~/my-ignore\n",
			"my-ignore":          "*.tmp\nscratch/\n",
			".config/git/ignore": "*.go\n", // not read: the configured file replaces it
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			writeTree(t, home, tc.config)
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			root := t.TempDir()
			writeTree(t, root, map[string]string{
				".gitignore":    "!keep.tmp\n",
				"a.go":          "",
				"b.tmp":         "",
				"keep.tmp":      "",
				"sub/c.tmp":     "",
				"scratch/d.go":  "",
				"sub/scratch/e": "",
			})
			cmd := exec.Command(git, "init", "-q")
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			cmd = exec.Command(git, "ls-files", "-z", "--others", "--exclude-standard")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			fromGit := splitNUL(out)
			slices.Sort(fromGit)
			want := []string{".gitignore", "a.go", "keep.tmp"}
			if !slices.Equal(fromGit, want) {
				t.Fatalf("git lists %q, the test wants %q", fromGit, want)
			}
			if got := walkPaths(t, root, Options{}); !slices.Equal(got, want) {
				t.Errorf("the walk lists %q, git %q", got, want)
			}
			// A folder inside the repository reads them too.
			if got := walkPaths(t, filepath.Join(root, "sub"), Options{}); len(got) != 0 {
				t.Errorf("the walk of sub lists %q, want nothing", got)
			}
		})
	}
}
