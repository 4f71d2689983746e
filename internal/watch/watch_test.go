package watch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newWatcher(t *testing.T, root string, dirs ...string) *Watcher {
	t.Helper()
	if !Supported {
		t.Skip("watching needs Linux")
	}
	w, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.Watch(dirs); err != nil {
		t.Fatal(err)
	}
	return w
}

func mkdirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, root, p, s string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Each change to a watched folder shows at once: Unchanged waits for
// the notifications of the changes made before it, with no sleep.
func TestChanges(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		change func(t *testing.T, root string)
		want   bool // unchanged
	}{
		{"nothing", func(t *testing.T, root string) {}, true},
		{"a file written", func(t *testing.T, root string) { write(t, root, "src/a.go", "package a // edited\n") }, false},
		{"a file created", func(t *testing.T, root string) { write(t, root, "src/new.go", "package a\n") }, false},
		{"a file created in the root", func(t *testing.T, root string) { write(t, root, "notes.md", "x\n") }, false},
		{"a file removed", func(t *testing.T, root string) { os.Remove(filepath.Join(root, "src/a.go")) }, false},
		{"a file renamed", func(t *testing.T, root string) {
			os.Rename(filepath.Join(root, "src/a.go"), filepath.Join(root, "src/b.go"))
		}, false},
		{"a folder made", func(t *testing.T, root string) { mkdirs(t, root, "src/pkg") }, false},
		{"a file's mode", func(t *testing.T, root string) { os.Chmod(filepath.Join(root, "src/a.go"), 0o600) }, false},
		{"a folder it does not watch", func(t *testing.T, root string) { write(t, root, "build/out.o", "x") }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			mkdirs(t, root, "src", "build")
			write(t, root, "src/a.go", "package a\n")
			w := newWatcher(t, root, ".", "src")
			w.Begin()
			if !w.Unchanged(ctx) {
				t.Fatal("changed before any change")
			}
			c.change(t, root)
			if got := w.Unchanged(ctx); got != c.want {
				t.Errorf("unchanged %v, want %v", got, c.want)
			}
			// Begin starts afresh.
			w.Begin()
			if !w.Unchanged(ctx) {
				t.Error("changed after Begin, with no change since")
			}
		})
	}
}

// Until Begin, and whenever a folder starts to be watched, the files may
// have changed: nothing watched them before.
func TestNewFoldersMayHaveChanged(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	mkdirs(t, root, "src", "docs")
	w := newWatcher(t, root, ".")
	if w.Unchanged(ctx) {
		t.Error("unchanged before Begin")
	}
	w.Begin()
	if err := w.Watch([]string{".", "src"}); err != nil {
		t.Fatal(err)
	}
	if w.Unchanged(ctx) {
		t.Error("unchanged though src was only now watched")
	}
	w.Begin()
	if err := w.Watch([]string{".", "src"}); err != nil { // nothing new
		t.Fatal(err)
	}
	if !w.Unchanged(ctx) {
		t.Error("changed, though every folder was watched already")
	}
	w.Begin()
	if err := w.Watch([]string{"gone"}); err != nil {
		t.Fatal(err)
	}
	if w.Unchanged(ctx) {
		t.Error("unchanged, though a folder the walk saw is gone")
	}
}

// A folder renamed is watched again under its new name; its old watch
// no longer stands for it.
func TestFolderRenamed(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	mkdirs(t, root, "old")
	w := newWatcher(t, root, ".", "old")
	w.Begin()
	if err := os.Rename(filepath.Join(root, "old"), filepath.Join(root, "new")); err != nil {
		t.Fatal(err)
	}
	if w.Unchanged(ctx) {
		t.Fatal("unchanged after a rename")
	}
	w.Begin()
	if err := w.Watch([]string{".", "new"}); err != nil {
		t.Fatal(err)
	}
	w.Begin()
	write(t, root, "new/a.go", "package a\n")
	if w.Unchanged(ctx) {
		t.Error("a file written in the renamed folder went unseen")
	}
}

// A folder moved away takes the watches of the folders under it: one made
// again at one of their paths is watched anew, and its changes are seen.
func TestFolderMadeAgainWhereOneMovedAway(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	mkdirs(t, root, "pkg/a/sub")
	w := newWatcher(t, root, ".", "pkg", "pkg/a", "pkg/a/sub")
	w.Begin()
	if err := os.Rename(filepath.Join(root, "pkg", "a"), filepath.Join(root, "pkg", "b")); err != nil {
		t.Fatal(err)
	}
	mkdirs(t, root, "pkg/a/sub")
	if w.Unchanged(ctx) {
		t.Fatal("unchanged after a move")
	}
	// The walk after the move finds both folders, and watches them.
	w.Begin()
	if err := w.Watch([]string{".", "pkg", "pkg/a", "pkg/a/sub", "pkg/b", "pkg/b/sub"}); err != nil {
		t.Fatal(err)
	}
	w.Begin()
	write(t, root, "pkg/a/sub/a.go", "package sub\n")
	if w.Unchanged(ctx) {
		t.Error("a file written in the folder made again went unseen")
	}
}

