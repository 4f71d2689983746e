package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"modernc.org/sqlite"
)

// ErrFull is wrapped by the error of an update that met a full disk, when
// the index is left readable as its last commit left it: a caller may
// answer from it, saying that it is not up to date.
var ErrFull = errors.New("the disk is full")

// SQLite's codes for a full disk: SQLITE_FULL, and SQLITE_IOERR_SHMSIZE,
// which a WAL database's shared memory file gives when it cannot grow.
const (
	sqliteFull         = 13
	sqliteIOErrShmSize = 4874
)

// isFull reports errors of a full disk.
func isFull(err error) bool {
	if err == nil {
		return false
	}
	var se *sqlite.Error
	if errors.As(err, &se) && (se.Code()&0xff == sqliteFull || se.Code() == sqliteIOErrShmSize) {
		return true
	}
	return errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), "database or disk is full")
}

// testPragmas are added to the database's URI: tests set a small
// max_page_count, a real "database or disk is full".
var testPragmas string

// full cleans up after a write that met a full disk, whose transaction was
// rolled back, and returns the error to report. An index that was never
// complete, whose first update could not finish, is deleted: it would
// keep the space it took, and answers nothing a caller could use. Any other
// is kept as its last commit left it, its WAL folded into the database and
// emptied where there is room, so that no WAL is left holding the space,
// and is read again: the caller may answer from it.
func (ix *Index) full(ctx context.Context, cause error) error {
	ix.endRead()
	where := filepath.Dir(filepath.Dir(ix.Path))
	var complete int
	err := ix.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM snapshot`).Scan(&complete)
	if err != nil || complete == 0 {
		if rerr := ix.remove(); rerr != nil {
			return fmt.Errorf("the disk is full: the index of %s could not be built, nor its start removed: %w", ix.Root, rerr)
		}
		return fmt.Errorf("the disk is full: the index of %s could not be built in %s (%v); free some space there, or choose another place for indexes (hone's --index-dir, HONE_INDEX_DIR, or Options.Dir), and update the index again",
			ix.Root, where, cause)
	}
	ix.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	if err := ix.Snapshot(ctx); err != nil {
		return fmt.Errorf("the disk is full, and the index of %s cannot be read: %w", ix.Root, err)
	}
	return fmt.Errorf("%w: the index of %s could not be brought up to date in %s and answers as it was; free some space there", ErrFull, ix.Root, where)
}

// walEmpty reports whether the database at path has nothing in a WAL:
// the database file alone is then the whole index.
func walEmpty(path string) bool {
	fi, err := os.Stat(path + "-wal")
	return errors.Is(err, os.ErrNotExist) || err == nil && fi.Size() == 0
}

// sqliteBusy and sqliteLocked are SQLite's codes for a lock held
// elsewhere.
const (
	sqliteBusy   = 5
	sqliteLocked = 6
)

// isBusy reports errors of a lock another connection holds.
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == sqliteBusy || c == sqliteLocked
	}
	return strings.Contains(err.Error(), "database is locked")
}
