package retrieve

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/walk"
)

// The loop's first stage: a query goes in, the cycle's candidates come
// out.

// dispatcher finds each cycle's candidates. What it keeps between cycles
// is its own: the files it dispatched, and the first cycle's search of
// the task's own terms, which the ranking weighs.
type dispatcher struct {
	ix    *index.Index
	tp    *taskParse
	limit int // candidates a cycle at most
	// dispatched holds every file dispatched so far.
	dispatched map[string]bool
	// hits is the first cycle's search, kept deeper for the ranking, by
	// path; nil before the first cycle.
	hits map[string]hit
}

// hit is a file's place in the first cycle's search.
type hit struct {
	score float64 // against the best hit's
	rank  int
}

// candidate is a file dispatched for evaluation, with its closeness to
// the files already judged relevant.
type candidate struct {
	doc  *index.Doc
	near float64
}

func newDispatcher(ix *index.Index, tp *taskParse, opts hone.Options) *dispatcher {
	return &dispatcher{ix: ix, tp: tp, limit: opts.Candidates, dispatched: map[string]bool{}}
}

// dispatch picks a cycle's candidates: first what the open gaps point at,
// then the best files for the keywords, preferring learned patterns, and
// the files one hop from the best so far. relevant are the files judged
// relevant so far, with their relevance: each candidate's closeness to
// them in the graph of calls and imports comes with it.
func (dp *dispatcher) dispatch(q *query, relevant map[string]float64) []candidate {
	var docs []*index.Doc
	picked := map[string]bool{}
	pick := func(e *index.Entry) {
		if e == nil || picked[e.Path] || !q.keep(e) || len(docs) >= dp.limit {
			return
		}
		picked[e.Path] = true
		if d := dp.ix.Doc(e.Path); d != nil {
			docs = append(docs, d)
		}
	}
	prior := dp.priorFor(q)
	for _, g := range q.aims {
		switch g.Kind {
		case "call", "import", "model":
			pick(dp.ix.Entry(g.Where))
		case "concept":
			for _, h := range dp.ix.Run(index.Search{Terms: q.conceptTerms(g.Name), Keep: q.keep, Prior: prior, Limit: gapSearchFiles}) {
				pick(h.Entry)
			}
		}
	}
	// Each word refine learned gets its own search, and its own share of
	// the candidates: a file only the codebase's word matches is
	// evaluated, however the task's own words rank it.
	share := max(1, dp.limit*probeShare/100)
	fresh := func(e *index.Entry) bool { return q.keep(e) && !dp.dispatched[e.Path] && !picked[e.Path] }
	for _, pr := range q.probes {
		if share == 0 {
			break
		}
		var terms []index.QueryTerm
		for _, s := range pr.stems {
			terms = append(terms, index.QueryTerm{Stem: s, Weight: 1 / float64(len(pr.stems))})
		}
		for _, h := range dp.ix.Run(index.Search{Terms: terms, Keep: fresh, Prior: prior, Limit: probeFiles}) {
			if share > 0 && len(docs) < dp.limit {
				pick(h.Entry)
				share--
			}
		}
	}
	// The files the task names come first (the first query names them).
	for _, p := range q.named {
		pick(dp.ix.Entry(p))
	}
	// The first cycle's search of the task's own terms is kept, deeper,
	// for the final ranking.
	first := dp.hits == nil
	hits := dp.ix.Run(index.Search{Terms: q.keywordTerms(), Keep: q.keep, Prior: prior, Limit: max(dp.limit, searchDepth)})
	if first {
		dp.hits = map[string]hit{}
		for i, h := range hits {
			dp.hits[h.Entry.Path] = hit{score: h.Score / hits[0].Score, rank: i + 1}
		}
	}
	hits = hits[:min(len(hits), dp.limit)]
	lead := min(len(hits), dp.limit*searchLead/100)
	for _, h := range hits[:lead] {
		pick(h.Entry)
	}
	// One hop along imports and calls from the best files so far: the
	// context their code depends on, found by structure, not by words.
	for _, e := range dp.neighbours(q) {
		pick(e)
	}
	for _, h := range hits[lead:] {
		pick(h.Entry)
	}
	near := proximity(dp.ix, docs, relevant)
	out := make([]candidate, len(docs))
	for i, d := range docs {
		dp.dispatched[d.Path] = true
		out[i] = candidate{doc: d, near: near[d.Path]}
	}
	return out
}

