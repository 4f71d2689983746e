package retrieve

import (
	"math"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
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
	// feedbackShortlist: feedback terms whose statistics are read at most.
	feedbackShortlist = 150
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

// fileCalls caches what a file calls, with its lines, for gap finding and
// feedback.
type fileCalls struct {
	parsed  bool // calls and defs are from the exact outline
	scanned bool // calls and defs are from the fast extractor
	calls   []structure.Call
	defs    []structure.Def
	lines   []string
	stems   [][]string // each line's distinct stems once tokenized, whole identifiers left out
	done    []bool
}

// lineStems tokenizes line i, once.
func (fc *fileCalls) lineStems(i int) []string {
	if fc.done == nil {
		fc.stems = make([][]string, len(fc.lines))
		fc.done = make([]bool, len(fc.lines))
	}
	if !fc.done[i] && len(fc.lines[i]) <= 400 {
		fc.done[i] = true
		tokenize.Each(fc.lines[i], func(t tokenize.Token) {
			if !t.Whole && !contains(fc.stems[i], t.Stem) {
				fc.stems[i] = append(fc.stems[i], t.Stem)
			}
		})
	}
	return fc.stems[i]
}

func (st *state) callsOf(d *index.Doc) *fileCalls {
	if fc, ok := st.calls[d.Path]; ok {
		return fc
	}
	fc := &fileCalls{}
	if src, err := st.ix.Content(&d.Entry); err == nil {
		fc.lines = strings.Split(string(src), "\n")
	}
	st.calls[d.Path] = fc
	return fc
}

// fastOutline fills calls and definitions from the exact outline when it
// was already made, else from the index's fast extractor and a scan of
// the file's lines: enough to find gaps, at a fraction of a parse.
func (st *state) fastOutline(d *index.Doc) *fileCalls {
	fc := st.callsOf(d)
	if fc.parsed || fc.scanned {
		return fc
	}
	fc.scanned = true
	fc.defs = d.Defs
	fc.calls = structure.Calls([]byte(strings.Join(fc.lines, "\n")))
	return fc
}

// outline is a file's exact outline (tree-sitter where a grammar exists),
// for the few files the loop looks at closely; the fast one otherwise.
func (st *state) outline(d *index.Doc) *fileCalls {
	fc := st.callsOf(d)
	if fc.parsed {
		return fc
	}
	if o, err := st.ix.Outline(&d.Entry); err == nil {
		fc.calls, fc.defs = o.Calls, o.Defs
	} else {
		st.fastOutline(d) // the file could not be parsed: the fast outline
	}
	fc.parsed = true
	return fc
}

// relevant lists the files at or above the threshold, best first.
func (st *state) relevant() []verdict {
	var out []verdict
	for _, ev := range st.best {
		if ev.Relevance >= st.opts.Threshold {
			out = append(out, ev)
		}
	}
	sortEvals(out)
	return out
}

// sortEvals orders evaluations best first, by unrounded relevance.
func sortEvals(evs []verdict) {
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].score != evs[j].score {
			return evs[i].score > evs[j].score
		}
		return evs[i].Path < evs[j].Path
	})
}

