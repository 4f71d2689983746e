package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/rankmodel"
)

// SignalRow is one instance's ranked files with their signals and whether
// each is gold: what the ranking's weights are fit on.
type SignalRow struct {
	ID   string `json:"instance_id"`
	Repo string `json:"repo"`
	// Language is the repository's main language, as the run saw it
	// (Result.Language): which of the model's weight sets ranked it.
	Language string      `json:"language,omitempty"`
	Names    []string    `json:"names"`
	Gold     int         `json:"gold"` // gold files in all, ranked or not
	Paths    []string    `json:"paths"`
	IsG      []bool      `json:"is_gold"`
	X        [][]float64 `json:"x"`
}

// ReadSignals reads a file of signal rows.
func ReadSignals(path string) ([]SignalRow, error) { return readLines[SignalRow](path) }

// NoLanguage is the language of a signal row whose repository has no
// main language (no code of its own), told apart from a row that does not
// say.
const NoLanguage = "none"

// InLanguages keeps the rows of repositories whose main language is
// among langs. A row that does not say its language is an error: the
// signals came from a build of hone before the rows said it.
func InLanguages(rows []SignalRow, langs []string) ([]SignalRow, error) {
	// A failed run ranked nothing and could not say its language: it
	// takes its repository's, from the runs that did.
	of := map[string]string{}
	for _, r := range rows {
		if r.Language != "" && r.Repo != "" {
			of[r.Repo] = r.Language
		}
	}
	var out []SignalRow
	for _, r := range rows {
		if r.Language == "" && len(r.Paths) == 0 {
			r.Language = of[r.Repo]
		}
		if r.Language == "" && len(r.Paths) > 0 {
			return nil, fmt.Errorf("the signal row of %s does not say its repository's language: write the signals with this build of hone", r.ID)
		}
		if slices.Contains(langs, r.Language) {
			out = append(out, r)
		}
	}
	return out, nil
}

