package structure

import (
	"strings"

	"github.com/hone-tools/hone/internal/lazyre"
)

// The line patterns of C and C++ (cRules) see a function whose return
// type and name share a line at the margin. These escape them:
//   - the return type on a line of its own, the name at the margin (BSD
//     and GNU style: nginx, PostgreSQL, much of OpenBSD and GNU):
//
//     static int
//     server_client_check_nested(struct client *c)
//     {
//
//   - C++ definitions indented in a namespace or a class;
//   - a return type that a macro wraps (LIB_PUBLIC(char *) name);
//   - a constructor or destructor defined outside its class
//     (Pool::Pool(int size)), which has none.
//
// cFunctionAt finds them. Each must open a body: its brace comes before
// any semicolon (a prototype, "= default;" or a variable built by a
// constructor call is not a definition).

var (
	// cBareName is a name at the margin, its parameters opening.
	cBareName = lazyre.New(`^((?:\w+::)*~?\w+)\s*\(`)
	// cMacroType is a definition at the margin whose return type a macro
	// wraps: "LIB_PUBLIC(char *) lib_set_string(".
	cMacroType = lazyre.New(`^(?:[\w*&]+\s+)*\w+\([^()]*\)[\s*&]*((?:\w+::)*~?\w+)\s*\(`)
	// cQualified is a constructor or destructor at the margin, with no
	// return type: "Pool::Pool(int size) : size_(size) {".
	cQualified = lazyre.New(`^((?:\w+::)+~?\w+)\s*\(`)
	// cOperator is an operator's definition: its return type, if any (1),
	// and its name (2), "Approx::operator-", "operator \"\"_a", "operator
	// bool" (a conversion).
	cOperator = lazyre.New(`^((?:[\w:<>,]+[\s*&]+)*?)((?:[\w<>,]+::)*operator\s*(?:\(\)|\[\]|""\s*\w+|[^\s\w(]+|\s+[\w:<>]+[\s*&]*))\s*\(`)
	// cReturnType is a line of type words alone: "static const char *".
	cReturnType = lazyre.New(`^[\w:<>,]+(?:[\s*&]+[\w:<>,]+)*[\s*&]*$`)
)

// cNotTypes are words that start a line of type words but are not types.
var cNotTypes = map[string]bool{
	"return": true, "else": true, "case": true, "goto": true, "typedef": true, "do": true, "break": true,
	"continue": true, "using": true, "namespace": true, "public": true, "private": true, "protected": true,
	"throw": true, "delete": true, "new": true, "co_return": true, "co_yield": true, "co_await": true, "default": true,
	"operator": true, "sizeof": true,
}

// cFunctionAt reports the function that line i (0-based) of lines, C or
// C++ source, defines in one of the styles the patterns miss, the line
// it starts on (its return type's, above the name, in the BSD style), and
// whether it is one.
func cFunctionAt(lines []string, i int) (name string, from int, ok bool) {
	line := lines[i]
	trim := strings.TrimSpace(line)
	if strings.HasSuffix(trim, ";") || !strings.Contains(trim, "(") {
		return "", 0, false
	}
	from = i
	if strings.Contains(trim, "operator") {
		m := cOperator().FindStringSubmatch(trim)
		if m == nil || !bodyFollows(lines, i) {
			return "", 0, false
		}
		return strings.Join(strings.Fields(m[2]), " "), from, true
	}
	if line[0] == ' ' || line[0] == '\t' {
		if c := trim[0]; !(c == '_' || c == '~' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return "", 0, false // an initializer list's ": m(x)", an expression's line
		}
		first := trim
		if k := strings.IndexAny(trim, " \t(*&"); k >= 0 {
			first = trim[:k]
		}
		open := strings.IndexByte(trim, '(')
		if cNotTypes[first] || notNames[first] || strings.ContainsAny(trim[:open], "=\"'") {
			return "", 0, false
		}
		var ok bool
		if name, ok = typedName(trim[:open]); !ok {
			// A constructor or destructor defined outside its class, in a
			// namespace: "Approx::Approx ( double value )".
			m := cQualified().FindStringSubmatch(trim)
			if m == nil || !isStructor(m[1]) {
				return "", 0, false
			}
			name = m[1]
		}
	} else if m := cMacroType().FindStringSubmatch(line); m != nil {
		name = m[1]
	} else if m := cQualified().FindStringSubmatch(line); m != nil {
		name = m[1]
	} else {
		m := cBareName().FindStringSubmatch(line)
		if m == nil || !returnTypeAbove(lines, i) {
			return "", 0, false
		}
		name, from = m[1], i-1
	}
	if short := name[strings.LastIndex(name, ":")+1:]; notNames[short] || cNotTypes[short] {
		return "", 0, false
	}
	if !bodyFollows(lines, i) {
		return "", 0, false
	}
	return name, from, true
}

