package retrieve

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/walk"
)

// The final ranking weighs the evidence the loop gathered about each file
// it evaluated: its signals. Each is a number in about 0..1; the ranking
// score is their weighted sum (rankWeights), with weights fit on a
// benchmark by `hone bench fit`, which reports them under leave-one-
// repository-out cross-validation.

// SignalNames names the signals, in the order of Ranked.Signals.
var SignalNames = []string{
	"search",       // BM25F score of the task's own terms, against the best file's
	"search_rr",    // reciprocal rank in that search
	"first",        // the evaluator's score when the file was first evaluated
	"best",         // its best score over the cycles
	"cover",        // coverage of the task's key concepts
	"about",        // named, or in a folder named, for a key concept
	"learned",      // vocabulary learned from the relevant files
	"link",         // calls and imports tying it to relevant files
	"near",         // graph proximity to the relevant files
	"path",         // the task names the file by its path
	"path_last",    // a stack trace's deepest frame: the last path named, the first in traces that print it first
	"module",       // the task names it as a dotted module path
	"ident_def",    // share of the task's identifiers the file defines
	"ident_name",   // a task identifier in the file's name
	"ident_body",   // share of the task's identifiers the file mentions
	"word_def",     // the task's key words in the file's definitions
	"message",      // a message quoted in the task, in the file's text
	"prior",        // 1 for source, less for tests, docs, examples
	"later",        // first evaluated after the first cycle
	"length",       // log of the file's length
	"test",         // a test file
	"word_name",    // a key word in the file's name
	"frames",       // how many of the task's paths name the file
	"ident_def_n",  // how many task identifiers the file defines, up to 4, over 4
	"search_top",   // BM25F's first file
	"best_top",     // the evaluator's best file
	"ident_unique", // it defines a task identifier few files define: 1 over their count
	"member_def",   // it defines a Class.member the task names
	"title_def",    // the task's first line in its name, folders and definitions
	"title_body",   // the task's first line in its text
	"module_dir",   // it lies in a package the task names by dotted path
	"widened",      // evaluated only for the ranking, not by a cycle
	"title_ident",  // it defines an identifier the task's first line names
	"title_name",   // its name is a word of the task's first line
	"defs",         // log of how many definitions it makes
	"tested",       // the tests that best match the task import it or are named for it
	"docs",         // documentation, examples or a README
	"span_cover",   // the most of the task's concepts one function of the file holds
	"span_title",   // the most of the task's first line one function of the file holds
	"history",      // past commits whose messages are like the task changed it
	"declares",     // it holds in quotes a flag, key or code the task names
}

// Signal indexes.
const (
	sigSearch = iota
	sigSearchRR
	sigFirst
	sigBest
	sigCover
	sigAbout
	sigLearned
	sigLink
	sigNear
	sigPath
	sigPathLast
	sigModule
	sigIdentDef
	sigIdentName
	sigIdentBody
	sigWordDef
	sigMessage
	sigPrior
	sigLater
	sigLength
	sigTest
	sigWordName
	sigFrames
	sigIdentDefN
	sigSearchTop
	sigBestTop
	sigIdentUnique
	sigMemberDef
	sigTitleDef
	sigTitleBody
	sigModuleDir
	sigWidened
	sigTitleIdent
	sigTitleName
	sigDefs
	sigTested
	sigDocs
	sigSpanCover
	sigSpanTitle
	sigHistory
	sigDeclares
	numSignals
)

// taskEvidence is what the task says beyond its concepts: the files it
// names by path (in order of mention), by dotted module path, and the
// messages it quotes.
type taskEvidence struct {
	paths    []string // repository files named by path, in order of mention
	lastPath string
	modules  map[string]bool
	messages [][]string // stems of each quoted message
	// definers of each identifier the task names, when few files define it
	definers map[string][]*index.Entry
	// members are the Class.member pairs the task names
	members map[[2]string]bool
	// title holds the stems of the task's first line, titleWords its
	// lower-cased words and titleIdents the identifiers it names
	title       []string
	titleWords  map[string]bool
	titleIdents map[string]bool
	// packages are folders the task names as dotted package paths
	packages []string
	// keys are the flags, kebab-case keys and codes the task names
	keys []string
}

