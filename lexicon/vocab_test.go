package lexicon

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// vocabEntry is a line of the table, parsed the slow way.
type vocabEntry struct {
	word  string
	assoc []Assoc
}

func parseVocab(t testing.TB) []vocabEntry {
	t.Helper()
	var out []vocabEntry
	header := true
	for i, line := range strings.Split(strings.TrimSuffix(vocabData, "\n"), "\n") {
		if header && strings.HasPrefix(line, "#") {
			continue
		}
		header = false
		word, rest, ok := strings.Cut(line, "\t")
		if !ok || word == "" || rest == "" {
			t.Fatalf("line %d: %q is not word<TAB>terms", i+1, line)
		}
		f := strings.Split(rest, " ")
		if len(f)%2 != 0 {
			t.Fatalf("line %d: %q: terms and weights do not pair", i+1, line)
		}
		e := vocabEntry{word: word}
		for j := 0; j < len(f); j += 2 {
			w, err := strconv.ParseFloat(f[j+1], 64)
			if err != nil || f[j] == "" {
				t.Fatalf("line %d: %q: bad term %q or weight %q", i+1, line, f[j], f[j+1])
			}
			e.assoc = append(e.assoc, Assoc{Term: f[j], Weight: w})
		}
		out = append(out, e)
	}
	return out
}

func TestVocabDataWellFormed(t *testing.T) {
	if len(vocabData) > 20<<20 {
		t.Errorf("vocab_data.txt is %d bytes, over 20 MB", len(vocabData))
	}
	if !strings.HasPrefix(vocabData, "# ") || !strings.Contains(vocabData, "\n# Built by: hone bench vocab ") ||
		!strings.Contains(vocabData, "\n# Corpus: ") || !strings.Contains(vocabData, "\n# Method: ") {
		t.Error("the header does not say what the table is, how it was built and from what")
	}
	if !strings.HasSuffix(vocabData, "\n") {
		t.Error("the table does not end with a newline")
	}
	entries := parseVocab(t)
	if len(entries) < 100 {
		t.Fatalf("%d words, want many more", len(entries))
	}
	for i, e := range entries {
		if i > 0 && entries[i-1].word >= e.word {
			t.Errorf("%q comes after %q: not sorted bytewise, or twice", e.word, entries[i-1].word)
		}
		if strings.ContainsAny(e.word, " \t") || strings.ToLower(e.word) != e.word {
			t.Errorf("word %q is not a lower-case stem", e.word)
		}
		seen := map[string]bool{}
		for j, a := range e.assoc {
			if a.Term == e.word {
				t.Errorf("%q maps to itself", e.word)
			}
			if seen[a.Term] {
				t.Errorf("%q: term %q twice", e.word, a.Term)
			}
			seen[a.Term] = true
			if !(a.Weight > 0 && a.Weight <= 1) {
				t.Errorf("%q -> %q: weight %v outside (0,1]", e.word, a.Term, a.Weight)
			}
			if math.Abs(a.Weight*100-math.Round(a.Weight*100)) > 1e-9 {
				t.Errorf("%q -> %q: weight %v has more than 2 decimals", e.word, a.Term, a.Weight)
			}
			if j > 0 && e.assoc[j-1].Weight < a.Weight {
				t.Errorf("%q: terms not by weight, descending: %v", e.word, e.assoc)
			}
		}
	}
}

func TestAssociated(t *testing.T) {
	entries := parseVocab(t)
	first, last := entries[0], entries[len(entries)-1]
	for _, e := range []vocabEntry{first, last, entries[len(entries)/2], entries[1], entries[len(entries)-2]} {
		if got := Associated(e.word); !slices.Equal(got, e.assoc) {
			t.Errorf("Associated(%q) = %v, want %v", e.word, got, e.assoc)
		}
	}
	// Every word is found.
	for _, e := range entries {
		if got := Associated(e.word); len(got) != len(e.assoc) {
			t.Fatalf("Associated(%q) = %v, want %v", e.word, got, e.assoc)
		}
	}
	for _, w := range []string{"", " ", "\t", "\n", "#", "# hone", first.word[:len(first.word)-1], first.word + "\t",
		last.word + "zzz", "\xff\xff", "zzzzzzzzzzzz", "not a word", "过期", "🙂"} {
		if slices.ContainsFunc(entries, func(e vocabEntry) bool { return e.word == w }) {
			continue
		}
		if got := Associated(w); got != nil {
			t.Errorf("Associated(%q) = %v, want nil", w, got)
		}
	}
	// The caller owns the slice.
	a := Associated(first.word)
	a[0].Term = "changed"
	if b := Associated(first.word); b[0].Term != first.assoc[0].Term {
		t.Errorf("a change to a returned slice showed in the next: %v", b)
	}
}

func TestVocabLineSmall(t *testing.T) {
	data := "# header\n# more\nb\tx 0.50\nd\ty 1.00 z 0.25\nf\tw 0.10\n"
	for _, tt := range []struct {
		word, want string
		ok         bool
	}{
		{"b", "x 0.50", true}, {"d", "y 1.00 z 0.25", true}, {"f", "w 0.10", true},
		{"a", "", false}, {"c", "", false}, {"e", "", false}, {"g", "", false}, {"# header", "", false},
	} {
		if got, ok := vocabLine(data, tt.word); got != tt.want || ok != tt.ok {
			t.Errorf("vocabLine(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.ok)
		}
	}
	for _, data := range []string{"", "#", "# only a header\n", "a\tx 1.00", "\n\n\n", "a\n", "\tb 1.00\n"} {
		for _, w := range []string{"a", "b", "x"} {
			vocabLine(data, w) // must not panic or loop
		}
	}
}

func FuzzAssociated(f *testing.F) {
	for _, s := range []string{"", "retri", "overload", "过期令牌", "🙂🙂", "naïve", "ÜBER", "a\tb", "\xff", "zzz", "#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, word string) {
		got := Associated(word)
		if got == nil {
			return
		}
		if !strings.Contains(vocabData, "\n"+word+"\t") {
			t.Fatalf("Associated(%q) = %v, but the table has no such word", word, got)
		}
		for _, a := range got {
			if a.Term == word || !(a.Weight > 0 && a.Weight <= 1) {
				t.Fatalf("Associated(%q) = %v", word, got)
			}
		}
	})
}

func BenchmarkAssociated(b *testing.B) {
	for b.Loop() {
		Associated("retri")
		Associated("zzzzz")
	}
}

func ExampleAssociated() {
	for _, a := range Associated("retri") { // the stem of "retry"
		if a.Term == "backoff" {
			fmt.Println("retry points to backoff")
		}
	}
	fmt.Println(Associated("not a stem") == nil)
	// Output:
	// retry points to backoff
	// true
}
