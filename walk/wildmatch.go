package walk

import "strings"

// A pattern is a gitignore pattern, or one element of one, compiled to
// match as git matches it (gitignore(5), and git's wildmatch): byte by
// byte, not rune by rune. "?" and a bracket expression match one byte, so
// "?" does not match "é" (two bytes) and "??" does; "*" any bytes but a
// slash; "**" any bytes where it stands alone between slashes or the
// pattern's ends ("**/b", "a/**", not "**b", which is "*b"); "**/" also
// nothing at all. A pattern git gives up on (a class that does not
// close, or names no class git knows, or a trailing backslash) matches
// nothing.
type pattern struct {
	toks  []tok
	bad   bool
	stars bool // some token is a star: match needs its table
}

// tokKind is what one step of a pattern matches.
type tokKind uint8

const (
	tokByte       tokKind = iota // the byte b
	tokAny                       // "?": a byte but a slash
	tokClass                     // a bracket expression: a byte of set, never a slash
	tokStar                      // "*": bytes but slashes
	tokStars                     // "**": any bytes
	tokStarsSlash                // "**/": nothing, or any bytes that end in a slash
)

type tok struct {
	kind tokKind
	b    byte
	set  *byteSet
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s[c>>6] |= 1 << (c & 63)
	}
}

func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// posixClasses are the classes a bracket expression may name
// ("[[:digit:]]"), as byte ranges, for names in any encoding: the C
// locale's, as git's are.
var posixClasses = map[string][]byte{
	"alnum": []byte("09AZaz"), "alpha": []byte("AZaz"), "blank": []byte("  \t\t"),
	"cntrl": {0, 0x1f, 0x7f, 0x7f}, "digit": []byte("09"), "graph": []byte("!~"),
	"lower": []byte("az"), "print": []byte(" ~"), "punct": []byte("!/:@[`{~"),
	"space": []byte("\t\n\r\r  "), "upper": []byte("AZ"), "xdigit": []byte("09AFaf"),
}

// compilePattern compiles p. A run of stars is "**" where git reads it
// so: at the start of p or after a slash, and at its end or before a
// slash; anywhere else it is "*".
func compilePattern(p string) pattern { return compileFolded(p, false) }

// compileFolded is compilePattern, or with fold the pattern as git matches
// it ignoring case (WM_CASEFOLD), against a text in lower case
// (lowerASCII): git folds the pattern's plain letters, but not an escaped
// one nor a class's members; a range holds as well the lower case letters
// whose upper case it holds, and "[:upper:]" the lower case letters.
func compileFolded(p string, fold bool) pattern {
	var g pattern
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			if i+1 == len(p) {
				return pattern{bad: true}
			}
			i++
			g.toks = append(g.toks, tok{kind: tokByte, b: p[i]})
		case '?':
			g.toks = append(g.toks, tok{kind: tokAny})
		case '[':
			set, end, ok := parseClass(p, i, fold)
			if !ok {
				return pattern{bad: true}
			}
			g.toks = append(g.toks, tok{kind: tokClass, set: set})
			i = end
		case '*':
			g.stars = true
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			double := j-i > 1 && (i == 0 || p[i-1] == '/')
			switch {
			case !double:
				g.toks = append(g.toks, tok{kind: tokStar})
			case j == len(p):
				g.toks = append(g.toks, tok{kind: tokStars})
			case p[j] == '/':
				g.toks = append(g.toks, tok{kind: tokStarsSlash})
				j++ // the slash is the token's
			case strings.HasPrefix(p[j:], `\/`):
				// git reads "**\/" as "**" and a slash, which must
				// be there: not as "**/", which may match nothing.
				g.toks = append(g.toks, tok{kind: tokStars})
			default:
				g.toks = append(g.toks, tok{kind: tokStar})
			}
			i = j - 1
		default:
			if fold && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			g.toks = append(g.toks, tok{kind: tokByte, b: c})
		}
	}
	return g
}

// parseClass reads the bracket expression at p[i], a "[", as git reads
// it: "!" or "^" first negates it; a "]" first is a member; a backslash
// makes the next byte a member; "x-y" is a range of bytes, where x was a
// member of its own (so "[z-a]" holds "z"); "[:name:]" is a POSIX class.
// It returns the set, the index of the closing "]", and false for a
// class git gives up on: one that does not close, or a class name it does
// not know.
func parseClass(p string, i int, fold bool) (*byteSet, int, bool) {
	set := new(byteSet)
	j := i + 1
	negated := j < len(p) && (p[j] == '!' || p[j] == '^')
	if negated {
		j++
	}
	prev := -1 // the last member, while a "-" may still make it a range
	for first := true; ; first = false {
		if j >= len(p) {
			return nil, 0, false
		}
		c := p[j]
		switch {
		case c == ']' && !first:
			if negated {
				for k := range set {
					set[k] = ^set[k]
				}
			}
			return set, j, true
		case c == '\\':
			j++
			if j >= len(p) {
				return nil, 0, false
			}
			set.add(p[j], p[j])
			prev = int(p[j])
		case c == '-' && prev >= 0 && j+1 < len(p) && p[j+1] != ']':
			j++
			hi := p[j]
			if hi == '\\' {
				j++
				if j >= len(p) {
					return nil, 0, false
				}
				hi = p[j]
			}
			if byte(prev) <= hi {
				set.add(byte(prev), hi)
			}
			for c := byte('a'); fold && c <= 'z'; c++ {
				if up := c - 'a' + 'A'; byte(prev) <= up && up <= hi {
					set.add(c, c)
				}
			}
			prev = -1
		case c == '[' && j+1 < len(p) && p[j+1] == ':':
			end := strings.IndexByte(p[j+2:], ']')
			if end < 0 {
				return nil, 0, false
			}
			end += j + 2
			if end-1 < j+2 || p[end-1] != ':' {
				// No ":]": the "[" is a member, and the rest is read on.
				set.add('[', '[')
				prev = '['
				break
			}
			ranges, ok := posixClasses[p[j+2:end-1]]
			if !ok {
				return nil, 0, false
			}
			for k := 0; k+1 < len(ranges); k += 2 {
				set.add(ranges[k], ranges[k+1])
			}
			if fold && p[j+2:end-1] == "upper" {
				set.add('a', 'z')
			}
			prev = -1
			j = end
		default:
			set.add(c, c)
			prev = int(c)
		}
		j++
	}
}