var (
	quotedMsg = regexp.MustCompile(`"([^"\n]{12,300})"|'([^'\n]{12,300})'`)
	errorLine = regexp.MustCompile(`(?m)^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning|Failure|Panic)\b:\s*(.{8,300})$`)
	// deepestFirstTrace: stack traces that print the deepest frame first.
	deepestFirstTrace = regexp.MustCompile(`(?m)^\s+at \S|^goroutine \d+ \[`)
	dottedRef         = regexp.MustCompile(`\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){1,8}\b`)
)

// readEvidence finds the paths, module paths and messages of a task.
func readEvidence(task string, concepts []*concept, ix *index.Index) taskEvidence {
	ev := taskEvidence{modules: map[string]bool{}, keys: declaredKeys(task)}
	// Paths in order of mention.
	type at struct {
		pos   int
		files []string
	}
	var named []at
	for _, c := range concepts {
		if c.kind != filePath {
			continue
		}
		for _, m := range c.mentions {
			if len(m.files) > 0 && len(m.files) <= 3 {
				named = append(named, at{pos: strings.LastIndex(task, m.path), files: m.files})
			}
		}
	}
	// In mention order. Python prints the deepest frame last; JavaScript,
	// Java and Go print it first.
	sort.SliceStable(named, func(i, j int) bool { return named[i].pos < named[j].pos })
	for _, n := range named {
		ev.paths = append(ev.paths, n.files...)
	}
	// The deepest frame is the deepest in the code under work: a trace
	// that runs on into the reporter's test, an example or vendored code
	// passes through the frame that matters on its way there.
	deepestFirst := deepestFirstTrace.MatchString(task) && !strings.Contains(task, "most recent call last")
	for i := range named {
		n := named[len(named)-1-i]
		if deepestFirst {
			n = named[i]
		}
		if len(n.files) != 1 {
			continue
		}
		if ev.lastPath == "" {
			ev.lastPath = n.files[0]
		}
		if e := ix.Entry(n.files[0]); e != nil && e.Kind&(walk.Test|walk.Docs|walk.Example|walk.Vendor|walk.Generated) == 0 {
			ev.lastPath = n.files[0]
			break
		}
	}
	// Dotted module paths: a.b.c names a/b/c.py, a/b/c/__init__.py, or,
	// when c is a class or function, a/b.py.
	dotted := dottedRef.FindAllString(task, 80)
	var byStem map[string][]string
	for _, m := range dotted[:min(len(dotted), 40)] {
		parts := strings.Split(m, ".")
		if len(parts) < 2 {
			continue
		}
		if byStem == nil {
			byStem = map[string][]string{}
			for _, e := range ix.Entries() {
				p := strings.TrimSuffix(e.Path, path.Ext(e.Path))
				p = strings.TrimSuffix(p, "/__init__")
				p = strings.TrimSuffix(p, "/index")
				byStem[p] = append(byStem[p], e.Path)
			}
		}
		for k := len(parts); k >= 2; k-- {
			files := byStem[strings.Join(parts[:k], "/")]
			if len(files) > 0 && len(files) <= 2 {
				for _, f := range files {
					ev.modules[f] = true
					if b := path.Base(f); strings.HasPrefix(b, "__init__.") || strings.HasPrefix(b, "index.") {
						if dir := path.Dir(f); !contains(ev.packages, dir) {
							ev.packages = append(ev.packages, dir)
						}
					}
				}
				break
			}
		}
	}
	// Identifiers and the few files that define each; Class.member pairs.
	ev.definers = map[string][]*index.Entry{}
	ev.members = map[[2]string]bool{}
	var names []string
	for _, c := range concepts {
		if c.kind == identifier {
			names = append(names, c.label)
		}
	}
	for n, es := range ix.DefinersOf(names) {
		if len(es) > 0 && len(es) <= maxDefiners {
			ev.definers[n] = es
		}
	}
	for _, m := range dotted {
		parts := strings.Split(m, ".")
		for i := 0; i+1 < len(parts); i++ {
			ev.members[[2]string{parts[i], parts[i+1]}] = true
		}
	}
	// The first line: an issue's title.
	ev.titleWords, ev.titleIdents = map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(task, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			for _, s := range stemsOf(line) {
				if !genericWords[s] && !contains(ev.title, s) {
					ev.title = append(ev.title, s)
				}
			}
			for _, w := range codeIdent.FindAllString(line, -1) {
				for _, part := range strings.Split(strings.TrimSuffix(w, "()"), ".") {
					if len(part) >= 3 {
						ev.titleWords[strings.ToLower(part)] = true
						if isIdentifierLike(part) {
							ev.titleIdents[part] = true
						}
					}
				}
			}
			break
		}
	}
	// Messages: quoted, or the text of an error line.
	add := func(s string) {
		if len(strings.Fields(s)) < 3 {
			return // a path or a name, not a message
		}
		st := stemsOf(s)
		if len(st) >= 3 {
			ev.messages = append(ev.messages, st)
		}
	}
	for _, m := range quotedMsg.FindAllStringSubmatch(task, 20) {
		add(m[1] + m[2])
	}
	for _, m := range errorLine.FindAllStringSubmatch(task, 20) {
		add(m[1])
	}
	return ev
}

