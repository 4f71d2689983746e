package structure

import "strings"

// The line patterns of Java (javaRules) see a method only after a
// modifier: "public void close() {". A package-private method has none
// ("void append(char c) {", as many libraries write), nor does a constructor, and an
// annotation may stand between the modifiers and the type ("public
// @Nullable Tag get("). javaMethodAt finds them inside a class: there, a
// type word and a name before parameters, or the class's own name, can
// only declare a method or a constructor.

// javaModifiers are the words that may precede a method's type.
var javaModifiers = map[string]bool{
	"public": true, "private": true, "protected": true, "static": true, "final": true, "abstract": true,
	"synchronized": true, "native": true, "default": true, "strictfp": true,
}

// javaNotTypes are words that start a statement, not a declaration.
var javaNotTypes = map[string]bool{
	"return": true, "new": true, "throw": true, "else": true, "case": true, "yield": true, "assert": true,
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "try": true, "do": true,
	"synchronized": true, "super": true, "this": true,
}

// javaMethodAt reports the method or constructor that line, indented
// inside the class named class, declares where the patterns miss it.
func javaMethodAt(line, class string) (string, bool) {
	trim := strings.TrimSpace(line)
	open := strings.IndexByte(trim, '(')
	if open <= 0 || strings.HasPrefix(trim, "@") && !strings.Contains(trim[:open], " ") {
		return "", false // no parameters, or an annotation's arguments
	}
	words := strings.Fields(trim[:open])
	// Annotations and modifiers first, in any order.
	k := 0
	for k < len(words) && (javaModifiers[words[k]] || strings.HasPrefix(words[k], "@")) {
		if javaNotTypes[words[k]] && k == len(words)-1 {
			return "", false // synchronized (lock) {
		}
		k++
	}
	words = words[k:]
	if len(words) == 0 {
		return "", false
	}
	name := words[len(words)-1]
	if !isIdent(name) || javaNotTypes[name] || notNames[name] {
		return "", false
	}
	types := words[:len(words)-1]
	if len(types) == 0 {
		// A constructor: the class's own name.
		if name != class {
			return "", false
		}
		return name, true
	}
	if c := types[0][0]; javaNotTypes[types[0]] || !(c == '_' || c == '<' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return "", false // a statement, or a ternary's branch continued ("? get(")
	}
	depth := 0
	for _, t := range types {
		for i := 0; i < len(t); i++ {
			switch c := t[i]; {
			case c == '<':
				depth++
			case c == '>':
				depth--
			case c == ',' && depth <= 0:
				return "", false // a call's arguments, continued
			case !(isWordByte(c) || strings.IndexByte("[].?&$", c) >= 0):
				return "", false // "=", a call, a string: a statement
			}
		}
	}
	return name, true
}

// isIdent reports whether s is a name in Java, Dart or JavaScript:
// letters, digits, _ and $, not starting with a digit.
func isIdent(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isWordByte(c) && c != '$' {
			return false
		}
	}
	return true
}

// csharpNotTypes are the words that open a C# statement where
// javaMethodAt would take them for a method's type: await Save(), lock
// (gate), using (var r = ...).
var csharpNotTypes = map[string]bool{
	"await": true, "using": true, "lock": true, "foreach": true, "fixed": true, "checked": true,
	"unchecked": true, "nameof": true, "typeof": true, "default": true, "goto": true, "when": true,
}

// csharpDeclLike reports whether a C# line javaMethodAt took for a method
// or constructor, name, opens with no statement's keyword, and is no line
// of SQL in a string (LEFT JOIN (, SELECT TOP(2): words in capitals).
func csharpDeclLike(line, name string) bool {
	f := strings.Fields(line)
	return len(f) > 0 && !csharpNotTypes[f[0]] && !(allCaps(f[0]) && allCaps(name))
}

// allCaps reports whether s has two letters or more, all capitals.
func allCaps(s string) bool {
	n := 0
	for _, r := range s {
		switch {
		case 'A' <= r && r <= 'Z':
			n++
		case 'a' <= r && r <= 'z':
			return false
		}
	}
	return n >= 2
}
