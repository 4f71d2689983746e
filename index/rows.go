package index

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"unsafe"

	"modernc.org/sqlite"
)

// The table of rows, the definers by name (defs), holds no blob to seal:
// each row has a checksum of its own instead, c, of the rest of the row.
// Most of a row is its key, and a key that damage changed leaves its row
// where no lookup of the key finds it, beside the rows of the key it had:
// the reads of a key read the row either side of its rows too, and a row
// out of its place in the order, or unlike its checksum, is damage. Check
// reads every row. The thesaurus's counts (cooc) are a sealed blob a term
// that names its term, read the same way: a row whose key is not the one
// its blob names is damage.

// rowMask keeps a row's checksum to 23 bits, which SQLite stores in three
// bytes: of the rows damage changes, one in eight million would pass. At
// 31 bits, the index of a 5,000-file repository took 0.8 MB more, at 15, 0.7 MB less.
const rowMask = 1<<23 - 1

// corruptRow is the error of a row of table that damage changed. It is
// errCorrupt for errors.Is.
type corruptRow struct{ table, key string }

func (e corruptRow) Error() string {
	return fmt.Sprintf("corrupt row of %s at %q", e.table, e.key)
}

func (e corruptRow) Is(target error) bool { return target == errCorrupt }

// strCRC is the CRC-32C of a string, continuing crc.
func strCRC(crc uint32, s string) uint32 {
	return crc32.Update(crc, castagnoli, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// defCheck is the checksum of the row of the definers saying that file
// defines name.
func defCheck(name string, file int64) int64 {
	var b [9]byte // the name, a 0, the file
	binary.LittleEndian.PutUint64(b[1:], uint64(file))
	return int64(crc32.Update(strCRC(0, name), castagnoli, b[:]) & rowMask)
}

// keyedSQL is the query of keyedRows of the columns cols of a table
// whose primary key starts with the text column key and goes on with
// more: the last row before ?1, then those from ?1 on, in order, limit of
// them at most when limit is above 0.
func keyedSQL(table, cols, key, more string, limit int) string {
	tail := ""
	if limit > 0 {
		tail = fmt.Sprintf(" LIMIT %d", limit)
	}
	return `SELECT ` + cols + ` FROM (SELECT ` + cols + ` FROM ` + table + ` WHERE ` + key + ` < ?1 ORDER BY ` + key + ` DESC, ` + more + ` DESC LIMIT 1)
		UNION ALL SELECT ` + cols + ` FROM (SELECT ` + cols + ` FROM ` + table + ` WHERE ` + key + ` >= ?1 ORDER BY ` + key + `, ` + more + tail + `)`
}

// keyedRows reads the rows of key from a table whose primary key starts
// with a text column, by stmt, of keyedSQL: the last row before key's,
// then key's, in order, and the first after them. scan scans a row and
// returns its key and whether it matches its checksum; take keeps the row
// scanned last, one of key's. A row that does not match its checksum, or
// is out of the order of the rows read, is damage: an error errors.Is
// errCorrupt.
func keyedRows(ctx context.Context, stmt *sql.Stmt, table, key string,
	scan func(*sql.Rows) (string, bool, error), take func()) error {
	rows, err := stmt.QueryContext(ctx, key)
	if err != nil {
		return err
	}
	defer rows.Close()
	for first := true; rows.Next(); first = false {
		k, ok, err := scan(rows)
		if err != nil {
			return err
		}
		// Only the first row, the one before, is before key.
		if !ok || k < key && !first {
			return corruptRow{table, k}
		}
		if k > key {
			return nil
		}
		if k == key {
			take()
		}
	}
	return rows.Err()
}

// checkRows reads every row of a table of rows, the definers, and checks
// each against its checksum, in SQL: a tenth of the time of scanning them
// into Go. A row whose key damage changed is
// checked as any other; the order of the rows is SQLite's check's.
func checkRows(ctx context.Context, q queryer, table string) error {
	var query string
	switch table {
	case "defs":
		query = `SELECT name FROM defs WHERE NOT hone_def_ok(name, file, c) LIMIT 1`
	default:
		return fmt.Errorf("no table of rows %s", table)
	}
	var key string
	err := q.QueryRowContext(ctx, query).Scan(&key)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	return corruptRow{table, key}
}

// The SQL function of checkRows: whether a row of the definers (name,
// file, c) matches its checksum.
func init() {
	sqlite.MustRegisterFunction("hone_def_ok", &sqlite.FunctionImpl{NArgs: 3, Deterministic: true, VolatileArgs: true,
		Scalar: func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			name, ok1 := args[0].(string)
			file, ok2 := args[1].(int64)
			c, ok3 := args[2].(int64)
			return ok1 && ok2 && ok3 && defCheck(name, file) == c, nil
		}})
}
