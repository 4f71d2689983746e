package history

import (
	"math"
	"sort"
	"strings"

	"github.com/hone-tools/hone/tokenize"
)

// Match is a past commit whose message is like the task.
type Match struct {
	Commit *Commit
	Score  float64 // BM25 of its message against the task, 1 for the best
}

// Similar finds the top commits, those that changed files, whose messages
// are most like the task's words (BM25; the task's first line counts
// double), best first.
func (l *Log) Similar(task string, top int) []Match {
	if l == nil || len(l.Commits) == 0 || top <= 0 {
		return nil
	}
	df := map[string]int{}
	n, total := 0, 0
	for _, c := range l.Commits {
		if len(c.Files) == 0 {
			continue
		}
		n++
		total += len(c.Terms)
		for _, t := range c.Terms {
			df[t]++
		}
	}
	if n == 0 {
		return nil
	}
	avg := float64(total) / float64(n)
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
	q := map[string]float64{}
	for t, c := range count {
		d := df[t]
		if d == 0 {
			continue
		}
		w := math.Log(1+(float64(n-d)+0.5)/(float64(d)+0.5)) * (1 + math.Log(float64(c)))
		if inTitle[t] {
			w *= 2
		}
		q[t] = w
	}
	if len(q) == 0 {
		return nil
	}
	var ms []Match
	for _, c := range l.Commits {
		if len(c.Files) == 0 {
			continue
		}
		s := 0.0
		for _, t := range c.Terms {
			s += q[t]
		}
		if s == 0 {
			continue
		}
		// BM25 with each term once: k1 1.2, b 0.75.
		ms = append(ms, Match{Commit: c, Score: s * 2.2 / (1 + 1.2*(0.25+0.75*float64(len(c.Terms))/avg))})
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Score > ms[j].Score })
	if len(ms) > top {
		ms = ms[:top]
	}
	if len(ms) > 0 {
		best := ms[0].Score
		for i := range ms {
			ms[i].Score /= best
		}
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
