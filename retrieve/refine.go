package retrieve

import (
	"context"
	"maps"
	"math"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/fanout"
	"github.com/hone-tools/hone/lexicon"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
)

// Refine parameters.
const (
	learnPerCycle = 4  // learned terms added per cycle at most
	learnMax      = 12 // learned terms in a run at most
	gapsPerFile   = 8
	// callsPerTarget: call gaps named per target file at most.
	callsPerTarget = 2
	// feedbackShortlist: feedback terms whose statistics are read at most,
	// five times the terms a run learns (learnMax). Reading a term's
	// statistics reads its postings block: at 150 they were most of a
	// retrieve's index reads, for the same terms learned in all but 2 of
	// the 156 users'-words tasks and 6 of the 55 quick Multi-SWE-bench ones
	// (Acc@k unchanged in both).
	feedbackShortlist = 60
	// feedbackFiles: the relevant files feedback reads at most, the best.
	feedbackFiles = 5
	// The thesaurus: how many task words are looked up (the rarest), how
	// many neighbors each, the weakest association kept, and how much an
	// association adds to a feedback term's score.
	thesaurusTerms     = 16
	thesaurusNeighbors = 8
	thesaurusMinAssoc  = 0.2
	thesaurusBoost     = 2.0
	// gapFiles: the relevant files whose gaps are looked for, the best.
	gapFiles = 8
	// feedbackFloor: with nothing relevant yet, feedback comes from the best
	// files at or above it.
	feedbackFloor = 0.3
)

// sources reads files' lines and outlines once a run, for refine, the
// ranking and the result: a cache of what the index holds, not a stage's
// state.
type sources struct {
	ix    *index.Index
	files map[string]*fileCalls
}

func newSources(ix *index.Index) *sources {
	return &sources{ix: ix, files: map[string]*fileCalls{}}
}

// fileCalls caches what a file calls, with its lines, for gap finding and
// feedback.
type fileCalls struct {
	parsed  bool // calls and defs are from the exact outline
	scanned bool // calls and defs are from the fast extractor
	calls   []structure.Call
	defs    []structure.Def
	text    *fileText // its lines and their stems, shared by the runs that read the same content
}

// lineStems tokenizes line i, once.
func (fc *fileCalls) lineStems(i int) []string { return fc.text.lineStems(i) }

func (sc *sources) callsOf(d *index.Doc) *fileCalls {
	if fc, ok := sc.files[d.Path]; ok {
		return fc
	}
	fc := sc.read(d)
	sc.files[d.Path] = fc
	return fc
}

// read reads a file's lines, uncached: empty when it cannot be read.
func (sc *sources) read(d *index.Doc) *fileCalls {
	fc := &fileCalls{text: &fileText{}}
	if src, err := sc.ix.Content(&d.Entry); err == nil {
		fc.text = texts.of(src)
	}
	return fc
}

// callsOfAll is callsOf for each of docs (nil ones stay nil), the
// files not read before read side by side.
func (sc *sources) callsOfAll(docs []*index.Doc) []*fileCalls {
	out := make([]*fileCalls, len(docs))
	var missing []int
	for i, d := range docs {
		if d == nil {
			continue
		}
		if fc, ok := sc.files[d.Path]; ok {
			out[i] = fc
		} else if !slices.ContainsFunc(missing, func(k int) bool { return docs[k].Path == d.Path }) {
			missing = append(missing, i)
		}
	}
	sideBySide(len(missing), func(k int) { out[missing[k]] = sc.read(docs[missing[k]]) })
	for _, i := range missing {
		sc.files[docs[i].Path] = out[i]
	}
	for i, d := range docs {
		if d != nil && out[i] == nil {
			out[i] = sc.files[d.Path] // the same path twice
		}
	}
	return out
}

// sideBySide calls f(i) for each i below n, as many at once as the
// process has processors, and returns when all have returned. What a run
// does on one core while the other waits, tokenizing the lines of the
// files it reads, takes both.
func sideBySide(n int, f func(i int)) {
	fanout.Each(context.Background(), make(chan struct{}, runtime.GOMAXPROCS(0)), n, func(i int) error {
		f(i)
		return nil
	})
}

// fastOutline fills calls and definitions from the exact outline when it
// was already made, else from the index's fast extractor and a scan of
// the file's lines: enough to find gaps, at a fraction of a parse.
func (sc *sources) fastOutline(d *index.Doc) *fileCalls {
	fc := sc.callsOf(d)
	if fc.parsed || fc.scanned {
		return fc
	}
	fc.scanned = true
	fc.defs = d.Defs
	fc.calls = structure.Calls([]byte(fc.text.content))
	return fc
}

