package main

import (
	"strings"
	"testing"

	"github.com/hone-tools/hone"
)

// A result file's line says the cycle that found it, or, for a file no
// cycle evaluated, that the ranking's search after the cycles did.
func TestTextFileFound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		evaluated []string // the second cycle's
		want      string
	}{
		{"in a cycle", []string{"a.go"}, "target, cycle 2, scored 0.90"},
		{"after the cycles", []string{"b.go"}, "target, found after the cycles, scored 0.90"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &hone.Result{
				Task: "t", Threshold: hone.DefaultThreshold, StopReason: "max_cycles",
				Cycles: []hone.Cycle{{N: 1}, {N: 2}},
				Files:  []hone.File{{Path: "a.go", Relevance: 0.9, Role: hone.RoleTarget, Score: 0.9, Cycle: 2}},
			}
			for _, p := range tc.evaluated {
				res.Cycles[1].Evaluated = append(res.Cycles[1].Evaluated, hone.Evaluation{Path: p, Score: 0.9, Cycle: 2})
			}
			var b strings.Builder
			if err := writeText(&b, res); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("text lacks %q:\n%s", tc.want, b.String())
			}
		})
	}
}
