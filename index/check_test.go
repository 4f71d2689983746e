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
	ctx := context.Background()
	repo, dir, ix := builtPastRacy(t)
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
	damageDoc(t, ix.Path)
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

// TestCheckVouched: what a process wrote on an index it made, or on one
// it found checked, is not read again, by it or by the next process; a
// write of another process in between, or an index not found checked,
// is. Each step says whether CheckChanged read the index.
func TestCheckVouched(t *testing.T) {
	noRacy(t)
	ctx := context.Background()
	repo, dir := damageRepo(t, 30), t.TempDir()
	reads := 0
	testHookCheck = func() { reads++ }
	t.Cleanup(func() { testHookCheck = nil })
	edit := func(i int) {
		writeTree(t, repo, map[string]string{"edited.go": fmt.Sprintf("package pkg0\n\n// Edit%d is edit %d.\nfunc Edit%d() {}\n", i, i, i)})
	}
	open := func() *Index {
		t.Helper()
		ix, _, err := OpenUpdate(ctx, repo, Options{Dir: dir}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	checks := func(step string, ix *Index, want int) {
		t.Helper()
		reads = 0
		if err := ix.CheckChanged(ctx); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if reads != want {
			t.Errorf("%s: CheckChanged read the index %d times, want %d", step, reads, want)
		}
	}
	stamped := func(step string, ix *Index) {
		t.Helper()
		if _, err := os.Stat(ix.Path + stampSuffix); err != nil {
			t.Errorf("%s: no stamp: %v", step, err)
		}
	}

	// An index this process made.
	ix := open()
	checks("a first index", ix, 0)
	ix.Close()
	stamped("a first index, closed", ix)
	ix = open()
	checks("the next process, nothing changed", ix, 0)
	ix.Close()

	// A change written on an index found checked.
	edit(1)
	ix = open()
	checks("a change on a checked index", ix, 0)
	ix.Close()
	stamped("a change, closed", ix)
	ix = open()
	checks("the next process after a change", ix, 0)
	ix.Close()

	// A change on an index not found checked: its stamp gone.
	if err := os.Remove(ix.Path + stampSuffix); err != nil {
		t.Fatal(err)
	}
	edit(2)
	ix = open()
	checks("a change on an index not checked", ix, 1)
	checks("again, in the same process", ix, 0)
	ix.Close()
	stamped("checked, closed", ix)

	// Another process writes between this one's writes, on an index it
	// does not vouch for: this one reads it all.
	a := open()
	checks("before the other's write", a, 0)
	if err := os.Remove(a.Path + stampSuffix); err != nil {
		t.Fatal(err)
	}
	edit(3)
	b := open()
	b.Close()
	checks("after another process's write", a, 1)
	// And when this one writes after the other's.
	if err := os.Remove(a.Path + stampSuffix); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	edit(4)
	b = open()
	b.Close()
	edit(5)
	if st, err := a.Update(ctx, nil); err != nil || st.Changed != 1 {
		t.Fatalf("an update after another process's: %+v, %v", st, err)
	}
	checks("a write after another process's", a, 1)
	a.Close()

	// Damage by another program, after a stamp: read, and found.
	ix = open()
	ix.Close()
	stamped("before the damage", ix)
	damageDoc(t, ix.Path)
	ix, err := Open(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	reads = 0
	if err := ix.CheckChanged(ctx); !IsDamaged(err) || reads != 1 {
		t.Fatalf("a database written by another program: %v after %d reads, want it read once and found damaged", err, reads)
	}
}

// damageDoc breaks the first file's doc blob as another program would:
// its checksum fails when a retrieval reads it.
func damageDoc(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE files SET doc = x'00010203040506' WHERE id = (SELECT MIN(id) FROM files)`); err != nil {
		t.Fatal(err)
	}
}

// A no-change update that found the stamp holding leaves CheckChanged
// nothing to ask the database: the stamp's status still holds, so the
// version vouched for is the database's, and no connection is opened
// for a query (the reader's being pinned).
func TestCheckChangedAfterUpdateAsksNothing(t *testing.T) {
	ctx := context.Background()
	repo, dir, _ := builtPastRacy(t)
	// A first process reads again the files that were racy when the
	// build took their statuses, and leaves its stamp.
	ix, _, err := OpenUpdate(ctx, repo, Options{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.CheckChanged(ctx); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ix, st, err := OpenUpdate(ctx, repo, Options{Dir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if st.Added+st.Changed+st.Deleted != 0 {
		t.Fatalf("an update of an unchanged repository changed %+v", st)
	}
	before := ix.db.Stats().OpenConnections
	if err := ix.CheckChanged(ctx); err != nil {
		t.Fatal(err)
	}
	if after := ix.db.Stats().OpenConnections; after != before {
		t.Errorf("CheckChanged opened %d connections after a no-change update, want none", after-before)
	}
	// Another program's write moves the status: the index is read, and
	// its damage found.
	ix.Close()
	damageDoc(t, ix.Path)
	time.Sleep(20 * time.Millisecond)
	ix, err = Open(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.CheckChanged(ctx); !IsDamaged(err) {
		t.Fatalf("check of a database changed since its stamp: %v, want it found damaged", err)
	}
}

// builtPastRacy builds the index of a repository of 40 files into an
// index folder of its own, closes it and waits until its files are no
// longer racy (racySlack cut to 10 ms for the test). It returns the
// repository, the folder and the closed index.
func builtPastRacy(t *testing.T) (repo, dir string, ix *Index) {
	t.Helper()
	old := racySlack
	racySlack = int64(10 * time.Millisecond)
	t.Cleanup(func() { racySlack = old })
	repo, dir = damageRepo(t, 40), t.TempDir()
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	time.Sleep(20 * time.Millisecond)
	return repo, dir, ix
}
