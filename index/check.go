package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
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
	if testHookCheck != nil {
		testHookCheck()
	}
	err := ix.check(ctx)
	if isCorrupt(err) {
		// As a read that met damage: Rebuild builds a new index.
		ix.mu.Lock()
		ix.fail(err)
		ix.vouched = vouch{}
		ix.mu.Unlock()
	}
	return err
}

// testHookCheck, if set, is called as Check begins to read the index.
var testHookCheck func()

// CheckChanged is Check, but only where the database may have changed
// since a Check last passed, in this process or another, by a program
// other than this one. A check that passes leaves a stamp of the
// database's status beside it (size, times, inode, as Entry.clean
// compares a repository's files) with the index's version; a database
// whose status and version still match it, with no write in its WAL, is
// not read again. At 100,000 files, reading the whole index was most of a
// no-change update.
//
// Nor is what this process wrote read again: an index it made, or one it
// found checked (by the stamp) before it wrote, is vouched for as long as
// each of its writes follows the last, no other process's write between
// (writer.touchVersion), and Close leaves the stamp. Reading back pages
// just written reads the memory they were written from, not the disk;
// and a first index of a 5,000-file repository, then each update that changed a file,
// then the next process's check, read the whole index twice (0.2 s of
// that first index; 0.3 s of each change at 100,000 files).
func (ix *Index) CheckChanged(ctx context.Context) error {
	if ix.db == nil {
		return fmt.Errorf("check index of %s: the index is closed", ix.Root)
	}
	// A database whose status is still the one its stamp records holds
	// the stamp's version: where that is the version vouched for, no
	// query is needed, which, the reader's connection pinned, would open
	// a connection of its own (1.5 ms of a no-change hone index on
	// django). Only while this process holds its read transaction: no
	// other process's checkpoint can then fold a write into the file
	// and leave its WAL empty, so a stamp left by a race (another
	// process's commit between a Close's version and its status) cannot
	// pass for the database's.
	ix.mu.Lock()
	vouched, pinned := ix.vouched, ix.rd != nil
	ix.mu.Unlock()
	if pinned && vouched.ok && ix.stampHolds(vouched.version) {
		return nil
	}
	v, verr := ix.latestVersion(ctx)
	if verr == nil {
		if ix.vouchedAt(v) {
			return nil
		}
		if ix.stampHolds(v) {
			ix.vouchFor(v)
			return nil
		}
	}
	before, beforeOK := ix.dbStatus()
	if err := ix.Check(ctx); err != nil {
		return err
	}
	if verr != nil {
		// The version could not be read, but the check passed.
		return nil
	}
	// Vouched for only if nothing wrote meanwhile; stamped too if the
	// status after the check is the one before it (else Close may).
	if after, err := ix.latestVersion(ctx); err != nil || after != v {
		return nil
	}
	ix.vouchFor(v)
	if after, ok := ix.dbStatus(); beforeOK && ok && after == before {
		ix.writeStamp(after, v)
	} else {
		_ = os.Remove(ix.Path + stampSuffix)
	}
	return nil
}

// latestVersion is the index's version as last committed, whatever read
// transaction is pinned (within a write, the write's).
func (ix *Index) latestVersion(ctx context.Context) (string, error) {
	var q queryer = ix.db
	if ix.wtx != nil {
		q = ix.wtx
	}
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'updated'`).Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	return v, nil
}

// stampSuffix names the file beside the database that holds the status
// of the database, and the index's version, when a Check last passed.
const stampSuffix = "-checked"

// stampText is the stamp of a database of the given status at version.
func stampText(status, version string) string {
	return status + " at " + version + "\n"
}

// dbStatus is the status of the database file: false when it proves
// nothing, its WAL holding writes not yet in it. A status taken within
// racySlack of the file's last change is no proof alone, as a racy file's
// is not (a write in the same tick of the clock may leave the same
// status): a stamp holds the index's version too, which each of hone's
// writes changes. What it cannot see is a program other than hone writing
// the file within one tick of its clock after a stamp was taken.
func (ix *Index) dbStatus() (string, bool) {
	if fi, err := os.Stat(ix.Path + "-wal"); err == nil && fi.Size() > 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	fi, err := os.Stat(ix.Path)
	if err != nil {
		return "", false
	}
	ino, ctime := inodeOf(fi)
	return strings.Join([]string{strconv.FormatInt(fi.Size(), 10), strconv.FormatInt(nanos(fi.ModTime()), 10),
		strconv.FormatInt(nanos(ctime), 10), strconv.FormatUint(ino, 10)}, " "), true
}

// stampHolds reports whether the stamp beside the database is that of its
// status now, at version.
func (ix *Index) stampHolds(version string) bool {
	status, ok := ix.dbStatus()
	if !ok {
		return false
	}
	b, err := os.ReadFile(ix.Path + stampSuffix)
	if err != nil || string(b) != stampText(status, version) {
		return false
	}
	ix.mu.Lock()
	ix.stamped = vouch{ok: true, version: version}
	ix.mu.Unlock()
	return true
}

// leaveStamp writes the stamp of the database's status at version, if
// the status proves anything and the stamp is not that already.
func (ix *Index) leaveStamp(version string) {
	status, ok := ix.dbStatus()
	if !ok {
		return
	}
	if b, err := os.ReadFile(ix.Path + stampSuffix); err == nil && string(b) == stampText(status, version) {
		return
	}
	ix.writeStamp(status, version)
}

// writeStamp writes the stamp of the database's status at version. A
// stamp that cannot be written costs the next update a check.
func (ix *Index) writeStamp(status, version string) {
	if os.WriteFile(ix.Path+stampSuffix, []byte(stampText(status, version)), 0o600) == nil {
		ix.mu.Lock()
		ix.stamped = vouch{ok: true, version: version}
		ix.mu.Unlock()
	}
}

// vouch is what an Index knows of its database without reading it: that
// the content at version was checked, or written by this process on top
// of content that was (an empty database's, for an index it made).
type vouch struct {
	ok      bool
	version string
}

// vouchFor records that the content at version is known sound.
func (ix *Index) vouchFor(version string) {
	ix.mu.Lock()
	ix.vouched = vouch{ok: true, version: version}
	ix.mu.Unlock()
}

// vouchedAt reports whether the content at version is known sound.
func (ix *Index) vouchedAt(version string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.vouched.ok && ix.vouched.version == version
}

// moveVouch follows a write of this process from one version to the
// next: what was known sound stays so only if the write followed it.
func (ix *Index) moveVouch(from, to string) {
	ix.mu.Lock()
	if ix.vouched.ok && ix.vouched.version == from {
		ix.vouched.version = to
	} else {
		ix.vouched = vouch{}
	}
	ix.mu.Unlock()
}

func (ix *Index) check(ctx context.Context) error {
	// Two halves side by side, each on a connection of its own (within a
	// write, both on its transaction): SQLite's check of the pages with
	// the blobs' checksums, and the thesaurus's and the definers' rows. A
	// first index of a 5,000-file repository waited for the whole, 0.2 s of CPU, after its
	// last write.
	// The database as it is now, not as a read transaction pinned it.
	q, other := ix.reader(), ix.reader()
	if ix.wtx == nil && ix.db != nil {
		q, other = ix.db, ix.db
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
