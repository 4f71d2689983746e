package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/pack"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtureMirror makes a bare git mirror of a fixture repository, with a
// second commit that changes it, and returns the mirror and both commits.
func fixtureMirror(t *testing.T, fixture string) (mirror, c1, c2 string) {
	t.Helper()
	src := t.TempDir()
	cp := exec.Command("cp", "-r", filepath.Join("..", "testdata", "repos", fixture)+"/.", src)
	if out, err := cp.CombinedOutput(); err != nil {
		t.Fatalf("copy fixture: %v: %s", err, out)
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_AUTHOR_DATE=2020-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2020-01-01T00:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "one")
	c1 = git("rev-parse", "HEAD")
	os.WriteFile(filepath.Join(src, "CHANGELOG.md"), []byte("# Changes\n\n- first release\n"), 0o644)
	os.Remove(filepath.Join(src, "tsconfig.json"))
	git("add", "-A")
	git("commit", "-qm", "two")
	c2 = git("rev-parse", "HEAD")
	mirror = filepath.Join(t.TempDir(), "mirror.git")
	git("clone", "-q", "--bare", src, mirror)
	return mirror, c1, c2
}

// TestRunSWE runs the harness end to end on the fixture repositories, and
// keeps its rank statistics in a golden file, so that every change to the
// ranking shows its effect in review.
func TestRunSWE(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("HONE_INDEX_DIR", t.TempDir())
	authMirror, a1, a2 := fixtureMirror(t, "auth-expiry")
	thrMirror, t1, _ := fixtureMirror(t, "throttle-api")
	instances := []Instance{
		{ID: "auth-1", Repo: "fixtures/auth", BaseCommit: a1, Problem: "fix the auth token expiry bug", Gold: []string{"src/auth/auth.ts"}},
		{ID: "auth-2", Repo: "fixtures/auth", BaseCommit: a2, Problem: "Sessions are not renewed: refreshSession returns null although the session TTL has not passed.", Gold: []string{"src/session/session-manager.ts"}},
		{ID: "auth-3", Repo: "fixtures/auth", BaseCommit: a1, Problem: "verifyJwt accepts a token whose signature does not match", Gold: []string{"src/lib/jwt-utils.ts"}},
		{ID: "thr-1", Repo: "fixtures/throttle", BaseCommit: t1, Problem: "add rate limiting to the API endpoints", Gold: []string{"src/middleware/throttle.ts"}},
		{ID: "thr-2", Repo: "fixtures/throttle", BaseCommit: t1, Problem: "为API端点添加速率限制", Gold: []string{"src/middleware/throttle.ts", "src/routes/router-setup.ts"}},
	}
	dataFile := filepath.Join(t.TempDir(), "data.jsonl")
	var buf bytes.Buffer
	for _, in := range instances {
		b, _ := json.Marshal(in)
		buf.Write(append(b, '\n'))
	}
	os.WriteFile(dataFile, buf.Bytes(), 0o644)
	read, err := ReadInstances(dataFile)
	if err != nil || len(read) != len(instances) {
		t.Fatalf("ReadInstances: %d instances, %v", len(read), err)
	}
	mapFile := filepath.Join(t.TempDir(), "map")
	os.WriteFile(mapFile, []byte("# where the fixtures live\nfixtures/auth = "+authMirror+"\nfixtures/throttle = "+thrMirror+"\n"), 0o644)
	mapping, err := ReadMapping(mapFile)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rows, err := RunSWE(context.Background(), SWEConfig{
		Instances:   read,
		Repos:       Repos{Dir: t.TempDir(), Mapping: mapping},
		Out:         &out,
		CountTokens: pack.CountTokens,
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != len(instances) {
		t.Errorf("wrote %d rows, want %d", n, len(instances))
	}
	for _, r := range rows {
		if r.Error != "" {
			t.Errorf("%s: %s", r.ID, r.Error)
		}
	}
	var got bytes.Buffer
	PrintRankStats(&got, rows)
	got.WriteString("\n")
	PrintCalibration(&got, rows)
	golden := filepath.Join("testdata", "fixtures.golden")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./bench -run TestRunSWE -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("rank statistics changed (if intended, go test ./bench -run TestRunSWE -update):\n--- got\n%s--- want\n%s", got.String(), want)
	}
}

func TestSummarize(t *testing.T) {
	rows := []Row{
		{Gold: []string{"a"}, GoldRanks: []int{1}, Files: []string{"a", "b"}},
		{Gold: []string{"a", "b"}, GoldRanks: []int{2, 4}, Files: []string{"a"}},
		{Gold: []string{"a"}, GoldRanks: []int{0}, Files: nil},
		{Gold: []string{"a"}, GoldRanks: []int{7}, Files: []string{"x", "y", "a"}},
	}
	s := Summarize(rows)
	if s.Acc[1] != 25 || s.Acc[3] != 25 || s.Acc[5] != 50 || s.Acc[10] != 75 {
		t.Errorf("Acc = %v", s.Acc)
	}
	if s.Returned != 50 || s.Files != 1.5 {
		t.Errorf("returned %.1f, files %.1f", s.Returned, s.Files)
	}
	if want := (1 + 0.5 + 0 + 1.0/7) / 4; s.MRR != want {
		t.Errorf("MRR %.4f, want %.4f", s.MRR, want)
	}
	if want := 100 * (1 + 1 + 0 + 0) / 4.0; s.Recall5 != want {
		t.Errorf("Recall@5 %.1f, want %.1f", s.Recall5, want)
	}
	if got := Every(make([]Instance, 300), 5); len(got) != 60 {
		t.Errorf("Every(300, 5) = %d", len(got))
	}
}

func TestReposGitDir(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"acme+fetcher/repo", "kiln.git", "mirror-x"} {
		os.MkdirAll(filepath.Join(dir, d, "objects"), 0o755)
		os.WriteFile(filepath.Join(dir, d, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	}
	r := Repos{Dir: dir, Mapping: map[string]string{"bazaar/bazaar": "mirror-x"}}
	for repo, want := range map[string]string{"acme/fetcher": "acme+fetcher/repo", "lanterns/kiln": "kiln.git", "bazaar/bazaar": "mirror-x"} {
		got, err := r.GitDir(repo)
		if err != nil || got != filepath.Join(dir, want) {
			t.Errorf("GitDir(%s) = %s, %v", repo, got, err)
		}
	}
	if _, err := r.GitDir("algebra/algebra"); err == nil || !strings.Contains(err.Error(), "mapping file") {
		t.Errorf("missing repository: %v", err)
	}
}

func TestTaskLang(t *testing.T) {
	for _, tt := range []struct{ task, want string }{
		{"reject uploads that are too big", "en"},
		{"修复注册蓝图时URL前缀被重复拼接的问题", "zh"},
		{"login 接口需要限流", "zh"},
		{"café ☕ naïve", "en"},
		{"", "en"},
	} {
		if got := taskLang(tt.task); got != tt.want {
			t.Errorf("taskLang(%q) = %q, want %q", tt.task, got, tt.want)
		}
	}
}

// The report sums what a model evaluator spent over the rows, and counts
// the instances that fell back to the lexical evaluator.
func TestPrintModel(t *testing.T) {
	var b strings.Builder
	PrintModel(&b, []Row{{ID: "a"}})
	if b.Len() != 0 {
		t.Errorf("rows without a model printed %q", b.String())
	}
	rows := []Row{
		{ID: "a", Model: &hone.Usage{Evaluator: "openai:m", Calls: 8, Judged: 70, InputTokens: 47000, OutputTokens: 2000, CostUSD: 0.02}},
		{ID: "b", Model: &hone.Usage{Evaluator: "openai:m", Calls: 1, Failed: 1, Judged: 0, Cached: 0, InputTokens: 6000, Fallback: "openai:m: HTTP 500"}},
		{ID: "c", Model: &hone.Usage{Evaluator: "openai:m", Judged: 70, Cached: 70}},
	}
	PrintModel(&b, rows)
	for _, want := range []string{
		"model evaluator openai:m over 3 instances: 9 calls (1 failed), 140 files judged (70 from the cache)",
		"tokens: 53000 in, 2000 out; median 6000 an instance; cost $0.0200, $0.00667 an instance",
		"fell back to the lexical evaluator: 1 instances",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestPrintTimings(t *testing.T) {
	rows := []Row{
		{Timings: &hone.Timings{Update: 900, Task: 10, Cycles: []int64{30, 20}, Rank: 40, History: 5}},
		{Timings: &hone.Timings{Update: 700, Task: 30, Cycles: []int64{50}, Rank: 20}},
		{Timings: &hone.Timings{Update: 800, Task: 20, Cycles: []int64{40, 10, 10}, Rank: 30, History: 1}},
		{}, // BM25's, or a failed run's: no stages
	}
	var b strings.Builder
	PrintTimings(&b, rows)
	want := `
time by stage over 3 runs, median and 90th percentile:
  update (first index)        3     800ms     900ms
  task                        3      20ms      30ms
  cycles                      3      50ms      60ms
    cycle 1                   3      40ms      50ms
    cycle 2                   2      20ms      20ms
    cycle 3                   1      10ms      10ms
  ranking                     3      30ms      40ms
  waiting for the history     3       1ms       5ms
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	PrintTimings(&b, []Row{{}})
	if b.Len() != 0 {
		t.Errorf("rows without timings printed %q", b.String())
	}
}

func TestCalibrateVerdicts(t *testing.T) {
	rows := []Row{
		{Verdicts: []Verdict{{Cycle: 1, Score: 0.9, Gold: true}, {Cycle: 1, Score: 0.85}, {Cycle: 2, Score: 0.1}, {Cycle: 0, Score: 0.99, Gold: true}}},
		{Verdicts: []Verdict{{Cycle: 2, Score: 0.75, Gold: true}, {Cycle: 3, Score: 1}}},
		{}, // BM25's rows have none
	}
	got := CalibrateVerdicts(rows)
	if len(got) != 3 {
		t.Fatalf("%d cycles, want 3 (a verdict outside the cycles is left out)", len(got))
	}
	for _, c := range []struct {
		cycle, band, files, gold int
	}{
		{1, 0, 2, 1}, // 0.8-1.0: one of two gold
		{2, 1, 1, 1}, // 0.7-0.8
		{2, 4, 1, 0}, // 0.0-0.2
		{3, 0, 1, 0},
		{3, 4, 0, 0},
	} {
		b := got[c.cycle-1][c.band]
		if b.Files != c.files || b.GoldInBand != c.gold {
			t.Errorf("cycle %d band %s: %d files, %d gold; want %d, %d", c.cycle, b.Band, b.Files, b.GoldInBand, c.files, c.gold)
		}
	}
	if CalibrateVerdicts([]Row{{}}) != nil {
		t.Error("rows without verdicts give tables")
	}
}

// TestSetFit holds the set measures of a row's files: precision and
// recall against the gold files, F0.5, and, without context, the context
// files left out.
func TestSetFit(t *testing.T) {
	tests := []struct {
		name    string
		row     Row
		context bool
		p, r, f float64
	}{
		{"the gold file alone", Row{Gold: []string{"a"}, Files: []string{"a"}}, true, 1, 1, 1},
		{"one of two gold", Row{Gold: []string{"a", "b"}, Files: []string{"a"}}, true, 1, 0.5, 1.25 * 0.5 / 0.75},
		{"a file not gold", Row{Gold: []string{"a"}, Files: []string{"a", "x"}}, true, 0.5, 1, 1.25 * 0.5 / 1.125},
		{"no gold file", Row{Gold: []string{"a"}, Files: []string{"x"}}, true, 0, 0, 0},
		{"a gold file twice counts once", Row{Gold: []string{"a", "b"}, Files: []string{"a", "a"}}, true, 0.5, 0.5, 0.5},
		{"context counted", Row{Gold: []string{"a"}, Files: []string{"a", "c"}, Roles: []string{hone.RoleTarget, hone.RoleContext}}, true, 0.5, 1, 1.25 * 0.5 / 1.125},
		{"context left out", Row{Gold: []string{"a"}, Files: []string{"a", "c"}, Roles: []string{hone.RoleTarget, hone.RoleContext}}, false, 1, 1, 1},
		{"a gold context file left out", Row{Gold: []string{"a", "c"}, Files: []string{"a", "c"}, Roles: []string{hone.RoleTarget, hone.RoleContext}}, false, 1, 0.5, 1.25 * 0.5 / 0.75},
	}
	for _, tt := range tests {
		p, r, f := setFit(tt.row, tt.context)
		if math.Abs(p-tt.p) > 1e-9 || math.Abs(r-tt.r) > 1e-9 || math.Abs(f-tt.f) > 1e-9 {
			t.Errorf("%s: setFit = %.3f, %.3f, %.3f; want %.3f, %.3f, %.3f", tt.name, p, r, f, tt.p, tt.r, tt.f)
		}
	}
}