// isStructor reports whether a qualified name is its class's constructor
// or destructor: "Pool::Pool", "Pool::~Pool".
func isStructor(name string) bool {
	parts := strings.Split(name, "::")
	if len(parts) < 2 {
		return false
	}
	return strings.TrimPrefix(parts[len(parts)-1], "~") == parts[len(parts)-2]
}

// cConstructorAt reports the constructor or destructor of the class
// named class that line i defines ("explicit Pool(int n) : n_(n) {",
// "~Pool() {"), which have no return type for the patterns to see.
func cConstructorAt(lines []string, i int, class string) (string, bool) {
	trim := strings.TrimSpace(lines[i])
	for _, w := range []string{"explicit ", "constexpr ", "inline ", "virtual "} {
		trim = strings.TrimSpace(strings.TrimPrefix(trim, w))
	}
	name := class
	if strings.HasPrefix(trim, "~") {
		name, trim = "~"+class, trim[1:]
	}
	rest, ok := strings.CutPrefix(trim, class)
	if !ok || class == "" || !strings.HasPrefix(strings.TrimLeft(rest, " \t"), "(") || !bodyFollows(lines, i) {
		return "", false
	}
	return name, true
}

// typedName reads what comes before a definition's parameters: type
// words, then the name ("static const Foo& Foo::get", "virtual ~Foo").
// It reports the name, and whether pre is of that shape.
func typedName(pre string) (string, bool) {
	pre = strings.TrimRight(pre, " \t")
	k, depth := -1, 0
	for j := len(pre) - 1; j >= 0 && k < 0; j-- {
		switch c := pre[j]; {
		case c == '>':
			depth++
		case c == '<':
			depth--
		case depth == 0 && (c == ' ' || c == '\t' || c == '*' || c == '&'):
			k = j
		}
	}
	if k <= 0 {
		return "", false // no type word before the name
	}
	name, types := pre[k+1:], strings.TrimRight(pre[:k+1], " \t*&")
	if name == "" || types == "" {
		return "", false
	}
	depth = 0
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '<':
			depth++
		case c == '>':
			depth--
			if depth < 0 || !strings.HasPrefix(name[i+1:], "::") && depth == 0 {
				return "", false // template arguments qualify a name, never end it
			}
		case depth > 0:
			if !(isWordByte(c) || strings.IndexByte(":*&, ", c) >= 0) {
				return "", false
			}
		case !(isWordByte(c) || c == ':' || c == '~' && (i == 0 || name[i-1] == ':')):
			return "", false
		}
	}
	if depth != 0 {
		return "", false
	}
	if name[len(name)-1] == ':' {
		return "", false
	}
	for i := 0; i < len(types); i++ {
		if c := types[i]; !(isWordByte(c) || strings.IndexByte(":*&<>, \t", c) >= 0) {
			return "", false
		}
	}
	return name, true
}

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// returnTypeAbove reports whether the line above line i, at the margin,
// holds type words alone: a return type, for the name on line i.
func returnTypeAbove(lines []string, i int) bool {
	if i == 0 {
		return false
	}
	above := lines[i-1]
	if above == "" || above[0] == ' ' || above[0] == '\t' || above[0] == '#' {
		return false
	}
	above = strings.TrimSpace(above)
	first := above
	if k := strings.IndexAny(above, " \t*&"); k >= 0 {
		first = above[:k]
	}
	if cNotTypes[first] || notNames[first] || strings.HasSuffix(above, ",") {
		return false
	}
	return cReturnType().MatchString(above)
}

