package index

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
)

// The thesaurus: which terms stand together in this repository's
// identifiers ("RateThrottle", "get_throttle_rate"), comments and
// docstrings ("throttle requests to limit their rate"), and which words
// document which definitions: the words of a doc comment or docstring are
// paired with the parts of the name it annotates ("reject requests when
// the system is overloaded" above AdaptiveShedder). It is counted at
// index time, per file: a pair counts once per file that holds it, so a
// word pair repeated through one file weighs no more than one mention.
//
// It is kept like the postings: the pairs of the files in the delta are
// counted when it is flushed into a segment, and those of files dropped
// from a segment wait in cooc_out until then. A retrieval adds the delta's
// pairs and takes back those waiting, so that the counts it reads are
// exact; an update of a few files writes no pair counts at all.

// Thesaurus limits.
const (
	// maxIdentParts is how many parts of one identifier are paired.
	maxIdentParts = 4
	// commentWindow pairs a comment's word with this many words before it.
	commentWindow = 2
	// maxPairs caps a file's pairs, keeping those met first.
	maxPairs = 4000
	// minPairStem is the shortest stem paired; shorter ones say little.
	minPairStem = 3
	// docWords is how many words of a doc comment are paired with the
	// name it annotates: its opening words, which say what the
	// definition is for.
	docWords = 24
	// docGap is how many lines may stand between a comment's end and the
	// definition it documents (decorators, attributes, a blank line);
	// docInside is how far into a definition its docstring may start.
	docGap    = 2
	docInside = 2
	// mentionWindow is how many words on each side of a compound
	// identifier written in prose ("the `maxFail` option stops the run")
	// are paired with its parts.
	mentionWindow = 6
	// A prose string, a help text or message in code, pairs its first
	// helpWords words with helpSubject parts of the names written with
	// it: on its lines and the helpLines lines before them. A file's
	// first maxHelpStrings prose strings are paired.
	helpWords      = 24
	helpSubject    = 8
	helpLines      = 3
	maxHelpStrings = 200
)

// pairer collects a file's pairs as its text is tokenized: the parts of
// the names the file defines, wherever they stand, and of every identifier
// in its comments; and the words of a comment near each other. The code's
// other identifiers, the names it calls and uses, are counted where they
// are defined.
//
// A stem is written by its place among the file's terms (term): a pair is
// two numbers, hashed as one, not two strings.
type pairer struct {
	set     map[uint64]struct{}
	term    func(stem string) int32 // a stem's place among the file's terms, made if new
	defs    map[string]bool         // the file's definitions, lower-cased, without separators
	pos     int                     // the identifier being read
	parts   []int32                 // its part stems
	whole   string                  // the whole identifier, as the tokenizer writes it
	inCode  bool                    // it stands outside comments
	comment []int32                 // the last comment words, within one comment span
	span    int                     // the comment span they came from, or -1
	// docs holds, for each comment span that documents a definition, the
	// part stems of the name it documents, and docN how many of its words
	// were paired with them.
	docs     map[int]docOf
	docBlock int // the block of the words counted in docN
	docN     int
	docPos   int // the word last counted in docN
	// In prose: the span of the word being read, the parts of the last
	// mentionWindow words, and the compound identifiers mentioned
	// before them whose window is still open.
	wordSpan int
	mSpan    int
	blocks   []int // for each comment span, the first span of its block
	recent   [][]int32
	mentions []mention
}

// mention is a compound identifier met in prose, and how many of the
// words after it are still paired with its parts.
type mention struct {
	parts []int32
	left  int
}

// docOf is the definition a comment span documents: the part stems of its
// name, and the first span of the comment block the span belongs to.
type docOf struct {
	name  []int32
	block int
}

// newPairer makes the pairer of a file whose definitions are defs; term
// places a stem among the file's terms, adding it (uncounted) if new.
func newPairer(defs []structure.Def, term func(stem string) int32) *pairer {
	p := &pairer{set: pairSets.Get().(map[uint64]struct{}), term: term, defs: map[string]bool{}, pos: -1, span: -1, docs: map[int]docOf{}, docBlock: -1, docPos: -1, mSpan: -1}
	for _, d := range defs {
		tokenize.EachShort(d.Name, func(t tokenize.Token) {
			if t.Whole {
				p.defs[t.Text] = true
			}
		})
	}
	return p
}

// pairSets keeps the pair sets of files analyzed, emptied, for the next
// ones: a set grows to maxPairs in many a file, and growing a map costs
// more than emptying one.
var pairSets = sync.Pool{New: func() any { return map[uint64]struct{}{} }}

// release gives the pairer's set back; the pairer is not used again.
func (p *pairer) release() {
	clear(p.set)
	pairSets.Put(p.set)
	p.set = nil
}

