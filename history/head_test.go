package history

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fastHead answers as git rev-parse does, in every plain repository, and
// leaves to git those past plain.
func TestFastHeadAsGit(t *testing.T) {
	r := newRepo(t)
	r.commit("one", "a.go", "sub/dir/b.go")
	r.commit("two", "a.go")
	mod := newRepo(t)
	mod.commit("mod", "m.go")
	r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", mod.dir, "third/mod")
	r.commit("three", "a.go")
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", wt, "-b", "side")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(r.dir, link); err != nil {
		t.Fatal(err)
	}
	shallow := newRepo(t)
	shallow.git("-c", "protocol.file.allow=always", "clone", "-q", "--depth", "1", "file://"+r.dir, "clone")
	gitAnswer := func(dir string) (headQuery, bool) {
		out, err := git(context.Background(), dir, "", nil, "rev-parse", "--absolute-git-dir", "--show-prefix", "--git-path", "shallow", "HEAD^{commit}")
		if err != nil {
			return headQuery{}, false
		}
		l := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		return headQuery{gitDir: l[0], prefix: l[1], shallow: l[2], head: l[3]}, true
	}
	// Paths compared as files: the shallow file's folder with links
	// resolved, from dir where git gives it relative.
	canon := func(dir, p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		d, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Join(d, filepath.Base(p))
	}
	check := func(name, dir string) {
		t.Helper()
		want, ok := gitAnswer(dir)
		if !ok {
			t.Fatalf("%s: git rev-parse failed", name)
		}
		got, ok := fastHead(dir)
		if !ok {
			t.Errorf("%s: left to git", name)
			return
		}
		if got.gitDir != want.gitDir || got.prefix != want.prefix || got.head != want.head || canon(dir, got.shallow) != canon(dir, want.shallow) {
			t.Errorf("%s: %+v, git %+v", name, got, want)
		}
	}
	check("the top", r.dir)
	check("a folder below", filepath.Join(r.dir, "sub", "dir"))
	check("through a link", filepath.Join(link, "sub"))
	check("a linked worktree", wt)
	check("a shallow clone", filepath.Join(shallow.dir, "clone"))
	r.git("pack-refs", "--all")
	check("packed refs", r.dir)
	r.git("checkout", "-q", "--detach")
	check("a detached head", r.dir)
	r.git("checkout", "-q", "main")
	r.commit("four", "a.go") // a loose ref beside its packed line
	check("a loose ref over a packed one", r.dir)

	// Past plain: git answers.
	if _, ok := fastHead(filepath.Join(r.dir, "third", "mod")); ok {
		t.Error("a submodule, whose configuration sets core.worktree: answered without git")
	}
	unborn := newRepo(t)
	if _, ok := fastHead(unborn.dir); ok {
		t.Error("a branch not yet made: answered without git")
	}
	r.git("config", "core.worktree", r.dir)
	if _, ok := fastHead(r.dir); ok {
		t.Error("core.worktree set: answered without git")
	}
	r.git("config", "--unset", "core.worktree")
	if err := os.WriteFile(filepath.Join(r.dir, ".git", "HEAD"), []byte("ref: refs/tags/v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := fastHead(r.dir); ok {
		t.Error("a HEAD that is no branch: answered without git")
	}
	if _, ok := fastHead(t.TempDir()); ok {
		t.Error("no repository: answered")
	}
}
