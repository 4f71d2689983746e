package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
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
