package rankmodel

import (
	"math"
	"sort"
)

// The relevance of a file is the probability that the task needs it, to
// change or to read, judged for each file on its own: several files can
// each be near 1, and all can be near 0. It is a logistic function of its
// ranking score seen among its run's other scores (CalibrationFeatures),
// fit by `hone bench calibrate` on benchmark runs whose changed files are
// known.

// CalibrationFeatures name the features of a file's score that its
// relevance weighs, in the order Features gives them; the file's signals
// follow them, each named SignalFeature(name).
var CalibrationFeatures = []string{
	"bias",   // 1
	"score",  // the file's ranking score
	"gap",    // its score less the run's best, 0 for the best file
	"spread", // log of the softmax's sum: how many files stand near the best
	"top",    // 1 for the best file
	"lead",   // for the best file, its score less the second best
}

// SignalFeature names a signal as a calibration feature.
func SignalFeature(name string) string { return "signal." + name }

// Features computes each file's calibration features from its run's
// scores, in the order of CalibrationFeatures, then its signals, x.
func Features(scores []float64, temp float64, x [][]float64) [][]float64 {
	if temp <= 0 {
		temp = 1
	}
	best, second, top := math.Inf(-1), math.Inf(-1), -1
	for i, s := range scores {
		switch {
		case s > best:
			best, second, top = s, best, i
		case s > second:
			second = s
		}
	}
	sum := 0.0
	for _, s := range scores {
		sum += math.Exp((s - best) / temp)
	}
	spread := math.Log(sum)
	lead := 0.0
	if !math.IsInf(second, -1) {
		lead = best - second
	}
	out := make([][]float64, len(scores))
	for i, s := range scores {
		f := []float64{1, s, s - best, spread, 0, 0}
		if i == top {
			f[4], f[5] = 1, lead
		}
		if i < len(x) {
			f = append(f, x[i]...)
		}
		out[i] = f
	}
	return out
}

// Logistic is the probability of a linear score.
func Logistic(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// Calibrated is each file's relevance, given its run's scores, its
// signals, the temperature and the calibration's weights in the order of
// Features. It never grows as the score falls, so that a ranking by score
// is a ranking by relevance: where the signals would put a file above
// one its score ranks over, the files between share their mean (Monotone).
func Calibrated(scores []float64, x [][]float64, temp float64, w []float64) []float64 {
	out := make([]float64, len(scores))
	for i, f := range Features(scores, temp, x) {
		out[i] = Logistic(Score(w, f))
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	Monotone(out, order)
	return out
}

// Monotone makes p non-increasing along order (indexes into p, best
// first), with the least change in the squared sense: each run of values
// that rises is replaced by its mean, until none rises (isotonic
// regression by pooling adjacent violators). The mean of p is kept, and
// with it the calibration on average; on the development sets the files'
// log loss is level or lower with it, each set.
func Monotone(p []float64, order []int) {
	type block struct {
		sum float64
		n   int
	}
	blocks := make([]block, 0, len(order))
	for _, i := range order {
		blocks = append(blocks, block{p[i], 1})
		for k := len(blocks) - 1; k > 0 && blocks[k-1].sum*float64(blocks[k].n) < blocks[k].sum*float64(blocks[k-1].n); k-- {
			blocks[k-1].sum += blocks[k].sum
			blocks[k-1].n += blocks[k].n
			blocks = blocks[:k]
		}
	}
	at := 0
	for _, b := range blocks {
		mean := b.sum / float64(b.n)
		for _, i := range order[at : at+b.n] {
			p[i] = mean
		}
		at += b.n
	}
}

// Prefix is the first n files.
func Prefix(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// AtLeast are the files whose relevance reaches the threshold, in ranking
// order, max at most.
func AtLeast(p []float64, threshold float64, max int) []int {
	var out []int
	for i, v := range p {
		if v >= threshold && len(out) < max {
			out = append(out, i)
		}
	}
	return out
}

// BestF is how many of the first files, max at most and one at least,
// make the set whose F-beta against the files the task needs is best in
// expectation, their relevance taken as the chance each is needed: the
// expected needed files it holds, weighed against its size and the
// needed files expected in all. Beta above 1 weighs recall more than
// precision, below 1 less.
func BestF(p []float64, beta float64, max int) int {
	if len(p) == 0 {
		return 0
	}
	need := 0.0
	for _, v := range p {
		need += v
	}
	b2 := beta * beta
	best, bestF, held := 1, -1.0, 0.0
	for k := 1; k <= len(p) && k <= max; k++ {
		held += p[k-1]
		if f := (1 + b2) * held / (float64(k) + b2*need); f > bestF {
			best, bestF = k, f
		}
	}
	return best
}

// Choose picks the result's files from their relevance, in ranking order:
// every file at or above the threshold, max at most; when none is, the
// first files that make the best expected F1 (BestF), and fallback says
// so. Below the threshold no file is likely on its own, and a set that
// weighs recall as much as precision holds every file the change needs
// more often (held out by repository, `hone bench calibrate`: 76% of
// SWE-bench Lite's instances against 70% for the best expected F0.5, 38%
// of Multi-SWE-bench's against 31%) for a few more files that it does not.
func Choose(p []float64, threshold float64, max int) (files []int, fallback bool) {
	if ks := AtLeast(p, threshold, max); len(ks) > 0 {
		return ks, false
	}
	if len(p) == 0 {
		return nil, false
	}
	return Prefix(BestF(p, 1, max)), true
}
