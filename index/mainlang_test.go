package index

import "testing"

// A repository's main language is the language of most of its own code:
// tests, vendored and generated code, docs, examples, build and shell
// files do not count.
func TestMainLanguage(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"one language", map[string]string{"a.go": "package a\n", "b.go": "package a\n", "README.md": "# a\n"}, "go"},
		{"the most files", map[string]string{"a.c": "int a;\n", "b.c": "int b;\n", "c.h": "int c;\n", "x.py": "x = 1\n"}, "c"},
		{"tests aside", map[string]string{"lib.rs": "fn a() {}\n", "tests/t1.py": "x = 1\n", "tests/t2.py": "x = 1\n", "test_x.py": "x = 1\n"}, "rust"},
		{"vendored, examples and docs aside", map[string]string{"src/a.ts": "export const a = 1\n", "vendor/v1.js": "var v\n", "vendor/v2.js": "var v\n", "examples/e1.js": "var e\n", "docs/d1.js": "var d\n"}, "typescript"},
		{"build and shell files aside", map[string]string{"Makefile": "all:\n", "build.sh": "echo\n", "ci.sh": "echo\n", "main.java": "class Main {}\n"}, "java"},
		{"headers beside C++ sources are C++'s", map[string]string{"a.cc": "int a;\n", "a.h": "int a;\n", "b.h": "int b;\n", "c.h": "int c;\n", "d.c": "int d;\n", "e.c": "int e;\n"}, "cpp"},
		{"headers alone are C's", map[string]string{"a.h": "int a;\n", "b.h": "int b;\n", "x.py": "x = 1\n"}, "c"},
		{"C++ headers by their text", map[string]string{"a.h": "namespace a {}\n", "b.h": "class B;\n", "c.c": "int c;\n"}, "cpp"},
		{"a tie, the first by name", map[string]string{"a.go": "package a\n", "b.py": "x = 1\n"}, "go"},
		{"no code", map[string]string{"README.md": "# a\n", "data.json": "{}\n"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ix := build(t, tt.files)
			defer ix.Close()
			if got := ix.MainLanguage(); got != tt.want {
				t.Errorf("MainLanguage() = %q, want %q", got, tt.want)
			}
		})
	}
}
