// Package warm keeps repositories' indexes open between calls and, on
// Linux, watches their folders, so that a call walks a repository only
// when a file changed: what hone's long-running processes (hone mcp,
// hone serve) share.
package warm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/watch"
	"github.com/hone-tools/hone/walk"
)

// MaxOpen bounds the indexes a pool keeps open, for clients that move
// between repositories.
const MaxOpen = 4

// Pool holds open indexes, by repository. Its methods are safe for
// concurrent use; calls on one repository take its index one at a time.
type Pool struct {
	dir string // where the indexes live; empty for the default
	log *slog.Logger
	// walked, if set, is called when a call walks a repository.
	walked func(root string)

	mu    sync.Mutex
	repos map[string]*entry // the open indexes, by repository
	used  []string          // their repositories, least recently used first
}

// entry is a repository's index, kept open between calls, which take it
// one at a time, and the watcher that tells whether its files changed.
type entry struct {
	mu      sync.Mutex
	ix      *index.Index
	file    os.FileInfo    // the index's file, as opened
	watcher *watch.Watcher // nil: every call walks the repository
	noWatch bool           // watching failed here once: do not try again
	evicted bool           // closed for good: a call takes the repository's new entry
	// notice is the notices' sink of the call that holds the entry, if
	// it has one: what the index says goes to that call's user too.
	notice atomic.Pointer[func(string)]

	// listeners hear the progress of the update under way: the call's
	// that makes it, and those of the calls waiting for the entry, which
	// wait on the same update. By a number each; under lmu.
	lmu       sync.Mutex
	listeners map[int]func(index.Progress)
	nextID    int
}

// listen has f hear the progress of the entry's updates until the
// returned function is called.
func (e *entry) listen(f func(index.Progress)) (stop func()) {
	e.lmu.Lock()
	defer e.lmu.Unlock()
	if e.listeners == nil {
		e.listeners = map[int]func(index.Progress){}
	}
	id := e.nextID
	e.nextID++
	e.listeners[id] = f
	return func() {
		e.lmu.Lock()
		delete(e.listeners, id)
		e.lmu.Unlock()
	}
}

// progress tells every listener how the update goes.
func (e *entry) progress(p index.Progress) {
	e.lmu.Lock()
	fs := make([]func(index.Progress), 0, len(e.listeners))
	for _, f := range e.listeners {
		fs = append(fs, f)
	}
	e.lmu.Unlock()
	for _, f := range fs {
		f(p)
	}
}

// New makes a pool of the indexes in dir (empty: index.DefaultDir); log
// receives what it has to say, such as why a repository cannot be
// watched.
func New(dir string, log *slog.Logger) *Pool {
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return &Pool{dir: dir, log: log}
}

// OnWalk has f called whenever a call walks a repository; set it before
// the first call.
func (p *Pool) OnWalk(f func(root string)) { p.walked = f }

// Close closes the indexes the pool keeps open, and their watchers.
func (p *Pool) Close() error {
	p.mu.Lock()
	repos := p.repos
	p.repos, p.used = nil, nil
	p.mu.Unlock()
	var errs []error
	for _, e := range repos {
		e.mu.Lock()
		errs = append(errs, e.close())
		e.evicted = true
		e.mu.Unlock()
	}
	return errors.Join(errs...)
}

func (e *entry) close() error {
	var errs []error
	if e.watcher != nil {
		errs = append(errs, e.watcher.Close())
		e.watcher = nil
	}
	if e.ix != nil {
		errs = append(errs, e.ix.Close())
		e.ix = nil
	}
	return errors.Join(errs...)
}

