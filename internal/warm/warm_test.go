package warm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/watch"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// filesOf is how many files the pool's index of repo holds, after the
// call's update.
func filesOf(t *testing.T, p *Pool, repo string) int {
	t.Helper()
	ix, release, err := p.Index(context.Background(), repo, Call{})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	st, err := ix.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Files
}

// countingPool is a new pool and two counts: the files its index of repo
// holds after a call's update (the call made by asking), and its walks so
// far.
func countingPool(t *testing.T, repo string) (files func() int, walks func() int) {
	t.Helper()
	p := New(t.TempDir(), quiet())
	t.Cleanup(func() { p.Close() })
	n := 0
	p.OnWalk(func(string) { n++ })
	return func() int { t.Helper(); return filesOf(t, p, repo) }, func() int { return n }
}

// A pool walks a repository on its first call and, where it can watch,
// not again until a file changes; a change is seen by the next call.
func TestWalksOnlyOnChange(t *testing.T) {
	repo := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n\nfunc Alpha() {}\n")
	files, walked := countingPool(t, repo)
	if n := files(); n != 1 {
		t.Fatalf("%d files, want 1", n)
	}
	files() // the folders may have changed before their watches: one more walk
	settled := walked()
	files()
	switch {
	case watch.Supported && walked() != settled:
		t.Errorf("a call walked though no file changed (%d walks, then %d)", settled, walked())
	case !watch.Supported && walked() != settled+1:
		t.Errorf("without watching, every call must walk (%d walks, then %d)", settled, walked())
	}
	write("b.go", "package a\n\nfunc Bravo() {}\n")
	if n := files(); n != 2 {
		t.Errorf("after a new file: %d files, want 2", n)
	}
}