// outline is a file's exact outline (tree-sitter where a grammar exists),
// for the few files the loop looks at closely; the fast one otherwise.
func (sc *sources) outline(d *index.Doc) *fileCalls {
	fc := sc.callsOf(d)
	if fc.parsed {
		return fc
	}
	if o, err := sc.ix.Outline(&d.Entry); err == nil {
		fc.calls, fc.defs = o.Calls, o.Defs
	} else {
		sc.fastOutline(d) // the file could not be parsed: the fast outline
	}
	fc.parsed = true
	return fc
}

// refiner is the loop's third stage: it turns a cycle's evaluations into
// the next query. What it keeps between cycles is its own: the gaps found
// so far, and the thesaurus's terms for the task, read once.
type refiner struct {
	ix        *index.Index
	tp        *taskParse
	src       *sources
	threshold float64
	gaps      []*gapState
	// gapsFound: relevant files whose gaps were looked for.
	gapsFound map[string]bool
	// thes maps the terms the thesaurus ties to the task's, read once, to
	// their strongest association.
	thes map[string]thesLink
}

type gapState struct {
	hone.Gap
	found int // cycle whose refine found it
	open  bool
}

func newRefiner(ix *index.Index, tp *taskParse, src *sources, threshold float64) *refiner {
	return &refiner{ix: ix, tp: tp, src: src, threshold: threshold, gapsFound: map[string]bool{}}
}

// refine learns from cycle n, which ran q and gave evaluated, with rec
// the best verdicts of every cycle so far: the codebase's terms, where
// relevant files live, what to exclude, and the gaps to aim the next
// cycle at. It returns the next query and how many gaps the cycle closed,
// and writes what it learned into the cycle's trace.
func (rf *refiner) refine(n int, q *query, evaluated []verdict, rec *record, cyc *hone.Cycle) (*query, int) {
	cyc.LearnedKeywords, cyc.LearnedSynonyms, cyc.LearnedPatterns, cyc.Excluded, cyc.Gaps = []string{}, []hone.Synonym{}, []string{}, []string{}, []hone.Gap{}
	cyc.LearnedRelated = []hone.Related{}
	next := q.next()

	// Gaps this cycle closed: their targets were evaluated knowing of them.
	closed := 0
	for _, g := range rf.gaps {
		if !g.open || g.found >= n {
			continue
		}
		switch g.Kind {
		case "concept":
			g.open = false // searched for once; covered or not, it is no longer unknown
		default:
			if rec.last[g.Where] == n {
				g.open = false
			}
		}
		if !g.open {
			closed++
		}
	}

	rel := rec.relevant(rf.threshold)
	feedback := rel
	if len(feedback) == 0 {
		for _, ev := range evaluated {
			if ev.Score >= feedbackFloor && len(feedback) < feedbackSeeds {
				feedback = append(feedback, ev)
			}
		}
	}

	// Vocabulary: synonyms the codebase uses, then feedback terms. With
	// nothing relevant yet, the files named for a learned synonym show
	// what the codebase calls the things around it.
	syns := rf.learnSynonyms(next)
	if len(rel) == 0 {
		feedback = append(feedback, rf.synonymHomes(q, syns, feedback)...)
	}
	for _, l := range rf.learnFeedback(next, feedback) {
		next.learned = append(next.learned, l)
		cyc.LearnedKeywords = append(cyc.LearnedKeywords, l.label)
		if l.source == "thesaurus" {
			t := rf.thes[l.stem]
			cyc.LearnedRelated = append(cyc.LearnedRelated, hone.Related{Term: l.label, With: rf.ix.Surface(t.with), Files: t.files})
		}
	}
	for _, s := range syns {
		cyc.LearnedKeywords = append(cyc.LearnedKeywords, s.alt.label)
		cyc.LearnedSynonyms = append(cyc.LearnedSynonyms, hone.Synonym{Term: s.alt.label, For: s.concept})
	}
	vocab := rf.learnVocabulary(next)
	for _, v := range vocab {
		cyc.LearnedKeywords = append(cyc.LearnedKeywords, v.alt.label)
		cyc.LearnedRelated = append(cyc.LearnedRelated, hone.Related{Term: v.alt.label, With: rf.ix.Surface(v.with), Files: v.files})
	}
	// The codebase's words a model named for the task, where one judged.
	known := next.stems()
	for _, l := range modelTerms(rf.ix, evaluated, func(s string) bool { return known[s] }) {
		next.learned = append(next.learned, l)
		cyc.LearnedKeywords = append(cyc.LearnedKeywords, l.label)
	}
	next.probes = rf.probesOf(syns, vocab, next.learned[len(q.learned):])

	// Patterns: the directories of the relevant files.
	for _, ev := range rel {
		if pat := dirPattern(ev.Path); !slices.Contains(next.patterns, pat) {
			next.patterns = append(next.patterns, pat)
			cyc.LearnedPatterns = append(cyc.LearnedPatterns, pat)
		}
	}

	// Gaps: what the relevant files call or import that is not in hand, and
	// the task's key concepts that no relevant file covers.
	for i, ev := range rel {
		// Each relevant file's gaps are found once, when it first stands
		// among the best.
		if i == gapFiles {
			break
		}
		if rf.gapsFound[ev.Path] {
			continue
		}
		rf.gapsFound[ev.Path] = true
		for _, g := range rf.gapsOf(rf.ix.Doc(ev.Path), q, next, rec) {
			if rf.addGap(g, n, rec) {
				cyc.Gaps = append(cyc.Gaps, g)
			}
		}
	}
	for _, g := range rf.modelGaps(evaluated) {
		if rf.addGap(g, n, rec) {
			cyc.Gaps = append(cyc.Gaps, g)
		}
	}
	if len(rel) > 0 {
		for _, g := range rf.conceptGaps(next, rel) {
			if rf.addGap(g, n, rec) {
				cyc.Gaps = append(cyc.Gaps, g)
			}
		}
	}

	// Excludes: files under the floor are never evaluated again, unless a
	// relevant file needs them: then the verdict was made without knowing.
	needed := map[string]bool{}
	for _, g := range rf.gaps {
		if from, ok := rec.best[g.From]; ok && g.Where != "" && from.Score >= rf.threshold {
			needed[g.Where] = true
		}
	}
	for _, ev := range evaluated {
		if ev.Score < hone.ExcludeBelow && !next.isExcluded[ev.Path] && !needed[ev.Path] {
			next.isExcluded[ev.Path] = true
			next.excluded = append(next.excluded, ev.Path)
			cyc.Excluded = append(cyc.Excluded, ev.Path)
		}
	}

	// The next cycle aims at the open gaps, and looks around the best
	// files so far.
	for _, g := range rf.gaps {
		if g.open {
			next.aims = append(next.aims, g.Gap)
		}
	}
	for _, ev := range rec.ranked() {
		if len(next.expand) == hopFiles || ev.Score < hopFloor {
			break
		}
		next.expand = append(next.expand, ev.Path)
	}
	return next, closed
}

