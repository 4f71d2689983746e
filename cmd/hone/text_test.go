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

// A cycle's block counts its files in words that agree with the number,
// and bounds the rows it leaves out by the best of them: a hidden row may
// score as the last one shown.
func TestTextCycleBlock(t *testing.T) {
	scores := func(ss ...float64) []hone.Evaluation {
		var evs []hone.Evaluation
		for i, s := range ss {
			evs = append(evs, hone.Evaluation{Path: string(rune('a'+i)) + ".go", Score: s, Cycle: 1})
		}
		return evs
	}
	twelve := []float64{0.9, 0.9, 0.8, 0.8, 0.7, 0.7, 0.6, 0.6, 0.6, 0.5, 0.5, 0.5}
	for _, tc := range []struct {
		name      string
		evaluated []hone.Evaluation
		want      []string
		not       []string
	}{
		{"one file", scores(0.9), []string{"Evaluate (1 file; "}, []string{"1 files", "more, scored"}},
		{"two files", scores(0.9, 0.4), []string{"Evaluate (2 files; "}, nil},
		{"a hidden row ties the last shown", scores(append(twelve, 0.5, 0.3)...),
			[]string{"Evaluate (14 files; ", "  … 2 more, scored 0.50 or less\n"}, []string{"below"}},
		{"the hidden rows out of order", scores(append(twelve, 0.2, 0.4, 0.3)...),
			[]string{"  … 3 more, scored 0.40 or less\n"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &hone.Result{Task: "t", Threshold: hone.DefaultThreshold, StopReason: hone.StopMaxCycles,
				Cycles: []hone.Cycle{{N: 1, Evaluated: tc.evaluated}}}
			var b strings.Builder
			if err := writeText(&b, res); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("text lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tc.not {
				if strings.Contains(b.String(), w) {
					t.Errorf("text holds %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// A cycle's keywords are its terms as the task and the code write them,
// each once whatever its case, in the query's order; a term without a
// label shows its stems.
func TestTextKeywords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		terms []hone.Term
		want  string
	}{
		{"labels, not stems", []hone.Term{
			{Stems: []string{"durat"}, Label: "duration"},
			{Stems: []string{"interv"}, Label: "interval"},
		}, "  keywords:    duration, interval\n"},
		{"each once", []hone.Term{
			{Stems: []string{"token"}, Label: "token"},
			{Stems: []string{"token"}, Label: "Token"},
			{Stems: []string{"queryset"}, Label: "QuerySet"},
			{Stems: []string{"queri", "set"}, Label: "QuerySet"},
		}, "  keywords:    token, QuerySet\n"},
		{"stems where no label", []hone.Term{
			{Stems: []string{"access", "token"}},
		}, "  keywords:    access token\n"},
		{"none", nil, "  keywords:    \n"},
		{"other words after the task's word they are searched for", []hone.Term{
			{Concept: "expiry", Kind: "word", Source: "task", Stems: []string{"expiri"}, Label: "expiry"},
			{Concept: "expiry", Kind: "word", Source: "synonym", Stems: []string{"expir"}, Label: "expire"},
			{Concept: "token", Kind: "word", Source: "task", Stems: []string{"token"}, Label: "token"},
			{Concept: "expiry", Kind: "word", Source: "vocabulary", Stems: []string{"ttl"}, Label: "ttl"},
			{Concept: "token", Kind: "word", Source: "thesaurus", Stems: []string{"jwt"}, Label: "jwt"},
		}, "  keywords:    expiry, token\n  related:     expire, ttl (for expiry); jwt (for token)\n"},
		{"a translation is the task's word", []hone.Term{
			{Concept: "lost", Kind: "word", Source: "glossary", Stems: []string{"lost"}, Label: "lost"},
			{Concept: "lost", Kind: "word", Source: "glossary", Stems: []string{"miss"}, Label: "missing"},
		}, "  keywords:    lost, missing\n  patterns:"},
		{"learned terms on a row of their own", []hone.Term{
			{Concept: "token", Kind: "word", Source: "task", Stems: []string{"token"}, Label: "token"},
			{Concept: "session", Kind: "learned", Source: "feedback", Stems: []string{"session"}, Label: "session"},
		}, "  keywords:    token\n  learned:     session\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &hone.Result{Task: "t", Threshold: hone.DefaultThreshold, StopReason: hone.StopMaxCycles,
				Cycles: []hone.Cycle{{N: 1, Query: hone.Query{Terms: tc.terms}}}}
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

// The stop line counts the files the cycles evaluated, and says apart
// those the ranking's search after them evaluated; a path of 40
// characters or more stands two spaces from its band.
func TestTextCounts(t *testing.T) {
	long := "engine/internal/runnerd/local/local_windows.go"
	res := &hone.Result{Task: "t", Threshold: hone.DefaultThreshold, StopReason: hone.StopMaxCycles,
		Cycles: []hone.Cycle{
			{N: 1, Evaluated: []hone.Evaluation{{Path: "a.go", Score: 0.9, Cycle: 1}, {Path: long, Score: 0.5, Relevance: 0.01, Cycle: 1}}},
			{N: 2, Evaluated: []hone.Evaluation{{Path: "a.go", Score: 0.9, Cycle: 2}, {Path: "b.go", Score: 0.4, Cycle: 2}}},
		},
		Ranking: []hone.Ranked{{Path: "a.go"}, {Path: long}, {Path: "b.go"}, {Path: "c.go"}, {Path: "d.go"}},
	}
	var b strings.Builder
	if err := writeText(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 cycles, 3 files evaluated and 2 more for the ranking,", long + "  irrelevant"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// Under the result, the ranking's next files still tangential or more are
// named, best first, five at most; none when nothing was found.
func TestTextNextInRanking(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []hone.File
		want  string // "" for no line
	}{
		{"a result", []hone.File{{Path: "a.go", Relevance: 0.8, Role: hone.RoleTarget}}, "Next in the ranking: b.go 0.40, c.go 0.30, d.go 0.25, e.go 0.22, f.go 0.21\n"},
		{"nothing found", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &hone.Result{Task: "t", Threshold: hone.DefaultThreshold, StopReason: hone.StopMaxCycles, Files: tc.files,
				Ranking: []hone.Ranked{{Path: "a.go", Relevance: 0.8}, {Path: "b.go", Relevance: 0.4}, {Path: "c.go", Relevance: 0.3},
					{Path: "d.go", Relevance: 0.25}, {Path: "e.go", Relevance: 0.22}, {Path: "f.go", Relevance: 0.21}, {Path: "g.go", Relevance: 0.2}, {Path: "h.go", Relevance: 0.1}}}
			var b strings.Builder
			if err := writeText(&b, res); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), "Next in the ranking"); got != (tc.want != "") || tc.want != "" && !strings.Contains(b.String(), tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, b.String())
			}
		})
	}
}

// A file the evaluator scored at the threshold or more that the result
// holds irrelevant says where the ranking put it; one of middling score,
// or relevant, says nothing more.
func TestTextPlaceOfTheHighScored(t *testing.T) {
	res := &hone.Result{
		Task: "t", Threshold: hone.DefaultThreshold, StopReason: "max_cycles",
		Ranking: []hone.Ranked{{Path: "best.go", Relevance: 0.9}, {Path: "b.go", Relevance: 0.1}, {Path: "c.go", Relevance: 0.05}},
		Cycles: []hone.Cycle{{N: 1, Evaluated: []hone.Evaluation{
			{Path: "best.go", Score: 0.9, Relevance: 0.9},
			{Path: "b.go", Score: 0.95, Relevance: 0.1},
			{Path: "c.go", Score: 0.5, Relevance: 0.05},
		}}},
	}
	var b strings.Builder
	if err := writeText(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"b.go                                     irrelevant, 2nd in the ranking\n", "c.go                                     irrelevant\n", "best.go                                  direct\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}
