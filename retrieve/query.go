package retrieve

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
)

// query is what one cycle dispatches: the loop's first value, and what
// refine makes of each cycle for the next. Dispatch and the evaluator read
// it, and the trace records it (trace). Nothing changes a query once it
// is made.
type query struct {
	// concepts are the task's, with the synonyms the codebase uses.
	concepts []*concept
	// learned are the terms learned from the relevant files.
	learned []learnedTerm
	// include and exclude are the caller's globs: include is a hard
	// filter; exclude and excluded are never dispatched.
	include, exclude []string
	// patterns are where the relevant files live: they narrow the keyword
	// search.
	patterns []string
	// excluded are the files scored under hone.ExcludeBelow, in the
	// order they were excluded; isExcluded holds them too.
	excluded   []string
	isExcluded map[string]bool
	// aims are the open gaps: what the relevant files need that is not
	// in hand.
	aims []hone.Gap
	// expand are the best files so far: their neighbours are dispatched.
	expand []string
	// skip are the kinds of file left out of the search.
	skip []string
	// named are the files the task names, by path or dotted module path,
	// dispatched first: in the first query only.
	named []string
	// probes are the words refine learned for this query (the synonyms
	// the codebase uses, the terms of the relevant files), each searched on
	// its own, so that a file only the codebase's word matches is
	// evaluated.
	probes []probe
}

// probe is a learned word the next dispatch searches on its own.
type probe struct {
	label string
	stems []string
}

// firstQuery is the first cycle's: the task's concepts alone.
func firstQuery(tp *taskParse, opts hone.Options) *query {
	q := &query{
		concepts:   cloneConcepts(tp.concepts),
		include:    opts.Include,
		exclude:    opts.Exclude,
		isExcluded: map[string]bool{},
	}
	if len(opts.Include) == 0 {
		if !tp.aboutTests {
			q.skip = append(q.skip, "test")
		}
		if !tp.aboutVendor {
			q.skip = append(q.skip, "vendor")
		}
		if !tp.aboutGenerated {
			q.skip = append(q.skip, "generated")
		}
	}
	q.skip = append(q.skip, "secret")
	q.named = append(q.named, tp.evidence.paths...)
	var mods []string
	for p := range tp.evidence.modules {
		mods = append(mods, p)
	}
	sort.Strings(mods)
	q.named = append(q.named, mods...)
	return q
}

// next is a copy of q for refine to make the next query of: the lists
// it adds to are its own, aims and expand empty.
func (q *query) next() *query {
	n := &query{
		concepts:   cloneConcepts(q.concepts),
		learned:    slices.Clone(q.learned),
		include:    q.include,
		exclude:    q.exclude,
		patterns:   slices.Clone(q.patterns),
		excluded:   slices.Clone(q.excluded),
		isExcluded: make(map[string]bool, len(q.isExcluded)),
		skip:       q.skip,
	}
	for p := range q.isExcluded {
		n.isExcluded[p] = true
	}
	return n
}

// skips reports whether the query leaves a kind out.
func (q *query) skips(kind string) bool { return slices.Contains(q.skip, kind) }

// keep reports whether a file may be dispatched at all.
func (q *query) keep(e *index.Entry) bool {
	if q.isExcluded[e.Path] || !Searchable(q.include, q.exclude, e) {
		return false
	}
	if len(q.include) > 0 {
		// What the caller asks for by name is searched, whatever its kind.
		return true
	}
	return !(e.Kind.Has(walk.Vendor) && q.skips("vendor") ||
		e.Kind.Has(walk.Generated) && q.skips("generated") ||
		e.Kind.Has(walk.Test) && q.skips("test"))
}

// Searchable reports whether a file may be searched under a caller's
// globs (Options.Include and Options.Exclude): never a secret-bearing
// file, nor one exclude matches; when include is set, only those it
// matches. The loop leaves out kinds of file besides (tests, vendored and
// generated code) unless the task asks for them or include names them.
func Searchable(include, exclude []string, e *index.Entry) bool {
	if e.Kind.Has(walk.Secret) || matchAny(exclude, e.Path) {
		return false
	}
	return len(include) == 0 || matchAny(include, e.Path)
}