// neighbours are the files one hop from the query's best files, not
// dispatched before: what they import, the files defining what they call,
// and the files using what they define.
func (dp *dispatcher) neighbours(q *query) []*index.Entry {
	var out []*index.Entry
	for _, p := range q.expand {
		d := dp.ix.Doc(p)
		if d == nil {
			continue
		}
		n := 0
		add := func(e *index.Entry) {
			if e != nil && e.Path != d.Path && n < hopNeighbours && q.keep(e) && !dp.dispatched[e.Path] {
				out = append(out, e)
				n++
			}
		}
		for _, p := range dp.ix.Imports(d) {
			add(dp.ix.Entry(p))
		}
		calls := d.CallsOut() // a name it defines leads to siblings, not callees
		defs := dp.ix.DefinersOf(calls)
		for _, name := range calls {
			if ds := callable(d.Lang, defs[name]); len(ds) >= 1 && len(ds) <= hopDefiners {
				for _, e := range ds {
					add(e)
				}
			}
		}
		// Users of its most distinctive definitions: files whose text holds
		// the whole identifier.
		for _, def := range d.Defs {
			if n >= hopNeighbours || len(def.Name) < hopNameLen || def.Kind == "section" {
				continue
			}
			for _, ws := range wholeStems(def.Name) {
				for _, h := range dp.ix.Run(index.Search{Terms: []index.QueryTerm{{Stem: ws, Weight: 1}}, Keep: q.keep, Limit: hopUsers}) {
					add(h.Entry)
				}
			}
		}
	}
	return out
}

// priorFor weighs a search hit by its kind, and up when it lies where the
// query's relevant files live.
func (dp *dispatcher) priorFor(q *query) func(*index.Entry) float64 {
	g := compileGlobs(q.patterns)
	return func(e *index.Entry) float64 {
		p := prior(dp.ix, e, dp.tp)
		if len(q.patterns) > 0 && g.match(e.Path) {
			p *= patternBoost
		}
		return p
	}
}

