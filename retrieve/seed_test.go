package retrieve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hone-tools/hone/internal/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/retrieve"
)

// The seed's examples are the acceptance tests of the loop: they run on the
// fixture repositories in testdata/repos.

// TestMain keeps the tests' indexes out of the user's cache, and the
// fixtures out of this project's git history: git stops looking for a
// repository at testdata/repos, so each fixture is a repository without
// history, whatever commit of hone is checked out.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hone-test-index-")
	if err != nil {
		panic(err)
	}
	os.Setenv("HONE_INDEX_DIR", dir)
	testenv.Setup(filepath.Join("..", "testdata", "repos"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func run(t *testing.T, repo, task string) *hone.Result {
	t.Helper()
	res, err := retrieve.Retrieve(context.Background(), filepath.Join("..", "testdata", "repos", repo), task, hone.Options{})
	if err != nil {
		t.Fatalf("Retrieve(%q): %v", task, err)
	}
	return res
}

// scoreIn returns a file's relevance in a cycle's evaluations, or -1.
func scoreIn(c hone.Cycle, path string) float64 {
	for _, ev := range c.Evaluated {
		if ev.Path == path {
			return ev.Score
		}
	}
	return -1
}

// topPaths are the first n files of the ranking.
func topPaths(res *hone.Result, n int) []string {
	var out []string
	for i, r := range res.Ranking {
		if i == n {
			break
		}
		out = append(out, r.Path)
	}
	return out
}

// firstRelevant is the cycle in which a file first reached the threshold, or 0.
func firstRelevant(res *hone.Result, path string) int {
	for _, c := range res.Cycles {
		if scoreIn(c, path) >= res.Threshold {
			return c.N
		}
	}
	return 0
}

func learnedIn(c hone.Cycle) []string { return c.LearnedKeywords }

func resultPaths(res *hone.Result) []string {
	var ps []string
	for _, f := range res.Files {
		ps = append(ps, f.Path)
	}
	sort.Strings(ps)
	return ps
}

func TestSeedAuthTokenExpiry(t *testing.T) {
	res := run(t, "auth-expiry", "fix the auth token expiry bug")
	if len(res.Cycles) < 2 {
		t.Fatalf("ran %d cycles, want at least 2", len(res.Cycles))
	}
	c1, c2 := res.Cycles[0], res.Cycles[1]

	// Cycle 1 finds auth.ts and tokens.ts high, user.ts low.
	for _, p := range []string{"src/auth/auth.ts", "src/auth/tokens.ts"} {
		if s := scoreIn(c1, p); s < 0.8 {
			t.Errorf("cycle 1: %s scored %.2f, want at least 0.8", p, s)
		}
	}
	if s := scoreIn(c1, "src/models/user.ts"); s < 0 || s >= 0.5 {
		t.Errorf("cycle 1: user.ts scored %.2f, want it evaluated and below 0.5", s)
	}
	// Refine learns the codebase's terms from those files.
	for _, w := range []string{"refresh", "jwt"} {
		if !slices.Contains(learnedIn(c1), w) {
			t.Errorf("cycle 1 learned %v, want %q among them", learnedIn(c1), w)
		}
	}
	// It names the gaps: what auth.ts calls and does not have.
	var gaps []string
	for _, g := range c1.Gaps {
		gaps = append(gaps, g.Name+"@"+g.Where)
	}
	for _, want := range []string{"refreshSession@src/session/session-manager.ts", "verifyJwt@src/lib/jwt-utils.ts"} {
		if !slices.Contains(gaps, want) {
			t.Errorf("cycle 1 gaps %v, want %s", gaps, want)
		}
	}
	// Cycle 2 finds session-manager.ts and jwt-utils.ts.
	for _, p := range []string{"src/session/session-manager.ts", "src/lib/jwt-utils.ts"} {
		if n := firstRelevant(res, p); n != 2 {
			t.Errorf("%s first reached the threshold in cycle %d, want 2 (cycle 2 scored %.2f)", p, n, scoreIn(c2, p))
		}
	}
	// auth.ts and tokens.ts lead the ranking; the result holds the best.
	if top := topPaths(res, 2); !slices.Contains(top, "src/auth/auth.ts") || !slices.Contains(top, "src/auth/tokens.ts") {
		t.Errorf("the ranking's top 2 %v, want auth.ts and tokens.ts", top)
	}
	// What the best calls on the task's lines, which the ranking puts
	// below tangential, is no file of the result: the best file's missing
	// context names it.
	got := resultPaths(res)
	var missing string
	if len(res.Files) > 0 {
		missing = strings.Join(res.Files[0].MissingContext, "; ")
	}
	for _, p := range []string{"src/lib/jwt-utils.ts", "src/session/session-manager.ts"} {
		if slices.Contains(got, p) {
			t.Errorf("result %v holds %s, which the ranking puts below 0.2", got, p)
		}
		if !strings.Contains(missing, p) {
			t.Errorf("the best file's missing context %q lacks %s", missing, p)
		}
	}
	if len(res.Files) == 0 || res.Files[0].Path != res.Ranking[0].Path || res.Files[0].Role != hone.RoleTarget {
		t.Errorf("result %+v: want the ranking's best first, a target", res.Files)
	}
	// The evaluator scores four files 0.75 or more, but the result's best
	// stands below 0.7: the loop counts the result's relevance, so it does
	// not stop as sufficient under a list that holds no file at 0.7.
	if res.StopReason == hone.StopSufficient {
		t.Errorf("stopped as sufficient, though the ranking holds %d files at %.2f", retrieve.RelevantFiles(res), res.Threshold)
	}
	for _, r := range res.Ranking {
		if strings.HasPrefix(r.Path, "dist/") || strings.HasSuffix(r.Path, ".test.ts") {
			t.Errorf("ranking holds %s: ignored files and tests must stay out", r.Path)
		}
	}
}

func TestSeedRateLimitingIsThrottle(t *testing.T) {
	res := run(t, "throttle-api", "add rate limiting to the API endpoints")
	if len(res.Cycles) < 3 {
		t.Fatalf("ran %d cycles, want 3", len(res.Cycles))
	}
	c1 := res.Cycles[0]
	// The first search finds nothing relevant: the code never says "rate limit".
	for _, ev := range c1.Evaluated {
		if ev.Score >= res.Threshold {
			t.Errorf("cycle 1 found %s at %.2f; the task's words should find nothing relevant", ev.Path, ev.Score)
		}
	}
	// Refine learns what the code calls it.
	for _, w := range []string{"throttle", "middleware"} {
		if !slices.Contains(learnedIn(c1), w) {
			t.Errorf("cycle 1 learned %v, want %q among them", learnedIn(c1), w)
		}
	}
	var syn bool
	for _, s := range c1.LearnedSynonyms {
		if s.Term == "throttle" && strings.Contains(s.For, "rate limit") {
			syn = true
		}
	}
	if !syn {
		t.Errorf("cycle 1 synonyms %v, want throttle for rate limiting", c1.LearnedSynonyms)
	}
	// The next cycle finds throttle.ts and middleware/index.ts, a later one router-setup.ts.
	for _, p := range []string{"src/middleware/throttle.ts", "src/middleware/index.ts"} {
		if n := firstRelevant(res, p); n != 2 {
			t.Errorf("%s first reached the threshold in cycle %d, want 2", p, n)
		}
	}
	if n := firstRelevant(res, "src/routes/router-setup.ts"); n < 3 {
		t.Errorf("router-setup.ts first reached the threshold in cycle %d, want a later cycle than 2", n)
	}
	// The three lead the ranking; the result holds the best of them.
	top := topPaths(res, 3)
	for _, p := range []string{"src/middleware/index.ts", "src/middleware/throttle.ts", "src/routes/router-setup.ts"} {
		if !slices.Contains(top, p) {
			t.Errorf("the ranking's top 3 %v lack %s", top, p)
		}
	}
	got := resultPaths(res)
	if len(got) == 0 || !slices.Contains(top, got[0]) {
		t.Errorf("result %v: the best file should be one of %v", got, top)
	}
	// Distractors that say "rate" or "limit" in other senses stay out.
	for _, p := range []string{"src/services/billing.ts", "src/services/exchange.ts", "src/db/pool.ts", "src/utils/pagination.ts"} {
		if slices.Contains(got, p) || slices.Contains(top, p) {
			t.Errorf("result or top 3 hold the distractor %s", p)
		}
	}
}

// The same tasks in Chinese: the glossary carries them to the code's words.
func TestSeedChinese(t *testing.T) {
	tests := []struct {
		repo, task string
		want       []string
	}{
		{"auth-expiry", "修复身份验证令牌过期错误", []string{"src/auth/auth.ts", "src/auth/tokens.ts"}},
		{"throttle-api", "为API端点添加速率限制", []string{"src/middleware/throttle.ts"}},
	}
	for _, tt := range tests {
		t.Run(tt.repo, func(t *testing.T) {
			res := run(t, tt.repo, tt.task)
			top := topPaths(res, 3)
			for _, p := range tt.want {
				if !slices.Contains(top, p) {
					t.Errorf("the ranking's top 3 %v lack %s", top, p)
				}
			}
			if got := resultPaths(res); len(got) == 0 || !slices.Contains(top, got[0]) {
				t.Errorf("result %v: the best file should be one of %v", got, top)
			}
		})
	}
}

// Words of a Chinese task that the glossary does not know are left out
// of the search, and the notice names them; the rest still find the code.
func TestUnreadWordsSaid(t *testing.T) {
	res := run(t, "auth-expiry", "修复令牌过期的蝴蝶问题")
	if len(res.Files) == 0 || !strings.Contains(res.Notice, "glossary does not know them: 蝴蝶") {
		t.Errorf("files %v, notice %q; want files, and 蝴蝶 said left out", resultPaths(res), res.Notice)
	}
}

func TestNothingFound(t *testing.T) {
	tests := []struct {
		task, notice string
	}{
		{"你好", "hone's glossary does not know the task's words (你好)"},
		{"fix it", "the task has no words or identifiers hone can search for"},
		{"quaternion spectrogram", "no file matched the task's terms"},
	}
	for _, tt := range tests {
		res := run(t, "auth-expiry", tt.task)
		if len(res.Files) != 0 {
			t.Errorf("%q: found %d files, want none", tt.task, len(res.Files))
		}
		if !strings.Contains(res.Notice, tt.notice) {
			t.Errorf("%q: notice %q, want it to say %q", tt.task, res.Notice, tt.notice)
		}
		if res.Files == nil || res.Ranking == nil {
			t.Errorf("%q: files and ranking must be empty lists, not null", tt.task)
		}
	}
}

// A task with nothing to search for in any repository is refused before
// the index is opened; one whose words only the repository lacks (a
// greeting in Chinese) gets an empty answer with its notice.
func TestNothingToSearch(t *testing.T) {
	for _, task := range []string{"the of and to", "x", "!!! ???", "123 456", "a b c"} {
		if retrieve.HasSearchTerms(task) {
			t.Errorf("HasSearchTerms(%q) = true, want false", task)
		}
		dir := t.TempDir()
		_, err := retrieve.Retrieve(context.Background(), t.TempDir(), task, hone.Options{IndexDir: dir})
		if !errors.Is(err, hone.ErrNothingToSearch) {
			t.Errorf("Retrieve(%q): %v, want ErrNothingToSearch", task, err)
		}
		if es, _ := os.ReadDir(dir); len(es) != 0 {
			t.Errorf("Retrieve(%q) wrote %d entries in the index folder before refusing the task", task, len(es))
		}
	}
	for _, task := range []string{"你好", "fix it", "ok", "重试", "tokenExpiry", "a.c", "x.h"} {
		if !retrieve.HasSearchTerms(task) {
			t.Errorf("HasSearchTerms(%q) = false, want true", task)
		}
	}
}

func TestResultContract(t *testing.T) {
	res := run(t, "auth-expiry", "fix the auth token expiry bug")
	if res.Version != hone.Version || res.Task == "" || res.ElapsedMS < 0 {
		t.Errorf("version %q task %q elapsed %d", res.Version, res.Task, res.ElapsedMS)
	}
	// The stages' times are parts of the run's, one after another: each
	// cycle has one, and together they are no more than the whole; the
	// wait for the history is part of theirs.
	tm := res.Timings
	if len(tm.Cycles) != len(res.Cycles) {
		t.Errorf("%d cycle times for %d cycles", len(tm.Cycles), len(res.Cycles))
	}
	sum, after := tm.Update+tm.Task+tm.Rank, tm.Rank
	for _, c := range tm.Cycles {
		sum += c
		after += c
		if c < 0 {
			t.Errorf("a cycle took %d ms", c)
		}
	}
	if tm.Update < 0 || tm.Task < 0 || tm.Rank < 0 || tm.History < 0 || sum > res.ElapsedMS || tm.History > after {
		t.Errorf("timings %+v in a run of %d ms", tm, res.ElapsedMS)
	}
	// files are those at the threshold or above, best first, each with
	// its relevance as the ranking gives it, and a role; or, when none is,
	// the best few, and the notice says so.
	rel := map[string]float64{}
	for _, r := range res.Ranking {
		rel[r.Path] = r.Relevance
	}
	targets := 0
	for i, f := range res.Files {
		if f.Relevance != rel[f.Path] || i > 0 && f.Relevance > res.Files[i-1].Relevance {
			t.Errorf("files[%d] %s at %.2f, ranked at %.2f: files go best first, at their relevance", i, f.Path, f.Relevance, rel[f.Path])
		}
		if f.Relevance < res.Threshold && !strings.Contains(res.Notice, "no file reached") {
			t.Errorf("files[%d] %s at %.2f, under the threshold, and no notice says why", i, f.Path, f.Relevance)
		}
		if them := strings.HasSuffix(res.Notice, "relying on them"); res.Notice != "" && strings.Contains(res.Notice, "no file reached") && them != strings.Contains(res.Notice, " files are returned") {
			t.Errorf("notice %q: one file is it, more are them", res.Notice)
		}
		switch f.Role {
		case hone.RoleTarget:
			targets++
		case hone.RoleTest:
		case hone.RoleContext:
			if !strings.Contains(f.Reason, "calls") && !strings.Contains(f.Reason, "imported by") {
				t.Errorf("files[%d] %s is context, and its reason %q does not say what needs it", i, f.Path, f.Reason)
			}
		default:
			t.Errorf("files[%d] %s has role %q", i, f.Path, f.Role)
		}
		if f.Reason == "" || f.MissingContext == nil || f.Spans == nil || f.Cycle < 1 {
			t.Errorf("files[%d] incomplete: %+v", i, f)
		}
	}
	if targets == 0 {
		t.Errorf("no target among the files %+v", res.Files)
	}
	// ranking holds every file evaluated in any cycle, best first; its
	// relevance is each file's probability, and the trace's: a cycle's
	// evaluated file carries it beside the evaluator's score.
	evaluated := map[string]bool{}
	for _, c := range res.Cycles {
		for _, ev := range c.Evaluated {
			evaluated[ev.Path] = true
			if ev.Relevance != rel[ev.Path] {
				t.Errorf("cycle %d evaluated %s at relevance %.2f, the result at %.2f: one scale", c.N, ev.Path, ev.Relevance, rel[ev.Path])
			}
		}
	}
	inRanking := map[string]bool{}
	for i, r := range res.Ranking {
		inRanking[r.Path] = true
		if i > 0 && r.Relevance > res.Ranking[i-1].Relevance {
			t.Errorf("ranking not best first at %d", i)
		}
	}
	for p := range evaluated {
		if !inRanking[p] {
			t.Errorf("%s was evaluated and is not in the ranking", p)
		}
	}
	for _, r := range res.Ranking {
		if r.Relevance < 0 || r.Relevance > 1 {
			t.Errorf("%s: relevance %.2f out of 0..1", r.Path, r.Relevance)
		}
	}
	// excluded files are never evaluated again.
	excluded := map[string]int{}
	for _, c := range res.Cycles {
		for _, ev := range c.Evaluated {
			if n, ok := excluded[ev.Path]; ok {
				t.Errorf("%s excluded in cycle %d, evaluated again in cycle %d", ev.Path, n, c.N)
			}
		}
		for _, p := range c.Excluded {
			excluded[p] = c.N
		}
	}
}

func TestOptions(t *testing.T) {
	dir := filepath.Join("..", "testdata", "repos", "auth-expiry")
	ctx := context.Background()

	res, err := retrieve.Retrieve(ctx, dir, "fix the auth token expiry bug", hone.Options{MaxCycles: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cycles) != 1 || res.StopReason != hone.StopMaxCycles {
		t.Errorf("max cycles 1: ran %d cycles, stopped for %s", len(res.Cycles), res.StopReason)
	}

	res, err = retrieve.Retrieve(ctx, dir, "fix the auth token expiry bug", hone.Options{Include: []string{"src/lib/**"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Ranking {
		if !strings.HasPrefix(r.Path, "src/lib/") {
			t.Errorf("include src/lib/**: ranking holds %s", r.Path)
		}
	}

	res, err = retrieve.Retrieve(ctx, dir, "fix the auth token expiry bug", hone.Options{Exclude: []string{"src/auth"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Ranking {
		if strings.HasPrefix(r.Path, "src/auth/") {
			t.Errorf("exclude src/auth: ranking holds %s", r.Path)
		}
	}

	// A task about tests keeps test files in the search.
	res, err = retrieve.Retrieve(ctx, dir, "the token expiry tests fail", hone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sawTest bool
	for _, r := range res.Ranking {
		sawTest = sawTest || strings.HasSuffix(r.Path, ".test.ts")
	}
	if !sawTest {
		t.Errorf("a task about tests: no test file evaluated in %v", res.Ranking)
	}

	// One file at most is one file, though the target calls on another.
	for _, th := range []float64{0.3, 0.2} {
		res, err = retrieve.Retrieve(ctx, dir, "fix the auth token expiry bug", hone.Options{Threshold: th, MaxFiles: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 {
			t.Errorf("threshold %v, max files 1: %d files %v", th, len(res.Files), res.Files)
		}
	}

	// A low threshold, and a few files at most: as many files as allowed,
	// the best first.
	for _, n := range []int{2, 0} {
		res, err = retrieve.Retrieve(ctx, dir, "fix the auth token expiry bug", hone.Options{Threshold: 0.01, MaxFiles: n})
		if err != nil {
			t.Fatal(err)
		}
		want := n
		if n == 0 {
			want = hone.DefaultMaxFiles
		}
		reached := 0
		for _, r := range res.Ranking {
			if r.Relevance >= 0.01 {
				reached++
			}
		}
		want = min(want, reached)
		// The context the targets need comes after them.
		var picked []string
		for _, f := range res.Files {
			if f.Role != hone.RoleContext {
				picked = append(picked, f.Path)
			}
		}
		if len(picked) != want {
			t.Errorf("threshold 0.01, max files %d: %d files %v, want %d", n, len(picked), picked, want)
		}
		// MaxFiles bounds the result, its context files counted.
		if n > 0 && len(res.Files) > n {
			t.Errorf("max files %d: %d files %v", n, len(res.Files), res.Files)
		}
		for i, p := range picked {
			if res.Ranking[i].Path != p {
				t.Errorf("max files %d: file %d is %s, the ranking's is %s", n, i, p, res.Ranking[i].Path)
			}
		}
	}

	for _, o := range []hone.Options{{Threshold: 2}, {MaxCycles: 11}, {Include: []string{"a/[b"}}, {MaxFiles: -1}} {
		if _, err := retrieve.Retrieve(ctx, dir, "token", o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	if _, err := retrieve.Retrieve(ctx, dir, "  ", hone.Options{}); err != hone.ErrEmptyTask {
		t.Errorf("empty task: %v, want ErrEmptyTask", err)
	}
	if _, err := retrieve.Retrieve(ctx, filepath.Join(dir, "nope"), "token", hone.Options{}); err == nil {
		t.Error("missing repository: no error")
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := retrieve.Retrieve(ctx, filepath.Join("..", "testdata", "repos", "auth-expiry"), "token", hone.Options{}); err == nil {
		t.Error("cancelled context: no error")
	}
}

// Vendored files are searched when the task asks for them, or when the
// caller includes them by name.
func TestVendorWhenAsked(t *testing.T) {
	repo := retrieve.WriteFiles(t, map[string]string{
		"vendor/github.com/acme/ratelimit/bucket.go": "package ratelimit\n\n// TokenBucket refills tokens at a fixed rate.\nfunc TokenBucket() {}\n",
		"app/server.go": "package app\n\nfunc Serve() {}\n",
	})
	ranked := func(task string, o hone.Options) bool {
		res, err := retrieve.Retrieve(context.Background(), repo, task, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Ranking {
			if strings.HasPrefix(r.Path, "vendor/") {
				return true
			}
		}
		return false
	}
	if ranked("token bucket refill rate", hone.Options{}) {
		t.Error("a vendored file was searched though the task does not ask for it")
	}
	if !ranked("the vendored token bucket refills at the wrong rate", hone.Options{}) {
		t.Error("the task asks for vendored code: it must be searched")
	}
	if !ranked("token bucket refill rate", hone.Options{Include: []string{"vendor/**"}}) {
		t.Error("--include vendor/** must search vendored files")
	}
}

// The repository's thesaurus: "journal" stands with "ledger" in the
// identifiers of several files, so refine learns it from the first cycle's
// relevant file and the next cycle finds the journal's own module, which
// never says "ledger".
func TestThesaurusLearnsTheCodebaseTerm(t *testing.T) {
	files := map[string]string{
		"billing/ledger.py": "\"\"\"The ledger keeps entries.\"\"\"\n\n\nclass LedgerJournal:\n" +
			"    def add_entry(self, entry):\n        self.entries.append(entry)\n",
		"billing/reports.py": "def ledger_journal_report(rows):\n    return rows\n",
		"billing/export.py":  "def export_journal_ledger(rows):\n    return rows\n",
		"billing/audit.py":   "def audit_journal_ledger(rows):\n    return rows\n",
		"posting/journal.py": "def post_to_journal(record):\n    \"\"\"Write the record to the journal.\"\"\"\n" +
			"    write(record)\n    write(record)\n\n\ndef replay_journal():\n    pass\n",
	}
	for i := 0; i < 24; i++ {
		files[fmt.Sprintf("misc/tool%d.py", i)] = fmt.Sprintf("def tool%d(value):\n    return value\n", i)
	}
	res, err := retrieve.Retrieve(context.Background(), retrieve.WriteFiles(t, files), "ledger entries are posted twice", hone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c1 := res.Cycles[0]
	var learned bool
	for _, r := range c1.LearnedRelated {
		if r.Term == "journal" && r.With == "ledger" && r.Files == 4 {
			learned = true
		}
	}
	if !learned {
		t.Fatalf("cycle 1 learned %v from the thesaurus, want journal (with ledger in 4 files)", c1.LearnedRelated)
	}
	found := false
	for _, c := range res.Cycles[1:] {
		if scoreIn(c, "posting/journal.py") >= 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("no later cycle evaluated posting/journal.py; result %v", resultPaths(res))
	}
}

// In a git repository, the past commits whose messages are like the task
// are listed, and the files they changed count in the ranking; whether
// the history is read after the index's update or, for an update that
// reads many files, beside it.
func TestPastCommits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, fillers := range []int{0, 250} {
		t.Run(fmt.Sprintf("%d more files", fillers), func(t *testing.T) { testPastCommits(t, fillers) })
	}
}

// RetrieveIndex refuses an index it cannot read (none, one made by hand,
// one closed) with an error, never a panic.
func TestRetrieveIndexNotOpen(t *testing.T) {
	ctx := context.Background()
	ix, _, err := index.OpenUpdate(ctx, "../testdata/repos/auth-expiry", index.Options{Dir: t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	for name, ix := range map[string]*index.Index{"nil": nil, "made by hand": {Root: "x", Path: "x"}, "closed": ix} {
		if _, err := retrieve.RetrieveIndex(ctx, ix, "fix the auth token expiry bug", hone.Options{}); err == nil || !strings.Contains(err.Error(), "no open index") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A relative GitDir is the caller's, as a relative repository is, not
// one relative to the repository.
func TestRelativeGitDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := retrieve.WriteFiles(t, map[string]string{"billing/invoice.py": "def total(lines):\n    return sum(l.amount for l in lines)\n"})
	git := gitIn(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "Round invoice totals to the cent")
	t.Chdir(filepath.Dir(repo))
	var notices []string
	res, err := retrieve.Retrieve(context.Background(), repo, "invoice totals are off by a cent", hone.Options{
		IndexDir: t.TempDir(), GitDir: filepath.Join(filepath.Base(repo), ".git"), Rev: "HEAD",
		Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PastCommits) == 0 {
		t.Errorf("no past commit read from the relative git directory; notices %q", notices)
	}
}

// gitIn runs git in repo, as an author with no configuration of their
// own, and fails the test when git does.
func gitIn(t *testing.T, repo string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func testPastCommits(t *testing.T, fillers int) {
	files := map[string]string{
		"billing/invoice.py": "def total(lines):\n    return sum(l.amount for l in lines)\n",
		"billing/tax.py":     "def vat(amount, rate):\n    return amount * rate\n",
		"web/views.py":       "def show(request):\n    return render(request)\n",
	}
	for i := range fillers {
		files[fmt.Sprintf("pages/page%d.py", i)] = fmt.Sprintf("def page_%d(request):\n    return request\n", i)
	}
	repo := retrieve.WriteFiles(t, files)
	git := gitIn(t, repo)
	git("init", "-q")
	git("add", "web/views.py")
	git("commit", "-q", "-m", "Show the account page")
	git("add", "billing/invoice.py")
	git("commit", "-q", "-m", "Round invoice totals to the cent")
	git("add", "billing/tax.py")
	git("commit", "-q", "-m", "Apply the reduced VAT rate to books")

	res, err := retrieve.Retrieve(context.Background(), repo, "invoice totals are off by a cent when rounding", hone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PastCommits) == 0 || res.PastCommits[0].Subject != "Round invoice totals to the cent" ||
		!slices.Equal(res.PastCommits[0].Files, []string{"billing/invoice.py"}) {
		t.Errorf("past commits %+v, want the rounding commit first, with billing/invoice.py", res.PastCommits)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "billing/invoice.py" || !strings.Contains(res.Files[0].Reason, "changed by past commits like the task: "+res.PastCommits[0].Hash[:10]) {
		t.Errorf("files %+v: want billing/invoice.py first, its reason naming the rounding commit", res.Files)
	}
	// A task that names a commit lists it first, named, however unlike
	// the task its message is.
	out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD~2").Output()
	if err != nil {
		t.Fatal(err)
	}
	// Ten digits or more, as people quote hashes, and a letter among
	// them: digits alone are a number, not a hash.
	short := strings.TrimSpace(string(out))
	n := 10
	for n < len(short) && !strings.ContainsAny(short[:n], "abcdef") {
		n++
	}
	short = short[:n]
	res, err = retrieve.Retrieve(context.Background(), repo, "invoice totals are off by a cent when rounding, since "+short, hone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PastCommits) == 0 || !res.PastCommits[0].Named || res.PastCommits[0].Subject != "Show the account page" {
		t.Errorf("past commits %+v, want the named commit %s first, marked named", res.PastCommits, short)
	}
	res, err = retrieve.Retrieve(context.Background(), repo, "invoice totals are off by a cent when rounding", hone.Options{NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PastCommits) != 0 {
		t.Errorf("with NoHistory: %d past commits, want none", len(res.PastCommits))
	}
	// A history that cannot be read is left out, and said in the
	// result's notice, though the history is searched on another
	// goroutine.
	dir := t.TempDir()
	if _, err := retrieve.Retrieve(context.Background(), repo, "invoice totals", hone.Options{IndexDir: dir}); err != nil {
		t.Fatal(err)
	}
	caches, _ := filepath.Glob(filepath.Join(dir, "history-*.db"))
	if len(caches) != 1 {
		t.Fatalf("history caches %q, want one", caches)
	}
	// A folder where the history's cache should be: it cannot be opened.
	for _, p := range append(caches, strings.TrimSuffix(caches[0], ".db")+".pack") {
		os.Remove(p)
	}
	if err := os.Mkdir(caches[0], 0o755); err != nil {
		t.Fatal(err)
	}
	res, err = retrieve.Retrieve(context.Background(), repo, "invoice totals are off by a cent when rounding", hone.Options{IndexDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PastCommits) != 0 || !strings.Contains(res.Notice, "git history left out: ") {
		t.Errorf("with a history cache that cannot be opened: past commits %+v, notice %q; want none, and the history said left out", res.PastCommits, res.Notice)
	}
}

// A returned file that declares a flag the task names, as a string
// literal, says so in its reason.
func TestDeclaredFlag(t *testing.T) {
	repo := retrieve.WriteFiles(t, map[string]string{
		"cli/options.py": "def parse_options(parser):\n    parser.add_argument(\"--dry-run\", action=\"store_true\")\n    parser.add_argument(\"--verbose\")\n    return parser.parse_args()\n",
		"cli/report.py":  "def report(args):\n    print(args.verbose)\n",
	})
	res, err := retrieve.Retrieve(context.Background(), repo, "the `--dry-run` option is not parsed by parse_options", hone.Options{NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "cli/options.py" || !strings.Contains(res.Files[0].Reason, "declares --dry-run") {
		t.Errorf("files %+v: want cli/options.py first, its reason saying it declares --dry-run", res.Files)
	}
}

// Tests that match a task well do not make its result sufficient: a task
// that speaks of tests is still after the code they test, so the loop
// goes on looking for it rather than stopping on test files alone.
func TestTestsDoNotSuffice(t *testing.T) {
	files := map[string]string{
		"src/printer.js": "// print a YAML stream\nfunction printStream(docs) {\n  return docs.map(printNode).join('\\n---\\n')\n}\nmodule.exports = { printStream }\n",
	}
	for _, n := range []string{"a", "b", "c", "d"} {
		files["tests/yaml/document_separator_"+n+".test.js"] = "// yaml document separator dash test\n" +
			"test('yaml document separator dash " + n + "', () => {\n  expect(format('a: 1\\n---\\nb: 2')).toMatchSnapshot() // document separator dash yaml\n})\n"
	}
	repo := retrieve.WriteFiles(t, files)
	res, err := retrieve.Retrieve(context.Background(), repo, "yaml: prefer the dash as document separator, and add tests", hone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	relevantTests := 0
	for _, ev := range res.Cycles[0].Evaluated {
		if strings.HasPrefix(ev.Path, "tests/") && ev.Score >= res.Threshold {
			relevantTests++
		}
	}
	if relevantTests < hone.SufficientFiles {
		t.Fatalf("the fixture no longer makes %d tests relevant in cycle 1 (%d are); it tests nothing", hone.SufficientFiles, relevantTests)
	}
	if res.StopReason == hone.StopSufficient && len(res.Cycles) == 1 {
		t.Errorf("the loop stopped as sufficient after cycle 1 on test files alone")
	}
}

// A learned word is searched on its own. In login-throttle, "add rate
// limiting to the login endpoint" learns in cycle 1 that the code says
// "throttle", where only src/lib/throttle.ts says it; the task's own words
// rank a dozen files above it. With candidates as scarce as a large
// repository makes them, the next cycle searches the learned word on its
// own and evaluates throttle.ts.
func TestLearnedWordsAreSearched(t *testing.T) {
	for _, candidates := range []int{3, 4, 6, 25} {
		res, err := retrieve.Retrieve(context.Background(), filepath.Join("..", "testdata", "repos", "login-throttle"),
			"add rate limiting to the login endpoint", hone.Options{IndexDir: t.TempDir(), Candidates: candidates, NoHistory: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cycles) < 2 {
			t.Fatalf("candidates %d: %d cycles", candidates, len(res.Cycles))
		}
		c1, c2 := res.Cycles[0], res.Cycles[1]
		learned := false
		for _, s := range c1.LearnedSynonyms {
			learned = learned || s.Term == "throttle"
		}
		if !learned {
			t.Fatalf("candidates %d: cycle 1 learned %v, not throttle", candidates, c1.LearnedSynonyms)
		}
		for _, ev := range c1.Evaluated {
			if ev.Path == "src/lib/throttle.ts" {
				t.Fatalf("candidates %d: the task's own words found throttle.ts in cycle 1; the fixture no longer tests the learned word", candidates)
			}
		}
		if !slices.Contains(c2.Query.Probes, "throttle") {
			t.Errorf("candidates %d: cycle 2 probes %v, want throttle", candidates, c2.Query.Probes)
		}
		found := false
		for _, ev := range c2.Evaluated {
			found = found || ev.Path == "src/lib/throttle.ts"
		}
		if !found {
			t.Errorf("candidates %d: cycle 2 did not evaluate src/lib/throttle.ts: %v", candidates, pathsOf(c2.Evaluated))
		}
	}
}

func pathsOf(evs []hone.Evaluation) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Path)
	}
	return out
}

// The ranking is best first by the relevance it shows, as the result's
// files are: a file's relevance never exceeds that of a file ranked
// above it.
func TestRankingBestFirst(t *testing.T) {
	for _, c := range []struct{ repo, task string }{
		{"throttle-api", "config loading"},
		{"throttle-api", "add rate limiting to the API endpoints"},
		{"auth-expiry", "src/auth/auth.test.ts fails"},
		{"auth-expiry", "fix the auth token expiry bug"},
		{"login-throttle", "throttle failed login attempts per user"},
	} {
		res := run(t, c.repo, c.task)
		for i := 1; i < len(res.Ranking); i++ {
			if a, b := res.Ranking[i-1], res.Ranking[i]; b.Relevance > a.Relevance {
				t.Errorf("%s, %q: %s at %.2f ranked under %s at %.2f", c.repo, c.task, b.Path, b.Relevance, a.Path, a.Relevance)
			}
		}
		for i := 1; i < len(res.Files); i++ {
			if a, b := res.Files[i-1], res.Files[i]; b.Relevance > a.Relevance {
				t.Errorf("%s, %q: file %s at %.2f listed under %s at %.2f", c.repo, c.task, b.Path, b.Relevance, a.Path, a.Relevance)
			}
		}
	}
}

// Patterns that leave no file to search are named as the reason, not the
// task's words.
func TestNothingPassesThePatterns(t *testing.T) {
	repo := filepath.Join("..", "testdata", "repos", "auth-expiry")
	for _, tc := range []struct {
		task             string
		include, exclude []string
		notice           string
	}{
		{"token expiry", []string{"*.rs"}, nil, "no file of the repository passes the include patterns *.rs"},
		{"token expiry", nil, []string{"*"}, "no file of the repository passes the exclude patterns *"},
		{"token expiry", []string{"*.rs", "*.zig"}, []string{"vendor/"}, "passes the include patterns *.rs, *.zig and the exclude patterns vendor/"},
		// Files pass, none matches: the task's terms are the reason.
		{"quaternion spectrogram", []string{"*.ts"}, nil, "no file matched the task's terms"},
	} {
		res, err := retrieve.Retrieve(context.Background(), repo, tc.task, hone.Options{Include: tc.include, Exclude: tc.exclude})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Notice, tc.notice) {
			t.Errorf("include %q, exclude %q: notice %q, want it to say %q", tc.include, tc.exclude, res.Notice, tc.notice)
		}
	}
}

// A cycle that leaves the ranking's best files as the cycle before left
// them ends the loop, though it evaluated files of its own: the next
// cycle would search around the same files. Here the task's words match
// thirty helpers weakly and one function well; the second cycle
// evaluates the helpers the first had no room for, and they rank below
// the first ten.
func TestSettledRankingStops(t *testing.T) {
	files := map[string]string{
		"src/billing/invoice.go": "package billing\n\n// InvoiceTotal sums an invoice's lines and applies the discount.\n" +
			"func InvoiceTotal(lines []Line, discount float64) float64 {\n\ttotal := 0.0\n\tfor _, l := range lines {\n" +
			"\t\ttotal += l.Price * float64(l.Quantity)\n\t}\n\treturn total * (1 - discount)\n}\n",
		"src/billing/line.go": "package billing\n\n// Line is one line of an invoice: a price and a quantity.\n" +
			"type Line struct {\n\tPrice    float64\n\tQuantity int\n}\n",
	}
	for i := 1; i <= 30; i++ {
		files[fmt.Sprintf("src/misc/m%d.go", i)] = fmt.Sprintf("package misc\n\n// Helper%d formats the total of report number %d for the dashboard.\n"+
			"func Helper%d(name string, quantity int) string {\n\treturn \"report %d: \" + name\n}\n", i, i, i, i)
	}
	repo := retrieve.WriteFiles(t, files)
	res, err := retrieve.Retrieve(context.Background(), repo, "the invoice total ignores the discount", hone.Options{NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.StopReason != hone.StopNoProgress || len(res.Cycles) != 2 {
		t.Fatalf("stopped %q after %d cycles, want no_progress after 2", res.StopReason, len(res.Cycles))
	}
	first := map[string]bool{}
	for _, ev := range res.Cycles[0].Evaluated {
		first[ev.Path] = true
	}
	var fresh []string
	for _, ev := range res.Cycles[1].Evaluated {
		if !first[ev.Path] {
			fresh = append(fresh, ev.Path)
		}
	}
	if len(fresh) == 0 {
		t.Fatal("the second cycle evaluated no file the first had not: the fixture tests the stop on nothing new, not on a settled ranking")
	}
	for i, r := range res.Ranking[:min(hone.SettledFiles, len(res.Ranking))] {
		if slices.Contains(fresh, r.Path) {
			t.Errorf("the second cycle's %s ranks %d, among the best %d: the ranking did not settle", r.Path, i+1, hone.SettledFiles)
		}
	}
	if len(res.Files) == 0 || res.Files[0].Path != "src/billing/invoice.go" {
		t.Errorf("files %+v: want invoice.go first", res.Files)
	}
}

// A returned file with no definition that matters (a page of prose) has
// an empty list of spans, never none: the JSON's readers loop over it.
func TestSpansAlwaysAList(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "guide"), 0o755); err != nil {
		t.Fatal(err)
	}
	page := "Troubleshooting\n\nWhen downloads hang forever, check the proxy settings.\nA download that hangs is retried after a minute.\n"
	if err := os.WriteFile(filepath.Join(dir, "guide", "trouble.txt"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := retrieve.Retrieve(context.Background(), dir, "downloads hang forever", hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 {
		t.Fatal("no file returned")
	}
	out, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(`"spans":null`)) {
		t.Errorf("a file's spans are null in the JSON: %s", out)
	}
}

// A task none of whose words a file holds finds nothing, though the tests
// that match its synonyms import a helper: the helper is no answer, and
// the notice says why.
func TestNoEvidenceNoFiles(t *testing.T) {
	dir := t.TempDir()
	for p, body := range map[string]string{
		"lib/app.js":              "'use strict'\n\nmodule.exports = function serve (req, res) { res.end('ok') }\n",
		"test-helpers/harness.js": "'use strict'\n\nmodule.exports = function harness (req, res) { return { req, res } }\n",
		"__tests__/limit.test.js": "const harness = require('../test-helpers/harness')\n\ndescribe('rate limit', () => { it('throttles', () => harness()) })\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := retrieve.Retrieve(context.Background(), dir, "frobnicate the zorblax quota", hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 0 || !strings.HasPrefix(res.Notice, "nothing found") {
		t.Errorf("files %+v, notice %q; want none, and a notice that nothing was found", res.Files, res.Notice)
	}
}
