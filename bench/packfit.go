package bench

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hone-tools/hone/internal/fanout"
	"github.com/hone-tools/hone/pack"
)

// PackSet is one benchmark set's pack dumps (see PackDump), read from Dir.
type PackSet struct {
	Name  string
	Dir   string
	Dumps []PackDump
}

// unitRows makes the rows the unit weights are fitted on: for each dump,
// each gold file the pack could read, split into units, with the units
// that hold a line the fix changed as its gold.
func unitRows(set PackSet) []SignalRow {
	var rows []SignalRow
	features := pack.UnitFeatures()
	for _, d := range set.Dumps {
		root := filepath.Join(set.Dir, dumpName(d.ID))
		byPath := map[string][]Hunk{}
		var paths []string
		for _, h := range d.Hunks {
			if !h.inBase() {
				continue
			}
			if _, ok := byPath[h.Path]; !ok {
				paths = append(paths, h.Path)
			}
			byPath[h.Path] = append(byPath[h.Path], h)
		}
		for _, path := range paths {
			units := pack.FileUnits(d.Result, root, path, d.Past[path])
			if len(units) < 2 {
				continue
			}
			r := SignalRow{ID: d.ID + " " + path, Repo: d.Repo, Names: features, Gold: 1}
			for _, u := range units {
				g := false
				for _, h := range byPath[path] {
					from, to := changedLines(h)
					if u.From <= to && from <= u.To {
						g = true
					}
				}
				r.Paths = append(r.Paths, fmt.Sprintf("%d-%d %s", u.From, u.To, u.Kind))
				r.IsG = append(r.IsG, g)
				r.X = append(r.X, u.X)
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// changedLines are the lines of a hunk less the three lines of context a
// diff gives on each side, where the hunk is long enough to have them.
func changedLines(h Hunk) (from, to int) {
	from, to = h.Start, max(h.End, h.Start)
	if to-from+1 > 6 {
		return from + 3, to - 3
	}
	return from, to
}

// FitPackUnits fits the units' weights (pack.UnitWeights) on the gold
// files of every set's dumps, and measures them held out by repository:
// each repository's packs are built again with the weights fitted on the
// other repositories, beside the shipped weights. The sets in test are
// not fitted on: their packs are built with the weights fitted on all of
// sets, beside the shipped weights. It writes the report to w and returns
// the weights fitted on all the sets.
func FitPackUnits(w io.Writer, sets, test []PackSet, budgets []int, count func(string) int, cfg FitConfig) ([]float64, error) {
	var all []SignalRow
	for _, s := range sets {
		all = append(all, unitRows(s)...)
	}
	dim := len(pack.UnitFeatures())
	folds := byRepository(all)
	fits := make([][]float64, len(folds))
	fanout.Each(context.Background(), make(chan struct{}, runtime.NumCPU()), len(folds), func(i int) error {
		fits[i] = Fit(folds[i].train, dim, cfg).W
		return nil
	})
	held := map[string][]float64{}
	for i, f := range folds {
		held[f.test[0].Repo] = fits[i]
	}
	fitted := Fit(all, dim, cfg).W
	fmt.Fprintf(w, "%d files' units in %d repositories\n", len(all), len(held))
	// The units' own ranking first, which the packs' shares show coarsely:
	// of the gold files, how often the unit scored best is gold, and the
	// mean reciprocal rank of the first gold unit.
	fmt.Fprintf(w, "\ngold files' units: the best unit gold, MRR of the first gold (shipped weights / fitted)\n")
	shippedWeights := pack.UnitWeights()
	unitReport := func(name string, rows []SignalRow, weights func(repo string) []float64, fit string) {
		s, f := unitRanks(rows, func(string) []float64 { return shippedWeights }), unitRanks(rows, weights)
		fmt.Fprintf(w, " %-24s %5d files   %5.1f%% %.3f   %5.1f%% %.3f (%s)\n", name, len(rows), 100*s.top, s.mrr, 100*f.top, f.mrr, fit)
	}
	for _, s := range sets {
		unitReport(s.Name, unitRows(s), func(repo string) []float64 {
			if w, ok := held[repo]; ok {
				return w
			}
			return fitted
		}, "held out")
	}
	for _, s := range test {
		unitReport(s.Name, unitRows(s), func(string) []float64 { return fitted }, "fit on the others")
	}
	if len(budgets) == 0 {
		sets, test = nil, nil // no pack to build
	}
	report := func(s PackSet, weights func(repo string) []float64, fit string) error {
		shipped, err := ReplayPacks(s.Dir, s.Dumps, budgets, count, nil, nil)
		if err != nil {
			return err
		}
		cv, err := ReplayPacks(s.Dir, s.Dumps, budgets, count, weights, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n== %s: %d instances, %d with a gold hunk; packs holding every gold hunk / at least one\n", s.Name, len(s.Dumps), WithHunks(s.Dumps))
		fmt.Fprintf(w, " budget   shipped weights   %s\n", fit)
		a, b := SummarizePacks(shipped), SummarizePacks(cv)
		for i := range a {
			fmt.Fprintf(w, " %6d   %5.1f%% %5.1f%%    %5.1f%% %5.1f%%\n", a[i].Budget, a[i].Every, a[i].Any, b[i].Every, b[i].Any)
		}
		return nil
	}
	for _, s := range sets {
		err := report(s, func(repo string) []float64 {
			if w, ok := held[repo]; ok {
				return w
			}
			return fitted // a repository with no gold file to fit on
		}, "held-out fit")
		if err != nil {
			return nil, err
		}
	}
	for _, s := range test {
		if err := report(s, func(string) []float64 { return fitted }, "fit on the others"); err != nil {
			return nil, err
		}
	}
	var parts []string
	for i, name := range pack.UnitFeatures() {
		parts = append(parts, fmt.Sprintf("%s %.4g", name, sig4(fitted[i])))
	}
	fmt.Fprintf(w, "\nfitted on all: %s\n", strings.Join(parts, ", "))
	return fitted, nil
}

// unitRank is how well weights rank the units of gold files: the share of
// files whose best-scored unit is gold, and the mean reciprocal rank of
// their first gold unit.
type unitRank struct{ top, mrr float64 }

func unitRanks(rows []SignalRow, weights func(repo string) []float64) unitRank {
	var r unitRank
	n := 0
	for _, row := range rows {
		sc := scores(row, weights(row.Repo))
		best, first := -1, len(sc)
		for j := range sc {
			if best < 0 || sc[j] > sc[best] {
				best = j
			}
		}
		for j, g := range row.IsG {
			if !g {
				continue
			}
			above := 0
			for k := range sc {
				if sc[k] > sc[j] {
					above++
				}
			}
			first = min(first, above)
		}
		if first == len(sc) {
			continue
		}
		n++
		if row.IsG[best] {
			r.top++
		}
		r.mrr += 1 / float64(first+1)
	}
	if n > 0 {
		r.top /= float64(n)
		r.mrr /= float64(n)
	}
	return r
}
