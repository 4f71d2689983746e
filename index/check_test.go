package index

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCheckChanged: a check that passed leaves a stamp, and a database
// unchanged since is not read again; one changed since, as damage would
// change it, is checked again and its damage found.
func TestCheckChanged(t *testing.T) {
	old := racySlack
	racySlack = int64(10 * time.Millisecond)
	t.Cleanup(func() { racySlack = old })
	ctx := context.Background()
	repo := damageRepo(t, 40)
	dir := t.TempDir()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	time.Sleep(20 * time.Millisecond)
	check := func() error {
		ix, err := Open(ctx, repo, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		return ix.CheckChanged(ctx)
	}
	if err := check(); err != nil {
		t.Fatal(err)
	}
	stamp := ix.Path + stampSuffix
	if _, err := os.Stat(stamp); err != nil {
		t.Fatalf("no stamp after a check that passed: %v", err)
	}
	// A stamp that no longer matches means the file is read again: one
	// written over with garbage is found so.
	if err := os.WriteFile(stamp, []byte("0 0 0 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := check(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(stamp); err != nil || string(b) == "0 0 0 0\n" {
		t.Fatalf("the stamp is not taken again: %q, %v", b, err)
	}
	// The database unchanged since: the stamp stands, not taken again.
	sfi, err := os.Stat(stamp)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if err := check(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(stamp); err != nil || !fi.ModTime().Equal(sfi.ModTime()) {
		t.Fatalf("the stamp was written again for an unchanged database: %v", err)
	}
	// Damage a retrieval would meet, not the open: a doc blob whose
	// checksum fails, written by another program.
	db, err := sql.Open("sqlite", ix.Path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE files SET doc = x'00010203040506' WHERE id = (SELECT MIN(id) FROM files)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	time.Sleep(20 * time.Millisecond)
	if err := check(); !IsDamaged(err) {
		t.Fatalf("check of a database changed since its stamp: %v, want it found damaged", err)
	}
}

// A file changed or deleted leaves no definer rows behind, whether it was
// in the delta or in a segment: they are deleted by the names its doc
// held.
func TestDefinersDropped(t *testing.T) {
	noRacy(t)
	ctx := context.Background()
	repo, dir := t.TempDir(), t.TempDir()
	files := map[string]string{"a.go": "package a\n\nfunc Alpha() {}\n\nfunc Shared() {}\n", "b.go": "package a\n\nfunc Beta() {}\n\nfunc Shared() {}\n"}
	for i := range 2 * flushAt {
		files[fmt.Sprintf("p/f%d.go", i)] = fmt.Sprintf("package p\n\nfunc F%d() {}\n", i)
	}
	writeTree(t, repo, files)
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Omega() {}\n"})
	if err := os.Remove(filepath.Join(repo, "p", "f3.go")); err != nil {
		t.Fatal(err)
	}
	ix, err = buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for name, want := range map[string]int{"Alpha": 0, "Omega": 1, "Shared": 1, "Beta": 1, "F3": 0, "F4": 1} {
		if got := len(ix.Definers(name)); got != want {
			t.Errorf("%s: %d definers, want %d", name, got, want)
		}
	}
	var rows int
	if err := ix.db.QueryRow(`SELECT COUNT(*) FROM defs`).Scan(&rows); err != nil || rows != 2*flushAt+2 {
		t.Errorf("%d definer rows (%v), want %d", rows, err, 2*flushAt+2)
	}
}