// probesOf orders the words a cycle learned for their own searches: the
// synonyms of the task's concepts that the codebase uses first, the
// rarest first (the codebase's own name for a thing is rare; one
// that names half the files finds nothing new), then the terms of the
// relevant files, best first.
func (rf *refiner) probesOf(syns []learnedSynonym, vocab []learnedVocab, learned []learnedTerm) []probe {
	df := func(s learnedSynonym) int {
		n := rf.ix.N()
		for _, st := range s.alt.stems {
			n = min(n, rf.ix.DF(st))
		}
		return n
	}
	syns = slices.Clone(syns)
	sort.SliceStable(syns, func(i, j int) bool { return df(syns[i]) < df(syns[j]) })
	var out []probe
	for _, s := range syns {
		out = append(out, probe{label: s.alt.label, stems: s.alt.stems})
	}
	for _, v := range vocab {
		out = append(out, probe{label: v.alt.label, stems: v.alt.stems})
	}
	for _, l := range learned {
		out = append(out, probe{label: l.label, stems: []string{l.stem}})
	}
	return out
}

// criticalOpen reports whether a critical gap is open.
func (rf *refiner) criticalOpen() bool {
	for _, g := range rf.gaps {
		if g.open && g.Critical {
			return true
		}
	}
	return false
}

// openNeeds lists what a file needs that is not in hand: the targets of
// its open gaps.
func (rf *refiner) openNeeds(p string) []string {
	out := []string{}
	for _, g := range rf.gaps {
		if g.From == p && g.open {
			out = append(out, describeGap(g.Gap))
		}
	}
	return out
}

// found lists every gap found, open or closed, in the order found.
func (rf *refiner) found() []hone.Gap {
	out := make([]hone.Gap, len(rf.gaps))
	for i, g := range rf.gaps {
		out[i] = g.Gap
	}
	return out
}

// addGap records a gap unless it is known already or its target is in hand.
func (rf *refiner) addGap(g hone.Gap, n int, rec *record) bool {
	if g.Where != "" {
		if ev, ok := rec.best[g.Where]; ok && ev.Score >= rf.threshold {
			return false
		}
	}
	for _, old := range rf.gaps {
		if old.Kind == g.Kind && old.Name == g.Name && old.From == g.From && old.Where == g.Where {
			return false
		}
		// A concept is aimed at once per run.
		if g.Kind == "concept" && old.Kind == "concept" && old.Name == g.Name {
			return false
		}
	}
	rf.gaps = append(rf.gaps, &gapState{Gap: g, found: n, open: true})
	return true
}

