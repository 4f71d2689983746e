package retrieve

import (
	"container/list"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/hone-tools/hone/tokenize"
)

// fileText is a file's lines and, as runs tokenize them, each line's
// stems: what its content alone decides, so that runs may share it.
type fileText struct {
	content string
	lines   []string

	mu      sync.Mutex
	stems   [][]string // each line's distinct stems once tokenized, whole identifiers and stop words left out
	done    []bool
	scratch []string
}

// lineStems tokenizes line i, once.
func (ft *fileText) lineStems(i int) []string {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	if ft.done == nil {
		ft.stems = make([][]string, len(ft.lines))
		ft.done = make([]bool, len(ft.lines))
	}
	if !ft.done[i] && len(ft.lines[i]) <= 400 {
		ft.done[i] = true
		// Gathered in a scratch slice, kept in one of their size: a
		// line's slice grown stem by stem cost a third of the tokenizing.
		ft.scratch = ft.scratch[:0]
		// Stop words are left out, as the index leaves them out of a
		// file's text: kept, they would only meet the other words that
		// stem as they do ("does" the name Doe, "only" a term "onli"). The
		// name words (import, include, export) stay, though the index leaves
		// them out of a file's text too: the task keeps them as concepts.
		tokenize.EachShort(ft.lines[i], func(t tokenize.Token) {
			if !t.Whole && (!t.Stop || tokenize.IsNameWord(t.Text)) && !slices.Contains(ft.scratch, t.Stem) {
				ft.scratch = append(ft.scratch, t.Stem)
			}
		})
		if len(ft.scratch) > 0 {
			ft.stems[i] = slices.Clone(ft.scratch)
		}
	}
	return ft.stems[i]
}

// texts keeps the texts of the files this process's runs read last: a
// long-running process (hone serve, hone mcp) answers task after task
// over the same files, whose lines it then tokenizes once. A text is
// found by its content, which each run reads afresh: a file that changed
// is another text.
var texts = newTextCache(32 << 20)

// textCache holds texts up to a budget of bytes, the least recently used
// let go first.
type textCache struct {
	seed  maphash.Seed
	max   int
	mu    sync.Mutex
	size  int
	byKey map[uint64]*list.Element // of *fileText
	order *list.List               // most recently used first
}

func newTextCache(max int) *textCache {
	return &textCache{seed: maphash.MakeSeed(), max: max, byKey: map[uint64]*list.Element{}, order: list.New()}
}

// cost is what a text is counted for: its bytes, and about as much again
// for its lines and their stems.
func cost(ft *fileText) int { return 3 * len(ft.content) }

// of returns the text of content, kept or made.
func (c *textCache) of(content []byte) *fileText {
	h := maphash.Bytes(c.seed, content)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[h]; ok {
		ft := e.Value.(*fileText)
		if ft.content == string(content) {
			c.order.MoveToFront(e)
			return ft
		}
	}
	ft := &fileText{content: string(content)}
	ft.lines = strings.Split(ft.content, "\n")
	if cost(ft) > c.max {
		return ft // too large to keep
	}
	if e, ok := c.byKey[h]; ok {
		// Another content of the same hash: the newer takes its place.
		c.remove(e)
	}
	c.byKey[h] = c.order.PushFront(ft)
	c.size += cost(ft)
	for c.size > c.max {
		c.remove(c.order.Back())
	}
	return ft
}

func (c *textCache) remove(e *list.Element) {
	ft := c.order.Remove(e).(*fileText)
	delete(c.byKey, maphash.String(c.seed, ft.content))
	c.size -= cost(ft)
}
