package history

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/hone-tools/hone/tokenize"
)

// Match is a past commit whose message is like the task.
type Match struct {
	Commit *Commit
	Score  float64 // BM25 of its message against the task, 1 for the best
	Named  bool    // the task names it (Named's matches)
}

// Similar finds the top commits, those that changed files, whose messages
// are most like the task's words (BM25; the task's first line counts
// double), best first.
func (l *Log) Similar(task string, top int) []Match {
	if l == nil || len(l.Commits) == 0 || top <= 0 {
		return nil
	}
	title, _, _ := strings.Cut(task, "\n")
	inTitle := map[string]bool{}
	for _, t := range messageTerms(title) {
		inTitle[t] = true
	}
	count := map[string]int{}
	tokenize.Each(task, func(t tokenize.Token) {
		if !t.Whole && !tokenize.IsStopWord(t.Text) {
			count[t.Stem]++
		}
	})
	weigh := func(t string, d, n int) float64 {
		w := math.Log(1+(float64(n-d)+0.5)/(float64(d)+0.5)) * (1 + math.Log(float64(count[t])))
		if inTitle[t] {
			w *= 2
		}
		return w
	}
	var ms []Match
	if l.similar.Add(1) > 1 {
		// A log searched again, as in a process that answers many
		// retrievals, is searched through its terms index.
		l.terms.Do(func() { l.ti = newTermIndex(l.Commits) })
		ms = l.ti.similar(count, weigh)
	} else {
		ms = l.scan(count, weigh)
	}
	if len(ms) == 0 {
		return nil
	}
	// Generic, not by reflection: the matches are thousands.
	slices.SortStableFunc(ms, func(a, b Match) int { return cmp.Compare(b.Score, a.Score) })
	if len(ms) > top {
		ms = ms[:top]
	}
	best := ms[0].Score
	for i := range ms {
		ms[i].Score /= best
	}
	return ms
}

// scan scores the commits that changed files and hold any of the task's
// terms (count) in one pass over the log, in its order; weigh weighs a
// term by its count of commits in n.
func (l *Log) scan(count map[string]int, weigh func(t string, d, n int) float64) []Match {
	// One pass counts the commits holding each of the task's terms, and
	// keeps those holding any.
	df := map[string]int{}
	var hits []*Commit
	n, total := 0, 0
	for _, c := range l.Commits {
		if len(c.Files) == 0 {
			continue
		}
		n++
		total += c.termCount()
		hit := false
		c.eachTerm(func(t string) {
			if count[t] > 0 {
				df[t]++
				hit = true
			}
		})
		if hit {
			hits = append(hits, c)
		}
	}
	if len(hits) == 0 {
		return nil
	}
	avg := float64(total) / float64(n)
	q := map[string]float64{}
	for t, d := range df {
		q[t] = weigh(t, d, n)
	}
	ms := make([]Match, 0, len(hits))
	for _, c := range hits {
		s := 0.0
		c.eachTerm(func(t string) { s += q[t] })
		ms = append(ms, Match{Commit: c, Score: bm25(s, c.termCount(), avg)})
	}
	return ms
}

// bm25 is a commit's score from the sum of its terms' weights: BM25 with
// each term once, k1 1.2, b 0.75.
func bm25(s float64, terms int, avg float64) float64 {
	return s * 2.2 / (1 + 1.2*(0.25+0.75*float64(terms)/avg))
}

// termIndex is a log's commits that changed files, by term: what scan
// finds in one pass over the log, found from the task's terms alone.
type termIndex struct {
	commits []*Commit // those that changed files, in the log's order
	ids     map[string]int32
	terms   [][]int32 // each commit's terms, as ids, in its order
	holders [][]int32 // for each term, the commits holding it, in order
	total   int       // the commits' terms
}

func newTermIndex(log []*Commit) *termIndex {
	ti := &termIndex{ids: map[string]int32{}}
	for _, c := range log {
		if len(c.Files) == 0 {
			continue
		}
		k := int32(len(ti.commits))
		ti.commits = append(ti.commits, c)
		ids := make([]int32, 0, c.termCount())
		c.eachTerm(func(t string) {
			id, ok := ti.ids[t]
			if !ok {
				id = int32(len(ti.holders))
				ti.ids[t] = id
				ti.holders = append(ti.holders, nil)
			}
			ids = append(ids, id)
			ti.holders[id] = append(ti.holders[id], k)
		})
		ti.terms = append(ti.terms, ids)
		ti.total += c.termCount()
	}
	return ti
}

// similar is scan's answer, from the index: the same commits, in the same
// order, with the same scores, each summed in the same order.
func (ti *termIndex) similar(count map[string]int, weigh func(t string, d, n int) float64) []Match {
	n := len(ti.commits)
	q := map[int32]float64{}
	hit := make([]bool, n)
	hits := 0
	for t, c := range count {
		id, ok := ti.ids[t]
		if !ok || c <= 0 {
			continue
		}
		q[id] = weigh(t, len(ti.holders[id]), n)
		for _, k := range ti.holders[id] {
			if !hit[k] {
				hit[k] = true
				hits++
			}
		}
	}
	if hits == 0 {
		return nil
	}
	avg := float64(ti.total) / float64(n)
	ms := make([]Match, 0, hits)
	for k, h := range hit {
		if !h {
			continue
		}
		s := 0.0
		for _, id := range ti.terms[k] {
			s += q[id]
		}
		c := ti.commits[k]
		ms = append(ms, Match{Commit: c, Score: bm25(s, c.termCount(), avg)})
	}
	return ms
}

// FileScores sums, for each file, the scores of the matches that changed
// it, each shared among the files its commit changed (over the square
// root of their count).
func FileScores(ms []Match) map[string]float64 {
	out := map[string]float64{}
	for _, m := range ms {
		share := m.Score / math.Sqrt(float64(len(m.Commit.Files)))
		for _, f := range m.Commit.Files {
			out[f] += share
		}
	}
	return out
}