// gapsOf finds what a relevant file needs from files not in hand: the
// definitions it calls on the lines about the task (critical), and the
// files it imports that were never evaluated.
func (rf *refiner) gapsOf(d *index.Doc, q, next *query, rec *record) []hone.Gap {
	if d == nil {
		return nil
	}
	fc := rf.src.fastOutline(d)
	own := map[string]bool{}
	for _, def := range fc.defs {
		own[def.Name] = true
	}
	imported := map[string]bool{}
	imports := rf.ix.Imports(d)
	for _, p := range imports {
		imported[p] = true
	}
	stems := next.stems()
	var names []string
	for _, c := range fc.calls {
		if !own[c.Name] {
			names = append(names, c.Name)
		}
	}
	definers := rf.ix.DefinersOf(names)
	called := map[string]bool{}      // the files that define a name the file calls, plainly
	namesOf := map[string][]string{} // and the names each defines
	var gaps []hone.Gap
	seen := map[string]bool{}
	perTarget := map[string]int{}
	for _, c := range fc.calls {
		if own[c.Name] || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		// A name every program calls (a builtin, a logging call, a plain
		// method name) or one many files define is no link: which
		// definition it reaches, the name alone does not say.
		reach := callable(d.Lang, definers[c.Name])
		if commonCall(c.Name) || len(reach) > maxDefiners {
			continue
		}
		for _, o := range reach {
			called[o.Path] = true
			namesOf[o.Path] = append(namesOf[o.Path], c.Name)
		}
		var target *index.Entry
		var defs []*index.Entry
		for _, o := range reach {
			if o.Path != d.Path && q.keep(o) {
				defs = append(defs, o)
			}
		}
		ambiguous := false
		for _, o := range defs {
			if imported[o.Path] {
				if target != nil {
					ambiguous = true
					break
				}
				target = o
			}
		}
		if target == nil && len(defs) == 1 && len(imports) == 0 {
			target = defs[0] // languages without imports to follow: a unique definer
		}
		if target == nil || ambiguous {
			continue
		}
		// A call is a gap when its line is about the task in its code,
		// not in a message it logs or a comment: the relevant code
		// depends on it for exactly what the task touches. That makes it
		// critical; the file's other calls are context, not gaps.
		critical := false
		if c.Line-1 < len(fc.text.lines) {
			tokenize.Each(structure.LineCode(fc.text.lines[c.Line-1], true), func(t tokenize.Token) {
				critical = critical || !t.Whole && stems[t.Stem]
			})
		}
		if !critical {
			continue
		}
		if perTarget[target.Path] == callsPerTarget {
			continue // the file is named already; its other calls add nothing to aim at
		}
		perTarget[target.Path]++
		// Only calls on the lines about the task are gaps: every one is
		// critical, and they come before the imports.
		gaps = append(gaps, hone.Gap{Name: c.Name, Kind: "call", From: d.Path, Where: target.Path, Critical: true})
	}
	targets := map[string]bool{}
	for _, g := range gaps {
		targets[g.Where] = true
	}
	// A package's folder imported whole (Go's) lists
	// each of its files: of those, a gap is a file that defines a name
	// the file calls, not every file of the package in the order of
	// their names.
	whole := map[string]int{} // a folder an import names whole (Go's): its files among the imports
	for _, spec := range d.Imports {
		for _, p := range structure.Resolve(d.Lang, d.Path, spec, rf.ix.Exists) {
			if strings.HasSuffix(p, "/") {
				whole[strings.TrimSuffix(p, "/")] = 0
			}
		}
	}
	for _, p := range imports {
		if n, ok := whole[path.Dir(p)]; ok {
			whole[path.Dir(p)] = n + 1
		}
	}
	// Of a package's files, those that define only names one listed
	// already defines are its variants (Go's build tags: json.go,
	// go_json.go, sonic.go), and the package is named once, by its file
	// of the shortest name.
	order := make([]string, 0, len(imports))
	grouped := map[string]bool{}
	for _, p := range imports {
		dir := path.Dir(p)
		if whole[dir] <= 1 {
			order = append(order, p)
			continue
		}
		if grouped[dir] {
			continue
		}
		grouped[dir] = true
		var group []string
		for _, o := range imports {
			if path.Dir(o) == dir {
				group = append(group, o)
			}
		}
		slices.SortStableFunc(group, func(a, b string) int { return len(path.Base(a)) - len(path.Base(b)) })
		order = append(order, group...)
	}
	listed := map[string]map[string]bool{} // a whole folder's names that its listed files define
	for _, p := range order {
		dir := path.Dir(p)
		if whole[dir] > 1 {
			if !called[p] || listed[dir] != nil && !slices.ContainsFunc(namesOf[p], func(n string) bool { return !listed[dir][n] }) {
				continue
			}
		}
		if o := rf.ix.Entry(p); o != nil && !targets[p] && q.keep(o) {
			if whole[dir] > 1 {
				if listed[dir] == nil {
					listed[dir] = map[string]bool{}
				}
				for _, n := range namesOf[p] {
					listed[dir][n] = true
				}
			}
			if _, evaluated := rec.seen[p]; !evaluated {
				gaps = append(gaps, hone.Gap{Name: path.Base(p), Kind: "import", From: d.Path, Where: p})
			}
		}
	}
	if len(gaps) > gapsPerFile {
		gaps = gaps[:gapsPerFile]
	}
	return gaps
}