// DropSignals zeroes the named signals in every row, so that a fit gives
// them no weight, and says where they stand among the rows' signals.
func DropSignals(rows []SignalRow, names []string) ([]int, error) {
	idx, err := SignalIndexes(rows, names)
	if err != nil {
		return nil, err
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
	return idx, nil
}

// SignalIndexes are the places of the signals named in the rows' signals.
func SignalIndexes(rows []SignalRow, names []string) ([]int, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	var idx []int
	for _, n := range names {
		i := slices.Index(rows[0].Names, strings.TrimSpace(n))
		if i < 0 {
			return nil, fmt.Errorf("no signal named %q; the signals are %s", n, strings.Join(rows[0].Names, ", "))
		}
		idx = append(idx, i)
	}
	return idx, nil
}

// A Ranker is a linear ranking model: a file's score is the weighted sum of
// its signals. A file's relevance is the probability that it is the file
// the task is after: a softmax of the run's scores over Temp.
type Ranker struct {
	W    []float64
	Temp float64
}

// Score is the model's score of one file's signals: the ranking's own
// scoring function.
func (m Ranker) Score(x []float64) float64 { return rankmodel.Score(m.W, x) }

// Relevance is the calibrated relevance of a run's scores.
func (m Ranker) Relevance(sc []float64) []float64 { return rankmodel.Softmax(sc, m.Temp) }

// FitConfig tunes the fit.
type FitConfig struct {
	L2    float64 // ridge penalty on the weights' distance from Prior
	Iters int     // gradient steps
	Rate  float64 // Adam's step size
	// Prior are the weights the penalty pulls toward, and the fit starts
	// from: another set's, so that a set fit on less data departs from it
	// only where its data says so. Nil pulls toward 0.
	Prior []float64
	// Free, where set, names the weights the fit may move: the others
	// stay at the prior's. Nil frees them all.
	Free []bool
	// Temp, where above 0, is the temperature the fit keeps, not one
	// calibrated on the rows: the prior's, when a few weights are fit.
	Temp float64
}

// prior is the prior's weight i, 0 past its end.
func (c FitConfig) prior(i int) float64 {
	if i < len(c.Prior) {
		return c.Prior[i]
	}
	return 0
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

// adam minimizes a loss given its gradient, from the prior.
func adam(dim int, cfg FitConfig, grad func(w, g []float64)) []float64 {
	w := make([]float64, dim)
	for i := range w {
		w[i] = cfg.prior(i)
	}
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
			if cfg.Free != nil && (i >= len(cfg.Free) || !cfg.Free[i]) {
				continue
			}
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
		w := make([]float64, dim)
		for i := range w {
			w[i] = cfg.prior(i)
		}
		return Ranker{W: w, Temp: cfg.Temp}
	}
	w := adam(dim, cfg, func(w, grad []float64) {
		for i := range grad {
			grad[i] = cfg.L2 * (w[i] - cfg.prior(i))
		}
		for _, r := range use {
			p := rankmodel.Softmax(scores(r, w), 1)
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
	m := Ranker{W: w, Temp: cfg.Temp}
	if m.Temp <= 0 {
		m.Temp = calibrate(rows, func(r SignalRow) []float64 { return scores(r, w) })
	}
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
			p := rankmodel.Softmax(r.sc, t)
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

// Rerank applies a ranker to signal rows, giving each gold file's rank as
// benchmark rows carry it, so that Summarize scores the model. Each
// file's relevance, and the returned files, are as the shipped
// calibration gives them (rankmodel.Choose): a new ranker needs its own,
// from hone bench calibrate. Rows of other signals than the shipped
// calibration weighs get the softmax of their scores instead.
func Rerank(rows []SignalRow, m Ranker) []Row {
	var cal []float64
	if len(rows) > 0 {
		cal, _ = rankmodel.Default().CalibrationVector(rows[0].Names)
	}
	relevance := func(r SignalRow, sc []float64) []float64 {
		if cal == nil {
			return m.Relevance(sc)
		}
		return rankmodel.Calibrated(sc, r.X, m.Temp, cal)
	}
	pick := func(p []float64) []int {
		// As retrieve does, on the relevance every output shows.
		shown := make([]float64, len(p))
		for i, v := range p {
			shown[i] = math.Round(v*100) / 100
		}
		picked, _ := rankmodel.Choose(shown, hone.DefaultThreshold, hone.DefaultMaxFiles)
		return picked
	}
	return rankRows(rows, m, relevance, pick)
}

// rankRows ranks each row's files as m scores them, gives each file the
// relevance that relevance gives it, and returns the rows as benchmark
// rows carry them: the files pick picks from the relevance in ranking
// order, and each gold file's rank, 0 for one not ranked.
func rankRows(rows []SignalRow, m Ranker, relevance func(r SignalRow, sc []float64) []float64, pick func(p []float64) []int) []Row {
	out := make([]Row, 0, len(rows))
	for _, r := range rows {
		sc := scores(r, m.W)
		rel := relevance(r, sc)
		idx := make([]int, len(sc))
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return sc[idx[a]] > sc[idx[b]] })
		row := Row{ID: r.ID, Repo: r.Repo}
		p := make([]float64, len(idx))
		for rank, j := range idx {
			p[rank] = rel[j]
			if rank < 10 {
				row.Top = append(row.Top, r.Paths[j])
			}
			if r.IsG[j] {
				row.GoldRanks = append(row.GoldRanks, rank+1)
				row.Gold = append(row.Gold, r.Paths[j])
			}
			row.Scores = append(row.Scores, Scored{Relevance: rel[j], Gold: r.IsG[j]})
		}
		for _, k := range pick(p) {
			row.Files = append(row.Files, r.Paths[idx[k]])
		}
		for len(row.Gold) < r.Gold {
			row.Gold = append(row.Gold, "\x00not ranked")
			row.GoldRanks = append(row.GoldRanks, 0)
		}
		out = append(out, row)
	}
	return out
}

// fold is one round of leave-one-repository-out cross-validation: the
// rows of one repository, and those of all the others.
type fold struct {
	test, train []SignalRow
}

// byRepository makes the folds of rows, a repository each, in the order
// the repositories first appear.
func byRepository(rows []SignalRow) []fold {
	var repos []string
	by := map[string][]SignalRow{}
	for _, r := range rows {
		if _, ok := by[r.Repo]; !ok {
			repos = append(repos, r.Repo)
		}
		by[r.Repo] = append(by[r.Repo], r)
	}
	out := make([]fold, 0, len(repos))
	for _, name := range repos {
		f := fold{test: by[name]}
		for _, r := range rows {
			if r.Repo != name {
				f.train = append(f.train, r)
			}
		}
		out = append(out, f)
	}
	return out
}

// crossValidate fits on all repositories but one and ranks the one left
// out, for each: the rows it returns are all ranked by models that never
// saw their repository, and so are the held-out scores.
func crossValidate(rows []SignalRow, dim int, cfg FitConfig) ([]Row, []SignalRow) {
	var out []Row
	var held []SignalRow // each row's held-out scores, as its only signal
	for _, f := range byRepository(rows) {
		m := Fit(f.train, dim, cfg)
		out = append(out, Rerank(f.test, m)...)
		for _, r := range f.test {
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
	if cfg.Temp <= 0 {
		m.Temp = calibrate(held, func(r SignalRow) []float64 {
			out := make([]float64, len(r.X))
			for j, x := range r.X {
				out[j] = x[0]
			}
			return out
		})
	}
	fmt.Fprintln(w, "\nin sample:")
	PrintRankStats(w, Rerank(rows, m))
	fmt.Fprintln(w, "\nweights:")
	for i, n := range names {
		fmt.Fprintf(w, "\t%-14s %8.4f\n", n, m.W[i])
	}
	fmt.Fprintf(w, "temperature %.3g\n", m.Temp)
	return m, cv
}

// Model is a fit as the ranking reads it: its weights by signal name,
// rounded to four significant digits, with the held-out figures of the
// cross-validation (its rows, cv) in its header. The caller fills in what
// the fit was made of: data, commit and command.
func Model(names []string, m Ranker, cv []Row) *rankmodel.Model {
	s := Summarize(cv)
	out := &rankmodel.Model{
		About:       "hone's ranking model: a file's score is the weighted sum of its signals (retrieve.SignalNames); its relevance is the softmax of the run's scores over the temperature. Written by hone bench fit --write.",
		HeldOut:     rankmodel.HeldOut{Method: "leave-one-repository-out cross-validation", Acc1: round(s.Acc[1], 1), Acc3: round(s.Acc[3], 1), Acc5: round(s.Acc[5], 1), Acc10: round(s.Acc[10], 1), MRR: round(s.MRR, 3)},
		Temperature: sig4(m.Temp),
		Weights:     map[string]float64{},
	}
	for i, n := range names {
		if i < len(m.W) {
			out.Weights[n] = sig4(m.W[i])
		}
	}
	return out
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// Sig4 rounds to four significant digits, as the weights were always
// written.
func Sig4(x float64) float64 { return sig4(x) }

func sig4(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return v
}
