package redact_test

import (
	"strings"
	"testing"

	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/redact/redacttest"
)

// What reaches a terminal holds no control character: C0 but tab and the
// line ends, DEL, C1 (U+009B starts an escape sequence), and bytes that
// are not UTF-8 become U+FFFD, counted.
func TestCleanText(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		n        int
	}{
		{"plain\ttext\r\n", "plain\ttext\r\n", 0},
		{"red \x1b[31mtext", "red \ufffd[31mtext", 1},
		{"csi \u009b2J and \u0085", "csi \ufffd2J and \ufffd", 2},
		{"del \x7f nul \x00", "del \ufffd nul \ufffd", 2},
		{"bad \xff byte", "bad \ufffd byte", 1},
		{"right to left \u202e stays in a file", "right to left \u202e stays in a file", 0},
		{"non-breaking\u00a0space", "non-breaking\u00a0space", 0},
	} {
		got, n := redact.CleanText(tt.in)
		if got != tt.want || n != tt.n {
			t.Errorf("CleanText(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
		}
	}
}

// A line of output cannot forge another, nor reorder its words.
func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"fix parse\nforged: line":       "fix parse forged: line",
		"a\u2028b\u2029c":               "a b c",
		"evil \u202efdp.exe":            "evil \ufffdfdp.exe",
		"isolate \u2066x\u2069":         "isolate \ufffdx\ufffd",
		"escape \u009b31mRED \x1b[0m":   "escape \ufffd31mRED \ufffd[0m",
		"日本語 and café stay as they are": "日本語 and café stay as they are",
	} {
		if got := redact.Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

// Cut cuts between characters, at n bytes at most, and says where; a
// negative n is 0, not a panic.
func TestCut(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"longer text", 6, "longer…"},
		{"café au lait", 4, "caf…"}, // é is two bytes: not cut inside
		{"x", -1, "…"},
		{"", -1, ""},
	} {
		if got := redact.Cut(tt.in, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	if got := redact.Short("a  b\n c", -5); got != "…" {
		t.Errorf("Short with a negative length: %q", got)
	}
}

// Value changes what v points to, and counts what it hid: a struct
// passed by value cannot be changed, and counts nothing it did not hide.
func TestValueCountsWhatItHides(t *testing.T) {
	type R struct {
		A any
		S string
	}
	p := redacttest.Formats(1)[0]
	byValue := R{A: any(p.Text), S: p.Text}
	if n := redact.Value(byValue); n != 0 {
		t.Errorf("a struct by value: %d secrets counted, none hidden", n)
	}
	r := &R{A: any(p.Text), S: p.Text}
	if n := redact.Value(r); n != 2 || strings.Contains(r.A.(string), p.Secret) || strings.Contains(r.S, p.Secret) {
		t.Errorf("a pointer: %d counted, %+v; want 2, both hidden", n, r)
	}
}
