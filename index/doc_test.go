package index

import "testing"

// A file's name field is read from its name without its extension, and a
// module's index file from its folder's name too.
func TestNameTexts(t *testing.T) {
	for _, c := range []struct{ path, name, module string }{
		{"engine/container.go", "container", ""},
		{"config/.env", ".env", ""},
		{"Makefile", "Makefile", ""},
		{"src/router/index.ts", "index", "router"},
		{"pkg/auth/__init__.py", "__init__", "auth"},
		{"src/net/mod.rs", "mod", "net"},
	} {
		if name, module := NameTexts(c.path); name != c.name || module != c.module {
			t.Errorf("NameTexts(%q) = %q, %q; want %q, %q", c.path, name, module, c.name, c.module)
		}
	}
}
