package retrieve

import (
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// The lexical evaluator judges a file by the task concepts it holds, where
// it holds them (its name, its directories, its definitions or only its
// body), the vocabulary learned from relevant files, and its calls to and
// from the files already judged relevant. Each piece of evidence is a
// probability-like strength; they combine as independent evidence (a
// noisy-or), so one strong match in a definition outweighs many mentions.

// Field strengths: how much a match in each field says about the file.
const (
	strengthName = 1.0
	strengthDef  = 0.8
	strengthDir  = 0.65
	strengthBody = 0.6 // the ceiling of body matches, reached only by dense use
	// commentShare is what a mention in a comment or docstring counts for,
	// against one in code.
	commentShare = 0.4

	// Aboutness: a file named for a concept, or in a folder named for it, is
	// about it; one that defines something named for it, in part.
	aboutName = 1.0
	aboutDir  = 0.65
	aboutDef  = 0.5

	// coverageConcepts: coverage is measured against the weight of the few
	// most important concepts, so a long task does not dilute it.
	coverageConcepts = 4
	// aboutWeight scales how much being about one key concept counts beside
	// covering the whole task.
	aboutWeight = 0.6
	// learnedWeight scales the vocabulary learned from relevant files.
	learnedWeight = 0.45

	// Support from relevant files, by edge: a relevant file calls into this
	// one on lines about the task; imports it; or this file calls into a
	// relevant one. Alone, even the strongest makes
	// a file related, not direct: with it, the file's own evidence decides.
	supportCritical = 0.5
	supportImport   = 0.35
	supportCaller   = 0.45
	// extraSupport scales every link after the strongest.
	extraSupport = 0.3

	// strengthDefEach: each further definition named for a concept adds
	// this, up to strengthDefMax. A body's mentions, against its length
	// (BM25's b, bodyLengthNorm), saturate at about bodySaturation.
	strengthDefEach = 0.05
	strengthDefMax  = 0.95
	bodyLengthNorm  = 0.5
	bodySaturation  = 2

	// A path the task names that resolves to no repository file matches a
	// file of the same name with sameNameEvidence; a path resolving to
	// other files counts otherPathShare of its match in this one.
	sameNameEvidence = 0.5
	otherPathShare   = 0.3

	// nearFloor: closeness to the relevant files below it is no evidence.
	nearFloor = 0.05

	// The prior of kinds of file a task is rarely after, unless it asks
	// for them.
	priorVendored = 0.4 // vendored or generated
	priorTest     = 0.5
	priorExample  = 0.6
	priorDocs     = 0.7
)

// learnedTerm is a term refine learned from the codebase.
type learnedTerm struct {
	stem   string
	label  string
	weight float64 // association with the task, 0..1
	source string  // "feedback" or "thesaurus"
}

// support is an edge from a relevant file to the evaluated one.
type support struct {
	from     string
	rel      float64
	name     string
	kind     string // "critical", "import" or "caller"
	strength float64
}

// lexical is the default Evaluator: it reads the index alone.
type lexical struct {
	ix *index.Index
	tp *taskParse
}

// knowledge is what the lexical evaluator knows when it judges a cycle,
// all of it read from the request.
type knowledge struct {
	concepts []*concept
	learned  []learnedTerm
	// supports maps a path to the edges that tie it to relevant files.
	supports map[string][]support
	// near is each candidate's closeness to the relevant files.
	near map[string]float64
	// relevant are the relevant files' relevance, and relDefs the names
	// they define, with the files defining each.
	relevant map[string]float64
	relDefs  map[string][]string
}

// Evaluate judges the request's candidates. After the loop (Cycle 0),
// for the ranking alone, a file's calls into the relevant files are not
// weighed: those ties are found by the cycles' dispatch.
func (lx *lexical) Evaluate(ctx context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
	k := lx.knowledge(req)
	out := make([]hone.Evaluation, 0, len(req.Candidates))
	for _, c := range req.Candidates {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := lx.ix.Doc(c.Path)
		if d == nil {
			continue
		}
		var extra []support
		if req.Cycle > 0 {
			extra = lx.callerSupports(d, k)
		}
		out = append(out, evaluate(lx.ix, lx.tp, d, k, extra))
	}
	return out, nil
}

// knowledge reads a request: the query's vocabulary, the ties its gaps
// make from relevant files, and each candidate's closeness to them.
func (lx *lexical) knowledge(req hone.EvaluateRequest) *knowledge {
	k := &knowledge{supports: map[string][]support{}, near: map[string]float64{}, relevant: map[string]float64{}, relDefs: map[string][]string{}}
	k.concepts, k.learned = vocabulary(req.Query.Terms)
	for _, ev := range req.Relevant {
		k.relevant[ev.Path] = ev.Score
	}
	for _, c := range req.Candidates {
		if c.Near > 0 {
			k.near[c.Path] = c.Near
		}
	}
	// A file the relevant code needs is judged with that in mind.
	for _, g := range req.Gaps {
		rel, ok := k.relevant[g.From]
		if g.Where == "" || !ok {
			continue
		}
		// Call gaps are always critical (made from the lines about the task).
		s := support{from: g.From, rel: rel, name: g.Name, kind: "critical", strength: supportCritical}
		if g.Kind == "import" {
			s.kind, s.strength = "import", supportImport
		}
		k.supports[g.Where] = append(k.supports[g.Where], s)
	}
	for _, ev := range req.Relevant {
		d := lx.ix.Doc(ev.Path)
		if d == nil {
			continue
		}
		for _, def := range d.Defs {
			if def.Kind != "section" && !slices.Contains(k.relDefs[def.Name], ev.Path) {
				k.relDefs[def.Name] = append(k.relDefs[def.Name], ev.Path)
			}
		}
	}
	return k
}

// callerSupports ties a file to the relevant files whose definitions it
// calls: where a relevant piece is used. A name defined in many files says
// nothing of which one is called.
func (lx *lexical) callerSupports(d *index.Doc, k *knowledge) []support {
	var out []support
	done := map[string]bool{}
	for _, name := range d.CallsOut() { // a file is no caller of what it defines
		files := k.relDefs[name]
		if len(files) == 0 {
			continue
		}
		if n := len(lx.ix.Definers(name)); n > callerDefiners {
			continue
		}
		for _, p := range files {
			if p == d.Path || done[p] {
				continue
			}
			done[p] = true
			out = append(out, support{from: p, rel: k.relevant[p], name: name, kind: "caller", strength: supportCaller})
		}
	}
	return out
}

type match struct {
	label    string
	strength float64
	where    where
}

// where is where a term showed in a file: the field, the definition that
// matched, and the code's word when it stood for the task's (a synonym,
// a learned or translated term).
type where struct {
	field string // name, path, file name, definitions, body, comments
	def   string
	as    string
}

// evaluate scores one file.
func evaluate(ix *index.Index, tp *taskParse, d *index.Doc, k *knowledge, extra []support) hone.Evaluation {
	// Coverage: how much of the task the file holds, against what a file
	// could hold (the few most important concepts).
	var denom, top float64
	for i, c := range k.concepts {
		if i < coverageConcepts {
			denom += c.weight
		}
		top = math.Max(top, c.weight)
	}
	var about float64
	var matched []match
	var contrib []float64
	for _, c := range k.concepts {
		e, a, where := conceptEvidence(ix, d, c)
		if e <= 0 {
			continue
		}
		contrib = append(contrib, c.weight*e)
		about = math.Max(about, c.weight/top*a)
		matched = append(matched, match{label: c.label, strength: e, where: where})
	}
	// Coverage counts the file's best few matches against the task's few
	// most important concepts: many weak mentions do not add up to one
	// strong match, however long the task.
	sort.Sort(sort.Reverse(sort.Float64Slice(contrib)))
	var cover float64
	for i, x := range contrib {
		if i == coverageConcepts {
			break
		}
		cover += x
	}
	if denom > 0 {
		cover = math.Min(1, cover/denom)
	}

	// The vocabulary learned from relevant files: the best term counts.
	var learned float64
	var learnedHits []match
	for _, l := range k.learned {
		e, where := altEvidence(ix, d, []string{l.stem})
		if e <= 0 {
			continue
		}
		learned = math.Max(learned, l.weight*e)
		learnedHits = append(learnedHits, match{label: l.label, strength: e, where: where})
	}

	// Links to relevant files: the strongest counts in full, the others
	// add little, so that a file many relevant ones import (a config, say)
	// is not taken for the target.
	var edges []string
	link := 1.0
	sups := append(append([]support(nil), k.supports[d.Path]...), extra...)
	sort.SliceStable(sups, func(i, j int) bool { return sups[i].rel*sups[i].strength > sups[j].rel*sups[j].strength })
	for i, s := range sups {
		x := s.rel * s.strength
		if i > 0 {
			x *= extraSupport
		}
		link *= 1 - x
		edges = append(edges, s.describe())
	}

	if near := k.near[d.Path]; near > nearFloor {
		link *= 1 - graphWeight*near
		edges = append(edges, "near the relevant files in the call graph")
	}
	rel := 1 - (1-cover)*(1-aboutWeight*about)*(1-learnedWeight*learned)*link
	rel *= prior(ix, &d.Entry, tp)
	// The relevance is not rounded: the loop rounds it, and orders ties
	// of the rounded by it.
	foreign := !d.Kind.Has(walk.Vendor) && ix.Foreign(&d.Entry)
	return hone.Evaluation{Path: d.Path, Score: rel, Reason: reason(d, foreign, matched, learnedHits, edges)}
}

func (s support) describe() string {
	switch s.kind {
	case "critical":
		return fmt.Sprintf("%s calls %s here", redact.QuotePath(s.from), s.name)
	case "import":
		return fmt.Sprintf("imported by %s", redact.QuotePath(s.from))
	default:
		return fmt.Sprintf("calls %s in %s", s.name, redact.QuotePath(s.from))
	}
}

// prior lowers files that are rarely what a task is after: tests,
// documentation, examples, vendored and generated code, and another
// project's code kept with its own licence (index.Foreign), each unless
// the task asks for it.
func prior(ix *index.Index, d *index.Entry, tp *taskParse) float64 {
	switch {
	case d.Kind.Has(walk.Vendor) && !tp.aboutVendor, d.Kind.Has(walk.Generated) && !tp.aboutGenerated:
		return priorVendored
	case !tp.aboutVendor && d.Kind&(walk.Test|walk.Docs|walk.Example) == 0 && ix.Foreign(d):
		return priorVendored
	case d.Kind.Has(walk.Test) && !tp.aboutTests:
		return priorTest
	case d.Kind.Has(walk.Example) && !tp.aboutExamples:
		return priorExample
	case d.Kind.Has(walk.Example):
		return 1
	case d.Kind.Has(walk.Docs) && !tp.aboutDocs:
		return priorDocs
	}
	return 1
}

// conceptEvidence is the strongest way a concept shows in the file, how
// much the file is about it, and where it showed.
func conceptEvidence(ix *index.Index, d *index.Doc, c *concept) (e, about float64, at where) {
	if c.kind == filePath {
		for _, f := range c.files {
			if d.Path == f {
				return 1, 1, where{field: "named"}
			}
		}
		if len(c.files) == 0 && path.Base(d.Path) == c.alts[0].label {
			return sameNameEvidence, sameNameEvidence, where{field: "file name"}
		}
	}
	var best *alt
	for i, a := range c.alts {
		tf, ok := altFreqs(d, a.stems)
		if !ok {
			continue
		}
		s := fieldStrengths(ix, d, tf)
		v := combined(s) * a.discount
		ab := a.discount * aboutness(tf)
		about = math.Max(about, ab)
		if v > e {
			e, at, best = v, strongestField(d, s, a.stems), &c.alts[i]
		}
	}
	switch {
	case best == nil:
	case best.source == "synonym" || best.source == "vocabulary" || best.source == "thesaurus" || best.source == "glossary":
		at.as = best.label
	case c.kind == prose && len(best.stems) == 1:
		at.as = otherWord(surfaceOf(d, at, best.stems[0]), best.label)
	}
	if c.kind == filePath {
		e *= otherPathShare // another file of the same name: weak
		about *= otherPathShare
	}
	return e, about, at
}

// surfaceOf is the word the file writes for a stem where it matched: the
// word of its name, of its folders, or of the definition that matched,
// else the shortest word the file has for it. "" where none shows it.
func surfaceOf(d *index.Doc, at where, stem string) string {
	find := func(s string) string {
		w := ""
		tokenize.EachShort(s, func(t tokenize.Token) {
			if w == "" && t.Stem == stem {
				w = t.Text
			}
		})
		return w
	}
	switch at.field {
	case "name":
		name, module := index.NameTexts(d.Path)
		if w := find(name); w != "" || module == "" {
			return w
		}
		return find(module) // index.ts, named for its folder
	case "path":
		return find(path.Dir(d.Path))
	case "definitions":
		if at.def != "" {
			return find(at.def)
		}
	}
	if t, ok := d.Term(stem); ok {
		return t.Word()
	}
	return ""
}

// otherWord is the file's word where it is another word than the task's
// that the stemmer took for the same ("container" for "containing",
// "expires" for "expiry"), for a reason to name both; "" where it is the
// task's word, or the one inflected ("tokens" for "token", "caching" for
// "cache", "policies" for "policy").
func otherWord(file, task string) string {
	if file == "" || uninflected(strings.ToLower(file)) == uninflected(strings.ToLower(task)) {
		return ""
	}
	return file
}

// uninflected is a lower-case English word without its inflections: up to
// two of the plural's or the verb's endings (-s, -es, -ies, -ed, -ied,
// -ing; "settings" is set), a consonant doubled before -ing or -ed
// ("running" is run), a final e, and a final y as i, so that a word's
// forms meet ("caching" and "cache" are cach, "policies" and "policy"
// polici, "cookies" and "cookie" cooki) and a word of its own does not
// ("container" is not "contain").
func uninflected(w string) string {
	for pass := 0; pass < 2; pass++ { // settings: setting, then set
		for _, end := range []struct{ from, to string }{{"ies", "i"}, {"ied", "i"}, {"ing", ""}, {"ed", ""}, {"es", ""}, {"s", ""}} {
			if end.from == "s" && (strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us")) {
				break // class, status: no plural
			}
			if r, ok := strings.CutSuffix(w, end.from); ok && len(r) >= 2 {
				if n := len(r); end.to == "" && (end.from == "ing" || end.from == "ed") && n >= 3 && r[n-1] == r[n-2] && !strings.ContainsRune("aeiouylsz", rune(r[n-1])) {
					r = r[:n-1] // running, stopped, committed
				}
				w = r + end.to
				break
			}
		}
	}
	w = strings.TrimSuffix(w, "e")
	if r, ok := strings.CutSuffix(w, "y"); ok && len(r) >= 2 {
		w = r + "i" // policy, policies; cookie, cookies
	}
	return w
}

func aboutness(tf [index.NumFields]uint16) float64 {
	switch {
	case tf[index.Name] > 0:
		return aboutName
	case tf[index.Dir] > 0:
		return aboutDir
	case tf[index.Def] > 0:
		return aboutDef
	}
	return 0
}

// altFreqs is how often a group of stems occurs together in each field: the
// least frequent stem's count. ok is false when a stem is unknown.
func altFreqs(d *index.Doc, stems []string) (tf [index.NumFields]uint16, ok bool) {
	for i, s := range stems {
		t := d.TF(s)
		if t == ([index.NumFields]uint16{}) {
			return tf, false
		}
		for f := range tf {
			if i == 0 || t[f] < tf[f] {
				tf[f] = t[f]
			}
		}
	}
	return tf, true
}

// altEvidence is the strength of a group of stems that must occur together
// in a field, combined over the fields, and where it was strongest.
func altEvidence(ix *index.Index, d *index.Doc, stems []string) (float64, where) {
	tf, ok := altFreqs(d, stems)
	if !ok {
		return 0, where{}
	}
	s := fieldStrengths(ix, d, tf)
	c := combined(s)
	if c == 0 {
		return 0, where{}
	}
	return c, strongestField(d, s, stems)
}

// strongestField names the field with the strongest evidence, with the
// definition that matched when it is a definition.
func strongestField(d *index.Doc, s [index.NumFields]float64, stems []string) where {
	bestF, best := index.Field(0), 0.0
	for f, v := range s {
		if v > best {
			best, bestF = v, index.Field(f)
		}
	}
	w := where{field: bestF.String()}
	if bestF == index.Def {
		w.def = defMatching(d, stems)
	}
	return w
}

// fieldStrengths turns a term's frequencies in each field of a file into
// evidence strengths.
func fieldStrengths(ix *index.Index, d *index.Doc, tf [index.NumFields]uint16) [index.NumFields]float64 {
	var s [index.NumFields]float64
	if tf[index.Name] > 0 {
		s[index.Name] = strengthName
	}
	if tf[index.Def] > 0 {
		s[index.Def] = math.Min(strengthDefMax, strengthDef+strengthDefEach*float64(tf[index.Def]-1))
	}
	if tf[index.Dir] > 0 {
		s[index.Dir] = strengthDir
	}
	if tf[index.Body] > 0 {
		// A mention in a comment counts less than one in code.
		code := float64(tf[index.Body]) - float64(tf[index.Comment])
		n := math.Max(0, code) + commentShare*float64(tf[index.Comment])
		norm := 1 - bodyLengthNorm + bodyLengthNorm*float64(d.Len[index.Body])/ix.AvgLen(index.Body)
		t := n / norm
		s[index.Body] = strengthBody * t / (t + bodySaturation)
	}
	return s
}

// combined is the strength of independent pieces of evidence together.
func combined(s [index.NumFields]float64) float64 {
	c := 1.0
	for _, v := range s {
		c *= 1 - v
	}
	return 1 - c
}

// defMatching names a definition of d whose name holds all the stems. A
// cheap substring test spares tokenizing most names.
func defMatching(d *index.Doc, stems []string) string {
	probe := stems[0][:min(4, len(stems[0]))]
	for _, def := range d.Defs {
		if def.Kind == "section" || !strings.Contains(strings.ToLower(def.Name), probe) {
			continue
		}
		have := map[string]bool{strings.ToLower(def.Name): true}
		tokenize.Each(def.Name, func(t tokenize.Token) { have[t.Stem] = true })
		ok := true
		for _, s := range stems {
			if !have[s] {
				ok = false
				break
			}
		}
		if ok {
			return def.Name
		}
	}
	return ""
}

// reason says, for a person, why the file scored as it did: the task's
// words it holds and how, the codebase's terms, its links to the relevant
// files, and what kind of file it is; foreign is whether it is another
// project's code (index.Foreign).
func reason(d *index.Doc, foreign bool, matched, learned []match, edges []string) string {
	var parts []string
	// The evidence a person can check, the strongest first: what the
	// file defines, is named for, or holds, for which of the task's words.
	if len(matched) > 0 {
		sort.SliceStable(matched, func(i, j int) bool { return matched[i].strength > matched[j].strength })
		// A word in a file of prose or data is in its text, not its code.
		parts = append(parts, matchesText(matched, 3, structure.IsCode(d.Lang)))
	}
	if len(learned) > 0 {
		sort.SliceStable(learned, func(i, j int) bool { return learned[i].strength > learned[j].strength })
		var ms []string
		for i, m := range learned {
			if i == 2 {
				break
			}
			ms = append(ms, m.learnedText())
		}
		parts = append(parts, "the codebase's terms: "+strings.Join(ms, ", "))
	}
	if len(edges) > 0 {
		if len(edges) > 2 {
			more := fmt.Sprintf("%d more links", len(edges)-2)
			if len(edges) == 3 {
				more = "1 more link"
			}
			edges = append(edges[:2], more)
		}
		parts = append(parts, strings.Join(edges, "; "))
	}
	if len(parts) == 0 {
		return "no task concept matched"
	}
	s := strings.Join(parts, "; ")
	switch {
	case d.Kind.Has(walk.Test):
		s += " (a test file)"
	case d.Kind.Has(walk.Vendor):
		s += " (vendored)"
	case foreign:
		s += " (another project's code, kept with its own licence)"
	case d.Kind.Has(walk.Generated):
		s += " (generated)"
	}
	return s
}

// matchesText says where the task's words showed, the first most of
// them one by one, then how many more: words that one definition holds
// are said together, `defines TOKEN_EXPIRY ("token", "expiry")`. code is
// whether the file is code, as text has it.
func matchesText(matched []match, most int, code bool) string {
	var ms []string
	byDef := map[string]int{}   // a definition's place in ms
	saids := map[int][]string{} // the words the definition at a place holds
	shown := 0
	for _, m := range matched {
		if m.where.field == "definitions" && m.where.def != "" {
			if i, ok := byDef[m.where.def]; ok {
				saids[i] = append(saids[i], m.said())
				shown++
				continue
			}
		}
		if len(ms) == most {
			continue // counted among the rest
		}
		if m.where.field == "definitions" && m.where.def != "" {
			byDef[m.where.def] = len(ms)
			saids[len(ms)] = []string{m.said()}
		}
		ms = append(ms, m.text(code))
		shown++
	}
	for def, i := range byDef {
		if len(saids[i]) > 1 {
			sep := ", "
			if slices.ContainsFunc(saids[i], func(s string) bool { return strings.Contains(s, ", for ") }) {
				sep = "; "
			}
			ms[i] = fmt.Sprintf("defines %s (%s)", def, strings.Join(saids[i], sep))
		}
	}
	if rest := len(matched) - shown; rest > 0 {
		ms = append(ms, fmt.Sprintf("%d more of the task's words", rest))
	}
	return strings.Join(ms, "; ")
}

// said is how a definition's match names the task's word: "expiry", or
// "ttl", for "expiry" where the code says it its own way.
func (m match) said() string {
	word := strings.SplitN(m.label, " / ", 2)[0]
	if m.where.as != "" && m.where.as != word {
		return fmt.Sprintf("%q, for %q", m.where.as, word)
	}
	return fmt.Sprintf("%q", word)
}

// text says where a task's word showed, for a person: "defines
// expire_token (for "expiry")", "named for token", "cookie in its code",
// or, in a file that is not code (code false: docs, data), "cookie in its
// text".
func (m match) text(code bool) string {
	word := strings.SplitN(m.label, " / ", 2)[0]
	said, forWord := fmt.Sprintf("%q", word), ""
	if m.where.as != "" && m.where.as != word {
		said, forWord = fmt.Sprintf("%q", m.where.as), fmt.Sprintf(" (for %q)", word)
	}
	switch m.where.field {
	case "named":
		return "the task names it"
	case "file name":
		return "has the file name the task names (" + word + ")"
	case "name":
		return "named for " + said + forWord
	case "path":
		return "in a folder named for " + said + forWord
	case "definitions":
		if m.where.def == "" {
			return "defines names with " + said + forWord
		}
		return fmt.Sprintf("defines %s (%s)", m.where.def, m.said())
	case "comments":
		return said + " in its comments" + forWord
	}
	if !code {
		return said + " in its text" + forWord
	}
	return said + " in its code" + forWord
}

// learnedText is a learned term's match, shorter: "throttle (defines
// RateThrottle)".
func (m match) learnedText() string {
	switch {
	case m.where.def != "":
		return fmt.Sprintf("%s (defines %s)", m.label, m.where.def)
	case m.where.field == "name":
		return m.label + " (its name)"
	}
	return m.label
}
