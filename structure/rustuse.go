package structure

import "strings"

// maxUsePaths bounds the paths one use declaration expands to, and
// maxUseDepth its nesting of braces: what is past them is dropped.
const (
	maxUsePaths = 64
	maxUseDepth = 16
)

// RustUsePaths expands the argument of a Rust use declaration (the text
// between "use" and ";") into the paths it imports, the forms Resolve
// takes: "a::{b, c::{D, E as F}, self}" gives a::b, a::c::D, a::c::E and
// a; a glob gives the path it is taken from; comments and aliases are
// dropped. A tree cut short (a line of a declaration spread over several)
// gives the paths read before the cut.
func RustUsePaths(s string) []string {
	p := useParser{toks: useTokens(s)}
	p.tree(nil, 0)
	return p.out
}

type useParser struct {
	toks []string
	i    int
	out  []string
	seen map[string]bool
}

func (p *useParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *useParser) emit(path []string) {
	if len(path) == 0 || len(p.out) >= maxUsePaths {
		return
	}
	s := strings.Join(path, "::")
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	if !p.seen[s] {
		p.seen[s] = true
		p.out = append(p.out, s)
	}
}

// tree reads one use tree after the path prefix, emitting what it imports.
func (p *useParser) tree(prefix []string, depth int) {
	path := append([]string(nil), prefix...)
	for {
		switch t := p.peek(); {
		case t == "{":
			p.i++
			if depth >= maxUseDepth {
				p.i = len(p.toks)
				return
			}
			for p.peek() != "}" && p.peek() != "" {
				start := p.i
				p.tree(path, depth+1)
				if p.peek() == "," {
					p.i++
				} else if p.i == start {
					p.i++ // a token no tree begins with: skip it
				}
			}
			if p.peek() == "}" {
				p.i++
			}
			return
		case t == "*":
			p.i++
			p.emit(path)
			return
		case t == "self" && len(path) > 0:
			// "a::{self}" imports a itself.
			p.i++
			p.emit(path)
			p.alias()
			return
		case isUseIdent(t):
			p.i++
			path = append(path, t)
			if p.peek() == "::" {
				p.i++
				continue
			}
			p.emit(path)
			p.alias()
			return
		case t == "::" && len(path) == 0:
			p.i++ // a 2015 absolute path, ::std::x
			continue
		default: // the tree is cut short, or holds a stray token
			if len(path) > len(prefix) {
				p.emit(path)
			}
			return
		}
	}
}

// alias skips "as name".
func (p *useParser) alias() {
	if p.peek() == "as" {
		p.i++
		if isUseIdent(p.peek()) {
			p.i++
		}
	}
}

func isUseIdent(t string) bool {
	return t != "" && t != "as" && (isIdentStart(t[0]) || t[0] >= 0x80)
}

// isUseIdentPart: Rust names may hold any letter, not only ASCII's.
func isUseIdentPart(c byte) bool { return isIdentPart(c) || c >= 0x80 }

// useTokens splits a use tree into identifiers (a raw r#name without its
// prefix), "::", "{", "}", ",", "*" and any other character alone,
// dropping spaces and comments.
func useTokens(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(s[i:], "//"):
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
		case strings.HasPrefix(s[i:], "/*"):
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(s)
			}
		case strings.HasPrefix(s[i:], "::"):
			toks = append(toks, "::")
			i += 2
		case isUseIdentPart(c):
			j := i
			for j < len(s) && isUseIdentPart(s[j]) {
				j++
			}
			if j < len(s) && s[j] == '#' && s[i:j] == "r" {
				i = j + 1 // r#type: the name is what follows
				continue
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			toks = append(toks, s[i:i+1])
			i++
		}
	}
	return toks
}

// rustOuterPath reads a use path written inside inline modules nested
// that deep in a file as the file's module would: their leading supers
// climb out of them first. A path that stays inside them (self::x,
// super::x one module deep in two) imports nothing of another file.
func rustOuterPath(p string, inline int) (string, bool) {
	if inline == 0 {
		return p, true
	}
	segs := strings.Split(p, "::")
	if segs[0] == "self" {
		return "", false
	}
	n := 0
	for n < len(segs) && segs[n] == "super" {
		n++
	}
	switch {
	case n == 0:
		return p, true // crate::, or a bare path
	case n < inline:
		return "", false
	case n == inline && n == len(segs):
		return "", false // use super::*: the file's own module
	case n == inline:
		return "self::" + strings.Join(segs[n:], "::"), true
	}
	return strings.Join(segs[inline:], "::"), true
}
