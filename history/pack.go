package history

import (
	"encoding/binary"
	"errors"
	"math"
	"unsafe"
)

// The cache keeps every commit known in one blob, a pack, so that a search
// reads it in one go: a table of the strings the commits use (their terms
// and files), then each commit with its hash, committer time, parents,
// subject, and its terms and files as indexes into the table.
//
// A pack also names the head whose history it was written for, with
// that history's length: its first commits are that history, in its
// order, so that a read of the same head takes them as they are, with no
// walk of the commits' parents (cache.log) and no table of them by hash.
//
// packVersion is a pack's first byte; a pack of another version reads as
// damaged, and the history is read from git again. 1 came with the pack
// (b6d46c1); 2 adds each commit's committer time, after its hash
// (schemaVersion 7); 3 the head and the length of its history, after the
// version. A pack of version 2 is read as one of no head. A pack whose
// contents are made differently, in the same layout, changes
// schemaVersion instead (3 did).
const packVersion = 3

// pack is what a pack holds: the commits, and the head whose history its
// first n commits are ("" and 0 for none).
type pack struct {
	commits []*Commit
	head    string
	n       int
}

var errPack = errors.New("damaged history pack")

func encodePack(pk pack) []byte {
	cs := pk.commits
	ids := map[string]int{}
	var table []string
	id := func(s string) int {
		if i, ok := ids[s]; ok {
			return i
		}
		ids[s] = len(table)
		table = append(table, s)
		return len(table) - 1
	}
	for _, c := range cs {
		c.eachTerm(func(t string) { id(t) })
		for _, f := range c.Files {
			id(f)
		}
	}
	b := []byte{packVersion}
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	str(pk.head)
	b = binary.AppendUvarint(b, uint64(pk.n))
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, s := range table {
		str(s)
	}
	b = binary.AppendUvarint(b, uint64(len(cs)))
	for _, c := range cs {
		str(c.Hash)
		b = binary.AppendVarint(b, c.time)
		b = binary.AppendUvarint(b, uint64(len(c.parents)))
		for _, p := range c.parents {
			str(p)
		}
		str(c.Subject)
		b = binary.AppendUvarint(b, uint64(c.termCount()))
		c.eachTerm(func(t string) { b = binary.AppendUvarint(b, uint64(ids[t])) })
		b = binary.AppendUvarint(b, uint64(len(c.Files)))
		for _, f := range c.Files {
			b = binary.AppendUvarint(b, uint64(ids[f]))
		}
	}
	return b
}

// decodePack reads a pack; a damaged one is an error, never a panic. The
// strings it gives share one copy of the pack, and the commits and their
// lists a few arrays: a history of 20,000 commits decodes in a handful of
// allocations, not one per string.
func decodePack(raw []byte) (pack, error) {
	return decodeString(string(raw))
}

// decodeString is decodePack over a string: the commits' strings are
// cut from it.
func decodeString(s string) (pack, error) {
	if len(s) == 0 {
		return pack{}, nil
	}
	version := s[0]
	if version != packVersion && version != 2 {
		return pack{}, errPack
	}
	s = s[1:]
	// The varints are read from the string's bytes, seen without a copy.
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	pos := 0
	var bad bool
	num := func() int {
		v, n := binary.Uvarint(b[pos:])
		if n <= 0 || v > math.MaxInt32 {
			bad = true
			return 0
		}
		pos += n
		return int(v)
	}
	str := func() string {
		n := num()
		if bad || n > len(s)-pos {
			bad = true
			return ""
		}
		pos += n
		return s[pos-n : pos]
	}
	var p pack
	if version >= 3 {
		p.head = str()
		p.n = num()
	}
	nt := num()
	if bad || nt > len(s)-pos {
		return pack{}, errPack
	}
	table := make([]string, nt)
	for i := range table {
		table[i] = str()
	}
	nc := num()
	if bad || nc > (len(s)-pos)/minCommitBytes || p.n > nc {
		return pack{}, errPack
	}
	// Each commit's lists are cut from a shared pool; a list the pool's
	// rest cannot hold starts a new one.
	var pool []string
	list := func(n int) []string {
		if n > cap(pool)-len(pool) {
			pool = make([]string, 0, max(n, 1<<14))
		}
		pool = pool[:len(pool)+n]
		return pool[len(pool)-n : len(pool) : len(pool)]
	}
	ref := func() string {
		i := num()
		if bad || i >= len(table) {
			bad = true
			return ""
		}
		return table[i]
	}
	all := make([]Commit, nc)
	cs := make([]*Commit, nc)
	for k := range all {
		c := &all[k]
		c.Hash = str()
		t, tn := binary.Varint(b[pos:])
		if tn <= 0 {
			return pack{}, errPack
		}
		pos += tn
		c.time = t
		np := num()
		if bad || np > len(s)-pos {
			return pack{}, errPack
		}
		if np > 0 {
			c.parents = list(np)
			for i := range c.parents {
				c.parents[i] = str()
			}
		}
		c.Subject = str()
		n := num()
		if bad || n > len(s)-pos {
			return pack{}, errPack
		}
		// A commit's terms stay numbers in the pack (Commit.eachTerm),
		// checked here.
		from := pos
		for range n {
			if i := num(); bad || i >= len(table) {
				return pack{}, errPack
			}
		}
		c.packed = packedTerms{ids: s[from:pos], n: n, table: &table}
		n = num()
		if bad || n > len(s)-pos {
			return pack{}, errPack
		}
		if n > 0 {
			c.Files = list(n)
			for i := range c.Files {
				c.Files[i] = ref()
			}
		}
		if bad {
			return pack{}, errPack
		}
		cs[k] = c
	}
	p.commits = cs
	return p, nil
}

// minCommitBytes is the fewest bytes a commit takes in a pack: the lengths
// of its hash and subject, and the counts of its parents, terms and files
// (its time, one byte more, is not counted).
// A damaged count of commits is refused before memory is made for them.
const minCommitBytes = 5