// signals computes a file's signals. first and best are its first and best
// evaluations; hit is its BM25F score over the best's and its rank (0 when
// the search did not return it).
func (st *state) signals(d *index.Doc, first, best verdict, hitScore float64, hitRank int) []float64 {
	x := make([]float64, numSignals)
	x[sigSearch] = hitScore
	if hitRank > 0 {
		x[sigSearchRR] = 1 / float64(hitRank)
	}
	if hitRank == 1 {
		x[sigSearchTop] = 1
	}
	x[sigFirst] = first.score
	x[sigBest] = best.score
	x[sigCover] = best.parts.cover
	x[sigAbout] = best.parts.about
	x[sigLearned] = best.parts.learned
	x[sigLink] = best.parts.link
	x[sigNear] = st.know.near[d.Path]
	te := &st.know.evidence
	for _, p := range te.paths {
		if p == d.Path {
			x[sigPath] = 1
			x[sigFrames]++
		}
	}
	x[sigFrames] = math.Min(1, x[sigFrames]/3)
	if te.lastPath == d.Path {
		x[sigPathLast] = 1
	}
	if te.modules[d.Path] {
		x[sigModule] = 1
	}
	x[sigHistory] = math.Min(1, math.Log1p(st.know.history[d.Path]))
	var idW, idDef, idBody, wordW, wordDef float64
	nDef := 0
	for i, c := range st.know.concepts {
		if len(c.alts) == 0 || c.kind == filePath {
			continue
		}
		tf := d.TF(c.alts[0].stems[0])
		if len(c.alts[0].stems) > 1 {
			tf, _ = altFreqs(d, c.alts[0].stems)
		}
		if c.kind == identifier {
			idW += c.weight
			if tf[index.Def] > 0 {
				idDef += c.weight
				nDef++
			}
			if tf[index.Name] > 0 {
				x[sigIdentName] = math.Max(x[sigIdentName], c.weight)
			}
			if tf[index.Body] > 0 {
				idBody += c.weight
			}
			continue
		}
		if i < 2*coverageConcepts {
			wordW += c.weight
			if tf[index.Def] > 0 {
				wordDef += c.weight
			}
			if tf[index.Name] > 0 {
				x[sigWordName] = math.Max(x[sigWordName], c.weight)
			}
		}
	}
	if idW > 0 {
		x[sigIdentDef] = idDef / idW
		x[sigIdentBody] = idBody / idW
	}
	x[sigIdentDefN] = math.Min(4, float64(nDef)) / 4
	if wordW > 0 {
		x[sigWordDef] = wordDef / wordW
	}
	for _, m := range te.messages {
		var have, all float64
		for _, s := range m {
			w := st.ix.IDF(max(1, st.ix.DF(s)))
			all += w
			if d.TF(s)[index.Body] > 0 {
				have += w
			}
		}
		if all > 0 {
			x[sigMessage] = math.Max(x[sigMessage], have/all)
		}
	}
	for _, es := range te.definers {
		for _, e := range es {
			if e.Path == d.Path {
				x[sigIdentUnique] = math.Max(x[sigIdentUnique], 1/float64(len(es)))
			}
		}
	}
	for _, def := range d.Defs {
		if def.Container != "" && te.members[[2]string{def.Container, def.Name}] {
			x[sigMemberDef] = 1
			break
		}
	}
	// The task's first line, said any way the code says it.
	if len(te.title) > 0 {
		var all, inDef, inBody float64
		for _, c := range st.know.concepts {
			if len(c.alts) == 0 || !contains(te.title, c.alts[0].stems[0]) {
				continue
			}
			all += c.weight
			def, body := false, false
			for _, a := range c.alts {
				tf, ok := altFreqs(d, a.stems)
				if !ok {
					continue
				}
				def = def || tf[index.Name] > 0 || tf[index.Dir] > 0 || tf[index.Def] > 0
				body = body || tf[index.Body] > 0 || tf[index.Name] > 0
			}
			if def {
				inDef += c.weight
			}
			if body {
				inBody += c.weight
			}
		}
		if all > 0 {
			x[sigTitleDef], x[sigTitleBody] = inDef/all, inBody/all
		}
	}
	for _, def := range d.Defs {
		if te.titleIdents[def.Name] {
			x[sigTitleIdent] = 1
			break
		}
	}
	if base := moduleName(d.Path); len(base) >= 3 && te.titleWords[base] {
		x[sigTitleName] = 1
	}
	x[sigDefs] = math.Log1p(float64(len(d.Defs))) / 5
	for _, dir := range te.packages {
		if strings.HasPrefix(d.Path, dir+"/") {
			x[sigModuleDir] = 1
		}
	}
	x[sigPrior] = prior(&d.Entry, &st.know)
	if st.seen[d.Path] > 1 {
		x[sigLater] = 1
	}
	x[sigLength] = math.Log1p(float64(d.Len[index.Body])) / 10
	if d.Kind.Has(walk.Test) {
		x[sigTest] = 1
	}
	if d.Kind.Has(walk.Docs) || d.Kind.Has(walk.Example) {
		x[sigDocs] = 1
	}
	return x
}

