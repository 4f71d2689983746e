package index

import (
	"testing"
	"time"

	"github.com/hone-tools/hone/walk"
)

// A feed hands a new file to the readers as soon as it is added, holds a
// file the catalog knows until the walk ends, and tells the readers when
// there is nothing more.
func TestFeed(t *testing.T) {
	got := func(q *feed, i int) chan bool {
		c := make(chan bool, 1)
		go func() {
			_, ok := q.get(i)
			c <- ok
		}()
		return c
	}
	waiting := func(c chan bool) bool {
		select {
		case v := <-c:
			c <- v
			return false
		case <-time.After(50 * time.Millisecond):
			return true
		}
	}
	tests := []struct {
		name  string
		early []bool // the files added, in order
		ask   int    // the file a reader waits for
		end   func(q *feed)
		// waits: the reader waits until end; ok: what it gets then.
		waits, ok bool
	}{
		{"a new file, at once", []bool{true}, 0, (*feed).close, false, true},
		{"a known file, at the walk's end", []bool{false}, 0, (*feed).close, true, true},
		{"after a known file, a new one at once", []bool{false, true}, 1, (*feed).close, false, true},
		{"a file not added yet", []bool{true}, 1, (*feed).close, true, false},
		{"a file never added, the feed stopped", nil, 0, (*feed).stop, true, false},
		{"a known file, the feed stopped", []bool{false}, 0, (*feed).stop, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newFeed()
			for i, e := range tt.early {
				q.add(walk.File{Path: string(rune('a' + i))}, e)
			}
			c := got(q, tt.ask)
			if tt.waits {
				// A slow machine makes a reader look waiting, never the
				// other way round.
				if !waiting(c) {
					t.Fatal("the reader got the file before the end")
				}
			} else if ok := <-c; !ok {
				t.Fatal("the reader got nothing")
			}
			tt.end(q)
			if tt.waits {
				if ok := <-c; ok != tt.ok {
					t.Errorf("get = %v, want %v", ok, tt.ok)
				}
			}
			if ok := <-got(q, tt.ask); ok != tt.ok {
				t.Errorf("get after the end = %v, want %v", ok, tt.ok)
			}
		})
	}
}
