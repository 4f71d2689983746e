package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"sort"
	"unsafe"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// The blobs are varint-encoded. A doc blob holds a file's field lengths,
// terms, outline and calls; a postings blob holds, for one term of one
// segment, the files that have it with their field frequencies. Every blob
// stored ends with a CRC-32C of the rest, so that damage to the file is
// caught when the blob is read rather than answered from.

var errCorrupt = errors.New("corrupt blob")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// seal appends the checksum of a blob to it: sealKeyed with no key.
func seal(b []byte) []byte { return sealKeyed(nil, b) }

// unseal checks a sealed blob and returns it without its checksum.
func unseal(b []byte) ([]byte, error) { return unsealKeyed(nil, b) }

// sealKeyed appends to a blob the checksum of key and the blob: a blob
// read under another key than its own fails it, as a damaged one does.
// With no key it is the checksum of the blob alone.
func sealKeyed(key, b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, keyedChecksum(key, b))
}

// unsealKeyed checks a blob sealKeyed sealed under key, and returns it
// without its checksum.
func unsealKeyed(key, b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, errCorrupt
	}
	n := len(b) - 4
	if keyedChecksum(key, b[:n]) != binary.LittleEndian.Uint32(b[n:]) {
		return nil, errCorrupt
	}
	return b[:n], nil
}

// keyedChecksum is the CRC-32C of key followed by b.
func keyedChecksum(key, b []byte) uint32 {
	return crc32.Update(crc32.Checksum(key, castagnoli), castagnoli, b)
}

type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

type dec struct {
	b   []byte
	err error
	// arena, when not nil, holds the strings the decoding makes, one
	// allocation for many: a doc's stems and names.
	arena []byte
}

// keep returns the string of parts, joined: made in the arena where there
// is one, else allocated. The arena's bytes are never written twice, so
// the strings made in it never change.
func (d *dec) keep(a string, b []byte) string {
	n := len(a) + len(b)
	if d.arena == nil {
		return a + string(b)
	}
	if n == 0 {
		return ""
	}
	if cap(d.arena)-len(d.arena) < n {
		d.arena = make([]byte, 0, max(n, 2*cap(d.arena)))
	}
	at := len(d.arena)
	d.arena = append(append(d.arena, a...), b...)
	return unsafe.String(&d.arena[at], n)
}

func (d *dec) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) str() string {
	n := d.uint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) {
		d.err = errCorrupt
		return ""
	}
	s := d.keep("", d.b[:n])
	d.b = d.b[n:]
	return s
}

// defKinds are the kinds of definition written as their number here, one
// past their index; 0 is followed by the kind written out. The list is
// part of the format: a change to it changes schemaVersion.
var defKinds = []string{"function", "method", "class", "type", "interface", "enum", "variable", "constant",
	"module", "export", "section", "key", "const", "var", "trait", "struct", "property", "field", "macro"}

var defKindNum = func() map[string]uint64 {
	m := make(map[string]uint64, len(defKinds))
	for i, k := range defKinds {
		m[k] = uint64(i + 1)
	}
	return m
}()

func (e *enc) defs(defs []structure.Def) {
	e.uint(uint64(len(defs)))
	line := 0
	for i, d := range defs {
		e.str(d.Name)
		if k := defKindNum[d.Kind]; k > 0 {
			e.uint(k)
		} else {
			e.uint(0)
			e.str(d.Kind)
		}
		e.container(defs, i)
		e.int(int64(d.Line - line))
		line = d.Line
		e.int(int64(d.EndLine - d.Line))
	}
}

// A definition's container is most often the one before it's, or a
// definition of the same file, a class its methods follow: it is written
// as what it repeats where it can.
const (
	containerNone     = iota // no container
	containerAsBefore        // the container of the definition before
	containerWritten         // the container written out
	containerDef             // the name of a definition before: containerDef + how many lie between
)

// containerReach is how many definitions back a container is looked for.
const containerReach = 256

