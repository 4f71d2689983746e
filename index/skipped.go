package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"github.com/hone-tools/hone/redact"
)

// Skipped counts the files an update could not index, and says why: the
// walk and the reads skip them and go on.
type Skipped struct {
	Unreadable int    `json:"unreadable"` // files and folders that could not be read
	TooLong    int    `json:"too_long"`   // paths longer than the system allows
	Example    string `json:"example"`    // the first of them, and why
}

// Any reports whether anything was skipped.
func (s Skipped) Any() bool { return s.Unreadable+s.TooLong > 0 }

// String says what was skipped, in a line: "3 unreadable files or folders
// (e.g. keys/prod.pem: permission denied), 1 path over the system's
// limit".
func (s Skipped) String() string {
	var parts []string
	if s.Unreadable > 0 {
		parts = append(parts, plural(s.Unreadable, "unreadable file or folder", "unreadable files or folders"))
	}
	if s.TooLong > 0 {
		parts = append(parts, plural(s.TooLong, "path over the system's length limit", "paths over the system's length limit"))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	out := strings.Join(parts, ", ")
	if s.Example != "" {
		out += " (e.g. " + redact.QuotePath(s.Example) + ")"
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// skip counts a path the update could not read, by the error that says
// why. A file that vanished meanwhile is not counted: it is simply gone.
func (s *Skipped) skip(rel string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if errors.Is(err, syscall.ENAMETOOLONG) {
		s.TooLong++
	} else {
		s.Unreadable++
	}
	if s.Example == "" {
		cause := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			cause = pe.Err
		}
		// Redacted whole before it is cut: a token the cut split would
		// pass the redaction in pieces.
		shown, _ := redact.String(rel)
		s.Example = shortPath(shown) + ": " + cause.Error()
	}
}

// shortPath keeps a path short enough for a line, whatever its length.
func shortPath(p string) string {
	const keep = 80
	if len(p) <= keep {
		return p
	}
	cut := keep / 2
	for cut > 0 && p[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	end := len(p) - keep/2
	for end < len(p) && p[end]&0xC0 == 0x80 {
		end++
	}
	return p[:cut] + "…" + p[end:]
}

// readSkipped reads what the last update skipped.
func readSkipped(ctx context.Context, q queryer) (Skipped, error) {
	var s Skipped
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'skipped'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if json.Unmarshal([]byte(v), &s) != nil {
		// A damaged count is no reason to fail: the next update writes it.
		return Skipped{}, nil
	}
	return s, nil
}

// saveSkipped keeps what an update skipped, for Status, when it changed.
func (ix *Index) saveSkipped(ctx context.Context, s Skipped) error {
	old, err := readSkipped(ctx, ix.reader())
	if err != nil {
		return fmt.Errorf("read index %s: %w", ix.Path, err)
	}
	if old == s {
		return nil
	}
	if s.Any() {
		// Said when it changes, not on every update: the first index
		// of a tree with a folder it may not read says so once.
		ix.notice("left out " + s.String() + "; hone status lists what it skips")
	}
	v, _ := json.Marshal(s)
	return ix.write(ctx, "write", func(w *writer) {
		w.exec(`INSERT INTO meta(key, value) VALUES('skipped', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, string(v))
	})
}
