package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hone-tools/hone/structure"
)

// Outline returns the exact outline of a file, parsed with tree-sitter
// where a grammar exists: definitions with their exact ranges and
// containers, calls and references. Indexing uses the fast extractor for
// every file; the exact outline is made for the few files a retrieval looks
// at closely, and kept by content hash so that it is parsed once.
//
// The outlines kept are a cache: one that cannot be read is made again
// from the file, and the error of that read is recorded for Err, which
// callers must check. A kept outline whose checksum fails is made again
// and replaced, silently; so is one a build without tree-sitter kept
// (structure.Parser), where this build has a grammar for its language.
func (ix *Index) Outline(e *Entry) (structure.Outline, error) {
	hash := ix.hashOf(e)
	key := string(hash)
	ix.mu.Lock()
	if o, ok := ix.outlines[key]; ok && key != "" {
		ix.mu.Unlock()
		return *o, nil
	}
	ix.mu.Unlock()
	if key != "" {
		var blob []byte
		err := ix.reader().QueryRowContext(context.Background(), `SELECT data FROM outlines WHERE hash = ?`, hash).Scan(&blob)
		switch {
		case err == nil:
			if o, err := decodeOutline(blob); err == nil && !patternsOnly(o) {
				ix.keepOutline(key, o)
				return *o, nil
			}
		case !errors.Is(err, sql.ErrNoRows):
			ix.failLocking(fmt.Errorf("read the outline of %s: %w", e.Path, err))
		}
	}
	src, err := ix.Content(e)
	if err != nil {
		return structure.Outline{}, err
	}
	o := structure.Extract(e.Path, src)
	ix.keepOutline(key, &o)
	if key != "" {
		ix.storeOutline(hash, &o)
	}
	return o, nil
}

// patternsOnly reports an outline made by the patterns alone, with no
// error to say why, of a language this build parses with tree-sitter:
// one a build without tree-sitter kept. Where tree-sitter fails on a file,
// the patterns' outline says why in Err.
func patternsOnly(o *structure.Outline) bool {
	return o.Parser == structure.ParserFallback && o.Err == "" && slices.Contains(structure.TreeSitterLanguages(), o.Lang)
}

func (ix *Index) keepOutline(key string, o *structure.Outline) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.outlines == nil {
		ix.outlines = map[string]*structure.Outline{}
	}
	ix.outlines[key] = o
}

// storeOutline saves an outline for other processes and later runs. It is
// a cache: when another process holds the write lock, it gives up rather
// than wait.
//
// Its errors are not reported: the outline is made again when needed. But
// a connection whose busy timeout could not be set back is closed rather
// than put back in the pool, where every read on it would fail at once
// when another process writes instead of waiting its turn.
func (ix *Index) storeOutline(hash []byte, o *structure.Outline) {
	if ix.wtx != nil || ix.db == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err != nil {
		dropConn(conn) // it may be set all the same
		return
	}
	// A damaged outline read is replaced.
	conn.ExecContext(ctx, `INSERT OR REPLACE INTO outlines(hash, data) VALUES(?, ?)`, hash, encodeOutline(o))
	if _, err := conn.ExecContext(context.Background(), `PRAGMA busy_timeout = 60000`); err != nil {
		dropConn(conn)
	}
}

func encodeOutline(o *structure.Outline) []byte {
	var e enc
	e.str(o.Lang)
	e.str(o.Parser)
	e.str(o.Err)
	e.defs(o.Defs)
	e.strs(o.Imports)
	e.uint(uint64(len(o.Calls)))
	for _, c := range o.Calls {
		e.str(c.Name)
		e.uint(uint64(c.Line))
	}
	e.uint(uint64(len(o.Refs)))
	for _, r := range o.Refs {
		e.str(r.Name)
		e.str(r.Kind)
		e.uint(uint64(r.Line))
	}
	return seal(e.b)
}

func decodeOutline(b []byte) (*structure.Outline, error) {
	b, err := unseal(b)
	if err != nil {
		return nil, err
	}
	d := dec{b: b}
	o := &structure.Outline{Lang: d.str(), Parser: d.str(), Err: d.str()}
	o.Defs = d.defs()
	o.Imports = d.strs()
	if n := d.count(); n > 0 {
		o.Calls = make([]structure.Call, n)
		for i := range o.Calls {
			o.Calls[i] = structure.Call{Name: d.str(), Line: int(d.uint())}
		}
	}
	if n := d.count(); n > 0 {
		o.Refs = make([]structure.Ref, n)
		for i := range o.Refs {
			o.Refs[i] = structure.Ref{Name: d.str(), Kind: d.str(), Line: int(d.uint())}
		}
	}
	return o, d.err
}
