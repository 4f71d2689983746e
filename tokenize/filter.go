package tokenize

import (
	"iter"
	"slices"
	"strings"
	"unicode/utf8"
)

// A StemFilter rules out, without tokenizing it, text that holds none of
// a set of stems: the cheap test before Each, for callers that look for a
// few stems in many lines.
//
// It rests on a property of the English Snowball stemmer: a stem is a
// prefix of the lower-cased word it came from, but for the letters a
// rewrite of the word's end leaves. Those are an "e" ("possible" from
// "possibility", "lie" from "lying", "hope" from "hoping"), with the
// letter before it, and an "i", "l" or "y" ("queri" from "query",
// "possibl" from "possibility", "sky" from "skies"). A part of an
// identifier is a run of the text, so text that yields a stem holds its
// root, the stem less those letters, in any case.
//
// A StemFilter is safe for concurrent use.
type StemFilter struct {
	roots  []string // lower-case ASCII, none inside another
	single [256]bool
	pairs  [1 << 16 / 64]uint64 // the first two bytes of the longer roots
}

// NewStemFilter returns a filter for the stems.
func NewStemFilter(stems iter.Seq[string]) *StemFilter {
	var roots []string
	for s := range stems {
		if s == "" || !isASCII(s) {
			// Text of ASCII bytes yields ASCII stems only; text with other
			// bytes always passes.
			continue
		}
		roots = append(roots, rootOf(s))
	}
	// The shortest first: a root that holds another adds nothing.
	slices.SortFunc(roots, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	f := &StemFilter{}
	for _, r := range roots {
		if slices.ContainsFunc(f.roots, func(k string) bool { return strings.Contains(r, k) }) {
			continue
		}
		f.roots = append(f.roots, r)
		if len(r) == 1 {
			f.single[r[0]] = true
		} else {
			p := pairOf(r[0], r[1])
			f.pairs[p/64] |= 1 << (p % 64)
		}
	}
	return f
}

// MayHold reports whether Each may yield, from text, a token that is not
// a whole identifier and whose stem is one of the filter's. False means
// it yields none.
func (f *StemFilter) MayHold(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= utf8.RuneSelf {
			return true // Unicode lower-casing may make ASCII letters
		}
		c = lowerASCII(c)
		if f.single[c] {
			return true
		}
		if i+1 == len(text) {
			break
		}
		if p := pairOf(c, lowerASCII(text[i+1])); f.pairs[p/64]&(1<<(p%64)) != 0 && f.rootAt(text[i:]) {
			return true
		}
	}
	return false
}

// rootAt reports whether text begins with one of the roots, in any case.
func (f *StemFilter) rootAt(text string) bool {
	for _, r := range f.roots {
		if len(r) > 1 && len(r) <= len(text) && equalFoldASCII(text[:len(r)], r) {
			return true
		}
	}
	return false
}

func pairOf(a, b byte) uint16 { return uint16(a)<<8 | uint16(b) }

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFoldASCII reports whether s, lower-cased, is low.
func equalFoldASCII(s, low string) bool {
	for i := 0; i < len(s); i++ {
		if lowerASCII(s[i]) != low[i] {
			return false
		}
	}
	return true
}

// rootOf returns the part of the stem s that every word it comes from
// begins with.
func rootOf(s string) string {
	cut := 0
	switch s[len(s)-1] {
	case 'e':
		cut = 2
	case 'i', 'l', 'y':
		cut = 1
	}
	return s[:max(len(s)-cut, 1)]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