// anySearchable reports whether any file of the index passes the
// include and exclude patterns.
func anySearchable(ix *index.Index, include, exclude []string) bool {
	for _, e := range ix.Entries() {
		if Searchable(include, exclude, e) {
			return true
		}
	}
	return false
}

// idlePatterns says which of the include patterns match no file of the
// index, if any: "" when each matches one.
func idlePatterns(ix *index.Index, include []string) string {
	if len(include) == 0 {
		return ""
	}
	gs := compileGlobs(include)
	used := make([]bool, len(include))
	left := len(include)
	for _, e := range ix.Entries() {
		for i, g := range gs {
			if !used[i] && g.match(e.Path) {
				used[i] = true
				left--
			}
		}
		if left == 0 {
			return ""
		}
	}
	var idle []string
	for i, p := range include {
		if !used[i] {
			idle = append(idle, p)
		}
	}
	if len(idle) == 1 {
		return "the include pattern " + quotedPatterns(idle) + " matches no file of the repository: check it (a pattern reads as a .gitignore line does)"
	}
	return "the include patterns " + quotedPatterns(idle) + " match no file of the repository: check them (a pattern reads as a .gitignore line does)"
}

// quotedPatterns lists patterns for a person; one that could forge output
// (a newline, a terminal's escape) is quoted.
func quotedPatterns(ps []string) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = redact.QuotePath(p)
	}
	return strings.Join(q, ", ")
}

// patternsText names the include and exclude patterns for a person.
func patternsText(include, exclude []string) string {
	var parts []string
	if len(include) > 0 {
		parts = append(parts, "the include patterns "+quotedPatterns(include))
	}
	if len(exclude) > 0 {
		parts = append(parts, "the exclude patterns "+quotedPatterns(exclude))
	}
	return strings.Join(parts, " and ")
}

// keywordTerms are the search terms of every concept and learned term.
func (q *query) keywordTerms() []index.QueryTerm {
	ts := q.taskTerms()
	for _, l := range q.learned {
		ts = append(ts, index.QueryTerm{Stem: l.stem, Weight: learnedWeight * l.weight})
	}
	return ts
}

// taskTerms are the search terms of the task's concepts alone, with the
// synonyms the codebase uses.
func (q *query) taskTerms() []index.QueryTerm {
	var ts []index.QueryTerm
	for _, c := range q.concepts {
		ts = append(ts, conceptQueryTerms(c)...)
	}
	return ts
}

// conceptTerms searches one concept gap, with the learned vocabulary.
func (q *query) conceptTerms(label string) []index.QueryTerm {
	var ts []index.QueryTerm
	for _, c := range q.concepts {
		if c.label == label {
			ts = append(ts, conceptQueryTerms(c)...)
		}
	}
	for _, l := range q.learned {
		ts = append(ts, index.QueryTerm{Stem: l.stem, Weight: gapLearnedShare * learnedWeight * l.weight})
	}
	return ts
}

func conceptQueryTerms(c *concept) []index.QueryTerm {
	var ts []index.QueryTerm
	for _, a := range c.alts {
		w := c.weight * a.discount
		if c.kind != prose && len(a.stems) == 1 {
			w *= identifierBoost // an identifier as written: the strongest evidence
		}
		for _, s := range a.stems {
			ts = append(ts, index.QueryTerm{Stem: s, Weight: w / float64(len(a.stems))})
		}
	}
	return ts
}

// stems are the stems of the query's concepts and learned terms.
func (q *query) stems() map[string]bool {
	m := map[string]bool{}
	for _, c := range q.concepts {
		for _, a := range c.alts {
			for _, s := range a.stems {
				m[s] = true
			}
		}
	}
	for _, l := range q.learned {
		m[l.stem] = true
	}
	return m
}