// conceptGaps are the task's key concepts that no relevant file covers. One
// the task names as an identifier or a path is critical.
func (rf *refiner) conceptGaps(q *query, rel []verdict) []hone.Gap {
	var gaps []hone.Gap
	if len(q.concepts) == 0 {
		return nil
	}
	top := q.concepts[0].weight
	for _, c := range q.concepts {
		if c.weight < conceptGapShare*top {
			continue
		}
		covered := false
		for _, ev := range rel {
			if e, _, _ := conceptEvidence(rf.ix, rf.ix.Doc(ev.Path), c); e >= coveredFloor {
				covered = true
				break
			}
		}
		if !covered && bestDF(c, rf.ix) > 0 {
			gaps = append(gaps, hone.Gap{Name: c.label, Kind: "concept", Critical: c.kind != prose})
		}
	}
	return gaps
}

// learnedSynonym is a synonym refine attached to a concept.
type learnedSynonym struct {
	concept string
	alt     alt
	// replaces: the codebase says the synonym far more than the task's
	// own words ("throttle" where the task says "rate limit").
	replaces bool
}

// learnSynonyms adds to each prose concept the general synonyms that this
// codebase actually uses. Two concepts of the task that the table calls
// synonyms ("API endpoints") become one, so that one match is not counted
// twice.
func (rf *refiner) learnSynonyms(q *query) []learnedSynonym {
	var out []learnedSynonym
	for i := 0; i < len(q.concepts); i++ {
		c := q.concepts[i]
		if c.kind != prose {
			continue
		}
		for _, syn := range synonymsOf(c) {
			stems := phraseStems(syn)
			if len(stems) == 0 || c.hasStems(stems) {
				continue
			}
			if j := q.conceptWithStems(stems, c); j >= 0 {
				q.mergeConcepts(c, j)
				continue
			}
			present := true
			for _, s := range stems {
				if rf.ix.DF(s) == 0 {
					present = false
					break
				}
			}
			if !present {
				continue
			}
			a := alt{stems: stems, label: syn, discount: synonymDiscount, source: "synonym"}
			c.alts = append(c.alts, a)
			own := rf.ix.Cooccur(c.alts[0].stems)
			out = append(out, learnedSynonym{concept: c.label, alt: a, replaces: rf.ix.Cooccur(stems) > synonymReplaces*own})
		}
	}
	return out
}

// learnedVocab is a code term refine attached to a concept from the
// repository's vocabulary.
type learnedVocab struct {
	alt   alt
	with  string // the task's stem it is tied to
	files int    // files that pair them
}

// learnVocabulary adds to the task's prose concepts the terms that the
// repository's thesaurus ties strongly to their words, in its doc
// comments, docstrings, identifiers and prose: the codebase's own words
// for what the task says ("shedding" where the task says "overloaded").
// Only terms a few files hold are taken, the most strongly tied first,
// each once; the next cycle searches each on its own.
func (rf *refiner) learnVocabulary(q *query) []learnedVocab {
	thes := rf.thesaurus(q)
	known := q.stems()
	n := float64(rf.ix.N())
	type cand struct {
		stem string
		link thesLink
		c    *concept
	}
	var cands []cand
	for stem, l := range thes {
		if l.assoc < vocabAssoc || known[stem] || len(stem) < 3 || isNumber(stem) || genericWords[stem] || codeNoise[stem] {
			continue
		}
		var owner *concept
		for _, c := range q.concepts {
			if c.kind == prose && slices.Contains(c.alts[0].stems, l.with) {
				owner = c
				break
			}
		}
		if owner == nil {
			continue
		}
		if df := rf.ix.DF(stem); df < 2 || float64(df) > vocabMaxFiles*n || genericWords[rf.ix.Surface(stem)] {
			continue
		}
		cands = append(cands, cand{stem, l, owner})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].link.assoc != cands[j].link.assoc {
			return cands[i].link.assoc > cands[j].link.assoc
		}
		return cands[i].stem < cands[j].stem
	})
	var out []learnedVocab
	for _, c := range cands {
		if len(out) == vocabTerms {
			break
		}
		a := alt{stems: []string{c.stem}, label: rf.ix.Surface(c.stem), discount: vocabDiscount * c.link.assoc, source: "thesaurus"}
		c.c.alts = append(c.c.alts, a)
		out = append(out, learnedVocab{alt: a, with: c.link.with, files: c.link.files})
	}
	return out
}

// synonymDiscount is how much a synonym's match counts against the task's
// own word.
const synonymDiscount = 0.8

