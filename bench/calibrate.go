package bench

import (
	"fmt"
	"io"
	"math"

	"github.com/hone-tools/hone/internal/rankmodel"
)

// The calibration turns a file's ranking score into the probability that
// the task needs the file (rankmodel.Calibrated): a logistic regression of
// whether each ranked file was changed by the fix, on the features of its
// score among its run's. It is fit on every set of signal rows at once,
// and reported per set under leave-one-repository-out cross-validation.

// FitCalibration fits the calibration's weights, in the order of
// rankmodel.CalibrationFeatures, on the rows as ranker m scores them.
func FitCalibration(rows []SignalRow, m Ranker, l2 float64) []float64 {
	type ex struct {
		f []float64
		y float64
	}
	var exs []ex
	for _, r := range rows {
		for j, f := range rankmodel.Features(scores(r, m.W), m.Temp, r.X) {
			y := 0.0
			if r.IsG[j] {
				y = 1
			}
			exs = append(exs, ex{f, y})
		}
	}
	dim := len(rankmodel.CalibrationFeatures)
	if len(rows) > 0 {
		dim = len(rankmodel.CalibrationNames(rows[0].Names))
	}
	if len(exs) == 0 {
		return make([]float64, dim)
	}
	cfg := FitConfig{L2: l2, Iters: 800, Rate: 0.05}.withDefaults()
	return adam(dim, cfg, func(w, g []float64) {
		for i := range g {
			if i > 0 {
				g[i] = cfg.L2 * w[i]
			}
		}
		for _, e := range exs {
			d := (rankmodel.Logistic(rankmodel.Score(w, e.f)) - e.y) / float64(len(exs))
			for i, v := range e.f {
				g[i] += d * v
			}
		}
	})
}

// SetRule picks the result's files from a run's relevance, in ranking
// order: it returns how many of the first files to take, and the others
// it adds.
type SetRule struct {
	Name string
	Pick func(p []float64) []int
}

// calibratedRows ranks each row as m does and gives each file the
// relevance the calibration cal gives it; the files are those rule picks.
func calibratedRows(rows []SignalRow, m Ranker, cal []float64, rule SetRule) []Row {
	return rankRows(rows, m, func(r SignalRow, sc []float64) []float64 {
		return rankmodel.Calibrated(sc, r.X, m.Temp, cal)
	}, rule.Pick)
}

// heldOut is a repository's rows and the calibration fit on all the
// other repositories.
type heldOut struct {
	rows []SignalRow
	cal  []float64
}

// crossFits fits the calibration on all repositories but one, for each.
func crossFits(rows []SignalRow, m Ranker, l2 float64) []heldOut {
	var out []heldOut
	for _, f := range byRepository(rows) {
		out = append(out, heldOut{f.test, FitCalibration(f.train, m, l2)})
	}
	return out
}

// crossCalibrate scores each repository with the calibration fit on all
// the others; the rows come out repository by repository.
func crossCalibrate(rows []SignalRow, m Ranker, l2 float64, rule SetRule) []Row {
	var out []Row
	for _, h := range crossFits(rows, m, l2) {
		out = append(out, calibratedRows(h.rows, m, h.cal, rule)...)
	}
	return out
}

// SetRules are the ways of picking the result's files that `hone bench
// calibrate` compares: hone's (rankmodel.Choose), and others it was
// chosen over.
func SetRules(threshold float64, maxFiles int) []SetRule {
	return []SetRule{
		{"hone's: the threshold, else the set of the best expected F1", func(p []float64) []int {
			ks, _ := rankmodel.Choose(p, threshold, maxFiles)
			return ks
		}},
		{"the threshold, else the set of the best expected F0.5", func(p []float64) []int {
			if ks := rankmodel.AtLeast(p, threshold, maxFiles); len(ks) > 0 {
				return ks
			}
			return rankmodel.Prefix(rankmodel.BestF(p, 0.5, maxFiles))
		}},
		{"the threshold, else the set of the best expected F2", func(p []float64) []int {
			if ks := rankmodel.AtLeast(p, threshold, maxFiles); len(ks) > 0 {
				return ks
			}
			return rankmodel.Prefix(rankmodel.BestF(p, 2, maxFiles))
		}},
		{"the threshold, else the best file", func(p []float64) []int {
			if ks := rankmodel.AtLeast(p, threshold, maxFiles); len(ks) > 0 {
				return ks
			}
			return rankmodel.Prefix(min(1, len(p)))
		}},
		{"the threshold, else up to 3 at 0.2 or more", func(p []float64) []int {
			if ks := rankmodel.AtLeast(p, threshold, maxFiles); len(ks) > 0 {
				return ks
			}
			if ks := rankmodel.AtLeast(p, 0.2, min(3, maxFiles)); len(ks) > 0 {
				return ks
			}
			return rankmodel.Prefix(min(1, len(p)))
		}},
		{"the set of the best expected F0.5", func(p []float64) []int {
			return rankmodel.Prefix(rankmodel.BestF(p, 0.5, maxFiles))
		}},
	}
}

// PrintCalibrationFit fits the calibration on every set's rows together
// and reports, per set, the held-out reliability table, the log loss and
// what each set rule's files measure: each repository scored by a
// calibration fit on all the other repositories, of every set. It returns
// the weights fit on all.
func PrintCalibrationFit(w io.Writer, sets map[string][]SignalRow, order []string, m Ranker, l2 float64, rules []SetRule) []float64 {
	var all []SignalRow
	for _, name := range order {
		all = append(all, sets[name]...)
	}
	cal := FitCalibration(all, m, l2)
	fits := crossFits(all, m, l2)
	held := make([]map[string]Row, len(rules))
	for i, rule := range rules {
		held[i] = map[string]Row{}
		for _, h := range fits {
			for _, r := range calibratedRows(h.rows, m, h.cal, rule) {
				held[i][r.Repo+"\x00"+r.ID] = r
			}
		}
	}
	for _, name := range order {
		rows := sets[name]
		fmt.Fprintf(w, "== %s: %d instances, held out by repository\n", name, len(rows))
		for i, rule := range rules {
			cv := make([]Row, 0, len(rows))
			for _, r := range rows {
				cv = append(cv, held[i][r.Repo+"\x00"+r.ID])
			}
			if i == 0 {
				PrintCalibration(w, cv)
				ll, n := 0.0, 0
				for _, r := range cv {
					for _, s := range r.Scores {
						p := math.Min(math.Max(s.Relevance, 1e-9), 1-1e-9)
						if s.Gold {
							ll -= math.Log(p)
						} else {
							ll -= math.Log(1 - p)
						}
						n++
					}
				}
				if n > 0 {
					fmt.Fprintf(w, "log loss per file %.4f\n", ll/float64(n))
				}
			}
			fmt.Fprintf(w, "files: %s\n", rule.Name)
			PrintRankStats(w, cv)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "weights, fit on every set:")
	for i, n := range rankmodel.CalibrationNames(all[0].Names) {
		fmt.Fprintf(w, "\t%-22s %8.4f\n", n, cal[i])
	}
	return cal
}
