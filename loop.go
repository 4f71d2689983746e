package hone

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/walk"
)

// Retrieve runs the retrieval loop for task over the repository at repoDir.
// Its index is brought up to date first.
func Retrieve(ctx context.Context, repoDir, task string, opts Options) (*Result, error) {
	start := time.Now()
	task, opts, err := prepare(task, opts)
	if err != nil {
		return nil, err
	}
	ix, err := index.Open(ctx, repoDir, index.Options{Dir: opts.IndexDir, MaxFileSize: opts.MaxFileSize, Notice: opts.Notice})
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, nil); err != nil {
		return nil, err
	}
	return run(ctx, ix, task, opts, start)
}

// RetrieveIndex runs the loop over an index the caller keeps up to date,
// so that several tasks can share one.
func RetrieveIndex(ctx context.Context, ix *index.Index, task string, opts Options) (*Result, error) {
	start := time.Now()
	task, opts, err := prepare(task, opts)
	if err != nil {
		return nil, err
	}
	return run(ctx, ix, task, opts, start)
}

func prepare(task string, opts Options) (string, Options, error) {
	task = strings.TrimSpace(task)
	if task == "" {
		return "", opts, ErrEmptyTask
	}
	opts, err := opts.withDefaults()
	return task, opts, err
}

// state is one run of the loop.
type state struct {
	ix    *index.Index
	opts  Options
	task  string
	know  knowledge
	best  map[string]Evaluation // merged over cycles: each file's best verdict
	seen  map[string]int        // path -> cycle it was first evaluated in
	last  map[string]int        // path -> last cycle it was evaluated in
	excl  map[string]bool       // excluded for the rest of the run
	gaps  []*gapState
	pats  []string // learned patterns
	calls map[string]*fileCalls
	skip  []string // kinds left out of the search
	// gapsFound: relevant files whose gaps were looked for.
	gapsFound map[string]bool
}

type gapState struct {
	Gap
	found int // cycle whose refine found it
	open  bool
}

func run(ctx context.Context, ix *index.Index, task string, opts Options, start time.Time) (*Result, error) {
	st := &state{
		ix: ix, opts: opts, task: task,
		best: map[string]Evaluation{}, seen: map[string]int{}, last: map[string]int{},
		excl: map[string]bool{}, calls: map[string]*fileCalls{}, gapsFound: map[string]bool{},
	}
	st.know.concepts = analyzeTask(task, ix)
	st.know.aboutTests = mentionsTests(task)
	st.know.supports = map[string][]support{}
	if !st.know.aboutTests {
		st.skip = append(st.skip, "test")
	}
	st.skip = append(st.skip, "vendor", "generated", "secret")

	abs, _ := filepath.Abs(ix.Root)
	res := &Result{Version: Version, Task: task, Repo: abs, Threshold: opts.Threshold}
	if len(st.know.concepts) == 0 {
		res.StopReason = StopNoProgress
		res.Notice = "nothing found: the task has no words or identifiers hone can search for; describe it with the names of the things involved"
		res.Ranking, res.Files = []Ranked{}, []Evaluation{}
		res.ElapsedMS = time.Since(start).Milliseconds()
		return res, nil
	}

	q := st.query(nil)
	for n := 1; n <= opts.MaxCycles; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cyc := Cycle{N: n, Query: q}
		cands := st.dispatch()
		newFiles, crossed := 0, 0
		relBefore := map[string]float64{}
		for _, ev := range st.relevant() {
			relBefore[ev.Path] = ev.Relevance
		}
		relDefs := st.relevantDefs(relBefore)
		st.know.near = st.proximity(cands, relBefore)
		for _, d := range cands {
			ev := evaluate(st.ix, d, &st.know, st.callerSupports(d, relBefore, relDefs))
			ev.Cycle = n
			ev.MissingContext = []string{}
			cyc.Evaluated = append(cyc.Evaluated, ev)
			if _, ok := st.seen[d.Path]; !ok {
				st.seen[d.Path] = n
				newFiles++
			}
			st.last[d.Path] = n
			old, had := st.best[d.Path]
			if !had || ev.score > old.score {
				if ev.Relevance >= opts.Threshold && had && old.Relevance >= opts.Threshold {
					ev.Cycle = old.Cycle // found when it first reached the threshold
				} else if ev.Relevance >= opts.Threshold {
					crossed++
				}
				st.best[d.Path] = ev
			}
		}
		sortEvals(cyc.Evaluated)

		closed := st.refine(n, &cyc)
		for i := range cyc.Evaluated {
			cyc.Evaluated[i].MissingContext = st.missing(cyc.Evaluated[i].Path, false)
		}
		q = st.query(cyc.Gaps)
		res.Cycles = append(res.Cycles, cyc)

		if st.countRelevant() >= SufficientFiles && !st.criticalOpen() {
			res.StopReason = StopSufficient
			break
		}
		if newFiles == 0 && crossed == 0 && closed == 0 {
			res.StopReason = StopNoProgress
			break
		}
		if n == opts.MaxCycles {
			res.StopReason = StopMaxCycles
		}
	}

	res.Concepts = []Concept{}
	for _, c := range st.know.concepts {
		ci := Concept{Label: c.label, Kind: c.kind.String(), Weight: math.Round(c.weight*100) / 100}
		for _, a := range c.alts {
			ci.Terms = append(ci.Terms, strings.Join(a.stems, " "))
		}
		res.Concepts = append(res.Concepts, ci)
	}
	var all []Evaluation
	for _, ev := range st.best {
		all = append(all, ev)
	}
	sortEvals(all)
	res.Ranking = []Ranked{}
	for _, ev := range all {
		res.Ranking = append(res.Ranking, Ranked{Path: ev.Path, Relevance: ev.Relevance})
	}
	res.Files = []Evaluation{}
	inHand := map[string]bool{}
	for _, r := range res.Ranking {
		if r.Relevance < opts.Threshold {
			break
		}
		inHand[r.Path] = true
	}
	for i, r := range res.Ranking {
		if r.Relevance < opts.Threshold {
			break
		}
		ev := st.best[r.Path]
		ev.MissingContext = st.missing(r.Path, true)
		ev.Spans = []Span{}
		if d := st.ix.Doc(r.Path); d != nil {
			ev.Spans = st.spans(d, inHand, i < exactSpans)
		}
		res.Files = append(res.Files, ev)
	}
	if len(res.Files) == 0 {
		if len(res.Ranking) == 0 {
			res.Notice = "nothing found: no file matched the task's terms"
		} else {
			res.Notice = fmt.Sprintf("nothing scored %.2f or above; the closest files are in the ranking", opts.Threshold)
		}
	}
	res.ElapsedMS = time.Since(start).Milliseconds()
	if err := ix.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