// container writes the container of defs[i].
func (e *enc) container(defs []structure.Def, i int) {
	c := defs[i].Container
	switch {
	case c == "":
		e.uint(containerNone)
		return
	case i > 0 && defs[i-1].Container == c:
		e.uint(containerAsBefore)
		return
	}
	// The search looks a bounded way back: a file of many definitions
	// costs no more than that a definition.
	for j := i - 1; j >= max(0, i-containerReach); j-- {
		if defs[j].Name == c {
			e.uint(containerDef + uint64(i-1-j))
			return
		}
	}
	e.uint(containerWritten)
	e.str(c)
}

// tf writes a term's frequencies: a mask of the fields it occurs in, with
// extra, a bit past them, then the frequencies of those fields. A term is
// in one or two fields of five most often, and once in each: a second bit
// past the fields (tfOnes) says so, and the frequencies are not written.
func (e *enc) tf(tf [NumFields]uint16, extra bool) {
	var mask uint64
	ones := true
	for f, v := range tf {
		if v != 0 {
			mask |= 1 << f
			ones = ones && v == 1
		}
	}
	if extra {
		mask |= 1 << NumFields
	}
	if ones && mask&tfFields != 0 {
		e.uint(mask | tfOnes)
		return
	}
	e.uint(mask)
	for _, v := range tf {
		if v != 0 {
			e.uint(uint64(v))
		}
	}
}

// tfFields are a frequencies' mask's bits of the fields, tfOnes its bit
// for a frequency of one in each.
const (
	tfFields = 1<<NumFields - 1
	tfOnes   = 1 << (NumFields + 1)
)

// tf reads what enc.tf wrote, and its extra bit.
func (d *dec) tf(tf *[NumFields]uint16) bool {
	mask := d.uint()
	if mask >= tfOnes<<1 || mask&tfOnes != 0 && mask&tfFields == 0 {
		d.err = errCorrupt
		return false
	}
	for f := range tf {
		switch {
		case mask&(1<<f) == 0:
			tf[f] = 0
		case mask&tfOnes != 0:
			tf[f] = 1
		default:
			tf[f] = uint16(d.uint())
		}
	}
	return mask&(1<<NumFields) != 0
}

// prefixed writes s as the length of the prefix it shares with last and
// the rest: sorted names share much.
func (e *enc) prefixed(s, last string) {
	n := shared(s, last)
	e.uint(uint64(n))
	e.str(s[n:])
}

// shared is the length of the prefix s shares with t.
func shared(s, t string) int {
	n := 0
	for n < len(s) && n < len(t) && s[n] == t[n] {
		n++
	}
	return n
}

// prefixed reads what enc.prefixed wrote.
func (d *dec) prefixed(last string) string {
	n := d.uint()
	if n > uint64(len(last)) {
		d.err = errCorrupt
		return ""
	}
	rest := d.uint()
	if d.err != nil || rest > uint64(len(d.b)) {
		d.err = errCorrupt
		return ""
	}
	s := d.keep(last[:n], d.b[:rest])
	d.b = d.b[rest:]
	return s
}

func (e *enc) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (d *dec) defs() []structure.Def {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]structure.Def, n)
	line := 0
	for i := range out {
		df := &out[i]
		df.Name = d.str()
		switch k := d.uint(); {
		case k == 0:
			df.Kind = d.str()
		case k <= uint64(len(defKinds)):
			df.Kind = defKinds[k-1]
		default:
			d.err = errCorrupt
		}
		switch c := d.uint(); {
		case c == containerNone:
		case c == containerAsBefore && i > 0:
			df.Container = out[i-1].Container
		case c == containerWritten:
			df.Container = d.str()
		case c >= containerDef && c-containerDef < uint64(i):
			df.Container = out[i-1-int(c-containerDef)].Name
		default:
			d.err = errCorrupt
		}
		line += int(d.int())
		df.Line = line
		df.EndLine = df.Line + int(d.int())
	}
	return out
}

func (d *dec) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// count reads a length that must not exceed what remains of the blob.
func (d *dec) count() int {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.err = errCorrupt
		return 0
	}
	return int(n)
}