// bodyFollows reports whether the parameters opened on line i close, and
// a body's brace opens, before a semicolon does: within bodyLookahead
// lines. Strings, characters and comments are skipped.
func bodyFollows(lines []string, i int) bool {
	closed := false
	return scanCode(lines, i, func(l string, k, depth int) (bool, bool) {
		switch l[k] {
		case ')':
			closed = closed || depth == 0
		case '{':
			return depth == 0, closed
		case ';':
			return depth == 0, false
		}
		return false, false
	})
}

// declaredOnly reports whether the parameters opened on line i close with
// a semicolon after them, within bodyLookahead lines: a declaration over
// lines (int foo(int a,\n        int b);), not a definition. Strings,
// characters and comments are skipped.
func declaredOnly(lines []string, i int) bool {
	opened := false
	return scanCode(lines, i, func(l string, k, depth int) (bool, bool) {
		switch l[k] {
		case '(':
			opened = true
		case ')':
			if opened && depth == 0 {
				// A ; after it, or ending its line after an
				// attribute (int f(int a,\n int b) __THROW;).
				rest := strings.TrimSpace(l[k+1:])
				return true, strings.HasPrefix(rest, ";") || strings.HasSuffix(rest, ";") && !strings.Contains(rest, "{")
			}
		}
		return false, false
	})
}

// scanCode reads C code from line i on, bodyLookahead lines at most, and
// calls fn on each bracket and semicolon outside strings, characters and
// comments, with the depth of parentheses after it, until fn says to stop;
// it returns what fn said then, or false.
func scanCode(lines []string, i int, fn func(l string, k, depth int) (stop, result bool)) bool {
	depth, inBlock := 0, false
	for j := i; j < len(lines) && j < i+bodyLookahead; j++ {
		l := lines[j]
		for k := 0; k < len(l); k++ {
			c := l[k]
			if inBlock {
				if c == '*' && k+1 < len(l) && l[k+1] == '/' {
					inBlock = false
					k++
				}
				continue
			}
			switch c {
			case '/':
				k, inBlock = commentAt(l, k)
				continue
			case '"', '\'':
				k = skipQuoted(l, k)
				continue
			case '(':
				depth++
			case ')':
				depth--
			case '{', ';':
			default:
				continue
			}
			if stop, result := fn(l, k, depth); stop {
				return result
			}
		}
	}
	return false
}

// bodyLookahead: a definition's brace opens within this many lines of its
// name: a long parameter list, an initializer list.
const bodyLookahead = 20

// commentAt reads the '/' at l[k]: a line comment skips the rest of the
// line, a block comment opens (block) after its '*'; else a division.
func commentAt(l string, k int) (next int, block bool) {
	if k+1 < len(l) {
		switch l[k+1] {
		case '/':
			return len(l), false
		case '*':
			return k + 1, true
		}
	}
	return k, false
}

// skipQuoted returns the index of the quote that closes the string or
// character opened at l[k], or the line's last index.
func skipQuoted(l string, k int) int {
	q := l[k]
	for k++; k < len(l); k++ {
		switch l[k] {
		case '\\':
			k++
		case q:
			return k
		}
	}
	return len(l) - 1
}

