package retrieve

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/rankmodel"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// The final ranking weighs the evidence the loop gathered about each file
// it evaluated: its signals. Each is a number in about 0..1; the ranking
// score is their weighted sum (weights), with weights fit on
// benchmarks by `hone bench fit`, which reports them under leave-one-
// repository-out cross-validation.

// signalNames names the signals, in the order of Ranked.Signals.
var signalNames = []string{
	"search",       // BM25F score of the task's own terms, against the best file's
	"search_rr",    // reciprocal rank in that search
	"first",        // the evaluator's score when the file was first evaluated
	"best",         // its best score over the cycles
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
	"alt_def",      // share of the task's key words the file's definitions hold only in another form: a synonym, a translation, the codebase's own term
	"alt_name",     // a key word, in another form, in the file's name
	"data",         // neither code nor documentation: configuration, CI, data
	"aux",          // it lies under the project's scripts, benchmarks, tools or CI, beside the product
}

// SignalNames names the signals, in the order of Ranked.Signals. The
// slice is the caller's own.
func SignalNames() []string { return slices.Clone(signalNames) }

// Signal indexes.
const (
	sigSearch = iota
	sigSearchRR
	sigFirst
	sigBest
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
	sigAltDef
	sigAltName
	sigData
	sigAux
	numSignals
)

