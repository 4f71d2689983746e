package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hone-tools/hone/pack"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// spanResult reads read_span's structured result.
func spanResult(t *testing.T, res *mcp.CallToolResult) SpanResult {
	t.Helper()
	var out SpanResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	lineHead = regexp.MustCompile(`^(\d+)(?: \(from byte (\d+)\))?: `)
	cutNote  = regexp.MustCompile(` …\[cut: line (\d+) goes on for (\d+) more bytes; read them with start_line (\d+), start_column (\d+)\]$`)
)

// TestReadSpanLongLines: a line too long to show is cut by bytes, on a
// character boundary, and the cut says how to read the rest; following
// what it says reads the whole file, always moving on.
func TestReadSpanLongLines(t *testing.T) {
	repo := t.TempDir()
	minified := strings.Repeat("function a(b){return b.map(c=>c*2)};", 938000/37)
	wide := strings.Repeat("日本語のテキスト、", 12000) // 3-byte characters
	mixed := "one\ntwo\n" + strings.Repeat("z", 50000) + "\nfour\nfive\n"
	files := map[string]string{
		"min.js":    minified,
		"wide.txt":  wide + "\n",
		"mixed.txt": mixed,
		"crlf.txt":  "a\r\nb\r\n",
		"long.txt":  strings.Repeat(strings.Repeat("word ", 40)+"\n", 1000),
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644)
	}
	cs := connect(t, repo)

	// Reading on as told, from the cuts and from next_line, next_column,
	// rebuilds each file exactly, and every call moves on.
	for _, name := range []string{"min.js", "wide.txt", "mixed.txt", "long.txt"} {
		type pos struct{ line, col, end int }
		segments := map[int]map[int]string{} // line, offset: text
		todo := []pos{{1, 0, 600}}
		asked := map[pos]bool{}
		calls := 0
		for len(todo) > 0 {
			p := todo[0]
			todo = todo[1:]
			if asked[p] {
				t.Fatalf("%s: told twice to read from %+v", name, p)
			}
			asked[p] = true
			if calls++; calls > 200 {
				t.Fatalf("%s: still reading after %d calls", name, calls)
			}
			args := map[string]any{"path": name, "start_line": p.line, "end_line": p.end}
			if p.col > 0 {
				args["start_column"] = p.col
			}
			res, text := call(t, cs, "read_span", args)
			if res.IsError {
				t.Fatalf("%s %v: %s", name, args, text)
			}
			if n := pack.CountTokens(text); n > maxAnswerTokens {
				t.Errorf("%s: an answer of %d tokens", name, n)
			}
			if !utf8.ValidString(text) {
				t.Errorf("%s: an answer that is not UTF-8", name)
			}
			out := spanResult(t, res)
			// The structured form holds the text, some clients' model
			// reading it alone, and it too stays within the bound.
			if out.Text != text {
				t.Errorf("%s: the structured form's text is not the answer's", name)
			}
			if b, _ := json.Marshal(res.StructuredContent); pack.CountTokens(string(b)) > maxAnswerTokens {
				t.Errorf("%s: a structured form of %d tokens", name, pack.CountTokens(string(b)))
			}
			for _, l := range strings.SplitAfter(text, "\n") {
				if l == "" || strings.HasPrefix(l, "(Cut at line") {
					continue
				}
				m := lineHead.FindStringSubmatch(l)
				if m == nil {
					t.Fatalf("%s: a line without its number: %.100q", name, l)
				}
				no, from := atoi(m[1]), max(atoi(m[2])-1, 0)
				body := strings.TrimSuffix(l[len(m[0]):], "\n")
				if c := cutNote.FindStringSubmatch(body); c != nil {
					body = body[:len(body)-len(c[0])]
					next := pos{atoi(c[3]), atoi(c[4]), atoi(c[3])}
					if atoi(c[1]) != no || next.line != no || next.col != from+len(body)+1 {
						t.Errorf("%s: a cut that does not read on where it stops: %q after %d bytes from %d", name, c[0], len(body), from)
					}
					if next.line != out.NextLine || next.col != out.NextColumn {
						todo = append(todo, next)
					}
				}
				if segments[no] == nil {
					segments[no] = map[int]string{}
				}
				if old, ok := segments[no][from]; ok && old != body {
					t.Errorf("%s: line %d from %d read twice, differently", name, no, from)
				}
				segments[no][from] = body
			}
			if out.NextLine > 0 {
				if out.NextLine < p.line || out.NextLine == p.line && out.NextColumn <= max(p.col, 1) {
					t.Fatalf("%s: told to read on from line %d column %d after line %d column %d", name, out.NextLine, out.NextColumn, p.line, p.col)
				}
				if out.NextColumn > 0 && !strings.Contains(text, fmt.Sprintf("start_line %d, start_column %d]", out.NextLine, out.NextColumn)) ||
					out.NextColumn == 0 && !strings.Contains(text, fmt.Sprintf("read on from start_line %d.", out.NextLine)) {
					t.Errorf("%s: the text does not say to read on from %d:%d", name, out.NextLine, out.NextColumn)
				}
				todo = append(todo, pos{out.NextLine, out.NextColumn, out.NextLine + 599})
			}
		}
		var got strings.Builder
		for no := 1; no <= len(segments); no++ {
			if no > 1 {
				got.WriteByte('\n')
			}
			for from := 0; ; {
				seg, ok := segments[no][from]
				if !ok {
					break
				}
				got.WriteString(seg)
				if seg == "" {
					break
				}
				from += len(seg)
			}
		}
		if want := strings.TrimSuffix(files[name], "\n"); got.String() != want {
			t.Errorf("%s: read %d bytes in %d calls, not the file's %d", name, got.Len(), calls, len(want))
		}
		t.Logf("%s: %d bytes in %d calls", name, len(files[name]), calls)
	}

	for _, tt := range []struct {
		name string
		args map[string]any
		want string
		err  bool
	}{
		{"the first answer names the column", map[string]any{"path": "min.js", "start_line": 1},
			fmt.Sprintf("read them with start_line 1, start_column %d]", maxLineBytes+1), false},
		{"a column past the end", map[string]any{"path": "mixed.txt", "start_line": 1, "start_column": 5}, "start_column 5 is past its end: read on from start_line 2", true},
		{"a column inside a character moves to the next", map[string]any{"path": "wide.txt", "start_line": 1, "start_column": 2}, "1 (from byte 4): 本語", false},
		{"a cut line amid whole ones", map[string]any{"path": "mixed.txt", "start_line": 2, "end_line": 4},
			"2: two\n3: " + strings.Repeat("z", maxLineBytes) + " …[cut: line 3 goes on for 33616 more bytes; read them with start_line 3, start_column 16385]\n4: four\n", false},
		{"carriage returns", map[string]any{"path": "crlf.txt", "start_line": 1}, "1: a\n2: b\n", false},
		{"past the end", map[string]any{"path": "crlf.txt", "start_line": 3}, "has 2 lines; start_line 3 is past its end", true},
	} {
		res, text := call(t, cs, "read_span", tt.args)
		if res.IsError != tt.err || !strings.Contains(text, tt.want) {
			t.Errorf("%s: error %v, %.300q; want %.300q", tt.name, res.IsError, text, tt.want)
		}
	}
}

