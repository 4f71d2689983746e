package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestKnownAndSpan(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the parser", "a.go")
	r.commit("Fix the parser", "a.go")
	r.commit("Add the printer", "b.go")
	ctx := context.Background()
	cache := t.TempDir()
	if n, ok, err := Known(ctx, r.dir, "", "", cache); err != nil || ok || n != 0 {
		t.Fatalf("Known before any read = %d, %v, %v; want 0, false, nil", n, ok, err)
	}
	for _, tc := range []struct{ most, want int }{{10, 3}, {2, 2}} {
		if n, err := Span(ctx, r.dir, "", "", cache, tc.most); err != nil || n != tc.want {
			t.Errorf("Span(most %d) = %d, %v; want %d", tc.most, n, err, tc.want)
		}
	}
	if _, err := Warm(ctx, r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	if n, ok, err := Known(ctx, r.dir, "", "", cache); err != nil || !ok || n != 3 {
		t.Fatalf("Known after Warm = %d, %v, %v; want 3, true, nil", n, ok, err)
	}
	if n, err := Span(ctx, r.dir, "", "", cache, 10); err != nil || n != 0 {
		t.Errorf("Span of a history read = %d, %v; want 0", n, err)
	}
	r.commit("Fix the printer", "b.go")
	if _, ok, err := Known(ctx, r.dir, "", "", cache); err != nil || ok {
		t.Fatalf("Known of a new head = %v, %v; want false, nil", ok, err)
	}
	// What is new since a head read before: its one commit.
	if n, err := Span(ctx, r.dir, "", "", cache, 10); err != nil || n != 1 {
		t.Errorf("Span past a head read before = %d, %v; want 1", n, err)
	}
	// A head read before that git no longer has is no matter.
	if _, err := Warm(ctx, r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	r.git("commit", "-q", "--amend", "-m", "Fix the printer again")
	r.git("reflog", "expire", "--expire=now", "--all")
	r.git("gc", "-q", "--prune=now")
	if n, err := Span(ctx, r.dir, "", "", cache, 10); err != nil || n != 1 {
		t.Errorf("Span with a head git lost = %d, %v; want 1", n, err)
	}
	if _, _, err := Known(ctx, t.TempDir(), "", "", cache); !errors.Is(err, ErrNoGit) {
		t.Fatalf("Known outside git: %v, want ErrNoGit", err)
	}
}

// TestBusy checks that while another process reads a history from git,
// Read answers ErrBusy at once and Warm waits for the read, then finds
// it.
func TestBusy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no advisory locks")
	}
	r := newRepo(t)
	r.commit("Add the parser", "a.go")
	r.commit("Fix the parser", "a.go")
	ctx := context.Background()
	cache := t.TempDir()
	// Made by a read, the cache's database names the lock.
	if _, _, err := Known(ctx, r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	dbs, _ := filepath.Glob(filepath.Join(cache, "history-*.db"))
	if len(dbs) != 1 {
		t.Fatalf("cache files %v, want one database", dbs)
	}
	// Another process's lock: a lock of its own file, as flock has it.
	unlock, _, err := lockFile(dbs[0]+".lock", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(ctx, r.dir, "", "", cache); !errors.Is(err, ErrBusy) {
		t.Fatalf("Read while another reads: %v, want ErrBusy", err)
	}
	// The other read ends, having read the history: Warm, which waited,
	// finds it.
	done := make(chan error, 1)
	var n int
	go func() {
		var err error
		n, err = Warm(ctx, r.dir, "", "", cache)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("Warm did not wait for the read under way (%v)", err)
	case <-time.After(200 * time.Millisecond):
	}
	if _, err := warmLocked(ctx, r.dir, cache); err != nil {
		t.Fatal(err)
	}
	unlock()
	if err := <-done; err != nil || n != 2 {
		t.Fatalf("Warm after the read = %d, %v; want 2 commits", n, err)
	}
	if l, err := Read(ctx, r.dir, "", "", cache); err != nil || len(l.Commits) != 2 {
		t.Fatalf("Read after the read: %v, %v", l, err)
	}
	if _, err := os.Stat(dbs[0] + ".lock"); err != nil {
		t.Fatalf("the lock's file: %v", err)
	}
}

// warmLocked reads the history into the cache as the process holding the
// lock does.
func warmLocked(ctx context.Context, root, cache string) (int, error) {
	held := func(string, bool) (func(), bool, error) { return func() {}, false, nil }
	_, n, err := readLocking(ctx, root, "", "", cache, warm, held)
	return n, err
}
