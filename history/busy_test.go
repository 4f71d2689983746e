package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/hone-tools/hone/internal/filelock"
)

// TestWarmUpTo checks that a read of more commits than allowed is not
// made, counting only what no head read before has, and that a head read
// before is known whatever the limit.
func TestWarmUpTo(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the parser", "a.go")
	r.commit("Fix the parser", "a.go")
	r.commit("Add the printer", "b.go")
	ctx := context.Background()
	cache := t.TempDir()
	for _, tc := range []struct {
		name string
		edit func()
		most int
		want int
		err  error
	}{
		{"three commits, two allowed", func() {}, 2, 0, ErrLong},
		{"three commits, three allowed", func() {}, 3, 3, nil},
		{"read before, none allowed", func() {}, 0, 3, nil},
		{"one new commit, none allowed", func() { r.commit("Fix the printer", "b.go") }, 0, 0, ErrLong},
		{"one new commit, one allowed", func() {}, 1, 4, nil},
		// A head read before that git no longer has is no matter.
		{"a head git lost, one new commit", func() {
			r.git("commit", "-q", "--amend", "-m", "Fix the printer again")
			r.git("reflog", "expire", "--expire=now", "--all")
			r.git("gc", "-q", "--prune=now")
		}, 1, 4, nil},
		{"no limit", func() { r.commit("Drop the printer", "b.go") }, -1, 5, nil},
	} {
		tc.edit()
		n, err := WarmUpTo(ctx, r.dir, "", "", cache, tc.most)
		if n != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%s: WarmUpTo(most %d) = %d, %v; want %d, %v", tc.name, tc.most, n, err, tc.want, tc.err)
		}
	}
	if _, err := WarmUpTo(ctx, t.TempDir(), "", "", cache, 10); !errors.Is(err, ErrNoGit) {
		t.Fatalf("WarmUpTo outside git: %v, want ErrNoGit", err)
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
	// Made by a read, even one that reads nothing, the cache's database
	// names the lock.
	if _, err := WarmUpTo(ctx, r.dir, "", "", cache, 0); !errors.Is(err, ErrLong) {
		t.Fatal(err)
	}
	dbs, _ := filepath.Glob(filepath.Join(cache, "history-*.db"))
	if len(dbs) != 1 {
		t.Fatalf("cache files %v, want one database", dbs)
	}
	// Another process's lock: a lock of its own file, as flock has it.
	unlock, _, err := filelock.Lock(context.Background(), dbs[0]+".lock", false)
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
	held := func(context.Context, string, bool) (func(), bool, error) { return func() {}, false, nil }
	_, n, err := readLocking(ctx, root, "", "", cache, warm, -1, held)
	return n, err
}

// Reads of one history by goroutines of one process wait for one another,
// and each gets the whole history: none is told another process reads it.
func TestReadsInOneProcess(t *testing.T) {
	r := newRepo(t)
	for i := range 30 {
		r.commit(fmt.Sprintf("Fix the parser, step %d", i), "a.go")
	}
	cache := t.TempDir()
	for round := range 2 {
		var wg sync.WaitGroup
		errs := make([]error, 6)
		counts := make([]int, 6)
		for g := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l, err := Read(context.Background(), r.dir, "", "", cache)
				errs[g] = err
				if l != nil {
					counts[g] = len(l.Commits)
				}
			}()
		}
		wg.Wait()
		for g := range 6 {
			if errs[g] != nil || counts[g] != 30+round {
				t.Errorf("round %d, read %d: %d commits, %v; want %d", round, g, counts[g], errs[g], 30+round)
			}
		}
		r.commit("Fix the printer", "b.go")
	}
}

// Connections that make one new cache at once, as two processes do
// (openCacheWaiting, without the process's own openMu), each get it:
// SQLite's SQLITE_BUSY, answered at once to all but one, is waited out.
func TestOpenCacheWaitsOutANewCache(t *testing.T) {
	dir := t.TempDir()
	// Without the wait, some rounds in four hundred lost an open here.
	for round := range 60 {
		p := filepath.Join(dir, fmt.Sprintf("history-%d.db", round))
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for g := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := openCacheWaiting(p)
				if err == nil {
					err = db.Close()
				}
				errs[g] = err
			}()
		}
		wg.Wait()
		for g, err := range errs {
			if err != nil {
				t.Errorf("round %d, open %d: %v", round, g, err)
			}
		}
	}
}

func TestIsBusy(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.db")
	holder, err := sql.Open("sqlite", "file:"+p)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	other, err := sql.Open("sqlite", "file:"+p+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, err = other.Exec("SELECT * FROM nothing")
	if err == nil || isBusy(err) {
		t.Errorf("a missing table: isBusy(%v) is true, or the query did not fail", err)
	}
	conn, err := holder.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	_, err = other.Exec("CREATE TABLE y(a)")
	if err == nil || !isBusy(fmt.Errorf("open history: %w", err)) {
		t.Errorf("a write under another's exclusive lock: isBusy(%v) is false", err)
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
}
