package retrieve

import (
	"sort"
	"strconv"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/structure"
)

// maxSpans bounds the spans of one file.
const maxSpans = 8

// exactSpans: the best files of the result get spans from exact outlines
// (a tree-sitter parse each); the others from the index's fast outline.
const exactSpans = 3

// spans finds the line ranges of a returned file that matter: the
// definitions whose names match the task (its own words first, then
// synonyms and learned terms), those the other returned files call, and
// those that call into them. The best few are kept, and a definition that
// holds a kept one (a class around its methods) gives way to it.
func (rk *ranker) spans(d *index.Doc, inHand map[string]bool, exact bool) []hone.Span {
	own, other := map[string]bool{}, map[string]bool{}
	for _, c := range rk.q.concepts {
		for _, a := range c.alts {
			for _, s := range a.stems {
				if a.source == "synonym" || a.source == "vocabulary" || a.source == "thesaurus" {
					other[s] = true
				} else {
					own[s] = true
				}
			}
		}
	}
	for _, l := range rk.q.learned {
		other[l.stem] = true
	}
	type cand struct {
		hone.Span
		score float64
	}
	cands := map[string]*cand{}
	add := func(def structure.Def, why string, score float64) {
		if def.Kind == "section" && why != "match" {
			return
		}
		key := def.Name + "@" + strconv.Itoa(def.Line)
		c := cands[key]
		if c == nil {
			c = &cand{Span: hone.Span{Start: def.Line, End: max(def.Line, def.EndLine), Symbol: qualified(def), Why: why}}
			cands[key] = c
		}
		c.score += score
	}
	fc := rk.src.fastOutline(d)
	if exact {
		fc = rk.src.outline(d)
	}
	for _, def := range fc.defs {
		score := 0.0
		for _, s := range append(stemsOf(def.Name), wholeStems(def.Name)...) {
			switch {
			case own[s]:
				score += 2
			case other[s]:
				score += 0.5
			}
		}
		if score > 0 {
			add(def, "match", score)
		}
	}
	// Callees: definitions of this file that the other files in hand call.
	for _, g := range rk.gaps {
		if g.Where == d.Path && g.Kind == "call" && inHand[g.From] {
			for _, def := range fc.defs {
				if def.Name == g.Name {
					add(def, "callee", 1.5)
				}
			}
		}
	}
	// Callers: definitions of this file whose bodies call into the other
	// files in hand.
	if len(fc.calls) > 0 {
		var names []string
		for _, c := range fc.calls {
			names = append(names, c.Name)
		}
		definers := rk.ix.DefinersOf(names)
		for _, c := range fc.calls {
			ds := callable(d.Lang, definers[c.Name])
			if len(ds) == 0 || len(ds) > 3 {
				continue
			}
			target := false
			for _, e := range ds {
				target = target || e.Path != d.Path && inHand[e.Path]
			}
			if def, ok := enclosing(fc.defs, c.Line); ok && target {
				add(def, "caller", 1)
			}
		}
	}
	list := make([]*cand, 0, len(cands))
	for _, c := range cands {
		list = append(list, c)
	}
	// Candidates of one score are ordered by their lines, then their
	// names: two definitions can start on one line, and the map's order
	// must not pick which one is kept.
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		if list[i].Start != list[j].Start {
			return list[i].Start < list[j].Start
		}
		if list[i].End != list[j].End {
			return list[i].End < list[j].End
		}
		return list[i].Symbol < list[j].Symbol
	})
	var out []hone.Span
	for _, c := range list {
		if len(out) == maxSpans {
			break
		}
		holds := false
		for i := 0; i < len(out); i++ {
			o := out[i]
			switch {
			case c.Start <= o.Start && o.End <= c.End:
				holds = true // c holds a better one: leave c out
			case o.Start <= c.Start && c.End <= o.End:
				out = append(out[:i], out[i+1:]...) // c is inside a kept one: keep the inner
				i--
			}
		}
		if !holds {
			out = append(out, c.Span)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// enclosing finds the innermost definition whose lines hold line.
func enclosing(defs []structure.Def, line int) (structure.Def, bool) {
	var best structure.Def
	found := false
	for _, d := range defs {
		if d.Kind == "section" || line < d.Line || line > d.EndLine {
			continue
		}
		if !found || d.EndLine-d.Line < best.EndLine-best.Line {
			best, found = d, true
		}
	}
	return best, found
}

func qualified(d structure.Def) string {
	if d.Container != "" {
		return d.Container + "." + d.Name
	}
	return d.Name
}
