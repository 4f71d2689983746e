package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// fieldWeights are the BM25F weights of the fields: a term in a file's name
// says more than one in its body. Comments are part of the body already.
var fieldWeights = [NumFields]float64{Name: 5, Dir: 2, Def: 3, Body: 1, Comment: 0}

// BM25 parameters.
const (
	k1 = 1.2
	b  = 0.75
)

// termStat is what the index knows of a term: its exact document frequency
// and its postings, segment by segment.
type termStat struct {
	df      int
	surface string
	segs    []segPostings
	// holders are the segments' current files holding the term, decoded
	// once per catalog (see eachHolder); nil until then, or when the
	// catalog's holders passed maxHolders.
	holders []holder
}

// holder is a file holding a term, and the term's frequencies in it.
type holder struct {
	e  *Entry
	tf [NumFields]uint16
}

// maxHolders bounds the holders kept decoded for a catalog, about 24
// bytes each: a process that answers many retrievals from one index (hone
// serve, hone mcp) decodes a term's postings once, not once an answer.
const maxHolders = 1 << 20

type segPostings struct {
	seg  int64
	data []byte
}

// prepare loads the delta's files and the tombstones, once per catalog.
func (ix *Index) prepare() {
	if ix.ready {
		return
	}
	ix.ready = true
	ctx := context.Background()
	rows, err := ix.reader().QueryContext(ctx, `SELECT id, doc FROM files WHERE seg = ?`, segBias)
	if err != nil {
		ix.fail(err)
		return
	}
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			ix.fail(err)
			break
		}
		e := ix.entryByID(id)
		if e == nil || e.seg != 0 {
			continue // written after the catalog was read
		}
		d := &Doc{Entry: *e}
		if err := decodeDoc(blob, d); err != nil {
			ix.fail(err)
			continue
		}
		ix.delta = append(ix.delta, d)
		ix.docs[id] = d
	}
	if err := rows.Err(); err != nil {
		ix.fail(err)
	}
	rows.Close()
	ix.tomb = map[int64][]string{}
	rows, err = ix.reader().QueryContext(ctx, `SELECT id, stems FROM tomb`)
	if err != nil {
		ix.fail(err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			ix.fail(err)
			return
		}
		stems, err := decodeStems(blob)
		if err != nil {
			ix.fail(err)
			return
		}
		ix.tomb[id] = stems
	}
	if err := rows.Err(); err != nil {
		ix.fail(err)
	}
}

// fail records an error of a read method for Err. Only the first is kept:
// a later one, often a consequence of it, leaves it as it is. Callers hold
// ix.mu.
func (ix *Index) fail(err error) {
	if ix.readErr == nil {
		ix.readErr = fmt.Errorf("read index %s: %w", ix.Path, err)
	}
}

// failLocking is fail for a caller that does not hold ix.mu.
func (ix *Index) failLocking(err error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.fail(err)
}

// Err reports the first error the read methods met since the index was
// opened, or since a Rebuild replaced it when damaged; nil if none did.
//
// Prefetch, DF, Surface, Doc, Definers, DefinersOf, Edges, Cooccur, Run,
// Related and RelatedAll return no error: a read of theirs that fails is
// recorded here, and they answer as if what they could not read were not
// in the index (no Doc, a lower count, fewer hits or neighbours). Callers
// must check Err after them before using what they answered. Outline and
// Check, which return errors, record here too: Outline a failed read of
// the outlines it keeps, Check the damage it finds. A closed index's
// reads fail, and are recorded so. IsDamaged tells damage, which Rebuild
// repairs, from other errors.
func (ix *Index) Err() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.readErr
}

// segBlock is one segment's part of a block.
type segBlock struct {
	seg     int64
	entries []blockEntry
}

// stat returns a term's statistics and postings, loading its block if
// needed. Callers hold ix.mu.
func (ix *Index) stat(stem string) *termStat {
	if ts, ok := ix.terms[stem]; ok {
		return ts
	}
	ix.prepare()
	b := blockOf(stem)
	if _, ok := ix.blocks[b]; !ok {
		ix.loadBlocks([]int64{b})
	}
	ts := &termStat{}
	for _, sb := range ix.blocks[b] {
		e := findEntry(sb.entries, stem)
		if e == nil {
			continue
		}
		ts.df += e.df
		if ts.surface == "" || shorter(e.surface, ts.surface) {
			ts.surface = e.surface
		}
		ts.segs = append(ts.segs, segPostings{seg: sb.seg, data: e.data})
	}
	ix.adjust(stem, ts)
	ix.terms[stem] = ts
	return ts
}