// spanCover is the largest weighted share of the task's concepts that one
// function or method of the file holds in its lines, and the same for the
// concepts of the task's first line: a file whose one function handles the
// whole task, rather than a long file that mentions each word somewhere.
func (st *state) spanCover(d *index.Doc) (all, title float64) {
	cm := st.conceptMasks()
	if cm.all == 0 || len(d.Defs) == 0 {
		return 0, 0
	}
	has := false
	for stem := range cm.bit {
		if d.TF(stem)[index.Body] > 0 {
			has = true
			break
		}
	}
	if !has {
		return 0, 0
	}
	fc := st.callsOf(d)
	masks := make([]uint64, len(fc.lines))
	for i := range fc.lines {
		for _, s := range fc.lineStems(i) {
			masks[i] |= cm.bit[s]
		}
	}
	for _, def := range d.Defs {
		if def.Kind != "function" && def.Kind != "method" {
			continue
		}
		var m uint64
		for i := max(def.Line, 1) - 1; i < min(def.EndLine, len(masks)); i++ {
			m |= masks[i]
		}
		var w, wt float64
		for _, c := range cm.concepts {
			for _, a := range c.alts {
				if a&m == a {
					w += c.weight
					if c.title {
						wt += c.weight
					}
					break
				}
			}
		}
		all = max(all, w/cm.all)
		if cm.title > 0 {
			title = max(title, wt/cm.title)
		}
	}
	return all, title
}

