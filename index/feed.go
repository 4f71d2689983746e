package index

import (
	"sync"

	"github.com/hone-tools/hone/walk"
)

// A feed is the files an update reads, in the order the walk found them,
// handed to the readers while the walk goes on: a new file's read and
// analysis need nothing the walk has yet to find, and a cold index spent
// its whole walk with its readers idle. A file the catalog knows waits
// for the walk's end, which reads the hashes that tell a touched file
// from a changed one.
//
// The walk's goroutine adds files; the readers get them; the writer
// takes their changes in order. Adding never blocks, so that a walk whose
// readers are a window ahead of a writer not started yet goes on.
type feed struct {
	mu     sync.Mutex
	cond   sync.Cond
	items  []feedItem
	closed bool // the walk ended: every file is in, and every one may be read
	done   bool // the update is over: readers get nothing more
}

// feedItem is one file to read. early: it may be read before the walk
// ends. res gets its change.
type feedItem struct {
	file  walk.File
	early bool
	res   chan change
}

func newFeed() *feed {
	q := &feed{}
	q.cond.L = &q.mu
	return q
}

// add appends a file, to be read now if early, else at the walk's end.
func (q *feed) add(f walk.File, early bool) {
	q.mu.Lock()
	q.items = append(q.items, feedItem{file: f, early: early, res: make(chan change, 1)})
	q.mu.Unlock()
	q.cond.Broadcast()
}

// close says the walk is over: what was added is all there is, and the
// files that waited for it may be read.
func (q *feed) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// stop ends the feed for its readers: get answers false from now on.
func (q *feed) stop() {
	q.mu.Lock()
	q.done = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// get waits for the i-th file to be added and readable. It answers false
// when there is none (the walk ended before it) or the feed was stopped.
func (q *feed) get(i int) (feedItem, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		switch {
		case q.done:
			return feedItem{}, false
		case i < len(q.items) && (q.items[i].early || q.closed):
			return q.items[i], true
		case i >= len(q.items) && q.closed:
			return feedItem{}, false
		}
		q.cond.Wait()
	}
}

// files is what was added so far; once the walk is over, all there is.
// Only the walk's goroutine adds, so that it may read the slice freely
// then.
func (q *feed) files() []feedItem {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.items
}