func atoi(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

// TestReadSpanTruncated: truncated says that lines asked for were left
// out, and only then: a span asked past the 600-line bound of a file that
// ends within it is whole (a review's finding).
func TestReadSpanTruncated(t *testing.T) {
	repo := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 700; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	os.WriteFile(filepath.Join(repo, "short.txt"), []byte("a\nb\nc\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "long.txt"), []byte(b.String()), 0o644)
	cs := connect(t, repo)
	for _, tt := range []struct {
		path              string
		start, end        int
		truncated         bool
		wantEnd, wantNext int
	}{
		{"short.txt", 1, 1000, false, 3, 0},
		{"short.txt", 1, 2, false, 2, 0},
		{"long.txt", 1, 1000, true, 600, 601},
		{"long.txt", 150, 900, false, 700, 0},
		{"long.txt", 1, 600, false, 600, 0},
		{"long.txt", 101, 701, false, 700, 0},
	} {
		res, text := call(t, cs, "read_span", map[string]any{"path": tt.path, "start_line": tt.start, "end_line": tt.end})
		if res.IsError {
			t.Fatalf("%s %d-%d: %s", tt.path, tt.start, tt.end, text)
		}
		out := spanResult(t, res)
		if out.Truncated != tt.truncated || out.EndLine != tt.wantEnd || out.NextLine != tt.wantNext {
			t.Errorf("%s %d-%d: truncated %v, end_line %d, next_line %d; want %v, %d, %d", tt.path, tt.start, tt.end, out.Truncated, out.EndLine, out.NextLine, tt.truncated, tt.wantEnd, tt.wantNext)
		}
	}
}
