package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNewFileWrittenMeanwhile: a file new to the catalog is written with
// no lookup of its path first; when another process, taking no lock,
// wrote its row between this update's walk and its write, the row is
// dropped and written again, counted as a change, as a lookup found it.
func TestNewFileWrittenMeanwhile(t *testing.T) {
	noRacy(t)
	ctx := context.Background()
	root, dir := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n\nfunc Alpha() {}\n"})
	ix, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	writeTree(t, root, map[string]string{"g.go": "package a\n\nfunc Gamma() { Alpha() }\n"})
	testHookAfterWalk = func() {
		testHookAfterWalk = nil
		buildUnlocked(t, ctx, root, dir)
	}
	defer func() { testHookAfterWalk = nil }()
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 0 || st.Changed != 1 {
		t.Errorf("added %d, changed %d; want 0 and 1: the other process wrote g.go", st.Added, st.Changed)
	}
	var rows int
	if err := ix.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM files WHERE path = 'g.go'`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || ix.N() != 2 {
		t.Errorf("g.go's rows: %d, files indexed: %d; want 1 and 2", rows, ix.N())
	}
	if err := ix.Check(ctx); err != nil {
		t.Errorf("the index after: %v", err)
	}
	if got := ix.DefinersOf([]string{"Gamma"}); len(got["Gamma"]) != 1 {
		t.Errorf("definers of Gamma: %v, want g.go once", got)
	}
}

// An index kept inside its repository (--index-dir .hone) is no part of
// it: its files are not indexed, and an update with nothing changed finds
// nothing changed.
func TestIndexFolderInsideTheRepository(t *testing.T) {
	for _, dir := range []string{".hone-idx", "."} {
		root := t.TempDir()
		writeTree(t, root, map[string]string{"a.go": "package a\n", "b/b.go": "package b\n"})
		ownFolderLeftOut(t, "index in "+dir, root, filepath.Join(root, dir))
	}
}

// ownFolderLeftOut builds the index of repo, whose files are a.go and
// b/b.go, in dir three times, and checks that the index holds those two
// alone and that nothing changed between the builds.
func ownFolderLeftOut(t *testing.T, name, repo, dir string) {
	t.Helper()
	ctx := context.Background()
	for i := range 3 {
		ix, err := buildAt(ctx, repo, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		st, err := ix.Update(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, e := range ix.Entries() {
			paths = append(paths, e.Path)
		}
		// Nor is it a folder a server watches: every update writes there.
		real, _ := filepath.EvalSymlinks(repo)
		db, _ := filepath.EvalSymlinks(ix.Path)
		for _, p := range ix.Walked() {
			if p != "." && strings.HasPrefix(db, filepath.Join(real, filepath.FromSlash(p))+string(filepath.Separator)) {
				t.Errorf("%s, build %d: the walked folders %v hold the index's own %s", name, i, ix.Walked(), p)
			}
		}
		ix.Close()
		if !slices.Equal(paths, []string{"a.go", "b/b.go"}) {
			t.Errorf("%s, build %d: files %v, want a.go and b/b.go alone", name, i, paths)
		}
		if i > 0 && (st.Added != 0 || st.Changed != 0 || st.Deleted != 0) {
			t.Errorf("%s, build %d, nothing changed: %+v", name, i, st)
		}
	}
}

// TestIndexFolderInsideTheRepositoryNamedOtherwise: the folder of indexes
// inside the repository is left out whether it is named by a relative
// path (--index-dir .hone, run at the root), or the repository through a
// link to it.
func TestIndexFolderInsideTheRepositoryNamedOtherwise(t *testing.T) {
	for _, tc := range []struct {
		name     string
		viaLink  bool   // the repository named through a link to it
		dir      string // the folder of indexes, under the root
		dirLink  bool   // the folder named through the link
		relative bool   // the folder named from the root, the working directory
	}{
		{name: "relative", dir: ".hone", relative: true},
		{name: "the repository through a link", viaLink: true, dir: ".hone"},
		{name: "the folder through a link", dir: ".hone", dirLink: true},
	} {
		root := t.TempDir()
		writeTree(t, root, map[string]string{"a.go": "package a\n", "b/b.go": "package b\n"})
		link := filepath.Join(t.TempDir(), "repo")
		if err := os.Symlink(root, link); err != nil {
			t.Skip(err)
		}
		repo, dir := root, filepath.Join(root, tc.dir)
		switch {
		case tc.viaLink:
			repo = link
		case tc.dirLink:
			dir = filepath.Join(link, tc.dir)
		case tc.relative:
			t.Chdir(root)
			dir = tc.dir
		}
		ownFolderLeftOut(t, tc.name, repo, dir)
	}
}
