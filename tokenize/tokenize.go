// Package tokenize splits source code and prose into search terms.
//
// It is identifier aware: each identifier-like run of text is split into its
// camelCase, snake_case and kebab-case parts, and an identifier of two or
// more parts is also emitted whole (lower-cased, separators removed), so that
// "parseHTTPRequest" yields parse, http, request and parsehttprequest.
// Every token carries its lower-cased text and its English Snowball stem.
//
// Runs of Chinese, Japanese and Korean characters are emitted unsegmented as
// single tokens (see package lexicon for segmentation); words in other
// non-Latin scripts are emitted lower-cased and unstemmed.
//
// The tokenizer never panics, accepts invalid UTF-8 (invalid bytes separate
// tokens), uses no regular expressions and, thanks to a bounded concurrent
// cache of token strings and stems, does not allocate per token in the
// steady state. Token strings never share memory with the input.
package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// Token is one term produced by Tokens or Each.
type Token struct {
	// Text is the lower-cased surface form, e.g. "refresh" or, for a whole
	// compound identifier, "refreshtoken".
	Text string
	// Stem is the English Snowball stem of Text. For CJK runs and words with
	// non-ASCII letters it equals Text.
	Stem string
	// Whole is true when the token is a whole compound identifier; it is
	// only emitted for identifiers of two or more parts.
	Whole bool
	// Stop is IsStopWord(Text), worked out once for each text.
	Stop bool
	// Pos is the byte offset in the input of the start of the identifier or
	// word the token came from. All parts of an identifier, and the whole
	// identifier, share the identifier's Pos.
	Pos int
}

// MaxLen is the longest token, in bytes of its lower-cased text, that is
// emitted for identifiers and words; longer ones (base64 blobs, minified
// code) are dropped. CJK runs are never dropped for length.
const MaxLen = 64

// Each calls fn for every token of text, in order of position.
//
// An identifier is a maximal run of letters, digits, '_' and '$', with '-'
// allowed between two letters or digits (so "session-manager" is one
// identifier but "a - b" and "--flag" are not). Dots, slashes, colons and
// all other punctuation separate identifiers, so "app.db.models" gives
// app, db, models. An identifier is split into parts on '_', '$' and '-'
// and on case changes:
//
//   - lower or digit followed by upper: "getUser" -> get, user
//   - an acronym ends before its last capital when that capital starts a
//     lower-case word: "XMLHttpRequest" -> xml, http, request; a trailing
//     plural "s" stays with the acronym: "getIDs" -> get, ids; so does a
//     version's "v" and number: "EnableIPv6" -> enable, ipv6
//   - digits stay attached to the letters before them, and lower-case
//     letters after digits continue the part: "getUserID2" -> get, user,
//     id2; "utf8Decode" -> utf8, decode; "md5sum" -> md5sum
//
// Each part is emitted (Whole false) in order, then, if the identifier has
// two or more parts, the whole identifier (Whole true). Parts and wholes
// are dropped when they have fewer than 2 characters, contain no letter
// (pure numbers), are longer than MaxLen, or look like hashes or hex
// numbers (4+ digits and no more letters than digits; "0x..." literals).
// Stop words are not removed; see IsStopWord.
//
// A maximal run of Han, Hiragana, Katakana, Hangul or Bopomofo characters
// is emitted as one token whose Stem equals its Text.
//
// fn must not retain anything but the Token it is given; the Token's
// strings are safe to keep.
func Each(text string, fn func(Token)) { each(text, fn, len(text) >= nearFrom) }

// EachShort is Each for one of many short texts tokenized in a row (a
// file's lines, one by one), whose words repeat from one to the next: it
// looks them up through a near cache whatever the text's length, which
// Each keeps for long texts. The tokens are Each's.
func EachShort(text string, fn func(Token)) { each(text, fn, true) }

