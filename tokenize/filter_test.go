package tokenize

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// stemsOf returns the stems of the tokens of text that are not whole
// identifiers.
func stemsOf(text string) map[string]bool {
	m := map[string]bool{}
	Each(text, func(t Token) {
		if !t.Whole {
			m[t.Stem] = true
		}
	})
	return m
}

// checkHolds fails if a filter of one of text's stems rules text out.
func checkHolds(t *testing.T, text string) {
	t.Helper()
	for s := range stemsOf(text) {
		if !NewStemFilter(slices.Values([]string{s})).MayHold(text) {
			t.Fatalf("the filter of %q rules out %q, which yields it", s, text)
		}
	}
}

func TestStemFilter(t *testing.T) {
	for _, tc := range []struct {
		stems []string
		text  string
		want  bool
	}{
		// The stemmer's rewrites of a word's end.
		{[]string{"queri"}, "def get_queryset(self):", true},
		{[]string{"possibl"}, "the possibility of failure", true},
		{[]string{"hope"}, "hoping it works", true},
		{[]string{"hop"}, "HOPPING around", true},
		{[]string{"relat"}, "relational tables", true},
		{[]string{"lie"}, "lying about it", true},
		{[]string{"die"}, "dyingProcess()", true},
		{[]string{"sky"}, "blue skies", true},
		{[]string{"gener"}, "Generalization", true},
		{[]string{"sensibl"}, "sensibility", true},
		{[]string{"agre"}, "agreed_terms", true},
		{[]string{"earli"}, "too early", true},
		// Text without the stems.
		{[]string{"queri"}, "return self.model._meta", false},
		{[]string{"throttl", "rate"}, "func (s *Server) Serve() error {", false},
		{[]string{"set"}, "return self.model._meta", false},
		{[]string{"set"}, "QuerySet", true},
		{[]string{"ts"}, "its", true},
		{nil, "anything at all", false},
		// Stems of other scripts: ASCII text never yields them; other
		// text always passes.
		{[]string{"令牌"}, "token expiry", false},
		{[]string{"令牌"}, "修复令牌过期", true},
		{[]string{"kelvin"}, "\u212Aelvin", true},
		{[]string{"queri"}, strings.Repeat("x ", 1000) + "Query", true},
		{[]string{"queri"}, strings.Repeat("x ", 1000) + "Quer", true},
		{[]string{"queri"}, strings.Repeat("x ", 1000) + "Que", false},
	} {
		got := NewStemFilter(slices.Values(tc.stems)).MayHold(tc.text)
		if got != tc.want {
			t.Errorf("NewStemFilter(%q).MayHold(%q) = %v, want %v", tc.stems, tc.text, got, tc.want)
		}
		if tc.want {
			continue
		}
		for _, s := range tc.stems {
			if stemsOf(tc.text)[s] {
				t.Errorf("%q yields %q: the case is wrong", tc.text, s)
			}
		}
	}
}

func TestStemFilterRootsSubsumed(t *testing.T) {
	f := NewStemFilter(maps.Keys(map[string]bool{"queri": true, "queryset": true, "query": true, "令牌": true}))
	var got []string
	got = append(got, f.roots...)
	if want := []string{"quer"}; !slices.Equal(got, want) {
		t.Errorf("roots %q, want %q", got, want)
	}
}

// TestStemFilterHoldsOnCode checks the filter against every line of the
// test repositories and of this package: a line is never ruled out for a
// stem it yields.
func TestStemFilterHoldsOnCode(t *testing.T) {
	lines := 0
	for _, root := range []string{filepath.Join("..", "testdata", "repos"), "."} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(string(b), "\n") {
				checkHolds(t, line)
				lines++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if lines < 1000 {
		t.Fatalf("only %d lines checked", lines)
	}
}

func FuzzStemFilter(f *testing.F) {
	for _, s := range []string{"getQuerySet", "the possibility of hoping", "lying dying tying", "HTTPRequests_for IDs",
		"generalizations", "修复令牌", "\u212Aelvin", "utf8Decode md5sum"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkHolds(t, s)
	})
}

func BenchmarkStemFilter(b *testing.B) {
	src, err := os.ReadFile("tokenize.go")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	f := NewStemFilter(slices.Values([]string{"queri", "union", "drop", "order", "slice", "set", "combin"}))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		for _, l := range lines {
			f.MayHold(l)
		}
	}
}
