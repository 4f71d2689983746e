package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestVanishedAfterWalk: a file gone between the walk and its read (a
// checkout under way), or made a folder, is no document of no content: a
// new one is not added, and one the index held, changed before it went,
// is taken out, as a fresh index of the tree has them.
func TestVanishedAfterWalk(t *testing.T) {
	noRacy(t)
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"keep.go": "package a\n\nfunc Keep() {}\n", "old.go": "package a\n\nfunc Capybara() {}\n", "swap.go": "package a\n"})
	ctx := context.Background()
	ix, err := Open(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	// old.go changes, and new.go comes: the update reads both after its
	// walk, by which time both are gone.
	writeTree(t, repo, map[string]string{"old.go": "package a\n\nfunc Capybara() { return }\n", "new.go": "package a\n\nfunc Wombat() {}\n", "swap.go": "package a // changed\n"})
	testHookAfterWalk = func() {
		for _, p := range []string{"old.go", "new.go", "swap.go"} {
			if err := os.Remove(filepath.Join(repo, p)); err != nil {
				t.Error(err)
			}
		}
		// swap.go becomes a folder: no file of that name to index.
		if err := os.Mkdir(filepath.Join(repo, "swap.go"), 0o755); err != nil {
			t.Error(err)
		}
	}
	defer func() { testHookAfterWalk = nil }()
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"old.go", "new.go", "swap.go"} {
		if ix.Entry(p) != nil {
			t.Errorf("%s is in the index, gone before it was read", p)
		}
	}
	if ix.Entry("keep.go") == nil {
		t.Error("keep.go is no longer in the index")
	}
	if st.Added != 0 || st.Deleted != 2 || st.Skipped.Any() {
		t.Errorf("stats %+v: want nothing added, old.go and swap.go deleted, nothing skipped", st)
	}
	if ix.N() != 1 {
		t.Errorf("%d files in the index, want 1", ix.N())
	}
}
