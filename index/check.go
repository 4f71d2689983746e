package index

import (
	"context"
	"fmt"
	"strings"
)

// Check reads the whole index, as a retrieval would read any part of it:
// SQLite's check of its pages and records (PRAGMA quick_check), then every
// blob against its checksum. It returns an error IsDamaged reports on when
// it finds damage: Rebuild builds a new index then.
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

func (ix *Index) check(ctx context.Context) error {
	q := ix.reader()
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
		`SELECT doc FROM files`, `SELECT data FROM postings`, `SELECT stems FROM tomb`,
		`SELECT pairs FROM cooc_out`, `SELECT data FROM snapshot`, `SELECT data FROM outlines`,
	} {
		if err := eachBlob(ctx, q, c, func(b []byte) error { _, err := unseal(b); return err }); err != nil {
			return fmt.Errorf("check index %s: %s: %w", ix.Path, strings.TrimPrefix(c, "SELECT "), err)
		}
	}
	return nil
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
