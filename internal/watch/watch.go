// Package watch tells a long-running process whether a repository's files
// may have changed since a moment, from the kernel's notifications, so
// that it need not walk the repository before every answer.
//
// A Watcher watches folders, one by one, as a walk of the repository
// found them. Begin marks the moment a walk starts; Unchanged reports
// whether no folder changed since. Unchanged first waits until the
// notifications of every change made before it was called have arrived:
// it writes a cookie file in a folder of its own and waits for that
// file's notification, which the kernel queues after theirs (watchman's
// way). When it cannot be sure, it says the files may have changed.
package watch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Supported reports whether watching is available: on Linux, whose
// inotify queues the notifications of one watcher in the order of the
// changes, which the cookie relies on.
const Supported = runtime.GOOS == "linux"

// cookiePrefix begins the name of a watcher's cookie folder, in the
// temporary folder: hone-watch-PID-, then what makes it unique.
const cookiePrefix = "hone-watch-"

// syncTimeout bounds the wait for a cookie's notification; past it, the
// files may have changed.
const syncTimeout = time.Second

// Watcher watches a repository's folders.
type Watcher struct {
	root    string
	fw      *fsnotify.Watcher
	cookies string // the folder of the cookie files, outside the repository

	mu      sync.Mutex
	changed bool  // a folder changed since Begin, or may have
	broken  error // the watcher lost events for good
	watched map[string]bool
	// outside: folders watched for some files alone (files), not walked:
	// an ignore file above the repository, the user's excludes file.
	outside map[string]bool
	files   map[string]bool
	pending map[string]bool          // files whose folder is not watched yet
	waiting map[string]chan struct{} // cookie path -> closed when seen
	seq     int
	done    chan struct{}
}

// New starts a watcher of the repository at root, which watches no folder
// yet: until Watch and Begin, its files may have changed.
func New(root string) (*Watcher, error) {
	if !Supported {
		return nil, fmt.Errorf("watch %s: watching needs Linux's inotify", root)
	}
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	sweepStale(os.TempDir())
	cookies, err := os.MkdirTemp("", cookiePrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	if err := fw.Add(cookies); err != nil {
		fw.Close()
		os.RemoveAll(cookies)
		return nil, fmt.Errorf("watch %s: %w", root, err)
	}
	w := &Watcher{root: root, fw: fw, cookies: cookies, changed: true, watched: map[string]bool{}, outside: map[string]bool{}, files: map[string]bool{}, pending: map[string]bool{}, waiting: map[string]chan struct{}{}, done: make(chan struct{})}
	go w.loop()
	return w, nil
}

// Watch watches the folders, slash paths relative to the root ("." for
// the root), that it does not watch yet. A folder it starts to watch may
// have changed before: the files may have changed. An error means the
// watcher cannot be relied on (the kernel's limit on watches, say), and
// it says the files may have changed from then on.
func (w *Watcher) Watch(dirs []string) error {
	added := false
	for _, d := range dirs {
		abs := filepath.Join(w.root, filepath.FromSlash(d))
		w.mu.Lock()
		had := w.watched[abs]
		w.mu.Unlock()
		if had {
			continue
		}
		if err := w.fw.Add(abs); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				added = true // gone since the walk: a change
				continue
			}
			err = fmt.Errorf("watch %s: %w", abs, err)
			w.fail(err)
			return err
		}
		w.mu.Lock()
		w.watched[abs] = true
		w.mu.Unlock()
		added = true
	}
	if added {
		w.mu.Lock()
		w.changed = true
		w.mu.Unlock()
	}
	return nil
}

// WatchFiles watches the files, absolute paths outside the repository's
// walked folders, that it does not watch yet: their folders are watched
// for them alone, so that a change of another file there (a shell's
// history in the home folder) counts for nothing. A file that does not
// exist is watched for its making; where its folder does not exist
// either, the nearest folder above it that does is watched for the next
// folder down to be made, and the file's own folder is watched from the
// first call after. A file whose folder cannot be watched otherwise (not
// a folder, not this user's to read) is passed over. A link is watched at
// its target as well. A file it starts to watch may have changed before:
// the files may have changed. An error means the watcher cannot be relied
// on (the kernel's limits), as for Watch.
func (w *Watcher) WatchFiles(paths []string) error {
	added := false
	// A file that is a link (a dotfile manager's ~/.gitconfig) is edited
	// at its target: the target is watched too.
	for _, p := range paths {
		if t, err := filepath.EvalSymlinks(p); err == nil && t != filepath.Clean(p) {
			paths = append(slices.Clip(paths), t)
		}
	}
	for _, p := range paths {
		p = filepath.Clean(p)
		dir := filepath.Dir(p)
		w.mu.Lock()
		had, pending, watching := w.files[p], w.pending[p], w.watched[dir] || w.outside[dir]
		w.files[p] = true
		if watching {
			delete(w.pending, p)
		}
		w.mu.Unlock()
		if had && !pending {
			continue
		}
		if watching {
			added = true
			continue
		}
		err := w.fw.Add(dir)
		switch {
		case err == nil:
			w.mu.Lock()
			w.outside[dir] = true
			delete(w.pending, p)
			w.mu.Unlock()
			added = true
		case atLimit(err):
			// Only the kernel's limits make the watcher unreliable.
			err = fmt.Errorf("watch %s: %w", dir, err)
			w.fail(err)
			return err
		case errors.Is(err, os.ErrNotExist):
			if err := w.watchAbove(dir); err != nil {
				return err
			}
			w.mu.Lock()
			w.pending[p] = true
			w.mu.Unlock()
			added = added || !had
		default:
			added = added || !had // not a folder, or not this user's: passed over
		}
	}
	if added {
		w.mu.Lock()
		w.changed = true
		w.mu.Unlock()
	}
	return nil
}

