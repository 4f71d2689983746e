package index

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
)

// The thesaurus: which terms stand together in this repository's
// identifiers ("RateThrottle", "get_throttle_rate"), comments and
// docstrings ("throttle requests to limit their rate"). It is counted at
// index time, per file: a pair counts once per file that holds it, so a
// word pair repeated through one file weighs no more than one mention.
// Counts are kept up to date incrementally, like the postings: a file
// indexed adds its pairs, a file dropped takes them back.

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
)

// pairer collects a file's pairs as its text is tokenized: the parts of
// the names the file defines, wherever they stand, and of every identifier
// in its comments; and the words of a comment near each other. The code's
// other identifiers, the names it calls and uses, are counted where they
// are defined.
type pairer struct {
	set     map[[2]string]struct{}
	defs    map[string]bool // the file's definitions, lower-cased, without separators
	pos     int             // the identifier being read
	parts   []string        // its part stems
	whole   string          // the whole identifier, as the tokenizer writes it
	inCode  bool            // it stands outside comments
	comment []string        // the last comment words, within one comment span
	span    int             // the comment span they came from, or -1
}

func newPairer(defs []structure.Def) *pairer {
	p := &pairer{set: map[[2]string]struct{}{}, defs: map[string]bool{}, pos: -1, span: -1}
	for _, d := range defs {
		tokenize.Each(d.Name, func(t tokenize.Token) {
			if t.Whole {
				p.defs[t.Text] = true
			}
		})
	}
	return p
}

func (p *pairer) add(a, b string) {
	if a == b || len(p.set) >= maxPairs {
		return
	}
	if b < a {
		a, b = b, a
	}
	p.set[[2]string{a, b}] = struct{}{}
}

// token takes the next token of the text; span is the index of the comment
// span it lies in, or -1 outside comments.
func (p *pairer) token(t tokenize.Token, span int) {
	if t.Pos != p.pos {
		p.flush()
		p.pos, p.inCode = t.Pos, span < 0
	}
	if t.Whole {
		p.whole = t.Text
		return
	}
	if len(t.Stem) < minPairStem || tokenize.IsStopWord(t.Text) || !hasLetter(t.Stem) {
		return
	}
	if len(p.parts) < maxIdentParts {
		p.parts = append(p.parts, t.Stem)
	}
	if span < 0 {
		return
	}
	if span != p.span {
		p.comment, p.span = p.comment[:0], span
	}
	for _, w := range p.comment {
		p.add(w, t.Stem)
	}
	if len(p.comment) == commentWindow {
		copy(p.comment, p.comment[1:])
		p.comment = p.comment[:commentWindow-1]
	}
	p.comment = append(p.comment, t.Stem)
}

// flush pairs the parts of the identifier just read.
func (p *pairer) flush() {
	if p.inCode && !p.defs[p.whole] {
		p.parts = p.parts[:0]
	}
	p.whole = ""
	for i := range p.parts {
		for j := i + 1; j < len(p.parts); j++ {
			p.add(p.parts[i], p.parts[j])
		}
	}
	p.parts = p.parts[:0]
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return true
		}
	}
	return false
}

// pairs returns the collected pairs as indexes into terms, which is sorted
// by stem and holds every paired stem.
func (p *pairer) pairs(terms []TermFreq) [][2]int32 {
	p.flush()
	idx := func(s string) int32 {
		i := sort.Search(len(terms), func(i int) bool { return terms[i].Stem >= s })
		if i < len(terms) && terms[i].Stem == s {
			return int32(i)
		}
		return -1
	}
	out := make([][2]int32, 0, len(p.set))
	for k := range p.set {
		a, b := idx(k[0]), idx(k[1])
		if a >= 0 && b >= 0 {
			out = append(out, [2]int32{a, b})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i][0] < out[j][0] || out[i][0] == out[j][0] && out[i][1] < out[j][1]
	})
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

