package walk

import (
	"strings"
	"testing"
	"time"
)

func TestMatchGlob(t *testing.T) {
	for _, tt := range []struct {
		pat, path string
		want      bool
	}{
		{"a/**", "a", false},
		{"a/**", "a/b", true},
		{"a/**", "a/b/c", true},
		{"**/b", "b", true},
		{"**/b", "a/x/b", true},
		{"**/b", "a/b/c", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"**/a*/**/x.go", "q/ab/r/s/x.go", true},
		{"**/a*/**/x.go", "q/b/r/s/x.go", false},
		{"[ab]/**/?", "a/c", true},
		{"[ab]/**/?", "c/a/b", false},
		{"**", "a/b", true},
	} {
		if got := matchGlob(strings.Split(tt.pat, "/"), strings.Split(tt.path, "/")); got != tt.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
	}
}

// An ignore file chooses its patterns: many "**" in one against a deep
// path take steps in proportion to their product, not exponential in the
// number of "**" (this one took minutes by backtracking).
func TestMatchGlobBounded(t *testing.T) {
	pat := strings.Split(strings.Repeat("**/a/", 12)+"x", "/")
	elems := strings.Split(strings.Repeat("a/", 40)+"y", "/")
	done := make(chan bool, 1)
	go func() { done <- matchGlob(pat, elems) }()
	select {
	case got := <-done:
		if got {
			t.Error("matched a path that does not end in x")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("matchGlob took over 10 s")
	}
}
