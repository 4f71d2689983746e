package index

import (
	"testing"

	"github.com/hone-tools/hone/walk"
)

// TestNameWords: import, include and export count in a file's name and its
// definitions' names; stop words of two letters in its name and folders;
// none in its text.
func TestNameWords(t *testing.T) {
	tests := []struct {
		path, body string
		stem       string
		want       [NumFields]uint16
	}{
		// the keyword in the text is not counted; the definition's name is.
		{"pack/lines.go", "package pack\n\nimport \"strings\"\n\nfunc importLines() {}\n", "import",
			[NumFields]uint16{Def: 1}},
		{"routes/conf.py", "from x import y\n\ndef include(arg):\n    pass\n", "includ",
			[NumFields]uint16{Def: 1}},
		{"src/export.ts", "export function toSvg() {}\n", "export",
			[NumFields]uint16{Name: 1}},
		// a file's name and folders keep the stop words of two letters
		// (a language's code), and no longer one.
		{"src/the.go", "package src\n\nfunc TheEnd() {}\n", "the", [NumFields]uint16{}},
		{"web/package.json", "{}\n", "packag", [NumFields]uint16{}},
		{"src/it.js", "export default { name: 'it' }\n", "it", [NumFields]uint16{Name: 1}},
		{"locale/it/formats.py", "DATE_FORMAT = 'd F Y'\n", "it", [NumFields]uint16{Dir: 1}},
		{"locale/no.js", "export default { name: 'no' }\n", "no", [NumFields]uint16{Name: 1}},
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

// TestNameWordsLengthen: a stop word kept lengthens no field, so every
// other word weighs in it as before.
func TestNameWordsLengthen(t *testing.T) {
	for _, tt := range []struct {
		path, body string
		field      Field
		want       int32
	}{
		{"src/it.js", "export default {}\n", Name, 0},
		{"src/isArray.js", "export default {}\n", Name, 2},                   // "array" and the whole "isarray"; "is" kept, not counted
		{"locale/it/formats.py", "X = 1\n", Dir, 1},                          // "locale"
		{"pack/lines.go", "package pack\n\nfunc importLines() {}\n", Def, 2}, // "lines" and "importlines"
	} {
		d := analyze(walk.File{Path: tt.path, Size: int64(len(tt.body))}, []byte(tt.body))
		if got := d.Len[tt.field]; got != tt.want {
			t.Errorf("%s: %s length %d, want %d", tt.path, tt.field, got, tt.want)
		}
	}
}