// countPairs adds sign times each of doc's pairs to the batch's changes.
func (w *writer) countPairs(d *Doc, sign int) {
	if w.cooc == nil {
		w.cooc = map[[2]string]int{}
	}
	for _, p := range d.pairStems() {
		w.cooc[p] += sign
	}
}

// flushPairs writes the batch's pair counts, both ways round, and deletes
// the pairs no file holds any more.
func (w *writer) flushPairs() {
	var up, gone [][]any
	for k, n := range w.cooc {
		switch {
		case n > 0:
			up = append(up, []any{k[0], k[1], n}, []any{k[1], k[0], n})
		case n < 0:
			up = append(up, []any{k[0], k[1], n}, []any{k[1], k[0], n})
			gone = append(gone, []any{k[0], k[1]}, []any{k[1], k[0]})
		}
	}
	w.cooc = nil
	// In key order, the b-tree takes them page by page.
	sort.Slice(up, func(i, j int) bool {
		a, b := up[i], up[j]
		return a[0].(string) < b[0].(string) || a[0] == b[0] && a[1].(string) < b[1].(string)
	})
	w.insertMany(`INSERT INTO cooc(a, b, n) VALUES `, 3, up, ` ON CONFLICT(a, b) DO UPDATE SET n = n + excluded.n`)
	for len(gone) > 0 && w.err == nil {
		n := min(400, len(gone))
		args := make([]any, 0, 2*n)
		for _, g := range gone[:n] {
			args = append(args, g...)
		}
		w.exec(`DELETE FROM cooc WHERE n <= 0 AND (a, b) IN (VALUES `+strings.Repeat("(?,?),", n-1)+`(?,?))`, args...)
		gone = gone[n:]
	}
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
	relatedScan = 200
)

// Related returns up to k terms that stand together with stem in the
// repository's identifiers, comments and docstrings, most associated
// first. Only terms paired in at least three files are returned, and only
// those positively associated.
func (ix *Index) Related(stem string, k int) []Neighbor {
	return ix.RelatedAll([]string{stem}, k)[stem]
}

// RelatedAll is Related for several stems, in one query.
func (ix *Index) RelatedAll(stems []string, k int) map[string][]Neighbor {
	out := map[string][]Neighbor{}
	if k <= 0 || len(stems) == 0 {
		return out
	}
	args := make([]any, 0, len(stems)+2)
	for _, s := range stems {
		args = append(args, s)
	}
	args = append(args, minNeighborFiles, relatedScan)
	rows, err := ix.reader().QueryContext(context.Background(),
		`SELECT a, b, n FROM (SELECT a, b, n, row_number() OVER (PARTITION BY a ORDER BY n DESC, b) AS r
		FROM cooc WHERE a IN (?`+strings.Repeat(",?", len(stems)-1)+`) AND n >= ?) WHERE r <= ?`, args...)
	if err != nil {
		ix.fail(fmt.Errorf("read thesaurus: %w", err))
		return out
	}
	defer rows.Close()
	cands := map[string][]Neighbor{}
	for rows.Next() {
		var a string
		var nb Neighbor
		if err := rows.Scan(&a, &nb.Stem, &nb.Files); err != nil {
			ix.fail(fmt.Errorf("read thesaurus: %w", err))
			return out
		}
		cands[a] = append(cands[a], nb)
	}
	if err := rows.Err(); err != nil {
		ix.fail(fmt.Errorf("read thesaurus: %w", err))
		return out
	}
	n := float64(ix.N())
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

// associate weighs a term's pair counts by normalized pointwise mutual
// information over the n files, and sorts them by it.
func (ix *Index) associate(stem string, cands []Neighbor, n float64) []Neighbor {
	da := float64(ix.DF(stem))
	if n == 0 || da == 0 {
		return nil
	}
	var out []Neighbor
	for _, nb := range cands {
		db := float64(ix.DF(nb.Stem))
		if db == 0 {
			continue
		}
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