func (st *state) countRelevant() int {
	n := 0
	for _, ev := range st.best {
		if ev.Relevance >= st.opts.Threshold {
			n++
		}
	}
	return n
}

func (st *state) criticalOpen() bool {
	for _, g := range st.gaps {
		if g.open && g.Critical {
			return true
		}
	}
	return false
}

// missing lists what a file needs that is not in hand: the targets of its
// open gaps, or at the end of the run, those not among the result's files.
func (st *state) missing(p string, final bool) []string {
	out := []string{}
	for _, g := range st.gaps {
		if g.From != p {
			continue
		}
		if final {
			if ev, ok := st.best[g.Where]; ok && ev.Relevance >= st.opts.Threshold {
				continue
			}
		} else if !g.open {
			continue
		}
		out = append(out, g.describe())
	}
	return out
}

func (g Gap) describe() string {
	switch g.Kind {
	case "call":
		return fmt.Sprintf("%s() in %s", g.Name, g.Where)
	case "import":
		return fmt.Sprintf("imports %s", g.Where)
	}
	return g.Name
}

// query is the query the next cycle dispatches, for the trace.
func (st *state) query(gaps []Gap) Query {
	q := Query{Keywords: []string{}, Patterns: []string{}, Excludes: []string{}, FocusAreas: []string{}}
	seen := map[string]bool{}
	for _, c := range st.know.concepts {
		for _, a := range c.alts {
			k := strings.Join(a.stems, " ")
			if !seen[k] {
				seen[k] = true
				q.Keywords = append(q.Keywords, k)
			}
		}
	}
	for _, l := range st.know.learned {
		if !seen[l.stem] {
			seen[l.stem] = true
			q.Keywords = append(q.Keywords, l.stem)
		}
	}
	q.Patterns = append(append(q.Patterns, st.opts.Include...), st.pats...)
	q.Excludes = append(q.Excludes, st.opts.Exclude...)
	var ex []string
	for p := range st.excl {
		ex = append(ex, p)
	}
	sort.Strings(ex)
	q.Excludes = append(q.Excludes, ex...)
	for _, g := range gaps {
		f := g.Name
		if g.Kind == "import" {
			f = g.Where
		}
		if !contains(q.FocusAreas, f) {
			q.FocusAreas = append(q.FocusAreas, f)
		}
	}
	q.SkipKinds = st.skip
	return q
}

// keep reports whether a file may be dispatched at all.
func (st *state) keep(d *index.Entry) bool {
	if st.excl[d.Path] {
		return false
	}
	if d.Kind.Has(walk.Secret) || d.Kind.Has(walk.Vendor) || d.Kind.Has(walk.Generated) {
		return false
	}
	if d.Kind.Has(walk.Test) && !st.know.aboutTests {
		return false
	}
	if len(st.opts.Include) > 0 && !matchAny(st.opts.Include, d.Path) {
		return false
	}
	return !matchAny(st.opts.Exclude, d.Path)
}