// document records which definitions the comment spans of src document.
// Line comments one under the other make one block. A block that ends at
// most docGap lines before a definition starts, or one that starts within
// docInside lines of a definition's first line (a docstring), documents
// it. Sections (a Markdown heading) document nothing: prose pairs its
// words as comments do.
func (p *pairer) document(src []byte, spans [][2]int, defs []structure.Def) {
	p.blocks = commentBlocks(src, spans)
	if len(spans) == 0 || len(defs) == 0 {
		return
	}
	// lineAt returns the 1-based line of byte offset off; offsets are
	// asked in increasing order.
	line, at := 1, 0
	lineAt := func(off int) int {
		off = min(max(off, at), len(src))
		line += bytes.Count(src[at:off], []byte{'\n'})
		at = off
		return line
	}
	byLine := make([]structure.Def, 0, len(defs))
	for _, d := range defs {
		if d.Kind != "section" && d.Line > 0 {
			byLine = append(byLine, d)
		}
	}
	sort.SliceStable(byLine, func(i, j int) bool { return byLine[i].Line < byLine[j].Line })
	for i := 0; i < len(spans); {
		j := i + 1
		for j < len(spans) && p.blocks[j] == i {
			j++
		}
		first := lineAt(spans[i][0])
		last := lineAt(max(spans[j-1][0], spans[j-1][1]-1))
		next := math.MaxInt // the line of the next block
		if j < len(spans) {
			next = lineAt(spans[j][0])
		}
		// The first definition that starts after the block's first line.
		k := sort.Search(len(byLine), func(k int) bool { return byLine[k].Line > first })
		var doc *structure.Def
		switch {
		case !startsLine(src, spans[i][0]):
			// A comment after code on its line speaks of that line: of
			// the key it sets, in a configuration file.
			if k > 0 && byLine[k-1].Kind == "key" && byLine[k-1].Line == first {
				doc = &byLine[k-1]
			}
		case k < len(byLine) && byLine[k].Line > last && byLine[k].Line-last <= docGap+1 && byLine[k].Line < next:
			doc = &byLine[k]
		case k > 0 && first-byLine[k-1].Line <= docInside && first <= byLine[k-1].EndLine:
			doc = &byLine[k-1]
		}
		if doc != nil {
			var name []string
			tokenize.EachShort(doc.Name, func(t tokenize.Token) {
				if !t.Whole && pairable(t) && !slices.Contains(name, t.Stem) {
					name = append(name, t.Stem)
				}
			})
			if len(name) > 0 {
				name = name[:min(len(name), maxIdentParts)]
				ids := make([]int32, len(name))
				for k, n := range name {
					ids[k] = p.term(n)
				}
				for s := i; s < j; s++ {
					p.docs[s] = docOf{name: ids, block: i}
				}
			}
		}
		i = j
	}
}

// commentBlocks returns, for each comment span, the first span of its
// block: spans with nothing but white space and at most one line break
// between them, line comments one under the other, make one block. A
// comment after code on its line starts no block for the lines under it.
func commentBlocks(src []byte, spans [][2]int) []int {
	out := make([]int, len(spans))
	for j := 1; j < len(spans); j++ {
		out[j] = j
		a, b := spans[j-1][1], spans[j][0]
		if b >= a && a <= len(src) && b <= len(src) && len(bytes.TrimSpace(src[a:b])) == 0 && bytes.Count(src[a:b], []byte{'\n'}) <= 1 &&
			(bytes.Count(src[a:b], []byte{'\n'}) == 0 || startsLine(src, spans[j-1][0]) || !startsLine(src, b)) {
			out[j] = out[j-1]
		}
	}
	return out
}

// startsLine reports whether only white space and comment or string
// openers stand before offset off on its line.
func startsLine(src []byte, off int) bool {
	off = min(off, len(src))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return len(bytes.Trim(src[start:off], " \t/*#'\"-!;")) == 0
}

func (p *pairer) add(a, b int32) {
	if a == b || len(p.set) >= maxPairs {
		return
	}
	if b < a {
		a, b = b, a
	}
	p.set[uint64(a)<<32|uint64(b)] = struct{}{}
}

// token takes the next token of the text, whose stem stands at term among
// the file's terms (-1 for a stop word); span is the index of the comment
// span it lies in, or -1 outside comments.
func (p *pairer) token(t tokenize.Token, term int32, span int) {
	if t.Pos != p.pos {
		p.flush()
		p.pos, p.inCode, p.wordSpan = t.Pos, span < 0, span
	}
	if t.Whole {
		p.whole = t.Text
		return
	}
	if !pairable(t) {
		return
	}
	if len(p.parts) < maxIdentParts {
		p.parts = append(p.parts, term)
	}
	if span < 0 {
		return
	}
	if span != p.span {
		p.comment, p.span = p.comment[:0], span
	}
	if doc, ok := p.docs[span]; ok {
		// A word of a doc comment: the parts of an identifier written in
		// it count as one word.
		if doc.block != p.docBlock {
			p.docBlock, p.docN = doc.block, 0
		}
		if t.Pos != p.docPos {
			p.docN++
			p.docPos = t.Pos
		}
		if p.docN <= docWords {
			for _, n := range doc.name {
				p.add(n, term)
			}
		}
	}
	for _, w := range p.comment {
		p.add(w, term)
	}
	if len(p.comment) == commentWindow {
		copy(p.comment, p.comment[1:])
		p.comment = p.comment[:commentWindow-1]
	}
	p.comment = append(p.comment, term)
}

// flush pairs the parts of the identifier just read.
func (p *pairer) flush() {
	if p.inCode && !p.defs[p.whole] {
		p.parts = p.parts[:0]
	}
	if !p.inCode && len(p.parts) > 0 {
		p.mention()
	}
	p.whole = ""
	for i := range p.parts {
		for j := i + 1; j < len(p.parts); j++ {
			p.add(p.parts[i], p.parts[j])
		}
	}
	p.parts = p.parts[:0]
}

// mention pairs a word of prose, just read, with the compound identifiers
// mentioned in the mentionWindow words before it; and, when it is one, the
// parts of such an identifier with the words before it. The lines of one
// comment block are one text.
func (p *pairer) mention() {
	if p.wordSpan != p.mSpan && (p.mSpan < 0 || p.wordSpan >= len(p.blocks) || p.mSpan >= len(p.blocks) || p.blocks[p.wordSpan] != p.blocks[p.mSpan]) {
		p.recent, p.mentions = p.recent[:0], p.mentions[:0]
	}
	p.mSpan = p.wordSpan
	open := p.mentions[:0]
	for _, m := range p.mentions {
		for _, a := range m.parts {
			for _, b := range p.parts {
				p.add(a, b)
			}
		}
		if m.left--; m.left > 0 {
			open = append(open, m)
		}
	}
	p.mentions = open
	if p.whole != "" && len(p.parts) > 1 {
		for _, w := range p.recent {
			for _, a := range p.parts {
				for _, b := range w {
					p.add(a, b)
				}
			}
		}
		p.mentions = append(p.mentions, mention{parts: slices.Clone(p.parts), left: mentionWindow})
	}
	if len(p.recent) < mentionWindow {
		p.recent = append(p.recent, nil)
	} else {
		last := p.recent[0]
		copy(p.recent, p.recent[1:])
		p.recent[mentionWindow-1] = last
	}
	w := &p.recent[len(p.recent)-1]
	*w = append((*w)[:0], p.parts...)
}

