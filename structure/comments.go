package structure

import "strings"

// CommentSpans finds the comments and docstrings in src, for a language
// family: // and /* */ in C-like languages, # in scripting languages, --
// in SQL and Lua, and Python's triple-quoted docstrings. String literals
// are skipped on a best-effort basis, so "http://x" is not taken for a
// comment. It returns them as byte ranges [start, end) of src, in order.
func CommentSpans(lang string, src []byte) [][2]int {
	switch lang {
	case "go", "javascript", "typescript", "java", "kotlin", "scala", "csharp", "c", "cpp", "rust", "swift", "php", "dart", "vue", "svelte", "proto", "css":
		return cComments(string(src), lang == "php")
	case "python", "ruby", "shell", "perl", "r", "julia", "elixir", "yaml", "toml", "make", "dockerfile", "ini":
		return hashComments(string(src), lang == "python")
	case "sql", "lua", "haskell":
		return dashComments(string(src))
	}
	return nil
}

func cComments(s string, hash bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\'' || c == '`':
			i = skipString(s, i, c)
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
				return out
			}
			out = append(out, [2]int{i, i + 2 + end + 2})
			i += 2 + end + 1
		}
	}
	return out
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

func hashComments(s string, python bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case python && (strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`)):
			q := s[i : i+3]
			end := strings.Index(s[i+3:], q)
			if end < 0 {
				out = append(out, [2]int{i, len(s)})
				return out
			}
			out = append(out, [2]int{i + 3, i + 3 + end})
			i += 3 + end + 2
		case c == '"' || c == '\'':
			i = skipString(s, i, c)
		case c == '#':
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s) - i
			}
			out = append(out, [2]int{i, i + end})
			i += end
		}
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
