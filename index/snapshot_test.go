package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A process that keeps the index open between answers reads it again
// only when another wrote to it: Snapshot keeps the catalog and its
// caches while the index's version stands, and takes the other's writes
// when it moved.
func TestSnapshotKeepsWhatStands(t *testing.T) {
	ctx := context.Background()
	root, dir := t.TempDir(), t.TempDir()
	put := func(p, text string) {
		t.Helper()
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("a.go", "package a\n\nfunc Alpha() {}\n")
	put("sub/deep/b.go", "package b\n\nfunc Beta() {}\n")
	put("empty/.keep", "")
	ix, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got, want := ix.Walked(), []string{".", "empty", "sub", "sub/deep"}; !slices.Equal(got, want) {
		t.Errorf("walked %v, want %v", got, want)
	}
	if len(ix.Run(Search{Terms: []QueryTerm{{Stem: "alpha", Weight: 1}}})) != 1 {
		t.Fatal("alpha not found")
	}
	cat := ix.cat
	ix.EndRead()
	if err := ix.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if !sameMap(ix.cat, cat) || !ix.ready {
		t.Error("Snapshot read the catalog again, or dropped its caches, though nothing wrote to the index")
	}

	// Another process updates the index.
	put("c.go", "package a\n\nfunc Gamma() {}\n")
	other, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
	ix.EndRead()
	if err := ix.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if ix.Entry("c.go") == nil || len(ix.Run(Search{Terms: []QueryTerm{{Stem: "gamma", Weight: 1}}})) != 1 {
		t.Error("Snapshot missed the other process's write")
	}
}

// sameMap reports whether two maps are one.
func sameMap(a, b map[string]*Entry) bool {
	if len(a) != len(b) {
		return false
	}
	const probe = "\x00probe"
	a[probe] = nil
	_, ok := b[probe]
	delete(a, probe)
	return ok
}