// atLimit reports whether err is one of the kernel's limits (on watches,
// open files, memory): the only errors that make a watcher unreliable.
func atLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOMEM)
}

// watchAbove watches the nearest folder above dir that exists, for the
// making of the next folder down towards dir.
func (w *Watcher) watchAbove(dir string) error {
	for child, up := dir, filepath.Dir(dir); up != child; child, up = up, filepath.Dir(up) {
		w.mu.Lock()
		watching := w.watched[up] || w.outside[up]
		w.mu.Unlock()
		if !watching {
			err := w.fw.Add(up)
			switch {
			case errors.Is(err, os.ErrNotExist):
				continue
			case atLimit(err):
				err = fmt.Errorf("watch %s: %w", up, err)
				w.fail(err)
				return err
			case err != nil:
				return nil // passed over
			}
		}
		w.mu.Lock()
		w.outside[up] = true
		w.files[child] = true
		w.mu.Unlock()
		return nil
	}
	return nil
}

// Begin marks the start of a walk: changes from now on count.
func (w *Watcher) Begin() {
	w.mu.Lock()
	w.changed = false
	w.mu.Unlock()
}

// Unchanged reports whether no watched folder changed since Begin, once
// the notifications of all changes made before the call have arrived.
func (w *Watcher) Unchanged(ctx context.Context) bool {
	if !w.sync(ctx) {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.changed && w.broken == nil
}

// Err is why the watcher can no longer be relied on, if it cannot.
func (w *Watcher) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.broken
}

// Close stops the watcher and removes its cookie folder.
func (w *Watcher) Close() error {
	err := w.fw.Close()
	<-w.done
	if rerr := os.RemoveAll(w.cookies); err == nil {
		err = rerr
	}
	return err
}

// sync writes a cookie and waits for its notification: every change made
// before has then been noted.
func (w *Watcher) sync(ctx context.Context) bool {
	w.mu.Lock()
	w.seq++
	name := filepath.Join(w.cookies, fmt.Sprintf("cookie-%d", w.seq))
	seen := make(chan struct{})
	w.waiting[name] = seen
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.waiting, name)
		w.mu.Unlock()
		os.Remove(name)
	}()
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return false
	}
	t := time.NewTimer(syncTimeout)
	defer t.Stop()
	select {
	case <-seen:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	case <-w.done:
		return false
	}
}

func (w *Watcher) fail(err error) {
	w.mu.Lock()
	if w.broken == nil {
		w.broken = err
	}
	w.changed = true
	w.mu.Unlock()
}

// loop notes the notifications until the watcher is closed.
func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.note(ev)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost, but the watches stand: walk once.
				w.mu.Lock()
				w.changed = true
				w.mu.Unlock()
				continue
			}
			w.fail(err)
		}
	}
}

func (w *Watcher) note(ev fsnotify.Event) {
	w.mu.Lock()
	if filepath.Dir(ev.Name) == w.cookies {
		if seen, ok := w.waiting[ev.Name]; ok && ev.Has(fsnotify.Create) {
			close(seen)
			delete(w.waiting, ev.Name)
		}
		w.mu.Unlock()
		return
	}
	// In a folder watched for some files alone, another file is no change;
	// a watched folder (the repository's root below a home folder, or
	// another folder watched for some files) moved or gone is one.
	if dir := filepath.Dir(ev.Name); w.outside[dir] && !w.watched[dir] && !w.files[ev.Name] && !w.watched[ev.Name] && !w.outside[ev.Name] {
		w.mu.Unlock()
		return
	}
	w.changed = true
	// A folder watched for some files, moved or gone: its files are
	// watched again, where they are then, from the next WatchFiles.
	if (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && w.outside[ev.Name] && !w.watched[ev.Name] {
		delete(w.outside, ev.Name)
		for p := range w.files {
			if filepath.Dir(p) == ev.Name {
				w.pending[p] = true
			}
		}
	}
	// A folder moved or gone is watched again, under its new name, when
	// a walk finds it; so are the folders under it, whose watches went
	// with it: a folder made again at one of their paths is a new one.
	var gone []string
	if (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && w.watched[ev.Name] {
		under := ev.Name + string(filepath.Separator)
		for p := range w.watched {
			if p == ev.Name || strings.HasPrefix(p, under) {
				gone = append(gone, p)
				delete(w.watched, p)
			}
		}
	}
	w.mu.Unlock()
	for _, p := range gone {
		w.fw.Remove(p) // the kernel may have dropped it already
	}
}