// maskedConcepts are the task's concepts as bit masks over their stems,
// for matching many lines fast.
type maskedConcepts struct {
	bit      map[string]uint64
	concepts []maskedConcept
	all      float64 // the concepts' total weight
	title    float64 // the total weight of those on the task's first line
}

type maskedConcept struct {
	weight float64
	title  bool     // on the task's first line
	alts   []uint64 // each alternative's stems; all must be present
}

// conceptMasks builds the masks of the task's own words and identifiers,
// once a run: 64 stems at most, the most important concepts first.
func (st *state) conceptMasks() *maskedConcepts {
	if st.masks != nil {
		return st.masks
	}
	cm := &maskedConcepts{bit: map[string]uint64{}}
	st.masks = cm
	for _, c := range st.know.concepts {
		if c.kind == filePath || c.weight <= 0 {
			continue
		}
		mc := maskedConcept{weight: c.weight, title: contains(st.know.evidence.title, c.alts[0].stems[0])}
		for _, a := range c.alts {
			if a.source != "task" && a.source != "glossary" {
				continue
			}
			var m uint64
			for _, s := range a.stems {
				b, ok := cm.bit[s]
				if !ok {
					if len(cm.bit) == 64 {
						m = 0
						break
					}
					b = 1 << len(cm.bit)
					cm.bit[s] = b
				}
				m |= b
			}
			if m != 0 {
				mc.alts = append(mc.alts, m)
			}
		}
		if len(mc.alts) > 0 {
			cm.concepts = append(cm.concepts, mc)
			cm.all += c.weight
			if mc.title {
				cm.title += c.weight
			}
		}
	}
	return cm
}

// rankScore is the ranking score of a file's signals.
func rankScore(x []float64) float64 {
	s := 0.0
	for i, v := range x {
		if i < len(rankWeights) {
			s += rankWeights[i] * v
		}
	}
	return s
}

// contextFiles is how many files the result adds, at most, for the
// context its targets need; it adds none past resultFiles in all, so that
// the result stays a handful an agent reads whole.
const (
	contextFiles = 2
	resultFiles  = 5
)

// spanFiles is how many of the best files are read for spanCover.
const spanFiles = 20

// maxDefiners: an identifier more files define says little about each.
const maxDefiners = 10

// rankWeights weigh the signals, in the order of SignalNames; a file's
// relevance is the softmax of the run's scores over rankTemp. Both come
// from `hone bench fit` on SWE-bench Lite (see the README for the figures
// under cross-validation).
var (
	rankWeights = []float64{0.3159, 0.986, 3.598, 0, 0, 0, 0, 0, -0.4408, 0.6935, 1.267, 0.1778, 1.052, -0.00728, 0.2393, 1.834, 0.4899, 0.477, -1.06, -2.818, -4.056, 1.954, 0.2312, -1.198, 0.04167, 0, 0.426, 0.8947, 1.304, 1.778, 0.3856, -0.9881, 0.751, 0.1017, 1.122, 0.4042, -1.509, 1.185, 1.35, 1.254, 2.661}
	rankTemp    = 1.05
)

