// Package lexicon holds general software vocabulary: a table of synonym
// groups for English terms ("rate limit" ~ throttle ~ quota), a glossary
// of Simplified Chinese software terms with their English equivalents, used
// to segment and translate Chinese task descriptions, and a table learned
// from public code of the code terms a task word points to (Associated).
//
// All data is compiled into the binary; nothing is read at run time. The
// synonym and glossary tables are built once, on first use; the learned
// table is searched as it is embedded. All are safe for concurrent use.
package lexicon

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Synonyms returns general software synonyms and closely related terms of an
// English term or phrase (phrases space-separated, e.g. "rate limit"): the
// union of the groups the term belongs to, without the term itself, in
// table order. The relation is symmetric. The term is matched after
// lower-casing, trimming and collapsing '-', '_' and runs of white space to
// single spaces, so "Rate-Limit" finds "rate limit". Synonyms returns nil
// for unknown terms. The caller owns the returned slice.
func Synonyms(term string) []string {
	t := tables()
	syn, ok := t.synonyms[term]
	if !ok {
		syn, ok = t.synonyms[normalize(term)]
	}
	if !ok {
		return nil
	}
	return slices.Clone(syn)
}

// LanguageCodes returns the codes a language's locale files go by, for
// its English name, matched as Synonyms matches: "German" gives [de],
// "Norwegian" [no nb nn]. It returns nil for any other word. The caller
// owns the returned slice.
func LanguageCodes(name string) []string {
	return slices.Clone(tables().codes[normalize(name)])
}

// Phrases returns the multi-word entries of the synonym table, e.g.
// "rate limit", longest first (ties in lexical order), so that a caller
// scanning text for them can prefer the longest match. The caller owns the
// returned slice.
func Phrases() []string {
	return slices.Clone(tables().phrases)
}

// TranslateAll segments Chinese text into known software terms by forward
// maximum matching over the glossary and returns every English
// alternative of each, primary first, in order: "修复令牌过期错误" gives
// [[fix repair] [token] [expiry expire expiration] [error bug]]. Characters
// that start no known term are skipped, as is all non-Han text (ASCII
// words inside Chinese text are left to the caller's tokenizer). Some
// common words are known only to be skipped (表示 "represent" is consumed
// so that 表 "table" does not match). Outputs may be phrases ("rate
// limit"). The caller owns the returned slices.
func TranslateAll(text string) [][]string {
	var out [][]string
	segment(text, func(_, _ int, en []string) {
		if len(en) > 0 {
			out = append(out, slices.Clone(en))
		}
	})
	return out
}

// A Span is one glossary entry matched in a text: the bytes text[Start:End]
// and the entry's English terms, primary first. A blocker, a common word
// consumed so that it is not mis-segmented, has no English.
type Span struct {
	Start, End int
	English    []string
}

// Blocker reports whether the span is a blocker, with no English.
func (s Span) Blocker() bool { return len(s.English) == 0 }

// Segment returns the glossary entries matched in text, in order, by the
// forward maximum matching TranslateAll uses, blockers included. Text
// between spans matched nothing. It is for measuring the glossary's
// coverage of real text. The caller owns the returned slices.
func Segment(text string) []Span {
	var out []Span
	segment(text, func(start, end int, en []string) {
		out = append(out, Span{Start: start, End: end, English: slices.Clone(en)})
	})
	return out
}

// Unread returns the runs of Chinese, Japanese or Korean text, two
// characters long or longer, that no glossary entry covers, blockers
// aside: the words a search through the glossary leaves out, in order,
// each once, without the particles at their ends. A single character
// left between entries (很, 后) is a particle more often than a word, and
// is not listed.
func Unread(text string) []string {
	covered := make([]bool, len(text)+1)
	segment(text, func(start, end int, _ []string) {
		for i := start; i < end; i++ {
			covered[i] = true
		}
	})
	var out []string
	seen := map[string]bool{}
	flush := func(from, to, runes int) {
		w := strings.Trim(text[from:to], particles)
		if utf8.RuneCountInString(w) >= 2 && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	from, runes := -1, 0
	for i, r := range text {
		if !covered[i] && cjk(r) {
			if from < 0 {
				from, runes = i, 0
			}
			runes++
			continue
		}
		if from >= 0 {
			flush(from, i, runes)
			from = -1
		}
	}
	if from >= 0 {
		flush(from, len(text), runes)
	}
	return out
}

// particles are the Chinese characters that join words more often than
// they are one: a run unread is listed without them at its ends.
const particles = "的了很是在和与也都就还又着过吗呢吧啊被把"

// cjk reports whether r is a letter of Chinese, Japanese or Korean, or
// katakana's long-vowel mark, of no script of its own (サーバー).
func cjk(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) ||
		r == 'ー' || r == 'ｰ'
}