// each is Each, through a near cache where withNear says so.
func each(text string, fn func(Token), withNear bool) {
	var lb lowbuf
	if withNear {
		lb.near = nearCaches.Get().(*near)
		defer nearCaches.Put(lb.near)
	}
	i := 0
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiClass[c] == clsOther || asciiClass[c] == clsHyphen {
				i++
				continue
			}
			j := scanIdent(text, i)
			emitIdent(text, i, j, &lb, fn)
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			i++
		case isCJK(r):
			j := i + size
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isCJK(r2) {
					break
				}
				j += s2
			}
			e := lb.near.lookupString(text[i:j], false)
			fn(Token{Text: e.text, Stem: e.stem, Stop: e.stop, Pos: i})
			i = j
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := scanIdent(text, i)
			emitIdent(text, i, j, &lb, fn)
			i = j
		default:
			i += size
		}
	}
}

// Character classes.
const (
	clsOther  = iota // not part of an identifier
	clsSep           // '_' or '$': inside identifiers, separates parts
	clsHyphen        // '-': inside identifiers between alphanumerics
	clsUpper
	clsLower // lower-case letters, caseless letters and marks
	clsDigit
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = clsLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = clsUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = clsDigit
	}
	t['_'] = clsSep
	t['$'] = clsSep
	t['-'] = clsHyphen
	return t
}()

// class returns the class of the rune at s[i] and its size. Invalid UTF-8
// and CJK characters are clsOther.
func class(s string, i int) (uint8, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return clsOther, 1
	case isCJK(r):
		return clsOther, size
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return clsUpper, size
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return clsLower, size
	case unicode.IsDigit(r):
		return clsDigit, size
	}
	return clsOther, size
}

func isAlnum(cls uint8) bool { return cls >= clsUpper }

// scanIdent returns the end of the identifier starting at s[i].
func scanIdent(s string, i int) int {
	j := i
	prev := uint8(clsOther)
	for j < len(s) {
		cls, size := class(s, j)
		switch {
		case cls == clsOther:
			return j
		case cls == clsHyphen:
			if !isAlnum(prev) || j+1 >= len(s) {
				return j
			}
			if next, _ := class(s, j+1); !isAlnum(next) {
				return j
			}
		}
		prev = cls
		j += size
	}
	return j
}

// emitIdent splits the identifier s[start:end] into parts and emits them.
func emitIdent(s string, start, end int, lb *lowbuf, fn func(Token)) {
	id := s[start:end]
	if len(id) >= 2 && id[0] == '0' && (id[1]|0x20) == 'x' && isHex(id[2:]) {
		return
	}
	// Fast path: a lower-case ASCII word is its own single part.
	letters, digits, k := 0, 0, 0
	for ; k < len(id); k++ {
		c := id[k]
		if c >= utf8.RuneSelf {
			break
		}
		if cls := asciiClass[c]; cls == clsLower {
			letters++
		} else if cls == clsDigit {
			digits++
		} else {
			break
		}
	}
	if k == len(id) {
		if len(id) >= 2 && len(id) <= MaxLen && letters > 0 && (digits < 4 || letters > digits) {
			e := lb.near.lookupString(id, true)
			fn(Token{Text: e.text, Stem: e.stem, Stop: e.stop, Pos: start})
		}
		return
	}

	parts := 0
	ps := -1 // start of the current part in id, or -1
	prev := uint8(clsSep)
	for i := 0; i < len(id); {
		var cls uint8
		size := 1
		if c := id[i]; c < utf8.RuneSelf {
			cls = asciiClass[c]
		} else {
			cls, size = class(id, i)
		}
		if cls == clsSep || cls == clsHyphen {
			if ps >= 0 {
				emitPart(id[ps:i], start, lb, fn)
				parts++
				ps = -1
			}
			prev = clsSep
			i += size
			continue
		}
		if ps >= 0 && cls == clsUpper {
			boundary := false
			switch prev {
			case clsLower, clsDigit:
				boundary = true
			case clsUpper:
				// "HTTPRequest": the last capital before a lower-case
				// letter starts a new word, unless it is a plural "s"
				// ending the acronym ("IDs", "URLsFor") or a version's
				// "v" and its number ("IPv6", "TLSv1"), which the acronym
				// keeps as lower-case code writes it (ipv6).
				if j := i + size; j < len(id) {
					if ncls, nsize := class(id, j); ncls == clsLower {
						plural := id[j] == 's'
						if k := j + nsize; plural && k < len(id) {
							if kcls, _ := class(id, k); kcls == clsLower {
								plural = false
							}
						}
						version := false
						if k := j + nsize; id[j] == 'v' && k < len(id) {
							kcls, _ := class(id, k)
							version = kcls == clsDigit
						}
						boundary = !plural && !version
					}
				}
			}
			if boundary {
				emitPart(id[ps:i], start, lb, fn)
				parts++
				ps = -1
			}
		}
		if ps < 0 {
			ps = i
		}
		prev = cls
		i += size
	}
	if ps >= 0 {
		emitPart(id[ps:], start, lb, fn)
		parts++
	}
	if parts >= 2 {
		lb.reset()
		lb.add(id) // separators are skipped
		if lb.ok() {
			e := lb.near.lookupBytes(lb.bytes(), lb.ascii)
			fn(Token{Text: e.text, Stem: e.stem, Stop: e.stop, Whole: true, Pos: start})
		}
	}
}

