package bench

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/hone-tools/hone"
)

// SignalRow is one instance's ranked files with their signals and whether
// each is gold: what the ranking's weights are fit on.
type SignalRow struct {
	ID    string      `json:"instance_id"`
	Repo  string      `json:"repo"`
	Names []string    `json:"names"`
	Gold  int         `json:"gold"` // gold files in all, ranked or not
	Paths []string    `json:"paths"`
	IsG   []bool      `json:"is_gold"`
	X     [][]float64 `json:"x"`
}

// ReadSignals reads a file of signal rows.
func ReadSignals(path string) ([]SignalRow, error) { return readLines[SignalRow](path) }

// DropSignals zeroes the named signals in every row, so that a fit gives
// them no weight.
func DropSignals(rows []SignalRow, names []string) error {
	if len(rows) == 0 {
		return nil
	}
	var idx []int
	for _, n := range names {
		i := -1
		for j, m := range rows[0].Names {
			if m == strings.TrimSpace(n) {
				i = j
			}
		}
		if i < 0 {
			return fmt.Errorf("no signal named %q; the signals are %s", n, strings.Join(rows[0].Names, ", "))
		}
		idx = append(idx, i)
	}
	for _, r := range rows {
		for _, x := range r.X {
			for _, i := range idx {
				if i < len(x) {
					x[i] = 0
				}
			}
		}
	}
	return nil
}

// A Ranker is a linear ranking model: a file's score is the weighted sum of
// its signals. A file's relevance is the probability that it is the file
// the task is after: a softmax of the run's scores over Temp.
type Ranker struct {
	W    []float64
	Temp float64
}

// Score is the model's score of one file's signals.
func (m Ranker) Score(x []float64) float64 {
	s := 0.0
	for i, v := range x {
		if i < len(m.W) {
			s += m.W[i] * v
		}
	}
	return s
}

// Relevance is the calibrated relevance of a run's scores.
func (m Ranker) Relevance(sc []float64) []float64 {
	t := m.Temp
	if t == 0 {
		t = 1
	}
	z := make([]float64, len(sc))
	for i, s := range sc {
		z[i] = s / t
	}
	return softmax(z)
}

// FitConfig tunes the fit.
type FitConfig struct {
	L2    float64 // ridge penalty on the weights
	Iters int     // gradient steps
	Rate  float64 // Adam's step size
}

func (c FitConfig) withDefaults() FitConfig {
	if c.L2 == 0 {
		c.L2 = 1e-3
	}
	if c.Iters == 0 {
		c.Iters = 1500
	}
	if c.Rate == 0 {
		c.Rate = 0.05
	}
	return c
}

// adam minimizes a loss given its gradient, from zero.
func adam(dim int, cfg FitConfig, grad func(w, g []float64)) []float64 {
	w := make([]float64, dim)
	m1 := make([]float64, dim)
	m2 := make([]float64, dim)
	g := make([]float64, dim)
	const b1, b2, eps = 0.9, 0.999, 1e-8
	for it := 1; it <= cfg.Iters; it++ {
		for i := range g {
			g[i] = 0
		}
		grad(w, g)
		for i := range w {
			m1[i] = b1*m1[i] + (1-b1)*g[i]
			m2[i] = b2*m2[i] + (1-b2)*g[i]*g[i]
			mh := m1[i] / (1 - math.Pow(b1, float64(it)))
			vh := m2[i] / (1 - math.Pow(b2, float64(it)))
			w[i] -= cfg.Rate * mh / (math.Sqrt(vh) + eps)
		}
	}
	return w
}

// Fit fits a ranker by maximizing, over the rows, the likelihood that a
// softmax over each row's files picks its gold files (a listwise loss:
// what matters is the gold file's place among the others), then
// calibrates it on the same rows. Rows with no gold file ranked teach the
// weights nothing and are skipped.
func Fit(rows []SignalRow, dim int, cfg FitConfig) Ranker {
	cfg = cfg.withDefaults()
	var use []SignalRow
	for _, r := range rows {
		for _, g := range r.IsG {
			if g {
				use = append(use, r)
				break
			}
		}
	}
	if len(use) == 0 {
		return Ranker{W: make([]float64, dim)}
	}
	w := adam(dim, cfg, func(w, grad []float64) {
		for i := range grad {
			grad[i] = cfg.L2 * w[i]
		}
		for _, r := range use {
			p := softmax(scores(r, w))
			ng := 0
			for _, g := range r.IsG {
				if g {
					ng++
				}
			}
			for j, x := range r.X {
				t := 0.0
				if r.IsG[j] {
					t = 1 / float64(ng)
				}
				d := (p[j] - t) / float64(len(use))
				for i, v := range x {
					if i < dim {
						grad[i] += d * v
					}
				}
			}
		}
	})
	m := Ranker{W: w}
	m.Temp = calibrate(rows, func(r SignalRow) []float64 { return scores(r, w) })
	return m
}

// calibrate finds the temperature that makes the softmax of the rows'
// scores most likely to pick their gold files: a coarse search, then a
// fine one.
func calibrate(rows []SignalRow, score func(SignalRow) []float64) float64 {
	type run struct {
		sc []float64
		g  []bool
	}
	var runs []run
	for _, r := range rows {
		runs = append(runs, run{score(r), r.IsG})
	}
	nll := func(t float64) float64 {
		l := 0.0
		for _, r := range runs {
			z := make([]float64, len(r.sc))
			for i, s := range r.sc {
				z[i] = s / t
			}
			p := softmax(z)
			for i, g := range r.g {
				if g {
					l -= math.Log(p[i] + 1e-12)
				}
			}
		}
		return l
	}
	best, bestL := 1.0, math.Inf(1)
	for t := 0.25; t <= 4; t += 0.05 {
		if l := nll(t); l < bestL {
			best, bestL = t, l
		}
	}
	return best
}

