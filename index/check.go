package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
)

// Check reads the whole index, as a retrieval would read any part of it:
// SQLite's check of its pages and records (PRAGMA quick_check), then every
// blob against its checksum, every blob of the thesaurus against the term
// of its row, and every row of the definers against its own checksum. It
// returns an error IsDamaged reports on when it finds damage: Rebuild
// builds a new index then.
func (ix *Index) Check(ctx context.Context) error {
	if ix.db == nil {
		return fmt.Errorf("check index of %s: the index is closed", ix.Root)
	}
	err := ix.check(ctx)
	if isCorrupt(err) {
		// As a read that met damage: Rebuild builds a new index.
		ix.mu.Lock()
		ix.fail(err)
		ix.mu.Unlock()
	}
	return err
}

// CheckChanged is Check, but only where the database file may have
// changed since a Check last passed, in this process or another: a Check
// that passes leaves a stamp of the file's status beside it (size, times,
// inode, as Entry.clean compares a repository's files), and a database
// whose status still matches it, with no write in its WAL, is not read
// again. A stamp taken within racySlack of the file's last change proves
// nothing, as a racy file's status does not, and is not left. At 100,000
// files, reading the whole index was most of a no-change update.
func (ix *Index) CheckChanged(ctx context.Context) error {
	if ix.db == nil {
		return fmt.Errorf("check index of %s: the index is closed", ix.Root)
	}
	before, ok := ix.checkStamp()
	if ok {
		if b, err := os.ReadFile(ix.Path + stampSuffix); err == nil && string(b) == before {
			return nil
		}
	}
	if err := ix.Check(ctx); err != nil {
		return err
	}
	// The status after the check too: a write meanwhile leaves no stamp.
	if after, ok := ix.checkStamp(); ok && after == before {
		// A stamp that cannot be written costs the next update a check.
		_ = os.WriteFile(ix.Path+stampSuffix, []byte(after), 0o600)
	} else {
		_ = os.Remove(ix.Path + stampSuffix)
	}
	return nil
}

// stampSuffix names the file beside the database that holds the status
// of the database when a Check last passed.
const stampSuffix = "-checked"

// checkStamp is the status of the database file as a stamp of it: false
// when it proves nothing, the file having changed within racySlack of
// now, or its WAL holding writes not yet in it.
func (ix *Index) checkStamp() (string, bool) {
	if fi, err := os.Stat(ix.Path + "-wal"); err == nil && fi.Size() > 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	fi, err := os.Stat(ix.Path)
	if err != nil {
		return "", false
	}
	ino, ctime := inodeOf(fi)
	mtime, ct := nanos(fi.ModTime()), nanos(ctime)
	if max(mtime, ct) >= time.Now().UnixNano()-racySlack {
		return "", false
	}
	return strings.Join([]string{strconv.FormatInt(fi.Size(), 10), strconv.FormatInt(mtime, 10),
		strconv.FormatInt(ct, 10), strconv.FormatUint(ino, 10)}, " ") + "\n", true
}

func (ix *Index) check(ctx context.Context) error {
	// Two halves side by side, each on a connection of its own (within a
	// write, both on its transaction): SQLite's check of the pages with
	// the blobs' checksums, and the thesaurus's and the definers' rows. A
	// first index of django waited for the whole, 0.2 s of CPU, after its
	// last write.
	q, other := ix.reader(), ix.reader()
	if ix.wtx == nil && ix.db != nil {
		other = ix.db
	}
	rowsDone := make(chan error, 1)
	go func() { rowsDone <- checkRowsOf(ctx, other) }()
	err := ix.checkPages(ctx, q)
	if rerr := <-rowsDone; err == nil && rerr != nil {
		err = fmt.Errorf("check index %s: %w", ix.Path, rerr)
	}
	return err
}

// checkRowsOf checks the thesaurus's blobs against the terms of their
// rows, and the definers' rows against their checksums.
func checkRowsOf(ctx context.Context, q queryer) error {
	if err := checkPairs(ctx, q); err != nil {
		return err
	}
	return checkRows(ctx, q, "defs")
}

// checkPages is SQLite's check of the pages and records, then every blob
// against its checksum.
func (ix *Index) checkPages(ctx context.Context, q queryer) error {
	rows, err := q.QueryContext(ctx, `PRAGMA quick_check`)
	if err != nil {
		return fmt.Errorf("check index %s: %w", ix.Path, err)
	}
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return fmt.Errorf("check index %s: %w", ix.Path, err)
		}
		// One line of each problem, without SQLite's header.
		s = strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(s, "*** in database main ***", "")), "\n", "; ")
		if s != "ok" && s != "" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return fmt.Errorf("check index %s: %w", ix.Path, err)
	}
	rows.Close()
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], fmt.Sprintf("and %d more", len(problems)-3))
		}
		return fmt.Errorf("check index %s: database disk image is malformed: %s", ix.Path, strings.Join(problems, "; "))
	}
	// The checksums alone: a blob that matches its checksum decodes.
	for _, c := range []string{
		`SELECT doc FROM files`, `SELECT stems FROM tomb`,
		`SELECT pairs FROM cooc_out`, `SELECT data FROM snapshot`, `SELECT data FROM outlines`,
	} {
		if err := eachBlob(ctx, q, c, func(b []byte) error { _, err := unseal(b); return err }); err != nil {
			return fmt.Errorf("check index %s: %s: %w", ix.Path, strings.TrimPrefix(c, "SELECT "), err)
		}
	}
	if err := checkPostings(ctx, q); err != nil {
		return fmt.Errorf("check index %s: data FROM postings: %w", ix.Path, err)
	}
	return nil
}

// checkPostings checks every block of postings against the checksum it
// was sealed with, under its row's block and segment.
func checkPostings(ctx context.Context, q queryer) error {
	rows, err := q.QueryContext(ctx, `SELECT block, seg, data FROM postings`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var block, seg int64
		var b []byte
		if err := rows.Scan(&block, &seg, &b); err != nil {
			return err
		}
		if _, err := unsealKeyed(blockKey(block, seg), b); err != nil {
			return err
		}
	}
	return rows.Err()
}

// checkPairs decodes every blob of the thesaurus's counts, and checks
// that it names the term and part of its row.
func checkPairs(ctx context.Context, q queryer) error {
	rows, err := q.QueryContext(ctx, `SELECT a, part, pairs FROM cooc`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var a string
		var part int
		var blob []byte
		if err := rows.Scan(&a, &part, &blob); err != nil {
			return fmt.Errorf("%w (%v)", corruptRow{"cooc", a}, err)
		}
		// Checked as decodePairs reads them, with no pair made.
		if key, p, err := walkPairs(blob, func(int) {}, func([]byte, int) {}); err != nil || key != a || p != part {
			return corruptRow{"cooc", a}
		}
	}
	return rows.Err()
}

// eachBlob decodes every blob a query returns.
func eachBlob(ctx context.Context, q queryer, query string, decode func([]byte) error) error {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return err
		}
		if err := decode(b); err != nil {
			return err
		}
	}
	return rows.Err()
}