// segment calls fn with the byte span and the English terms of each
// glossary entry matched in text; a blocker's terms are empty.
func segment(text string, fn func(start, end int, en []string)) {
	t := tables()
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !t.first[r] {
			i += size
			continue
		}
		// Try the longest candidate first: collect up to maxRunes rune ends.
		var ends [maxKeyRunes]int
		n := 0
		for j := i; j < len(text) && n < t.maxRunes; {
			r2, s2 := utf8.DecodeRuneInString(text[j:])
			if r2 == utf8.RuneError && s2 <= 1 {
				break
			}
			j += s2
			ends[n] = j
			n++
		}
		matched := false
		for k := n - 1; k >= 0; k-- {
			if en, ok := t.glossary[text[i:ends[k]]]; ok {
				fn(i, ends[k], en)
				i = ends[k]
				matched = true
				break
			}
		}
		if !matched {
			i += size
		}
	}
}

// maxKeyRunes bounds the length of a glossary key, in runes.
const maxKeyRunes = 8

type lexTables struct {
	synonyms map[string][]string
	phrases  []string
	glossary map[string][]string // blockers map to an empty slice
	codes    map[string][]string // languages' names to their codes
	first    map[rune]bool       // first runes of glossary keys
	maxRunes int
}

var tables = sync.OnceValue(func() *lexTables {
	t := &lexTables{
		synonyms: map[string][]string{},
		glossary: map[string][]string{},
		first:    map[rune]bool{},
		codes:    map[string][]string{},
	}
	for _, e := range parseGlossary(languageData) {
		t.codes[e.zh] = e.en
	}
	for _, g := range parseGroups(synonymData) {
		for _, a := range g {
			syn := t.synonyms[a]
			for _, b := range g {
				if b != a && !slices.Contains(syn, b) {
					syn = append(syn, b)
				}
			}
			t.synonyms[a] = syn
		}
	}
	for term := range t.synonyms {
		if strings.Contains(term, " ") {
			t.phrases = append(t.phrases, term)
		}
	}
	slices.SortFunc(t.phrases, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	for _, e := range parseGlossary(glossaryData) {
		if _, dup := t.glossary[e.zh]; dup {
			continue
		}
		t.glossary[e.zh] = e.en
		r, _ := utf8.DecodeRuneInString(e.zh)
		t.first[r] = true
		t.maxRunes = max(t.maxRunes, min(utf8.RuneCountInString(e.zh), maxKeyRunes))
	}
	return t
})

// parseGroups parses synonymData. Empty lines are skipped.
func parseGroups(data string) [][]string {
	var groups [][]string
	for line := range strings.Lines(data) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var g []string
		for m := range strings.SplitSeq(line, ",") {
			if m = normalize(m); m != "" {
				g = append(g, m)
			}
		}
		groups = append(groups, g)
	}
	return groups
}

type glossEntry struct {
	zh string
	en []string
}

// parseGlossary parses glossaryData. Empty lines and lines starting with
// '#' are skipped; a line without '=' is an entry with no output.
func parseGlossary(data string) []glossEntry {
	var out []glossEntry
	for line := range strings.Lines(data) {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		zh, rest, _ := strings.Cut(line, "=")
		e := glossEntry{zh: strings.TrimSpace(zh), en: []string{}}
		for m := range strings.SplitSeq(rest, ",") {
			if m = normalize(m); m != "" {
				e.en = append(e.en, m)
			}
		}
		out = append(out, e)
	}
	return out
}

// normalize lower-cases s, turns '-' and '_' into spaces, and trims and
// collapses white space.
func normalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
