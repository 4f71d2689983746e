package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/tokenize"
)

func TestPackRow(t *testing.T) {
	p := &pack.Pack{Tokens: 900, Ranges: []pack.Range{{Path: "a.py", Start: 1, End: 10}, {Path: "a.py", Start: 40, End: 60}, {Path: "b.go", Start: 1, End: 200}}}
	hunks := []Hunk{
		{"a.py", 5, 8},   // inside
		{"a.py", 8, 12},  // 3 of 5 lines: 60%, held
		{"a.py", 9, 13},  // 2 of 5: not
		{"a.py", 38, 41}, // 2 of 4: not
		{"a.py", 60, 60}, // one line
		{"c.rs", 1, 3},   // a file the pack lacks
		{"new.go", 0, 5}, // a file the fix creates: no pack holds it
	}
	got := packRow(p, 1000, hunks)
	want := PackRow{Budget: 1000, Tokens: 900, Hunks: 6, Held: 3}
	if got != want {
		t.Errorf("packRow = %+v, want %+v", got, want)
	}
}

func TestSummarizePacks(t *testing.T) {
	rows := []Row{
		{Packs: []PackRow{{Budget: 2000, Tokens: 1900, Hunks: 2, Held: 2}, {Budget: 8000, Tokens: 7000, Hunks: 2, Held: 2}}},
		{Packs: []PackRow{{Budget: 2000, Tokens: 1500, Hunks: 3, Held: 1}, {Budget: 8000, Tokens: 6000, Hunks: 3, Held: 3}}},
		{Packs: []PackRow{{Budget: 2000, Tokens: 1000, Hunks: 1, Held: 0}, {Budget: 8000, Tokens: 5000, Hunks: 1, Held: 0}}},
		{Packs: []PackRow{{Budget: 2000, Tokens: 100, Hunks: 0}, {Budget: 8000, Tokens: 100, Hunks: 0}}}, // nothing to hold
		{}, // a row without packs
	}
	got := SummarizePacks(rows)
	want := []PackSummary{
		{Budget: 2000, N: 3, Every: 100.0 / 3, Any: 200.0 / 3, Tokens: 1250},
		{Budget: 8000, N: 3, Every: 200.0 / 3, Any: 200.0 / 3, Tokens: 5500},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SummarizePacks = %+v\nwant %+v", got, want)
	}
	if got := SummarizePacks([]Row{{}}); got != nil {
		t.Errorf("SummarizePacks without packs = %+v, want none", got)
	}
}