func encodeDoc(doc *Doc) []byte {
	var e enc
	// The stems are sorted, the calls too: each is written as what it
	// adds to the one before. A surface is written only where there is
	// one, as the extra bit of the frequencies says.
	e.uint(uint64(len(doc.Terms)))
	last := ""
	for _, t := range doc.Terms {
		e.prefixed(t.Stem, last)
		last = t.Stem
		e.tf(t.TF, t.Surface != "")
		if t.Surface != "" {
			// A surface is most often its stem and an ending.
			e.prefixed(t.Surface, t.Stem)
		}
	}
	e.defs(doc.Defs)
	e.strs(doc.Imports)
	e.uint(uint64(len(doc.Calls)))
	last = ""
	for _, s := range doc.Calls {
		e.prefixed(s, last)
		last = s
	}
	e.pairs(doc.Pairs)
	return seal(e.b)
}

// decodeDoc fills doc's terms, outline and calls from a blob.
func decodeDoc(b []byte, doc *Doc) error {
	b, err := unseal(b)
	if err != nil {
		return err
	}
	// The doc's strings share an arena about as large as what they decode
	// from: they are many and short.
	d := dec{b: b, arena: make([]byte, 0, len(b))}
	doc.Terms = make([]TermFreq, d.count())
	last := ""
	for i := range doc.Terms {
		t := &doc.Terms[i]
		t.Stem = d.prefixed(last)
		last = t.Stem
		if d.tf(&t.TF) {
			t.Surface = d.prefixed(t.Stem)
		}
	}
	doc.Defs = d.defs()
	doc.Imports = d.strs()
	if n := d.count(); n > 0 {
		doc.Calls = make([]string, n)
		last = ""
		for i := range doc.Calls {
			doc.Calls[i] = d.prefixed(last)
			last = doc.Calls[i]
		}
	}
	doc.Pairs = d.pairs(len(doc.Terms))
	return d.err
}

// posting is one file's frequencies of a term.
type posting struct {
	id int64
	tf [NumFields]uint16
}

// encodePostings writes postings sorted by id.
func encodePostings(ps []posting) []byte {
	e := enc{b: make([]byte, 0, len(ps)*(2+int(NumFields)))}
	e.uint(uint64(len(ps)))
	var last int64
	for _, p := range ps {
		e.uint(uint64(p.id - last))
		last = p.id
		e.tf(p.tf, false)
	}
	return e.b
}

// eachPosting decodes a postings blob.
func eachPosting(b []byte, fn func(posting)) error {
	d := dec{b: b}
	n := d.count()
	var p posting
	for i := 0; i < n && d.err == nil; i++ {
		p.id += int64(d.uint())
		if d.tf(&p.tf) {
			d.err = errCorrupt
		}
		if d.err == nil {
			fn(p)
		}
	}
	return d.err
}

// The catalog's snapshot holds each entry as what differs from the entry
// before it: the path as the length of the prefix it shares with the last
// one and the rest, the language as its number in a table written first,
// the times as signed differences (from the last entry's, the change time
// from the entry's own modification time). The content hash is left in
// the files table, read for the few files whose status changed (hashes).
// At 100,000 files it is 3 MB where a field-by-field encoding took 11,
// and decoded into a few allocations rather than three an entry.

func (e *enc) int(v int64) { e.b = binary.AppendVarint(e.b, v) }

func (d *dec) int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errCorrupt
		return 0
	}
	d.b = d.b[n:]
	return v
}

// bytes reads n bytes, sharing d's.
func (d *dec) bytes(n uint64) []byte {
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.b)) {
		d.err = errCorrupt
		return nil
	}
	b := d.b[:n:n]
	d.b = d.b[n:]
	return b
}

