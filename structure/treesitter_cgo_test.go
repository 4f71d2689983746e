//go:build cgo

package structure

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests of the tree-sitter extractor's internals: its grammars, pools,
// timeout and recovery exist only in a build with cgo.

// wantParser is what Parser must say in this build.
const wantParser = "tree-sitter"

// Every language Extract sends to tree-sitter has a fixture above.
func TestTreeSitterCoverage(t *testing.T) {
	covered := map[string]bool{}
	for _, tt := range treeSitterCases {
		covered[Language(tt.file)] = true
	}
	for _, lang := range TreeSitterLanguages() {
		if !covered[lang] {
			t.Errorf("no fixture for %s", lang)
		}
	}
	for name, g := range grammars {
		if err := g.load(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A parse that runs out of time falls back to the patterns, is counted,
// and leaves the parser fit for the next file.
func TestTreeSitterTimeout(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "def f%d(x):\n    return g(x) + [y for y in range(x) if y %% 3]\n\n", i)
	}
	src := []byte(b.String())
	before := ParseStats()
	parseTimeout = time.Microsecond
	o := Extract("big.py", src)
	parseTimeout = ParseTimeout
	if o.Parser != ParserFallback || !strings.Contains(o.Err, "timed out") {
		t.Fatalf("parser %q, err %q", o.Parser, o.Err)
	}
	if len(o.Defs) != 20000 || o.Defs[0].Name != "f0" {
		t.Errorf("fallback found %d definitions", len(o.Defs))
	}
	after := ParseStats()
	if after.Timeouts != before.Timeouts+1 || after.Fallback != before.Fallback+1 {
		t.Errorf("stats %+v, then %+v", before, after)
	}
	o = Extract("small.py", []byte("def ok():\n    pass\n"))
	if o.Parser != ParserTreeSitter || o.Err != "" || len(o.Defs) != 1 || o.Defs[0].EndLine != 2 {
		t.Errorf("after a timeout: %+v", o)
	}
}

// A panic during extraction falls back to the patterns and is counted.
func TestTreeSitterPanic(t *testing.T) {
	before := ParseStats()
	testHook = func(lang string) { panic("boom in " + lang) }
	o := Extract("a.rb", []byte("class A\n  def m\n  end\nend\n"))
	testHook = nil
	if o.Parser != ParserFallback || !strings.Contains(o.Err, "panic: boom in ruby") {
		t.Fatalf("parser %q, err %q", o.Parser, o.Err)
	}
	if got := outlineDefs(o); len(got) != 2 {
		t.Errorf("fallback defs %q", got)
	}
	if after := ParseStats(); after.Panics != before.Panics+1 {
		t.Errorf("panics %d, then %d", before.Panics, after.Panics)
	}
	if o := Extract("a.rb", []byte("class A\nend\n")); o.Parser != ParserTreeSitter {
		t.Errorf("after a panic: %+v", o)
	}
}

// Extract is safe for concurrent use and gives the same outlines as in
// series; parsers are reused, and no more are kept than the pools hold.
func TestTreeSitterConcurrent(t *testing.T) {
	type file struct {
		name string
		src  []byte
		want Outline
	}
	var files []file
	for _, tt := range treeSitterCases {
		src, err := os.ReadFile("testdata/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		want := Extract(tt.file, src)
		if want.Parser == ParserFallback && strings.Contains(want.Err, "timed out") {
			continue // a machine too busy for the series' own parse
		}
		files = append(files, file{tt.file, src, want})
	}
	if len(files) == 0 {
		t.Skip("every parse ran out of time")
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				f := files[(w+i)%len(files)]
				got := Extract(f.name, f.src)
				if got.Parser == ParserFallback && strings.Contains(got.Err, "timed out") {
					// ParseTimeout is wall-clock time: a machine busy
					// enough falls back to the patterns, by design.
					continue
				}
				if !reflect.DeepEqual(got, f.want) {
					t.Errorf("%s: concurrent outline differs", f.name)
					return
				}
			}
		}()
	}
	wg.Wait()
	for name, g := range grammars {
		if n := g.count.Load(); n > int64(runtime.GOMAXPROCS(0)) {
			t.Errorf("%s: %d parsers alive, pool holds %d", name, n, runtime.GOMAXPROCS(0))
		}
	}
}

// Inside modules written in a Rust file, super and self are theirs: a
// path climbs out of them before it is read from the file's module.
func TestRustImportsInInlineModules(t *testing.T) {
	src := "use super::top;\n\nmod a {\n    use super::*;\n    use super::f;\n    use self::g;\n    mod b {\n        use super::super::x;\n        use super::super::super::up;\n    }\n    mod c;\n}\n"
	got := Extract("src/m.rs", []byte(src)).Imports
	want := []string{"super::top", "self::f", "self::x", "super::up"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("imports:\n got  %q\n want %q", got, want)
	}
}
