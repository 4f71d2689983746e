package index

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hone-tools/hone/structure"
)

// TestEdges checks the file graph per language: imports resolved to the
// repository's files, and calls to the files defining them.
func TestEdges(t *testing.T) {
	ix := build(t, map[string]string{
		// Python: an absolute and a relative import, calls into both.
		"app/models/__init__.py": "from .fields import CharField\n",
		"app/models/fields.py":   "class CharField:\n    def clean(self, value):\n        return value\n",
		"app/utils.py":           "def slugify_text(s):\n    return s\n",
		"app/views.py":           "from app.models import fields\nfrom .utils import slugify_text\n\ndef show(request):\n    return slugify_text(fields.CharField().clean(request))\n",
		// Go: a package directory import and a call into it.
		"go.mod":          "module example.com/m\n",
		"store/store.go":  "package store\n\nfunc OpenStore() error { return nil }\n",
		"cmd/app/main.go": "package main\n\nimport \"example.com/m/store\"\n\nfunc main() { store.OpenStore() }\n",
		// TypeScript: a relative import and an index file.
		"web/session/index.ts": "export function refreshSession() {}\n",
		"web/auth.ts":          "import { refreshSession } from './session';\n\nexport function login() { refreshSession(); }\n",
		// Java: a package import.
		"src/main/java/com/acme/Token.java":   "package com.acme;\n\npublic class Token {\n  public static Token issueToken() { return new Token(); }\n}\n",
		"src/main/java/com/acme/web/Api.java": "package com.acme.web;\n\nimport com.acme.Token;\n\npublic class Api {\n  void handle() { Token.issueToken(); }\n}\n",
		// Rust: a mod declaration.
		"src/lib.rs":    "mod parser;\n\npub fn run() { parser::parse_input(); }\n",
		"src/parser.rs": "pub fn parse_input() {}\n",
		// C: a quoted include.
		"csrc/buf.h":  "int buf_grow(int n);\n",
		"csrc/buf.c":  "#include \"buf.h\"\n\nint buf_grow(int n)\n{\n\treturn n * 2;\n}\n",
		"csrc/main.c": "#include \"buf.h\"\n\nint main(void)\n{\n\treturn buf_grow(1);\n}\n",
		// Ruby: require_relative.
		"lib/greeter.rb": "class Greeter\n  def greet_person\n  end\nend\n",
		"lib/app.rb":     "require_relative 'greeter'\n\nGreeter.new.greet_person\n",
	})
	tests := []struct {
		file string
		want []string // kind:to(:name)
	}{
		{"app/views.py", []string{"import:app/models/__init__.py", "import:app/models/fields.py", "import:app/utils.py", "call:app/utils.py:slugify_text", "call:app/models/fields.py:CharField"}},
		{"app/models/__init__.py", []string{"import:app/models/fields.py"}},
		{"cmd/app/main.go", []string{"import:store/store.go", "call:store/store.go:OpenStore"}},
		{"web/auth.ts", []string{"import:web/session/index.ts", "call:web/session/index.ts:refreshSession"}},
		{"src/main/java/com/acme/web/Api.java", []string{"import:src/main/java/com/acme/Token.java", "call:src/main/java/com/acme/Token.java:issueToken"}},
		{"src/lib.rs", []string{"import:src/parser.rs", "call:src/parser.rs:parse_input"}},
		{"csrc/main.c", []string{"import:csrc/buf.h", "call:csrc/buf.c:buf_grow"}},
		{"lib/app.rb", []string{"import:lib/greeter.rb"}},
	}
	for _, tt := range tests {
		d := ix.Doc(tt.file)
		if d == nil {
			t.Errorf("%s not indexed", tt.file)
			continue
		}
		var got []string
		for _, e := range ix.Edges(d) {
			s := e.Kind + ":" + e.To
			if e.Name != "" {
				s += ":" + e.Name
			}
			got = append(got, s)
		}
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				sort.Strings(got)
				t.Errorf("%s: no edge %s in %s", tt.file, w, fmt.Sprint(got))
			}
		}
		for _, g := range got {
			if strings.Contains(g, "cmd/app/main.go") && tt.file != "cmd/app/main.go" {
				t.Errorf("%s: edge %s crosses languages", tt.file, g)
			}
		}
	}
}

func TestCallsOut(t *testing.T) {
	for _, tt := range []struct {
		name  string
		defs  []string
		calls []string
		want  []string
	}{
		{"nothing defined", nil, []string{"a", "b"}, []string{"a", "b"}},
		{"its own definitions left out", []string{"Draw", "helper"}, []string{"Draw", "paint", "helper"}, []string{"paint"}},
		{"only its own", []string{"Draw"}, []string{"Draw"}, nil},
		{"no calls", []string{"Draw"}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := &Doc{Calls: tt.calls}
			for _, n := range tt.defs {
				d.Defs = append(d.Defs, structure.Def{Name: n})
			}
			if got := d.CallsOut(); !slices.Equal(got, tt.want) {
				t.Errorf("CallsOut() = %q, want %q", got, tt.want)
			}
		})
	}
}