func scores(r SignalRow, w []float64) []float64 {
	out := make([]float64, len(r.X))
	for j, x := range r.X {
		out[j] = Ranker{W: w}.Score(x)
	}
	return out
}

func softmax(sc []float64) []float64 {
	p := make([]float64, len(sc))
	mx := math.Inf(-1)
	for _, s := range sc {
		mx = math.Max(mx, s)
	}
	sum := 0.0
	for j, s := range sc {
		p[j] = math.Exp(s - mx)
		sum += p[j]
	}
	for j := range p {
		p[j] /= sum
	}
	return p
}

// Coverage is the share of the ranking's probability the returned files
// hold: hone's default, hone.DefaultCoverage, unless a study sets it.
var Coverage = hone.DefaultCoverage

// MaxFiles bounds the returned files as hone's default does.
var MaxFiles = hone.DefaultMaxFiles

// Rerank applies a ranker to signal rows, giving each gold file's rank as
// benchmark rows carry it, so that Summarize scores the model: the
// returned files are the best-first prefix holding Coverage of the
// probability (MaxFiles at most), each file's relevance its calibrated one.
func Rerank(rows []SignalRow, m Ranker) []Row {
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		sc := scores(r, m.W)
		idx := make([]int, len(r.X))
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return sc[idx[a]] > sc[idx[b]] })
		row := Row{ID: r.ID, Repo: r.Repo}
		for _, j := range idx[:min(10, len(idx))] {
			row.Top = append(row.Top, r.Paths[j])
		}
		p := m.Relevance(sc)
		cum := 0.0
		for rank, j := range idx {
			if r.IsG[j] {
				row.GoldRanks = append(row.GoldRanks, rank+1)
			}
			row.Scores = append(row.Scores, Scored{Relevance: p[j], Gold: r.IsG[j]})
			if cum < Coverage && rank < MaxFiles {
				row.Files = append(row.Files, r.Paths[j])
			}
			cum += p[j]
		}
		var gold []string
		for j, g := range r.IsG {
			if g {
				gold = append(gold, r.Paths[j])
			}
		}
		for len(row.GoldRanks) < r.Gold {
			row.GoldRanks = append(row.GoldRanks, 0)
		}
		for len(gold) < r.Gold {
			gold = append(gold, "\x00not ranked")
		}
		row.Gold = gold
		out = append(out, row)
	}
	return out
}

// CrossValidate fits on all repositories but one and ranks the one left
// out, for each: the rows it returns are all ranked by models that never
// saw their repository.
func CrossValidate(rows []SignalRow, dim int, cfg FitConfig) []Row {
	rs, _ := crossValidate(rows, dim, cfg)
	return rs
}

func crossValidate(rows []SignalRow, dim int, cfg FitConfig) ([]Row, []SignalRow) {
	var repos []string
	by := map[string][]SignalRow{}
	for _, r := range rows {
		if _, ok := by[r.Repo]; !ok {
			repos = append(repos, r.Repo)
		}
		by[r.Repo] = append(by[r.Repo], r)
	}
	var out []Row
	var held []SignalRow // each row's held-out scores, as its only signal
	for _, name := range repos {
		var train []SignalRow
		for _, r := range rows {
			if r.Repo != name {
				train = append(train, r)
			}
		}
		m := Fit(train, dim, cfg)
		out = append(out, Rerank(by[name], m)...)
		for _, r := range by[name] {
			h := r
			h.X = make([][]float64, len(r.X))
			for j, s := range scores(r, m.W) {
				h.X[j] = []float64{s}
			}
			held = append(held, h)
		}
	}
	return out, held
}

// PrintFit writes a fit's report: the cross-validated and in-sample
// figures, and the model as Go source. The model's weights are fit on all
// rows; its calibration on the held-out scores of the cross-validation.
//
// It returns the model and the cross-validation's rows: each instance as
// the model that never saw its repository ranks it.
func PrintFit(w io.Writer, rows []SignalRow, cfg FitConfig) (Ranker, []Row) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "no rows")
		return Ranker{}, nil
	}
	names := rows[0].Names
	dim := len(names)
	cv, held := crossValidate(rows, dim, cfg)
	fmt.Fprintln(w, "leave-one-repository-out cross-validation:")
	PrintRankStats(w, cv)
	fmt.Fprintln(w)
	PrintCalibration(w, cv)
	m := Fit(rows, dim, cfg)
	m.Temp = calibrate(held, func(r SignalRow) []float64 {
		out := make([]float64, len(r.X))
		for j, x := range r.X {
			out[j] = x[0]
		}
		return out
	})
	fmt.Fprintln(w, "\nin sample:")
	PrintRankStats(w, Rerank(rows, m))
	fmt.Fprintln(w, "\nweights:")
	for i, n := range names {
		fmt.Fprintf(w, "\t%-14s %8.4f\n", n, m.W[i])
	}
	var b strings.Builder
	for i := range names {
		fmt.Fprintf(&b, "%.4g, ", m.W[i])
	}
	fmt.Fprintf(w, "\nrankWeights = []float64{%s}\n", strings.TrimSuffix(b.String(), ", "))
	fmt.Fprintf(w, "rankTemp = %.3g\n", m.Temp)
	return m, cv
}