// Prefetch loads the blocks of many terms at once, so that DF and Surface
// answer from memory. Callers must check Err for a read that failed.
func (ix *Index) Prefetch(stems []string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.prepare()
	var need []int64
	seen := map[int64]bool{}
	for _, s := range stems {
		if _, ok := ix.terms[s]; ok {
			continue
		}
		b := blockOf(s)
		if _, ok := ix.blocks[b]; !ok && !seen[b] {
			seen[b] = true
			need = append(need, b)
		}
	}
	ix.loadBlocks(need)
}

// loadBlocks reads postings blocks of every segment. Callers hold ix.mu.
func (ix *Index) loadBlocks(blocks []int64) {
	for _, b := range blocks {
		ix.blocks[b] = nil
	}
	for len(blocks) > 0 {
		n := min(len(blocks), 400)
		args := make([]any, n)
		for i, b := range blocks[:n] {
			args[i] = b
		}
		rows, err := ix.reader().QueryContext(context.Background(),
			`SELECT block, seg, data FROM postings WHERE block IN (?`+strings.Repeat(",?", n-1)+`)`, args...)
		if err != nil {
			ix.fail(err)
			return
		}
		for rows.Next() {
			var b, seg int64
			var data []byte
			if err := rows.Scan(&b, &seg, &data); err != nil {
				ix.fail(err)
				break
			}
			entries, err := decodeBlock(b, seg, data)
			if err != nil {
				ix.fail(err)
				continue
			}
			ix.blocks[b] = append(ix.blocks[b], segBlock{seg: seg, entries: entries})
		}
		if err := rows.Err(); err != nil {
			ix.fail(err)
		}
		rows.Close()
		blocks = blocks[n:]
	}
}

// adjust corrects a term's count from its segments: less the tombstoned
// files that held it, plus the delta's. Callers hold ix.mu.
func (ix *Index) adjust(stem string, ts *termStat) {
	sh := ix.shiftOf(stem)
	ts.df = max(0, ts.df+sh.df)
	if sh.surface != "" && (ts.surface == "" || shorter(sh.surface, ts.surface)) {
		ts.surface = sh.surface
	}
}

func containsSorted(ss []string, s string) bool {
	i := sort.SearchStrings(ss, s)
	return i < len(ss) && ss[i] == s
}

// live reports whether a posting of segment seg for file id is current.
func (ix *Index) live(id, seg int64) *Entry {
	e := ix.entryByID(id)
	if e == nil || e.seg != seg {
		return nil
	}
	if _, dead := ix.tomb[id]; dead {
		return nil
	}
	return e
}

// N is the number of indexed files.
func (ix *Index) N() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.files()
}

// DF is the number of files holding the term. Callers must check Err: a
// read that failed leaves the count short.
func (ix *Index) DF(stem string) int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.stat(stem).df
}

// Surface is the shortest word seen for a stem: "middleware" for
// "middlewar". It is the stem itself when the stem is a word, or when a
// read failed: callers must check Err.
func (ix *Index) Surface(stem string) string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if s := ix.stat(stem).surface; s != "" {
		return s
	}
	return stem
}

