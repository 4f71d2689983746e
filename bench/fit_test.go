package bench

import (
	"math/rand"
	"strings"
	"testing"
)

// tellingRows are 60 synthetic runs of 8 files, over three repositories,
// in which the first signal tells the gold file and the second is noise.
func tellingRows(seed int64) []SignalRow {
	rng := rand.New(rand.NewSource(seed))
	var rows []SignalRow
	for i := 0; i < 60; i++ {
		r := SignalRow{ID: "i", Repo: []string{"a/x", "b/y", "c/z"}[i%3], Names: []string{"tell", "noise"}, Gold: 1}
		g := rng.Intn(8)
		for j := 0; j < 8; j++ {
			tell := rng.Float64() * 0.5
			if j == g {
				tell += 0.6
			}
			r.Paths = append(r.Paths, string(rune('a'+j)))
			r.IsG = append(r.IsG, j == g)
			r.X = append(r.X, []float64{tell, rng.Float64()})
		}
		rows = append(rows, r)
	}
	return rows
}

// Synthetic runs in which the first signal tells the gold file and the
// second is noise: the fit must weigh the first, rank gold first under
// cross-validation, and give the gold files most of the probability.
func TestFitLearnsTheTellingSignal(t *testing.T) {
	rows := tellingRows(1)
	m := Fit(rows, 2, FitConfig{})
	if m.W[0] <= 0 || m.W[0] < 5*abs(m.W[1]) {
		t.Errorf("weights %v: want the telling signal weighed, the noise not", m.W)
	}
	cv, _ := crossValidate(rows, 2, FitConfig{})
	s := Summarize(cv)
	if s.Acc[1] < 95 {
		t.Errorf("cross-validated Acc@1 %.1f, want at least 95", s.Acc[1])
	}
	cal := Calibrate(Rerank(rows, m))
	if cal[0].Files == 0 || cal[0].GoldShare < 80 {
		t.Errorf("the top band holds %d files, %.0f%% gold: want high to mean gold", cal[0].Files, cal[0].GoldShare)
	}
	// The calibration, fit on other repositories, makes each file's
	// relevance its chance of being gold: high for the gold, low for the
	// rest, and hone's files the gold ones.
	held := crossCalibrate(rows, m, 1e-3, SetRules(0.7, 10)[0])
	bands := Calibrate(held)
	if bands[0].Files < 40 || bands[0].GoldShare < 80 || bands[len(bands)-1].GoldShare > 5 {
		t.Errorf("calibrated bands %+v: want most gold files at 0.8 or more, and few gold under 0.2", bands)
	}
	if s := Summarize(held); s.F05 < 0.8 || s.Files != 1 {
		t.Errorf("hone's files: F0.5 %.2f, median %.0f files; want about the one gold file", s.F05, s.Files)
	}
}

// A prior pulls the fit toward its weights: with a strong penalty the
// weights stay near the prior, the noise's too; with a weak one the data
// has its way, as without a prior.
func TestFitPrior(t *testing.T) {
	rows := tellingRows(2)
	prior := []float64{1, -2}
	strong := Fit(rows, 2, FitConfig{L2: 100, Prior: prior})
	for i := range prior {
		if d := strong.W[i] - prior[i]; d > 0.1 || d < -0.1 {
			t.Errorf("a strong pull toward %v gave %v", prior, strong.W)
		}
	}
	weak := Fit(rows, 2, FitConfig{L2: 1e-4, Prior: prior})
	if weak.W[0] <= 0 || weak.W[0] < 3*abs(weak.W[1]) {
		t.Errorf("a weak pull toward %v gave %v: want the telling signal weighed over the noise", prior, weak.W)
	}
	if none := Fit(nil, 2, FitConfig{Prior: prior}); none.W[0] != 1 || none.W[1] != -2 {
		t.Errorf("no rows: %v, want the prior", none.W)
	}
}