// braceEnd returns the line, 1-based, of the brace that closes the body
// that opens on or after line from (1-based), or 0 when none does before
// line limit. Strings, characters and comments are skipped; a
// preprocessor's branches may unbalance the braces, which the caller's
// limit bounds.
func braceEnd(lines []string, from, limit int) int {
	depth, opened := 0, false
	inBlock := false
	for j := from - 1; j < len(lines) && j < limit; j++ {
		l := lines[j]
		if !inBlock && strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		for k := 0; k < len(l); k++ {
			if inBlock {
				n := strings.Index(l[k:], "*/")
				if n < 0 {
					break
				}
				inBlock = false
				k += n + 1
				continue
			}
			n := strings.IndexAny(l[k:], "{}\"'/;")
			if n < 0 {
				break
			}
			k += n
			switch l[k] {
			case '/':
				k, inBlock = commentAt(l, k)
			case '"', '\'':
				k = skipQuoted(l, k)
			case '{':
				depth++
				opened = true
			case '}':
				depth--
				if opened && depth == 0 {
					return j + 1
				}
			case ';':
				if !opened && depth == 0 {
					return 0 // a declaration: no body
				}
			}
		}
	}
	return 0
}

var (
	// cTypedefOpen is a typedef of a struct, union or enum whose body
	// opens on its line or below it: "typedef struct queue_s {",
	// "typedef enum {", "typedef struct" with its brace below, "typedef
	// union { U32 u; } unalign;" (its comments and attributes taken out
	// first). Its tag (3) may follow an export macro (2); a word in
	// capitals with no tag after it is the tag (typedef struct RGB {).
	cTypedefOpen = lazyre.New(`^typedef\s+(?:const\s+)?(struct|union|enum)\b((?:\s+[A-Z][A-Z0-9_]*[A-Z0-9])*)(?:\s+(\w+))?\s*(?::\s*[\w\s]+)?(\{.*)?$`)
	// cTypedefClose is what follows the brace that closes it, its
	// attributes and comments taken out: the names it gives, "queue_t;",
	// "hash64_t, *hash64_p;", "PACKED word_t;".
	cTypedefClose = lazyre.New(`^\s*([^;{}()]*);`)
	// cCapsWord is a word in capitals, most often a macro.
	cCapsWord = lazyre.New(`^[A-Z][A-Z0-9_]*[A-Z0-9]$`)
)

// cTypedefAt reports the definitions that a typedef of a struct, union or
// enum with a body gives, starting at line i (0-based) of lines, C or C++
// source at the margin: its tag, if named, and the names that follow its
// closing brace, or on the line below it, that are not pointers
// (*hash64_p is none, as in tree-sitter's tags); each ends where the
// typedef does. Its body may run over lines, and a field's semicolon on
// its line is not the typedef's (typedef union { U32 u; } unalign;). ok
// is false where line i opens none of these (a macro's continued line is
// the macro's), or no brace closes it before limit lines.
func cTypedefAt(lines []string, i, limit int) (defs []Def, ok bool) {
	continued := func(k int) bool { return k >= 0 && strings.HasSuffix(strings.TrimRight(lines[k], " \t"), "\\") }
	if continued(i) || continued(i-1) {
		return nil, false
	}
	m := cTypedefOpen().FindStringSubmatch(cNoAttributes(cNoComments(lines[i])))
	if m == nil {
		return nil, false
	}
	tag := m[3]
	if tag == "" {
		if f := strings.Fields(m[2]); len(f) > 0 && cCapsWord().MatchString(f[len(f)-1]) {
			tag = f[len(f)-1]
		}
	}
	body := strings.HasPrefix(m[4], "{")
	for j := i + 1; !body && j < len(lines) && j < i+4; j++ {
		// The brace on a line of its own below: "typedef struct", then
		// perhaps a comment, then "{".
		t := strings.TrimSpace(cNoComments(lines[j]))
		if t == "" {
			continue
		}
		body = strings.HasPrefix(t, "{")
		break
	}
	if !body {
		return nil, false // typedef struct foo foo; reads on its line
	}
	end := braceEnd(lines, i+1, limit)
	if end == 0 {
		return nil, false
	}
	last := cNoComments(lines[end-1])
	names := cTypedefNames(last[strings.LastIndexByte(last, '}')+1:])
	if len(names) == 0 && end < len(lines) {
		// The names on the line below the brace.
		if names = cTypedefNames(cNoComments(lines[end])); len(names) > 0 {
			end++
		}
	}
	if tag != "" && !notNames[tag] {
		kind := "type"
		if m[1] == "enum" {
			kind = "enum"
		}
		defs = append(defs, Def{Name: tag, Kind: kind, Line: i + 1, EndLine: end})
	}
	for _, name := range names {
		defs = append(defs, Def{Name: name, Kind: "type", Line: i + 1, EndLine: end})
	}
	return defs, true
}