// conceptWithStems finds another prose concept whose own words are stems.
func (q *query) conceptWithStems(stems []string, not *concept) int {
	for j, o := range q.concepts {
		if o != not && o.kind == prose && equalStems(o.alts[0].stems, stems) {
			return j
		}
	}
	return -1
}

// mergeConcepts folds concept j into c.
func (q *query) mergeConcepts(c *concept, j int) {
	o := q.concepts[j]
	c.label += " / " + o.label
	for _, a := range o.alts {
		if !c.hasStems(a.stems) {
			if a.source == "task" {
				a.discount = 1
			}
			c.alts = append(c.alts, a)
		}
	}
	c.weight = math.Max(c.weight, o.weight)
	q.concepts = append(q.concepts[:j], q.concepts[j+1:]...)
}

// synonymsOf looks a concept up in the synonym table by its stems, so that
// "limiting" finds the entry for "limit".
func synonymsOf(c *concept) []string {
	return synonymsByStems()[strings.Join(c.alts[0].stems, " ")]
}

var synonymsByStems = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, term := range lexicon.Terms() {
		// A phrase with stop words as code joins it ("sign in":
		// signin), as addProse makes its concept's first form; not by
		// its other words, which would give "sign" login's synonyms.
		key := strings.Join(phraseStems(term), " ")
		if key == "" {
			continue
		}
		for _, s := range lexicon.Synonyms(term) {
			if !slices.Contains(m[key], s) {
				m[key] = append(m[key], s)
			}
		}
	}
	return m
})

// synonymHomes are the files that define or are named for a learned
// synonym, as pseudo-relevant feedback.
func (rf *refiner) synonymHomes(q *query, syns []learnedSynonym, have []verdict) []verdict {
	var out []verdict
	in := map[string]bool{}
	for _, ev := range have {
		in[ev.Path] = true
	}
	for _, s := range syns {
		if len(s.alt.stems) > 1 || !s.replaces {
			continue // phrases say too little by their parts; and only the codebase's own terms
		}
		for _, h := range rf.ix.Run(index.Search{Terms: []index.QueryTerm{{Stem: s.alt.stems[0], Weight: 1}}, Keep: q.keep, Limit: synonymSearch}) {
			d := rf.ix.Doc(h.Entry.Path)
			if d == nil {
				continue
			}
			tf := d.TF(s.alt.stems[0])
			if (tf[index.Name] > 0 || tf[index.Def] > 0) && !in[d.Path] && len(out) < synonymHomeFiles {
				in[d.Path] = true
				out = append(out, verdict{Evaluation: hone.Evaluation{Path: d.Path, Score: synonymHomeRelevance}})
			}
		}
	}
	return out
}

// synonymHomeRelevance is the relevance feedback assumes for a synonym's
// home file.
const synonymHomeRelevance = 0.5

// codeNoise are words too common in code to teach anything about a task.
var codeNoise = map[string]bool{
	"constructor": true, "throw": true, "catch": true, "try": true, "async": true, "await": true, "extend": true,
	"implement": true, "instanceof": true, "typeof": true, "string": true, "number": true, "boolean": true, "bool": true,
	"int": true, "promis": true, "object": true, "arg": true, "kwarg": true, "valu": true, "data": true, "result": true,
	"type": true, "class": true, "interfac": true, "len": true, "str": true, "dict": true, "list": true, "map": true,
	"err": true, "rais": true, "except": true, "assert": true, "cls": true, "param": true, "option": true, "opts": true,
	"fals": true, "els": true, "break": true, "continu": true, "default": true, "case": true, "switch": true, "struct": true,
	"messag": true, "name": true, "get": true, "set": true, "call": true, "item": true, "key": true,
	"index": true, "count": true, "size": true, "length": true, "temp": true, "tmp": true, "test": true,
}

