package index

import (
	"sort"
)

// FieldWeights are the BM25F weights of the fields: a term in a file's name
// says more than one in its body.
var FieldWeights = [NumFields]float64{Name: 5, Dir: 2, Def: 3, Body: 1}

// BM25 parameters.
const (
	k1 = 1.2
	b  = 0.75
)

// QueryTerm is one stemmed term of a search, with its weight.
type QueryTerm struct {
	Stem   string
	Weight float64
}

// Search is a BM25F query over the index.
type Search struct {
	Terms []QueryTerm
	// Keep, if set, drops the files it returns false for.
	Keep func(*Doc) bool
	// Prior, if set, multiplies each file's score.
	Prior func(*Doc) float64
	Limit int
}

// Hit is one scored file.
type Hit struct {
	Doc   *Doc
	Score float64
}

// Run scores every file holding at least one term and returns the best,
// highest score first; ties go to the shorter path.
func (ix *Index) Run(s Search) []Hit {
	scores := map[int32]float64{}
	for _, qt := range s.Terms {
		id, ok := ix.terms[qt.Stem]
		if !ok || qt.Weight <= 0 {
			continue
		}
		idf := ix.IDF(int(ix.df[id]))
		for _, docID := range ix.post[id] {
			d := ix.Docs[docID]
			tf := d.TF(id)
			scores[docID] += qt.Weight * idf * ix.saturate(d, tf)
		}
	}
	hits := make([]Hit, 0, len(scores))
	for id, sc := range scores {
		d := ix.Docs[id]
		if s.Keep != nil && !s.Keep(d) {
			continue
		}
		if s.Prior != nil {
			sc *= s.Prior(d)
		}
		if sc > 0 {
			hits = append(hits, Hit{Doc: d, Score: sc})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Doc.Path < hits[j].Doc.Path
	})
	if s.Limit > 0 && len(hits) > s.Limit {
		hits = hits[:s.Limit]
	}
	return hits
}

// saturate is BM25F's term-frequency part: field frequencies, weighted and
// normalised by field length, summed, then saturated.
func (ix *Index) saturate(d *Doc, tf [NumFields]uint16) float64 {
	var t float64
	for f := Field(0); f < NumFields; f++ {
		if tf[f] == 0 {
			continue
		}
		norm := 1 - b + b*float64(d.Len[f])/ix.avgLen[f]
		if f == Name || f == Dir {
			norm = 1 // short fields: no length penalty
		}
		t += FieldWeights[f] * float64(tf[f]) / norm
	}
	return t / (k1 + t)
}
