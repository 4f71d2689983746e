package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// pagesOf lists the pages of a table of the database at p, leaf or
// internal as pagetype says, and its page size.
func pagesOf(t *testing.T, p, table, pagetype string) ([]int64, int64) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+p+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var size int64
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno`, table, pagetype)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var pages []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return pages, size
}

// cells are the offsets in the page of the payloads of the cells of a
// page of an index b-tree, leaf or interior, in order, as SQLite's file
// format lays them out. Not for page 1, whose header comes first.
func cells(page []byte) []int {
	hdr, child := 8, 0
	if page[0] == 2 { // interior
		hdr, child = 12, 4
	}
	n := int(binary.BigEndian.Uint16(page[3:]))
	var out []int
	for i := 0; i < n; i++ {
		at := int(binary.BigEndian.Uint16(page[hdr+2*i:])) + child
		_, k := sqliteVarint(page[at:])
		out = append(out, at+k)
	}
	return out
}

// firstText is the first column of the record at payload, a text, and its
// offset from payload.
func firstText(payload []byte) (string, int) {
	hdr, k := sqliteVarint(payload)
	st, _ := sqliteVarint(payload[k:])
	n := int(st-13) / 2
	return string(payload[hdr : int(hdr)+n]), int(hdr)
}

// sqliteVarint reads SQLite's varint, big-endian.
func sqliteVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9 && i < len(b); i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return v, 0
}

// rowsIndex builds an index of a repository of n files of damageRepo's,
// closed, and returns the repository, the index's folder and its path
// relative to it, and what answer answers from it.
func rowsIndex(t *testing.T, n int) (repo, dir, rel, want string) {
	t.Helper()
	noRacy(t)
	repo = damageRepo(t, n)
	dir = t.TempDir()
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if want, err = answer(ix); err != nil {
		t.Fatal(err)
	}
	rel, _ = filepath.Rel(dir, ix.Path)
	ix.Close()
	return repo, dir, rel, want
}

// damagedCopy opens a copy of the index at from, with damage done to it
// by damage, and returns what read answers from it and the error of its
// reads, and the error of Check.
func damagedCopy(t *testing.T, repo, from, rel string, damage func(f *os.File), read func(*Index) (string, error)) (string, error, error) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, rel)
	copyFile(t, filepath.Join(from, rel), p)
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	damage(f)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ix, err := OpenExisting(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	got, readErr := read(ix)
	return got, readErr, ix.Check(ctx)
}

// TestDamagedKey: a row of the definers or of the thesaurus, in a leaf
// page or an interior one, whose key damage changed to one before its
// place in the order or after it, is where no lookup of its key finds it,
// and may send the lookups of the keys beside it astray; the reads of its
// key meet it all the same, beside the rows of the key, and so does Check.
func TestDamagedKey(t *testing.T) {
	repo, dir, rel, _ := rowsIndex(t, 300)
	p := filepath.Join(dir, rel)
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]func(*Index, string) (string, error){
		"defs": func(ix *Index, name string) (string, error) {
			return fmt.Sprint(ix.Definers(name)), ix.Err()
		},
		"cooc": func(ix *Index, stem string) (string, error) {
			return fmt.Sprint(related(ix, stem, 5)), ix.Err()
		},
	}
	interior := 0
	for _, table := range []string{"defs", "cooc"} {
		for _, pagetype := range []string{"leaf", "internal"} {
			pages, size := pagesOf(t, p, table, pagetype)
			if len(pages) == 0 {
				continue
			}
			if pagetype == "internal" {
				interior++
			}
			// The middle row of the middle page.
			pg := pages[len(pages)/2]
			page := src[(pg-1)*size : pg*size]
			cs := cells(page)
			payload := cs[len(cs)/2]
			key, off := firstText(page[payload:])
			at := (pg-1)*size + int64(payload+off)
			for _, c := range []byte{'0', '~'} {
				what := fmt.Sprintf("%s, %s page %d: the row of %q made to start with %q", table, pagetype, pg, key, c)
				got, readErr, checkErr := damagedCopy(t, repo, dir, rel, func(f *os.File) {
					if _, err := f.WriteAt([]byte{c}, at); err != nil {
						t.Fatal(err)
					}
				}, func(ix *Index) (string, error) { return reads[table](ix, key) })
				if !IsDamaged(readErr) {
					t.Errorf("%s: the reads of %q met no damage (%v), answered %.300s", what, key, readErr, got)
				}
				if !IsDamaged(checkErr) {
					t.Errorf("%s: Check found no damage (%v)", what, checkErr)
				}
			}
		}
	}
	if interior == 0 {
		t.Error("no interior page of either table")
	}
}

// TestDamagedRows overwrites a few random bytes of the leaf pages of the
// definers and of the thesaurus: the reads meet the damage, or answer as
// the undamaged index does; and Check finds the damage wherever they did.
func TestDamagedRows(t *testing.T) {
	if testing.Short() {
		t.Skip("damages many indexes")
	}
	repo, dir, rel, want := rowsIndex(t, 300)
	p := filepath.Join(dir, rel)
	rng := rand.New(rand.NewSource(22))
	var met, same int
	for _, table := range []string{"defs", "cooc"} {
		pages, size := pagesOf(t, p, table, "leaf")
		for i := 0; i < 24; i++ {
			pg := pages[rng.Intn(len(pages))]
			// Past the page's header, where its cells lie.
			off := (pg-1)*size + 8 + rng.Int63n(size-8-4)
			span := make([]byte, 1+rng.Intn(4))
			rng.Read(span)
			what := fmt.Sprintf("%s: %d bytes overwritten at %d (page %d)", table, len(span), off, pg)
			got, readErr, checkErr := damagedCopy(t, repo, dir, rel, func(f *os.File) {
				if _, err := f.WriteAt(span, off); err != nil {
					t.Fatal(err)
				}
			}, answer)
			switch {
			case readErr != nil && !IsDamaged(readErr):
				t.Errorf("%s: the reads failed, and not for damage: %v", what, readErr)
			case readErr != nil:
				met++
				if !IsDamaged(checkErr) {
					t.Errorf("%s: the reads met damage (%v), Check none (%v)", what, readErr, checkErr)
				}
			case got != want:
				t.Errorf("%s: the index answers differently from the undamaged one", what)
			default:
				same++
			}
		}
	}
	t.Logf("%d damaged copies met by the reads, %d answered as the undamaged index", met, same)
}

// TestCheckRowsSQL: Check's SQL function agrees with defCheck, and tells
// a row that does not match.
func TestCheckRowsSQL(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range []struct {
		query string
		args  []any
		want  bool
	}{
		{`SELECT hone_def_ok(?, ?, ?)`, []any{"NewServer", 7, defCheck("NewServer", 7)}, true},
		{`SELECT hone_def_ok(?, ?, ?)`, []any{"NewServer", 8, defCheck("NewServer", 7)}, false},
		{`SELECT hone_def_ok(?, ?, ?)`, []any{"NewServex", 7, defCheck("NewServer", 7)}, false},
		{`SELECT hone_def_ok(?, ?, ?)`, []any{7, 7, defCheck("7", 7)}, false},
		{`SELECT hone_def_ok(?, ?, ?)`, []any{nil, 7, defCheck("", 7)}, false},
	} {
		var got bool
		if err := db.QueryRow(tc.query, tc.args...).Scan(&got); err != nil {
			t.Fatalf("%s %v: %v", tc.query, tc.args, err)
		}
		if got != tc.want {
			t.Errorf("%s %v = %v, want %v", tc.query, tc.args, got, tc.want)
		}
	}
}

// TestDamagedCellPointers overwrites four bytes of the cell pointers of
// each leaf page of the postings, which say where each row of the page
// lies: a row they lose is not found, and its block's postings would be
// read without it, with no error. SQLite's cell size check
// (cell_size_check) finds the damage when the page is read: the reads
// meet the damage, or answer as the undamaged index does.
func TestDamagedCellPointers(t *testing.T) {
	if testing.Short() {
		t.Skip("damages many indexes")
	}
	repo, dir, rel, want := rowsIndex(t, 500)
	pages, size := pagesOf(t, filepath.Join(dir, rel), "postings", "leaf")
	if len(pages) < 5 {
		t.Fatalf("%d leaf pages of postings", len(pages))
	}
	var met int
	for _, pg := range pages {
		// Past the page's 8-byte header, among its first cell pointers.
		at := (pg-1)*size + 96
		got, readErr, checkErr := damagedCopy(t, repo, dir, rel, func(f *os.File) {
			if _, err := f.WriteAt([]byte{0x5a, 0x13, 0xc7, 0x02}, at); err != nil {
				t.Fatal(err)
			}
		}, answer)
		switch {
		case IsDamaged(readErr):
			met++
			if !IsDamaged(checkErr) {
				t.Errorf("page %d: the reads met damage that Check did not (%v)", pg, checkErr)
			}
		case readErr != nil:
			t.Errorf("page %d: the reads failed, and not for damage: %v", pg, readErr)
		case got != want:
			t.Errorf("page %d: the damaged index answers differently, with no error", pg)
		}
	}
	if met == 0 {
		t.Error("no damage met: the test checks nothing")
	}
}
