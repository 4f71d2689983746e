package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"modernc.org/sqlite"
)

// withMaxPages limits every connection the test opens to n pages of the
// database, of 4 KiB for the indexes it makes: writes past them fail with
// SQLite's "database or disk is full", as on a full disk.
func withMaxPages(t *testing.T, n int) {
	t.Helper()
	testPragmas = fmt.Sprintf("&_pragma=max_page_count(%d)", n)
	t.Cleanup(func() { testPragmas = "" })
	withSmallPages(t)
}

// withSmallPages makes the test's new indexes of pages of 4 KiB, whose
// counts the tests of a full disk set their limits in.
func withSmallPages(t *testing.T) {
	old := pageSize
	pageSize = 4096
	t.Cleanup(func() { pageSize = old })
}

// indexFiles lists the files of the index's folder, with their sizes.
func indexFiles(t *testing.T, ix *Index) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	ents, _ := os.ReadDir(filepath.Dir(ix.Path))
	for _, e := range ents {
		// The lock of the updates stays, empty: removed, a process that
		// waits on it would hold a lock no other sees.
		if e.Name() == filepath.Base(ix.Path)+".lock" {
			if fi, err := e.Info(); err == nil && fi.Size() == 0 {
				continue
			}
		}
		if fi, err := e.Info(); err == nil {
			out[e.Name()] = fi.Size()
		}
	}
	return out
}

// TestFullDiskCold: the disk fills during the first index of a repository.
// The update fails with one line that says what to do, and the index it
// began is deleted, its WAL with it: nothing is left taking the space.
func TestFullDiskCold(t *testing.T) {
	repo := damageRepo(t, 300)
	withMaxPages(t, 60)
	ctx := context.Background()
	ix, err := Open(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	_, err = ix.Update(ctx, nil)
	if err == nil {
		t.Fatal("an index past max_page_count: no error")
	}
	if !strings.Contains(err.Error(), "the disk is full") || !strings.Contains(err.Error(), "free some space") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q, want one line saying the disk is full and what to do", err)
	}
	if errors.Is(err, ErrFull) {
		t.Errorf("%v: an index that could not be built says it can be read", err)
	}
	if files := indexFiles(t, ix); len(files) != 0 {
		t.Errorf("a half-built index left %v", files)
	}
	ix.Close()
	if files := indexFiles(t, ix); len(files) != 0 {
		t.Errorf("a half-built index, closed, left %v", files)
	}
}

// TestFullDiskUpdate: the disk fills during an update of a complete index.
// The update fails with ErrFull, the index answers as it did before, and no
// WAL is left holding the space.
func TestFullDiskUpdate(t *testing.T) {
	noRacy(t)
	withSmallPages(t)
	// One batch whatever the machine's pace: a batch committed after a
	// second would change the index before the disk fills.
	defer func(d time.Duration) { commitEvery = d }(commitEvery)
	commitEvery = time.Hour
	repo := damageRepo(t, 200)
	ctx := context.Background()
	dir := t.TempDir()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want, err := answer(ix)
	if err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := ix.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	// Fewer new files than a batch: the update commits nothing before it
	// fails, and must answer exactly as before.
	files := map[string]string{}
	for i := 0; i < commitFiles/2; i++ {
		var b strings.Builder
		for k := range 200 {
			fmt.Fprintf(&b, "func Big%dWord%d() {}\n", i, k)
		}
		files[fmt.Sprintf("new/big%d.go", i)] = b.String()
	}
	writeTree(t, repo, files)
	withMaxPages(t, pages+250)
	for _, op := range []string{"update", "rebuild"} {
		t.Run(op, func(t *testing.T) {
			ix, err := Open(ctx, repo, Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if op == "update" {
				_, err = ix.Update(ctx, nil)
			} else {
				_, err = ix.Rebuild(ctx, nil)
			}
			var se *sqlite.Error
			if !errors.Is(err, ErrFull) || errors.As(err, &se) && strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s on a full disk: %v, want ErrFull", op, err)
			}
			if size := indexFiles(t, ix)["index.db-wal"]; size != 0 {
				t.Errorf("the failed %s left a WAL of %d bytes", op, size)
			}
			got, err := answer(ix)
			if err != nil {
				t.Fatalf("reads after the failed %s: %v", op, err)
			}
			if got != want {
				t.Errorf("after the failed %s the index answers differently:\n%s", op, firstDiff(got, want))
			}
			ix.Close()
			if size, ok := indexFiles(t, ix)["index.db-wal"]; ok && size != 0 {
				t.Errorf("closed, the index left a WAL of %d bytes", size)
			}
		})
	}
}

