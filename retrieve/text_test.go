package retrieve

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestTextCache(t *testing.T) {
	c := newTextCache(300)
	a := c.of([]byte("func rateLimit() {\n\treturn throttle\n}"))
	if again := c.of([]byte("func rateLimit() {\n\treturn throttle\n}")); again != a {
		t.Error("the same content made a second text")
	}
	if got := a.lineStems(0); !slices.Contains(got, "rate") || !slices.Contains(got, "limit") || slices.Contains(got, "ratelimit") {
		t.Errorf("line 0's stems %q: want the parts, not the whole identifier", got)
	}
	if len(a.lines) != 3 || a.lines[1] != "\treturn throttle" {
		t.Errorf("lines %q", a.lines)
	}
	b := c.of([]byte("func rateLimit() {\n\treturn burst\n}"))
	if b == a {
		t.Error("another content gave the first's text")
	}
	// 300 bytes hold two texts of about 40 bytes (counted thrice), not a
	// third: the least recently used goes.
	c.of([]byte("func rateLimit() {\n\treturn throttle\n}"))
	c.of([]byte(strings.Repeat("x", 45)))
	if c.size > c.max || len(c.byKey) != c.order.Len() {
		t.Errorf("size %d of %d, %d keys for %d texts", c.size, c.max, len(c.byKey), c.order.Len())
	}
	if again := c.of([]byte("func rateLimit() {\n\treturn burst\n}")); again == b {
		t.Error("the least recently used text was kept past the budget")
	}
	if big := c.of([]byte(strings.Repeat("y", 200))); big == nil || len(big.lines) != 1 {
		t.Error("a text too large to keep is still made")
	}
	if c.size > c.max {
		t.Errorf("size %d over %d", c.size, c.max)
	}
}

// BenchmarkLineStems tokenizes every line of a file of this repository,
// as refine and the ranking do for each candidate they read.
func BenchmarkLineStems(b *testing.B) {
	data, err := os.ReadFile("rank.go")
	if err != nil {
		b.Fatal(err)
	}
	content := string(data)
	lines := strings.Split(content, "\n")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ft := &fileText{content: content, lines: lines}
		for i := range lines {
			ft.lineStems(i)
		}
	}
}