// helpTexts pairs the words of src's prose strings, its help texts, flag
// descriptions and messages, with the parts of the names written with
// them: before them on their line and the helpLines lines above, back to
// the string before, and after them on their last line. So "stop after N
// failures" pairs with maxfail in flag.Int("maxfail", 0, "stop after N
// failures"). strs are the spans of src's strings, in order.
func (p *pairer) helpTexts(src []byte, strs [][2]int) {
	p.flush()
	n, prev := 0, 0
	for _, s := range strs {
		words := proseWords(src[s[0]:s[1]])
		if len(words) == 0 {
			continue
		}
		if n++; n > maxHelpStrings {
			return
		}
		// Back helpLines lines from the string's line, not past the end
		// of the prose string before, nor over a blank line.
		start := s[0] - 1
		for k := 0; k <= helpLines && start > prev; k++ {
			i := bytes.LastIndexByte(src[prev:start], '\n')
			if i < 0 {
				start = prev
				break
			}
			if k > 0 && len(bytes.TrimSpace(src[prev+i:start])) == 0 {
				break
			}
			start = prev + i
		}
		before := names(src[max(start, 0):max(s[0]-1, 0)])
		end := s[1] + 1
		if end < len(src) {
			if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
				end += i
			} else {
				end = len(src)
			}
		}
		after := names(src[min(s[1]+1, len(src)):min(end, len(src))])
		// The names nearest the string.
		var subject []string
		for i := len(before) - 1; i >= 0 && len(subject) < helpSubject; i-- {
			if !slices.Contains(subject, before[i]) {
				subject = append(subject, before[i])
			}
		}
		for _, a := range after {
			if len(subject) < helpSubject && !slices.Contains(subject, a) {
				subject = append(subject, a)
			}
		}
		ids := make([]int32, len(subject))
		for k, x := range subject {
			ids[k] = p.term(x)
		}
		for _, w := range words {
			a := p.term(w)
			for _, b := range ids {
				p.add(a, b)
			}
		}
		prev = min(s[1]+1, len(src))
	}
}

// names are the part stems of the identifiers and words in code, as
// pairs take them, in order.
func names(code []byte) []string {
	var out []string
	tokenize.EachShort(string(code), func(t tokenize.Token) {
		if !t.Whole && pairable(t) {
			out = append(out, t.Stem)
		}
	})
	return out
}

// proseWords returns the stems of the first helpWords words of a string
// that reads as prose: three words or more, made of letters, that are
// most of it. Other strings (keys, paths, formats, code) have none.
func proseWords(text []byte) []string {
	fields := bytes.Fields(text)
	if len(fields) < 3 {
		return nil
	}
	words := 0
	for _, f := range fields {
		f = bytes.TrimRight(f, ".,;:!?)")
		f = bytes.TrimLeft(f, "(")
		if len(f) > 0 && bytes.IndexFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' }) < 0 {
			words++
		}
	}
	if words < 3 || 2*words < len(fields) {
		return nil
	}
	var out []string
	tokenize.EachShort(string(text), func(t tokenize.Token) {
		if len(out) < helpWords && !t.Whole && pairable(t) && !slices.Contains(out, t.Stem) {
			out = append(out, t.Stem)
		}
	})
	return out
}

// pairable reports whether a token's stem is paired at all: long enough,
// no stop word, not a number.
func pairable(t tokenize.Token) bool {
	return len(t.Stem) >= minPairStem && !t.Stop && hasLetter(t.Stem)
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return true
		}
	}
	return false
}

// pairs returns the collected pairs as places in the file's terms sorted
// by stem: rank says where each term stands in that order, by its place
// (term), -1 for a term left out (the pair is left out too). The pairs
// are sorted as numbers.
func (p *pairer) pairs(rank []int32) [][2]int32 {
	p.flush()
	keys := make([]uint64, 0, len(p.set))
	for k := range p.set {
		a, b := rank[k>>32], rank[k&(1<<32-1)]
		if a < 0 || b < 0 {
			continue
		}
		if b < a {
			a, b = b, a
		}
		keys = append(keys, uint64(a)<<32|uint64(b))
	}
	slices.Sort(keys)
	out := make([][2]int32, len(keys))
	for i, k := range keys {
		out[i] = [2]int32{int32(k >> 32), int32(k & (1<<32 - 1))}
	}
	return out
}

// encodePairs writes pairs sorted as pairs returns them: each as the gap
// from the previous first index, then the gap from its own first index.
func (e *enc) pairs(ps [][2]int32) {
	e.uint(uint64(len(ps)))
	prev := int32(0)
	for _, p := range ps {
		e.uint(uint64(p[0] - prev))
		e.uint(uint64(p[1] - p[0]))
		prev = p[0]
	}
}

func (d *dec) pairs(terms int) [][2]int32 {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([][2]int32, n)
	prev := uint64(0)
	for i := range out {
		a := prev + d.uint()
		b := a + d.uint()
		if a >= uint64(terms) || b >= uint64(terms) {
			d.err = errCorrupt
			return nil
		}
		out[i] = [2]int32{int32(a), int32(b)}
		prev = a
	}
	return out
}

