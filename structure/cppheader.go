package structure

import (
	"path"
	"strings"
)

// LanguageOf is Language, told by the file's text where the name leaves
// the language open: a .h file is C's by its name, and C++'s when its code
// says so (see cppHeader). The text is read, never kept.
func LanguageOf(p, text string) string {
	lang := Language(p)
	if !openHeader(p, lang) {
		return lang
	}
	var r cppReader
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if r.cpp(line) {
			return "cpp"
		}
	}
	return lang
}

// LanguageOfLines is LanguageOf of a text split into lines.
func LanguageOfLines(p string, lines []string) string {
	lang := Language(p)
	if !openHeader(p, lang) {
		return lang
	}
	var r cppReader
	for _, l := range lines {
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

// cppReader reads a header's lines in turn, comments left out, for what
// only C++ writes: a namespace, a template, a class, an access label, a
// using declaration, std::, extern "C++", or a standard header named
// without .h (<string>, <cstdint>). A C header's guard for C++ readers
// (#ifdef __cplusplus / extern "C" {) is none of these.
type cppReader struct {
	inComment bool // inside a /* */ comment begun on an earlier line
}

// cpp reads the next line and reports whether it is C++'s alone.
func (r *cppReader) cpp(l string) bool {
	t := strings.TrimSpace(l)
	if r.inComment {
		end := strings.Index(t, "*/")
		if end < 0 {
			return false
		}
		r.inComment = false
		t = strings.TrimSpace(t[end+2:])
	}
	for strings.HasPrefix(t, "/*") {
		end := strings.Index(t[2:], "*/")
		if end < 0 {
			r.inComment = true
			return false
		}
		t = strings.TrimSpace(t[2+end+2:])
	}
	if t == "" || strings.HasPrefix(t, "//") {
		return false
	}
	if t[0] == '#' {
		d := strings.TrimSpace(t[1:])
		if rest, ok := strings.CutPrefix(d, "include"); ok {
			rest = strings.TrimSpace(rest)
			if strings.HasPrefix(rest, "<") {
				name, _, closed := strings.Cut(rest[1:], ">")
				return closed && name != "" && !strings.ContainsAny(name, "./")
			}
		}
		return false
	}
	if strings.Contains(t, "std::") || strings.HasPrefix(t, `extern "C++"`) {
		return true
	}
	switch t {
	case "public:", "private:", "protected:":
		return true
	}
	word, rest := leadingWord(t)
	if word == "inline" || word == "export" {
		word, rest = leadingWord(rest)
	}
	switch word {
	case "namespace":
		// namespace fmt {, namespace detail, namespace {, namespace a::b {
		return rest == "" || rest[0] == '{' || isWordByte(rest[0])
	case "template":
		return strings.HasPrefix(rest, "<")
	case "class":
		// class name, class FMT_API name : base {, class name;
		return rest != "" && (isWordByte(rest[0]) && !strings.ContainsAny(rest, "=(") || rest[0] == '{')
	case "using":
		// using namespace std; using value_type = T; using base::f;
		return rest != "" && isWordByte(rest[0])
	}
	return false
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
