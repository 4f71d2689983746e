package retrieve

import (
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// maxRelatedTests bounds the list; taskTests is how many of the tests
// that best match the task it weighs.
const (
	maxRelatedTests = 5
	taskTests       = 10
	// taskOnly is the weight of a test that matches the task, the best
	// of them, where nothing else ties it to the result.
	taskOnly = 0.5
	// firstTest is the weight of a test among the result's files, above
	// any tie's (a tie scores 1 at most, and 0.1 more for each further
	// file it tests, of ten files at most).
	firstTest = 10
)

// relatedTests finds the tests of the result's files: test files named for
// one (test_query.py, query_test.go, auth.test.ts), and those whose text
// uses its most distinctive definitions, best confirmed by an import.
func (rk *ranker) relatedTests(files []hone.File) []hone.RelatedTest {
	type cand struct {
		score  float64
		for_   []string
		reason string
		first  bool // a test among the files, listed first
	}
	found := map[string]*cand{}
	add := func(p, f string, score float64, reason string) {
		if p == f {
			return // a test among the files is not its own test
		}
		if c := found[p]; c != nil && c.first {
			return // listed first for what it is
		}
		c := found[p]
		if c == nil {
			c = &cand{reason: reason, for_: []string{}}
			found[p] = c
		}
		// Its reason is its best tie's; matching the task alone is its
		// reason only while nothing ties it to a file, whatever the
		// scores.
		tied := len(c.for_) > 0
		switch {
		case f == "" && tied:
		case f != "" && !tied, score > c.score:
			c.reason = reason
		}
		c.score = max(c.score, score)
		if f != "" && !slices.Contains(c.for_, f) {
			c.for_ = append(c.for_, f)
			c.score += 0.1 // a test of several result files is worth more
		}
	}
	// A test to run: test code, not what the tests read, and none the
	// caller excluded.
	isTest := func(e *index.Entry) bool {
		return e.Kind.Has(walk.Test) && runnable(e.Lang) && !dataPath(e.Path) && !helperPath(e.Path) &&
			runnerCollects(e.Path, e.Lang) && !matchAny(rk.opts.Exclude, e.Path)
	}
	var tests []*index.Entry
	for _, e := range rk.ix.Entries() {
		if isTest(e) {
			tests = append(tests, e)
		}
	}
	if len(tests) == 0 || len(files) == 0 {
		// No file found, no test of one: a test that matches the task
		// alone is no answer either.
		return []hone.RelatedTest{}
	}
	// A test among the result's files is the first to run: the task is
	// about it.
	for fi, f := range files {
		if e := rk.ix.Entry(f.Path); e != nil && isTest(e) {
			add(f.Path, "", firstTest-0.1*float64(fi), "among the result's files")
			found[f.Path].first = true
		}
	}
	// The tests that best match the task, of those that import a result
	// file: the tests of the behaviour the task is about, ranked with the
	// tests named for the file.
	if terms := rk.q.taskTerms(); len(terms) > 0 {
		calls := rk.callsInto(files)
		for i, h := range rk.ix.Run(index.Search{Terms: terms, Keep: isTest, Limit: taskTests}) {
			for fi, f := range files {
				at := 1 / (1 + 0.3*float64(fi))
				switch {
				case imports(rk.ix, h.Entry.Path, f.Path):
					add(h.Entry.Path, f.Path, at*(0.95-0.05*float64(i)), "matches the task, imports it")
				case inFolderFor(h.Entry.Path, f.Path):
					// test/context/throw.js, of lib/context.js: its tests
					// often reach the file through a helper that builds
					// what it tests.
					add(h.Entry.Path, f.Path, at*(0.9-0.05*float64(i)), "matches the task, in a folder named for "+redact.QuotePath(path.Base(f.Path)))
				default:
					// test/reply.cookie.js, of lib/reply.js: a test that
					// reaches the file through the package it imports
					// whole calls what the file defines.
					if name := calls(h.Entry.Path, f.Path); name != "" {
						add(h.Entry.Path, f.Path, at*(0.85-0.05*float64(i)), "matches the task, calls its "+name+"()")
					}
				}
			}
			// A test that matches the task well is worth running though
			// nothing ties it to a file of the result: the tests of a
			// command line (tests/integration_tests.rs) run the program.
			add(h.Entry.Path, "", taskOnly-0.05*float64(i), "matches the task")
		}
	}
	for fi, f := range files {
		// The tests of the best files first.
		at := 1 / (1 + 0.3*float64(fi))
		d := rk.ix.Doc(f.Path)
		if d == nil {
			continue
		}
		base := moduleName(f.Path)
		// Named for it, and beside it or where the repository's tests
		// mirror its folder (tests/test_models.py, src/test/java/a/BTest.java
		// for src/main/java/a/B.java), or importing it: a test of the same
		// name in another package tests that package's file.
		for _, e := range tests {
			if !testNamedFor(e.Path, base) {
				continue
			}
			switch {
			case path.Dir(e.Path) == path.Dir(f.Path):
				add(e.Path, f.Path, at, "named for "+redact.QuotePath(path.Base(f.Path))+", beside it")
			case strings.HasSuffix(e.Path, "_test.go"):
				// Go's tests sit beside their package's files.
			case mirrors(path.Dir(e.Path), path.Dir(f.Path)):
				add(e.Path, f.Path, at*0.9, "named for "+redact.QuotePath(path.Base(f.Path)))
			case imports(rk.ix, e.Path, f.Path):
				add(e.Path, f.Path, at*0.9, "named for "+redact.QuotePath(path.Base(f.Path))+", imports it")
			}
		}
		// Tests that use its most distinctive definitions. A Go name
		// that is not exported (autoRemove) is its package's alone: only
		// a test beside the file can use it, and one elsewhere that
		// writes it (a field AutoRemove, which the index's stems do not
		// tell from it) uses something else.
		var terms, local []index.QueryTerm
		n := 0
		for _, def := range d.Defs {
			if def.Kind == "section" || len(def.Name) < 6 || n == 6 {
				continue
			}
			for _, ws := range wholeStems(def.Name) {
				if df := rk.ix.DF(ws); df > 0 && df <= 50 {
					if d.Lang == "go" && !goExported(def.Name) {
						local = append(local, index.QueryTerm{Stem: ws, Weight: 1})
					} else {
						terms = append(terms, index.QueryTerm{Stem: ws, Weight: 1})
					}
					n++
				}
			}
		}
		dir := path.Dir(f.Path)
		beside := func(e *index.Entry) bool { return isTest(e) && path.Dir(e.Path) == dir }
		for _, s := range []index.Search{{Terms: terms, Keep: isTest, Limit: 3}, {Terms: local, Keep: beside, Limit: 3}} {
			if len(s.Terms) == 0 {
				continue
			}
			for i, h := range rk.ix.Run(s) {
				reason := "uses its definitions"
				score := 0.6 - 0.1*float64(i)
				if imports(rk.ix, h.Entry.Path, f.Path) {
					reason, score = "imports it", score+0.3
				}
				add(h.Entry.Path, f.Path, at*score, reason)
			}
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

// goExported reports whether a Go name is exported: its first letter
// upper case.
func goExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// callsInto returns what tells, for a test and one of files, a name the
// test calls that the file defines (a function, a method, a class) and
// that at most callerDefiners files define, or "" when there is none:
// a name many files define (get, run) says nothing of which one the
// test reaches.
func (rk *ranker) callsInto(files []hone.File) func(test, file string) string {
	defined := map[string]map[string]bool{}
	var names []string
	for _, f := range files {
		d := rk.ix.Doc(f.Path)
		if d == nil {
			continue
		}
		m := map[string]bool{}
		for _, def := range d.Defs {
			if def.Kind != "section" && len(def.Name) >= minCalledName {
				m[def.Name] = true
				names = append(names, def.Name)
			}
		}
		defined[f.Path] = m
	}
	var definers map[string][]*index.Entry
	return func(test, file string) string {
		own := defined[file]
		if len(own) == 0 {
			return ""
		}
		d := rk.ix.Doc(test)
		if d == nil {
			return ""
		}
		if definers == nil {
			definers = rk.ix.DefinersOf(names)
		}
		for _, name := range d.CallsOut() {
			if !own[name] {
				continue
			}
			// The file among the definers the test's language can call:
			// a Python test's cookie() is not a JavaScript file's.
			ds := callable(d.Lang, definers[name])
			if len(ds) <= callerDefiners && slices.ContainsFunc(ds, func(e *index.Entry) bool { return e.Path == file }) {
				return name
			}
		}
		return ""
	}
}

// minCalledName: a name shorter than this (id, of) ties a test to no file.
const minCalledName = 4

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

// inFolderFor reports whether a test lies in a folder named for the
// source file, elsewhere than beside it: test/context/throw.js for
// lib/context.js, the tests of one module kept a file a behaviour. The
// tests' own folder is named for no file: test/ holds every test of
// mocha's lib/test.js.
func inFolderFor(test, src string) bool {
	name := moduleName(src)
	dir := path.Dir(test)
	return !testFolder(name) && dir != path.Dir(src) && strings.EqualFold(path.Base(dir), name)
}

// testFolder reports whether a lower-case folder name is a tests' own
// folder's.
func testFolder(name string) bool {
	switch name {
	case "test", "tests", "__tests__", "spec", "specs":
		return true
	}
	return false
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

// imports reports whether the file at p imports the file at target.
func imports(ix *index.Index, p, target string) bool {
	d := ix.Doc(p)
	return d != nil && slices.Contains(ix.Imports(d), target)
}

// runnable reports whether a test file of the language lang can be a test
// to run: code, or a language hone does not know (a `.test` file of a
// language's own tests, `.bats`), never markup, text or data (a template or the expected output
// the tests read).
func runnable(lang string) bool { return lang == "" || structure.IsCode(lang) }

// runnerCollects reports whether a test file of the language lang is one
// its test runner collects by name, where the runner goes by names and a
// tests' folder also holds what they share: pytest's and unittest's
// test*.py and *_test.py, not conftest.py nor a test app's models.py; JUnit's and Maven's Test*, *Test, *Tests, *TestCase and *IT
// classes (and Spock's and Kotest's *Spec), not a server a test starts.
// Elsewhere the walk's test files are tests to run.
func runnerCollects(p, lang string) bool {
	name := path.Base(p)
	name = strings.TrimSuffix(name, path.Ext(name))
	switch lang {
	case "python":
		return strings.HasPrefix(name, "test") || strings.HasSuffix(name, "_test")
	case "java", "kotlin", "scala", "groovy":
		if strings.HasPrefix(name, "Test") {
			return true
		}
		for _, suf := range []string{"Test", "Tests", "TestCase", "IT", "Spec"} {
			if strings.HasSuffix(name, suf) {
				return true
			}
		}
		return false
	}
	return true
}

// dataPath reports whether a path lies under a folder of test data or
// fixtures: files the tests read, not tests to run.
func dataPath(p string) bool {
	for _, part := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(part) {
		case "testdata", "test_data", "fixtures", "fixture", "__fixtures__", "__snapshots__", "snapshots", "testcases":
			return true
		}
	}
	return false
}

// helperPath reports whether a path is a helper of the tests, in a folder
// of helpers or mocks (test/helpers/context.js), which the tests call and
// nothing runs; a file there named as a test (helpers/url_test.go, or as
// walk tells one: rspec-rails' spec/helpers/users_helper_spec.rb) is a
// test.
func helperPath(p string) bool {
	if len(testSubjects(p)) > 0 || walk.Classify(path.Base(p), nil).Has(walk.Test) {
		return false
	}
	// A file the tests source or load before they run (tests/setup;
	// spec/spec_helper.rb is named as one already), but under __tests__,
	// every file of which Jest runs.
	base := strings.ToLower(path.Base(p))
	if helperNames[strings.TrimSuffix(base, path.Ext(base))] && !slices.Contains(strings.Split(path.Dir(p), "/"), "__tests__") {
		return true
	}
	// The folder of helpers counts below the tests' own folder, not above
	// it: src/helpers/__tests__/format.js is a test of a source folder of
	// helpers, which Jest runs.
	helper := false
	for _, part := range strings.Split(path.Dir(p), "/") {
		switch part = strings.ToLower(part); part {
		case "helpers", "helper", "support", "mocks", "__mocks__", "stubs", "testutil", "testutils", "test_utils", "test_helpers":
			helper = true
		default:
			helper = helper && !testFolder(part)
		}
	}
	return helper
}

// helperNames are the names, their extension left out, of the files a
// test folder keeps for its tests to set up and tear down: no test runs in
// them. Not utils or common: test/utils.js is as often the test of
// lib/utils.js.
var helperNames = map[string]bool{
	"setup": true, "teardown": true, "conftest": true, "globalsetup": true, "global-setup": true,
	"globalteardown": true, "global-teardown": true, "setuptests": true, "setup-tests": true,
}

// testRoots are the folders that hold a repository's tests, or its
// sources, apart: tests mirror the sources' folders under them.
var testRoots = map[string]bool{
	"test": true, "tests": true, "__tests__": true, "spec": true, "specs": true, "testing": true,
	"unit": true, "integration": true, "src": true, "main": true, "lib": true, "java": true, "kotlin": true, "scala": true,
}

// mirrors reports whether a test folder mirrors a source folder: with the
// test and source roots left out of both, the test's folder is the
// source's, or one of its parents (tests kept at a package's root).
func mirrors(testDir, srcDir string) bool {
	strip := func(dir string) []string {
		var out []string
		for _, part := range strings.Split(dir, "/") {
			if part != "." && !testRoots[strings.ToLower(part)] {
				out = append(out, part)
			}
		}
		return out
	}
	t, s := strip(testDir), strip(srcDir)
	return len(t) <= len(s) && slices.Equal(t, s[:len(t)])
}