// rank orders every evaluated file by its ranking score, gives each its
// calibrated relevance, and picks the result's files: the best-first
// prefix that holds Options.Coverage of the ranking's probability (but
// Options.MaxFiles files at most), and any other file at or above the
// threshold.
func (st *state) rank() (ranking []hone.Ranked, files map[string]string) {
	type scored struct {
		ev verdict
		x  []float64
		s  float64
	}
	tested := st.testPointers()
	widened := st.widen(tested)
	var all []scored
	top, topBest := "", -1.0
	for p, ev := range st.best {
		if ev.score > topBest || ev.score == topBest && p < top {
			top, topBest = p, ev.score
		}
	}
	for p, ev := range st.best {
		d := st.ix.Doc(p)
		if d == nil {
			continue
		}
		h := st.hits[p]
		x := st.signals(d, st.first[p], ev, h.score, h.rank)
		if p == top {
			x[sigBestTop] = 1
		}
		if widened[p] {
			x[sigWidened] = 1
		}
		x[sigTested] = tested[p]
		all = append(all, scored{ev: ev, x: x, s: rankScore(x)})
	}
	order := func() {
		sort.Slice(all, func(i, j int) bool {
			if all[i].s != all[j].s {
				return all[i].s > all[j].s
			}
			if all[i].ev.score != all[j].ev.score {
				return all[i].ev.score > all[j].ev.score
			}
			return all[i].ev.Path < all[j].ev.Path
		})
	}
	order()
	// Reading the lines of each function costs: only the files that
	// already stand near the top are read for it, and for the literals
	// they declare.
	for i := range all[:min(spanFiles, len(all))] {
		if d := st.ix.Doc(all[i].ev.Path); d != nil {
			all[i].x[sigSpanCover], all[i].x[sigSpanTitle] = st.spanCover(d)
			if keys := st.know.evidence.keys; len(keys) > 0 {
				all[i].x[sigDeclares] = float64(len(st.declaredBy(d))) / float64(len(keys))
			}
			all[i].s = rankScore(all[i].x)
		}
	}
	order()
	// The probability that each file is the one the task is after: a
	// softmax over the ranking's scores.
	probs := make([]float64, len(all))
	sum := 0.0
	for i, a := range all {
		probs[i] = math.Exp((a.s - all[0].s) / rankTemp)
		sum += probs[i]
	}
	out := make([]hone.Ranked, 0, len(all))
	files = map[string]string{}
	cum := 0.0
	for i, a := range all {
		p := probs[i] / sum
		r := hone.Ranked{Path: a.ev.Path, Relevance: math.Round(p*100) / 100}
		if st.opts.Signals {
			r.Signals = a.x
		}
		if cum < st.opts.Coverage && i < st.opts.MaxFiles || r.Relevance >= st.opts.Threshold {
			files[r.Path] = hone.RoleTarget
		}
		cum += p
		out = append(out, r)
	}
	// The context the targets need, when the loop judged it relevant: the
	// definitions they call on the task's lines, then the files they
	// import; contextFiles at most.
	var targets []string
	for _, r := range out {
		if files[r.Path] == hone.RoleTarget {
			targets = append(targets, r.Path)
		}
	}
	type need struct {
		path, why string
		critical  bool
		score     float64
	}
	var needs []need
	for _, g := range st.gaps {
		if g.Critical && g.Kind == "call" && files[g.From] == hone.RoleTarget {
			needs = append(needs, need{g.Where, fmt.Sprintf("%s calls %s() here on the lines about the task", g.From, g.Name), true, 0})
		}
	}
	for _, t := range targets {
		if d := st.ix.Doc(t); d != nil {
			for _, p := range st.ix.Imports(d) {
				needs = append(needs, need{p, "imported by " + t, false, 0})
			}
		}
	}
	for i := range needs {
		needs[i].score = st.best[needs[i].path].score
	}
	// What a target calls on the task's lines first, then the best judged.
	sort.SliceStable(needs, func(i, j int) bool {
		if needs[i].critical != needs[j].critical {
			return needs[i].critical
		}
		return needs[i].score > needs[j].score
	})
	added := 0
	for _, n := range needs {
		if added == contextFiles || len(files) >= resultFiles || files[n.path] != "" {
			continue
		}
		if ev, ok := st.best[n.path]; ok && ev.Relevance >= st.opts.Threshold {
			files[n.path] = hone.RoleContext
			ev.Reason = n.why + "; " + ev.Reason
			st.best[n.path] = ev
			added++
		}
	}
	return out, files
}