func TestCloseRemovesCookies(t *testing.T) {
	root := t.TempDir()
	w := newWatcher(t, root, ".")
	w.Begin()
	w.Unchanged(context.Background())
	dir := w.cookies
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the cookie folder %s is left: %v", dir, err)
	}
	if w.Unchanged(context.Background()) {
		t.Error("a closed watcher says unchanged")
	}
}

// A cookie folder a killed watcher left is removed by the next watcher;
// one of a running process, or of a name it did not make, stays.
func TestStaleCookiesSwept(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	stale := filepath.Join(tmp, fmt.Sprintf("%s%d-123", cookiePrefix, gone.Process.Pid))
	live := filepath.Join(tmp, fmt.Sprintf("%s%d-456", cookiePrefix, os.Getppid()))
	other := filepath.Join(tmp, cookiePrefix+"789")          // an older build's, touched lately
	oldStale := filepath.Join(tmp, cookiePrefix+"123456789") // an older build's, untouched for two days
	foreign := filepath.Join(tmp, cookiePrefix+"notes")      // no build's
	for _, d := range []string{stale, live, other, oldStale, foreign} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	twoDays := time.Now().Add(-48 * time.Hour)
	for _, d := range []string{oldStale, foreign} {
		if err := os.Chtimes(d, twoDays, twoDays); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(stale, "cookie-1"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w := newWatcher(t, t.TempDir(), ".")
	defer w.Close()
	for _, d := range []string{stale, oldStale} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("the stale cookie folder %s is left: %v", filepath.Base(d), err)
		}
	}
	for _, d := range []string{live, other, foreign} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	if !strings.HasPrefix(filepath.Base(w.cookies), fmt.Sprintf("%s%d-", cookiePrefix, os.Getpid())) {
		t.Errorf("the cookie folder %s does not name its process", w.cookies)
	}
}

// Files outside the repository are watched for themselves alone: a
// change of another file in their folder is no change.
func TestWatchFiles(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		change func(t *testing.T, out string)
		want   bool // unchanged
	}{
		{"nothing", func(t *testing.T, out string) {}, true},
		{"another file beside it", func(t *testing.T, out string) { write(t, out, ".bash_history", "ls\n") }, true},
		{"the file written", func(t *testing.T, out string) { write(t, out, ".gitignore", "*.log\n") }, false},
		{"a file not there made", func(t *testing.T, out string) { write(t, out, "ignore", "*.tmp\n") }, false},
		{"the file replaced by a rename", func(t *testing.T, out string) {
			write(t, out, ".gitignore.new", "*.o\n")
			os.Rename(filepath.Join(out, ".gitignore.new"), filepath.Join(out, ".gitignore"))
		}, false},
		{"the file removed", func(t *testing.T, out string) { os.Remove(filepath.Join(out, ".gitignore")) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, out := t.TempDir(), t.TempDir()
			write(t, out, ".gitignore", "*.tmp\n")
			w := newWatcher(t, root, ".")
			if err := w.WatchFiles([]string{filepath.Join(out, ".gitignore"), filepath.Join(out, "ignore"), filepath.Join(out, "gone", "x")}); err != nil {
				t.Fatal(err)
			}
			w.Begin()
			if !w.Unchanged(ctx) {
				t.Fatal("changed before any change")
			}
			c.change(t, out)
			if got := w.Unchanged(ctx); got != c.want {
				t.Errorf("unchanged %v, want %v", got, c.want)
			}
		})
	}
}

// A file starting to be watched may have changed before; one watched
// already changes nothing when asked for again.
func TestWatchFilesNew(t *testing.T) {
	ctx := context.Background()
	root, out := t.TempDir(), t.TempDir()
	w := newWatcher(t, root, ".")
	w.Begin()
	if err := w.WatchFiles([]string{filepath.Join(out, "a")}); err != nil {
		t.Fatal(err)
	}
	if w.Unchanged(ctx) {
		t.Error("unchanged after a file started to be watched")
	}
	w.Begin()
	if err := w.WatchFiles([]string{filepath.Join(out, "a")}); err != nil {
		t.Fatal(err)
	}
	if !w.Unchanged(ctx) {
		t.Error("changed after a file watched already was asked for again")
	}
}

