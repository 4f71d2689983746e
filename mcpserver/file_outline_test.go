package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hone-tools/hone/pack"
)

// outlineResult reads file_outline's structured result.
func outlineResult(t *testing.T, structured any) (OutlineResult, string) {
	t.Helper()
	return structuredAs[OutlineResult](t, structured)
}

// structuredAs decodes a tool's structured result as a T, and gives its
// JSON too.
func structuredAs[T any](t *testing.T, structured any) (T, string) {
	t.Helper()
	var out T
	raw, err := json.Marshal(structured)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out, string(raw)
}

// file_outline's answer, its text and its structured form together, stays
// within maxAnswerTokens, whatever the file's definitions and their
// names; the definitions and imports left out are counted, truly, in both.
func TestFileOutlineBounded(t *testing.T) {
	many := func(n int, name func(i int) string) string {
		var b strings.Builder
		b.WriteString("import os\nimport sys\n\n")
		for i := range n {
			fmt.Fprintf(&b, "def %s():\n    return %d\n\n", name(i), i)
		}
		return b.String()
	}
	var imports strings.Builder
	for i := range 8000 {
		fmt.Fprintf(&imports, "import package_number_%d\n", i)
	}
	imports.WriteString("\ndef main():\n    return 0\n")
	files := map[string]string{
		"few.py":     many(3, func(i int) string { return fmt.Sprintf("f%d", i) }),
		"many.py":    many(6000, func(i int) string { return fmt.Sprintf("calc_item_%d", i) }),
		"long.py":    many(3000, func(i int) string { return fmt.Sprintf("calc_item_%d_%s", i, strings.Repeat("with_a_long_name_", 12)) }),
		"imports.py": imports.String(),
	}
	repo := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, repo)
	more := regexp.MustCompile(`… (\d+) more definitions, from line (\d+) on`)
	for _, tt := range []struct {
		path           string
		defs           int
		cut            bool
		imports        int
		importsCut     bool
		firstImportsIn string
	}{
		{"few.py", 3, false, 2, false, "imports: os, sys\n"},
		{"many.py", 6000, true, 2, false, "imports: os, sys\n"},
		{"long.py", 3000, true, 2, false, "imports: os, sys\n"},
		{"imports.py", 1, false, 8000, true, "imports: package_number_0, package_number_1, "},
	} {
		res, text := call(t, cs, "file_outline", map[string]any{"path": tt.path})
		if res.IsError {
			t.Fatalf("%s: %s", tt.path, text)
		}
		out, raw := outlineResult(t, res.StructuredContent)
		t.Logf("%s: text %d tokens, structured %d; %d definitions and %d more, %d imports and %d more", tt.path, pack.CountTokens(text), pack.CountTokens(raw), len(out.Defs), out.DefsMore, len(out.Imports), out.ImportsMore)
		if n := pack.CountTokens(text) + pack.CountTokens(raw); n > maxAnswerTokens {
			t.Errorf("%s: the answer holds %d tokens, over %d", tt.path, n, maxAnswerTokens)
		}
		if !strings.HasPrefix(text, fmt.Sprintf("%s (python): %d definitions\n", tt.path, tt.defs)) || !strings.Contains(text, tt.firstImportsIn) {
			t.Errorf("%s: the text's head: %.300q", tt.path, text)
		}
		if got := len(out.Defs) + out.DefsMore; got != tt.defs {
			t.Errorf("%s: %d definitions and %d more, of %d", tt.path, len(out.Defs), out.DefsMore, tt.defs)
		}
		if got := len(out.Imports) + out.ImportsMore; got != tt.imports {
			t.Errorf("%s: %d imports and %d more, of %d", tt.path, len(out.Imports), out.ImportsMore, tt.imports)
		}
		if (out.ImportsMore > 0) != tt.importsCut || tt.importsCut && !strings.Contains(text, fmt.Sprintf("… %d more (cut", out.ImportsMore)) {
			t.Errorf("%s: %d imports left out; the text: %.300q", tt.path, out.ImportsMore, text)
		}
		// What the text lists is what the structured form holds, and the
		// note of a cut counts the rest and says where it starts.
		if got := strings.Count(text, " function "); got != len(out.Defs) {
			t.Errorf("%s: the text lists %d definitions, the structured form %d", tt.path, got, len(out.Defs))
		}
		m := more.FindStringSubmatch(text)
		if cut := out.DefsMore > 0; cut != tt.cut || cut != (m != nil) {
			t.Errorf("%s: %d definitions left out, the note %q", tt.path, out.DefsMore, m)
			continue
		}
		if m != nil {
			if n, _ := strconv.Atoi(m[1]); n != out.DefsMore {
				t.Errorf("%s: the note says %d more, the structured form %d", tt.path, n, out.DefsMore)
			}
			if line, _ := strconv.Atoi(m[2]); len(out.Defs) > 0 && line <= out.Defs[len(out.Defs)-1].Line {
				t.Errorf("%s: the rest from line %d, though the last listed starts at %d", tt.path, line, out.Defs[len(out.Defs)-1].Line)
			}
		}
	}
}