// cTypedefNames are the names a typedef's declarators give, from what
// follows its closing brace: each that is not a pointer, an array or a
// function's, its attributes left out, and a word in capitals beside it
// taken for a macro (PACKED U16_S, name MEM_ALIGN).
func cTypedefNames(closing string) []string {
	c := cTypedefClose().FindStringSubmatch(cNoAttributes(closing))
	if c == nil {
		return nil
	}
	var names []string
	for _, part := range strings.Split(c[1], ",") {
		if strings.ContainsAny(part, "*[&") {
			continue
		}
		f := strings.Fields(part)
		words := f[:0]
		for _, w := range f {
			if isIdent(w) && !cNotTypes[w] {
				words = append(words, w)
			}
		}
		if len(words) > 1 {
			named := words[:0]
			for _, w := range words {
				if !cCapsWord().MatchString(w) {
					named = append(named, w)
				}
			}
			if len(named) > 0 {
				words = named
			}
		}
		if len(words) > 0 {
			names = append(names, words[len(words)-1])
		}
	}
	return names
}

// cNoComments is a line of C with its comments taken out: a block
// comment whole on it, or what a comment opened on it leaves.
func cNoComments(l string) string {
	for {
		k := strings.Index(l, "/*")
		d := strings.Index(l, "//")
		switch {
		case d >= 0 && (k < 0 || d < k):
			return l[:d]
		case k < 0:
			return l
		}
		e := strings.Index(l[k+2:], "*/")
		if e < 0 {
			return l[:k]
		}
		l = l[:k] + " " + l[k+2+e+2:]
	}
}

// cNoAttributes is s with its attributes taken out, however their
// parentheses nest: __attribute__((aligned(16))), __declspec(align(8)),
// alignas(16).
func cNoAttributes(s string) string {
	for _, kw := range []string{"__attribute__", "__declspec", "alignas"} {
		for {
			k := strings.Index(s, kw)
			if k < 0 {
				break
			}
			j := k + len(kw)
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			if j < len(s) && s[j] == '(' {
				if j = closing(s, j); j < 0 {
					j = len(s) // not closed on the line: the rest is its
				}
			}
			s = s[:k] + " " + s[j:]
		}
	}
	return s
}

// cAfterTemplate is what follows a template's parameters on a line that
// starts with them: "struct remove_ref { using type = T; };" after
// "template <typename T>", however its angle brackets nest; "" where they
// do not close on the line.
func cAfterTemplate(trim string) string {
	k := strings.IndexByte(trim, '<')
	if k < 0 {
		return ""
	}
	depth := 0
	for j := k; j < len(trim); j++ {
		switch trim[j] {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				return trim[j+1:]
			}
		}
	}
	return ""
}

// cIndentedType reports whether line i (0-based) of lines, an indented
// line the type pattern matched, opens a type's body: its brace on the
// line, or a base list or a brace starting the next line that is not
// blank ("class Session", then ": public Base {"). An indented keyword
// and name alone (enum color, then c = RED;) are a statement's.
func cIndentedType(lines []string, i int) bool {
	if code := strings.TrimSpace(cNoComments(lines[i])); strings.Contains(code, "{") || strings.HasSuffix(code, ":") {
		return true
	}
	for j := i + 1; j < len(lines) && j < i+3; j++ {
		t := strings.TrimSpace(cNoComments(lines[j]))
		if t == "" {
			continue
		}
		return strings.HasPrefix(t, "{") || strings.HasPrefix(t, ":") && !strings.HasPrefix(t, "::")
	}
	return false
}