// dispatch picks the cycle's candidates: first what the open gaps point at,
// then the best files for the keywords, preferring learned patterns.
func (st *state) dispatch() []*index.Doc {
	var out []*index.Doc
	picked := map[string]bool{}
	pick := func(e *index.Entry) {
		if e == nil || picked[e.Path] || !st.keep(e) || len(out) >= st.opts.Candidates {
			return
		}
		picked[e.Path] = true
		if d := st.ix.Doc(e.Path); d != nil {
			out = append(out, d)
		}
	}
	for _, g := range st.gaps {
		if !g.open {
			continue
		}
		switch g.Kind {
		case "call", "import":
			pick(st.ix.Entry(g.Where))
		case "concept":
			for _, h := range st.ix.Run(index.Search{Terms: st.conceptTerms(g.Name), Keep: st.keep, Prior: st.searchPrior, Limit: 3}) {
				pick(h.Entry)
			}
		}
	}
	hits := st.ix.Run(index.Search{Terms: st.keywordTerms(), Keep: st.keep, Prior: st.searchPrior, Limit: st.opts.Candidates})
	first := min(len(hits), st.opts.Candidates*2/5)
	for _, h := range hits[:first] {
		pick(h.Entry)
	}
	// One hop along imports and calls from the best files so far: the
	// context their code depends on, found by structure, not by words.
	for _, e := range st.neighbours() {
		pick(e)
	}
	for _, h := range hits[first:] {
		pick(h.Entry)
	}
	return out
}

// Neighbour expansion: the best files so far, and how many neighbours of
// each are considered.
const (
	hopFiles      = 3
	hopNeighbours = 4
	hopFloor      = 0.5 // a file must be at least related to be expanded
)

// neighbours are the files one hop from the best files so far: what they
// import, the files defining what they call, and the files using what
// they define.
func (st *state) neighbours() []*index.Entry {
	var best []Evaluation
	for _, ev := range st.best {
		if ev.Relevance >= hopFloor {
			best = append(best, ev)
		}
	}
	sortEvals(best)
	if len(best) > hopFiles {
		best = best[:hopFiles]
	}
	var out []*index.Entry
	for _, ev := range best {
		d := st.ix.Doc(ev.Path)
		if d == nil {
			continue
		}
		n := 0
		add := func(e *index.Entry) {
			if e != nil && e.Path != d.Path && n < hopNeighbours && st.keep(e) {
				if _, seen := st.seen[e.Path]; !seen {
					out = append(out, e)
					n++
				}
			}
		}
		for _, p := range st.ix.Imports(d) {
			add(st.ix.Entry(p))
		}
		defs := st.ix.DefinersOf(d.Calls)
		for _, name := range d.Calls {
			if ds := defs[name]; len(ds) >= 1 && len(ds) <= 2 {
				for _, e := range ds {
					add(e)
				}
			}
		}
		// Users of its most distinctive definitions: files whose text holds
		// the whole identifier.
		for _, def := range d.Defs {
			if n >= hopNeighbours || len(def.Name) < 8 || def.Kind == "section" {
				continue
			}
			for _, ws := range wholeStems(def.Name) {
				for _, h := range st.ix.Run(index.Search{Terms: []index.QueryTerm{{Stem: ws, Weight: 1}}, Keep: st.keep, Limit: 3}) {
					add(h.Entry)
				}
			}
		}
	}
	return out
}

func (st *state) searchPrior(d *index.Entry) float64 {
	p := prior(d, st.know.aboutTests)
	if len(st.pats) > 0 && matchAny(st.pats, d.Path) {
		p *= 1.3
	}
	return p
}

// keywordTerms are the search terms of every concept and learned term.
func (st *state) keywordTerms() []index.QueryTerm {
	var ts []index.QueryTerm
	for _, c := range st.know.concepts {
		ts = append(ts, conceptQueryTerms(c)...)
	}
	for _, l := range st.know.learned {
		ts = append(ts, index.QueryTerm{Stem: l.stem, Weight: learnedWeight * l.weight})
	}
	return ts
}

func conceptQueryTerms(c *concept) []index.QueryTerm {
	var ts []index.QueryTerm
	for _, a := range c.alts {
		w := c.weight * a.discount
		if c.kind != prose && len(a.stems) == 1 {
			w *= 1.5 // an identifier as written: the strongest evidence
		}
		for _, s := range a.stems {
			ts = append(ts, index.QueryTerm{Stem: s, Weight: w / float64(len(a.stems))})
		}
	}
	return ts
}

// conceptTerms searches one concept gap, with the learned vocabulary.
func (st *state) conceptTerms(label string) []index.QueryTerm {
	var ts []index.QueryTerm
	for _, c := range st.know.concepts {
		if c.label == label {
			ts = append(ts, conceptQueryTerms(c)...)
		}
	}
	for _, l := range st.know.learned {
		ts = append(ts, index.QueryTerm{Stem: l.stem, Weight: 0.5 * learnedWeight * l.weight})
	}
	return ts
}