// entry returns the repository's entry, made on first use; past MaxOpen,
// the least recently used other one is closed once no call holds it.
func (p *Pool) entry(root string) *entry {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.repos == nil {
		p.repos = map[string]*entry{}
	}
	e := p.repos[root]
	if e == nil {
		e = &entry{}
		p.repos[root] = e
	}
	for i, r := range p.used {
		if r == root {
			p.used = append(p.used[:i], p.used[i+1:]...)
			break
		}
	}
	p.used = append(p.used, root)
	if len(p.used) > MaxOpen {
		old := p.used[0]
		p.used = p.used[1:]
		gone := p.repos[old]
		delete(p.repos, old)
		go func() {
			// A call may hold it still: close it once that call ends.
			gone.mu.Lock()
			gone.evicted = true
			gone.close()
			gone.mu.Unlock()
		}()
	}
	return e
}

// Call is what a call asks of the pool beside its repository; the zero
// Call asks for the index up to date, by the watcher's word or a walk.
type Call struct {
	// Update, when set, brings the index up to date in the stead of the
	// watcher's word and the incremental update (a rebuild, or an update
	// asked for).
	Update func(*index.Index) (index.Stats, error)
	// Notice, if set, hears what the index says during the call (an
	// index rebuilt because it was damaged, a disk full), as well as the
	// pool's log.
	Notice func(string)
	// Progress, if set, hears how the pool's own update of the index goes,
	// file by file: a first index, or one after many files changed; and,
	// while the call waits for another call's update of the same index,
	// that one's. An Update of the caller's reports its own.
	Progress func(index.Progress)
}

// Index returns the index of the repository at root (an absolute path),
// up to date, and the function that hands it back, which the caller
// defers: every call sees the files as they are.
func (p *Pool) Index(ctx context.Context, root string, c Call) (*index.Index, func(), error) {
	ix, _, release, err := p.index(ctx, root, c, false)
	return ix, release, err
}

// Repaired runs read, a read of ix by a caller that holds it alone, as
// Index and Update hand it out (or that opened a handle of its own, as
// the MCP server's calls a model judges do), and where the read meets
// damage in the index, rebuilds the index (which says so in a notice) and
// reads again: no answer comes from damaged data. A rebuild that replaces
// the index's file leaves the pool's handle to the old one, which the
// pool's next call sees and opens anew.
func Repaired(ctx context.Context, ix *index.Index, read func() error) error {
	err := read()
	if !index.IsDamaged(err) {
		return err
	}
	if _, err := ix.Rebuild(ctx, nil); err != nil {
		return fmt.Errorf("rebuild the damaged index: %w", err)
	}
	return read()
}

// Update is Index, with what bringing the index up to date did: where the
// watcher says no file changed, nothing was added, changed or deleted,
// and the index's files are counted as they are. A disk that filled
// during the update is its error (index.ErrFull), as hone index has it.
func (p *Pool) Update(ctx context.Context, root string, c Call) (*index.Index, index.Stats, func(), error) {
	return p.index(ctx, root, c, true)
}