// trace is the query as the result shows it, and as an evaluator gets
// it: a copy, which its reader may change without changing q.
func (q *query) trace() hone.Query {
	t := hone.Query{
		Keywords: []string{}, Terms: []hone.Term{}, Patterns: []string{}, Excludes: []string{},
		FocusAreas: []string{}, Gaps: []hone.Gap{}, Expand: []string{}, SkipKinds: []string{}, Named: []string{}, Probes: []string{},
	}
	seen := map[string]bool{}
	for _, c := range q.concepts {
		for _, a := range c.alts {
			k := strings.Join(a.stems, " ")
			if !seen[k] {
				seen[k] = true
				t.Keywords = append(t.Keywords, k)
			}
			t.Terms = append(t.Terms, hone.Term{
				Concept: c.label, Kind: c.kind.String(), Stems: slices.Clone(a.stems), Label: a.label,
				Weight: c.weight, Discount: a.discount, Source: a.source, Files: slices.Clone(c.files),
			})
		}
	}
	for _, l := range q.learned {
		if !seen[l.stem] {
			seen[l.stem] = true
			t.Keywords = append(t.Keywords, l.stem)
		}
		t.Terms = append(t.Terms, hone.Term{
			Concept: l.label, Kind: learnedKind, Stems: []string{l.stem}, Label: l.label,
			Weight: l.weight, Discount: 1, Source: l.source,
		})
	}
	t.Patterns = append(append(t.Patterns, q.include...), q.patterns...)
	t.Excludes = append(t.Excludes, q.exclude...)
	ex := slices.Clone(q.excluded)
	sort.Strings(ex)
	t.Excludes = append(t.Excludes, ex...)
	for _, g := range q.aims {
		f := g.Name
		if g.Kind == "import" {
			f = g.Where
		}
		if !slices.Contains(t.FocusAreas, f) {
			t.FocusAreas = append(t.FocusAreas, f)
		}
	}
	t.Gaps = append(t.Gaps, q.aims...)
	t.Expand = append(t.Expand, q.expand...)
	t.SkipKinds = append(t.SkipKinds, q.skip...)
	t.Named = append(t.Named, q.named...)
	for _, p := range q.probes {
		t.Probes = append(t.Probes, p.label)
	}
	return t
}

// learnedKind is the Term.Kind of a learned term.
const learnedKind = "learned"

// vocabulary reads a traced query's terms back into concepts and learned
// terms: what the lexical evaluator weighs. A concept's forms stand
// together in the terms, in order, and a new concept starts where the
// label, kind or weight changes: concepts are unique by their own words,
// so two neighbours never share all three.
func vocabulary(terms []hone.Term) ([]*concept, []learnedTerm) {
	var cs []*concept
	var ls []learnedTerm
	// A concept's forms stand together, in order.
	var last *concept
	for _, t := range terms {
		if len(t.Stems) == 0 {
			continue
		}
		if t.Kind == learnedKind {
			ls = append(ls, learnedTerm{stem: t.Stems[0], label: t.Label, weight: t.Weight, source: t.Source})
			continue
		}
		a := alt{stems: t.Stems, label: t.Label, discount: t.Discount, source: t.Source}
		if last != nil && last.label == t.Concept && last.kind.String() == t.Kind && last.weight == t.Weight {
			last.alts = append(last.alts, a)
			continue
		}
		last = &concept{label: t.Concept, kind: kindOf(t.Kind), weight: t.Weight, files: t.Files, alts: []alt{a}}
		cs = append(cs, last)
	}
	return cs, ls
}

// cloneConcepts copies concepts deeply enough that adding to one's
// alternatives leaves the other's alone.
func cloneConcepts(cs []*concept) []*concept {
	out := make([]*concept, len(cs))
	for i, c := range cs {
		cc := *c
		cc.alts = slices.Clone(c.alts)
		out[i] = &cc
	}
	return out
}

// dirPattern is the pattern of a file's folder, as refine learns it.
func dirPattern(p string) string {
	dir := path.Dir(p)
	if dir == "." {
		return "*"
	}
	return dir + "/**"
}