// Free fits the weights it names alone, every other held at the prior's,
// and Temp keeps a temperature rather than calibrating one.
func TestFitFree(t *testing.T) {
	rows := tellingRows(3)
	m := Fit(rows, 2, FitConfig{Prior: []float64{0, 0.5}, Free: []bool{true, false}, Temp: 2})
	if m.W[1] != 0.5 {
		t.Errorf("the held weight moved: %v, want 0.5", m.W[1])
	}
	if m.W[0] <= 1 {
		t.Errorf("the free weight %v: want the telling signal weighed", m.W[0])
	}
	if m.Temp != 2 {
		t.Errorf("temperature %v, want the 2 kept", m.Temp)
	}
	held := Fit(rows, 2, FitConfig{Prior: []float64{0.3, 0.5}, Free: []bool{false, false}})
	if held.W[0] != 0.3 || held.W[1] != 0.5 {
		t.Errorf("nothing free: %v, want the prior", held.W)
	}
}

// A run with no gold file ranked, and a failed one with nothing ranked,
// still count: as misses.
func TestRerankCountsMisses(t *testing.T) {
	rows := []SignalRow{
		{ID: "a", Repo: "r/a", Gold: 1, Paths: []string{"x", "y"}, IsG: []bool{false, false}, X: [][]float64{{1}, {0}}},
		{ID: "b", Repo: "r/a", Gold: 1},
		{ID: "c", Repo: "r/a", Gold: 1, Paths: []string{"x", "g"}, IsG: []bool{false, true}, X: [][]float64{{0}, {1}}},
	}
	s := Summarize(Rerank(rows, Ranker{W: []float64{1}}))
	if s.N != 3 || s.Acc[1] < 33 || s.Acc[1] > 34 {
		t.Errorf("n %d Acc@1 %.1f: want 3 runs, one hit", s.N, s.Acc[1])
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// InLanguages keeps the rows of repositories in the languages named, and
// refuses rows that do not say their language.
func TestInLanguages(t *testing.T) {
	rows := []SignalRow{
		{ID: "a", Repo: "r/c", Language: "c", Paths: []string{"a.c"}},
		{ID: "b", Repo: "r/go", Language: "go", Paths: []string{"b.go"}},
		{ID: "c", Repo: "r/py", Language: "python", Paths: []string{"c.py"}},
		{ID: "d", Repo: "r/c"},   // failed: nothing ranked; its repository's language
		{ID: "e", Repo: "r/new"}, // failed, in a repository no run says the language of
		{ID: "f", Repo: "r/sh", Language: NoLanguage, Paths: []string{"build.sh"}},
	}
	for _, tt := range []struct {
		langs []string
		want  string
	}{{[]string{"c", "go"}, "a,b,d"}, {[]string{"python"}, "c"}, {[]string{"rust"}, ""}, {[]string{NoLanguage}, "f"}} {
		got, err := InLanguages(rows, tt.langs)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		if strings.Join(ids, ",") != tt.want {
			t.Errorf("%v: %v, want %s", tt.langs, ids, tt.want)
		}
	}
	if _, err := InLanguages([]SignalRow{{ID: "x", Paths: []string{"x.c"}}}, []string{"c"}); err == nil || !strings.Contains(err.Error(), "write the signals with this build") {
		t.Errorf("a row without its language: %v", err)
	}
}

// DropSignals zeroes the named signals, their names trimmed, says where
// they stand, and refuses a name no row has.
func TestDropSignals(t *testing.T) {
	rows := []SignalRow{{Names: []string{"a", "b", "c"}, X: [][]float64{{1, 2, 3}, {4, 5, 6}}}}
	idx, err := DropSignals(rows, []string{"c", " a"})
	if err != nil || len(idx) != 2 || idx[0] != 2 || idx[1] != 0 {
		t.Fatalf("dropped %v, %v; want [2 0]", idx, err)
	}
	if x := rows[0].X; x[0][0] != 0 || x[0][2] != 0 || x[1][0] != 0 || x[1][2] != 0 || x[0][1] != 2 || x[1][1] != 5 {
		t.Errorf("signals %v: want a and c zeroed, b kept", x)
	}
	if _, err := DropSignals(rows, []string{"z"}); err == nil || !strings.Contains(err.Error(), `no signal named "z"`) {
		t.Errorf("an unknown signal: %v", err)
	}
}
