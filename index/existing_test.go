package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenExisting holds that OpenExisting creates nothing where there is
// no index, removes nothing of another format, and opens one that is
// there as Open does.
func TestOpenExisting(t *testing.T) {
	ctx := context.Background()
	repo, dir := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for i := range 40 {
		files[pathN(i)] = bodyN(i, "token expiry")
	}
	writeTree(t, repo, files)
	opts := Options{Dir: dir}

	if ix, err := OpenExisting(ctx, repo, opts); !errors.Is(err, ErrNoIndex) {
		if ix != nil {
			ix.Close()
		}
		t.Fatalf("no index: %v, want ErrNoIndex", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("OpenExisting made %d entries in the index directory", len(ents))
	}

	// A database file never written to is no index either, and stays
	// as it was.
	path, err := PathOf(repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, nil, 0o600)
	if _, err := OpenExisting(ctx, repo, opts); !errors.Is(err, ErrNoIndex) {
		t.Errorf("an empty database file: %v, want ErrNoIndex", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("OpenExisting wrote to an empty database file: %v", err)
	}

	ix, err := buildAt(ctx, repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	if ix.Path != path {
		t.Errorf("the index is at %s, PathOf says %s", ix.Path, path)
	}
	// A first build writes its file directly (walMode): a second
	// update's writes are in the WAL.
	files[pathN(40)] = bodyN(40, "token expiry")
	writeTree(t, repo, files)
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	built, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Errorf("no WAL after the update (%v): the test of the size tests nothing", err)
	}
	// What an update prints is Status's own.
	if source, size, err := ix.Footprint(ctx); err != nil || source != built.Source || size != built.Bytes || source == 0 {
		t.Errorf("Footprint: %d source bytes, %d bytes, %v; Status: %d, %d", source, size, err, built.Source, built.Bytes)
	}
	ix.Close()
	ix, err = OpenExisting(ctx, repo, opts)
	if err != nil {
		t.Fatalf("open the index built: %v", err)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != len(files) || !st.Complete {
		t.Errorf("status of the index opened: %+v", st)
	}
	// The size is the same whether the update's WAL is there or not.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if built.Bytes != st.Bytes || st.Bytes != fi.Size() {
		t.Errorf("the index's size: %d after the update, %d when opened again, the file %d bytes; want them the same", built.Bytes, st.Bytes, fi.Size())
	}

	// An index of another format is left for the next update to rebuild.
	if _, err := ix.db.ExecContext(ctx, `UPDATE meta SET value = '1' WHERE key = 'schema'`); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if _, err := OpenExisting(ctx, repo, opts); !errors.Is(err, ErrNoIndex) {
		t.Errorf("an index of another format: %v, want ErrNoIndex", err)
	}
	ix, err = Open(ctx, repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if v, err := ix.version(ctx); err != nil || v != "" {
		t.Errorf("Open did not start the index of another format over: version %q, %v", v, err)
	}
}

// A repository reached through a symbolic link has the index of the
// folder the link leads to: one index, whichever way it is named.
func TestPathOfLinkedRoot(t *testing.T) {
	ctx := context.Background()
	repo, dir := t.TempDir(), t.TempDir()
	writeTree(t, repo, map[string]string{pathN(1): bodyN(1, "token expiry")})
	link := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(repo, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	opts := Options{Dir: dir}
	real, err := PathOf(repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	viaLink, err := PathOf(link, opts)
	if err != nil {
		t.Fatal(err)
	}
	if real != viaLink {
		t.Errorf("the index of %s is %s, of the link to it %s", repo, real, viaLink)
	}
	ix, err := buildAt(ctx, link, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if ix.Path != real {
		t.Errorf("the index built through the link is at %s, want %s", ix.Path, real)
	}
	if st, err := ix.Status(ctx); err != nil || st.Files != 1 {
		t.Errorf("the index through the link: %+v, %v", st, err)
	}
}
