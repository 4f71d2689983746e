package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Files skipped as binary stay skipped without a read while unchanged, in
// the next process too, and are indexed once they turn to text.
func TestBinariesKept(t *testing.T) {
	noRacy(t)
	ctx := context.Background()
	root, dir := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n\nfunc A() {}\n", "img/logo.png": "\x89PNG\r\n\x1a\n\x00\x00binary"})
	ix, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix, err = Open(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	bins, err := ix.loadBinaries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(bins) != 1 || bins["img/logo.png"].size != 16 {
		t.Fatalf("binaries kept: %+v, want img/logo.png's status", bins)
	}
	if st, err := ix.Update(ctx, nil); err != nil || st.Added+st.Changed != 0 {
		t.Fatalf("an update with nothing changed: %+v (%v)", st, err)
	}
	if err := os.WriteFile(filepath.Join(root, "img", "logo.png"), []byte("not an image at all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 1 || ix.Entry("img/logo.png") == nil {
		t.Errorf("after the binary turned to text: %+v, entry %v", st, ix.Entry("img/logo.png"))
	}
	if bins, err := ix.loadBinaries(ctx); err != nil || len(bins) != 0 {
		t.Errorf("binaries kept after it turned to text: %+v (%v)", bins, err)
	}
}