func encodeEntries(es []*Entry) []byte {
	// About 30 bytes an entry: made at once rather than grown.
	e := enc{b: make([]byte, 0, 64+32*len(es))}
	langs := map[string]int{}
	var table []string
	for _, x := range es {
		if _, ok := langs[x.Lang]; !ok {
			langs[x.Lang] = len(table)
			table = append(table, x.Lang)
		}
	}
	e.strs(table)
	e.uint(uint64(len(es)))
	// The paths' bytes in all, for the decoder's buffer.
	pathBytes := 0
	for _, x := range es {
		pathBytes += len(x.Path)
	}
	e.uint(uint64(pathBytes))
	var last Entry
	for _, x := range es {
		e.int(x.ID - last.ID)
		shared := 0
		for shared < len(x.Path) && shared < len(last.Path) && x.Path[shared] == last.Path[shared] {
			shared++
		}
		e.uint(uint64(shared))
		e.str(x.Path[shared:])
		e.uint(uint64(langs[x.Lang]))
		e.uint(uint64(x.Kind))
		e.uint(uint64(x.Size))
		e.int(x.ModTime - last.ModTime)
		e.int(int64(x.ino - last.ino))
		e.int(x.ctime - x.ModTime)
		e.int(x.checked - last.checked)
		e.uint(uint64(x.seg))
		for _, l := range x.Len {
			e.uint(uint64(l))
		}
		last = *x
	}
	return seal(e.b)
}

// An entryCursor reads a snapshot's entries one at a time, in the order
// they were written, allocating nothing an entry: the path of the entry
// it holds is in a buffer that the next entry overwrites.
type entryCursor struct {
	d         dec
	langs     []string
	left      int    // entries not read yet
	pathBytes uint64 // the paths' bytes in all, as the header says
	// e is the entry read last, its Path unset; path is its path.
	e    Entry
	path []byte
}

func newEntryCursor(b []byte) (*entryCursor, error) {
	b, err := unseal(b)
	if err != nil {
		return nil, err
	}
	c := &entryCursor{d: dec{b: b}}
	c.langs = c.d.strs()
	c.left = c.d.count()
	c.pathBytes = c.d.uint()
	if c.d.err != nil {
		return nil, c.d.err
	}
	if c.pathBytes > uint64(len(c.d.b))*1024 {
		return nil, errCorrupt
	}
	return c, nil
}

// next reads the next entry into c.e and c.path: false at the end, or
// when the snapshot is damaged (c.d.err).
func (c *entryCursor) next() bool {
	if c.left == 0 || c.d.err != nil {
		return false
	}
	d, last := &c.d, c.e
	x := &c.e
	x.ID = last.ID + d.int()
	shared := d.uint()
	if shared > uint64(len(c.path)) {
		d.err = errCorrupt
		return false
	}
	c.path = append(c.path[:shared], d.bytes(d.uint())...)
	lang := d.uint()
	if lang >= uint64(len(c.langs)) {
		d.err = errCorrupt
		return false
	}
	x.Lang = c.langs[lang]
	x.Kind = walk.Kind(d.uint())
	x.Size = int64(d.uint())
	x.ModTime = last.ModTime + d.int()
	x.ino = last.ino + uint64(d.int())
	x.ctime = x.ModTime + d.int()
	x.checked = last.checked + d.int()
	x.seg = int64(d.uint())
	for f := range x.Len {
		x.Len[f] = int32(d.uint())
	}
	if d.err != nil {
		return false
	}
	c.left--
	return true
}

// decodeEntries decodes a snapshot, without hashes; the entries share
// nothing with b.
func decodeEntries(b []byte) ([]*Entry, error) {
	c, err := newEntryCursor(b)
	if err != nil {
		return nil, err
	}
	n := c.left
	entries := make([]Entry, n)
	out := make([]*Entry, n)
	// The paths are gathered in one buffer, made one string at the end.
	paths := make([]byte, 0, c.pathBytes)
	ends := make([]int, n)
	for i := range entries {
		if !c.next() {
			if c.d.err == nil {
				c.d.err = errCorrupt
			}
			return nil, c.d.err
		}
		paths = append(paths, c.path...)
		ends[i] = len(paths)
		entries[i] = c.e
		out[i] = &entries[i]
	}
	// The buffer is never written again: the paths share it, uncopied.
	all := unsafe.String(unsafe.SliceData(paths), len(paths))
	start := 0
	for i, end := range ends {
		entries[i].Path = all[start:end]
		start = end
	}
	return out, nil
}

