package structure

import (
	"iter"
	"path"
	"slices"
	"strings"
	"unsafe"
)

// LanguageOf is Language, told by the file's text where the name leaves
// the language open: a .h file is C's by its name, and C++'s when its code
// says so (see cppReader). The text is read, never kept.
func LanguageOf(p, text string) string {
	return languageOfLines(p, func(yield func(string) bool) {
		for text != "" {
			line := text
			if i := strings.IndexByte(text, '\n'); i >= 0 {
				line, text = text[:i], text[i+1:]
			} else {
				text = ""
			}
			if !yield(line) {
				return
			}
		}
	})
}

// LanguageOfLines is LanguageOf of a text split into lines.
func LanguageOfLines(p string, lines []string) string {
	return languageOfLines(p, slices.Values(lines))
}

func languageOfLines(p string, lines iter.Seq[string]) string {
	lang := Language(p)
	if !openHeader(p, lang) {
		return lang
	}
	var r cppReader
	for l := range lines {
		if r.cpp(l) {
			return "cpp"
		}
	}
	return lang
}

// openHeader reports whether a file's name leaves its language open: a
// header named .h, which C and C++ both write.
func openHeader(p, lang string) bool {
	return lang == "c" && strings.EqualFold(path.Ext(p), ".h")
}

// cppReader reads a header's lines in turn, for what only C++ writes in
// its code (comments, strings, a macro's continued lines and the code for
// C++ readers alone left out): a namespace, a template, a class, an access
// label, a using declaration, a scope (std::, a::b), a C++ cast, a word
// only C++ keeps (cxxWords: nullptr, constexpr, noexcept), a special
// member defaulted or deleted (= default;), extern "C++", or an included
// header named without .h (<string>, <cstdint>) or as C++'s (.hpp, .hh,
// .hxx). A C header's code for C++ readers (#ifdef
// __cplusplus / extern "C" { / #endif, or a C++ include or helper in such
// a block) is none of these, nor C23's attributes ([[gnu::unused]]).
type cppReader struct {
	inComment bool   // inside a /* */ comment begun on an earlier line
	continued bool   // on a preprocessor line that the last one continued
	buf       []byte // the code of the line being read
	// conds are the conditionals open (#if ... #endif), innermost last:
	// cxxOnly for a branch that only a C++ compiler reads (#ifdef
	// __cplusplus), cOnly for one only a C compiler reads (its #else,
	// #ifndef __cplusplus), other for any other.
	conds []int8
}

// The kinds of a conditional's branch (cppReader.conds).
const (
	other int8 = iota
	cxxOnly
	cOnly
)

// cpp reads the next line and reports whether it is C++'s alone.
func (r *cppReader) cpp(l string) bool {
	l = strings.TrimPrefix(l, "\ufeff") // a byte-order mark
	directive := r.continued
	wasComment := r.inComment
	t := strings.TrimSpace(r.code(l))
	r.continued = (directive || strings.HasPrefix(t, "#")) && strings.HasSuffix(strings.TrimRight(l, " \t\r"), "\\")
	if t == "" || directive {
		return false
	}
	if t[0] == '#' {
		word, rest := leadingWord(strings.TrimSpace(t[1:]))
		switch word {
		case "if", "ifdef", "ifndef":
			kind := other
			if strings.Contains(rest, "__cplusplus") {
				kind = cxxOnly
				if word == "ifndef" || strings.Contains(strings.ReplaceAll(rest, " ", ""), "!defined(__cplusplus)") || strings.Contains(rest, "!defined __cplusplus") || strings.Contains(rest, "!__cplusplus") {
					kind = cOnly
				}
			}
			r.conds = append(r.conds, kind)
		case "else", "elif", "elifdef", "elifndef":
			if n := len(r.conds); n > 0 && r.conds[n-1] != other {
				r.conds[n-1] = cxxOnly + cOnly - r.conds[n-1] // the other compiler's branch
			}
		case "endif":
			if n := len(r.conds); n > 0 {
				r.conds = r.conds[:n-1]
			}
		case "include":
			// The header's name as written, which the code's strings
			// left empty: <string>, "detail/impl.hpp".
			if wasComment || r.forCxx() {
				return false
			}
			_, name, _ := strings.Cut(strings.TrimSpace(l), "include")
			name = strings.TrimSpace(name)
			var closed bool
			switch {
			case strings.HasPrefix(name, "<"):
				name, _, closed = strings.Cut(name[1:], ">")
				if closed && name != "" && !strings.Contains(name, ".") {
					return true // a standard header of C++'s: <string>
				}
			case strings.HasPrefix(name, `"`):
				name, _, closed = strings.Cut(name[1:], `"`)
			}
			switch strings.ToLower(path.Ext(name)) {
			case ".hpp", ".hh", ".hxx":
				return closed
			}
		}
		return false
	}
	if r.forCxx() {
		return false
	}
	if !wasComment && strings.HasPrefix(strings.TrimSpace(l), `extern "C++"`) {
		return true
	}
	if strings.Contains(t, "::") && !strings.Contains(t, "[[") {
		return true
	}
	for _, cast := range [...]string{"static_cast<", "dynamic_cast<", "reinterpret_cast<", "const_cast<"} {
		if strings.Contains(t, cast) {
			return true
		}
	}
	if hasCxxWord(t) {
		return true
	}
	if defaultedOrDeleted(t) {
		return true
	}
	word, rest := leadingWord(t)
	if word == "inline" || word == "export" {
		word, rest = leadingWord(rest)
	}
	switch word {
	case "virtual":
		// virtual ~Env();, virtual Status Get(...) = 0; not C's
		// void *virtual; (a page's address in a kernel's header).
		return rest != "" && (isWordByte(rest[0]) || rest[0] == '~')
	case "public", "private", "protected":
		return strings.HasPrefix(rest, ":")
	case "namespace":
		// namespace txt {, namespace detail, namespace {, namespace a::b {
		return rest == "" || rest[0] == '{' || isWordByte(rest[0])
	case "template":
		return rest == "" || strings.HasPrefix(rest, "<")
	case "class":
		// class name, class TXT_API name : base {, class name;
		return rest != "" && (isWordByte(rest[0]) && !strings.ContainsAny(rest, "=(") || rest[0] == '{')
	case "using":
		// using namespace std; using value_type = T; using base::f;
		return rest != "" && isWordByte(rest[0])
	}
	return false
}

