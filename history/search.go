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
		total += len(c.Terms)
		hit := false
		for _, t := range c.Terms {
			if count[t] > 0 {
				df[t]++
				hit = true
			}
		}
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
		w := math.Log(1+(float64(n-d)+0.5)/(float64(d)+0.5)) * (1 + math.Log(float64(count[t])))
		if inTitle[t] {
			w *= 2
		}
		q[t] = w
	}
	ms := make([]Match, 0, len(hits))
	for _, c := range hits {
		s := 0.0
		for _, t := range c.Terms {
			s += q[t]
		}
		// BM25 with each term once: k1 1.2, b 0.75.
		ms = append(ms, Match{Commit: c, Score: s * 2.2 / (1 + 1.2*(0.25+0.75*float64(len(c.Terms))/avg))})
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
