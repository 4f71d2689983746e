package structure

import "strings"

// A declaration may follow its annotations on their line: Java's and
// Dart's @GetMapping("/x") public String list() {, a TypeScript
// decorator's @HostListener("click") onClick(e) {, C#'s [HttpGet("x")]
// public IActionResult Get() {. The line patterns read what follows them
// (annotationsEnd), as they read a declaration whose annotations stand on
// lines of their own.

// annotationsEnd is where the annotations or attributes that open trim,
// a line trimmed of its spaces, end, with the spaces after them: 0 when
// it opens with none, or when one of them goes on to the next line (its
// arguments over lines), whose declaration the patterns cannot see.
func annotationsEnd(lang, trim string) int {
	at := false // @Name(arguments)
	switch lang {
	case "java", "dart", "javascript", "typescript":
		at = true
	case "csharp": // [Name(arguments)], [A, B]
	default:
		return 0
	}
	i := 0
	for i < len(trim) {
		j := i
		switch {
		case at && trim[i] == '@':
			j++
			for j < len(trim) && (isWordByte(trim[j]) || trim[j] == '.' || trim[j] == '$') {
				j++
			}
			if j == i+1 {
				return 0
			}
			if trim[i+1:j] == "interface" {
				return i // Java's annotation type (@interface Captor), after its own annotations
			}
			if j < len(trim) && trim[j] == '(' {
				if j = closing(trim, j); j < 0 {
					return 0
				}
			}
		case !at && trim[i] == '[':
			if j = closing(trim, i); j < 0 {
				return 0
			}
		default:
			return i
		}
		if j < len(trim) && trim[j] != ' ' && trim[j] != '\t' && !(!at && trim[j] == '[') {
			return 0 // no annotation: @Name.member, a[0] = x
		}
		for j < len(trim) && (trim[j] == ' ' || trim[j] == '\t') {
			j++
		}
		i = j
	}
	return i
}

// closing is the index just after the bracket that closes the one at
// s[open], ( or [, strings and character literals skipped, or -1 when the
// line does not close it.
func closing(s string, open int) int {
	depth := 0
	for k := open; k < len(s); k++ {
		switch c := s[k]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				return k + 1
			}
		case '"', '\'', '`':
			k = skipQuoted(s, k) // at its closing quote, or the line's end
		}
	}
	return -1
}

// csharpTuple is a C# line, trimmed, with a tuple return type after its
// modifiers ((int, string) Pair() {, public (bool ok, T value) TryGet<T>()
// {, (int, int)[] Pairs()) written as one word, ValueTuple, so that the patterns read the
// method's name after it; any other line as it is. A tuple is two types
// or more; a cast of one ((int) Count()) is a statement.
func csharpTuple(trim string) string {
	open := strings.IndexByte(trim, '(')
	if open < 0 {
		return trim
	}
	for w := range strings.FieldsSeq(trim[:open]) {
		if !csharpModifiers[w] {
			return trim
		}
	}
	end := closing(trim, open)
	if end < 0 || !strings.Contains(trim[open:end], ",") || strings.ContainsAny(trim[open:end], "=\"'") {
		return trim
	}
	for end < len(trim) && (trim[end] == '?' || strings.HasPrefix(trim[end:], "[]")) {
		end++ // (int, string)? F(), (int, int)[] F()
		if trim[end-1] == '[' {
			end++
		}
	}
	rest := strings.TrimLeft(trim[end:], " \t")
	if rest == trim[end:] {
		return trim // (a, b)(x): no name after the type
	}
	n := 0
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	if n == 0 || n == len(rest) || rest[n] != '(' && rest[n] != '<' {
		return trim
	}
	return trim[:open] + "ValueTuple " + rest
}

// csharpModifiers are the words that may precede a C# method's type.
var csharpModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "internal": true, "static": true, "virtual": true,
	"override": true, "abstract": true, "sealed": true, "async": true, "extern": true, "unsafe": true,
	"new": true, "partial": true, "readonly": true,
}

// cNamespace reports whether a C++ line, trimmed, opens a namespace
// (namespace a {, inline namespace v1 {).
func cNamespace(trim string) bool {
	rest, ok := strings.CutPrefix(trim, "inline")
	if ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		trim = strings.TrimLeft(rest, " \t")
	}
	rest, ok = strings.CutPrefix(trim, "namespace")
	return ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t')
}