// An edit of the repository's .git/info/exclude, which the walk reads but
// does not walk, is seen by the next call: the file it excludes leaves.
func TestExcludeFileWatched(t *testing.T) {
	if !watch.Supported {
		t.Skip("watching needs Linux")
	}
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.go", "b.go"} {
		if err := os.WriteFile(filepath.Join(repo, f), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, walked := countingPool(t, repo)
	files()
	if n := files(); n != 2 {
		t.Fatalf("%d files, want 2", n)
	}
	// Watched, a call with nothing changed does not walk.
	settled := walked()
	if files(); walked() != settled {
		t.Fatalf("a call walked with nothing changed: the repository is not watched")
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "info", "exclude"), []byte("b.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := files(); n != 1 {
		t.Errorf("after b.go was excluded: %d files, want 1", n)
	}
}

// An edit of a nested repository's .git/info/exclude (a repository inside
// this one that is no submodule), which the walk reads but does not walk,
// is seen by the next call too.
func TestNestedExcludeFileWatched(t *testing.T) {
	if !watch.Supported {
		t.Skip("watching needs Linux")
	}
	repo := t.TempDir()
	for _, d := range []string{filepath.Join(repo, ".git", "info"), filepath.Join(repo, "nested", ".git", "info")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a.go", "nested/b.go", "nested/c.go"} {
		if err := os.WriteFile(filepath.Join(repo, f), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, walked := countingPool(t, repo)
	files()
	if n := files(); n != 3 {
		t.Fatalf("%d files, want 3", n)
	}
	settled := walked()
	if files(); walked() != settled {
		t.Fatalf("a call walked with nothing changed: the repository is not watched")
	}
	if err := os.WriteFile(filepath.Join(repo, "nested", ".git", "info", "exclude"), []byte("c.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := files(); n != 2 {
		t.Errorf("after nested/c.go was excluded: %d files, want 2", n)
	}
}

// The files a walk reads from outside the repository are watched too: an
// edit of an ignore file above a repository that is a folder inside a
// work tree, or of the user's excludes file, is seen by the next call; a
// change of another file beside them (a shell's history in the home
// folder) makes no walk.
func TestRuleFilesWatched(t *testing.T) {
	if !watch.Supported {
		t.Skip("watching needs Linux")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	top := t.TempDir()
	repo := filepath.Join(top, "packages", "web")
	for _, d := range []string{filepath.Join(top, ".git", "info"), repo, filepath.Join(home, ".config", "git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, text string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a.go", "b.log", "c.tmp"} {
		write(filepath.Join(repo, f), "package a\n")
	}
	files, walked := countingPool(t, repo)
	files()
	if n := files(); n != 3 {
		t.Fatalf("%d files, want 3", n)
	}
	settled := walked()
	write(filepath.Join(home, ".bash_history"), "ls\n")
	if n := files(); n != 3 || walked() != settled {
		t.Errorf("after another file in the home folder: %d files, %d walks; want 3 and none", n, walked()-settled)
	}
	write(filepath.Join(top, ".gitignore"), "*.log\n")
	if n := files(); n != 2 {
		t.Errorf("after *.log was ignored above the repository: %d files, want 2", n)
	}
	write(filepath.Join(home, ".config", "git", "ignore"), "*.tmp\n")
	if n := files(); n != 1 {
		t.Errorf("after *.tmp was ignored by the user's excludes file: %d files, want 1", n)
	}
}

// An index another process replaced (a damaged one is built anew) is
// opened again: the pool does not answer from the file it had.
func TestIndexReplaced(t *testing.T) {
	repo, dir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := New(dir, quiet())
	t.Cleanup(func() { p.Close() })
	ctx := context.Background()
	ix, release, err := p.Index(ctx, repo, Call{})
	if err != nil {
		t.Fatal(err)
	}
	path, first := ix.Path, p.repos[repo].file
	release()
	// Replace the file: move it away and build another in its place.
	if err := os.Rename(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"-wal", "-shm"} {
		os.Rename(path+ext, path+".old"+ext)
	}
	ix, release, err = p.Index(ctx, repo, Call{})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	fi, err := os.Stat(ix.Path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(fi, first) {
		t.Errorf("the pool still reads the replaced file")
	}
	if st, err := ix.Status(ctx); err != nil || st.Files != 1 {
		t.Errorf("the new index: %+v, %v; want 1 file", st, err)
	}
}

// Past MaxOpen repositories the least recently used entry is closed once
// the call holding it ends, and marked so that a call waiting for it takes
// the repository's new entry.
func TestEvictLeastRecentlyUsed(t *testing.T) {
	p := New(t.TempDir(), quiet())
	t.Cleanup(func() { p.Close() })
	first := p.entry("/repo/0")
	first.mu.Lock() // a call holds it
	for i := 1; i <= MaxOpen; i++ {
		p.entry(fmt.Sprintf("/repo/%d", i))
	}
	p.mu.Lock()
	_, kept := p.repos["/repo/0"]
	p.mu.Unlock()
	if kept {
		t.Fatal("the least recently used repository is still open")
	}
	if first.evicted {
		t.Fatal("closed while a call held it")
	}
	first.mu.Unlock()
	for {
		first.mu.Lock()
		evicted := first.evicted
		first.mu.Unlock()
		if evicted {
			break
		}
		runtime.Gosched()
	}
	if p.entry("/repo/0") == first {
		t.Error("a call took the closed entry again")
	}
}

// What the index says while a call holds it (here, that it was damaged
// and is built anew) reaches that call's notices, not the log alone.
func TestCallHearsNotices(t *testing.T) {
	repo, dir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path, err := index.PathOf(repo, index.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Repeat([]byte("not a database "), 512), 0o600); err != nil {
		t.Fatal(err)
	}
	p := New(dir, quiet())
	t.Cleanup(func() { p.Close() })
	var heard []string
	ix, release, err := p.Index(context.Background(), repo, Call{Notice: func(n string) { heard = append(heard, n) }})
	if err != nil {
		t.Fatal(err)
	}
	st, err := ix.Status(context.Background())
	release()
	if err != nil || st.Files != 1 {
		t.Fatalf("the new index: %+v, %v", st, err)
	}
	if len(heard) == 0 {
		t.Error("the call heard nothing of the damaged index")
	}
	// The next call, with no sink, hears nothing, and the first's sink
	// is let go.
	heard = nil
	_, release, err = p.Index(context.Background(), repo, Call{})
	if err != nil {
		t.Fatal(err)
	}
	release()
	if len(heard) != 0 {
		t.Errorf("a later call's notices reached the first call: %q", heard)
	}
}

// goFiles is a new repository of n Go files.
func goFiles(t *testing.T, n int) string {
	t.Helper()
	repo := t.TempDir()
	for i := range n {
		name := filepath.Join(repo, fmt.Sprintf("f%02d.go", i))
		if err := os.WriteFile(name, []byte(fmt.Sprintf("package f\n\nfunc F%d() {}\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

// A call's Progress hears the pool's update of the index, file by file,
// to the last.
func TestIndexProgress(t *testing.T) {
	repo := goFiles(t, 12)
	p := New(t.TempDir(), quiet())
	t.Cleanup(func() { p.Close() })
	var heard []index.Progress
	call := Call{Progress: func(pr index.Progress) { heard = append(heard, pr) }}
	_, release, err := p.Index(context.Background(), repo, call)
	if err != nil {
		t.Fatal(err)
	}
	release()
	if len(heard) != 12 {
		t.Fatalf("heard %d reports of the first index, want one a file: %+v", len(heard), heard)
	}
	for i, pr := range heard {
		if pr.Done != i+1 || pr.Total != 12 {
			t.Errorf("report %d is %d of %d, want %d of 12", i, pr.Done, pr.Total, i+1)
		}
	}
	if last := heard[len(heard)-1]; last.Bytes <= 0 {
		t.Errorf("the last report counts %d bytes read", last.Bytes)
	}
}

// A call that waits for another call's update of the same index hears
// that update's progress too, to its last file.
func TestWaitingCallHearsProgress(t *testing.T) {
	repo := goFiles(t, 40)
	p := New(t.TempDir(), quiet())
	t.Cleanup(func() { p.Close() })
	started, proceed := make(chan struct{}), make(chan struct{})
	var once sync.Once
	first := Call{Progress: func(index.Progress) {
		once.Do(func() { close(started); <-proceed })
	}}
	// What the second call hears while the first's update runs.
	var heard []index.Progress
	var mu sync.Mutex
	var firstDone atomic.Bool
	second := Call{Progress: func(pr index.Progress) {
		mu.Lock()
		if !firstDone.Load() {
			heard = append(heard, pr)
		}
		mu.Unlock()
	}}
	done := make(chan error, 2)
	run := func(c Call, after func()) {
		_, release, err := p.Index(context.Background(), repo, c)
		if err == nil {
			release()
		}
		after()
		done <- err
	}
	go run(first, func() { firstDone.Store(true) })
	<-started
	go run(second, func() {})
	// The second call is waiting once it listens.
	e := p.entry(repo)
	for {
		e.lmu.Lock()
		n := len(e.listeners)
		e.lmu.Unlock()
		if n == 2 {
			break
		}
		runtime.Gosched()
	}
	close(proceed)
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) == 0 || heard[len(heard)-1].Done != 40 || heard[len(heard)-1].Total != 40 {
		t.Errorf("while the first call's update ran, the waiting call heard %+v, want it to its 40th file", heard)
	}
}

// On a file system whose changes raise no event to watch (a network or
// user-space one), every call walks: an edit made from the other side is
// seen by the next call.
func TestUnwatchableFileSystemWalks(t *testing.T) {
	was := eventsReliable
	eventsReliable = func(string) bool { return false }
	t.Cleanup(func() { eventsReliable = was })
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, walked := countingPool(t, repo)
	files()
	before := walked()
	files()
	files()
	if walked() != before+2 {
		t.Errorf("%d walks after two calls, want %d: a call on an unwatchable file system must walk", walked(), before+2)
	}
}

// Repaired reads once where the read meets no damage, and where it does,
// rebuilds the index and reads again.
func TestRepaired(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n\nfunc Alpha() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := fmt.Errorf("search the index: %w", context.Canceled)
	damaged := fmt.Errorf("read index: database disk image is malformed")
	for _, tc := range []struct {
		name  string
		errs  []error // what each read returns, in turn
		reads int
		want  error
	}{
		{"no error", []error{nil}, 1, nil},
		{"another error", []error{other}, 1, other},
		{"damage, then none", []error{damaged, nil}, 2, nil},
		{"damage twice", []error{damaged, damaged}, 2, damaged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := New(t.TempDir(), quiet())
			defer p.Close()
			ix, release, err := p.Index(context.Background(), repo, Call{})
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			before, err := ix.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			reads := 0
			err = Repaired(context.Background(), ix, func() error {
				reads++
				return tc.errs[reads-1]
			})
			if reads != tc.reads {
				t.Errorf("%d reads, want %d", reads, tc.reads)
			}
			if err != tc.want {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			st, err := ix.Status(context.Background())
			if err != nil || st.Files != 1 {
				t.Errorf("after: %d files, %v; want the one file", st.Files, err)
			}
			// A rebuild, where the read met damage, and none elsewhere.
			if rebuilt := st.Updated.After(before.Updated); rebuilt != (tc.reads == 2) {
				t.Errorf("rebuilt %v (updated %v, before %v), want %v", rebuilt, st.Updated, before.Updated, tc.reads == 2)
			}
		})
	}
}
