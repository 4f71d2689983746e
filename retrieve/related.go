package retrieve

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/walk"
)

// maxRelatedTests bounds the list.
const maxRelatedTests = 5

// relatedTests finds the tests of the result's files: test files named for
// one (test_query.py, query_test.go, auth.test.ts), and those whose text
// uses its most distinctive definitions, best confirmed by an import.
func (rk *ranker) relatedTests(files []hone.File) []hone.RelatedTest {
	type cand struct {
		score  float64
		for_   []string
		reason string
	}
	found := map[string]*cand{}
	add := func(p, f string, score float64, reason string) {
		c := found[p]
		if c == nil {
			c = &cand{reason: reason}
			found[p] = c
		}
		if score > c.score {
			c.score, c.reason = score, reason
		}
		if !slices.Contains(c.for_, f) {
			c.for_ = append(c.for_, f)
			c.score += 0.1 // a test of several result files is worth more
		}
	}
	isTest := func(e *index.Entry) bool { return e.Kind.Has(walk.Test) }
	var tests []*index.Entry
	for _, e := range rk.ix.Entries() {
		if isTest(e) {
			tests = append(tests, e)
		}
	}
	if len(tests) == 0 {
		return []hone.RelatedTest{}
	}
	for fi, f := range files {
		// The tests of the best files first.
		at := 1 / (1 + 0.3*float64(fi))
		d := rk.ix.Doc(f.Path)
		if d == nil {
			continue
		}
		base := moduleName(f.Path)
		// Named for it: the more of its folders the test's path shares,
		// the surer; a common name (utils, base) needs a shared folder.
		var named []*index.Entry
		for _, e := range tests {
			if testNamedFor(e.Path, base) {
				named = append(named, e)
			}
		}
		dirs := strings.Split(path.Dir(f.Path), "/")
		for _, e := range named {
			shared := 0
			for _, part := range strings.Split(path.Dir(e.Path), "/") {
				if slices.Contains(dirs, part) {
					shared++
				}
			}
			if shared == 0 && len(named) > 1 {
				continue
			}
			add(e.Path, f.Path, at*(0.7+0.3*float64(shared)/float64(len(dirs))), "named for "+path.Base(f.Path))
		}
		// Tests that use its most distinctive definitions.
		var terms []index.QueryTerm
		n := 0
		for _, def := range d.Defs {
			if def.Kind == "section" || len(def.Name) < 6 || n == 6 {
				continue
			}
			for _, ws := range wholeStems(def.Name) {
				if df := rk.ix.DF(ws); df > 0 && df <= 50 {
					terms = append(terms, index.QueryTerm{Stem: ws, Weight: 1})
					n++
				}
			}
		}
		if len(terms) == 0 {
			continue
		}
		for i, h := range rk.ix.Run(index.Search{Terms: terms, Keep: isTest, Limit: 3}) {
			reason := "uses its definitions"
			score := 0.6 - 0.1*float64(i)
			if td := rk.ix.Doc(h.Entry.Path); td != nil && slices.Contains(rk.ix.Imports(td), f.Path) {
				reason, score = "imports it", score+0.3
			}
			add(h.Entry.Path, f.Path, at*score, reason)
		}
	}
	out := make([]hone.RelatedTest, 0, len(found))
	for p, c := range found {
		out = append(out, hone.RelatedTest{Path: p, For: c.for_, Reason: c.reason})
	}
	sort.Slice(out, func(i, j int) bool {
		si, sj := found[out[i].Path].score, found[out[j].Path].score
		if si != sj {
			return si > sj
		}
		return out[i].Path < out[j].Path
	})
	if len(out) > maxRelatedTests {
		out = out[:maxRelatedTests]
	}
	return out
}

// testNamedFor reports whether a test file's name is the source file's
// base with a test prefix or suffix.
func testNamedFor(p, base string) bool {
	return slices.Contains(testSubjects(p), strings.ToLower(base))
}

// testSubjects are the names a test file may be named for: its name less
// a test prefix (test_, tests_, test) or suffix (_test, .test, .spec,
// tests, test), lower-cased.
func testSubjects(p string) []string {
	name := strings.ToLower(path.Base(p))
	name = strings.TrimSuffix(name, path.Ext(name))
	var out []string
	for _, pre := range []string{"test_", "tests_", "test"} {
		if b, ok := strings.CutPrefix(name, pre); ok && b != "" {
			out = append(out, b)
		}
	}
	for _, suf := range []string{"_test", ".test", ".spec", "tests", "test"} {
		if b, ok := strings.CutSuffix(name, suf); ok && b != "" {
			out = append(out, b)
		}
	}
	return out
}

// moduleName is what a file is named for, lower-cased: its name without
// the extension, or its folder's for a package's own file (__init__.py,
// index.ts, mod.rs).
func moduleName(p string) string {
	base := strings.ToLower(strings.TrimSuffix(path.Base(p), path.Ext(p)))
	if base == "__init__" || base == "index" || base == "mod" {
		base = strings.ToLower(path.Base(path.Dir(p)))
	}
	return base
}
