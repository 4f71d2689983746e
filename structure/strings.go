package structure

import "strings"

// A stringScan follows a file's strings that run over lines, line by
// line, so that their lines are read as a string's, not as code: a `}`
// at the margin of a Kotlin raw string closes no class, and the Go source
// that a test writes in backticks defines nothing. It reads the line's
// other strings, its characters and its comments as the language writes
// them, so that a quote in them opens nothing.
type stringScan struct {
	lang  string
	pairs []quotePair
	stops string     // the bytes the scan stops at in code: quotes, /, the pairs' first
	open  *quotePair // the string the scan is in, or nil
	block bool       // in a /* */ comment
	// JavaScript's template literals, nested through their ${}: for
	// each, -1 in its text, else the depth of braces in its expression.
	templates []int
}

// quotePair is how a language opens and closes a string that may run
// over lines; escapes: a backslash keeps the next byte from closing it.
type quotePair struct {
	open, close string
	escapes     bool
}

// multilineQuotes are each language's strings that may run over lines,
// the longest opener first.
func multilineQuotes(lang string) []quotePair {
	switch lang {
	case "go":
		return []quotePair{{"`", "`", false}}
	case "javascript", "typescript":
		return nil // templates: read by the scan itself
	case "rust":
		return []quotePair{{`r##"`, `"##`, false}, {`r#"`, `"#`, false}, {`br"`, `"`, false}, {`r"`, `"`, false}, {`"`, `"`, true}}
	case "cpp":
		return []quotePair{{`R"(`, `)"`, false}}
	case "c", "php":
		return nil
	}
	return []quotePair{{`"""`, `"""`, false}, {"'''", "'''", false}}
}

func newStringScan(lang string) *stringScan {
	s := &stringScan{lang: lang, pairs: multilineQuotes(lang), stops: "\"'`/"}
	for _, p := range s.pairs {
		if !strings.Contains(s.stops, p.open[:1]) {
			s.stops += p.open[:1]
		}
	}
	return s
}

// line reads the next line and reports whether it starts inside a string:
// a line of the string, its last too.
func (s *stringScan) line(l string) (inside bool) {
	inside = s.open != nil || len(s.templates) > 0
	for i := 0; i < len(l); {
		switch {
		case len(s.templates) > 0:
			i = s.template(l, i)
		case s.open != nil:
			j := closingAt(l[i:], s.open)
			if j < 0 {
				return inside
			}
			i += j + len(s.open.close)
			s.open = nil
		case s.block:
			j := strings.Index(l[i:], "*/")
			if j < 0 {
				return inside
			}
			i += j + 2
			s.block = false
		default:
			j := strings.IndexAny(l[i:], s.stops)
			if j < 0 {
				return inside
			}
			i += j
			if p := s.opener(l[i:]); p != nil {
				s.open = p
				i += len(p.open)
				continue
			}
			switch c := l[i]; {
			case c == '/' && i+1 < len(l) && l[i+1] == '/':
				return inside
			case c == '/' && i+1 < len(l) && l[i+1] == '*':
				s.block = true
				i += 2
			case c == '`' && isJS(s.lang):
				s.templates = append(s.templates, -1)
				i++
			case c == '/' && isJS(s.lang) && regexStarts(l[:i]):
				i = skipRegex(l, i)
			case c == '"' || c == '\'' || c == '`':
				i = s.skipOneLine(l, i)
			default:
				i++
			}
		}
	}
	return inside
}

// template reads l from i in a JavaScript template literal: its text to
// its closing backtick or a ${; in a ${, its expression, whose own
// templates nest. It returns where it stopped.
func (s *stringScan) template(l string, i int) int {
	top := len(s.templates) - 1
	if s.templates[top] < 0 {
		for ; i < len(l); i++ {
			switch {
			case l[i] == '\\':
				i++
			case l[i] == '`':
				s.templates = s.templates[:top]
				return i + 1
			case l[i] == '$' && i+1 < len(l) && l[i+1] == '{':
				s.templates[top] = 1
				return i + 2
			}
		}
		return i
	}
	for ; i < len(l); i++ {
		switch c := l[i]; c {
		case '`':
			s.templates = append(s.templates, -1)
			return i + 1
		case '{':
			s.templates[top]++
		case '}':
			if s.templates[top]--; s.templates[top] == 0 {
				s.templates[top] = -1
				return i + 1
			}
		case '"', '\'':
			i = s.skipOneLine(l, i) - 1
		}
	}
	return i
}

// regexStarts reports whether a / after before opens a JavaScript regular
// expression, not a division: nothing but an operator or an opening
// bracket before it.
func regexStarts(before string) bool {
	t := strings.TrimRight(before, " \t")
	if t == "" {
		return true
	}
	return strings.ContainsRune("(,=:[!&|?{};+-*%<>~^", rune(t[len(t)-1])) || strings.HasSuffix(t, "return")
}

// skipRegex steps over the regular expression that opens at l[i]: the
// index after its closing /, or after the / alone where none closes it.
func skipRegex(l string, i int) int {
	class := false
	for j := i + 1; j < len(l); j++ {
		switch l[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				return j + 1
			}
		}
	}
	return i + 1
}

// opener is the pair whose opener starts at the head of l, or nil.
func (s *stringScan) opener(l string) *quotePair {
	for k := range s.pairs {
		if strings.HasPrefix(l, s.pairs[k].open) {
			return &s.pairs[k]
		}
	}
	return nil
}

// skipOneLine steps over a string or character that opens at l[i] and
// ends on its line (the one-line strings: a Go "…", a JavaScript '…', a
// Rust 'x'), or over the quote alone where it is none (a Rust lifetime,
// an apostrophe): the index after it.
func (s *stringScan) skipOneLine(l string, i int) int {
	q := l[i]
	if s.lang == "rust" && q == '\'' {
		// A character ('x', '\n', '\u{1F600}'), or a lifetime ('a).
		if i+2 < len(l) && l[i+1] == '\\' {
			if j := strings.IndexByte(l[i+2:], '\''); j >= 0 {
				return i + 2 + j + 1
			}
		} else if i+2 < len(l) && l[i+2] == '\'' {
			return i + 3
		}
		return i + 1
	}
	for j := i + 1; j < len(l); j++ {
		switch l[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return i + 1 // not closed on its line: a quote alone
}

// closingAt is where the string p, open, closes in l: its closer not kept
// from closing by a backslash; -1 where it does not.
func closingAt(l string, p *quotePair) int {
	for i := 0; i < len(l); i++ {
		if p.escapes && l[i] == '\\' {
			i++
			continue
		}
		if strings.HasPrefix(l[i:], p.close) {
			return i
		}
	}
	return -1
}

// LineCode is a line of code with its string literals' contents blanked
// and its trailing comment cut off: what the line does, not what it
// says; its brackets counted and its last character read without a
// string's or a comment's. A # starts a comment, and so does // where
// slashes is true (not in Python, where // divides). A string that runs
// past the line (a triple-quoted one) is blanked to the line's end.
func LineCode(line string, slashes bool) string {
	b := []byte(line)
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == '\\' && i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
				continue
			}
			if c == quote {
				quote = 0
				continue
			}
			b[i] = ' '
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '#' || slashes && c == '/' && i+1 < len(b) && b[i+1] == '/':
			return string(b[:i])
		}
	}
	return string(b)
}
