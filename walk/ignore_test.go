package walk

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

type ignoreCase struct {
	name  string
	files map[string]string
	want  []string
	// gitOnly marks cases that use nothing but .gitignore files, so that
	// their expectations can be checked against git itself.
	gitOnly bool
}

var ignoreCases = []ignoreCase{
	{
		// A folder taken back is walked, and its files are judged by
		// their own paths: "/*" matched the folder, not them.
		name: "a folder taken back keeps lower rules",
		files: map[string]string{
			".gitignore": "*.log\n/*\n!/.gitignore\n!/src/\n",
			"src/a.go":   "",
			"src/a.log":  "",
			"docs/b.md":  "",
			"top.go":     "",
		},
		want:    []string{".gitignore", "src/a.go"},
		gitOnly: true,
	},
	{
		// "dir/**" then "!dir/**/" takes the folders back, not the files.
		name: "folders taken back under dir/**",
		files: map[string]string{
			".gitignore":      "assets/**\n!assets/**/\n!assets/**/*.png\n",
			"assets/a/x.png":  "",
			"assets/a/x.txt":  "",
			"assets/b/c/y.js": "",
			"main.go":         "",
		},
		want:    []string{".gitignore", "assets/a/x.png", "main.go"},
		gitOnly: true,
	},
	{
		// git matches a pattern as written: no path has an empty element.
		name: "empty elements match nothing",
		files: map[string]string{
			".gitignore": "a//b\nc//\n",
			"a/b":        "",
			"c/d.go":     "",
		},
		want:    []string{".gitignore", "a/b", "c/d.go"},
		gitOnly: true,
	},
	{
		// "[!...]" is a negated class in git, as "[^...]" is.
		name: "negated bracket expressions",
		files: map[string]string{
			".gitignore":     "tmp/[!.]*\n[!m]*.c\nbuild/**/[!k]*.o\n",
			"tmp/scratch.py": "",
			"tmp/.keep.py":   "",
			"main.c":         "",
			"util.c":         "",
			"build/x/a.o":    "",
			"build/x/keep.o": "",
		},
		want:    []string{".gitignore", "build/x/keep.o", "main.c", "tmp/.keep.py"},
		gitOnly: true,
	},
	{
		name: "no ignore files",
		files: map[string]string{
			"a.go":     "",
			"sub/b.go": "",
			".hidden":  "",
		},
		want:    []string{".hidden", "a.go", "sub/b.go"},
		gitOnly: true,
	},
	{
		name: "nested gitignore with negation",
		files: map[string]string{
			".gitignore":        "*.log\n!keep.log\n",
			"a.log":             "",
			"keep.log":          "",
			"main.go":           "",
			"sub/.gitignore":    "!debug.log\nkeep.log\n",
			"sub/debug.log":     "",
			"sub/keep.log":      "",
			"sub/other.log":     "",
			"sub/deep/keep.log": "",
			"sub/deep/x.log":    "",
			"other/keep.log":    "",
			"other/debug.log":   "",
		},
		want: []string{
			".gitignore", "keep.log", "main.go", "other/keep.log",
			"sub/.gitignore", "sub/debug.log",
		},
		gitOnly: true,
	},
	{
		name: "anchored patterns",
		files: map[string]string{
			".gitignore":     "/build/\n/todo.txt\n/src/gen\n",
			"build/a.go":     "",
			"src/build/b.go": "",
			"todo.txt":       "",
			"src/todo.txt":   "",
			"src/gen/c.go":   "",
			"src/x/gen/d.go": "",
			"sub/.gitignore": "/local.go\n",
			"sub/local.go":   "",
			"sub/x/local.go": "",
			"local.go":       "",
		},
		want: []string{
			".gitignore", "local.go", "src/build/b.go", "src/todo.txt",
			"src/x/gen/d.go", "sub/.gitignore", "sub/x/local.go",
		},
		gitOnly: true,
	},
	{
		name: "directory patterns",
		files: map[string]string{
			".gitignore":        "logs/\ncache\n",
			"logs/a.txt":        "",
			"src/logs/b.txt":    "",
			"other/logs":        "a file named like an ignored directory",
			"cache":             "",
			"src/cache/c.txt":   "",
			"src/catalog/d.txt": "",
		},
		want:    []string{".gitignore", "other/logs", "src/catalog/d.txt"},
		gitOnly: true,
	},
	{
		name: "middle slash is relative to the ignore file",
		files: map[string]string{
			".gitignore":       "docs/*.html\n",
			"docs/a.html":      "",
			"docs/a.md":        "",
			"docs/sub/b.html":  "",
			"x/docs/c.html":    "",
			"sub/.gitignore":   "gen/*.go\n",
			"sub/gen/a.go":     "",
			"sub/gen/a.txt":    "",
			"sub/x/gen/b.go":   "",
			"sub/gen/deep/c.g": "",
		},
		want: []string{
			".gitignore", "docs/a.md", "docs/sub/b.html",
			"sub/.gitignore", "sub/gen/a.txt", "sub/gen/deep/c.g", "sub/x/gen/b.go",
			"x/docs/c.html",
		},
		gitOnly: true,
	},
	{
		name: "double star",
		files: map[string]string{
			".gitignore":         "**/tmp\na/**/z.go\nout/**\n!out/keep.txt\n",
			"tmp/a":              "",
			"x/y/tmp/b":          "",
			"a/z.go":             "",
			"a/b/c/z.go":         "",
			"a/b/c/y.go":         "",
			"b/z.go":             "",
			"out/x.txt":          "",
			"out/keep.txt":       "",
			"out/sub/x.txt":      "",
			"out/sub/keep.txt":   "",
			"src/out/x.txt":      "",
			"src/tmpfile/ok.txt": "",
		},
		want: []string{
			".gitignore", "a/b/c/y.go", "b/z.go", "out/keep.txt",
			"src/out/x.txt", "src/tmpfile/ok.txt",
		},
		gitOnly: true,
	},
	{
		name: "whitelist",
		files: map[string]string{
			".gitignore": "*\n!*/\n!*.go\n",
			"a.go":       "",
			"a.txt":      "",
			"sub/b.go":   "",
			"sub/c.txt":  "",
			"sub/d/e.go": "",
		},
		want:    []string{"a.go", "sub/b.go", "sub/d/e.go"},
		gitOnly: true,
	},
	{
		name: "excluded directory cannot be re-included from inside",
		files: map[string]string{
			".gitignore":       "build/\n!build/keep.go\n",
			"build/keep.go":    "",
			"build/.gitignore": "!*\n",
			"build/x.go":       "",
		},
		want:    []string{".gitignore"},
		gitOnly: true,
	},
	{
		name: "deeper files override shallower ones",
		files: map[string]string{
			".gitignore":       "*.txt\n!important.md\n*.md\n",
			"a.txt":            "",
			"important.md":     "",
			"sub/.gitignore":   "!*.txt\n",
			"sub/b.txt":        "",
			"sub/c.md":         "",
			"sub/d/.gitignore": "*.go\n",
			"sub/d/e.txt":      "",
			"sub/d/f.go":       "",
			"g.go":             "",
		},
		want: []string{
			".gitignore", "g.go", "sub/.gitignore", "sub/b.txt",
			"sub/d/.gitignore", "sub/d/e.txt",
		},
		gitOnly: true,
	},
	{
		name: "syntax: comments, blank lines, CRLF, BOM, escapes, trailing spaces",
		files: map[string]string{
			".gitignore":   "\ufeff*.o\r\n# comment.go\r\n\r\n   \r\n\\#hash.go\r\n\\!bang.go\r\ntrailing.go   \r\n[ab].c\r\n",
			"x.o":          "",
			"comment.go":   "",
			"#hash.go":     "",
			"!bang.go":     "",
			"trailing.go":  "",
			"a.c":          "",
			"c.c":          "",
			"sub/y.o":      "",
			"sub/.keep.go": "",
		},
		want:    []string{".gitignore", "c.c", "comment.go", "sub/.keep.go"},
		gitOnly: true,
	},
	{
		name: "ignore and honeignore",
		files: map[string]string{
			".gitignore":       "*.tmp\n*.bak\n",
			".ignore":          "!keep.tmp\n!keep.bak\n*.log\n",
			".honeignore":      "keep.bak\ngenerated/\n!keep.log\n",
			"a.tmp":            "",
			"keep.tmp":         "",
			"keep.bak":         "",
			"x.log":            "",
			"keep.log":         "",
			"generated/a.go":   "",
			"src/.ignore":      "*.go\n",
			"src/a.go":         "",
			"src/a.py":         "",
			"lib/.honeignore":  "/only-here.go\n",
			"lib/only-here.go": "",
			"only-here.go":     "",
		},
		want: []string{
			".gitignore", ".honeignore", ".ignore", "keep.log", "keep.tmp",
			"lib/.honeignore", "only-here.go", "src/.ignore", "src/a.py",
		},
	},
	{
		name: "git info exclude has the lowest priority",
		files: map[string]string{
			".git/HEAD":         "ref: refs/heads/main\n",
			".git/info/exclude": "*.secret\nlocal/\nscratch.go\n",
			".gitignore":        "!scratch.go\n",
			"a.secret":          "",
			"local/x.go":        "",
			"scratch.go":        "",
			"sub/b.secret":      "",
			"main.go":           "",
		},
		want: []string{".gitignore", "main.go", "scratch.go"},
	},
	{
		name: "VCS directories are skipped",
		files: map[string]string{
			".git/config":              "",
			".hg/store/x":              "",
			".svn/entries":             "",
			".bzr/branch":              "",
			"_darcs/prefs":             "",
			".jj/repo":                 "",
			"sub/.git":                 "gitdir: ../.git/modules/sub\n",
			"sub/.hg/x":                "",
			".github/workflows/ci.yml": "",
			".gitattributes":           "",
			"main.go":                  "",
		},
		want: []string{".gitattributes", ".github/workflows/ci.yml", "main.go"},
	},
}

