package retrieve

import (
	"sort"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/lexicon"
)

// associated looks a word up in the general vocabulary; a test replaces it.
var associated = lexicon.Associated

// addVocabulary gives the task's prose words the code terms that public
// code's vocabulary ties to them (lexicon.Associated: "overload" points
// to shed), where this repository supports them: a term is taken only
// when some of its files, and not too many, hold it. A word with no
// confident association adds nothing. The terms are forms of the word's
// concept, discounted by their weight, so the first cycle already
// searches for them. A task that names the code, an identifier or one of
// the repository's files, gets none: its own words lead there.
func addVocabulary(concepts []*concept, ix *index.Index) {
	n := float64(ix.N())
	if n == 0 {
		return
	}
	for _, c := range concepts {
		if c.kind == identifier || c.kind == filePath && len(c.files) > 0 {
			// The task names the code: its own words lead there.
			return
		}
	}
	known := map[string]bool{}
	for _, c := range concepts {
		for _, a := range c.alts {
			for _, s := range a.stems {
				known[s] = true
			}
		}
	}
	type cand struct {
		c      *concept
		stem   string
		weight float64
	}
	var cands []cand
	for _, c := range concepts {
		if c.kind != prose || len(c.alts[0].stems) != 1 {
			continue
		}
		word := c.alts[0].stems[0]
		taken := 0
		for _, as := range associated(word) {
			if taken == vocabPerWord {
				break
			}
			if as.Weight < vocabMinWeight || known[as.Term] || len(as.Term) < 3 || isNumber(as.Term) || genericWords[as.Term] || codeNoise[as.Term] {
				continue
			}
			if df := ix.DF(as.Term); df == 0 || float64(df) > vocabMaxFiles*n {
				continue
			}
			known[as.Term] = true
			taken++
			cands = append(cands, cand{c, as.Term, c.weight * as.Weight})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].weight > cands[j].weight })
	if len(cands) > vocabPerTask {
		cands = cands[:vocabPerTask]
	}
	for _, k := range cands {
		k.c.alts = append(k.c.alts, alt{stems: []string{k.stem}, label: ix.Surface(k.stem), discount: vocabTermDiscount, source: "vocabulary"})
	}
}