// index is Index; with stats, the stats of an index no file of which
// changed count its files.
func (p *Pool) index(ctx context.Context, root string, c Call, stats bool) (*index.Index, index.Stats, func(), error) {
	begin := time.Now()
	e := p.entry(root)
	// A call waiting for the entry hears the update it waits on.
	unlisten := func() {}
	if c.Progress != nil {
		unlisten = e.listen(c.Progress)
	}
	e.mu.Lock()
	for e.evicted {
		// Closed while this call waited for it.
		e.mu.Unlock()
		unlisten()
		e = p.entry(root)
		if c.Progress != nil {
			unlisten = e.listen(c.Progress)
		}
		e.mu.Lock()
	}
	// What comes after the call's own update is not its to hear.
	defer unlisten()
	update, notice := c.Update, c.Notice
	if notice != nil {
		e.notice.Store(&notice)
	}
	release := func() {
		if e.ix != nil {
			e.ix.EndRead()
		}
		e.notice.Store(nil)
		e.mu.Unlock()
	}
	if e.ix != nil {
		// Another process may have replaced the index's file (a damaged
		// index is built anew): open the one that is there now.
		if fi, err := os.Stat(e.ix.Path); err != nil || !os.SameFile(fi, e.file) {
			e.close()
		}
	}
	if e.ix == nil {
		ix, err := index.Open(ctx, root, index.Options{Dir: p.dir, Notice: func(n string) {
			p.log.Info(n, "repo", root)
			if f := e.notice.Load(); f != nil {
				(*f)(n)
			}
		}})
		if err != nil {
			release()
			return nil, index.Stats{}, nil, err
		}
		e.ix = ix
		e.file, _ = os.Stat(ix.Path)
	}
	ix := e.ix
	if update == nil && e.watcher != nil && e.watcher.Unchanged(ctx) {
		// No file changed since the last walk: read the index as it is.
		if err := ix.Snapshot(ctx); err != nil {
			release()
			return nil, index.Stats{}, nil, err
		}
		if !stats {
			return ix, index.Stats{}, release, nil
		}
		st, err := ix.Status(ctx)
		if err != nil {
			release()
			return nil, index.Stats{}, nil, err
		}
		return ix, index.Stats{Files: st.Files, Skipped: st.Skipped, Elapsed: time.Since(begin)}, release, nil
	}
	if e.watcher != nil {
		e.watcher.Begin()
	}
	asked := update != nil
	if !asked {
		update = func(ix *index.Index) (index.Stats, error) { return ix.Update(ctx, e.progress) }
	}
	if p.walked != nil {
		p.walked(root)
	}
	st, err := update(ix)
	if err != nil {
		if errors.Is(err, index.ErrFull) && !asked && !stats {
			// The index answers as it was; the log and the call's
			// notices say why.
			p.log.Warn(err.Error(), "repo", root)
			if notice != nil {
				notice(err.Error())
			}
			return ix, st, release, nil
		}
		release()
		return nil, index.Stats{}, nil, err
	}
	p.watch(root, e)
	return ix, st, release, nil
}

// watch watches the folders the index's last walk read, where watching
// works; when it fails, the log says so once, and every call walks.
func (p *Pool) watch(root string, e *entry) {
	if !watch.Supported || e.noWatch {
		return
	}
	if e.watcher == nil && !eventsReliable(root) {
		p.log.Info("every call walks the repository: its file system (network or user-space) may change with no event to watch", "repo", root)
		e.noWatch = true
		return
	}
	if e.watcher != nil && e.watcher.Err() != nil {
		p.log.Warn("every call walks the repository: its watcher failed", "repo", root, "err", e.watcher.Err())
		e.watcher.Close()
		e.watcher, e.noWatch = nil, true
		return
	}
	if e.watcher == nil {
		w, err := watch.New(root)
		if err != nil {
			p.log.Warn("every call walks the repository: cannot watch it", "repo", root, "err", err)
			e.noWatch = true
			return
		}
		e.watcher = w
	}
	err := e.watcher.Watch(e.ix.Walked())
	if err == nil {
		// The walk reads files it does not walk: the repository's
		// info/exclude, the ignore files above a root inside a work tree,
		// the user's excludes file and the configuration naming it, and
		// those of each nested repository the walk met (its index too).
		// An edit of one changes which files are in.
		err = e.watcher.WatchFiles(walk.RuleFiles(root, e.ix.WorkTrees()))
	}
	if err != nil {
		p.log.Warn("every call walks the repository: cannot watch all its folders (on Linux, raise fs.inotify.max_user_watches)", "repo", root, "err", err)
		e.watcher.Close()
		e.watcher, e.noWatch = nil, true
	}
}

// eventsReliable reports whether a change to the files under root raises
// an event to watch: not on Linux's network and user-space file systems
// (NFS, FUSE, SMB, 9p: WSL's /mnt/c, sshfs, a virtual machine's shared
// folder), where an edit from the other side raises none, as the walk's
// kept listings do not trust them either. A variable, for tests.
var eventsReliable = func(root string) bool {
	return runtime.GOOS != "linux" || walk.KeepsListings(root)
}
