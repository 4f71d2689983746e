package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hone-tools/hone/index"
)

// Progress shows on a terminal only, and only once the work has taken a
// second: a quick update draws nothing.
func TestProgressAfterASecond(t *testing.T) {
	for _, c := range []struct {
		name  string
		tty   bool
		since time.Duration
		want  bool
	}{
		{"quick, on a terminal", true, 0, false},
		{"slow, on a terminal", true, 2 * progressAfter, true},
		{"slow, not a terminal", false, 2 * progressAfter, false},
	} {
		var buf bytes.Buffer
		b := &progressBar{w: &buf, tty: c.tty, start: time.Now().Add(-c.since)}
		b.progress(10, 100, 4096)
		b.update(index.Progress{Done: 100, Total: 100, Bytes: 1 << 20})
		if got := strings.Contains(buf.String(), "files"); got != c.want {
			t.Errorf("%s: drew %q, want drawing %v", c.name, buf.String(), c.want)
		}
		b.done()
	}
}
