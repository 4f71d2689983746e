package index

import (
	"context"
	"fmt"
	"testing"
)

// pragmaOf reads a pragma of ix's database, as one of its connections
// finds it.
func pragmaOf[T any](t *testing.T, ix *Index, name string) T {
	t.Helper()
	var v T
	if err := ix.db.QueryRowContext(context.Background(), `PRAGMA `+name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// journalModeOf is the journal mode the file is in: "wal" for a file in
// WAL mode, "delete" for one in rollback-journal mode.
func journalModeOf(t *testing.T, ix *Index) string {
	t.Helper()
	return pragmaOf[string](t, ix, "journal_mode")
}

// mmapSizeOf is the bytes of ix's file that SQLite reads through a mapping.
func mmapSizeOf(t *testing.T, ix *Index) int64 {
	t.Helper()
	return pragmaOf[int64](t, ix, "mmap_size")
}

// TestFirstBuildJournal: a new index file is built in rollback-journal
// mode, without syncs, and is in WAL mode once its first update ends; a
// file left in rollback-journal mode (a first build that never ended, or
// one another process opened meanwhile) is put in WAL mode by the next
// open, and holds what was committed.
func TestFirstBuildJournal(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		files[pathN(i)] = bodyN(i, "token expiry")
	}
	writeTree(t, repo, files)
	// open opens the index of repo in dir, closed when the test ends.
	open := func(t *testing.T, dir string) *Index {
		t.Helper()
		ix, err := Open(ctx, repo, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}

	t.Run("first update", func(t *testing.T) {
		ix := open(t, t.TempDir())
		if got := journalModeOf(t, ix); got != "delete" {
			t.Errorf("a new file's journal: %q, want delete until its first update ends", got)
		}
		// The first build reads its pages unmapped, each page it merges
		// would stay in the process's memory; the reads after it mapped.
		if got := mmapSizeOf(t, ix); got != 0 {
			t.Errorf("a new file's mapping: %d bytes, want none until its first update ends", got)
		}
		if _, err := ix.Update(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if got := journalModeOf(t, ix); got != "wal" {
			t.Errorf("after the first update: %q, want wal", got)
		}
		if got := mmapSizeOf(t, ix); got != mmapBytes {
			t.Errorf("after the first update, mapped: %d bytes, want %d", got, mmapBytes)
		}
		if ix.N() != len(files) {
			t.Errorf("%d files indexed, want %d", ix.N(), len(files))
		}
	})

	t.Run("opened meanwhile", func(t *testing.T) {
		dir := t.TempDir()
		first := open(t, dir)
		// A second opener of the file while the first has not built it
		// puts it in WAL mode; the first's build goes on in it.
		second := open(t, dir)
		if got := journalModeOf(t, second); got != "wal" {
			t.Errorf("the second opener's journal: %q, want wal", got)
		}
		if _, err := first.Update(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := second.Update(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if first.N() != len(files) || second.N() != len(files) {
			t.Errorf("files indexed: %d and %d, want %d", first.N(), second.N(), len(files))
		}
	})

	t.Run("never ended", func(t *testing.T) {
		dir := t.TempDir()
		ix, err := Open(ctx, repo, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		// Killed once 10 files are read (TestResume holds that what a
		// killed first build committed is kept).
		kctx, kill := context.WithCancel(ctx)
		defer kill()
		ix.Update(kctx, func(p Progress) {
			if p.Done == 10 {
				kill()
			}
		})
		ix.Close()
		ix, err = Open(ctx, repo, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if got := journalModeOf(t, ix); got != "wal" {
			t.Errorf("a first build's file opened again: %q, want wal", got)
		}
		if _, err := ix.Update(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if ix.N() != len(files) {
			t.Errorf("%d files indexed, want %d", ix.N(), len(files))
		}
	})

	t.Run("switch failed", func(t *testing.T) {
		ix := open(t, t.TempDir())
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if err := ix.Snapshot(cancelled); err == nil {
			t.Fatal("a snapshot with its context cancelled: no error")
		}
		// The switch is tried again by the next.
		if _, err := ix.Update(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if got := journalModeOf(t, ix); got != "wal" {
			t.Errorf("after a switch that failed and an update: %q, want wal", got)
		}
	})

	t.Run("rebuild", func(t *testing.T) {
		// A rebuild is one transaction: a new file is put in WAL mode
		// before it, so that a second opener need not wait for all of it.
		ix := open(t, t.TempDir())
		during := ""
		if _, err := ix.Rebuild(ctx, func(Progress) {
			if during == "" {
				during = map[bool]string{true: "rollback", false: "wal"}[ix.rollback]
			}
		}); err != nil {
			t.Fatal(err)
		}
		if during != "wal" {
			t.Errorf("a new file's rebuild ran in %s mode, want wal", during)
		}
		if ix.N() != len(files) {
			t.Errorf("%d files indexed, want %d", ix.N(), len(files))
		}
	})
}

// Processes that open a repository's index at once, none built, each get
// it: one builds it, the others wait for its lock, never an error of
// SQLite's own (database is locked) (a review's reproduction).
func TestConcurrentFirstOpens(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("pkg%d/f%d.go", i%7, i)] = fmt.Sprintf("package p\n\nfunc F%d() int { return %d }\n", i, i)
	}
	writeTree(t, root, files)
	for round := range 8 {
		dir := t.TempDir()
		errs := make(chan error, 8)
		for range 8 {
			go func() {
				ix, err := buildAt(ctx, root, Options{Dir: dir})
				if err == nil {
					ix.Close()
				}
				errs <- err
			}()
		}
		for range 8 {
			if err := <-errs; err != nil {
				t.Errorf("round %d: %v", round, err)
			}
		}
	}
}
