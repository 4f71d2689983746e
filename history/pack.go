package history

import (
	"encoding/binary"
	"errors"
	"math"
)

// The cache keeps every commit known in one blob, a pack, so that a search
// reads it in one go: a table of the strings the commits use (their terms
// and files), then each commit with its hash, parents, subject, and its
// terms and files as indexes into the table.
//
// packVersion is a pack's first byte; a pack of another version reads as
// damaged, and the history is read from git again. 1 is the only version
// there has been (b6d46c1, with the pack): a pack whose contents are made
// differently changes schemaVersion instead (3 did).
const packVersion = 1

var errPack = errors.New("damaged history pack")

func encodePack(cs []*Commit) []byte {
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
		for _, t := range c.Terms {
			id(t)
		}
		for _, f := range c.Files {
			id(f)
		}
	}
	b := []byte{packVersion}
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, s := range table {
		str(s)
	}
	b = binary.AppendUvarint(b, uint64(len(cs)))
	for _, c := range cs {
		str(c.Hash)
		b = binary.AppendUvarint(b, uint64(len(c.parents)))
		for _, p := range c.parents {
			str(p)
		}
		str(c.Subject)
		b = binary.AppendUvarint(b, uint64(len(c.Terms)))
		for _, t := range c.Terms {
			b = binary.AppendUvarint(b, uint64(ids[t]))
		}
		b = binary.AppendUvarint(b, uint64(len(c.Files)))
		for _, f := range c.Files {
			b = binary.AppendUvarint(b, uint64(ids[f]))
		}
	}
	return b
}

// decodePack reads a pack; a damaged one is an error, never a panic.
func decodePack(b []byte) ([]*Commit, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] != packVersion {
		return nil, errPack
	}
	b = b[1:]
	var bad bool
	num := func() int {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > math.MaxInt32 {
			bad = true
			return 0
		}
		b = b[n:]
		return int(v)
	}
	str := func() string {
		n := num()
		if bad || n > len(b) {
			bad = true
			return ""
		}
		s := string(b[:n])
		b = b[n:]
		return s
	}
	nt := num()
	if bad || nt > len(b) {
		return nil, errPack
	}
	table := make([]string, nt)
	for i := range table {
		table[i] = str()
	}
	nc := num()
	if bad || nc > len(b) {
		return nil, errPack
	}
	ref := func() string {
		i := num()
		if bad || i >= len(table) {
			bad = true
			return ""
		}
		return table[i]
	}
	cs := make([]*Commit, 0, nc)
	for range nc {
		c := &Commit{Hash: str()}
		np := num()
		if bad || np > len(b) {
			return nil, errPack
		}
		for range np {
			c.parents = append(c.parents, str())
		}
		c.Subject = str()
		n := num()
		if bad || n > len(b) {
			return nil, errPack
		}
		c.Terms = make([]string, n)
		for i := range c.Terms {
			c.Terms[i] = ref()
		}
		n = num()
		if bad || n > len(b) {
			return nil, errPack
		}
		if n > 0 {
			c.Files = make([]string, n)
			for i := range c.Files {
				c.Files[i] = ref()
			}
		}
		if bad {
			return nil, errPack
		}
		cs = append(cs, c)
	}
	return cs, nil
}