// file_outline's structured form is cleaned as its text is: a control
// character in an import's name reaches neither.
func TestFileOutlineStructuredClean(t *testing.T) {
	repo := t.TempDir()
	src := "const term = require('./term\x1b]0;pwned\x07')\n\nfunction paint(screen) {\n  return term(screen)\n}\n"
	if err := os.WriteFile(filepath.Join(repo, "paint.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, repo)
	res, text := call(t, cs, "file_outline", map[string]any{"path": "paint.js"})
	if res.IsError {
		t.Fatal(text)
	}
	out, raw := structuredAs[OutlineResult](t, res.StructuredContent)
	if len(out.Imports) == 0 {
		t.Fatalf("no import outlined: %s", raw)
	}
	for _, s := range []string{text, raw} {
		if strings.ContainsAny(s, "\x1b\x07") || strings.Contains(s, `\u001b`) || strings.Contains(s, `\u0007`) {
			t.Errorf("a control character in the answer: %q", s)
		}
	}
}

// An outline cut to stay within the answer's size reads on with from_line,
// where its note says: the pages together list every definition once, in
// order, and only the first lists the imports.
func TestFileOutlinePages(t *testing.T) {
	var src strings.Builder
	src.WriteString("import os\n\n")
	for i := range 6000 {
		fmt.Fprintf(&src, "def calc_item_%d(items):\n    return sum(items) + %d\n\n", i, i)
	}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "many.py"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, repo)
	next := regexp.MustCompile(`ask again with from_line (\d+)\)`)
	var names []string
	from, pages := 0, 0
	for ; pages < 50; pages++ {
		args := map[string]any{"path": "many.py"}
		if from > 0 {
			args["from_line"] = from
		}
		res, text := call(t, cs, "file_outline", args)
		if res.IsError {
			t.Fatal(text)
		}
		out, _ := structuredAs[OutlineResult](t, res.StructuredContent)
		if (pages == 0) != (len(out.Imports) > 0) {
			t.Errorf("page %d: imports %q, want them on the first page alone", pages, out.Imports)
		}
		for _, d := range out.Defs {
			names = append(names, d.Name)
		}
		m := next.FindStringSubmatch(text)
		if out.DefsMore == 0 {
			if m != nil {
				t.Errorf("page %d: nothing more, yet the text says to ask again", pages)
			}
			break
		}
		if m == nil {
			t.Fatalf("page %d: %d more, and no from_line to ask with:\n%s", pages, out.DefsMore, text[max(0, len(text)-300):])
		}
		from, _ = strconv.Atoi(m[1])
	}
	if pages == 0 || len(names) != 6000 {
		t.Fatalf("%d pages listed %d definitions, want 6000 over more than one", pages+1, len(names))
	}
	for i, n := range names {
		if n != fmt.Sprintf("calc_item_%d", i) {
			t.Fatalf("definition %d is %s: the pages skip or repeat", i, n)
		}
	}
	for _, bad := range []int{-1, 1 << 31, 999999} {
		if res, text := call(t, cs, "file_outline", map[string]any{"path": "many.py", "from_line": bad}); !res.IsError || !strings.Contains(text, "from_line") {
			t.Errorf("from_line %d: %v %q, want an error that names from_line", bad, res.IsError, text)
		}
	}
	// Past the file's end, as read_span says it; its last line is a line.
	if res, text := call(t, cs, "file_outline", map[string]any{"path": "many.py", "from_line": 999999}); !strings.Contains(text, "is past its end") {
		t.Errorf("from_line past the end: %v %q", res.IsError, text)
	}
}
