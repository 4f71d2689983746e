package rankmodel

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The embedded model reads, and its header says what it was fit on.
func TestDefault(t *testing.T) {
	m := Default()
	if m.Temperature <= 0 || len(m.Weights) == 0 {
		t.Fatalf("model %+v", m)
	}
	if len(m.Data) == 0 || m.Commit == "" || m.Command == "" || m.HeldOut.Method == "" || m.HeldOut.MRR == 0 {
		t.Errorf("the header does not record the data, commit, command and held-out figures: %+v", m)
	}
}

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name, data, err string
	}{
		{"ok", `{"temperature": 1, "weights": {"a": 1}}`, ""},
		{"not json", `{`, "read the ranking model"},
		{"no temperature", `{"weights": {"a": 1}}`, "temperature must be above 0"},
		{"no weights", `{"temperature": 1}`, "no weights"},
		{"a set", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": ["c", "go"], "temperature": 2, "weights": {"a": 2}}]}`, ""},
		{"a set without languages", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"temperature": 2, "weights": {"a": 2}}]}`, "set 1 names no languages"},
		{"a set without weights", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": ["c"], "temperature": 2}]}`, "set 1 has no weights"},
		{"a set without temperature", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": ["c"], "weights": {"a": 2}}]}`, "set 1's temperature must be above 0"},
		{"a null set", `{"temperature": 1, "weights": {"a": 1}, "sets": [null]}`, "set 1 has no weights"},
		{"a language in two sets", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": ["c"], "temperature": 1, "weights": {"a": 2}}, {"languages": ["go", "c"], "temperature": 1, "weights": {"a": 3}}]}`, "two of the ranking model's sets rank c"},
		{"a set in a set", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": ["c"], "temperature": 1, "weights": {"a": 2}, "sets": [{"languages": ["go"], "temperature": 1, "weights": {"a": 3}}]}]}`, "set 1 has sets of its own"},
		{"an empty language", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": ["c", ""], "temperature": 1, "weights": {"a": 2}}]}`, "set 1 names a language \"\": empty"},
		{"a language with spaces", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": [" go"], "temperature": 1, "weights": {"a": 2}}]}`, "with spaces around it"},
		{"a language twice in a set", `{"temperature": 1, "weights": {"a": 1}, "sets": [{"languages": ["c", "c"], "temperature": 1, "weights": {"a": 2}}]}`, "set 1 names c twice"},
		{"languages of its own", `{"languages": ["c"], "temperature": 1, "weights": {"a": 1}}`, "only its sets do"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.data))
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

func TestVector(t *testing.T) {
	m := &Model{Temperature: 1, Weights: map[string]float64{"b": 2, "a": 1}}
	for _, tt := range []struct {
		names []string
		want  []float64
		err   string
	}{
		{[]string{"a", "b"}, []float64{1, 2}, ""},
		{[]string{"b", "a", "c"}, []float64{2, 1, 0}, ""}, // a signal the model does not weigh counts 0
		{[]string{"a"}, nil, "not computed: b"},
	} {
		w, err := m.Vector(tt.names)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: error %v, want %q", tt.names, err, tt.err)
			}
			continue
		}
		if err != nil || len(w) != len(tt.want) {
			t.Fatalf("%v: %v, %v", tt.names, w, err)
		}
		for i := range w {
			if w[i] != tt.want[i] {
				t.Errorf("%v: %v, want %v", tt.names, w, tt.want)
			}
		}
	}
}

func TestScoreAndSoftmax(t *testing.T) {
	if s := Score([]float64{1, 2}, []float64{3, 4, 5}); s != 11 {
		t.Errorf("score %g, want 11 (a signal past the weights counts 0)", s)
	}
	for _, temp := range []float64{0.5, 1, 2, 0} {
		p := Softmax([]float64{3, 1, 2, 1000}, temp)
		sum := 0.0
		for _, x := range p {
			sum += x
		}
		if math.Abs(sum-1) > 1e-9 || math.IsNaN(sum) {
			t.Errorf("temperature %g: probabilities sum to %g", temp, sum)
		}
	}
	hot, cold := Softmax([]float64{2, 1}, 2), Softmax([]float64{2, 1}, 0.5)
	if !(cold[0] > hot[0] && hot[0] > 0.5) {
		t.Errorf("a lower temperature should sharpen: %v at 2, %v at 0.5", hot, cold)
	}
}

// What Write writes, Parse reads back.
func TestWriteReadsBack(t *testing.T) {
	m := &Model{About: "x", Data: []string{"d"}, Commit: "c", Command: "hone bench fit", Temperature: 1.5, Weights: map[string]float64{"a": -0.25}}
	p := filepath.Join(t.TempDir(), "model.json")
	if err := m.Write(p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil || back.Temperature != 1.5 || back.Weights["a"] != -0.25 || back.Commit != "c" {
		t.Fatalf("%+v, %v", back, err)
	}
}

// A repository is ranked by the set that lists its main language, else by
// the model's own weights.
func TestFor(t *testing.T) {
	m, err := Parse([]byte(`{"temperature": 1, "weights": {"a": 1}, "sets": [
		{"languages": ["c", "cpp"], "temperature": 2, "weights": {"a": 2}},
		{"languages": ["go"], "temperature": 3, "weights": {"a": 3}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		lang string
		want float64
	}{{"c", 2}, {"cpp", 2}, {"go", 3}, {"python", 1}, {"", 1}} {
		if got := m.For(tt.lang).Weights["a"]; got != tt.want {
			t.Errorf("For(%q) weighs a %g, want %g", tt.lang, got, tt.want)
		}
	}
	if s := m.SetFor([]string{"cpp", "c"}); s == nil || s.Temperature != 2 {
		t.Errorf("SetFor(cpp, c) = %+v, want the set for c and cpp, in any order", s)
	}
	if s := m.SetFor([]string{"c"}); s != nil {
		t.Errorf("SetFor(c) = %+v, want none: no set is for c alone", s)
	}
}