// IDF is the BM25 inverse document frequency of a term held by df files.
func (ix *Index) IDF(df int) float64 {
	n := float64(ix.N())
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// AvgLen is the mean number of tokens in a field.
func (ix *Index) AvgLen(f Field) float64 {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	n := ix.files()
	if n == 0 {
		return 1
	}
	return math.Max(1, float64(ix.total[f])/float64(n))
}

// Entry returns the catalog entry of a slash path, or nil.
func (ix *Index) Entry(p string) *Entry {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.catalog()[p]
}

// Entries lists the catalog, in no particular order.
func (ix *Index) Entries() []*Entry {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.entries()
}

// entries lists the catalog, by id where the entries by id are dense: in
// the order they were decoded, which at 100,000 files costs a tenth of
// the catalog map's order, each entry a cache miss. Callers hold ix.mu.
func (ix *Index) entries() []*Entry {
	if ix.byID == nil {
		ix.byID = newEntriesByID(ix.catalog())
	}
	out := make([]*Entry, 0, len(ix.cat))
	if ix.byID.dense == nil {
		for _, e := range ix.cat {
			out = append(out, e)
		}
		return out
	}
	for _, e := range ix.byID.dense {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// notMain are the languages a repository's main language is never: its
// build, shell and data files.
var notMain = map[string]bool{"shell": true, "make": true, "dockerfile": true, "sql": true, "proto": true}

// MainLanguage is the language most of the repository's own code is
// written in: the one with the most files among those that are code and
// neither tests, vendored, generated, documentation nor examples, build
// and shell scripts aside; the first by name on a tie; "" when no such
// file is indexed. A .h header whose text is C++'s (structure.LanguageOf)
// counts for C++; one that reads as either counts for C++ where any C++
// source is, else for C.
func (ix *Index) MainLanguage() string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	const aside = walk.Test | walk.Vendor | walk.Generated | walk.Docs | walk.Example
	n := map[string]int{}
	headers := 0 // .h files whose text reads as C's: C's, or C++'s beside C++ sources
	for _, e := range ix.entries() {
		if e.Kind&aside == 0 && e.Lang != "" && !notMain[e.Lang] && structure.IsCode(e.Lang) {
			if e.Lang == "c" && strings.HasSuffix(strings.ToLower(e.Path), ".h") {
				headers++
				continue
			}
			n[e.Lang]++
		}
	}
	if n["cpp"] > 0 {
		n["cpp"] += headers
	} else if headers > 0 {
		n["c"] += headers
	}
	best := ""
	for l, c := range n {
		if c > n[best] || c == n[best] && l < best {
			best = l
		}
	}
	return best
}

// Doc loads a file's terms and outline, or returns nil when the path is not
// indexed, or when its read failed: callers must check Err.
func (ix *Index) Doc(p string) *Doc {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	e := ix.catalog()[p]
	if e == nil {
		return nil
	}
	return ix.doc(e)
}

func (ix *Index) doc(e *Entry) *Doc {
	if d, ok := ix.docs[e.ID]; ok {
		return d
	}
	var blob []byte
	err := ix.reader().QueryRowContext(context.Background(), `SELECT doc FROM files WHERE id = ?`, e.ID).Scan(&blob)
	if errors.Is(err, sql.ErrNoRows) {
		// Replaced by another process since the catalog was read; else,
		// in the version the catalog was read at, a file of it is not
		// found: damage to its page.
		if v, verr := ix.version(context.Background()); verr == nil && v == ix.loaded {
			err = fmt.Errorf("file %d of the catalog: %w", e.ID, errCorrupt)
		} else {
			return nil
		}
	}
	if err != nil {
		ix.fail(err)
		return nil
	}
	d := &Doc{Entry: *e}
	if err := decodeDoc(blob, d); err != nil {
		ix.fail(err)
		return nil
	}
	ix.docs[e.ID] = d
	return d
}

// Definers lists the files that define name (exact, case-sensitive).
// Callers must check Err: a read that failed leaves the list short.
func (ix *Index) Definers(name string) []*Entry {
	return ix.DefinersOf([]string{name})[name]
}

// DefinersOf is Definers for many names at once. Callers must check Err:
// a read that failed leaves the lists short.
func (ix *Index) DefinersOf(names []string) map[string][]*Entry {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	out := make(map[string][]*Entry, len(names))
	var need []string
	for _, n := range names {
		if es, ok := ix.defs[n]; ok {
			out[n] = es
		} else if _, dup := out[n]; !dup {
			out[n] = nil
			need = append(need, n)
		}
	}
	if len(need) == 0 {
		return out
	}
	// Each name's rows, and the rows either side of them: damage to a
	// name leaves its row beside them, out of their order.
	ctx := context.Background()
	q := ix.reader()
	stmt, err := q.PrepareContext(ctx, keyedSQL("defs", "name, file, c", "name", "file", 0))
	if err != nil {
		ix.fail(err)
		return out
	}
	defer stmt.Close()
	var name string
	var id, c int64
	scan := func(rows *sql.Rows) (string, bool, error) {
		if err := rows.Scan(&name, &id, &c); err != nil {
			return name, false, fmt.Errorf("%w (%v)", corruptRow{"defs", name}, err)
		}
		return name, defCheck(name, id) == c, nil
	}
	for _, n := range need {
		var es []*Entry
		err := keyedRows(ctx, stmt, "defs", n, scan, func() {
			if e := ix.entryByID(id); e != nil {
				es = append(es, e)
			}
		})
		if err != nil {
			ix.fail(err)
			return out
		}
		sort.Slice(es, func(i, j int) bool { return es[i].Path < es[j].Path })
		ix.defs[n], out[n] = es, es
	}
	return out
}

// Exists reports whether p names an indexed file, or with a trailing slash a
// directory holding indexed files.
func (ix *Index) Exists(p string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if strings.HasSuffix(p, "/") {
		return len(ix.inDir(p)) > 0
	}
	return ix.catalog()[p] != nil
}

// inDir lists the entries directly inside dir ("a/b/"), from a map of the
// catalog's folders made once per catalog. Callers hold ix.mu.
func (ix *Index) inDir(dir string) []*Entry {
	if ix.dirs == nil {
		ix.dirs = map[string][]*Entry{}
		for p, e := range ix.catalog() {
			d := p[:strings.LastIndexByte(p, '/')+1]
			ix.dirs[d] = append(ix.dirs[d], e)
		}
		for _, es := range ix.dirs {
			sort.Slice(es, func(i, j int) bool { return es[i].Path < es[j].Path })
		}
	}
	return ix.dirs[dir]
}

// Imports resolves the imports of d to indexed files. An import of a
// package folder (Go's) resolves to the package's files that define what
// d calls, or to all of its files when d calls nothing of them (it uses
// its types alone, say): a file of a 40-file package needs the one or two
// files holding what it uses, not the first of the 40 by name.
func (ix *Index) Imports(d *Doc) []string {
	var out []string
	seen := map[string]bool{}
	// The files defining what d calls, by folder ("a/b/"): made once, at
	// the first package folder.
	var used map[string]map[string]bool
	for _, spec := range d.Imports {
		for _, p := range structure.Resolve(d.Lang, d.Path, spec, ix.Exists) {
			if strings.HasSuffix(p, "/") {
				ix.mu.Lock()
				in := ix.inDir(p)
				ix.mu.Unlock()
				if used == nil {
					used = map[string]map[string]bool{}
					for _, es := range ix.DefinersOf(d.CallsOut()) {
						for _, e := range es {
							dir := e.Path[:strings.LastIndexByte(e.Path, '/')+1]
							if used[dir] == nil {
								used[dir] = map[string]bool{}
							}
							used[dir][e.Path] = true
						}
					}
				}
				for _, o := range in {
					if o.Lang == d.Lang && !seen[o.Path] && o.Path != d.Path && (len(used[p]) == 0 || used[p][o.Path]) {
						seen[o.Path] = true
						out = append(out, o.Path)
					}
				}
				continue
			}
			if !seen[p] && p != d.Path {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Content reads a file's text, as the index's size limit allows it.
// Secret-bearing files are refused, and so is anything no longer a
// regular file: a link or a FIFO swapped in for the file is neither
// followed nor waited on.
func (ix *Index) Content(e *Entry) ([]byte, error) {
	if e.Kind.Has(walk.Secret) {
		return nil, fmt.Errorf("read %s: secret-bearing file, contents are never read", e.Path)
	}
	limit := ix.maxFileSize()
	if limit < 0 {
		limit = math.MaxInt64 - 1
	}
	p := filepath.Join(ix.Root, filepath.FromSlash(e.Path))
	// The index holds regular files only: one swapped for a link since
	// (to a key outside the repository, say) is not followed.
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		if err == nil {
			err = walk.ErrNotRegular
		}
		return nil, fmt.Errorf("read %s: %w", e.Path, err)
	}
	b, err := walk.ReadRegular(p, limit)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", e.Path, err)
	}
	return b, nil
}

// Cooccur counts the files holding all the stems. Callers must check Err:
// a read that failed leaves the count short.
func (ix *Index) Cooccur(stems []string) int {
	if len(stems) == 0 {
		return 0
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var have map[int64]int
	for i, s := range stems {
		next := map[int64]int{}
		ix.eachHolder(s, func(e *Entry, _ [NumFields]uint16) {
			if i == 0 || have[e.ID] == i {
				next[e.ID] = i + 1
			}
		})
		have = next
	}
	return len(have)
}

// eachHolder calls fn for every current file holding a stem, with its
// frequencies. Callers hold ix.mu.
func (ix *Index) eachHolder(stem string, fn func(*Entry, [NumFields]uint16)) {
	ts := ix.stat(stem)
	// each decodes the segments' postings, for the current files.
	each := func(fn func(*Entry, [NumFields]uint16)) (ok bool) {
		ok = true
		for _, sp := range ts.segs {
			if err := eachPosting(sp.data, func(p posting) {
				if e := ix.live(p.id, sp.seg); e != nil {
					fn(e, p.tf)
				}
			}); err != nil {
				ix.fail(err)
				ok = false
			}
		}
		return ok
	}
	if ts.holders == nil && ix.holders < maxHolders {
		hs := []holder{}
		if each(func(e *Entry, tf [NumFields]uint16) { hs = append(hs, holder{e, tf}) }) {
			ts.holders = hs
			ix.holders += len(hs)
		}
	}
	if ts.holders != nil {
		for _, h := range ts.holders {
			fn(h.e, h.tf)
		}
	} else {
		each(fn)
	}
	for _, d := range ix.delta {
		if e := ix.entryByID(d.ID); e != nil && e.seg == 0 {
			if tf := d.TF(stem); tf != ([NumFields]uint16{}) {
				fn(e, tf)
			}
		}
	}
}

// Words makes a query of a text's words: each stem weighed by how often it
// occurs, stop words left out, in stem order.
func Words(text string) []QueryTerm {
	weights := map[string]float64{}
	tokenize.Each(text, func(t tokenize.Token) {
		if !tokenize.IsStopWord(t.Text) && len(t.Text) > 1 {
			weights[t.Stem]++
		}
	})
	terms := make([]QueryTerm, 0, len(weights))
	for st, w := range weights {
		terms = append(terms, QueryTerm{Stem: st, Weight: w})
	}
	sort.Slice(terms, func(i, j int) bool { return terms[i].Stem < terms[j].Stem })
	return terms
}

// QueryTerm is one stemmed term of a search, with its weight.
type QueryTerm struct {
	Stem   string
	Weight float64
}

// Search is a BM25F query over the index.
type Search struct {
	Terms []QueryTerm
	// Keep, if set, drops the files it returns false for.
	Keep func(*Entry) bool
	// Prior, if set, multiplies each file's score.
	Prior func(*Entry) float64
	Limit int
}

// Hit is one scored file.
type Hit struct {
	Entry *Entry
	Score float64
}

// Run scores every file holding at least one term and returns the best,
// highest score first; ties go to the shorter path. Callers must check
// Err: a read that failed leaves files out, or scores them wrongly.
func (ix *Index) Run(s Search) []Hit {
	ix.mu.Lock()
	n := float64(len(ix.catalog()))
	// The map made at about its final size: growing it rehashes.
	dfs := make([]int, len(s.Terms))
	holders := 0
	for i, qt := range s.Terms {
		if qt.Weight > 0 {
			dfs[i] = ix.stat(qt.Stem).df
			holders += dfs[i]
		}
	}
	scores := make(map[*Entry]float64, min(holders, len(ix.cat)))
	for i, qt := range s.Terms {
		df := dfs[i]
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		ix.eachHolder(qt.Stem, func(e *Entry, tf [NumFields]uint16) {
			scores[e] += qt.Weight * idf * ix.saturate(e, tf)
		})
	}
	ix.mu.Unlock()
	hits := make([]Hit, 0, len(scores))
	for e, sc := range scores {
		if s.Keep != nil && !s.Keep(e) {
			continue
		}
		if s.Prior != nil {
			sc *= s.Prior(e)
		}
		if sc > 0 {
			hits = append(hits, Hit{Entry: e, Score: sc})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Entry.Path < hits[j].Entry.Path
	})
	if s.Limit > 0 && len(hits) > s.Limit {
		hits = hits[:s.Limit]
	}
	return hits
}

// saturate is BM25F's term-frequency part: field frequencies, weighted and
// normalised by field length, summed, then saturated. Callers hold ix.mu.
func (ix *Index) saturate(e *Entry, tf [NumFields]uint16) float64 {
	var t float64
	n := float64(len(ix.cat))
	for f := Field(0); f < NumFields; f++ {
		if tf[f] == 0 || fieldWeights[f] == 0 {
			continue
		}
		norm := 1.0
		if f != Name && f != Dir && n > 0 {
			// short fields get no length penalty
			avg := math.Max(1, float64(ix.total[f])/n)
			norm = 1 - b + b*float64(e.Len[f])/avg
		}
		t += fieldWeights[f] * float64(tf[f]) / norm
	}
	return t / (k1 + t)
}

// decodeStems reads the stems blob of a tombstone.
func decodeStems(b []byte) ([]string, error) {
	b, err := unseal(b)
	if err != nil {
		return nil, err
	}
	d := dec{b: b}
	out := make([]string, d.count())
	for i := range out {
		out[i] = d.str()
	}
	return out, d.err
}

func encodeStems(doc *Doc) []byte {
	var e enc
	e.uint(uint64(len(doc.Terms)))
	for _, t := range doc.Terms {
		e.str(t.Stem)
	}
	return seal(e.b)
}