// emitPart lower-cases one part and emits it if it passes the filters.
func emitPart(part string, pos int, lb *lowbuf, fn func(Token)) {
	lb.reset()
	lb.add(part)
	if lb.ok() {
		e := lb.near.lookupBytes(lb.bytes(), lb.ascii)
		fn(Token{Text: e.text, Stem: e.stem, Stop: e.stop, Pos: pos})
	}
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || s[i] == '_') {
			return false
		}
	}
	return true
}

// lowbuf accumulates lower-cased text in a fixed array, with the counts the
// token filters need.
type lowbuf struct {
	near     *near // the text's near cache, if any
	b        [MaxLen]byte
	n        int
	runes    int
	letters  int
	digits   int
	ascii    bool
	overflow bool
}

func (l *lowbuf) reset() {
	l.n, l.runes, l.letters, l.digits = 0, 0, 0, 0
	l.ascii, l.overflow = true, false
}

func (l *lowbuf) bytes() []byte { return l.b[:l.n] }

// ok reports whether the text is worth a token.
func (l *lowbuf) ok() bool {
	if l.overflow || l.runes < 2 || l.letters == 0 {
		return false
	}
	return l.digits < 4 || l.letters > l.digits
}

// add appends the lower-cased text of s, skipping the ASCII separators
// '_', '$' and '-'.
func (l *lowbuf) add(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			f := asciiInfo[c]
			if f&infoSep != 0 {
				continue
			}
			l.runes++
			l.letters += int(f & infoLetter)
			l.digits += int(f&infoDigit) >> 1
			if l.n >= len(l.b) {
				l.overflow = true
				continue
			}
			l.b[l.n] = asciiLower[c]
			l.n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		l.runes++
		if unicode.IsLetter(r) {
			l.letters++
		} else if unicode.IsDigit(r) {
			l.digits++
		}
		// ascii depends on the output alone ('K', the Kelvin sign,
		// lowers to 'k'), so the cache's stem for a text is consistent.
		if r = unicode.ToLower(r); r >= utf8.RuneSelf {
			l.ascii = false
		}
		if n := utf8.RuneLen(r); n < 0 || l.n+n > len(l.b) {
			l.overflow = true
			continue
		}
		l.n += utf8.EncodeRune(l.b[l.n:], r)
	}
}

const (
	infoLetter = 1 << iota
	infoDigit
	infoSep
)

var asciiInfo, asciiLower = func() (info, lower [utf8.RuneSelf]byte) {
	for c := range info {
		lower[c] = byte(c)
		switch asciiClass[c] {
		case clsUpper:
			info[c] = infoLetter
			lower[c] = byte(c) + 'a' - 'A'
		case clsLower:
			info[c] = infoLetter
		case clsDigit:
			info[c] = infoDigit
		case clsSep, clsHyphen:
			info[c] = infoSep
		}
	}
	return info, lower
}()

// isCJK reports whether r is a Han, Hiragana, Katakana, Hangul or Bopomofo
// character (or the prolonged sound mark 'ー').
func isCJK(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0xAC00 && r <= 0xD7AF:
		return true
	case r >= 0x3040 && r <= 0x30FF:
		return r != 0x30FB // katakana middle dot separates words
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo)
}
