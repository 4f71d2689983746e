package index

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"unsafe"
)

// The tables of rows, the definers by name (defs) and the thesaurus's
// pair counts (cooc), hold no blob to seal: each row has a checksum of its
// own instead, c, of the rest of the row. Most of a row is its key, and a
// key that damage changed leaves its row where no lookup of the key finds
// it, beside the rows of the key it had: the reads of a key read the row
// either side of its rows too, and a row out of its place in the order,
// or unlike its checksum, is damage. Check reads every row.

// rowMask keeps a row's checksum to 23 bits, which SQLite stores in three
// bytes: of the rows damage changes, one in eight million would pass. At
// 31 bits, the index of django took 0.8 MB more, at 15, 0.7 MB less.
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

// pairCheck is the checksum of the row of the thesaurus counting n files
// that pair a with b: the checksum of the pair plus the count, so that
// adding to the count adds as much to it, as the SQL that writes the
// counts does (pairCheckSQL).
func pairCheck(a, b string, n int64) int64 {
	h := strCRC(strCRC(0, a), "\x00")
	return (int64(strCRC(h, b)) + n) & rowMask
}

// pairCheckSQL is pairCheck's sum in SQL, for an upsert adding
// excluded.n to a row's count.
const pairCheckSQL = `c = (c + excluded.n) & 8388607`

// keyedSQL is the query of keyedRows of the columns cols of a table
// whose primary key starts with the text column key and goes on with
// more: the last row before ?1, then those from ?1 on, in order.
func keyedSQL(table, cols, key, more string) string {
	return `SELECT ` + cols + ` FROM (SELECT ` + cols + ` FROM ` + table + ` WHERE ` + key + ` < ?1 ORDER BY ` + key + ` DESC, ` + more + ` DESC LIMIT 1)
		UNION ALL SELECT ` + cols + ` FROM (SELECT ` + cols + ` FROM ` + table + ` WHERE ` + key + ` >= ?1 ORDER BY ` + key + `, ` + more + `)`
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

// checkRows reads every row of a table of rows in the order of its key,
// the text columns first, and checks each against its checksum and its
// place in the order: its key past the one before.
func checkRows(ctx context.Context, q queryer, table string) error {
	var query string
	var texts int
	var check func(t [2]sql.RawBytes, v, c int64) bool
	switch table {
	case "defs":
		query, texts = `SELECT name, '', file, c FROM defs ORDER BY name, file`, 1
		check = func(t [2]sql.RawBytes, file, c int64) bool {
			return defCheck(unsafe.String(unsafe.SliceData(t[0]), len(t[0])), file) == c
		}
	case "cooc":
		query, texts = `SELECT a, b, n, c FROM cooc ORDER BY a, b`, 2
		check = func(t [2]sql.RawBytes, n, c int64) bool {
			return pairCheck(unsafe.String(unsafe.SliceData(t[0]), len(t[0])),
				unsafe.String(unsafe.SliceData(t[1]), len(t[1])), n) == c
		}
	default:
		return fmt.Errorf("no table of rows %s", table)
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	var t [2]sql.RawBytes
	var v, c int64
	var prev [2][]byte
	var prevV int64
	first := true
	for rows.Next() {
		if err := rows.Scan(&t[0], &t[1], &v, &c); err != nil {
			return fmt.Errorf("%w (%v)", corruptRow{table, string(t[0])}, err)
		}
		if !check(t, v, c) {
			return corruptRow{table, string(t[0])}
		}
		// The key: the texts, then for the definers the file.
		order := bytes.Compare(prev[0], t[0])
		if order == 0 {
			if texts == 2 {
				order = bytes.Compare(prev[1], t[1])
			} else {
				order = cmpInt(prevV, v)
			}
		}
		if !first && order >= 0 {
			return corruptRow{table, string(t[0])}
		}
		first = false
		prev[0], prev[1], prevV = append(prev[0][:0], t[0]...), append(prev[1][:0], t[1]...), v
	}
	return rows.Err()
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
