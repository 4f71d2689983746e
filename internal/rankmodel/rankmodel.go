// Package rankmodel holds hone's ranking model as data: the weight of
// each signal, by name, and the temperature that turns scores into
// relevance, with a header that says what the model was fit on. The
// ranking and `hone bench fit` share its one scoring function.
package rankmodel

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Model is a linear ranking model: a file's score is the weighted sum of
// its signals, and its relevance the softmax of its run's scores over the
// temperature.
type Model struct {
	About string `json:"about"`
	// Data, Commit and Command say what the model was fit on: the data
	// sets, the commit of hone that wrote the signals, and the commands.
	Data    []string `json:"data"`
	Commit  string   `json:"commit"`
	Command string   `json:"command"`
	// HeldOut are the fit's figures on data it never saw.
	HeldOut HeldOut `json:"held_out"`
	Notes   string  `json:"notes,omitempty"`
	// Temperature divides the scores before the softmax.
	Temperature float64 `json:"temperature"`
	// Weights weigh each signal, by its name.
	Weights map[string]float64 `json:"weights"`
	// Calibration weighs the features of a file's score
	// (CalibrationFeatures), by name, into its relevance: the probability
	// the task needs the file. `hone bench calibrate --write` writes it.
	Calibration *Calibration `json:"calibration,omitempty"`
	// Languages, in one of a model's Sets, are the main languages of the
	// repositories that set ranks.
	Languages []string `json:"languages,omitempty"`
	// Sets are weight sets of their own, each for repositories whose
	// main language is among its Languages, each fit on such code, with
	// its own temperature, calibration and header. A repository of any
	// other language is ranked by the model's own weights.
	Sets []*Model `json:"sets,omitempty"`
}

// For is the weight set that ranks a repository whose main language is
// lang: the set that lists it, else the model itself.
func (m *Model) For(lang string) *Model {
	for _, s := range m.Sets {
		if slices.Contains(s.Languages, lang) {
			return s
		}
	}
	return m
}

// SetFor is the set among m.Sets whose languages are exactly langs, nil
// when none is.
func (m *Model) SetFor(langs []string) *Model {
	want := slices.Sorted(slices.Values(langs))
	for _, s := range m.Sets {
		if slices.Equal(slices.Sorted(slices.Values(s.Languages)), want) {
			return s
		}
	}
	return nil
}

// Calibration is the fit that turns a file's score into its relevance,
// and what it was fit on.
type Calibration struct {
	Data    []string           `json:"data"`
	Command string             `json:"command"`
	Weights map[string]float64 `json:"weights"`
}

// CalibrationVector lays the calibration's weights out in the order of
// Features, for the signals named; a model without one has none.
func (m *Model) CalibrationVector(signals []string) ([]float64, error) {
	if m.Calibration == nil {
		return nil, fmt.Errorf("the ranking model has no calibration: fit one with hone bench calibrate --write")
	}
	names := CalibrationNames(signals)
	w := make([]float64, len(names))
	for n, v := range m.Calibration.Weights {
		i := slices.Index(names, n)
		if i < 0 {
			return nil, fmt.Errorf("the ranking model's calibration weighs a feature that is not computed: %s", n)
		}
		w[i] = v
	}
	return w, nil
}

// CalibrationNames name every feature Features computes, for the signals
// named.
func CalibrationNames(signals []string) []string {
	names := slices.Clone(CalibrationFeatures)
	for _, s := range signals {
		names = append(names, SignalFeature(s))
	}
	return names
}

// HeldOut are a fit's figures on the instances it did not see.
type HeldOut struct {
	Method string  `json:"method"`
	Acc1   float64 `json:"acc1"`
	Acc3   float64 `json:"acc3"`
	Acc5   float64 `json:"acc5"`
	Acc10  float64 `json:"acc10"`
	MRR    float64 `json:"mrr"`
}

// defaultJSON is the model retrieve ranks with; `hone bench fit --write`
// writes it.
//
//go:embed model.json
var defaultJSON []byte

// Default is the model retrieve ranks with. The embedded file is checked
// by the package's tests, so an error here is a build's mistake.
var Default = sync.OnceValue(func() *Model {
	m, err := Parse(defaultJSON)
	if err != nil {
		panic(fmt.Sprintf("rankmodel: the embedded model.json: %v", err))
	}
	return m
})

// Parse reads a model.
func Parse(data []byte) (*Model, error) {
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read the ranking model: %w", err)
	}
	if err := m.check("the ranking model"); err != nil {
		return nil, err
	}
	if len(m.Languages) > 0 {
		return nil, fmt.Errorf("the ranking model lists languages of its own: only its sets do")
	}
	seen := map[string]int{} // the set, from 1, that ranks a language
	for i, s := range m.Sets {
		name := fmt.Sprintf("the ranking model's set %d", i+1)
		if err := s.check(name); err != nil {
			return nil, err
		}
		if len(s.Languages) == 0 {
			return nil, fmt.Errorf("%s names no languages", name)
		}
		if len(s.Sets) > 0 {
			return nil, fmt.Errorf("%s has sets of its own", name)
		}
		for _, l := range s.Languages {
			switch {
			case l == "" || strings.TrimSpace(l) != l:
				return nil, fmt.Errorf("%s names a language %q: empty, or with spaces around it", name, l)
			case seen[l] == i+1:
				return nil, fmt.Errorf("%s names %s twice", name, l)
			case seen[l] > 0:
				return nil, fmt.Errorf("two of the ranking model's sets rank %s", l)
			}
			seen[l] = i + 1
		}
	}
	return &m, nil
}

// check reports what makes a model, or one of its sets, named what,
// unusable.
func (m *Model) check(what string) error {
	if m == nil || len(m.Weights) == 0 {
		return fmt.Errorf("%s has no weights", what)
	}
	if m.Temperature <= 0 {
		return fmt.Errorf("%s's temperature must be above 0, not %g", what, m.Temperature)
	}
	return nil
}

// Vector lays the weights out in the order of names, the signals a ranker
// computes. A weight whose signal is not among names is an error: the
// model and the code that computes its signals disagree.
func (m *Model) Vector(names []string) ([]float64, error) {
	at := map[string]int{}
	for i, n := range names {
		at[n] = i
	}
	w := make([]float64, len(names))
	var unknown []string
	for n, v := range m.Weights {
		i, ok := at[n]
		if !ok {
			unknown = append(unknown, n)
			continue
		}
		w[i] = v
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("the ranking model weighs signals that are not computed: %s", strings.Join(unknown, ", "))
	}
	return w, nil
}

// Write writes the model as indented JSON to a file.
func (m *Model) Write(path string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write the ranking model: %w", err)
	}
	return nil
}

// Score is the weighted sum of a file's signals.
func Score(w, x []float64) float64 {
	s := 0.0
	for i, v := range x {
		if i < len(w) {
			s += w[i] * v
		}
	}
	return s
}

// Softmax turns a run's scores into probabilities that sum to 1: the
// exponent of each score's distance from the best, over the temperature.
func Softmax(scores []float64, temp float64) []float64 {
	if temp <= 0 {
		temp = 1
	}
	p := make([]float64, len(scores))
	top := math.Inf(-1)
	for _, s := range scores {
		top = math.Max(top, s)
	}
	sum := 0.0
	for i, s := range scores {
		p[i] = math.Exp((s - top) / temp)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}