// pairStems are a doc's pairs as stems.
func (d *Doc) pairStems() [][2]string {
	out := make([][2]string, 0, len(d.Pairs))
	for _, p := range d.Pairs {
		out = append(out, [2]string{d.Terms[p[0]].Stem, d.Terms[p[1]].Stem})
	}
	return out
}

// flushThesaurus counts the pairs of the delta's docs, being flushed, and
// takes back those of the files dropped since the last flush.
func (w *writer) flushThesaurus(delta []*Doc) {
	out, err := readPairsOut(w.ctx, w.tx)
	if err != nil {
		w.err = err
		return
	}
	w.writePairs(countPairs(delta, out))
}

// countPairs is what a flush of the delta's docs changes in the pair
// counts: their pairs, less those of the files dropped (out), sorted to
// be written. It reads the docs alone, and may run beside the writes of
// the postings. Stems are numbered as they are met, so that a pair is
// counted under one number, not hashed as two strings.
func countPairs(delta []*Doc, out map[[2]string]int) *pairChanges {
	var st stemNumbers
	// Made big enough at once: a file's pairs are mostly other files'
	// too, about three in eight distinct in a large repository.
	n := 0
	for _, d := range delta {
		n += len(d.Pairs)
	}
	counts := make(map[uint64]int, n/2)
	var of []uint32 // a doc's term numbers, none yet where ^0
	for _, d := range delta {
		of = slices.Grow(of[:0], len(d.Terms))[:len(d.Terms)]
		for i := range of {
			of[i] = ^uint32(0)
		}
		num := func(t int32) uint32 {
			if of[t] == ^uint32(0) {
				of[t] = st.number(d.Terms[t].Stem)
			}
			return of[t]
		}
		for _, p := range d.Pairs {
			counts[uint64(num(p[0]))<<32|uint64(num(p[1]))]++
		}
	}
	for p, n := range out {
		counts[uint64(st.number(p[0]))<<32|uint64(st.number(p[1]))] -= n
	}
	return sortPairs(st.stems, counts)
}

// stemNumbers numbers stems in the order they are met.
type stemNumbers struct {
	of    map[string]uint32
	stems []string
}

func (s *stemNumbers) number(stem string) uint32 {
	if s.of == nil {
		s.of = map[string]uint32{}
	}
	n, ok := s.of[stem]
	if !ok {
		n = uint32(len(s.stems))
		s.of[stem] = n
		s.stems = append(s.stems, stem)
	}
	return n
}

