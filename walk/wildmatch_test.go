package walk

import (
	"strings"
	"testing"
	"time"
)

// TestPattern: patterns matched as git matches them (each shape checked
// against git itself in TestWalkAgreesWithGitEdges).
func TestPattern(t *testing.T) {
	for _, tt := range []struct {
		pat, s string
		want   bool
	}{
		{"?.go", "a.go", true},
		{"?.go", "é.go", false}, // "?" is one byte; "é" two
		{"??.go", "é.go", true},
		{"[é].go", "é.go", false}, // a class of two bytes matches one
		{"[é]*", "ü", true},       // "é" and "ü" share their first byte
		{"[!a].go", "é.go", false},
		{"[z-a]*", "z.go", true}, // a range's first byte is a member
		{"[z-a]*", "b.go", false},
		{"[a-c]x", "bx", true},
		{"[]a]*", "]x", true},
		{"[!]]", "]", false},
		{"[!]]", "x", true},
		{"[a-]*", "-", true},
		{`[\]]`, "]", true},
		{"[[:digit:]].go", "2.go", true},
		{"[[:upper:]].go", "a.go", false},
		{"[[:alpha:]", "a", false}, // does not close
		{"[[:foo:]]*", "a", false}, // a class git does not know
		{"[[:x]*", "[", true},      // no ":]": "[" is a member
		{"[[:x]*", "x", true},
		{"a[", "a[", false},
		{`a\`, `a\`, false},
		{`\[a\].go`, "[a].go", true},
		{"a*b", "axxb", true},
		{"a*b", "a/b", false},
		{"***", "a/b", true},
		{"**b", "a/b", false}, // "**" not between slashes is "*"
		{"**/b", "b", true},
		{"**/b", "a/x/b", true},
		{"a/**/b", "a/b", true},
		{"a/**", "a/x/y", true},
		{"a/**", "a", false},
		{"a[/]b", "a/b", false}, // a class never matches a slash
		{`a\/b`, "a/b", true},
		{"*" + strings.Repeat("a*", 30) + "c", strings.Repeat("a", 100) + "b", false},
	} {
		g := compilePattern(tt.pat)
		if got := g.match(tt.s); got != tt.want {
			t.Errorf("%q against %q: %v, want %v", tt.pat, tt.s, got, tt.want)
		}
	}
}

// TestPathPattern: a "**" glued to the literal part before a pattern's
// first wildcard is "**", as git reads it, and an escaped slash a slash.
func TestPathPattern(t *testing.T) {
	for _, tt := range []struct {
		pat   string
		glued bool
		paths map[string]bool
	}{
		{"a**/b", true, map[string]bool{"ab": true, "a/b": true, "axx/b": true, "a/x/y/b": true, "ab/c/b": true, "ax/yb": false}},
		{"x**/é", true, map[string]bool{"xé": true, "x/y/é": true, "y/é": false}},
		{`a\/b`, true, map[string]bool{"a/b": true, `a\/b`: false}},
		{"a?**/b", false, nil},
		{"a/**/b", false, nil},
		{"**/a**", false, nil},
		{"a/b**c", false, nil},
		{`a\\/b`, false, nil},
	} {
		if got := wholePath(tt.pat); got != tt.glued {
			t.Errorf("wholePath(%q) = %v, want %v", tt.pat, got, tt.glued)
		}
		pp := newPathPattern(tt.pat)
		for p, want := range tt.paths {
			if got := pp.match(p); got != want {
				t.Errorf("%q against %q: %v, want %v", tt.pat, p, got, want)
			}
		}
	}
}

func TestTrimTrailingSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"a":      "a",
		"a  ":    "a",
		`a\ `:    `a\ `,
		`a\  `:   `a\ `,
		`a\ b  `: `a\ b`,
		"  ":     "",
		`a  \`:   `a  \`, // a trailing backslash: git keeps the line as it is
		"a b":    "a b",
	} {
		if got := trimTrailingSpaces(in); got != want {
			t.Errorf("trimTrailingSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}

// A pattern's stars cost steps in proportion to the pattern's length
// times the name's, not exponential in their number.
func TestPatternBounded(t *testing.T) {
	g := compilePattern(strings.Repeat("*a", 40) + "*x")
	s := strings.Repeat("a", 4000)
	done := make(chan bool, 1)
	go func() { done <- g.match(s) }()
	select {
	case got := <-done:
		if got {
			t.Error("matched a name without an x")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("took over 10 s")
	}
}
