package redact

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
)

// The scanner finds what a general Aho-Corasick trie finds in the lowered
// text: every keyword at every place.
func TestKeywordScannerMatchesTrie(t *testing.T) {
	r := Default()
	kws := make([]string, 0, len(r.byKeyword))
	for k := range r.byKeyword {
		kws = append(kws, k)
	}
	slices.Sort(kws)
	kws = append(kws, "a", "ab", "bab", "abab", "b") // overlapping, nested
	trie := ahocorasick.NewTrieBuilder().AddStrings(kws).Build()
	ks := newKeywordScanner(kws)
	texts := []string{"", "abababab", "ABAB bab", "PASSWORD=x; api_KEY: 'y' Token", "\u212aey s.\xff\xfe hvs.x"}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	type hit struct{ k, pos int }
	for _, text := range texts {
		var want, got []hit
		trie.Walk(asciiLower(text), func(end, n, pattern int64) bool {
			want = append(want, hit{int(pattern), int(end - n + 1)})
			return true
		})
		ks.scan(text, func(k, pos int) { got = append(got, hit{k, pos}) })
		less := func(a, b hit) int {
			if a.pos != b.pos {
				return a.pos - b.pos
			}
			return a.k - b.k
		}
		slices.SortFunc(want, less)
		slices.SortFunc(got, less)
		if !slices.Equal(got, want) {
			t.Errorf("in %.60q: %d hits, want %d", text, len(got), len(want))
		}
	}
}

// BenchmarkKeywordScan scans this package's source for the keywords.
func BenchmarkKeywordScan(b *testing.B) {
	r := Default()
	var sb strings.Builder
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		x, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(x)
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.keywords.scan(text, func(int, int) {})
	}
}