// readPairsOut counts the pairs waiting in cooc_out.
func readPairsOut(ctx context.Context, q queryer) (map[[2]string]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT pairs FROM cooc_out`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[[2]string]int{}
	for rows.Next() {
		var blob []byte
		if err := rows.Scan(&blob); err != nil {
			return nil, err
		}
		ps, err := decodePairStems(blob)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			out[p]++
		}
	}
	return out, rows.Err()
}

// encodePairStems writes pairs of stems; decodePairStems reads them.
func encodePairStems(ps [][2]string) []byte {
	var e enc
	e.uint(uint64(len(ps)))
	for _, p := range ps {
		e.str(p[0])
		e.str(p[1])
	}
	return seal(e.b)
}

func decodePairStems(b []byte) ([][2]string, error) {
	b, err := unseal(b)
	if err != nil {
		return nil, err
	}
	d := dec{b: b}
	out := make([][2]string, d.count())
	for i := range out {
		out[i] = [2]string{d.str(), d.str()}
	}
	return out, d.err
}

// pairAdjusts is, for each of stems, what the delta adds to its counted
// pairs and what the files dropped since the last flush take back, the
// dropped files' pairs gone through once for all. Callers hold ix.mu.
func (ix *Index) pairAdjusts(stems []string) map[string]map[string]int {
	ix.prepare()
	out := make(map[string]map[string]int, len(stems))
	for _, stem := range stems {
		out[stem] = map[string]int{}
	}
	// The delta's docs that are live, looked up once for all the stems.
	var live []*Doc
	for _, d := range ix.delta {
		if e := ix.entryByID(d.ID); e != nil && e.seg == 0 {
			live = append(live, d)
		}
	}
	for stem, adj := range out {
		for _, d := range live {
			i := sort.Search(len(d.Terms), func(i int) bool { return d.Terms[i].Stem >= stem })
			if i == len(d.Terms) || d.Terms[i].Stem != stem {
				continue
			}
			for _, p := range d.Pairs {
				switch int32(i) {
				case p[0]:
					adj[d.Terms[p[1]].Stem]++
				case p[1]:
					adj[d.Terms[p[0]].Stem]++
				}
			}
		}
	}
	if len(out) > 0 {
		if err := takePairsOut(context.Background(), ix.reader(), out); err != nil {
			ix.fail(fmt.Errorf("read thesaurus: %w", err))
		}
	}
	return out
}

// takePairsOut takes the pairs waiting in cooc_out, those of files dropped
// since the thesaurus was last flushed, from the counts adjs holds for
// their terms. It reads the blobs as they lie: no term of a pair that no
// term of adjs is in is made, where a map of every pair read took a
// tenth of a retrieval's CPU on an index updated through many commits.
func takePairsOut(ctx context.Context, q queryer, adjs map[string]map[string]int) error {
	// A term is looked up only where its first byte and length are those
	// of a term of adjs: most of a blob's are not.
	var may [256]uint64
	for a := range adjs {
		if a != "" {
			may[a[0]] |= 1 << min(len(a), 63)
		}
	}
	wanted := func(t []byte) bool { return len(t) > 0 && may[t[0]]&(1<<min(len(t), 63)) != 0 }
	return eachBlob(ctx, q, `SELECT pairs FROM cooc_out`, func(blob []byte) error {
		b, err := unseal(blob)
		if err != nil {
			return err
		}
		d := dec{b: b}
		n := d.count()
		rest := d.b
		for ; n > 0 && d.err == nil; n-- {
			var a, c []byte
			if a, rest, d.err = cutString(rest); d.err == nil {
				c, rest, d.err = cutString(rest)
			}
			if d.err != nil {
				break
			}
			if wanted(a) {
				if adj, ok := adjs[string(a)]; ok {
					adj[string(c)]--
				}
			}
			if wanted(c) {
				if adj, ok := adjs[string(c)]; ok {
					adj[string(a)]--
				}
			}
		}
		return d.err
	})
}

// cutString reads what enc.str wrote at the start of b, and returns it and
// the bytes after it; a length of one byte, the most common, is read in
// place.
func cutString(b []byte) (s, rest []byte, err error) {
	n, k := uint64(0), 0
	if len(b) > 0 && b[0] < 0x80 {
		n, k = uint64(b[0]), 1
	} else if n, k = binary.Uvarint(b); k <= 0 {
		return nil, nil, errCorrupt
	}
	if n > uint64(len(b)-k) {
		return nil, nil, errCorrupt
	}
	return b[k : k+int(n) : k+int(n)], b[k+int(n):], nil
}

// pairChanges are changes to the pair counts, both ways round, sorted:
// each is its stems' numbers in stems, a's above b's, and what it adds.
type pairChanges struct {
	stems   []any // boxed once for the statements' arguments
	changes []pairChange
}

type pairChange struct {
	ab uint64
	n  int
}

// sortPairs turns counts, of pairs of the stems numbered in stems, into
// changes both ways round, in key order, for the b-tree to take them page
// by page. The stems paired are numbered again in sorted order, so that a
// change is sorted as a number; the changes are put in place by their
// first stem, and each stem's few are sorted then.
func sortPairs(stems []string, counts map[uint64]int) *pairChanges {
	used := make([]bool, len(stems))
	for k, n := range counts {
		if n != 0 {
			used[k>>32], used[k&(1<<32-1)] = true, true
		}
	}
	order := make([]uint32, 0, len(stems))
	for i, u := range used {
		if u {
			order = append(order, uint32(i))
		}
	}
	slices.SortFunc(order, func(x, y uint32) int { return strings.Compare(stems[x], stems[y]) })
	rank := make([]uint64, len(stems))
	pc := &pairChanges{stems: make([]any, len(order))}
	for r, i := range order {
		rank[i] = uint64(r)
		pc.stems[r] = stems[i]
	}
	// Where each first stem's changes start.
	start := make([]int, len(order)+1)
	for k, n := range counts {
		if n != 0 {
			start[rank[k>>32]+1]++
			start[rank[k&(1<<32-1)]+1]++
		}
	}
	for r := 1; r < len(start); r++ {
		start[r] += start[r-1]
	}
	pc.changes = make([]pairChange, start[len(order)])
	next := slices.Clone(start[:len(order)])
	put := func(a, b uint64, n int) {
		pc.changes[next[a]] = pairChange{a<<32 | b, n}
		next[a]++
	}
	for k, n := range counts {
		if n != 0 {
			a, b := rank[k>>32], rank[k&(1<<32-1)]
			put(a, b, n)
			put(b, a, n)
		}
	}
	for r := range order {
		slices.SortFunc(pc.changes[start[r]:start[r+1]], func(x, y pairChange) int { return cmp.Compare(x.ab, y.ab) })
	}
	return pc
}

// writePairs adds the changes to the pair counts: each term's counts are
// one row, its blob read, changed and written again; a pair no file holds
// any more leaves it, and a term with no pair left leaves the table.
func (w *writer) writePairs(pc *pairChanges) {
	w.exec(`DELETE FROM cooc_out`)
	// A table with no row yet, as a first build leaves it, has no blob to
	// read.
	var some int
	w.queryRow(`SELECT COUNT(*) FROM (SELECT 1 FROM cooc LIMIT 1)`).scan(&some)
	var read *sql.Stmt
	if some > 0 && w.err == nil {
		var err error
		if read, err = w.tx.PrepareContext(w.ctx, `SELECT part, pairs FROM cooc WHERE a = ? ORDER BY part`); err != nil {
			w.err = err
			return
		}
		defer read.Close()
	}
	type termRow struct {
		a    string
		part int
		blob []byte
	}
	var rows []termRow
	var changed []any
	var old, merged []Neighbor
	for i := 0; i < len(pc.changes) && w.err == nil; {
		ar := pc.changes[i].ab >> 32
		j := i + 1
		for j < len(pc.changes) && pc.changes[j].ab>>32 == ar {
			j++
		}
		a := pc.stems[ar].(string)
		old = old[:0]
		if read != nil {
			var err error
			if old, err = readTermPairs(w.ctx, read, a, old); err != nil {
				w.err = err
				return
			}
		}
		// Both are in order of term: the changes' stems are numbered so.
		merged = merged[:0]
		k := 0
		for _, c := range pc.changes[i:j] {
			b := pc.stems[c.ab&(1<<32-1)].(string)
			for k < len(old) && old[k].Stem < b {
				merged = append(merged, old[k])
				k++
			}
			nb := Neighbor{Stem: b, Files: c.n}
			if k < len(old) && old[k].Stem == b {
				nb.Files += old[k].Files
				k++
			}
			merged = append(merged, nb)
		}
		merged = append(merged, old[k:]...)
		if len(old) > 0 {
			changed = append(changed, a)
		}
		for part, blob := range encodePairs(a, merged) {
			rows = append(rows, termRow{a, part, blob})
		}
		i = j
	}
	// A changed term's rows go, and its parts as they are now come in:
	// it may have fewer parts than it had, or none.
	for len(changed) > 0 && w.err == nil {
		n := min(500, len(changed))
		w.exec(`DELETE FROM cooc WHERE a IN (`+strings.Repeat("?,", n-1)+`?)`, changed[:n]...)
		changed = changed[n:]
	}
	w.insertFunc(`INSERT INTO cooc(a, part, pairs) VALUES `, 3, len(rows), func(i int, args []any) []any {
		return append(args, rows[i].a, rows[i].part, rows[i].blob)
	}, "")
}

// readTermPairs reads every part of term a's pair counts by read (a, in
// order of part) and returns them appended to list, in order of term. A
// part that names another term or place, or pairs out of order, is
// damage.
func readTermPairs(ctx context.Context, read *sql.Stmt, a string, list []Neighbor) ([]Neighbor, error) {
	rows, err := read.QueryContext(ctx, a)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for want := 0; rows.Next(); want++ {
		var part int
		var blob []byte
		if err := rows.Scan(&part, &blob); err != nil {
			return nil, fmt.Errorf("%w (%v)", corruptRow{"cooc", a}, err)
		}
		key, p, got, err := decodePairs(blob)
		if err == nil && (key != a || p != part || part != want) {
			err = errCorrupt
		}
		if err != nil {
			return nil, fmt.Errorf("%w (%v)", corruptRow{"cooc", a}, err)
		}
		list = append(list, got...)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Part 0 holds the most frequent, the rest the others: each in order
	// of term, and the whole once sorted.
	slices.SortFunc(list, func(x, y Neighbor) int { return cmp.Compare(x.Stem, y.Stem) })
	for i := 1; i < len(list); i++ {
		if list[i].Stem == list[i-1].Stem {
			return nil, corruptRow{"cooc", a}
		}
	}
	return list, nil
}

// A term's pair counts are rows of the thesaurus (cooc), its parts: part
// 0 holds its relatedScan most frequent pairs, all that a retrieval reads
// (readPairs), and the parts after it the rest, in order of term, each
// small enough to lie in its page (partBytes): a blob past SQLite's limit
// for a row in its page spills onto overflow pages of its own, which on
// a 5,000-file repository left 3.4 MB of 16 KiB pages empty, a third of the table's size.

// partBytes is what a part's pairs take at most, past which the next part
// starts: a row of the table lies in its page up to about 4,080 bytes at
// 16 KiB pages (pageSize), its term, key and checksum included. Tests make
// it smaller, so that small repositories' terms have many parts.
var partBytes = 3500

// encodePairs is the blobs of term a's pair counts, its parts in order:
// each a, its part, and its terms of list (which is in order of term)
// counted above 0, in order of term, each with its count, written as what
// it adds to the term before it; none when no pair is counted.
func encodePairs(a string, list []Neighbor) [][]byte {
	kept := list
	if slices.ContainsFunc(list, func(nb Neighbor) bool { return nb.Files <= 0 }) {
		kept = nil
		for _, nb := range list {
			if nb.Files > 0 {
				kept = append(kept, nb)
			}
		}
	}
	if len(kept) == 0 {
		return nil
	}
	// The most frequent, the first in order of term where as frequent:
	// as readPairs weighs them. kept is in order of term, and so are
	// both parts made of it.
	top := kept
	kept = nil
	if len(top) > relatedScan {
		counts := make([]int, len(top))
		for i, nb := range top {
			counts[i] = nb.Files
		}
		slices.Sort(counts)
		least := counts[len(counts)-relatedScan] // the least count of the most frequent
		ties := relatedScan
		for _, c := range counts {
			if c > least {
				ties--
			}
		}
		all := top
		top, kept = make([]Neighbor, 0, relatedScan), make([]Neighbor, 0, len(all)-relatedScan)
		for _, nb := range all {
			if nb.Files > least || nb.Files == least && ties > 0 {
				if nb.Files == least {
					ties--
				}
				top = append(top, nb)
			} else {
				kept = append(kept, nb)
			}
		}
	}
	blobs := [][]byte{pairPart(a, 0, top)}
	for len(kept) > 0 {
		n, size, last := 0, 0, ""
		for n < len(kept) && (n == 0 || size < partBytes) {
			size += len(kept[n].Stem) - shared(kept[n].Stem, last) + 4
			last = kept[n].Stem
			n++
		}
		blobs = append(blobs, pairPart(a, len(blobs), kept[:n]))
		kept = kept[n:]
	}
	return blobs
}

// pairPart is the blob of one part of a's pair counts.
func pairPart(a string, part int, list []Neighbor) []byte {
	// Its size, as most blobs are: short lengths, counts under 16,384.
	size := len(a) + 3*binary.MaxVarintLen32 + 4 // a, its part, the count, the checksum
	for _, nb := range list {
		size += len(nb.Stem) + 4
	}
	e := enc{b: make([]byte, 0, size)}
	e.str(a)
	e.uint(uint64(part))
	e.uint(uint64(len(list)))
	last := ""
	for _, nb := range list {
		e.prefixed(nb.Stem, last)
		e.uint(uint64(nb.Files))
		last = nb.Stem
	}
	return seal(e.b)
}

// decodePairs reads a blob of encodePairs: its term, its part, and its
// pairs in order of term. A blob that does not match its checksum, or
// whose terms are out of order or counted 0, is damage.
func decodePairs(blob []byte) (string, int, []Neighbor, error) {
	var list []Neighbor
	a, part, err := walkPairs(blob, func(n int) { list = make([]Neighbor, 0, n) }, func(stem []byte, files int) {
		list = append(list, Neighbor{Stem: string(stem), Files: files})
	})
	if err != nil {
		return "", 0, nil, err
	}
	return a, part, list, nil
}

// walkPairs reads a blob of encodePairs: it returns its term and part, and
// calls sized with the number of its pairs, then fn with each pair's term,
// in a buffer that the next call writes over, and count. A blob whose
// pairs are out of order, twice or counted 0 is damage.
func walkPairs(blob []byte, sized func(int), fn func(stem []byte, files int)) (string, int, error) {
	b, err := unseal(blob)
	if err != nil {
		return "", 0, err
	}
	d := dec{b: b}
	a := d.str()
	part := d.uint()
	if part > math.MaxInt32 {
		return "", 0, errCorrupt
	}
	n := d.count()
	if d.err == nil {
		sized(n)
	}
	var last, cur []byte
	for i := 0; i < n && d.err == nil; i++ {
		k := d.uint()
		rest := d.uint()
		if d.err != nil || k > uint64(len(last)) || rest > uint64(len(d.b)) {
			return "", 0, errCorrupt
		}
		cur = append(append(cur[:0], last[:k]...), d.b[:rest]...)
		d.b = d.b[rest:]
		files := d.uint()
		if d.err != nil || files == 0 || files > math.MaxInt32 || i > 0 && bytes.Compare(cur, last) <= 0 {
			return "", 0, errCorrupt
		}
		fn(cur, int(files))
		last, cur = cur, last
	}
	if d.err == nil && len(d.b) > 0 {
		d.err = errCorrupt // bytes after the pairs
	}
	if d.err != nil {
		return "", 0, d.err
	}
	return a, int(part), nil
}

// shiftOf is what the tombstones and the delta change in the count of the
// files holding stem, and the delta's shortest word for it (see adjust).
// Callers hold ix.mu.
func (ix *Index) shiftOf(stem string) shift {
	ix.prepare()
	if ix.dfShift == nil {
		n := 0
		for _, stems := range ix.tomb {
			n += len(stems)
		}
		for _, d := range ix.delta {
			n += len(d.Terms)
		}
		ix.dfShift = make(map[string]shift, n)
		for _, stems := range ix.tomb {
			for _, st := range stems {
				sh := ix.dfShift[st]
				sh.df--
				ix.dfShift[st] = sh
			}
		}
		for _, d := range ix.delta {
			for _, t := range d.Terms {
				if t.TF == ([NumFields]uint16{}) {
					continue
				}
				sh := ix.dfShift[t.Stem]
				sh.df++
				if w := t.Word(); sh.surface == "" || shorter(w, sh.surface) {
					sh.surface = w
				}
				ix.dfShift[t.Stem] = sh
			}
		}
	}
	return ix.dfShift[stem]
}

// shift is what the tombstones and the delta change in a term's statistics.
type shift struct {
	df      int
	surface string // the delta's shortest word for the term, if any
}

// Neighbor is a term that stands with another in the repository's
// identifiers and comments.
type Neighbor struct {
	Stem    string
	Surface string
	// Files is how many files pair the two terms.
	Files int
	// Assoc is their normalized pointwise mutual information over files,
	// in -1..1: 1 when the terms are only ever seen together.
	Assoc float64
}

// Thesaurus limits on what Related returns.
const (
	// minNeighborFiles is how many files must pair two terms for the pair
	// to count: one file's pair is a coincidence.
	minNeighborFiles = 3
	// relatedScan is how many of a term's most frequent pairs are weighed.
	relatedScan = 60
	// maxPairStems bounds the terms whose pairs a catalog keeps once read
	// (relatedScan pairs at most each): a process that answers many
	// retrievals from one index reads a term's pairs once.
	maxPairStems = 20000
)

// RelatedAll returns, for each stem, up to k terms that stand together
// with it in the repository's identifiers, comments and docstrings, most
// associated first. Only terms paired in at least three files are
// returned, and only those positively associated; of a term's pairs, the
// relatedScan most frequent are weighed. Callers must check Err: a read
// that failed leaves neighbours out.
func (ix *Index) RelatedAll(stems []string, k int) map[string][]Neighbor {
	out := map[string][]Neighbor{}
	if k <= 0 || len(stems) == 0 {
		return out
	}
	// The pairs read before, for this catalog; the rest from the table.
	// A term whose counts the delta or the dropped files change has its
	// most frequent chosen from its counts as they stand (the delta's pairs
	// added, the dropped files' taken back), as a rebuild's would be: from
	// its part 0 where the changes cannot move a pair across its edge, else
	// from all its parts.
	cands := make(map[string][]Neighbor, len(stems))
	adjs := map[string]map[string]int{}
	var need []string
	ix.mu.Lock()
	loaded := ix.loaded
	for _, a := range stems {
		if list, ok := ix.pairs[a]; ok {
			cands[a] = slices.Clone(list)
		} else {
			need = append(need, a)
		}
	}
	for a, adj := range ix.pairAdjusts(need) {
		if len(adj) > 0 {
			adjs[a] = adj
		}
	}
	ix.mu.Unlock()
	ctx := context.Background()
	read, err := ix.readPairs(ctx, need)
	if err == nil {
		var whole []string
		for a, adj := range adjs {
			if top, ok := adjustTop(read[a], adj); ok {
				read[a] = top
			} else {
				whole = append(whole, a)
			}
		}
		err = ix.readAdjusted(ctx, whole, adjs, read)
	}
	if err != nil {
		ix.failLocking(fmt.Errorf("read thesaurus: %w", err))
		return out
	}
	ix.mu.Lock()
	if ix.pairs == nil {
		ix.pairs = map[string][]Neighbor{}
	}
	for a, list := range read {
		if ix.loaded == loaded && len(ix.pairs) < maxPairStems {
			ix.pairs[a] = slices.Clone(list)
		}
		cands[a] = list
	}
	ix.mu.Unlock()
	n := float64(ix.N())
	var want []string
	for a, list := range cands {
		kept := list[:0]
		for _, nb := range list {
			if nb.Files >= minNeighborFiles {
				kept = append(kept, nb)
				want = append(want, nb.Stem)
			}
		}
		cands[a] = kept
	}
	// Their statistics in one read of the postings blocks.
	ix.Prefetch(want)
	for a, list := range cands {
		if nbs := ix.associate(a, list, n); len(nbs) > 0 {
			if len(nbs) > k {
				nbs = nbs[:k]
			}
			out[a] = nbs
		}
	}
	return out
}

// readPairs reads the pairs of each stem from the thesaurus, the
// relatedScan most frequent of each, and checks every pair read against
// its checksum and its place in the order.
func (ix *Index) readPairs(ctx context.Context, stems []string) (map[string][]Neighbor, error) {
	q := ix.reader()
	// The row before the term's, its part 0, and the row after that: the
	// term's part 1, or the next term's part 0 (see keyedRows).
	stmt, err := q.PrepareContext(ctx, keyedSQL("cooc", "a, part, pairs", "a", "part", 2))
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	var row []Neighbor
	var rowPart int
	scan := func(rows *sql.Rows) (string, bool, error) {
		var a string
		var blob []byte
		if err := rows.Scan(&a, &rowPart, &blob); err != nil {
			return a, false, fmt.Errorf("%w (%v)", corruptRow{"cooc", a}, err)
		}
		key, part, list, err := decodePairs(blob)
		row = list
		// The blob names its key and part: a row whose key damage
		// changed is told from the row it was.
		return a, err == nil && key == a && part == rowPart, nil
	}
	out := make(map[string][]Neighbor, len(stems))
	for _, st := range stems {
		if _, done := out[st]; done {
			continue
		}
		var list []Neighbor
		take := func() {
			if rowPart == 0 {
				list = row
			}
		}
		if err := keyedRows(ctx, stmt, "cooc", st, scan, take); err != nil {
			return nil, err
		}
		sortByFiles(list)
		out[st] = list[:min(len(list), relatedScan)]
	}
	return out, nil
}

// adjustTop is a term's most frequent pairs with the changes adj made to
// their counts, from top, the most frequent as stored (part 0), when they
// are enough to tell: when top holds all the term's pairs, or when no pair
// that the changes could lift from the other parts (counted as often as
// top's last at most, and by what adj adds) reaches top's least after the
// changes. With no pair of top lowered and none of the others raised,
// the order at the edge stands, ties included.
func adjustTop(top []Neighbor, adj map[string]int) ([]Neighbor, bool) {
	if len(top) == relatedScan {
		edge := top[len(top)-1].Files
		in := make(map[string]bool, len(top))
		least, lowered := math.MaxInt, false
		for _, nb := range top {
			in[nb.Stem] = true
			least = min(least, nb.Files+adj[nb.Stem])
			lowered = lowered || adj[nb.Stem] < 0
		}
		raised := 0
		for b, k := range adj {
			if !in[b] {
				raised = max(raised, k)
			}
		}
		if least <= edge+raised && (lowered || raised > 0) {
			return nil, false
		}
		top = slices.Clone(top)
		for i := range top {
			top[i].Files += adj[top[i].Stem]
		}
		sortByFiles(top)
		return top, true
	}
	return adjusted(top, adj), true
}

// adjusted is the pairs of list with the changes adj made to their
// counts, those no longer counted left out, the most frequent relatedScan
// first, ordered as readPairs orders them.
func adjusted(list []Neighbor, adj map[string]int) []Neighbor {
	out := make([]Neighbor, 0, len(list)+len(adj))
	seen := make(map[string]bool, len(list))
	for _, nb := range list {
		seen[nb.Stem] = true
		if nb.Files += adj[nb.Stem]; nb.Files > 0 {
			out = append(out, nb)
		}
	}
	for b, k := range adj {
		if !seen[b] && k > 0 {
			out = append(out, Neighbor{Stem: b, Files: k})
		}
	}
	sortByFiles(out)
	return out[:min(len(out), relatedScan)]
}

// readAdjusted reads every pair of each term of whole and sets in out its
// most frequent, with the changes adjs made to their counts.
func (ix *Index) readAdjusted(ctx context.Context, whole []string, adjs map[string]map[string]int, out map[string][]Neighbor) error {
	if len(whole) == 0 {
		return nil
	}
	stmt, err := ix.reader().PrepareContext(ctx, `SELECT part, pairs FROM cooc WHERE a = ? ORDER BY part`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, a := range whole {
		list, err := readTermPairs(ctx, stmt, a, nil)
		if err != nil {
			return err
		}
		out[a] = adjusted(list, adjs[a])
	}
	return nil
}

// sortByFiles orders pairs most frequent first, in order of term where as
// frequent.
func sortByFiles(list []Neighbor) {
	slices.SortFunc(list, func(x, y Neighbor) int {
		if x.Files != y.Files {
			return cmp.Compare(y.Files, x.Files)
		}
		return cmp.Compare(x.Stem, y.Stem)
	})
}

// associate weighs a term's pair counts by normalized pointwise mutual
// information over the n files, and sorts them by it.
func (ix *Index) associate(stem string, cands []Neighbor, n float64) []Neighbor {
	da := float64(ix.DF(stem))
	if n == 0 || da == 0 {
		return nil
	}
	var out []Neighbor
	for _, nb := range cands {
		// No term is in fewer files than it pairs in.
		db := float64(max(ix.DF(nb.Stem), nb.Files))
		// Pairs count files where the terms stand together, a subset of
		// the files holding both, so p(ab) <= min(p(a), p(b)).
		pab := math.Min(float64(nb.Files), math.Min(da, db)) / n
		if pab >= 1 {
			continue
		}
		nb.Assoc = math.Log(pab/((da/n)*(db/n))) / -math.Log(pab)
		if nb.Assoc <= 0 {
			continue
		}
		nb.Surface = ix.Surface(nb.Stem)
		out = append(out, nb)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Assoc != out[j].Assoc {
			return out[i].Assoc > out[j].Assoc
		}
		return out[i].Stem < out[j].Stem
	})
	return out
}
