package index

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hone-tools/hone/tokenize"
)

// TestPostingsFillTheirPages: a block of postings larger than a quarter of
// a page (16 KiB) stays on its page. Kept in a WITHOUT ROWID table
// (format 20), such a row spilled onto overflow pages left mostly empty.
func TestPostingsFillTheirPages(t *testing.T) {
	// Words every file holds: each gives its block a row of postings of
	// about 6 KiB, past what a WITHOUT ROWID table keeps on its page (65%
	// of the pages were free in format 20; 17% now).
	var common []string
	for i := range 60 {
		common = append(common, fmt.Sprintf("shared%03dword", i))
	}
	files := map[string]string{}
	for i := range 1500 {
		files[fmt.Sprintf("pkg%d/f%d.py", i%50, i)] = fmt.Sprintf("# %s\ndef own_%d():\n    return %d\n", strings.Join(common, " "), i, i)
	}
	dir := t.TempDir()
	writeTree(t, dir, files)
	ix, err := buildAt(context.Background(), dir, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var pages, free, payload int64
	if err := ix.reader().QueryRowContext(context.Background(),
		`SELECT SUM(pgsize), SUM(unused), SUM(payload) FROM dbstat WHERE name = 'postings'`).Scan(&pages, &free, &payload); err != nil {
		t.Fatal(err)
	}
	if payload == 0 || float64(free) > 0.25*float64(pages) {
		t.Errorf("the postings take %d bytes of pages for %d of rows, %d of them free: want a quarter free at most", pages, payload, free)
	}
}

// TestPostingsUnderTheirKey: a block of postings is sealed under its block
// and segment, so that a row found through a damaged index entry, another
// block's or another segment's, is damage, not a term that is missing.
func TestPostingsUnderTheirKey(t *testing.T) {
	es := []blockEntry{{stem: "token", surface: "token", df: 1, data: encodePostings([]posting{{id: 1}})}}
	b := encodeBlock(7, 2, es)
	tests := []struct {
		block, seg int64
		ok         bool
	}{
		{7, 2, true},
		{7, 3, false},
		{8, 2, false},
		{2, 7, false},
	}
	for _, tt := range tests {
		got, err := decodeBlock(tt.block, tt.seg, b)
		if (err == nil) != tt.ok {
			t.Errorf("block sealed under (7, 2), read under (%d, %d): error %v, want ok %v", tt.block, tt.seg, err, tt.ok)
		}
		if tt.ok && (len(got) != 1 || got[0].stem != "token") {
			t.Errorf("read under its key: %+v", got)
		}
	}

	// In an index, its files in a segment (flushAt of them at least): one
	// block's row given another's data.
	files := map[string]string{}
	for i := range flushAt + 10 {
		files[fmt.Sprintf("a/f%d.go", i)] = fmt.Sprintf("package a\n\n// Token checks %d.\nfunc Token%d() {}\n", i, i)
	}
	ix := build(t, files)
	token, check := blockOf(tokenize.Stem("token")), blockOf(tokenize.Stem("check"))
	if token == check {
		t.Skip("both words in one block")
	}
	if _, err := ix.db.Exec(`UPDATE postings SET data = (SELECT data FROM postings WHERE block = ?) WHERE block = ?`, check, token); err != nil {
		t.Fatal(err)
	}
	if err := ix.Snapshot(context.Background()); err != nil { // read again, caches dropped
		t.Fatal(err)
	}
	ix.DF(tokenize.Stem("token"))
	if err := ix.Err(); err == nil || !IsDamaged(err) {
		t.Errorf("a block read with another block's postings: Err %v, want damage", err)
	}
	if err := ix.Check(context.Background()); err == nil {
		t.Error("Check passed an index whose block holds another block's postings")
	}
}

// FuzzDecodeBlock: a block of postings, sealed under its key, decodes or
// fails; it never panics; what it decodes has its stems in order, as
// findEntry searches them, finds each of them, and is written again as
// it was read.
func FuzzDecodeBlock(f *testing.F) {
	es := []blockEntry{
		{stem: "check", surface: "checks", df: 2, data: encodePostings([]posting{{id: 1}, {id: 5}})},
		{stem: "token", surface: "token", df: 1, data: encodePostings([]posting{{id: 3}})},
	}
	b := encodeBlock(3, 1, es)
	f.Add(b[:len(b)-4])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, payload []byte) {
		entries, err := decodeBlock(3, 1, sealKeyed(blockKey(3, 1), payload))
		if err != nil {
			return
		}
		for i, e := range entries {
			_ = eachPosting(e.data, func(posting) {})
			if i > 0 && e.stem <= entries[i-1].stem {
				t.Fatalf("stems out of order: %q after %q", e.stem, entries[i-1].stem)
			}
			if got := findEntry(entries, e.stem); got == nil || got.stem != e.stem {
				t.Fatalf("findEntry(%q) = %v", e.stem, got)
			}
		}
		for _, e := range entries {
			if e.surface == "" {
				t.Fatalf("%q: no surface; a block's surface is its stem where it writes none", e.stem)
			}
		}
		again, err := decodeBlock(3, 1, encodeBlock(3, 1, entries))
		if err != nil || !reflect.DeepEqual(normal(again), normal(entries)) {
			t.Fatalf("written again and read: %v, %+v; want %+v", err, again, entries)
		}
	})
}

// normal makes empty postings nil, so that a block read and one written
// again compare equal.
func normal(es []blockEntry) []blockEntry {
	out := make([]blockEntry, len(es))
	for i, e := range es {
		out[i] = e
		if len(e.data) == 0 {
			out[i].data = nil
		}
	}
	return out
}