// TestFullDiskMidway: the disk fills after an update committed some
// batches: the update fails with ErrFull, what it committed is folded into
// the database and the WAL emptied, and the index reads as one version.
func TestFullDiskMidway(t *testing.T) {
	noRacy(t)
	withSmallPages(t)
	repo := damageRepo(t, 100)
	ctx := context.Background()
	dir := t.TempDir()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := ix.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	files := map[string]string{}
	for i := 0; i < 4*commitFiles; i++ {
		files[fmt.Sprintf("new/f%d.go", i)] = strings.Repeat(fmt.Sprintf("func F%dWord%d() {}\n", i, i%50), 60)
	}
	writeTree(t, repo, files)
	withMaxPages(t, pages+250)
	ix, err = Open(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	walMax := int64(0)
	_, err = ix.Update(ctx, func(Progress) {
		walMax = max(walMax, indexFiles(t, ix)["index.db-wal"])
	})
	if !errors.Is(err, ErrFull) {
		t.Fatalf("update on a full disk: %v, want ErrFull", err)
	}
	if n := ix.N(); n <= 100 || n >= 100+len(files) {
		t.Errorf("the index holds %d files: want the batches committed before the disk filled", n)
	}
	if walMax == 0 {
		t.Error("the update committed nothing to the WAL: the test checks nothing")
	}
	if size := indexFiles(t, ix)["index.db-wal"]; size != 0 {
		t.Errorf("the failed update left a WAL of %d bytes (%d at most during the update)", size, walMax)
	}
	if _, err := answer(ix); err != nil {
		t.Errorf("reads after the failed update: %v", err)
	}
	if st, err := ix.Status(ctx); err != nil || st.Files != ix.N() {
		t.Errorf("status after the failed update: %+v, %v", st, err)
	}
}

// TestFullDiskOpen: with the disk full, a WAL database cannot even be
// opened, for lack of room for its shared memory (SQLite's "disk I/O error
// (4874)"). The index is read as it is, read-only, and an update says the
// disk is full, leaving it readable.
func TestFullDiskOpen(t *testing.T) {
	repo := damageRepo(t, 100)
	ctx := context.Background()
	dir := t.TempDir()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	want, err := answer(ix)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	testHookOpen = func() error { return fmt.Errorf("disk I/O error (4874): %w", syscall.ENOSPC) }
	defer func() { testHookOpen = nil }()
	ix, err = Open(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatalf("open with the disk full: %v", err)
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, nil); !errors.Is(err, ErrFull) {
		t.Errorf("update with the disk full: %v, want ErrFull", err)
	}
	got, err := answer(ix)
	if err != nil || got != want {
		t.Errorf("the read-only index answers differently (%v)", err)
	}
	st2, err := ix.Status(ctx)
	if err != nil || st2.Files != st.Files || st2.Updated != st.Updated {
		t.Errorf("status with the disk full: %+v, %v; want %+v", st2, err, st)
	}
}

// firstDiff shows the first line where two answers differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %.300s\nwant %.300s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

// An update that rewrites most of the index gives back the pages it
// freed: the index's file is not left at the size the update reached.
func TestUpdateReclaims(t *testing.T) {
	withSmallPages(t)
	repo := damageRepo(t, 300)
	ctx := context.Background()
	dir := t.TempDir()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	pagesOf := func() (pages, free int64) {
		t.Helper()
		if err := ix.db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
			t.Fatal(err)
		}
		if err := ix.db.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil {
			t.Fatal(err)
		}
		return pages, free
	}
	before, _ := pagesOf()
	// Every file rewritten in words of its own: as a checkout of a
	// branch far away.
	files := map[string]string{}
	for _, e := range ix.Entries() {
		var b strings.Builder
		for k := range 40 {
			fmt.Fprintf(&b, "func Other%dName%d() string { return \"%d\" }\n", len(files), k, k)
		}
		files[e.Path] = b.String()
	}
	if len(files) != 300 {
		t.Fatalf("%d files to rewrite, want 300", len(files))
	}
	writeTree(t, repo, files)
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	pages, free := pagesOf()
	if free >= reclaimPages && free*4 >= pages {
		t.Errorf("%d of %d pages free after the update (%d before it)", free, pages, before)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes != pages*int64(pageSize) {
		t.Errorf("status says %d bytes, the index has %d pages of %d", st.Bytes, pages, pageSize)
	}
}