// learnFeedback mines the feedback files for the terms that go with the
// task: those that stand on the same lines as the task's concepts, rare in
// the repository, and present in other files too (else they find nothing
// new).
func (rf *refiner) learnFeedback(q *query, feedback []verdict) []learnedTerm {
	if len(feedback) == 0 || len(q.learned) >= learnMax {
		return nil
	}
	known := q.stems()
	mayHold := tokenize.NewStemFilter(maps.Keys(known))
	thes := rf.thesaurus(q)
	n := float64(rf.ix.N())
	type cand struct {
		stem   string
		score  float64
		inDocs int
		strong bool
	}
	cands := map[string]*cand{}
	if len(feedback) > feedbackFiles {
		feedback = feedback[:feedbackFiles] // the best, which are first
	}
	docs := make([]*index.Doc, len(feedback))
	for i, ev := range feedback {
		docs[i] = rf.ix.Doc(ev.Path)
	}
	// The terms on the lines about the task, each file's tokenized side
	// by side.
	fcs := rf.src.callsOfAll(docs)
	lineCounts := make([]map[string]int, len(feedback))
	sideBySide(len(feedback), func(k int) {
		if fcs[k] == nil {
			return
		}
		counts := map[string]int{}
		fc := fcs[k]
		for i := range fc.text.lines {
			if !mayHold.MayHold(fc.text.lines[i]) {
				continue // tokenized, it would hold none of the task's stems
			}
			line := fc.lineStems(i)
			about := false
			for _, s := range line {
				if known[s] {
					about = true
					break
				}
			}
			if !about {
				continue
			}
			for _, s := range line {
				if !known[s] {
					counts[s]++
				}
			}
		}
		lineCounts[k] = counts
	})
	for k, ev := range feedback {
		d := docs[k]
		if d == nil {
			continue
		}
		counts := lineCounts[k]
		// Terms the repository ties to the task's count where the file
		// holds them, on the task's lines or not.
		for stem := range thes {
			if counts[stem] == 0 && !known[stem] && d.TF(stem)[index.Body] > 0 {
				counts[stem] = 1
			}
		}
		// Where the file lives says what it is about, too.
		dirTerms := map[string]bool{}
		if dir := path.Dir(d.Path); dir != "." {
			tokenize.Each(dir, func(t tokenize.Token) {
				if !t.Whole && !known[t.Stem] {
					dirTerms[t.Stem] = true
					counts[t.Stem]++
				}
			})
		}
		for stem, k := range counts {
			if len(stem) < 3 || isNumber(stem) || tokenize.IsStopWord(stem) || genericWords[stem] || codeNoise[stem] {
				continue
			}
			c := cands[stem]
			if c == nil {
				c = &cand{stem: stem}
				cands[stem] = c
			}
			c.score += ev.Score * (1 - math.Exp(-float64(k)/feedbackSaturation))
			c.inDocs++
			if tf := d.TF(stem); tf[index.Name] > 0 || tf[index.Def] > 0 || dirTerms[stem] {
				c.strong = true
			}
		}
	}
	// The repository's statistics only for the most promising: reading
	// them is what costs.
	pre := make([]*cand, 0, len(cands))
	for _, c := range cands {
		if c.strong {
			c.score *= strongTermBoost
		}
		c.score *= 1 + thesaurusBoost*thes[c.stem].assoc
		pre = append(pre, c)
	}
	sort.Slice(pre, func(i, j int) bool {
		if pre[i].score != pre[j].score {
			return pre[i].score > pre[j].score
		}
		return pre[i].stem < pre[j].stem
	})
	if len(pre) > feedbackShortlist {
		pre = pre[:feedbackShortlist]
	}
	want := make([]string, len(pre))
	for i, c := range pre {
		want[i] = c.stem
	}
	rf.ix.Prefetch(want)
	cands = map[string]*cand{}
	for _, c := range pre {
		df := rf.ix.DF(c.stem)
		if df < 2 || float64(df) > learnedMaxFiles*n || (n >= largeRepository && float64(df) > learnedMaxFilesLarge*n) || genericWords[rf.ix.Surface(c.stem)] {
			continue // rare or everywhere: either way it finds nothing
		}
		cands[c.stem] = c
	}
	var list []*cand
	for _, c := range cands {
		df := rf.ix.DF(c.stem)
		if df <= c.inDocs || (c.inDocs < 2 && !c.strong) {
			continue // finds nothing new, or too weak
		}
		c.score *= rf.ix.IDF(df)
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].stem < list[j].stem
	})
	var out []learnedTerm
	for _, c := range list {
		if len(out) == learnPerCycle || len(q.learned)+len(out) >= learnMax || c.score < learnedKeepShare*list[0].score {
			break
		}
		if rf.isCompound(c.stem) {
			continue
		}
		source := "feedback"
		if _, ok := thes[c.stem]; ok {
			source = "thesaurus"
		}
		out = append(out, learnedTerm{
			stem:   c.stem,
			label:  rf.ix.Surface(c.stem),
			weight: learnedWeightFloor + (1-learnedWeightFloor)*c.score/list[0].score,
			source: source,
		})
	}
	return out
}

// thesaurus reads, once a run, the terms the repository's thesaurus ties
// to the task's prose and identifier words, with the strongest
// association of each. Words in a quarter of the files or more are left
// out: what stands with them says nothing of the task.
func (rf *refiner) thesaurus(q *query) map[string]thesLink {
	if rf.thes != nil {
		return rf.thes
	}
	rf.thes = map[string]thesLink{}
	n := rf.ix.N()
	var stems []string
	seen := map[string]bool{}
	for _, c := range q.concepts {
		if c.kind == filePath {
			continue
		}
		for _, s := range c.alts[0].stems {
			if df := rf.ix.DF(s); !seen[s] && df > 0 && 4*df < n {
				seen[s] = true
				stems = append(stems, s)
			}
		}
	}
	if len(stems) > thesaurusTerms {
		sort.SliceStable(stems, func(i, j int) bool { return rf.ix.DF(stems[i]) < rf.ix.DF(stems[j]) })
		stems = stems[:thesaurusTerms]
	}
	for stem, nbs := range rf.ix.RelatedAll(stems, thesaurusNeighbors) {
		for _, nb := range nbs {
			if nb.Assoc < thesaurusMinAssoc || seen[nb.Stem] {
				continue
			}
			if l, ok := rf.thes[nb.Stem]; !ok || nb.Assoc > l.assoc || nb.Assoc == l.assoc && stem < l.with {
				rf.thes[nb.Stem] = thesLink{assoc: nb.Assoc, with: stem, files: nb.Files}
			}
		}
	}
	return rf.thes
}