// cxxWords are words that only C++ keeps, and no C program names a
// field or a variable by (C names them class, new, virtual, typename):
// C23 took nullptr and constexpr too, but a header that writes them is
// C++'s far more often than C23's, and the C++ grammar reads such C as
// well as the C grammar does (the other way, it reads no class).
var cxxWords = map[string]bool{
	"nullptr": true, "constexpr": true, "consteval": true, "constinit": true,
	"noexcept": true, "decltype": true,
	"co_await": true, "co_return": true, "co_yield": true,
}

// defaultedOrDeleted reports whether a line's code ends a special member
// defaulted or deleted: A() = default;, A(const A&) = delete;.
func defaultedOrDeleted(t string) bool {
	s, ok := strings.CutSuffix(strings.TrimRight(t, " \t"), ";")
	if !ok {
		return false
	}
	s = strings.TrimRight(s, " \t")
	if s, ok = cutWord(s, "default"); !ok {
		if s, ok = cutWord(s, "delete"); !ok {
			return false
		}
	}
	s = strings.TrimRight(s, " \t")
	return strings.HasSuffix(s, "=") && !strings.HasSuffix(s, "==") && len(s) > 1
}

// cutWord cuts a word off the end of s, where it is a word of its own.
func cutWord(s, w string) (string, bool) {
	rest, ok := strings.CutSuffix(s, w)
	if !ok || rest != "" && isWordByte(rest[len(rest)-1]) {
		return s, false
	}
	return rest, true
}

// hasCxxWord reports whether a line's code holds a word of cxxWords.
func hasCxxWord(t string) bool {
	for i := 0; i < len(t); {
		if !isWordByte(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isWordByte(t[j]) {
			j++
		}
		if j-i >= 7 && cxxWords[t[i:j]] {
			return true
		}
		i = j
	}
	return false
}

// forCxx reports whether the line read lies in code that only a C++
// compiler reads, inside #ifdef __cplusplus.
func (r *cppReader) forCxx() bool {
	return slices.Contains(r.conds, cxxOnly)
}

// code is a line's code: its comments left out (a /* */ comment may go on
// over lines), its strings' and characters' contents too. It lies in r's
// buffer, until the next line, unless the line has none of them.
func (r *cppReader) code(l string) string {
	if !r.inComment && strings.IndexAny(l, "/\"'") < 0 {
		return l
	}
	r.buf = r.buf[:0]
	for i := 0; i < len(l); {
		if r.inComment {
			end := strings.Index(l[i:], "*/")
			if end < 0 {
				break
			}
			i += end + 2
			r.inComment = false
			r.buf = append(r.buf, ' ')
			continue
		}
		switch c := l[i]; {
		case c == '/' && i+1 < len(l) && l[i+1] == '/':
			i = len(l)
		case c == '/' && i+1 < len(l) && l[i+1] == '*':
			r.inComment = true
			i += 2
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(l) && l[j] != c {
				if l[j] == '\\' {
					j++
				}
				j++
			}
			r.buf = append(r.buf, c, c)
			i = j + 1
		default:
			r.buf = append(r.buf, c)
			i++
		}
	}
	return unsafe.String(unsafe.SliceData(r.buf), len(r.buf))
}

// leadingWord splits a line after its first word (letters, digits,
// underscores), the spaces after it left out; word is "" when the line
// starts with none.
func leadingWord(t string) (word, rest string) {
	i := 0
	for i < len(t) && isWordByte(t[i]) {
		i++
	}
	return t[:i], strings.TrimLeft(t[i:], " \t")
}