// A catalogSummary is what a catalog's figures are, read from its
// snapshot without making its entries.
type catalogSummary struct {
	files   int
	total   [NumFields]int64
	source  int64
	inDelta int
	// sorted: the entries are in the byte order of their paths, strictly,
	// the order of a walk.
	sorted bool
}

// summarize reads a snapshot through, as a check of it, for its figures.
func summarize(b []byte) (catalogSummary, error) {
	c, err := newEntryCursor(b)
	if err != nil {
		return catalogSummary{}, err
	}
	sum := catalogSummary{sorted: true}
	var prev []byte
	for c.next() {
		sum.files++
		for f := range sum.total {
			sum.total[f] += int64(c.e.Len[f])
		}
		sum.source += c.e.Size
		if c.e.seg == 0 {
			sum.inDelta++
		}
		if sum.sorted && sum.files > 1 && bytes.Compare(prev, c.path) >= 0 {
			sum.sorted = false
		}
		prev = append(prev[:0], c.path...)
	}
	if c.d.err != nil {
		return catalogSummary{}, c.d.err
	}
	if c.left != 0 {
		return catalogSummary{}, errCorrupt
	}
	return sum, nil
}

// numBlocks is how many blocks a segment's postings are spread over, by a
// hash of the stem: a few thousand rows a segment rather than one per term.
const numBlocks = 2048

// blockOf is the block a stem's postings live in.
func blockOf(stem string) int64 {
	h := uint32(2166136261)
	for i := 0; i < len(stem); i++ {
		h ^= uint32(stem[i])
		h *= 16777619
	}
	return int64(h % numBlocks)
}

// blockEntry is one stem's postings in a block, with its surface: the
// shortest word its files write for it, which may be the stem itself.
type blockEntry struct {
	stem, surface string
	df            int
	data          []byte // encodePostings
}

// blockKey is the key a block of postings is sealed under: its block and
// its segment. A row found through a damaged index entry holds another
// block's, or another segment's, postings, and fails its checksum.
func blockKey(block, seg int64) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(nil, uint64(block)), uint64(seg))
}

// encodeBlock writes entries sorted by stem: a directory, then the
// postings, sealed under the block's key (blockKey).
func encodeBlock(block, seg int64, entries []blockEntry) []byte {
	var e enc
	e.uint(uint64(len(entries)))
	for _, b := range entries {
		e.str(b.stem)
		if b.surface == b.stem {
			e.str("") // the most common surface, in no bytes
		} else {
			e.str(b.surface)
		}
		e.uint(uint64(b.df))
		e.uint(uint64(len(b.data)))
	}
	for _, b := range entries {
		e.b = append(e.b, b.data...)
	}
	return sealKeyed(blockKey(block, seg), e.b)
}

// decodeBlock reads the block of postings stored under block and seg; the
// entries' data share b.
func decodeBlock(block, seg int64, b []byte) ([]blockEntry, error) {
	b, err := unsealKeyed(blockKey(block, seg), b)
	if err != nil {
		return nil, err
	}
	d := dec{b: b}
	out := make([]blockEntry, d.count())
	lens := make([]int, len(out))
	for i := range out {
		out[i].stem = d.str()
		if out[i].surface = d.str(); out[i].surface == "" {
			out[i].surface = out[i].stem
		}
		out[i].df = int(d.uint())
		lens[i] = d.count()
		if i > 0 && out[i].stem <= out[i-1].stem {
			return nil, errCorrupt // findEntry searches them in order
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	rest := d.b
	for i, n := range lens {
		if n > len(rest) {
			return nil, errCorrupt
		}
		out[i].data, rest = rest[:n:n], rest[n:]
	}
	return out, nil
}

// findEntry finds a stem in a decoded block.
func findEntry(entries []blockEntry, stem string) *blockEntry {
	i := sort.Search(len(entries), func(i int) bool { return entries[i].stem >= stem })
	if i < len(entries) && entries[i].stem == stem {
		return &entries[i]
	}
	return nil
}