// TestPackDumpReplays checks that a dump's packs, built again, hold the
// hunks as the run's packs did, from the dumped files alone.
func TestPackDumpReplays(t *testing.T) {
	root := t.TempDir()
	var src strings.Builder
	src.WriteString("import os\n\n")
	for i := range 40 {
		fmt.Fprintf(&src, "def handler_%d(request):\n    token = request.headers.get('x')\n    return token + %d\n\n", i, i)
	}
	if err := os.MkdirAll(filepath.Join(root, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "app", "views.py"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "unrelated.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &hone.Result{Task: "handler_7 returns the wrong token",
		Files:   []hone.File{{Path: "app/views.py", Relevance: 0.9, Role: "target", Spans: []hone.Span{{Start: 31, End: 33, Symbol: "handler_7", Why: "match"}}}},
		Ranking: []hone.Ranked{{Path: "app/views.py", Relevance: 0.9}}}
	in := Instance{ID: "org__repo-1", Repo: "org/repo", GoldHunks: []Hunk{{"app/views.py", 32, 33}, {"app/views.py", 120, 121}, {"app/new.py", 0, 3}}}
	dir := t.TempDir()
	// A line a past commit like the task wrote, kept with the dump: the
	// replay weighs it as the run did.
	past := map[string][]string{"app/views.py": {"    return token + 37"}}
	if err := dumpPack(dir, in, res, root, past); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "org__repo-1", "unrelated.py")); err == nil {
		t.Error("the dump keeps a file the pack never reads")
	}
	dumps, err := ReadPackDumps(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(dumps) != 1 || dumps[0].ID != in.ID || len(dumps[0].Hunks) != 3 || !reflect.DeepEqual(dumps[0].Past, past) {
		t.Fatalf("ReadPackDumps = %+v", dumps)
	}
	budgets := []int{300, 4000}
	var misses strings.Builder
	rows, err := ReplayPacks(dir, dumps, budgets, pack.CountTokens, nil, &misses)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range budgets {
		want := packRow(pack.Build(res, root, pack.Options{Budget: b, PastLines: past}), b, in.GoldHunks)
		if got := rows[0].Packs[i]; got != want {
			t.Errorf("replayed at %d: %+v, the run's %+v", b, got, want)
		}
	}
	if rows[0].Packs[0].Held == rows[0].Packs[0].Hunks {
		t.Errorf("a pack of 300 tokens holds every hunk: %+v", rows[0].Packs[0])
	}
	// The past commit's line weighs as it did in the run: its handler
	// goes in at 300 tokens, and without it does not.
	with := pack.Build(res, root, pack.Options{Budget: 300, PastLines: past})
	without := pack.Build(res, root, pack.Options{Budget: 300})
	if !slices.ContainsFunc(with.Included, func(s string) bool { return strings.HasSuffix(s, " handler_37") }) ||
		slices.ContainsFunc(without.Included, func(s string) bool { return strings.HasSuffix(s, " handler_37") }) {
		t.Errorf("handler_37, which holds a past commit's line: in the pack with it %q, without %q", with.Included, without.Included)
	}
	if !strings.Contains(misses.String(), "gold app/views.py:120-121  file in pack, hunk not") {
		t.Errorf("the misses do not say where the hunk was:\n%s", misses.String())
	}
	// Without verbose, the dumps are replayed side by side, to the same
	// rows, each in its dump's place.
	three := []PackDump{dumps[0], dumps[0], dumps[0]}
	three[1].ID = "other"
	side, err := ReplayPacks(dir, three, budgets, pack.CountTokens, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(side) != 3 || side[1].ID != "other" || !slices.Equal(side[0].Packs, rows[0].Packs) || !slices.Equal(side[2].Packs, rows[0].Packs) {
		t.Errorf("replayed side by side: %+v, want the rows %+v", side, rows[0])
	}
}

// TestFitPackUnits fits the unit weights on dumps where the fix is always
// in the definition named for the task: the fit must learn that a
// definition's name holding the task's words is worth more, and its
// held-out packs must hold those hunks.
func TestFitPackUnits(t *testing.T) {
	words := []string{"refresh", "expire", "rotate", "revoke", "encode", "decode"}
	dir := t.TempDir()
	var dumps []PackDump
	for i, w := range words {
		var src strings.Builder
		target := 0
		for d := range 30 {
			name := fmt.Sprintf("step_%d", d)
			if d == 7+i {
				name, target = "handle_"+w, src.Len()
			}
			// Every definition mentions the word in its body; only one
			// is named for it.
			fmt.Fprintf(&src, "def %s(request):\n    # %s the token\n    value = request.get('x')\n    return value\n\n", name, w)
		}
		line := strings.Count(src.String()[:target], "\n") + 1
		res := &hone.Result{Task: w + " the token fails",
			Concepts: []hone.Concept{{Label: w, Kind: "word", Weight: 1, Terms: []string{tokenize.Stem(w)}}},
			Files:    []hone.File{{Path: "app/tokens.py", Relevance: 0.9, Role: "target"}},
			Ranking:  []hone.Ranked{{Path: "app/tokens.py", Relevance: 0.9}}}
		in := Instance{ID: fmt.Sprintf("o__r%d-%d", i%3, i), Repo: fmt.Sprintf("o/r%d", i%3), GoldHunks: []Hunk{{"app/tokens.py", line, line + 3}}}
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "app"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "app", "tokens.py"), []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := dumpPack(dir, in, res, root, nil); err != nil {
			t.Fatal(err)
		}
	}
	dumps, err := ReadPackDumps(dir)
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	w, err := FitPackUnits(&report, []PackSet{{Name: "s", Dir: dir, Dumps: dumps}}, []PackSet{{Name: "t", Dir: dir, Dumps: dumps[:2]}}, []int{200}, pack.CountTokens, FitConfig{Iters: 300})
	if err != nil {
		t.Fatal(err)
	}
	name := slices.Index(pack.UnitFeatures(), "name")
	if len(w) != len(pack.UnitFeatures()) || w[name] <= 0 {
		t.Fatalf("fitted weights %v: want the name's weight above 0\n%s", w, report.String())
	}
	heldOut := regexp.MustCompile(`(?m)^\s+200\s+\S+\s+\S+\s+100\.0%`)
	if !strings.Contains(report.String(), "6 files' units in 3 repositories") || !heldOut.MatchString(report.String()) {
		t.Errorf("the report does not say the held-out packs hold every hunk:\n%s", report.String())
	}
	// The units' own ranking, held out: the unit named for the task is
	// the best in every file.
	if !regexp.MustCompile(`(?m)^ s\s+6 files\s+\S+ \S+\s+100\.0% 1\.000 \(held out\)`).MatchString(report.String()) {
		t.Errorf("the report does not say the held-out fit ranks the gold unit first:\n%s", report.String())
	}
	// Without budgets, the units' ranking alone.
	var alone strings.Builder
	if _, err := FitPackUnits(&alone, []PackSet{{Name: "s", Dir: dir, Dumps: dumps}}, nil, nil, pack.CountTokens, FitConfig{Iters: 300}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(alone.String(), "(held out)") || strings.Contains(alone.String(), "== s") {
		t.Errorf("with no budget, the report is not the units' ranking alone:\n%s", alone.String())
	}
	// A test set is not fitted on (still 6 files), and is reported with
	// the weights fitted on the others.
	if !strings.Contains(report.String(), "== t: 2 instances") || !strings.Contains(report.String(), "fit on the others") {
		t.Errorf("the report does not measure the test set:\n%s", report.String())
	}
}

// TestUnitRanks: the share of files whose best unit is gold, and the mean
// reciprocal rank of the first gold unit; a file with no gold unit does
// not count.
func TestUnitRanks(t *testing.T) {
	row := func(repo string, gold []bool, x ...float64) SignalRow {
		r := SignalRow{Repo: repo, IsG: gold}
		for _, v := range x {
			r.X = append(r.X, []float64{v})
		}
		return r
	}
	rows := []SignalRow{
		row("a", []bool{true, false, false}, 3, 2, 1),  // gold first
		row("a", []bool{false, false, true}, 3, 2, 1),  // gold third
		row("b", []bool{false, true, false}, 1, 2, 3),  // gold second
		row("b", []bool{false, false, false}, 1, 2, 3), // no gold: not counted
	}
	tests := []struct {
		name    string
		weights func(string) []float64
		top     float64
		mrr     float64
	}{
		{"one weight", func(string) []float64 { return []float64{1} }, 1.0 / 3, (1 + 1.0/3 + 1.0/2) / 3},
		{"reversed", func(string) []float64 { return []float64{-1} }, 1.0 / 3, (1.0/3 + 1 + 1.0/2) / 3},
		{"by repository", func(repo string) []float64 {
			if repo == "b" {
				return []float64{-1}
			}
			return []float64{1}
		}, 1.0 / 3, (1 + 1.0/3 + 1.0/2) / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unitRanks(rows, tt.weights)
			if math.Abs(got.top-tt.top) > 1e-9 || math.Abs(got.mrr-tt.mrr) > 1e-9 {
				t.Errorf("unitRanks = %+v, want top %.3f, MRR %.3f", got, tt.top, tt.mrr)
			}
		})
	}
}

// The packs' shares are of the instances that have a gold hunk in a file
// the base commit holds: a fix that only creates files (its hunks start at
// line 0) has none, and is counted apart.
func TestWithHunks(t *testing.T) {
	for _, tc := range []struct {
		dumps []PackDump
		want  int
	}{
		{nil, 0},
		{[]PackDump{{ID: "a"}}, 0},
		{[]PackDump{{ID: "a", Hunks: []Hunk{{Path: "x.go", Start: 1, End: 2}}}, {ID: "b"}, {ID: "c", Hunks: []Hunk{{Path: "new.go"}, {Path: "z.go", Start: 4, End: 4}}}}, 2},
		{[]PackDump{{ID: "d", Hunks: []Hunk{{Path: "created.go"}}}}, 0},
	} {
		if got := WithHunks(tc.dumps); got != tc.want {
			t.Errorf("WithHunks(%d dumps) = %d, want %d", len(tc.dumps), got, tc.want)
		}
	}
}
