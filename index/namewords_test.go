package index

import (
	"testing"

	"github.com/hone-tools/hone/walk"
)

// TestNameWords: import, include and export count in a file's name and its
// definitions' names, and nowhere else; other stop words count nowhere.
func TestNameWords(t *testing.T) {
	tests := []struct {
		path, body string
		stem       string
		want       [NumFields]uint16
	}{
		// the keyword in the text is not counted; the definition's name is.
		{"pack/lines.go", "package pack\n\nimport \"strings\"\n\nfunc importLines() {}\n", "import",
			[NumFields]uint16{Def: 1}},
		{"urls/conf.py", "from x import y\n\ndef include(arg):\n    pass\n", "includ",
			[NumFields]uint16{Def: 1}},
		{"src/export.ts", "export function toSvg() {}\n", "export",
			[NumFields]uint16{Name: 1}},
		// an English stop word stays out of names too.
		{"src/the.go", "package src\n\nfunc TheEnd() {}\n", "the", [NumFields]uint16{}},
		// a folder named include (a C project's headers) is no name word.
		{"include/foo.h", "int foo(void);\n", "includ", [NumFields]uint16{}},
		// the keyword alone, in code with no such name, counts nowhere.
		{"a.py", "import os\n", "import", [NumFields]uint16{}},
	}
	for _, tt := range tests {
		d := analyze(walk.File{Path: tt.path, Size: int64(len(tt.body))}, []byte(tt.body))
		if got := d.TF(tt.stem); got != tt.want {
			t.Errorf("%s: %q counts %v, want %v", tt.path, tt.stem, got, tt.want)
		}
	}
}