// match reports whether s matches the whole pattern. It fills a table of
// which of the pattern's suffixes match which of s's, in steps of the
// pattern's length times s's, however many stars the pattern has.
func (g *pattern) match(s string) bool {
	if g.bad {
		return false
	}
	if !g.stars {
		if len(s) != len(g.toks) {
			return false
		}
		for j := range g.toks {
			if !g.toks[j].one(s[j]) {
				return false
			}
		}
		return true
	}
	n := len(s)
	var buf [2][64]bool
	next, cur := buf[0][:0], buf[1][:0]
	if n+1 > len(buf[0]) {
		next, cur = make([]bool, 0, n+1), make([]bool, 0, n+1)
	}
	// next[j]: the tokens after the i-th match s[j:].
	next, cur = next[:n+1], cur[:n+1]
	clear(next)
	next[n] = true
	for i := len(g.toks) - 1; i >= 0; i-- {
		t := &g.toks[i]
		cur[n] = false
		switch t.kind {
		case tokStar, tokStars:
			cur[n] = next[n]
			for j := n - 1; j >= 0; j-- {
				cur[j] = next[j] || cur[j+1] && (t.kind == tokStars || s[j] != '/')
			}
		case tokStarsSlash:
			cur[n] = next[n]
			slash := false // some slash at or after j is followed by a match
			for j := n - 1; j >= 0; j-- {
				slash = slash || s[j] == '/' && next[j+1]
				cur[j] = next[j] || slash
			}
		default:
			for j := n - 1; j >= 0; j-- {
				cur[j] = next[j+1] && t.one(s[j])
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

// one reports whether a token that matches one byte matches c.
func (t *tok) one(c byte) bool {
	switch t.kind {
	case tokByte:
		return c == t.b
	case tokAny:
		return c != '/'
	case tokClass:
		return c != '/' && t.set.has(c)
	}
	return false
}

// A pathPattern is a pattern with slashes as git matches it against a
// path: the pattern's bytes before its first wildcard compared as they
// are, then the rest matched against the rest of the path. So a "**" right
// after that literal part is at the rest's start: "a**/b" matches "ab",
// "a/b" and "ax/y/b", as "a" then "**/b". newRule keeps these for the
// patterns whose elements cannot be matched one by one (wholePath).
type pathPattern struct {
	literal string
	rest    pattern
}

func newPathPattern(p string) *pathPattern {
	n := strings.IndexAny(p, `*?[\`)
	if n < 0 {
		n = len(p)
	}
	return &pathPattern{literal: p[:n], rest: compilePattern(p[n:])}
}

func (pp *pathPattern) match(path string) bool {
	rest, ok := strings.CutPrefix(path, pp.literal)
	return ok && pp.rest.match(rest)
}

// wholePath reports whether a pattern with slashes (its leading and
// trailing slash taken off) must be matched as a whole path, not element
// by element: it has an escaped slash, which git matches as a slash, or a
// bracket expression with a slash ("[!/]"), which splitting at slashes
// would break apart, or its first wildcard is a "**" glued to the literal
// part before it, which git reads as "**" (see pathPattern).
func wholePath(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			if i+1 < len(p) && p[i+1] == '/' {
				return true
			}
			i++
		case '[':
			if _, end, ok := parseClass(p, i, false); ok {
				if strings.IndexByte(p[i:end], '/') >= 0 {
					return true
				}
				i = end
			}
		}
	}
	n := strings.IndexAny(p, `*?[\`)
	if n <= 0 || p[n-1] == '/' || !strings.HasPrefix(p[n:], "**") {
		return false
	}
	rest := strings.TrimLeft(p[n:], "*")
	return rest == "" || rest[0] == '/' || strings.HasPrefix(rest, `\/`)
}

// trimTrailingSpaces takes off a pattern's trailing spaces, as git does,
// but one a backslash escapes and those before it.
func trimTrailingSpaces(p string) string {
	end := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case ' ':
			continue
		case '\\':
			i++
			if i == len(p) {
				return p // git leaves a line that ends in a backslash as it is
			}
		}
		end = i + 1
	}
	return p[:end]
}