// The ranking also weighs files no cycle evaluated: the next best of the
// first search, the best for the task's first line, and the few files
// defining an identifier the task names.
const (
	widenSearch   = 60
	widenDefiners = 5
	widenTitle    = 15
	widenTested   = 8
	// testsSearched: the tests that best match the task, whose imports
	// point at the code under test.
	testsSearched = 5
)

// widen evaluates them, with what the loop learned; tested scores the
// files the best-matching tests exercise.
func (st *state) widen(tested map[string]float64) map[string]bool {
	out := map[string]bool{}
	add := func(e *index.Entry) {
		if e == nil || out[e.Path] || !st.keep(e) {
			return
		}
		if _, ok := st.best[e.Path]; ok {
			return
		}
		d := st.ix.Doc(e.Path)
		if d == nil {
			return
		}
		ev := evaluate(st.ix, d, &st.know, nil)
		ev.MissingContext = []string{}
		ev.Cycle = st.cycles
		st.best[e.Path], st.first[e.Path] = ev, ev
		out[e.Path] = true
	}
	var ranked []string
	for p, h := range st.hits {
		if h.rank <= widenSearch {
			ranked = append(ranked, p)
		}
	}
	sort.Slice(ranked, func(i, j int) bool { return st.hits[ranked[i]].rank < st.hits[ranked[j]].rank })
	for _, p := range ranked {
		add(st.ix.Entry(p))
	}
	// The best files for the task's first line alone: an issue's title
	// says what it is about in few words.
	if title := st.know.evidence.title; len(title) > 0 {
		var terms []index.QueryTerm
		for _, s := range title {
			terms = append(terms, index.QueryTerm{Stem: s, Weight: 1})
		}
		for _, h := range st.ix.Run(index.Search{Terms: terms, Keep: st.keep, Prior: st.searchPrior, Limit: widenTitle}) {
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
		add(st.ix.Entry(p))
	}
	var names []string
	for n, es := range st.know.evidence.definers {
		if len(es) <= widenDefiners {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		for _, e := range st.know.evidence.definers[n] {
			add(e)
		}
	}
	return out
}

// testPointers finds the tests that best match the task and scores the
// files they exercise: those they import, and the file each is named for,
// by the test's score against the best test's.
func (st *state) testPointers() map[string]float64 {
	out := map[string]float64{}
	var terms []index.QueryTerm
	for _, c := range st.know.concepts {
		terms = append(terms, conceptQueryTerms(c)...)
	}
	isTest := func(e *index.Entry) bool { return e.Kind.Has(walk.Test) && !st.excl[e.Path] }
	hits := st.ix.Run(index.Search{Terms: terms, Keep: isTest, Limit: testsSearched})
	if len(hits) == 0 {
		return out
	}
	byBase := map[string][]string{}
	for _, e := range st.ix.Entries() {
		if !e.Kind.Has(walk.Test) {
			b := strings.ToLower(strings.TrimSuffix(path.Base(e.Path), path.Ext(e.Path)))
			byBase[b] = append(byBase[b], e.Path)
		}
	}
	for _, h := range hits {
		v := h.Score / hits[0].Score
		d := st.ix.Doc(h.Entry.Path)
		if d == nil {
			continue
		}
		for _, p := range st.ix.Imports(d) {
			if e := st.ix.Entry(p); e != nil && !e.Kind.Has(walk.Test) {
				out[p] = math.Max(out[p], v)
			}
		}
		for _, b := range testSubjects(h.Entry.Path) {
			if len(byBase[b]) == 0 || len(byBase[b]) > 3 {
				continue
			}
			for _, p := range byBase[b] {
				out[p] = math.Max(out[p], v)
			}
		}
	}
	return out
}