func TestWalkIgnore(t *testing.T) {
	for _, tc := range ignoreCases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.files)
			got := walkPaths(t, root, Options{})
			if !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestIgnoreAgreesWithGit checks the .gitignore cases against git itself,
// which must list the same untracked, non-ignored files.
func TestIgnoreAgreesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	for _, tc := range ignoreCases {
		if !tc.gitOnly {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tc.files)
			if out, err := gitAt(git, root, root, "init", "-q").CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			fromGit := gitListed(t, git, root, root)
			if !slices.Equal(fromGit, tc.want) {
				t.Errorf("git lists %q\ntest wants %q", fromGit, tc.want)
			}
		})
	}
}

// TestWalkExcludeViaGitFile checks that .git/info/exclude is found through a
// .git file, as in submodules and linked worktrees.
func TestWalkExcludeViaGitFile(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "work")
	writeTree(t, base, map[string]string{
		"main.git/info/exclude":          "*.main\n",
		"main.git/worktrees/w/HEAD":      "",
		"main.git/worktrees/w/commondir": "../..\n",
		"sub.git/info/exclude":           "*.sub\n",
		"work/.git":                      "gitdir: " + filepath.Join(base, "main.git", "worktrees", "w") + "\n",
		"work/a.main":                    "",
		"work/a.sub":                     "",
		"work/a.go":                      "",
		"mod/.git":                       "gitdir: ../sub.git\n",
		"mod/b.main":                     "",
		"mod/b.sub":                      "",
	})
	if got, want := walkPaths(t, root, Options{}), []string{"a.go", "a.sub"}; !slices.Equal(got, want) {
		t.Errorf("worktree: got %q, want %q", got, want)
	}
	if got, want := walkPaths(t, filepath.Join(base, "mod"), Options{}), []string{"b.main"}; !slices.Equal(got, want) {
		t.Errorf("submodule: got %q, want %q", got, want)
	}
}