// refine learns from cycle n: the codebase's terms, where relevant files
// live, what to exclude, and the gaps to aim the next cycle at. It returns
// how many gaps the cycle closed.
func (st *state) refine(n int, cyc *hone.Cycle, evaluated []verdict) int {
	cyc.LearnedKeywords, cyc.LearnedSynonyms, cyc.LearnedPatterns, cyc.Excluded, cyc.Gaps = []string{}, []hone.Synonym{}, []string{}, []string{}, []hone.Gap{}
	cyc.LearnedRelated = []hone.Related{}

	// Gaps this cycle closed: their targets were evaluated knowing of them.
	closed := 0
	for _, g := range st.gaps {
		if !g.open || g.found >= n {
			continue
		}
		switch g.Kind {
		case "concept":
			g.open = false // searched for once; covered or not, it is no longer unknown
		default:
			if st.last[g.Where] == n {
				g.open = false
			}
		}
		if !g.open {
			closed++
		}
	}

	rel := st.relevant()
	feedback := rel
	if len(feedback) == 0 {
		for _, ev := range evaluated {
			if ev.Relevance >= feedbackFloor && len(feedback) < 3 {
				feedback = append(feedback, ev)
			}
		}
	}

	// Vocabulary: synonyms the codebase uses, then feedback terms. With
	// nothing relevant yet, the files named for a learned synonym show
	// what the codebase calls the things around it.
	syns := st.learnSynonyms()
	if len(rel) == 0 {
		feedback = append(feedback, st.synonymHomes(syns, feedback)...)
	}
	for _, l := range st.learnFeedback(feedback) {
		st.know.learned = append(st.know.learned, l)
		cyc.LearnedKeywords = append(cyc.LearnedKeywords, l.label)
		if l.source == "thesaurus" {
			t := st.thes[l.stem]
			cyc.LearnedRelated = append(cyc.LearnedRelated, hone.Related{Term: l.label, With: st.ix.Surface(t.with), Files: t.files})
		}
	}
	for _, s := range syns {
		cyc.LearnedKeywords = append(cyc.LearnedKeywords, s.alt.label)
		cyc.LearnedSynonyms = append(cyc.LearnedSynonyms, hone.Synonym{Term: s.alt.label, For: s.concept})
	}

	// Patterns: the directories of the relevant files.
	for _, ev := range rel {
		dir := path.Dir(ev.Path)
		pat := dir + "/**"
		if dir == "." {
			pat = "*"
		}
		if !contains(st.pats, pat) {
			st.pats = append(st.pats, pat)
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
		if st.gapsFound[ev.Path] {
			continue
		}
		st.gapsFound[ev.Path] = true
		for _, g := range st.gapsOf(st.ix.Doc(ev.Path)) {
			if st.addGap(g, n) {
				cyc.Gaps = append(cyc.Gaps, g)
			}
		}
	}
	if len(rel) > 0 {
		for _, g := range st.conceptGaps(rel) {
			if st.addGap(g, n) {
				cyc.Gaps = append(cyc.Gaps, g)
			}
		}
	}
	st.rebuildSupports()

	// Excludes: files under the floor are never evaluated again, unless a
	// relevant file needs them: then the verdict was made without knowing.
	for _, ev := range evaluated {
		if ev.Relevance < hone.ExcludeBelow && !st.excl[ev.Path] && len(st.know.supports[ev.Path]) == 0 {
			st.excl[ev.Path] = true
			cyc.Excluded = append(cyc.Excluded, ev.Path)
		}
	}
	return closed
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// addGap records a gap unless it is known already or its target is in hand.
func (st *state) addGap(g hone.Gap, n int) bool {
	if g.Where != "" {
		if ev, ok := st.best[g.Where]; ok && ev.Relevance >= st.opts.Threshold {
			return false
		}
	}
	for _, old := range st.gaps {
		if old.Kind == g.Kind && old.Name == g.Name && old.From == g.From && old.Where == g.Where {
			return false
		}
		// A concept is aimed at once per run.
		if g.Kind == "concept" && old.Kind == "concept" && old.Name == g.Name {
			return false
		}
	}
	st.gaps = append(st.gaps, &gapState{Gap: g, found: n, open: true})
	return true
}

// taskStems are the stems of the task's concepts and of learned terms.
func (st *state) taskStems() map[string]bool {
	m := map[string]bool{}
	for _, c := range st.know.concepts {
		for _, a := range c.alts {
			for _, s := range a.stems {
				m[s] = true
			}
		}
	}
	for _, l := range st.know.learned {
		m[l.stem] = true
	}
	return m
}

// gapsOf finds what a relevant file needs from files not in hand: the
// definitions it calls on the lines about the task (critical), and the
// files it imports that were never evaluated.
func (st *state) gapsOf(d *index.Doc) []hone.Gap {
	if d == nil {
		return nil
	}
	fc := st.fastOutline(d)
	own := map[string]bool{}
	for _, def := range fc.defs {
		own[def.Name] = true
	}
	imported := map[string]bool{}
	imports := st.ix.Imports(d)
	for _, p := range imports {
		imported[p] = true
	}
	stems := st.taskStems()
	var names []string
	for _, c := range fc.calls {
		if !own[c.Name] {
			names = append(names, c.Name)
		}
	}
	definers := st.ix.DefinersOf(names)
	var gaps []hone.Gap
	seen := map[string]bool{}
	perTarget := map[string]int{}
	for _, c := range fc.calls {
		if own[c.Name] || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		var target *index.Entry
		var defs []*index.Entry
		for _, o := range definers[c.Name] {
			if o.Path != d.Path && st.keep(o) {
				defs = append(defs, o)
			}
		}
		for _, o := range defs {
			if imported[o.Path] {
				target = o
				break
			}
		}
		if target == nil && len(defs) == 1 && len(imports) == 0 {
			target = defs[0] // languages without imports to follow: a unique definer
		}
		if target == nil {
			continue
		}
		// A call is a gap when its line is about the task: the relevant
		// code depends on it for exactly what the task touches. That makes
		// it critical; the file's other calls are context, not gaps.
		critical := false
		if c.Line-1 < len(fc.lines) {
			for _, s := range fc.lineStems(c.Line - 1) {
				critical = critical || stems[s]
			}
		}
		if !critical {
			continue
		}
		if perTarget[target.Path] == callsPerTarget {
			continue // the file is named already; its other calls add nothing to aim at
		}
		perTarget[target.Path]++
		gaps = append(gaps, hone.Gap{Name: c.Name, Kind: "call", From: d.Path, Where: target.Path, Critical: critical})
	}
	sort.SliceStable(gaps, func(i, j int) bool { return gaps[i].Critical && !gaps[j].Critical })
	targets := map[string]bool{}
	for _, g := range gaps {
		targets[g.Where] = true
	}
	for _, p := range imports {
		if o := st.ix.Entry(p); o != nil && !targets[p] && st.keep(o) {
			if _, evaluated := st.seen[p]; !evaluated {
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
func (st *state) conceptGaps(rel []verdict) []hone.Gap {
	var gaps []hone.Gap
	if len(st.know.concepts) == 0 {
		return nil
	}
	top := st.know.concepts[0].weight
	for _, c := range st.know.concepts {
		if c.weight < 0.6*top {
			continue
		}
		covered := false
		for _, ev := range rel {
			if e, _, _ := conceptEvidence(st.ix, st.ix.Doc(ev.Path), c); e >= 0.5 {
				covered = true
				break
			}
		}
		if !covered && bestDF(c, st.ix) > 0 {
			gaps = append(gaps, hone.Gap{Name: c.label, Kind: "concept", Critical: c.kind != prose})
		}
	}
	return gaps
}

// rebuildSupports ties the targets of the relevant files' gaps to them, so
// that a file the relevant code needs is judged with that in mind.
func (st *state) rebuildSupports() {
	sup := map[string][]support{}
	for _, g := range st.gaps {
		if g.Where == "" {
			continue
		}
		from, ok := st.best[g.From]
		if !ok || from.Relevance < st.opts.Threshold {
			continue
		}
		// Call gaps are always critical (made from the lines about the task).
		s := support{from: g.From, rel: from.Relevance, name: g.Name, kind: "critical", strength: supportCritical}
		if g.Kind == "import" {
			s.kind, s.strength = "import", supportImport
		}
		sup[g.Where] = append(sup[g.Where], s)
	}
	st.know.supports = sup
}

// relevantDefs maps the names the relevant files define to those files.
func (st *state) relevantDefs(rel map[string]float64) map[string][]string {
	defs := map[string][]string{}
	for p := range rel {
		d := st.ix.Doc(p)
		if d == nil {
			continue
		}
		for _, def := range d.Defs {
			if def.Kind != "section" && !contains(defs[def.Name], p) {
				defs[def.Name] = append(defs[def.Name], p)
			}
		}
	}
	return defs
}

// callerSupports ties a file to the relevant files whose definitions it
// calls: where a relevant piece is used. A name defined in many files says
// nothing of which one is called.
func (st *state) callerSupports(d *index.Doc, rel map[string]float64, relDefs map[string][]string) []support {
	var out []support
	done := map[string]bool{}
	for _, name := range d.Calls {
		files := relDefs[name]
		if len(files) == 0 {
			continue
		}
		if n := len(st.ix.Definers(name)); n > 3 {
			continue
		}
		for _, p := range files {
			if p == d.Path || done[p] {
				continue
			}
			done[p] = true
			out = append(out, support{from: p, rel: rel[p], name: name, kind: "caller", strength: supportCaller})
		}
	}
	return out
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
func (st *state) learnSynonyms() []learnedSynonym {
	var out []learnedSynonym
	for i := 0; i < len(st.know.concepts); i++ {
		c := st.know.concepts[i]
		if c.kind != prose {
			continue
		}
		for _, syn := range synonymsOf(c) {
			stems := phraseStems(syn)
			if len(stems) == 0 || c.hasStems(stems) {
				continue
			}
			if j := st.conceptWithStems(stems, c); j >= 0 {
				st.mergeConcepts(c, j)
				continue
			}
			present := true
			for _, s := range stems {
				if st.ix.DF(s) == 0 {
					present = false
					break
				}
			}
			if !present {
				continue
			}
			a := alt{stems: stems, label: syn, discount: synonymDiscount, source: "synonym"}
			c.alts = append(c.alts, a)
			own := st.ix.Cooccur(c.alts[0].stems)
			out = append(out, learnedSynonym{concept: c.label, alt: a, replaces: st.ix.Cooccur(stems) > 2*own})
		}
	}
	return out
}

// synonymDiscount is how much a synonym's match counts against the task's
// own word.
const synonymDiscount = 0.8

// conceptWithStems finds another prose concept whose own words are stems.
func (st *state) conceptWithStems(stems []string, not *concept) int {
	for j, o := range st.know.concepts {
		if o != not && o.kind == prose && equalStems(o.alts[0].stems, stems) {
			return j
		}
	}
	return -1
}

// mergeConcepts folds concept j into c.
func (st *state) mergeConcepts(c *concept, j int) {
	o := st.know.concepts[j]
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
	c.count += o.count
	st.know.concepts = append(st.know.concepts[:j], st.know.concepts[j+1:]...)
}

// synonymsOf looks a concept up in the synonym table by its stems, so that
// "limiting" finds the entry for "limit".
func synonymsOf(c *concept) []string {
	return synonymsByStems()[strings.Join(c.alts[0].stems, " ")]
}

var synonymsByStems = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, term := range lexicon.Terms() {
		key := strings.Join(stemsOf(term), " ")
		if key == "" {
			continue
		}
		for _, s := range lexicon.Synonyms(term) {
			if !contains(m[key], s) {
				m[key] = append(m[key], s)
			}
		}
	}
	return m
})

// synonymHomes are the files that define or are named for a learned
// synonym, as pseudo-relevant feedback.
func (st *state) synonymHomes(syns []learnedSynonym, have []verdict) []verdict {
	var out []verdict
	in := map[string]bool{}
	for _, ev := range have {
		in[ev.Path] = true
	}
	for _, s := range syns {
		if len(s.alt.stems) > 1 || !s.replaces {
			continue // phrases say too little by their parts; and only the codebase's own terms
		}
		for _, h := range st.ix.Run(index.Search{Terms: []index.QueryTerm{{Stem: s.alt.stems[0], Weight: 1}}, Keep: st.keep, Limit: 10}) {
			d := st.ix.Doc(h.Entry.Path)
			if d == nil {
				continue
			}
			tf := d.TF(s.alt.stems[0])
			if (tf[index.Name] > 0 || tf[index.Def] > 0) && !in[d.Path] && len(out) < 3 {
				in[d.Path] = true
				out = append(out, verdict{Evaluation: hone.Evaluation{Path: d.Path, Relevance: synonymHomeRelevance}})
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
func (st *state) learnFeedback(feedback []verdict) []learnedTerm {
	if len(feedback) == 0 || len(st.know.learned) >= learnMax {
		return nil
	}
	known := st.taskStems()
	thes := st.thesaurus()
	n := float64(st.ix.N())
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
	for _, ev := range feedback {
		d := st.ix.Doc(ev.Path)
		if d == nil {
			continue
		}
		counts := map[string]int{}
		fc := st.callsOf(d)
		for i := range fc.lines {
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
			c.score += ev.Relevance * (1 - math.Exp(-float64(k)/2))
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
			c.score *= 1.5
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
	st.ix.Prefetch(want)
	cands = map[string]*cand{}
	for _, c := range pre {
		df := st.ix.DF(c.stem)
		if df < 2 || float64(df) > 0.5*n || (n >= 20 && float64(df) > 0.25*n) || genericWords[st.ix.Surface(c.stem)] {
			continue // rare or everywhere: either way it finds nothing
		}
		cands[c.stem] = c
	}
	var list []*cand
	for _, c := range cands {
		df := st.ix.DF(c.stem)
		if df <= c.inDocs || (c.inDocs < 2 && !c.strong) {
			continue // finds nothing new, or too weak
		}
		c.score *= st.ix.IDF(df)
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
		if len(out) == learnPerCycle || len(st.know.learned)+len(out) >= learnMax || c.score < 0.35*list[0].score {
			break
		}
		if st.isCompound(c.stem) {
			continue
		}
		source := "feedback"
		if _, ok := thes[c.stem]; ok {
			source = "thesaurus"
		}
		out = append(out, learnedTerm{
			stem:   c.stem,
			label:  st.ix.Surface(c.stem),
			weight: 0.5 + 0.5*c.score/list[0].score,
			source: source,
		})
	}
	return out
}

// thesaurus reads, once a run, the terms the repository's thesaurus ties
// to the task's prose and identifier words, with the strongest
// association of each. Words in a quarter of the files or more are left
// out: what stands with them says nothing of the task.
func (st *state) thesaurus() map[string]thesLink {
	if st.thes != nil {
		return st.thes
	}
	st.thes = map[string]thesLink{}
	n := st.ix.N()
	var stems []string
	seen := map[string]bool{}
	for _, c := range st.know.concepts {
		if c.kind == filePath {
			continue
		}
		for _, s := range c.alts[0].stems {
			if df := st.ix.DF(s); !seen[s] && df > 0 && 4*df < n {
				seen[s] = true
				stems = append(stems, s)
			}
		}
	}
	if len(stems) > thesaurusTerms {
		sort.SliceStable(stems, func(i, j int) bool { return st.ix.DF(stems[i]) < st.ix.DF(stems[j]) })
		stems = stems[:thesaurusTerms]
	}
	for stem, nbs := range st.ix.RelatedAll(stems, thesaurusNeighbors) {
		for _, nb := range nbs {
			if nb.Assoc < thesaurusMinAssoc || seen[nb.Stem] {
				continue
			}
			if l, ok := st.thes[nb.Stem]; !ok || nb.Assoc > l.assoc || nb.Assoc == l.assoc && stem < l.with {
				st.thes[nb.Stem] = thesLink{assoc: nb.Assoc, with: stem, files: nb.Files}
			}
		}
	}
	return st.thes
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
func (st *state) isCompound(t string) bool {
	for i := 3; i+3 <= len(t); i++ {
		if st.ix.DF(t[:i]) == 0 {
			continue
		}
		if st.ix.DF(tokenize.Stem(t[i:])) > 0 || st.ix.DF(t[i:]) > 0 {
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
