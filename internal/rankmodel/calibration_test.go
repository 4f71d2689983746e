package rankmodel

import (
	"math"
	"slices"
	"testing"
)

func TestFeatures(t *testing.T) {
	f := Features([]float64{1, 3, 2}, 1, [][]float64{{7}, {8}, {9}})
	// bias, score, gap, spread, top, lead, then the signals.
	spread := math.Log(math.Exp(-2) + 1 + math.Exp(-1))
	want := [][]float64{{1, 1, -2, spread, 0, 0, 7}, {1, 3, 0, spread, 1, 1, 8}, {1, 2, -1, spread, 0, 0, 9}}
	for i := range want {
		for j := range want[i] {
			if math.Abs(f[i][j]-want[i][j]) > 1e-9 {
				t.Fatalf("features %v, want %v", f, want)
			}
		}
	}
	if f := Features([]float64{5}, 0, nil); f[0][4] != 1 || f[0][5] != 0 || f[0][3] != 0 {
		t.Errorf("one file: %v, want the top, with no lead and no spread", f)
	}
	if len(Features(nil, 1, nil)) != 0 {
		t.Error("features of no file")
	}
}

func TestChoose(t *testing.T) {
	tests := []struct {
		p        []float64
		max      int
		want     []int
		fallback bool
	}{
		{[]float64{0.9, 0.8, 0.75, 0.3}, 10, []int{0, 1, 2}, false}, // every file at the threshold
		{[]float64{0.9, 0.8, 0.75, 0.3}, 2, []int{0, 1}, false},     // max at most
		{[]float64{0.65, 0.6, 0.1, 0.05}, 10, []int{0, 1}, true},    // the set of the best expected F1
		{[]float64{0.55, 0.4, 0.1}, 10, []int{0, 1}, true},          // F0.5's set would be the first alone
		{[]float64{0.5, 0.1, 0.05}, 10, []int{0}, true},
		{[]float64{0.1, 0.05}, 10, []int{0}, true},       // one file at least
		{[]float64{0.6, 0.6, 0.6}, 2, []int{0, 1}, true}, // the fallback keeps to max
		{nil, 10, nil, false},
	}
	for _, tt := range tests {
		got, fb := Choose(tt.p, 0.7, tt.max)
		if !slices.Equal(got, tt.want) || fb != tt.fallback {
			t.Errorf("Choose(%v, max %d) = %v, %v; want %v, %v", tt.p, tt.max, got, fb, tt.want, tt.fallback)
		}
	}
}

func TestBestF(t *testing.T) {
	tests := []struct {
		p    []float64
		beta float64
		want int
	}{
		{[]float64{0.9, 0.9, 0.9, 0.01}, 0.5, 3},
		{[]float64{0.9, 0.05, 0.05}, 0.5, 1},
		{[]float64{0.3, 0.3, 0.3, 0.3}, 0.5, 4}, // as likely each: all of them expect the most
		{[]float64{0.55, 0.4, 0.1}, 0.5, 1},     // precision first: the second is likelier not needed
		{[]float64{0.55, 0.4, 0.1}, 1, 2},       // as much recall: the second is worth its doubt
		{[]float64{0.55, 0.4, 0.2}, 1, 2},
		{[]float64{0.55, 0.4, 0.2}, 2, 3}, // recall first: the third too
		{[]float64{0.9, 0.05, 0.05}, 2, 1},
		{nil, 1, 0},
	}
	for _, tt := range tests {
		if got := BestF(tt.p, tt.beta, 10); got != tt.want {
			t.Errorf("BestF(%v, %v) = %d, want %d", tt.p, tt.beta, got, tt.want)
		}
	}
	if got := BestF([]float64{0.9, 0.9, 0.9, 0.01}, 1, 2); got != 2 {
		t.Errorf("BestF with max 2 = %d, want 2", got)
	}
	if got := BestF([]float64{0, 0, 0}, 1, 10); got != 1 {
		t.Errorf("BestF of no likely file = %d, want the first alone", got)
	}
}

func TestCalibrated(t *testing.T) {
	if Logistic(1000) != 1 || Logistic(-1000) != 0 || Logistic(0) != 0.5 {
		t.Error("logistic at its ends")
	}
	// A weight on the gap alone: the best file highest, each on its own.
	w := make([]float64, len(CalibrationNames([]string{"s"})))
	w[0], w[2] = 2, 1
	p := Calibrated([]float64{3, 1, 2}, [][]float64{{0}, {0}, {0}}, 1, w)
	if !(p[0] > p[2] && p[2] > p[1]) || p[0] != Logistic(2) {
		t.Errorf("calibrated %v", p)
	}
	m := &Model{Calibration: &Calibration{Weights: map[string]float64{"gap": 1, "signal.s": 2}}}
	v, err := m.CalibrationVector([]string{"s"})
	if err != nil || v[2] != 1 || v[len(v)-1] != 2 {
		t.Errorf("vector %v, %v", v, err)
	}
	if _, err := m.CalibrationVector([]string{"other"}); err == nil {
		t.Error("a weight for a signal not computed: no error")
	}
	if _, err := (&Model{}).CalibrationVector(nil); err == nil {
		t.Error("no calibration: no error")
	}
}

func TestMonotone(t *testing.T) {
	tests := []struct {
		p     []float64
		order []int
		want  []float64
	}{
		{[]float64{0.9, 0.5, 0.1}, []int{0, 1, 2}, []float64{0.9, 0.5, 0.1}},
		{[]float64{0.2, 0.6, 0.1}, []int{0, 1, 2}, []float64{0.4, 0.4, 0.1}},
		// A rise at the end pools back as far as it must.
		{[]float64{0.3, 0.2, 0.1, 0.9}, []int{0, 1, 2, 3}, []float64{0.375, 0.375, 0.375, 0.375}},
		{[]float64{0.5, 0.3, 0.2, 0.9}, []int{0, 1, 2, 3}, []float64{0.5, 1.4 / 3, 1.4 / 3, 1.4 / 3}},
		{[]float64{0.8, 0.3, 0.2, 0.4}, []int{0, 1, 2, 3}, []float64{0.8, 0.3, 0.3, 0.3}},
		// The order is the ranking's, not the slice's.
		{[]float64{0.1, 0.6, 0.2}, []int{1, 0, 2}, []float64{0.15, 0.6, 0.15}},
		{nil, nil, nil},
	}
	for _, tt := range tests {
		p := append([]float64(nil), tt.p...)
		Monotone(p, tt.order)
		for i := range p {
			if math.Abs(p[i]-tt.want[i]) > 1e-12 {
				t.Errorf("Monotone(%v, %v) = %v, want %v", tt.p, tt.order, p, tt.want)
				break
			}
		}
	}
}

// A file whose signals would put it above a file its score ranks over
// shares that file's relevance: the ranking by score is best first.
func TestCalibratedFollowsTheScore(t *testing.T) {
	w := make([]float64, len(CalibrationNames([]string{"s"})))
	w[len(w)-1] = 1 // the signal alone
	p := Calibrated([]float64{1, 3, 2}, [][]float64{{4}, {0}, {2}}, 1, w)
	if !(p[1] >= p[2] && p[2] >= p[0]) {
		t.Errorf("relevance %v does not fall with the scores 1, 3, 2", p)
	}
	mean := (Logistic(0) + Logistic(2) + Logistic(4)) / 3
	for i, v := range p {
		if math.Abs(v-mean) > 1e-12 {
			t.Errorf("file %d: %v, want the three's mean %v", i, v, mean)
		}
	}
}