// signals computes a file's signals. first and best are its first and best
// evaluations; hit is its BM25F score over the best's and its rank (0 when
// the search did not return it).
func (rk *ranker) signals(d *index.Doc, first, best verdict, hitScore float64, hitRank int) []float64 {
	x := make([]float64, numSignals)
	x[sigSearch] = hitScore
	if hitRank > 0 {
		x[sigSearchRR] = 1 / float64(hitRank)
	}
	if hitRank == 1 {
		x[sigSearchTop] = 1
	}
	// The ranking was fit on the lexical evaluator's verdicts: a model's
	// joins the relevance after calibration.
	x[sigFirst] = first.lex
	x[sigBest] = rk.rec.bestLex[d.Path]
	x[sigNear] = rk.near[d.Path]
	te := &rk.tp.evidence
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
	x[sigHistory] = math.Min(1, math.Log1p(rk.history[d.Path]))
	var idW, idDef, idBody, wordW, wordDef, altDef float64
	nDef := 0
	for i, c := range rk.q.concepts {
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
			if tf[index.Def] == 0 || tf[index.Name] == 0 {
				// The other forms: the best of each where the task's own
				// word is not.
				var def, name float64
				for _, a := range c.alts[1:] {
					atf, ok := altFreqs(d, a.stems)
					if !ok {
						continue
					}
					if atf[index.Def] > 0 && tf[index.Def] == 0 {
						def = math.Max(def, a.discount)
					}
					if atf[index.Name] > 0 && tf[index.Name] == 0 {
						name = math.Max(name, a.discount)
					}
				}
				altDef += c.weight * def
				x[sigAltName] = math.Max(x[sigAltName], c.weight*name)
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
		x[sigAltDef] = altDef / wordW
	}
	for _, m := range te.messages {
		var have, all float64
		for _, s := range m {
			w := rk.ix.IDF(max(1, rk.ix.DF(s)))
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
		for _, c := range rk.q.concepts {
			if len(c.alts) == 0 || !slices.Contains(te.title, c.alts[0].stems[0]) {
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
	x[sigPrior] = prior(rk.ix, &d.Entry, rk.tp)
	if rk.rec.seen[d.Path] > 1 {
		x[sigLater] = 1
	}
	x[sigLength] = math.Log1p(float64(d.Len[index.Body])) / 10
	if d.Kind.Has(walk.Test) {
		x[sigTest] = 1
	}
	if d.Kind.Has(walk.Docs) || d.Kind.Has(walk.Example) {
		x[sigDocs] = 1
	} else if !structure.IsCode(d.Lang) {
		x[sigData] = 1
	}
	if isAux(d.Path) || !rk.tp.aboutTests && isTestHelper(d.Path) {
		x[sigAux] = 1
	}
	return x
}

// coverable says whether a file's lines are worth reading for its span
// cover (spanCoverOf): it defines functions and holds one of the task's
// concepts' stems.
func (rk *ranker) coverable(d *index.Doc) bool {
	cm := rk.conceptMasks()
	if cm.all == 0 || len(d.Defs) == 0 {
		return false
	}
	for stem := range cm.bit {
		if d.TF(stem)[index.Body] > 0 {
			return true
		}
	}
	return false
}

// spanCoverOf is the largest weighted share of the task's concepts that
// one function or method of the file holds in its lines, and the same for
// the concepts of the task's first line: a file whose one function handles
// the whole task, rather than a long file that mentions each word
// somewhere. It reads only the file's lines and cm, so that files are
// covered side by side.
func spanCoverOf(d *index.Doc, fc *fileCalls, cm *maskedConcepts) (all, title float64) {
	masks := make([]uint64, len(fc.text.lines))
	for i := range fc.text.lines {
		if !cm.mayHold.MayHold(fc.text.lines[i]) {
			continue // tokenized, it would hold none of the concepts' stems
		}
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
	all      float64              // the concepts' total weight
	title    float64              // the total weight of those on the task's first line
	mayHold  *tokenize.StemFilter // rules out lines without the stems of bit
}

type maskedConcept struct {
	weight float64
	title  bool     // on the task's first line
	alts   []uint64 // each alternative's stems; all must be present
}

// conceptMasks builds the masks of the task's own words and identifiers,
// once a run: 64 stems at most, the most important concepts first.
func (rk *ranker) conceptMasks() *maskedConcepts {
	if rk.masks != nil {
		return rk.masks
	}
	cm := &maskedConcepts{bit: map[string]uint64{}}
	rk.masks = cm
	for _, c := range rk.q.concepts {
		if c.kind == filePath || c.weight <= 0 {
			continue
		}
		mc := maskedConcept{weight: c.weight, title: slices.Contains(rk.tp.evidence.title, c.alts[0].stems[0])}
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
	cm.mayHold = tokenize.NewStemFilter(maps.Keys(cm.bit))
	return cm
}

// weights are a set of the ranking model laid out for the signals: the
// ranking's weights in the order of SignalNames, the calibration's in the
// order of rankmodel.Features, and the temperature.
type weights struct {
	rank, calibration []float64
	temperature       float64
}

// score is the ranking score of a file's signals.
func (w *weights) score(x []float64) float64 { return rankmodel.Score(w.rank, x) }

// allWeights are the ranking model's sets, laid out; a test holds the
// model and the signals to agreeing.
var allWeights = sync.OnceValue(func() map[*rankmodel.Model]*weights {
	m := rankmodel.Default()
	out := map[*rankmodel.Model]*weights{}
	for _, s := range append([]*rankmodel.Model{m}, m.Sets...) {
		w, err := s.Vector(signalNames)
		if err != nil {
			panic(err)
		}
		c, err := s.CalibrationVector(signalNames)
		if err != nil {
			panic(err)
		}
		out[s] = &weights{rank: w, calibration: c, temperature: s.Temperature}
	}
	return out
})

// weightsFor are the weights that rank a repository whose main language
// is lang (index.MainLanguage).
func weightsFor(lang string) *weights { return allWeights()[rankmodel.Default().For(lang)] }

// spanFiles is how many of the best files are read for spanCover.
const spanFiles = 20

// maxDefiners: an identifier more files define says little about each.
const maxDefiners = 10

// ranker is the loop's last stage: it turns every evaluation into the
// result. It reads what the other stages made, as values, and writes
// nothing but the result, and its caches: masks and declaredIn, and the
// files' lines and outlines it reads through the run's sources.
type ranker struct {
	ix  *index.Index
	tp  *taskParse
	q   *query // the last query: the task's concepts as the run came to say them
	src *sources
	rec *record
	// hits is the first cycle's search; near the last cycle's candidates'
	// closeness to the relevant files; gaps every gap found.
	hits map[string]hit
	near map[string]float64
	gaps []hone.Gap
	// widened are the files evaluated for the ranking alone; tested
	// scores the files the best-matching tests exercise.
	widened map[string]bool
	tested  map[string]float64
	// history scores the files past commits like the task changed;
	// commits are those commits.
	history map[string]float64
	commits []history.Match
	shown   map[string]bool // the hashes of the past commits the result shows
	opts    hone.Options
	// w weighs the signals: the model's set for the repository's main
	// language.
	w *weights

	masks      *maskedConcepts
	declaredIn map[string][]string
	// changelogs: the repository's changelogs with their shares of its
	// recent changes, one placed in the result's ranking (withChangelog).
	changelogs map[string]float64
	// log is the repository's history, nil without one: the ranking's
	// best file's option documentation is read in it (optionDoc).
	log *history.Log
}

// searchable reports whether the caller's globs let the file at p be
// searched (Searchable).
func (rk *ranker) searchable(p string) bool {
	e := rk.ix.Entry(p)
	return e != nil && Searchable(rk.opts.Include, rk.opts.Exclude, e)
}

// content is a file's text, read once a run through its sources (the
// best file's, read for the ranking already): empty when it cannot be
// read.
func (rk *ranker) content(e *index.Entry) string {
	d := rk.ix.Doc(e.Path)
	if d == nil {
		return ""
	}
	return rk.src.callsOf(d).text.content
}

// result fills in the result: the task's concepts, the ranking, the
// files with their roles, reasons, missing context and spans, and the
// tests that exercise them.
func (rk *ranker) result(res *hone.Result) {
	res.Concepts = []hone.Concept{}
	for _, c := range rk.q.concepts {
		ci := hone.Concept{Label: c.label, Kind: c.kind.String(), Weight: math.Round(c.weight*100) / 100}
		for _, a := range c.alts {
			ci.Terms = append(ci.Terms, strings.Join(a.stems, " "))
		}
		res.Concepts = append(res.Concepts, ci)
	}
	ranking, chosen, fallback := rk.rank()
	res.Ranking = ranking
	// The past commits the result shows, which the files' reasons cite:
	// a reason names no commit the result does not list.
	res.PastCommits = shownCommitsOf(rk.commits, ranking)
	rk.shown = map[string]bool{}
	for _, c := range res.PastCommits {
		rk.shown[c.Hash] = true
	}
	if len(chosen) == 0 && len(ranking) > 0 {
		res.Notice = "nothing found: no file holds any of the task's words"
	}
	inHand := map[string]bool{}
	for p := range chosen {
		inHand[p] = true
	}
	res.Files = []hone.File{}
	// The files best first, then the context they need.
	var order []hone.Ranked
	for _, context := range []bool{false, true} {
		for _, r := range ranking {
			if c, ok := chosen[r.Path]; ok && (c.role == hone.RoleContext) == context {
				order = append(order, r)
			}
		}
	}
	for _, r := range order {
		c := chosen[r.Path]
		ev := rk.rec.best[r.Path].Evaluation
		f := hone.File{Path: r.Path, Relevance: r.Relevance, Role: c.role, Score: ev.Score, Reason: ev.Reason, Cycle: ev.Cycle}
		if m, ok := rk.rec.bestModel[r.Path]; ok {
			m = math.Round(m*100) / 100
			f.ModelScore = &m
		}
		f.MissingContext = rk.missing(r.Path, inHand)
		if c.why != "" {
			f.Reason = c.why + "; " + f.Reason
		}
		f.Reason = rk.rankedReason(r.Path, f.Reason)
		// Always a list, empty where no definition matters: the JSON's
		// readers loop over it.
		f.Spans = []hone.Span{}
		if d := rk.ix.Doc(r.Path); d != nil {
			f.Spans = append(f.Spans, rk.spans(d, inHand, len(res.Files) < exactSpans)...)
		}
		res.Files = append(res.Files, f)
	}
	if fallback && len(res.Files) > 0 {
		best := 0
		for _, f := range res.Files {
			if f.Role != hone.RoleContext {
				best++
			}
		}
		n, them := fmt.Sprintf("the best file is returned, at %.2f", res.Files[0].Relevance), "it"
		if best > 1 {
			them = "them"
			hi, lo := fmt.Sprintf("%.2f", res.Files[0].Relevance), fmt.Sprintf("%.2f", res.Files[best-1].Relevance)
			n = fmt.Sprintf("the best %d files are returned, at %s", best, hi)
			if lo != hi {
				n += " to " + lo // a range only where its ends differ
			}
		}
		res.Notice = fmt.Sprintf("no file reached relevance %s: %s, as the evidence supports no more; check before relying on %s", hone.ThresholdText(rk.opts.Threshold), n, them)
	}
	res.RelatedTests = rk.relatedTests(res.Files)
}

// missing lists what a returned file needs that is not among the result's
// files.
func (rk *ranker) missing(p string, inHand map[string]bool) []string {
	out := []string{}
	for _, g := range rk.gaps {
		if g.From == p && !inHand[g.Where] {
			out = append(out, describeGap(g))
		}
	}
	return out
}

// rank orders every evaluated file by its ranking score, gives each its
// calibrated relevance, and picks the result's files with their roles:
// those at or above the threshold, Options.MaxFiles at most (when none
// is, the best few, as many as make the best expected F1, and fallback
// says so); tests among them are tests, the rest targets; then the
// context the targets need, as the loop found it.
func (rk *ranker) rank() (ranking []hone.Ranked, files map[string]chosen, fallback bool) {
	// The files are chosen from the ranking as the result gives it, the
	// changelog and the options' documentation placed: a file placed at
	// the threshold is among them.
	out := rk.placed(rk.ranking())
	if !rk.evidence() {
		return out, map[string]chosen{}, false
	}
	p := make([]float64, len(out))
	for i, r := range out {
		p[i] = r.Relevance
	}
	picked, fallback := rankmodel.Choose(p, rk.opts.Threshold, rk.opts.MaxFiles)
	relevance := make(map[string]float64, len(out))
	for _, r := range out {
		relevance[r.Path] = r.Relevance
	}
	files = map[string]chosen{}
	for _, i := range picked {
		role := hone.RoleTarget
		if e := rk.ix.Entry(out[i].Path); e != nil && e.Kind.Has(walk.Test) {
			role = hone.RoleTest
		}
		files[out[i].Path] = chosen{role: role}
	}
	// The context the targets need, which the loop judged relevant: the
	// definitions they call on the task's lines, then the files they
	// import; contextFiles at most, and none past resultFiles, nor past
	// the caller's MaxFiles, in all.
	type need struct {
		path, why string
		critical  bool
		score     float64
	}
	var needs []need
	for _, g := range rk.gaps {
		if g.Critical && g.Kind == "call" && files[g.From].role == hone.RoleTarget {
			needs = append(needs, need{g.Where, fmt.Sprintf("%s calls %s() here on the lines about the task", redact.QuotePath(g.From), g.Name), true, 0})
		}
	}
	for _, i := range picked {
		if files[out[i].Path].role != hone.RoleTarget {
			continue
		}
		if d := rk.ix.Doc(out[i].Path); d != nil {
			for _, p := range rk.ix.Imports(d) {
				needs = append(needs, need{p, "imported by " + redact.QuotePath(out[i].Path), false, 0})
			}
		}
	}
	for i := range needs {
		needs[i].score = rk.rec.best[needs[i].path].score
	}
	sort.SliceStable(needs, func(i, j int) bool {
		if needs[i].critical != needs[j].critical {
			return needs[i].critical
		}
		return needs[i].score > needs[j].score
	})
	added := 0
	for _, n := range needs {
		if added == contextFiles || len(files) >= min(resultFiles, rk.opts.MaxFiles) {
			break
		}
		if _, ok := files[n.path]; ok {
			continue
		}
		if ev, ok := rk.rec.best[n.path]; ok && ev.Score >= rk.opts.Threshold && relevance[n.path] >= contextFloor {
			files[n.path] = chosen{role: hone.RoleContext, why: n.why}
			added++
		}
	}
	return out, files, fallback
}

// evidence reports whether the run found any evidence of the task: a file
// the evaluator found some of it in, one a model judged tangential at
// least, or one that past commits like it changed. Without any, a file
// the ranking puts first (one the tests that best match the task's
// synonyms import) is no answer, and the result has none.
func (rk *ranker) evidence() bool {
	for _, lex := range rk.rec.bestLex {
		if lex > 0 {
			return true
		}
	}
	for _, m := range rk.rec.bestModel {
		if m >= contextFloor {
			return true
		}
	}
	for _, h := range rk.history {
		if h > 0 {
			return true
		}
	}
	return false
}

// placed is the ranking with the changelog and the options'
// documentation placed by their shares, as the caller's globs allow, as a
// search would find them.
func (rk *ranker) placed(ranking []hone.Ranked) []hone.Ranked {
	logs := map[string]float64{}
	for p, sh := range rk.changelogs {
		if rk.searchable(p) {
			logs[p] = sh
		}
	}
	ranking = withChangelog(ranking, logs)
	if len(ranking) > 0 && rk.log != nil && writesOption(rk.tp.clean) {
		if doc, share := optionDoc(rk.ix, rk.log, ranking[0].Path, rk.content); doc != "" && rk.searchable(doc) {
			ranking = withOptionDoc(ranking, doc, share)
		}
	}
	return ranking
}

// contextFiles is how many files the result adds, at most, for the
// context its targets need; it adds none past resultFiles in all, so that
// the result stays a handful an agent reads whole; and each must be at
// least tangential on the relevance scale (contextFloor): a file the
// ranking puts at 0.00 is no file to hand an agent, whatever calls it.
const (
	contextFiles = 2
	resultFiles  = 5
	contextFloor = 0.2
)

// ranking orders every evaluated file by its ranking score, each with its
// relevance, rounded to the two places every output shows.
func (rk *ranker) ranking() []hone.Ranked {
	type scored struct {
		ev verdict
		x  []float64
		s  float64
	}
	tested, widened := rk.tested, rk.widened
	var all []scored
	top, topBest := "", -1.0
	for p, lex := range rk.rec.bestLex {
		if lex > topBest || lex == topBest && p < top {
			top, topBest = p, lex
		}
	}
	for p, ev := range rk.rec.best {
		d := rk.ix.Doc(p)
		if d == nil {
			continue
		}
		h := rk.hits[p]
		x := rk.signals(d, rk.rec.first[p], ev, h.score, h.rank)
		if p == top && topBest > 0 {
			// The evaluator's best file, where it found any evidence: of
			// files it judged all at nothing, the first by name is none.
			x[sigBestTop] = 1
		}
		if widened[p] {
			x[sigWidened] = 1
		}
		x[sigTested] = tested[p]
		all = append(all, scored{ev: ev, x: x, s: rk.w.score(x)})
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
	head := all[:min(spanFiles, len(all))]
	docs := make([]*index.Doc, len(head))
	worth := make([]*index.Doc, len(head)) // the docs whose lines are read for the cover
	for i := range head {
		docs[i] = rk.ix.Doc(head[i].ev.Path)
		if docs[i] != nil && rk.coverable(docs[i]) {
			worth[i] = docs[i]
		}
	}
	// Their lines are read and tokenized side by side.
	cm := rk.conceptMasks()
	fcs := rk.src.callsOfAll(worth)
	covers := make([][2]float64, len(head))
	sideBySide(len(head), func(i int) {
		if fcs[i] != nil {
			covers[i][0], covers[i][1] = spanCoverOf(worth[i], fcs[i], cm)
		}
	})
	for i := range head {
		if d := docs[i]; d != nil {
			all[i].x[sigSpanCover], all[i].x[sigSpanTitle] = covers[i][0], covers[i][1]
			if keys := rk.tp.evidence.keys; len(keys) > 0 {
				all[i].x[sigDeclares] = float64(len(rk.declaredBy(d))) / float64(len(keys))
			}
			all[i].s = rk.w.score(all[i].x)
		}
	}
	order()
	// Each file's relevance: the probability that the task needs it,
	// calibrated on its signals and its score among the others'.
	scores := make([]float64, len(all))
	xs := make([][]float64, len(all))
	for i, a := range all {
		scores[i], xs[i] = a.s, a.x
	}
	rel := rankmodel.Calibrated(scores, xs, rk.w.temperature, rk.w.calibration)
	out := make([]hone.Ranked, 0, len(all))
	reorder := false
	for i, a := range all {
		m, judged := rk.rec.bestModel[a.ev.Path]
		if !judged && a.ev.Score < hone.ExcludeBelow && rel[i] > irrelevantMost {
			// Every verdict called it irrelevant: the signals alone do
			// not make it more than tangential (a one-word task whose
			// word one file holds, "improve performance").
			rel[i], reorder = irrelevantMost, true
		}
		if judged {
			rel[i], reorder = hone.JoinScores(rel[i], m), true
		}
		r := hone.Ranked{Path: a.ev.Path, Relevance: math.Round(rel[i]*100) / 100}
		if rk.opts.Signals {
			r.Signals = a.x
		}
		out = append(out, r)
	}
	if reorder {
		// A model's verdicts reorder the files by their joined relevance,
		// as does a relevance held down.
		order := make([]int, len(out))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return rel[order[i]] > rel[order[j]] })
		sorted := make([]hone.Ranked, len(out))
		for i, k := range order {
			sorted[i] = out[k]
		}
		out = sorted
	}
	return out
}

// chosen is a result file's role, and why it has it when that is not
// plain from its evaluation.
type chosen struct {
	role, why string
}

// auxFolders hold what a project keeps beside its product: scripts,
// benchmarks, tools, interoperability programs, CI, and the superseded
// code a legacy folder keeps for compatibility (lib/legacy/v05.c). A
// folder whose name is true here is auxiliary wherever it lies; one whose
// name is false, only outside a source tree (see sourceRoots): inside
// one it is a module of the product, as a benchmarking tool's
// src/benchmark/ is, or a part of a package's name (com/example/tools/).
var auxFolders = map[string]bool{
	"scripts": false, "script": false, "benchmark": false, "benchmarks": false, "bench": false, "benches": false,
	"tools": false, "tool": false, "interop": false, "contrib": false, "hack": true, "ci": true, ".github": true,
	".circleci": true, "devtools": true, "legacy": true,
	"microbench": true, "microbenchmark": true, "microbenchmarks": true, "jmh": true,
}

// testHelperFolders hold what a project's tests share (a daemon to test
// against, an environment to clean), which walk counts as source, for
// some libraries publish such a package for their users' tests: beside
// the product all the same, unless the task is about tests.
var testHelperFolders = map[string]bool{
	"testutil": true, "testutils": true, "test_utils": true, "testhelper": true, "testhelpers": true,
	"test_helper": true, "test_helpers": true, "testsupport": true, "test_support": true, "testenv": true,
}

// isTestHelper reports whether a file lies under one of the
// testHelperFolders.
func isTestHelper(p string) bool {
	dir, _, ok := strings.Cut(p, "/")
	for ok {
		if testHelperFolders[strings.ToLower(dir)] {
			return true
		}
		p = p[len(dir)+1:]
		dir, _, ok = strings.Cut(p, "/")
	}
	return false
}

// sourceRoots are the folders a source tree starts at: src/main/java,
// Rust's and most languages' src, Swift's Sources.
var sourceRoots = map[string]bool{"src": true, "source": true, "sources": true}

// isAux reports whether a file lies under one of the auxFolders.
func isAux(p string) bool {
	inSource := false
	for {
		dir, rest, ok := strings.Cut(p, "/")
		if !ok {
			return false
		}
		d := strings.ToLower(dir)
		if always, ok := auxFolders[d]; ok && (always || !inSource) {
			return true
		}
		inSource = inSource || sourceRoots[d]
		p = rest
	}
}
