package index

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// build indexes a tree of files in a fresh index.
func build(t *testing.T, files map[string]string) *Index {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	ix, err := buildAt(context.Background(), dir, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func tf(ix *Index, path, word string) [NumFields]uint16 {
	d := ix.Doc(path)
	if d == nil {
		return [NumFields]uint16{}
	}
	return d.TF(tokenize.Stem(word))
}

func TestFields(t *testing.T) {
	ix := build(t, map[string]string{
		"src/session/session-manager.ts": "export function refreshSession(id: string) {\n  // refresh the session\n  return signJwt(id);\n}\n",
		"src/middleware/index.ts":        "export { throttle } from './throttle';\n",
		".env":                           "SECRET_TOKEN=hunter2\n",
	})
	got := tf(ix, "src/session/session-manager.ts", "session")
	if got[Name] != 1 || got[Dir] != 1 || got[Def] != 1 || got[Body] < 2 || got[Comment] != 1 {
		t.Errorf("session: %v, want name 1, dir 1, def 1, body 2+, comment 1", got)
	}
	if got := tf(ix, "src/session/session-manager.ts", "refreshsession"); got[Def] != 1 {
		t.Errorf("the whole identifier refreshsession: %v, want it in the definitions", got)
	}
	// the names it defines are not among its calls
	if d := ix.Doc("src/session/session-manager.ts"); !slices.Equal(d.Calls, []string{"signJwt"}) {
		t.Errorf("calls: %v, want [signJwt]", d.Calls)
	}
	// an index file is named for its folder
	if got := tf(ix, "src/middleware/index.ts", "middleware"); got[Name] != 1 {
		t.Errorf("index.ts: middleware %v, want it in the name", got)
	}
	// a secret file: its name only, never its contents
	if got := tf(ix, ".env", "hunter2"); got != [NumFields]uint16{} {
		t.Errorf(".env contents indexed: %v", got)
	}
	if _, err := ix.Content(ix.Entry(".env")); err == nil {
		t.Error("Content read a secret-bearing file")
	}
	if s := ix.Surface(tokenize.Stem("session")); s != "session" {
		t.Errorf("surface of session: %q", s)
	}
	if ix.N() != 3 || ix.DF(tokenize.Stem("session")) != 1 || ix.DF("nosuchterm") != 0 {
		t.Errorf("N %d, DF(session) %d", ix.N(), ix.DF(tokenize.Stem("session")))
	}
}

// A term's surface is the shortest word any file writes for it, the stem
// itself where one file writes that: a file whose word is its stem once
// counted for none, and "clear" read as "clears", whichever file came
// first, in a build, a block read back and an update's delta alike.
func TestSurfaceIsTheShortestWord(t *testing.T) {
	for _, files := range []map[string]string{
		{"a.py": "# clears the cache\n", "b.py": "# clear the cache\n"},
		{"a.py": "# clear the cache\n", "b.py": "# clears the cache\n"},
		{"a.py": "# clearing the cache\n", "b.py": "# clears the cache\n", "c.py": "# clear the cache\n"},
	} {
		ix := build(t, files)
		if got := ix.Surface(tokenize.Stem("clear")); got != "clear" {
			t.Errorf("%v: surface of clear %q, want clear", files, got)
		}
	}
	ix := build(t, map[string]string{"a.py": "# clears the cache\n"})
	if got := ix.Surface(tokenize.Stem("clear")); got != "clears" {
		t.Errorf("one file writes clears: surface %q, want clears", got)
	}
	writeTree(t, ix.Root, map[string]string{"b.py": "# clear the cache\n"})
	if _, err := ix.Update(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if got := ix.Surface(tokenize.Stem("clear")); got != "clear" {
		t.Errorf("after an update adds a file that writes clear: surface %q, want clear", got)
	}
}

func TestRun(t *testing.T) {
	ix := build(t, map[string]string{
		"throttle.ts": "export function throttle() { /* throttle requests */ }\n",
		"routes.ts":   "import { throttle } from './throttle';\napp.use(throttle());\n",
		"billing.ts":  "const taxRate = 0.2;\n",
		"README.md":   "# throttle\nthrottle throttle throttle\n",
	})
	q := []QueryTerm{{Stem: tokenize.Stem("throttle"), Weight: 1}}
	hits := ix.Run(Search{Terms: q})
	var paths []string
	for _, h := range hits {
		paths = append(paths, h.Entry.Path)
	}
	if len(paths) != 3 || paths[0] != "throttle.ts" {
		t.Errorf("hits %v: want the file named for the term first, billing.ts absent", paths)
	}
	hits = ix.Run(Search{
		Terms: q,
		Keep:  func(e *Entry) bool { return e.Path != "throttle.ts" },
		Prior: func(e *Entry) float64 {
			if e.Path == "README.md" {
				return 0
			}
			return 1
		},
		Limit: 5,
	})
	if len(hits) != 1 || hits[0].Entry.Path != "routes.ts" {
		t.Errorf("with Keep and Prior: %v", hits)
	}
	if hits := ix.Run(Search{Terms: []QueryTerm{{Stem: "nosuchterm", Weight: 1}}}); len(hits) != 0 {
		t.Errorf("unknown term: %d hits", len(hits))
	}
	if n := ix.Cooccur([]string{tokenize.Stem("throttle"), tokenize.Stem("app")}); n != 1 {
		t.Errorf("Cooccur(throttle, app) = %d, want 1", n)
	}
}

func TestStructure(t *testing.T) {
	ix := build(t, map[string]string{
		"src/auth/auth.ts":               "import { refreshSession } from '../session/session-manager';\nimport lodash from 'lodash';\nexport function authenticate() { refreshSession('x'); }\n",
		"src/session/session-manager.ts": "export function refreshSession(id: string) {}\n",
		"pkg/models/__init__.py":         "from .fields import Field\n",
		"pkg/models/fields.py":           "class Field:\n    pass\n",
		"pkg/store/store.go":             "package store\n\nfunc Open() {}\n",
		"pkg/store/cache.go":             "package store\n\nfunc Evict() {}\n",
		"pkg/store/disk.go":              "package store\n\nfunc Flush() {}\n",
		"cmd/main.go":                    "package main\n\nimport \"example.com/m/pkg/store\"\n\nfunc main() { store.Open() }\n",
		"cmd/types.go":                   "package main\n\nimport \"example.com/m/pkg/store\"\n\nvar s store.Store\n",
		"cmd/both.go":                    "package main\n\nimport \"example.com/m/pkg/store\"\n\nfunc both() { store.Flush(); store.Open() }\n",
	})
	if got := ix.Imports(ix.Doc("src/auth/auth.ts")); !slices.Equal(got, []string{"src/session/session-manager.ts"}) {
		t.Errorf("imports of auth.ts: %v", got)
	}
	if got := ix.Imports(ix.Doc("pkg/models/__init__.py")); !slices.Equal(got, []string{"pkg/models/fields.py"}) {
		t.Errorf("imports of __init__.py: %v", got)
	}
	// A Go import names a package folder: the files of it that define
	// what the importer calls, or all of them when it calls none.
	for _, c := range []struct {
		path string
		want []string
	}{
		{"cmd/main.go", []string{"pkg/store/store.go"}},
		{"cmd/both.go", []string{"pkg/store/disk.go", "pkg/store/store.go"}},
		{"cmd/types.go", []string{"pkg/store/cache.go", "pkg/store/disk.go", "pkg/store/store.go"}},
	} {
		if got := ix.Imports(ix.Doc(c.path)); !slices.Equal(got, c.want) {
			t.Errorf("imports of %s: %v, want %v", c.path, got, c.want)
		}
	}
	defs := ix.Definers("refreshSession")
	if len(defs) != 1 || defs[0].Path != "src/session/session-manager.ts" {
		t.Errorf("definers of refreshSession: %v", defs)
	}
	if !ix.Exists("src/auth/") || ix.Exists("src/nope/") || !ix.Exists("pkg/models/fields.py") {
		t.Error("Exists")
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "missing"), Options{Dir: t.TempDir()})
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "the repository does not exist") {
		t.Errorf("missing root: %v; want an error that says the repository does not exist", err)
	}
	file := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(file, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), file, Options{Dir: t.TempDir()}); !errors.Is(err, walk.ErrNotDir) || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a file as the root: %v; want an error that says it is not a directory", err)
	}
	// An empty path is no repository, not the working directory.
	if _, err := Open(context.Background(), "", Options{Dir: t.TempDir()}); !errors.Is(err, ErrNoRepository) {
		t.Errorf("an empty path: %v; want ErrNoRepository", err)
	}
	if p, err := PathOf("", Options{Dir: t.TempDir()}); !errors.Is(err, ErrNoRepository) {
		t.Errorf("PathOf an empty path: %q, %v; want ErrNoRepository", p, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := buildAt(ctx, t.TempDir(), Options{Dir: t.TempDir()}); err == nil {
		t.Error("cancelled: no error")
	}
}

// snapshot is what a retrieval sees of an index: for each file, its score
// for a few queries, and the statistics behind them.
func snapshot(t *testing.T, ix *Index, words ...string) string {
	t.Helper()
	var b strings.Builder
	for _, w := range words {
		st := tokenize.Stem(w)
		b.WriteString(w + " df=" + itoa(ix.DF(st)) + ":")
		for _, h := range ix.Run(Search{Terms: []QueryTerm{{Stem: st, Weight: 1}}}) {
			b.WriteString(" " + h.Entry.Path + "=" + ftoa(h.Score))
		}
		b.WriteString("\n")
	}
	b.WriteString("N=" + itoa(ix.N()))
	for f := Field(0); f < NumFields; f++ {
		b.WriteString(" avg" + f.String() + "=" + ftoa(ix.AvgLen(f)))
	}
	return b.String()
}

func itoa(n int) string { return fmtInt(n) }

// neighbours lists the words' neighbours in the thesaurus, with their counts
// and associations.
func neighbours(t *testing.T, ix *Index, words ...string) string {
	t.Helper()
	var stems []string
	for _, w := range words {
		stems = append(stems, tokenize.Stem(w))
	}
	all := ix.RelatedAll(stems, 1000)
	if err := ix.Err(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, st := range stems {
		b.WriteString(st + ":")
		for _, nb := range all[st] {
			b.WriteString(" " + nb.Stem + "=" + itoa(nb.Files) + "/" + ftoa(nb.Assoc))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestIncrementalEqualsRebuild(t *testing.T) {
	// Terms' pair counts in many parts, which the rounds merge, grow and
	// shrink.
	defer func(n int) { partBytes = n }(partBytes)
	partBytes = 100
	repo := t.TempDir()
	writeGenerated(t, repo, 600, "token")
	dir := t.TempDir()
	ctx := context.Background()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()

	// Change, delete and add files in several rounds: tombstones, a delta,
	// new segments, merges.
	for round := 0; round < 12; round++ {
		for i := round * 40; i < round*40+30; i++ {
			writeTree(t, repo, map[string]string{pathN(i): bodyN(i, "expiry refresh round"+fmtInt(round))})
		}
		os.Remove(filepath.Join(repo, filepath.FromSlash(pathN(599-round))))
		writeTree(t, repo, map[string]string{"new/" + pathN(round): bodyN(round, "fresh")})
		bumpTimes(t, repo)
		if _, err := ix.Update(ctx, nil); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	fresh, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	words := []string{"token", "expiry", "refresh", "fresh", "round3", "file42"}
	got, want := snapshot(t, ix, words...), snapshot(t, fresh, words...)
	if got != want {
		t.Errorf("incremental index differs from a rebuild:\n%s\n---\n%s", got, want)
	}
	if got, want := pairCounts(t, ix), pairCounts(t, fresh); got != want {
		t.Errorf("incremental thesaurus differs from a rebuild:\n%s\n---\n%s", got, want)
	}
	// The neighbours too: the same counts weighed by the same statistics,
	// whatever the index's segments, delta and tombstones.
	if got, want := neighbours(t, ix, words...), neighbours(t, fresh, words...); got != want {
		t.Errorf("incremental neighbours differ from a rebuild's:\n%s\n---\n%s", got, want)
	}
	var parts int
	if err := ix.db.QueryRow(`SELECT MAX(part) FROM cooc`).Scan(&parts); err != nil || parts < 5 {
		t.Errorf("a term's pairs in %d parts at most (%v): the merges of parts are not tested", parts+1, err)
	}
	if err := ix.Check(ctx); err != nil {
		t.Errorf("check of the incremental index: %v", err)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != fresh.N() || st.Segments > maxSegments+1 {
		t.Errorf("status: %+v", st)
	}

	// Nothing changed: nothing written.
	s, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Added+s.Changed+s.Deleted+s.Touched != 0 {
		t.Errorf("no-change update: %+v", s)
	}
	// A time changed, the content not: touched, not re-indexed.
	now := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(repo, filepath.FromSlash(pathN(1))), now, now)
	s, err = ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Touched != 1 || s.Changed != 0 {
		t.Errorf("touch: %+v", s)
	}
}

// bumpTimes moves every file's time forward, as a checkout would, so that
// files rewritten within the clock's resolution still look changed.
func bumpTimes(t *testing.T, dir string) {
	t.Helper()
	bump := time.Now().Add(time.Duration(len(dir)) * time.Millisecond)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			bump = bump.Add(time.Microsecond)
			os.Chtimes(p, bump, bump)
		}
		return nil
	})
}

func TestSchemaVersionRebuild(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Token() {}\n"})
	dir := t.TempDir()
	ctx := context.Background()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.db.Exec(`UPDATE meta SET value = '0' WHERE key = 'schema'`); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	var notices []string
	ix, err = buildAt(ctx, repo, Options{Dir: dir, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if len(notices) != 1 || !strings.Contains(notices[0], "rebuilding") {
		t.Errorf("notices %q, want one about rebuilding", notices)
	}
	if ix.DF(tokenize.Stem("token")) != 1 {
		t.Error("rebuilt index lacks the file")
	}
}

func TestCorruptRebuild(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Token() {}\n"})
	dir := t.TempDir()
	ctx := context.Background()
	ix, err := buildAt(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	path := ix.Path
	ix.Close()
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	var notices []string
	ix, err = buildAt(ctx, repo, Options{Dir: dir, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatalf("a corrupt index must be rebuilt, not fail: %v", err)
	}
	defer ix.Close()
	if len(notices) != 1 || !strings.Contains(notices[0], "damaged") {
		t.Errorf("notices %q", notices)
	}
	if ix.DF(tokenize.Stem("token")) != 1 {
		t.Error("rebuilt index lacks the file")
	}
}

func TestOutline(t *testing.T) {
	if structure.Parser() != structure.ParserTreeSitter {
		t.Skip("exact outlines need tree-sitter, whose grammars need cgo: this build (CGO_ENABLED=0) has the line patterns only")
	}
	ix := build(t, map[string]string{
		"src/session/session-manager.ts": "export class SessionManager {\n  refresh(id: string) {\n    return signJwt(id);\n  }\n}\n",
	})
	e := ix.Entry("src/session/session-manager.ts")
	o, err := ix.Outline(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Defs) != 2 || o.Defs[1].Name != "refresh" || o.Defs[1].Container != "SessionManager" || o.Defs[1].EndLine != 4 {
		t.Errorf("outline defs: %+v", o.Defs)
	}
	if len(o.Calls) != 1 || o.Calls[0].Name != "signJwt" || o.Calls[0].Line != 3 {
		t.Errorf("outline calls: %+v", o.Calls)
	}
	// Kept by content hash: another index of the same content reads it back.
	ix.outlines = nil
	o2, err := ix.Outline(e)
	if err != nil || len(o2.Defs) != len(o.Defs) || o2.Parser != o.Parser {
		t.Errorf("cached outline: %+v, %v", o2, err)
	}
}

// An outline a build without tree-sitter kept, the patterns', does not
// stand for tree-sitter's in a build with it: it is made again, and
// replaced. A build without tree-sitter reads it as it is.
func TestOutlineKept(t *testing.T) {
	const path = "src/session/session-manager.ts"
	src := "export class SessionManager {\n  refresh(id: string) {\n    return signJwt(id);\n  }\n}\n"
	ix := build(t, map[string]string{path: src})
	e := ix.Entry(path)
	patterns := structure.ExtractFallback(path, []byte(src))
	if _, err := ix.db.Exec(`INSERT OR REPLACE INTO outlines(hash, data) VALUES(?, ?)`, ix.hashOf(e), encodeOutline(&patterns)); err != nil {
		t.Fatal(err)
	}
	if err := ix.Snapshot(context.Background()); err != nil { // a read transaction that sees it
		t.Fatal(err)
	}
	e = ix.Entry(path)
	o, err := ix.Outline(e)
	if err != nil {
		t.Fatal(err)
	}
	want := structure.Extract(path, []byte(src))
	if !reflect.DeepEqual(o, want) {
		t.Errorf("outline:\n got  %+v\n want %+v", o, want)
	}
	var blob []byte
	if err := ix.db.QueryRow(`SELECT data FROM outlines WHERE hash = ?`, ix.hashOf(e)).Scan(&blob); err != nil {
		t.Fatal(err)
	}
	if kept, err := decodeOutline(blob); err != nil || !reflect.DeepEqual(*kept, want) {
		t.Errorf("kept outline:\n got  %+v, %v\n want %+v", kept, err, want)
	}
	if err := ix.Err(); err != nil {
		t.Error(err)
	}
}

// TestOddPaths: an index path is part of a URI; characters that would end
// or alter it must not.
func TestOddPaths(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "r#1 50%?x")
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Token() {}\n"})
	dir := filepath.Join(base, "idx#?%41")
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := os.Stat(ix.Path); err != nil {
		t.Errorf("the database is not where it should be: %v", err)
	}
	if ix.DF(tokenize.Stem("token")) != 1 {
		t.Error("the file was not indexed")
	}
}

// A segment is merged by the share of its files tombstoned: one with
// many is rewritten even when it is the only one to merge, one with few
// is kept as it is.
func TestMergeByTombstones(t *testing.T) {
	for _, c := range []struct {
		name      string
		changed   int // of the segment's 700 files
		wantMerge bool
		wantTombs int
	}{
		{"43% tombstoned", 300, true, 0},
		{"7% tombstoned", 50, false, 50},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := t.TempDir()
			writeGenerated(t, repo, 700, "token")
			ctx := context.Background()
			ix, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			for i := 0; i < c.changed; i++ {
				writeTree(t, repo, map[string]string{pathN(i): bodyN(i, "token changed")})
			}
			bumpTimes(t, repo)
			st, err := ix.Update(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var tombs int
			if err := ix.db.QueryRow(`SELECT COUNT(*) FROM tomb`).Scan(&tombs); err != nil {
				t.Fatal(err)
			}
			if (st.Merged > 0) != c.wantMerge || tombs != c.wantTombs {
				t.Errorf("merged %d segments, %d tombstones left; want a merge %v, %d left", st.Merged, tombs, c.wantMerge, c.wantTombs)
			}
		})
	}
}

// The folders' listings are kept beside the database between processes:
// a later process reads only the folders that changed, and still sees
// every change; a damaged file of listings is read as none.
func TestListingsKept(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the folders' times to stop being racy")
	}
	repo := t.TempDir()
	writeGenerated(t, repo, 40, "token")
	if !walk.KeepsListings(repo) {
		t.Skipf("no listings kept on the file system of %s", repo)
	}
	time.Sleep(2100 * time.Millisecond) // past walk's slack for racy folders
	dir := t.TempDir()
	ctx := context.Background()
	update := func(step string) Stats {
		t.Helper()
		ix, err := Open(ctx, repo, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		st, err := ix.Update(ctx, nil)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if _, err := os.Stat(ix.Path + listingsSuffix); err != nil {
			t.Errorf("%s: no listings kept: %v", step, err)
		}
		return st
	}
	if st := update("first"); st.Added != 40 {
		t.Fatalf("first update: %+v", st)
	}
	writeTree(t, repo, map[string]string{"pkg3/added.go": "package pkg3\n\nfunc Added() {}\n"})
	if err := os.Remove(filepath.Join(repo, filepath.FromSlash(pathN(5)))); err != nil {
		t.Fatal(err)
	}
	if st := update("an added and a deleted file"); st.Added != 1 || st.Deleted != 1 {
		t.Errorf("an added and a deleted file: %+v", st)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "index.db"+listingsSuffix))
	if len(paths) != 1 {
		t.Fatalf("listings files %v", paths)
	}
	if err := os.WriteFile(paths[0], []byte("hone listings\x02 damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeTree(t, repo, map[string]string{"pkg4/more.go": "package pkg4\n"})
	if st := update("damaged listings"); st.Added != 1 || st.Deleted != 0 {
		t.Errorf("damaged listings: %+v", st)
	}

	// A listing that lost an entry under its folder's status, as a file
	// system that does not move a folder's times would leave it: a
	// rebuild reads every folder whatever the listings say.
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths[0], dropEntry(t, data, path.Base(pathN(6))), 0o600); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Rebuild(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 41 {
		t.Errorf("rebuild beside a listing that lost a file: %d files, want 41", st.Files)
	}
}

// dropEntry rewrites encoded walk.Listings without the entries called
// name, its checksum made anew.
func dropEntry(t *testing.T, data []byte, name string) []byte {
	t.Helper()
	const magic = "hone listings\x03"
	if !bytes.HasPrefix(data, []byte(magic)) {
		t.Fatalf("listings of another version: %q", data[:min(len(data), len(magic))])
	}
	b := data[len(magic) : len(data)-4]
	out := []byte(magic)
	uv := func() uint64 { v, n := binary.Uvarint(b); b = b[n:]; return v }
	sv := func() int64 { v, n := binary.Varint(b); b = b[n:]; return v }
	str := func() string { n := uv(); s := string(b[:n]); b = b[n:]; return s }
	put := func(s string) { out = binary.AppendUvarint(out, uint64(len(s))); out = append(out, s...) }
	count := uv()
	out = binary.AppendUvarint(out, count)
	dropped := 0
	for range count {
		put(str())
		out = binary.AppendVarint(out, sv())  // mtime
		out = binary.AppendVarint(out, sv())  // ctime
		out = binary.AppendUvarint(out, uv()) // inode
		out = binary.AppendVarint(out, sv())  // size
		out = binary.AppendUvarint(out, uv()) // links
		var kept []byte
		n, k := uv(), 0
		for range n {
			nm, typ := str(), b[0]
			b = b[1:]
			if nm == name {
				dropped++
				continue
			}
			kept = binary.AppendUvarint(kept, uint64(len(nm)))
			kept = append(append(kept, nm...), typ)
			k++
		}
		out = append(binary.AppendUvarint(out, uint64(k)), kept...)
	}
	if dropped != 1 {
		t.Fatalf("dropped %d entries called %s", dropped, name)
	}
	out = append(out, b...) // the git indexes' answers, as they were
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}