// The repository's root moved away, in a folder watched for some files
// alone (a repository in the home folder, beside ~/.gitconfig), is a
// change: a new tree at its path is another repository.
func TestRootMovedBesideWatchedFile(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	root := filepath.Join(home, "proj")
	mkdirs(t, home, "proj")
	write(t, root, "a.go", "package a\n")
	w := newWatcher(t, root, ".")
	if err := w.WatchFiles([]string{filepath.Join(home, ".gitconfig")}); err != nil {
		t.Fatal(err)
	}
	w.Begin()
	if err := os.Rename(root, filepath.Join(home, "proj.bak")); err != nil {
		t.Fatal(err)
	}
	mkdirs(t, home, "proj")
	write(t, root, "b.go", "package b\n")
	if w.Unchanged(ctx) {
		t.Error("unchanged after the root was moved away and made again")
	}
}

// A path that cannot be watched (under a file: not a folder) is passed
// over; the watcher stays reliable.
func TestWatchFilesUnwatchable(t *testing.T) {
	ctx := context.Background()
	root, out := t.TempDir(), t.TempDir()
	write(t, out, "plain", "x")
	w := newWatcher(t, root, ".")
	if err := w.WatchFiles([]string{filepath.Join(out, "plain", "git", "ignore")}); err != nil {
		t.Fatalf("WatchFiles of a path under a file: %v", err)
	}
	if err := w.Err(); err != nil {
		t.Fatalf("the watcher failed: %v", err)
	}
	w.Begin()
	if !w.Unchanged(ctx) {
		t.Error("changed with no change")
	}
}

// A watched file that is a link (a dotfile manager's) is watched at its
// target: an edit there is a change.
func TestWatchFilesLink(t *testing.T) {
	ctx := context.Background()
	root, home, dots := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, dots, "gitconfig", "[core]\n")
	if err := os.Symlink(filepath.Join(dots, "gitconfig"), filepath.Join(home, ".gitconfig")); err != nil {
		t.Skip(err)
	}
	w := newWatcher(t, root, ".")
	if err := w.WatchFiles([]string{filepath.Join(home, ".gitconfig")}); err != nil {
		t.Fatal(err)
	}
	w.Begin()
	write(t, dots, "other", "x") // beside the target: no change
	if !w.Unchanged(ctx) {
		t.Error("changed by another file beside the link's target")
	}
	f, err := os.OpenFile(filepath.Join(home, ".gitconfig"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\texcludesFile = ~/x\n")
	f.Close()
	if w.Unchanged(ctx) {
		t.Error("unchanged after an edit of the linked file")
	}
}

// A file whose folder does not exist yet is watched through the nearest
// folder above that does: the folder's making is a change, and the file
// is watched in it from the next WatchFiles, as after the walk it makes.
func TestWatchFilesFolderMadeLater(t *testing.T) {
	ctx := context.Background()
	root, home := t.TempDir(), t.TempDir()
	ignore := filepath.Join(home, ".config", "git", "ignore")
	w := newWatcher(t, root, ".")
	watchFiles := func() {
		t.Helper()
		if err := w.WatchFiles([]string{ignore}); err != nil {
			t.Fatal(err)
		}
	}
	watchFiles()
	w.Begin()
	write(t, home, ".bash_history", "ls\n")
	watchFiles() // asked again, nothing made: no change
	if !w.Unchanged(ctx) {
		t.Fatal("changed before the folder was made")
	}
	mkdirs(t, home, ".config")
	if w.Unchanged(ctx) {
		t.Fatal("unchanged after the first missing folder was made")
	}
	watchFiles()
	w.Begin()
	mkdirs(t, home, ".config/git")
	if w.Unchanged(ctx) {
		t.Fatal("unchanged after the file's folder was made")
	}
	watchFiles()
	w.Begin()
	write(t, home, ".config/git/other", "x")
	if !w.Unchanged(ctx) {
		t.Fatal("changed by another file in the file's folder")
	}
	write(t, home, ".config/git/ignore", "*.tmp\n")
	if w.Unchanged(ctx) {
		t.Error("unchanged after the file was made in the folder made later")
	}
}

// A folder watched for a file, removed and made again, is watched again
// from the next WatchFiles.
func TestWatchFilesFolderRemoved(t *testing.T) {
	ctx := context.Background()
	root, home := t.TempDir(), t.TempDir()
	mkdirs(t, home, "conf")
	file := filepath.Join(home, "conf", "ignore")
	w := newWatcher(t, root, ".")
	if err := w.WatchFiles([]string{file, filepath.Join(home, ".gitconfig")}); err != nil {
		t.Fatal(err)
	}
	w.Begin()
	if err := os.RemoveAll(filepath.Join(home, "conf")); err != nil {
		t.Fatal(err)
	}
	if w.Unchanged(ctx) {
		t.Fatal("unchanged after the watched folder was removed")
	}
	mkdirs(t, home, "conf")
	if err := w.WatchFiles([]string{file}); err != nil {
		t.Fatal(err)
	}
	w.Begin()
	write(t, home, "conf/ignore", "*.log\n")
	if w.Unchanged(ctx) {
		t.Error("unchanged after the file was written in the folder made again")
	}
}
