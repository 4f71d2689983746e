package walk

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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
		got, ok := configValue([]byte(tt.config), configScope{}, "core", "excludesfile")
		if got != tt.want || ok != tt.ok {
			t.Errorf("configValue(%q) = %q, %v; want %q, %v", tt.config, got, ok, tt.want, tt.ok)
		}
	}
}

// A configuration that includes itself is read to git's depth, and no
// further (git refuses it; the walk reads what it can).
func TestConfigIncludeBounded(t *testing.T) {
	home := t.TempDir()
	writeTree(t, home, map[string]string{".gitconfig": "[core]\n\texcludesFile = ~/x\n[include]\n\tpath = ~/.gitconfig\n"})
	got, ok := configFileValue(filepath.Join(home, ".gitconfig"), configScope{home: home}, "core", "excludesfile")
	if want := filepath.Join(home, "x"); !ok || filepath.Join(home, strings.TrimPrefix(got, "~/")) != want {
		t.Errorf("got %q, %v; want ~/x", got, ok)
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
		{"an included configuration", map[string]string{
			".gitconfig":         "[core]\n\texcludesFile = ~/not-read\n[include]\n\tpath = conf/more.inc\n",
			"conf/more.inc":      "[include]\n\tpath = ../deeper.inc\n", // relative to the file including it
			"deeper.inc":         "[core]\n\texcludesFile = ~/my-ignore\n",
			"not-read":           "*.go\n",
			"my-ignore":          "*.tmp\nscratch/\n",
			".config/git/ignore": "*.go\n",
		}},
		{"an include that comes before", map[string]string{
			".gitconfig": "[include]\n\tpath = ~/first.inc\n[core]\n\texcludesFile = ~/my-ignore\n",
			"first.inc":  "[core]\n\texcludesFile = ~/not-read\n",
			"not-read":   "*.go\n",
			"my-ignore":  "*.tmp\nscratch/\n",
		}},
		{"includeIf on this repository", map[string]string{
			".gitconfig": "[includeIf \"gitdir:ROOT/\"]\n\tpath = ~/work.inc\n[includeIf \"gitdir:/elsewhere/\"]\n\tpath = ~/other.inc\n",
			"work.inc":   "[core]\n\texcludesFile = ~/my-ignore\n",
			"other.inc":  "[core]\n\texcludesFile = ~/not-read\n",
			"not-read":   "*.go\n",
			"my-ignore":  "*.tmp\nscratch/\n",
		}},
		{"includeIf on another repository", map[string]string{
			".gitconfig":         "[includeIf \"gitdir/i:**/elsewhere/\"]\n\tpath = ~/other.inc\n[includeIf \"onbranch:main\"]\n\tpath = ~/other.inc\n",
			"other.inc":          "[core]\n\texcludesFile = ~/not-read\n",
			"not-read":           "*.go\n",
			".config/git/ignore": "*.tmp\nscratch/\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			root := t.TempDir()
			config := map[string]string{}
			for name, text := range tc.config {
				config[name] = strings.ReplaceAll(text, "ROOT", filepath.ToSlash(root))
			}
			writeTree(t, home, config)
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			writeTree(t, root, map[string]string{
				".gitignore":    "!keep.tmp\n",
				"a.go":          "",
				"b.tmp":         "",
				"keep.tmp":      "",
				"sub/c.tmp":     "",
				"scratch/d.go":  "",
				"sub/scratch/e": "",
			})
			fromGit := gitUntracked(t, git, root)
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

// FuzzConfigValue: any configuration text reads without a panic, and a
// value comes out only with a line setting it.
func FuzzConfigValue(f *testing.F) {
	for _, s := range []string{
		"[core]\n\texcludesFile = ~/x\n",
		"[core \"sub\"] excludesfile = \"a\\\"b\" ; c\n",
		"[includeIf \"gitdir/i:~/w/\"]\npath = ./x.inc\n[core.sub]\n",
		"[\n]]]\n=\n",
	} {
		f.Add(s, "/tmp/r/.git")
	}
	f.Fuzz(func(t *testing.T, config, gitDir string) {
		sc := configScope{home: "/nonexistent-home", gitDir: gitDir}
		v, ok := configValue([]byte(config), sc, "core", "excludesfile")
		if ok && !strings.Contains(strings.ToLower(config), "excludesfile") {
			t.Fatalf("value %q from a configuration with no excludesfile", v)
		}
		sc.includeIf("gitdir:" + gitDir)
		configSection(config)
	})
}

// RuleFiles lists what a walk of a folder inside a work tree reads from
// outside it: the ignore files above, info/exclude, the excludes file and
// the configuration read to find it, includes too; nothing of the folder.
func TestRuleFiles(t *testing.T) {
	home := t.TempDir()
	writeTree(t, home, map[string]string{
		".gitconfig": "[include]\n\tpath = ~/more.inc\n",
		"more.inc":   "[core]\n\texcludesFile = ~/my-ignore\n",
	})
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	top := t.TempDir()
	writeTree(t, top, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "a/b/c.go": ""})
	got := RuleFiles(filepath.Join(top, "a", "b"), nil)
	for _, want := range []string{
		filepath.Join(top, ".gitignore"), filepath.Join(top, ".honeignore"), filepath.Join(top, "a", ".gitignore"),
		filepath.Join(top, ".git", "info", "exclude"), filepath.Join(top, ".git", "config"),
		filepath.Join(home, ".gitconfig"), filepath.Join(home, "more.inc"), filepath.Join(home, "my-ignore"),
		filepath.Join(home, ".config", "git", "config"),
	} {
		if !slices.Contains(got, want) {
			t.Errorf("RuleFiles lacks %s:\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, p := range got {
		if strings.HasPrefix(p, filepath.Join(top, "a", "b")+string(filepath.Separator)) || p == "/etc/gitconfig" {
			t.Errorf("RuleFiles holds %s", p)
		}
	}
	if got := RuleFiles(t.TempDir(), nil); got != nil {
		t.Errorf("RuleFiles outside a work tree: %q", got)
	}
}

// The excludes file is the one git names (git config --path --get
// core.excludesFile), in a main work tree and in a linked worktree, with
// includes through links and includeIf on either's git directory.
func TestExcludesFileAsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	for _, tc := range []struct {
		name   string
		config map[string]string // files under HOME; MAIN is the main work tree
		links  map[string]string // links under HOME to folders under HOME
	}{
		{"includeIf on the main git directory", map[string]string{
			".gitconfig": "[includeIf \"gitdir:MAIN/.git\"]\n\tpath = ~/hit.inc\n",
			"hit.inc":    "[core]\n\texcludesFile = ~/hit\n",
		}, nil},
		{"includeIf on the worktrees' folder", map[string]string{
			".gitconfig": "[includeIf \"gitdir:MAIN/.git/worktrees/\"]\n\tpath = ~/hit.inc\n",
			"hit.inc":    "[core]\n\texcludesFile = ~/hit\n",
		}, nil},
		{"includeIf on the main git directory's folder", map[string]string{
			".gitconfig": "[includeIf \"gitdir:MAIN/.git/\"]\n\tpath = ~/hit.inc\n",
			"hit.inc":    "[core]\n\texcludesFile = ~/hit\n",
		}, nil},
		{"a relative include through a link", map[string]string{
			".gitconfig":      "[include]\n\tpath = ~/conf/a.inc\n",
			"dots/conf/a.inc": "[include]\n\tpath = ../x.inc\n",
			"dots/x.inc":      "[core]\n\texcludesFile = ~/through-the-link\n",
			"x.inc":           "[core]\n\texcludesFile = ~/by-the-text\n",
		}, map[string]string{"conf": "dots/conf"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			base := t.TempDir()
			main := filepath.Join(base, "main")
			wt := filepath.Join(base, "wt")
			for name, target := range tc.links {
				if err := os.MkdirAll(filepath.Join(home, target), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(home, target), filepath.Join(home, name)); err != nil {
					t.Skip(err)
				}
			}
			config := map[string]string{}
			for name, text := range tc.config {
				config[name] = strings.ReplaceAll(text, "MAIN", filepath.ToSlash(main))
			}
			writeTree(t, home, config)
			writeTree(t, main, map[string]string{"a.go": ""})
			for _, args := range [][]string{
				{"init", "-q"}, {"add", "a.go"},
				{"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a"},
				{"worktree", "add", "-q", wt},
			} {
				cmd := exec.Command(git, args...)
				cmd.Dir = main
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			for _, dir := range []string{main, wt} {
				cmd := exec.Command(git, "config", "--path", "--get", "core.excludesFile")
				cmd.Dir = dir
				out, _ := cmd.Output() // unset: exit 1, nothing printed
				want := strings.TrimSpace(string(out))
				if want == "" {
					want = filepath.Join(home, ".config", "git", "ignore")
				}
				wt, _ := findWorkTree(dir)
				if got, _ := excludesFileRead(wt.gitDir, wt.ownGitDir); got != want {
					t.Errorf("in %s: the excludes file is %q, git's %q", filepath.Base(dir), got, want)
				}
			}
		})
	}
}

// Bracket expressions mean what they mean to git: POSIX classes, a "]"
// first in the class, a "-" first or last, a negation; a class that does
// not close matches nothing. The walk lists what git ls-files lists.
func TestBracketsAsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	root := t.TempDir()
	files := map[string]string{
		".gitignore": "*.[[:digit:]]\n[[:upper:]]*\n[a-]x\n[]q]\n*[[:space:]]\n[!a]y\n[[:alpha:]][[:digit:]].log\nbad[\n*.[[:nosuch:]]\n",
	}
	for _, name := range []string{"a.1", "a.x", "Readme", "lower", "ax", "-x", "bx", "]", "q", "r", "b ", "c", "ay", "by",
		"q5.log", "55.log", "bad[", "z.k"} {
		files[name] = ""
	}
	writeTree(t, root, files)
	fromGit := gitUntracked(t, git, root)
	if got := walkPaths(t, root, Options{}); !slices.Equal(got, fromGit) {
		t.Errorf("the walk lists %q, git %q", got, fromGit)
	}
}

// gitUntracked makes root a git repository and returns, sorted, the files
// git lists there as neither tracked nor ignored: what the walk must list.
func gitUntracked(t *testing.T, git, root string) []string {
	t.Helper()
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
	return fromGit
}

// A section's subsection takes a backslash's next character as it is,
// whatever it is, as git does.
func TestConfigSection(t *testing.T) {
	for _, tt := range []struct{ head, name, sub string }{
		{`includeIf "gitdir:~/w/"`, "includeif", "gitdir:~/w/"},
		{`includeIf "gitdir/i:**/\Repo1/"`, "includeif", "gitdir/i:**/Repo1/"},
		{`includeIf "a\"b\\c"`, "includeif", `a"b\c`},
		{`Core`, "core", ""},
	} {
		name, sub, _ := configSection(tt.head)
		if name != tt.name || sub != tt.sub {
			t.Errorf("configSection(%q) = %q, %q; want %q, %q", tt.head, name, sub, tt.name, tt.sub)
		}
	}
}

// TestIncludeIfAgreesWithGit: an includeIf's gitdir pattern holds where
// git's does (git config --get, the condition in the user's
// configuration), patterns matched as git matches them: "**" glued to a
// name is "*", a class a byte, case folded for gitdir/i.
func TestIncludeIfAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	if runtime.GOOS == "windows" {
		t.Skip("slash paths in the conditions")
	}
	base := t.TempDir()
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real
	}
	repo := filepath.Join(base, "wörk", "Repo1")
	if out, err := exec.Command(git, "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	b := filepath.ToSlash(base)
	for _, cond := range []string{
		"gitdir:" + b + "/wörk/Repo1/", "gitdir:" + b + "/wörk/", "gitdir:" + b + "/w**/", "gitdir:" + b + "/w**k/",
		"gitdir:" + b + "/w?rk/", "gitdir:" + b + "/w??rk/", "gitdir:" + b + "/*/Repo1/.git", "gitdir:Repo1/",
		"gitdir:Repo[0-9]/", "gitdir:repo1/", "gitdir/i:repo1/", "gitdir/i:" + strings.ToUpper(b) + "/WÖRK/", "gitdir:**/Re*/.git",
		"gitdir:~/", "gitdir:./", "gitdir:./wörk/", "gitdir:" + b + "/wörk/Repo1/.g[a-i]t", "gitdir:" + b + "/wörk/**/.git",
		// git folds a pattern's plain letters, not a class's members.
		"gitdir/i:**/[R]epo1/", "gitdir/i:**/Rep[O]1/", "gitdir/i:**/[!R]epo1/", "gitdir/i:**/[[:upper:]]epo1/", "gitdir/i:**/[p-s]epo1/",
	} {
		home := t.TempDir()
		writeTree(t, home, map[string]string{
			".gitconfig": "[includeIf \"" + cond + "\"]\n\tpath = " + filepath.ToSlash(filepath.Join(home, "inc")) + "\n",
			"inc":        "[x]\n\ty = 1\n",
		})
		cmd := exec.Command(git, "config", "--get", "x.y")
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"))
		out, _ := cmd.Output()
		want := strings.TrimSpace(string(out)) == "1"
		sc := configScope{file: filepath.Join(home, ".gitconfig"), home: home, gitDir: filepath.Join(repo, ".git")}
		if strings.Contains(cond, ":./") {
			// The including file's folder: the repository's parent.
			sc.file = filepath.Join(base, ".gitconfig")
			writeTree(t, base, map[string]string{".gitconfig": "[includeIf \"" + cond + "\"]\n\tpath = " + filepath.ToSlash(filepath.Join(home, "inc")) + "\n"})
			cmd := exec.Command(git, "config", "--get", "x.y")
			cmd.Dir = repo
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(base, ".gitconfig"))
			out, _ := cmd.Output()
			want = strings.TrimSpace(string(out)) == "1"
		}
		if got := sc.includeIf(cond); got != want {
			t.Errorf("includeIf %q: %v, git %v", cond, got, want)
		}
	}
}

// An excludes file below a file (HOME itself a file, as a sandbox may
// set it) is none, as git reads it: not an ignore file the walk failed
// to read.
func TestExcludesFileUnderAFile(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	if err := os.WriteFile(home, []byte("not a folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var failed []string
	opts := Options{OnError: func(rel string, err error) error {
		failed = append(failed, rel+": "+err.Error())
		return nil
	}}
	files, err := Files(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 0 || len(files) != 1 {
		t.Errorf("files %v, failed %q: want a.go, and no excludes file that failed", files, failed)
	}
}
