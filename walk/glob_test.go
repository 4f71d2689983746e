package walk

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestMatchCompiled(t *testing.T) {
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
		{"**/*.log", "a/b/c.log", true},
		{"**/*.log", "a/b/c.log.txt", false},
		{"**/build-*", "x/build-7", true},
		{"**/tmp*/**", "a/tmp1/b", true},
		{"**/*.py[co]", "a/b.pyc", true},
		{"**/*.py[co]", "a/b.pyd", false},
		{"**/a?c", "x/abc", true},
		{"**/a?c", "x/abbc", false},
	} {
		pat, elems := strings.Split(tt.pat, "/"), strings.Split(tt.path, "/")
		var compiled []nameMatcher
		for _, e := range pat {
			compiled = append(compiled, globElem(e))
		}
		if got := matchCompiled(compiled, elems); got != tt.want {
			t.Errorf("matchCompiled(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
	}
}

// An ignore rule's elements are compiled as git reads them: "[!t]" is a
// negated class, as path.Match would not read it.
func TestMatchCompiledClass(t *testing.T) {
	var pat []nameMatcher
	for _, e := range strings.Split("src/**/[!t]*.go", "/") {
		pat = append(pat, globElem(e))
	}
	for path, want := range map[string]bool{"src/x/main.go": true, "src/x/t.go": false, "src/t.go": false, "src/a/b/c.go": true} {
		if got := matchCompiled(pat, strings.Split(path, "/")); got != want {
			t.Errorf("src/**/[!t]*.go against %q: %v, want %v", path, got, want)
		}
	}
}

// An ignore file chooses its patterns: many "**" in one against a deep
// path take steps in proportion to their product, not exponential in the
// number of "**" (this one took minutes by backtracking).
func TestMatchCompiledBounded(t *testing.T) {
	var pat []nameMatcher
	for _, e := range strings.Split(strings.Repeat("**/a/", 12)+"x", "/") {
		pat = append(pat, globElem(e))
	}
	elems := strings.Split(strings.Repeat("a/", 40)+"y", "/")
	done := make(chan bool, 1)
	go func() { done <- matchCompiled(pat, elems) }()
	select {
	case got := <-done:
		if got {
			t.Error("matched a path that does not end in x")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("matchCompiled took over 10 s")
	}
}

// BenchmarkDecideGeneric: the entries of a folder four deep, decided by a
// root ignore file with rules of "**" (a monorepo's), as every warm walk
// decides them.
func BenchmarkDecideGeneric(b *testing.B) {
	rules := parseIgnore([]byte("**/node_modules\n**/*.log\n**/build-*/**\n**/.cache\n**/*.py[co]\n**/tmp?/\nsrc/**/gen_*.go\n"), nil)
	elems := []string{"src", "server", "handlers", "auth"}
	rs := compile(rules, elems)
	var names []string
	for i := range 100 {
		names = append(names, fmt.Sprintf("handler_%d.go", i), fmt.Sprintf("handler_%d_test.go", i))
	}
	var scratch []string
	b.ResetTimer()
	for range b.N {
		for _, n := range names {
			if rs.ignored(n, false, elems, &scratch) {
				b.Fatal(n, "ignored")
			}
		}
	}
}
