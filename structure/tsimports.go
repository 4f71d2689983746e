//go:build cgo

package structure

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// The import functions turn a node captured as @import into specifiers as
// Resolve takes them, the same forms as the fallback's patterns give.

func nodeText(n *sitter.Node, src []byte) string {
	s, e := n.StartByte(), n.EndByte()
	if e > uint(len(src)) || s > e {
		return ""
	}
	return string(src[s:e])
}

// importText is the node's text: a Java name, a Ruby string's content.
func importText(n *sitter.Node, src []byte, add func(string)) {
	add(strings.TrimSpace(nodeText(n, src)))
}

// importQuoted is a string literal's content: a Go, JavaScript or C path.
func importQuoted(n *sitter.Node, src []byte, add func(string)) {
	add(unquote(strings.TrimSpace(nodeText(n, src))))
}

func unquote(s string) string {
	if len(s) >= 2 && strings.ContainsRune("\"'`", rune(s[0])) && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// importPython reads an import statement: "import a.b, c as d" gives a.b
// and c; "from .m import x, y" gives .m, .m.x and .m.y, as the fallback
// does (an imported name may be a module).
func importPython(n *sitter.Node, src []byte, add func(string)) {
	var mod string
	var names []string
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c == nil {
			continue
		}
		field := n.FieldNameForChild(uint32(i))
		switch {
		case field == "module_name":
			mod = compact(nodeText(c, src))
		case field == "name":
			if c.Kind() == "aliased_import" {
				if nm := c.ChildByFieldName("name"); nm != nil {
					c = nm
				}
			}
			names = append(names, compact(nodeText(c, src)))
		}
	}
	switch n.Kind() {
	case "import_statement":
		for _, name := range names {
			add(name)
		}
	case "future_import_statement":
		mod = "__future__"
		fallthrough
	default:
		if mod == "" {
			return
		}
		add(mod)
		for _, name := range names {
			if strings.HasSuffix(mod, ".") {
				add(mod + name)
			} else {
				add(mod + "." + name)
			}
		}
	}
}

// compact drops the spaces, newlines and comments a dotted name may hold.
func compact(s string) string {
	if !strings.ContainsAny(s, " \t\r\n\\#") {
		return s
	}
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for _, f := range strings.Fields(line) {
			if f != "\\" {
				b.WriteString(f)
			}
		}
	}
	return b.String()
}

// importRust reads the argument of a use declaration, expanded into the
// paths it imports (RustUsePaths), or the name of a "mod x;". Inside a
// module written in the file (mod tests { use super::*; }), super and
// self are that module's: a path that stays in the file is no import, and
// one that leaves it through more supers is read from the file's module.
func importRust(n *sitter.Node, src []byte, add func(string)) {
	inline := 0
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == "mod_item" && p.ChildByFieldName("body") != nil {
			inline++
		}
	}
	if inline > 0 && n.Kind() == "identifier" {
		return // mod x; inside a module in the file: rare, and placed otherwise
	}
	for _, p := range RustUsePaths(nodeText(n, src)) {
		if p, ok := rustOuterPath(p, inline); ok {
			add(p)
		}
	}
}

// importStatement reads a whole import statement of C#, Scala or Kotlin:
// the keywords, an alias and the selected names are dropped, leaving the
// module or type path.
func importStatement(n *sitter.Node, src []byte, add func(string)) {
	s := strings.Join(strings.Fields(nodeText(n, src)), " ")
	s = strings.TrimSuffix(strings.TrimSpace(s), ";")
	for _, kw := range []string{"global ", "using ", "import ", "static "} {
		s = strings.TrimPrefix(strings.TrimSpace(s), kw)
	}
	if i := strings.IndexByte(s, '='); i >= 0 { // C#: using Alias = A.B;
		s = s[i+1:]
	}
	if i := strings.Index(s, " as "); i >= 0 { // Kotlin, Scala 3
		s = s[:i]
	}
	if i := strings.IndexAny(s, "{,"); i >= 0 { // Scala selectors, Scala 3 lists
		s = s[:i]
	}
	s = strings.ReplaceAll(s, " ", "")
	s = strings.TrimSuffix(s, "_")
	s = strings.TrimSuffix(s, "*")
	s = strings.TrimSuffix(s, ".")
	add(s)
}

// importPHP reads a use clause (A\B\C, with any alias dropped) or an
// include's literal path.
func importPHP(n *sitter.Node, src []byte, add func(string)) {
	if n.Kind() != "namespace_use_clause" {
		importQuoted(n, src, add)
		return
	}
	s := strings.Join(strings.Fields(nodeText(n, src)), " ")
	if i := indexFold(s, " as "); i >= 0 {
		s = s[:i]
	}
	for _, kw := range []string{"function ", "const "} {
		s = strings.TrimPrefix(s, kw)
	}
	add(strings.TrimPrefix(strings.TrimSpace(s), `\`))
}

// indexFold is strings.Index ignoring ASCII case (strings.ToLower may change
// the length of invalid UTF-8, and so the offsets).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}