// thesLink ties a term to the task word it stands with most.
type thesLink struct {
	assoc float64
	with  string // the task's stem
	files int    // files that pair them
}

// isCompound reports whether a term is a whole identifier made of two
// indexed terms ("refreshsession" of "refresh" and "session"): its parts say
// the same, more generally.
func (rf *refiner) isCompound(t string) bool {
	for i := 3; i+3 <= len(t); i++ {
		if rf.ix.DF(t[:i]) == 0 {
			continue
		}
		if rf.ix.DF(tokenize.Stem(t[i:])) > 0 || rf.ix.DF(t[i:]) > 0 {
			return true
		}
	}
	return false
}

// phraseStems are the stems a phrase is matched by. A phrase with a stop
// word in it ("sign in") is matched as one word ("signin"): without the
// stop word its remaining words ("sign") mean something else.
func phraseStems(p string) []string {
	words := strings.Fields(p)
	stems := stemsOf(p)
	if len(stems) < len(words) {
		return []string{tokenize.Stem(strings.Join(words, ""))}
	}
	return stems
}

// commonCall reports whether a called name is one every program calls: a
// builtin or keyword of the common languages, a logging call, or a method
// of the builtin types (values, append, join), whatever its case.
func commonCall(name string) bool {
	n := strings.ToLower(name)
	return codeNoiseNames[n] || commonMethods[n]
}

// commonMethods are the methods of the common languages' builtin types
// and standard interfaces, and their logging calls.
var commonMethods = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`keys values items update pop popitem setdefault append extend insert remove clear
		copy count sort reverse join split rsplit splitlines strip lstrip rstrip replace startswith endswith
		lower upper encode decode find rfind partition add discard push shift unshift slice splice concat includes
		indexof foreach filter reduce some every tostring valueof hasownproperty then catch finally resolve reject
		equals hashcode compareto length size isempty contains containskey put putall addall unwrap expect ok err
		clone into from as_str as_ref to_string to_owned iter collect read write close flush seek string error
		delete has set
		debug info warn warning error exception critical fatal trace log logf debugf infof warnf warningf errorf
		fatalf tracef panicf printf sprintf fprintf errorw infow debugw warnw`) {
		m[w] = true
	}
	return m
}()

// modelGaps are the definitions a model said a file it judged related
// needs: each identifier of its missing context that one or two files
// define.
func (rf *refiner) modelGaps(evaluated []verdict) []hone.Gap {
	var out []hone.Gap
	for _, v := range evaluated {
		if !v.judged || v.model < modelGapFloor {
			continue
		}
		var names []string
		for _, need := range v.modelNeeds {
			for _, f := range strings.FieldsFunc(need, func(r rune) bool {
				return !(r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r))
			}) {
				// a.b.c names c; an identifier is three characters or more.
				f = f[strings.LastIndexByte(f, '.')+1:]
				if len(f) >= 3 && !slices.Contains(names, f) {
					names = append(names, f)
				}
			}
		}
		if len(names) == 0 {
			continue
		}
		// A model's named needs are no calls: the definitions it names
		// may be of any language (a binding's C function).
		definers := rf.ix.DefinersOf(names)
		for _, name := range names {
			ds := definers[name]
			if len(ds) == 0 || len(ds) > hopDefiners {
				continue
			}
			for _, e := range ds {
				if e.Path != v.Path {
					out = append(out, hone.Gap{Name: name, Kind: "model", From: v.Path, Where: e.Path})
				}
			}
		}
	}
	return out
}

// modelGapFloor: a model's missing context is searched for in the files
// it judged at least related.
const modelGapFloor = 0.5

// callable keeps the definers that a file in language lang can call by a
// bare name. Code calls its own family's definitions (index.SameFamily: a
// C file no Go main); a stylesheet calls its own functions (var, url,
// rgba), not a Python one of the name. Prose and markup name code of any
// language: a README's `connect()`, a template's url_for(...).
func callable(lang string, definers []*index.Entry) []*index.Entry {
	if !structure.IsCode(lang) && lang != "css" {
		return definers
	}
	out := definers[:0:0]
	for _, e := range definers {
		if index.SameFamily(lang, e.Lang) {
			out = append(out, e)
		}
	}
	return out
}
