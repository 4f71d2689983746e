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

// A line's stems are the words the index holds of a file's text: no stop
// word, which would meet only the words that stem as it does ("does" the
// name Doe's "doe"), but the name words the task keeps.
func TestLineStemsStopWords(t *testing.T) {
	ft := newTextCache(1 << 10).of([]byte("// it only does what was said, before the import\n// signed: Jane Doe\n"))
	got := ft.lineStems(0)
	for _, w := range []string{"onli", "doe", "befor", "the", "it"} {
		if slices.Contains(got, w) {
			t.Errorf("line 0's stems %q hold %q, a stop word's", got, w)
		}
	}
	for _, w := range []string{"said", "import"} {
		if !slices.Contains(got, w) {
			t.Errorf("line 0's stems %q lack %q", got, w)
		}
	}
	if got := ft.lineStems(1); !slices.Contains(got, "doe") {
		t.Errorf("line 1's stems %q lack doe, a name's", got)
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