// widen picks the files the ranking weighs beside those the cycles
// evaluated: the next best of the first search, the best for the task's
// first line, those the best-matching tests exercise (tested), and the
// few files defining an identifier the task names. evaluated are the
// files the cycles evaluated.
func (dp *dispatcher) widen(q *query, tested map[string]float64, evaluated map[string]verdict) []*index.Doc {
	var out []*index.Doc
	picked := map[string]bool{}
	add := func(e *index.Entry) {
		if e == nil || picked[e.Path] || !q.keep(e) {
			return
		}
		if _, ok := evaluated[e.Path]; ok {
			return
		}
		d := dp.ix.Doc(e.Path)
		if d == nil {
			return
		}
		picked[e.Path] = true
		out = append(out, d)
	}
	var ranked []string
	for p, h := range dp.hits {
		if h.rank <= widenSearch {
			ranked = append(ranked, p)
		}
	}
	sort.Slice(ranked, func(i, j int) bool { return dp.hits[ranked[i]].rank < dp.hits[ranked[j]].rank })
	for _, p := range ranked {
		add(dp.ix.Entry(p))
	}
	// The best files for the task's first line alone: an issue's title
	// says what it is about in few words.
	if title := dp.tp.evidence.title; len(title) > 0 {
		var terms []index.QueryTerm
		for _, s := range title {
			terms = append(terms, index.QueryTerm{Stem: s, Weight: 1})
		}
		for _, h := range dp.ix.Run(index.Search{Terms: terms, Keep: q.keep, Prior: dp.priorFor(q), Limit: widenTitle}) {
			add(h.Entry)
		}
	}
	var byTests []string
	for p := range tested {
		byTests = append(byTests, p)
	}
	sort.Slice(byTests, func(i, j int) bool {
		if tested[byTests[i]] != tested[byTests[j]] {
			return tested[byTests[i]] > tested[byTests[j]]
		}
		return byTests[i] < byTests[j]
	})
	for _, p := range byTests[:min(len(byTests), widenTested)] {
		add(dp.ix.Entry(p))
	}
	var names []string
	for n, es := range dp.tp.evidence.definers {
		if len(es) <= widenDefiners {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		for _, e := range dp.tp.evidence.definers[n] {
			add(e)
		}
	}
	return out
}

// testFinder finds the tests that best match the task, for the ranking's
// tested signal. A run asks at each cycle's check of the stop rule and for
// its ranking: the search of the task's terms, the costliest part, is kept
// while they stay the same, and the files' names for the run.
type testFinder struct {
	ix     *index.Index
	key    string      // the terms the hits are for
	limit  int         // how many tests they were searched for
	hits   []index.Hit // the best tests for the terms, excluded or not
	byBase map[string][]string
}

func newTestFinder(ix *index.Index) *testFinder { return &testFinder{ix: ix} }

// pointers scores the files the best tests exercise: those they import,
// and the file each is named for, by the test's score against the best
// test's.
func (tf *testFinder) pointers(q *query) map[string]float64 {
	out := map[string]float64{}
	terms := q.taskTerms()
	isTest := func(e *index.Entry) bool { return e.Kind.Has(walk.Test) }
	// The tests the loop excluded are searched for too, and dropped after:
	// the search's order does not depend on what it keeps, so the first
	// testsSearched of the rest are those a search without them finds.
	excluded := 0
	for p := range q.isExcluded {
		if e := tf.ix.Entry(p); e != nil && isTest(e) {
			excluded++
		}
	}
	var key strings.Builder
	for _, t := range terms {
		fmt.Fprintf(&key, "%s %x\n", t.Stem, math.Float64bits(t.Weight))
	}
	if limit := testsSearched + excluded; key.String() != tf.key || limit > tf.limit {
		tf.key, tf.limit = key.String(), limit
		tf.hits = tf.ix.Run(index.Search{Terms: terms, Keep: isTest, Limit: limit})
	}
	var hits []index.Hit
	for _, h := range tf.hits {
		if len(hits) < testsSearched && !q.isExcluded[h.Entry.Path] {
			hits = append(hits, h)
		}
	}
	if len(hits) == 0 {
		return out
	}
	if tf.byBase == nil {
		tf.byBase = map[string][]string{}
		for _, e := range tf.ix.Entries() {
			if !e.Kind.Has(walk.Test) {
				b := strings.ToLower(strings.TrimSuffix(path.Base(e.Path), path.Ext(e.Path)))
				tf.byBase[b] = append(tf.byBase[b], e.Path)
			}
		}
	}
	ix := tf.ix
	for _, h := range hits {
		v := h.Score / hits[0].Score
		d := ix.Doc(h.Entry.Path)
		if d == nil {
			continue
		}
		for _, p := range ix.Imports(d) {
			if e := ix.Entry(p); e != nil && !e.Kind.Has(walk.Test) {
				out[p] = math.Max(out[p], v)
			}
		}
		for _, b := range testSubjects(h.Entry.Path) {
			if len(tf.byBase[b]) == 0 || len(tf.byBase[b]) > testSubjectFiles {
				continue
			}
			for _, p := range tf.byBase[b] {
				out[p] = math.Max(out[p], v)
			}
		}
	}
	return out
}
