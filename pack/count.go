package pack

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Counting a text's o200k tokens is two steps: the text is split into
// pieces by a pattern, and each piece is encoded by byte-pair merges on
// its own. The tokenizer's pattern runs on a backtracking regexp engine
// that makes a match object per piece, which was most of a pack's time.
// splitO200k splits by the same pattern, written out; a piece's count is
// the tokenizer's own, kept, since code repeats its pieces (indentation,
// keywords, names). TestCountMatchesTokenizer and FuzzCountTokens check
// the counts against the tokenizer's.

var o200k = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

// Warm loads the tokenizer in the background. Its vocabulary of 200,000
// pieces takes some 30 ms of CPU to build on a 2-core machine, which a
// process's first count, a context pack's, would otherwise wait for.
func Warm() { go o200k() }

// CountTokens counts a text's tokens with the o200k tokenizer (offline,
// embedded), or estimates four bytes a token if it cannot be loaded.
func CountTokens(s string) int {
	enc, err := o200k()
	if err != nil {
		return (len(s) + 3) / 4
	}
	if !utf8.ValidString(s) {
		// The tokenizer reads bytes that are not UTF-8 as U+FFFD, one a
		// byte; such a text is counted by the tokenizer alone.
		return tokenizerCount(enc, s)
	}
	n := 0
	splitO200k(s, func(piece string) { n += pieceTokens(enc, piece) })
	return n
}

func tokenizerCount(enc tokenizer.Codec, s string) int {
	n, err := enc.Count(s)
	if err != nil {
		return (len(s) + 3) / 4
	}
	return n
}

// pieces keeps the token counts of the pieces counted, up to maxPieces
// (then it starts again): the tokenizer's count of a piece is the count
// of its byte-pair merges.
var pieces = struct {
	sync.Mutex
	n map[string]int32
}{n: map[string]int32{}}

const (
	maxPieces    = 1 << 16
	maxPieceKept = 64 // bytes: longer pieces are counted each time
)

func pieceTokens(enc tokenizer.Codec, piece string) int {
	if len(piece) > maxPieceKept {
		return tokenizerCount(enc, piece)
	}
	pieces.Lock()
	n, ok := pieces.n[piece]
	pieces.Unlock()
	if ok {
		return int(n)
	}
	c := tokenizerCount(enc, piece)
	pieces.Lock()
	if len(pieces.n) >= maxPieces {
		clear(pieces.n)
	}
	// A piece is cut from its text: kept as it is, it would keep the
	// whole text alive.
	pieces.n[strings.Clone(piece)] = int32(c)
	pieces.Unlock()
	return c
}

// splitO200k calls fn with the pieces of s, valid UTF-8, as o200k's
// pattern splits it, in order:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// The first branch that matches at a place wins, and each quantifier
// takes what it can, giving back only what the rest needs. A place where
// no branch matches is passed over, as a regexp engine does: the
// tokenizer's engine (code generated from the pattern) puts U+007F (DEL)
// in none of the pattern's classes, though [^\s\p{L}\p{N}] holds it, so
// a DEL ends the piece before it and is counted as no token.
func splitO200k(s string, fn func(piece string)) {
	for i := 0; i < len(s); {
		end := o200kMatch(s, i)
		if end <= i {
			_, size := decode(s, i)
			i += size
			continue
		}
		fn(s[i:end])
		i = end
	}
}

