package structure

import (
	"strings"
	"unsafe"
)

// CommentSpans finds the comments and docstrings in src, for a language
// family: // and /* */ in C-like languages, # in scripting languages, --
// in SQL and Lua, and Python's triple-quoted docstrings. String literals
// are skipped on a best-effort basis, so "http://x" is not taken for a
// comment. It returns them as byte ranges [start, end) of src, in order.
func CommentSpans(lang string, src []byte) [][2]int {
	comments, _ := Spans(lang, src)
	return comments
}

// Spans returns the byte spans of the comments in src, as CommentSpans
// does, and those of its string literals outside comments, quotes left
// out, in order. Languages whose comments it does not know have neither.
func Spans(lang string, src []byte) (comments, strs [][2]int) {
	// src read as a string where it lies: the spans are offsets, and
	// nothing of the text outlives the call.
	text := unsafe.String(unsafe.SliceData(src), len(src))
	switch commentStyleOf(lang) {
	case cStyle:
		return cComments(text, lang == "php")
	case hashStyle:
		return hashComments(text, lang == "python")
	case lineStyle:
		return lineComments(text), nil
	case dashStyle:
		return dashComments(text), nil
	}
	return nil, nil
}

// commentStyle is how a language writes its comments.
type commentStyle int

const (
	unknownStyle commentStyle = iota
	cStyle                    // // and /* */
	hashStyle                 // #
	lineStyle                 // a line opened by #, ; or ! (INI, properties)
	dashStyle                 // --
)

// commentStyleOf is lang's comment style.
func commentStyleOf(lang string) commentStyle {
	switch lang {
	case "go", "javascript", "typescript", "java", "kotlin", "scala", "csharp", "c", "cpp", "rust", "swift", "php", "dart", "vue", "svelte", "proto", "css",
		"groovy", "zig":
		return cStyle
	case "python", "ruby", "shell", "perl", "r", "julia", "elixir", "yaml", "toml", "make", "dockerfile", "jq", "cmake":
		return hashStyle
	case "ini", "properties":
		return lineStyle
	case "sql", "lua", "haskell":
		return dashStyle
	}
	return unknownStyle
}

// str records the string literal that opens at i and closes at end.
func str(out [][2]int, s string, i, end int) [][2]int {
	if end > i+1 && end < len(s) && s[end] == s[i] {
		out = append(out, [2]int{i + 1, end})
	}
	return out
}

func cComments(s string, hash bool) (out, strs [][2]int) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\'' || c == '`':
			end := skipString(s, i, c)
			strs = str(strs, s, i, end)
			i = end
		case c == '/' && i+1 < len(s) && s[i+1] == '/', hash && c == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, [2]int{i, i + end})
			i += end
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				out = append(out, [2]int{i, len(s)})
				return out, strs
			}
			out = append(out, [2]int{i, i + 2 + end + 2})
			i += 2 + end + 1
		}
	}
	return out, strs
}

// skipString returns the index of the quote that closes the string opening
// at i, or of the end of the line for an unterminated one (but for
// backquotes, which may span lines).
func skipString(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			if q != '`' {
				return j
			}
		}
	}
	return len(s) - 1
}

func hashComments(s string, python bool) (out, strs [][2]int) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case python && (strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`)):
			q := s[i : i+3]
			end := strings.Index(s[i+3:], q)
			if end < 0 {
				out = append(out, [2]int{i, len(s)})
				return out, strs
			}
			out = append(out, [2]int{i + 3, i + 3 + end})
			i += 3 + end + 2
		case c == '"' || c == '\'':
			end := skipString(s, i, c)
			strs = str(strs, s, i, end)
			i = end
		case c == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, [2]int{i, i + end})
			i += end
		}
	}
	return out, strs
}

// lineComments finds the comments of INI and properties files: lines
// that start with #, ; or !, and what follows " #" or " ;" on a line.
// Their values are not quoted strings.
func lineComments(s string) [][2]int {
	var out [][2]int
	start := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		body := strings.TrimRight(line, "\r\n")
		trim := strings.TrimLeft(body, " \t")
		switch {
		case trim != "" && strings.ContainsRune("#;!", rune(trim[0])):
			out = append(out, [2]int{start + len(body) - len(trim), start + len(body)})
		default:
			i := strings.Index(body, " #")
			if j := strings.Index(body, " ;"); j >= 0 && (i < 0 || j < i) {
				i = j
			}
			if i >= 0 {
				out = append(out, [2]int{start + i + 1, start + len(body)})
			}
		}
		start += len(line)
	}
	return out
}

func dashComments(s string) [][2]int {
	var out [][2]int
	start := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			out = append(out, [2]int{start + i, start + len(strings.TrimRight(line, "\n"))})
		}
		start += len(line)
	}
	return out
}