func TestParseIgnore(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		count int
	}{
		{"empty", "", 0},
		{"comments and blanks", "# a\n\n  \t\n#b\r\n", 0},
		{"patterns", "a\n!b\n/c/\nd/**\n", 4},
		{"no final newline", "a\nb", 2},
		{"bom", "\ufeffa", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseIgnore([]byte(tt.data), nil); len(got) != tt.count {
				t.Errorf("parseIgnore(%q) = %d patterns, want %d", tt.data, len(got), tt.count)
			}
		})
	}
}

// TestWalkReadsIgnoreFilesAbove walks a folder inside a repository's work
// tree: the ignore files of the folders above it, up to the work tree's
// top, and the repository's .git/info/exclude decide its entries as they
// do for git.
func TestWalkReadsIgnoreFilesAbove(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":                      "ref: refs/heads/main\n",
		".git/info/exclude":              "*.local\n/packages/web/gen/\n",
		".gitignore":                     "node_modules/\n*.log\n/packages/web/tmp/\n/packages/web/src/gen.js\nweb/keep.js\n**/cache/**\n",
		"packages/.gitignore":            "dist/\n!debug.log\n",
		"packages/web/src/a.js":          "",
		"packages/web/src/gen.js":        "",
		"packages/web/node_modules/x.js": "",
		"packages/web/dist/bundle.js":    "",
		"packages/web/tmp/t.js":          "",
		"packages/web/error.log":         "",
		"packages/web/debug.log":         "",
		"packages/web/notes.local":       "",
		"packages/web/keep.js":           "",
		"packages/web/cache/c.js":        "",
		"packages/web/gen/g.js":          "",
	})
	got := walkPaths(t, filepath.Join(root, "packages", "web"), Options{})
	want := []string{"debug.log", "keep.js", "src/a.js"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestWalkAboveIgnoredOrCeiling: a root that git would ignore, or that
// lies in a folder git would ignore, is walked with no rules from above
// (a dotfiles repository at the home folder that ignores "*" leaves the
// projects below it alone); and above GIT_CEILING_DIRECTORIES no
// repository is looked for, as git looks for none.
func TestWalkAboveIgnoredOrCeiling(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":            "ref: refs/heads/main\n",
		".gitignore":           "*\n!.gitignore\n",
		"src/proj/a.go":        "",
		"src/proj/notes.log":   "",
		"other/.gitignore":     "*.log\n",
		"other/proj/b.go":      "",
		"other/proj/debug.log": "",
	})
	got := walkPaths(t, filepath.Join(root, "src", "proj"), Options{})
	if want := []string{"a.go", "notes.log"}; !slices.Equal(got, want) {
		t.Errorf("a root below an ignored folder: got %q, want %q", got, want)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", root+string(filepath.ListSeparator)+"/nowhere")
	got = walkPaths(t, filepath.Join(root, "other", "proj"), Options{})
	if want := []string{"b.go", "debug.log"}; !slices.Equal(got, want) {
		t.Errorf("a root below the ceiling: got %q, want %q", got, want)
	}
}

// Git's own folders, and the folders in them, are git directories; a work
// tree, a linked worktree kept in a bare repository's folder among them,
// is not.
func TestInGitDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "work")
	git("-C", "work", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first")
	git("clone", "-q", "--bare", "work", "bare.git")
	git("-C", "bare.git", "worktree", "add", "-q", filepath.Join(dir, "bare.git", "main"))
	for _, tc := range []struct {
		dir  string
		want bool
	}{
		{"work", false},
		{"work/.git", true},
		{"work/.git/refs/heads", true},
		{"bare.git", true},
		{"bare.git/objects", true},
		{"bare.git/main", false},
		{".", false},
	} {
		if got := InGitDir(filepath.Join(dir, tc.dir)); got != tc.want {
			t.Errorf("InGitDir(%s) = %v, want %v", tc.dir, got, tc.want)
		}
	}
	for _, tc := range []struct {
		path string
		want bool
	}{
		{".git/config", true},
		{"a/.GIT/hooks/x.py", true},
		{"a/.github/x.yml", false},
		{"x.git/config", false},
		{".gitignore", false},
	} {
		if got := HasGitElement(tc.path); got != tc.want {
			t.Errorf("HasGitElement(%s) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