// o200kMatch is the end of the piece that starts at s[i], or i if none.
func o200kMatch(s string, i int) int {
	r, size := decode(s, i)
	prefix := isPrefix(r)
	// Letters, two ways: the first that matches, with its optional prefix
	// char, then without.
	for _, letters := range []func(string, int) int{lowerLetters, upperLetters} {
		if prefix {
			if end := letters(s, i+size); end > 0 {
				return end
			}
		}
		if end := letters(s, i); end > 0 {
			return end
		}
	}
	if unicode.IsNumber(r) {
		end := i + size
		for k := 1; k < 3 && end < len(s); k++ {
			r2, sz := decode(s, end)
			if !unicode.IsNumber(r2) {
				break
			}
			end += sz
		}
		return end
	}
	// Punctuation and symbols: an optional space, then a run, then any
	// line breaks and slashes.
	j := i
	if r == ' ' && i+1 < len(s) {
		if r2, _ := decode(s, i+1); isOther(r2) {
			j = i + 1
		}
	}
	if end := runOf(s, j, isOther); end > j {
		for end < len(s) && (s[end] == '\r' || s[end] == '\n' || s[end] == '/') {
			end++
		}
		return end
	}
	if !unicode.IsSpace(r) {
		return i
	}
	// Whitespace: w is the end of its run, lastBreak the end of its last
	// line break.
	w, lastBreak, prev := i, -1, -1
	for w < len(s) {
		r2, sz := decode(s, w)
		if !unicode.IsSpace(r2) {
			break
		}
		prev = w
		w += sz
		if r2 == '\r' || r2 == '\n' {
			lastBreak = w
		}
	}
	switch {
	case lastBreak > 0:
		// \s*[\r\n]+: up to the run's last line break.
		return lastBreak
	case w == len(s):
		// \s+(?!\S) at the text's end: the whole run.
		return w
	case prev > i:
		// \s+(?!\S): the run but its last char, which goes with what
		// follows.
		return prev
	default:
		// \s+: one char before a non-space.
		return w
	}
}

// lowerLetters matches [Lu Lt Lm Lo M]*[Ll Lm Lo M]+ then a contraction at
// s[j], returning its end, or 0 if it does not match. The first class
// takes all it can, and gives back chars until one of the second's
// follows (or is given back).
func lowerLetters(s string, j int) int {
	a := j
	var starts []int // where each char of the first run starts
	for a < len(s) {
		r, sz := decode(s, a)
		if !isUpperish(r) {
			break
		}
		starts = append(starts, a)
		a += sz
	}
	k := -1
	if r, _ := decode(s, a); a < len(s) && isLowerish(r) {
		k = a
	} else {
		for x := len(starts) - 1; x >= 0; x-- {
			if r, _ := decode(s, starts[x]); isLowerish(r) {
				k = starts[x]
				break
			}
		}
	}
	if k < 0 {
		return 0
	}
	end := runOf(s, k, isLowerish)
	return end + contraction(s, end)
}

// upperLetters matches [Lu Lt Lm Lo M]+[Ll Lm Lo M]* then a contraction
// at s[j], returning its end, or 0 if it does not match.
func upperLetters(s string, j int) int {
	end := runOf(s, j, isUpperish)
	if end == j {
		return 0
	}
	end = runOf(s, end, isLowerish)
	return end + contraction(s, end)
}

// contraction is the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i], or 0.
// The tokenizer's engine matches its s without case as s, S and ſ (long
// s, U+017F), whose upper case is S.
func contraction(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return 0
	}
	for _, c := range []string{"s", "t", "re", "ve", "m", "ll", "d"} {
		j, ok := i+1, true
		for _, want := range c {
			r, sz := decode(s, j)
			if r == 'ſ' {
				r = 's'
			}
			if j >= len(s) || unicode.ToLower(r) != want {
				ok = false
				break
			}
			j += sz
		}
		if ok {
			return j - i
		}
	}
	return 0
}

// runOf is the end of the run of chars that in holds, from s[i].
func runOf(s string, i int, in func(rune) bool) int {
	for i < len(s) {
		r, sz := decode(s, i)
		if !in(r) {
			break
		}
		i += sz
	}
	return i
}

// decode is the rune at s[i], and its size; past the end, utf8.RuneError.
func decode(s string, i int) (rune, int) {
	if i >= len(s) {
		return utf8.RuneError, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// The pattern's classes, as the tokenizer's engine has them: without
// DEL (see splitO200k).
func isPrefix(r rune) bool { // [^\r\n\p{L}\p{N}]
	return r != '\r' && r != '\n' && r != 0x7f && !unicode.IsLetter(r) && !unicode.IsNumber(r)
}

func isUpperish(r rune) bool { // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

func isLowerish(r rune) bool { // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

func isOther(r rune) bool { // [^\s\p{L}\p{N}]
	return r != 0x7f && !unicode.IsSpace(r) && !unicode.IsLetter(r) && !unicode.IsNumber(r)
}
