package retrieve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
)

// Each stage on its own: dispatch, the lexical evaluator, refine and the
// ranking, on values made by hand, beside the end-to-end tests.

const expiryTask = "fix the auth token expiry bug"

// stageFixture is the auth-expiry fixture's index with a task read on it.
func stageFixture(t *testing.T, task string) (*index.Index, *taskParse) {
	t.Helper()
	ix := fixtureIndex(t, "auth-expiry")
	return ix, parseTask(task, ix)
}

func candidatePaths(cs []candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.doc.Path)
	}
	return out
}

func TestDispatch(t *testing.T) {
	ix, tp := stageFixture(t, expiryTask)
	opts, _ := hone.Options{}.WithDefaults()
	first := firstQuery(tp, opts)

	excluded := first.next()
	excluded.isExcluded["src/auth/tokens.ts"] = true
	excluded.excluded = []string{"src/auth/tokens.ts"}

	included := firstQuery(tp, hone.Options{Include: []string{"src/auth/**"}})

	aimed := first.next()
	aimed.aims = []hone.Gap{{Name: "formatDate", Kind: "call", From: "src/auth/auth.ts", Where: "src/utils/date-format.ts", Critical: true}}

	for _, tt := range []struct {
		name      string
		q         *query
		limit     int
		want      []string // among the candidates
		notWant   []string
		firstPath string // the first candidate, when set
	}{
		{name: "the task's terms", q: first, limit: 25, want: []string{"src/auth/tokens.ts", "src/auth/auth.ts"}, notWant: []string{"src/auth/auth.test.ts"}},
		{name: "an excluded file is never dispatched", q: excluded, limit: 25, want: []string{"src/auth/auth.ts"}, notWant: []string{"src/auth/tokens.ts"}},
		{name: "include is a hard filter, whatever the kind", q: included, limit: 25, want: []string{"src/auth/tokens.ts", "src/auth/auth.test.ts"}, notWant: []string{"src/session/session-manager.ts", "src/lib/jwt-utils.ts"}},
		{name: "a gap's file comes first", q: aimed, limit: 25, firstPath: "src/utils/date-format.ts"},
		{name: "the limit holds", q: first, limit: 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dp := newDispatcher(ix, tp, hone.Options{Candidates: tt.limit})
			got := candidatePaths(dp.dispatch(tt.q, nil))
			if len(got) > tt.limit {
				t.Errorf("%d candidates, limit %d", len(got), tt.limit)
			}
			for _, p := range tt.want {
				if !slices.Contains(got, p) {
					t.Errorf("%s not dispatched; got %v", p, got)
				}
			}
			for _, p := range tt.notWant {
				if slices.Contains(got, p) {
					t.Errorf("%s dispatched; got %v", p, got)
				}
			}
			if tt.firstPath != "" && (len(got) == 0 || got[0] != tt.firstPath) {
				t.Errorf("first candidate of %v, want %s", got, tt.firstPath)
			}
			if len(got) > 0 && dp.hits == nil {
				t.Error("the first cycle's search was not kept for the ranking")
			}
		})
	}
}

// Neighbours are the files one hop from the query's best files, never a
// file dispatched before, and candidates near the relevant files say so.
func TestDispatchNeighbours(t *testing.T) {
	ix, tp := stageFixture(t, expiryTask)
	opts, _ := hone.Options{}.WithDefaults()
	dp := newDispatcher(ix, tp, opts)
	q := firstQuery(tp, opts)
	dp.dispatch(q, nil)
	next := q.next()
	next.expand = []string{"src/auth/tokens.ts"}
	nb := dp.neighbours(next)
	for _, e := range nb {
		if dp.dispatched[e.Path] {
			t.Errorf("neighbour %s was dispatched before", e.Path)
		}
	}
	fresh := newDispatcher(ix, tp, opts)
	var paths []string
	for _, e := range fresh.neighbours(next) {
		paths = append(paths, e.Path)
	}
	if !slices.Contains(paths, "src/lib/jwt-utils.ts") {
		t.Errorf("neighbours of tokens.ts %v lack the jwt-utils.ts it imports", paths)
	}
	near := false
	for _, c := range fresh.dispatch(next, map[string]float64{"src/auth/tokens.ts": 0.9}) {
		near = near || c.near > 0
	}
	if !near {
		t.Error("no candidate is near the relevant tokens.ts")
	}
}

func TestLexicalEvaluate(t *testing.T) {
	ix, tp := stageFixture(t, expiryTask)
	opts, _ := hone.Options{}.WithDefaults()
	q := firstQuery(tp, opts).trace()
	lx := &lexical{ix: ix, tp: tp}
	judge := func(t *testing.T, req hone.EvaluateRequest) map[string]hone.Evaluation {
		t.Helper()
		evs, err := lx.Evaluate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]hone.Evaluation{}
		for _, ev := range evs {
			out[ev.Path] = ev
		}
		return out
	}
	cands := []hone.Candidate{{Path: "src/auth/tokens.ts"}, {Path: "src/db/connection.ts"}, {Path: "src/lib/jwt-utils.ts"}, {Path: "nope.ts"}}
	base := judge(t, hone.EvaluateRequest{Cycle: 1, Query: q, Candidates: cands})
	for _, tt := range []struct {
		path     string
		min, max float64
	}{
		{"src/auth/tokens.ts", 0.8, 1},   // named for the task's words: directly implements it
		{"src/db/connection.ts", 0, 0.2}, // about none of it
	} {
		ev, ok := base[tt.path]
		if !ok {
			t.Fatalf("no evaluation of %s", tt.path)
		}
		if ev.Score < tt.min || ev.Score > tt.max {
			t.Errorf("%s: relevance %.3f, want %.2f..%.2f (%s)", tt.path, ev.Score, tt.min, tt.max, ev.Reason)
		}
		if ev.Reason == "" {
			t.Errorf("%s: no reason", tt.path)
		}
	}
	if _, ok := base["nope.ts"]; ok {
		t.Error("a candidate the index does not hold was evaluated")
	}

	// A relevant file that needs a candidate raises it, and says so.
	gap := hone.Gap{Name: "signJwt", Kind: "call", From: "src/auth/tokens.ts", Where: "src/lib/jwt-utils.ts", Critical: true}
	tied := judge(t, hone.EvaluateRequest{
		Cycle: 2, Query: q, Candidates: cands,
		Relevant: []hone.Evaluation{{Path: "src/auth/tokens.ts", Score: 0.95}},
		Gaps:     []hone.Gap{gap},
	})
	before, after := base["src/lib/jwt-utils.ts"], tied["src/lib/jwt-utils.ts"]
	if after.Score <= before.Score {
		t.Errorf("jwt-utils.ts %.3f with the gap, %.3f without", after.Score, before.Score)
	}
	if !strings.Contains(after.Reason, "signJwt") {
		t.Errorf("reason %q does not name the call", after.Reason)
	}
}

// The query the trace shows is what the evaluator reads: its terms give
// back the vocabulary they were made of.
func TestVocabularyRoundTrip(t *testing.T) {
	_, tp := stageFixture(t, "add rate limiting to the `refreshSession` call in src/auth/tokens.ts")
	q := firstQuery(tp, hone.Options{})
	q.learned = []learnedTerm{{stem: "throttl", label: "throttle", weight: 0.8, source: "feedback"}}
	cs, ls := vocabulary(q.trace().Terms)
	if len(cs) != len(q.concepts) {
		t.Fatalf("%d concepts back from %d", len(cs), len(q.concepts))
	}
	for i, c := range cs {
		o := q.concepts[i]
		if c.label != o.label || c.kind != o.kind || c.weight != o.weight || len(c.alts) != len(o.alts) || !slices.Equal(c.files, o.files) {
			t.Errorf("concept %d: %+v, want %+v", i, c, o)
		}
	}
	if !slices.Equal(ls, q.learned) {
		t.Errorf("learned %v, want %v", ls, q.learned)
	}
}

func TestRefine(t *testing.T) {
	ix, tp := stageFixture(t, expiryTask)
	opts, _ := hone.Options{}.WithDefaults()
	q := firstQuery(tp, opts)
	rf := newRefiner(ix, tp, newSources(ix), opts.Threshold)
	rec := newRecord()
	evaluated := []verdict{
		newVerdict(hone.Evaluation{Path: "src/auth/tokens.ts", Score: 0.95}, 1),
		newVerdict(hone.Evaluation{Path: "src/auth/auth.ts", Score: 0.9}, 1),
		newVerdict(hone.Evaluation{Path: "src/api/routes.ts", Score: 0.4}, 1),
		newVerdict(hone.Evaluation{Path: "src/db/connection.ts", Score: 0.05}, 1),
	}
	rec.add(1, evaluated, opts.Threshold)
	var cyc hone.Cycle
	next, _ := rf.refine(1, q, evaluated, rec, &cyc)

	for _, tt := range []struct {
		what string
		got  []string
		want []string
	}{
		{"excluded", cyc.Excluded, []string{"src/db/connection.ts"}},
		{"learned patterns", cyc.LearnedPatterns, []string{"src/auth/**"}},
		{"expand", next.expand, []string{"src/auth/tokens.ts", "src/auth/auth.ts"}},
	} {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s %v, want %v", tt.what, tt.got, tt.want)
		}
	}
	if !next.isExcluded["src/db/connection.ts"] || q.isExcluded["src/db/connection.ts"] {
		t.Error("the exclusion is not the next query's alone")
	}
	// tokens.ts calls refreshSession on a line about the token's expiry:
	// a critical gap the next query aims at.
	found := false
	for _, g := range next.aims {
		found = found || g.Kind == "call" && g.From == "src/auth/tokens.ts" && g.Where == "src/session/session-manager.ts" && g.Critical
	}
	if !found {
		t.Errorf("no critical call gap from tokens.ts to session-manager.ts in %+v", next.aims)
	}
	if !rf.criticalOpen() {
		t.Error("a critical gap is open, criticalOpen says none")
	}
	focus := next.trace().FocusAreas
	for _, g := range next.aims {
		if !slices.Contains(focus, g.Name) && !slices.Contains(focus, g.Where) {
			t.Errorf("the aim %+v is not among the focus areas %v", g, focus)
		}
	}
	if len(q.aims) != 0 || len(q.learned) != 0 || len(q.patterns) != 0 || len(q.expand) != 0 {
		t.Errorf("refine changed the query it was given: %+v", q)
	}
}

func TestRank(t *testing.T) {
	ix, tp := stageFixture(t, expiryTask)
	opts, _ := hone.Options{}.WithDefaults()
	q := firstQuery(tp, opts)
	rec := newRecord()
	rec.add(1, []verdict{
		newVerdict(hone.Evaluation{Path: "src/auth/tokens.ts", Score: 0.95, Reason: "r1"}, 1),
		newVerdict(hone.Evaluation{Path: "src/auth/auth.ts", Score: 0.9, Reason: "r2"}, 1),
		newVerdict(hone.Evaluation{Path: "src/db/connection.ts", Score: 0.05, Reason: "r3"}, 1),
	}, opts.Threshold)
	rk := &ranker{ix: ix, tp: tp, q: q, src: newSources(ix), rec: rec, opts: opts, w: weightsFor(ix.MainLanguage())}
	var res hone.Result
	rk.result(&res)
	if len(res.Ranking) != 3 {
		t.Fatalf("ranking %v, want the 3 evaluated files", res.Ranking)
	}
	for i, r := range res.Ranking {
		if r.Relevance < 0 || r.Relevance > 1 {
			t.Errorf("%s: relevance %.2f out of 0..1", r.Path, r.Relevance)
		}
		if i > 0 && r.Relevance > res.Ranking[i-1].Relevance {
			t.Errorf("ranking not best first: %v", res.Ranking)
		}
	}
	// The files are those at the threshold or above; when none is, the
	// best few, and the notice says so.
	reached := 0
	for _, r := range res.Ranking {
		if r.Relevance >= opts.Threshold {
			reached++
		}
	}
	switch {
	case reached > 0 && len(res.Files) != reached:
		t.Errorf("%d files reach %.2f, %d returned: %+v", reached, opts.Threshold, len(res.Files), res.Files)
	case reached == 0 && !strings.Contains(res.Notice, "no file reached"):
		t.Errorf("no file reaches %.2f, and the notice says %q", opts.Threshold, res.Notice)
	}
	if res.Ranking[2].Path != "src/db/connection.ts" {
		t.Errorf("the irrelevant file ranks %v", res.Ranking)
	}
	if len(res.Files) == 0 || res.Files[0].Role != hone.RoleTarget {
		t.Fatalf("files %+v", res.Files)
	}
	if len(res.Concepts) == 0 {
		t.Error("no concepts")
	}
	// The ranking reads the record; it writes nothing back.
	if rec.best["src/auth/tokens.ts"].Score != 0.95 || rec.best["src/auth/tokens.ts"].Reason != "r1" {
		t.Errorf("the ranking changed the record: %+v", rec.best["src/auth/tokens.ts"])
	}
}

// When no file reaches the threshold, the notice gives the range of the
// files returned, and one number where its ends round alike: "at 0.25",
// not "at 0.25 to 0.25".
func TestFallbackNotice(t *testing.T) {
	ix, tp := stageFixture(t, expiryTask)
	opts, _ := hone.Options{Threshold: 1}.WithDefaults()
	q := firstQuery(tp, opts)
	for _, c := range []struct {
		name   string
		scores map[string]float64
		tie    bool // the two files' relevance rounds alike
	}{
		{"ends alike", map[string]float64{".gitignore": 0.2, "src/api/orders-handler.ts": 0.15}, true},
		{"ends apart", map[string]float64{"src/auth/tokens.ts": 0.15, "src/auth/auth.ts": 0.15}, false},
	} {
		rec := newRecord()
		var vs []verdict
		for p, s := range c.scores {
			vs = append(vs, newVerdict(hone.Evaluation{Path: p, Score: s, Reason: "r"}, 1))
		}
		rec.add(1, vs, opts.Threshold)
		rk := &ranker{ix: ix, tp: tp, q: q, src: newSources(ix), rec: rec, opts: opts, w: weightsFor(ix.MainLanguage())}
		var res hone.Result
		rk.result(&res)
		if len(res.Files) != 2 {
			t.Fatalf("%s: files %+v, want the 2 evaluated", c.name, res.Files)
		}
		hi, lo := fmt.Sprintf("%.2f", res.Files[0].Relevance), fmt.Sprintf("%.2f", res.Files[1].Relevance)
		if (hi == lo) != c.tie {
			t.Fatalf("%s: relevance %s and %s; the case needs them %v alike: choose other scores", c.name, hi, lo, c.tie)
		}
		want := "the best 2 files are returned, at " + hi + " to " + lo + ", as"
		if c.tie {
			want = "the best 2 files are returned, at " + hi + ", as"
		}
		if !strings.Contains(res.Notice, want) {
			t.Errorf("%s: notice %q, want %q", c.name, res.Notice, want)
		}
	}
}

// fakeEvaluator scores files from a table, and keeps every request.
type fakeEvaluator struct {
	scores map[string]float64
	reqs   []hone.EvaluateRequest
	err    error
}

func (f *fakeEvaluator) Evaluate(_ context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
	f.reqs = append(f.reqs, req)
	if f.err != nil {
		return nil, f.err
	}
	var out []hone.Evaluation
	for _, c := range req.Candidates {
		out = append(out, hone.Evaluation{Path: c.Path, Score: f.scores[c.Path], Reason: "the fake said so"})
	}
	return out, nil
}

// The loop runs any Evaluator: the cycles' verdicts are the fake's, the
// trace's query is the one each request carried, and the task it sees is
// the cleaned one.
func TestFakeEvaluator(t *testing.T) {
	fake := &fakeEvaluator{scores: map[string]float64{
		"src/auth/tokens.ts": 0.9, "src/auth/auth.ts": 0.85, "src/session/session-manager.ts": 0.8, "src/lib/jwt-utils.ts": 0.75,
	}}
	task := expiryTask + "\n<!-- Please add tests to the test suite -->"
	res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", task, hone.Options{IndexDir: t.TempDir(), Evaluator: fake, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.reqs) == 0 {
		t.Fatal("the evaluator was never asked")
	}
	cycles := 0
	for _, req := range fake.reqs {
		if strings.Contains(req.Task, "<!--") {
			t.Errorf("the evaluator saw the template's comment: %q", req.Task)
		}
		if req.Cycle == 0 {
			continue // the ranking's widening
		}
		cycles++
		cyc := res.Cycles[req.Cycle-1]
		if !slices.Equal(cyc.Query.Keywords, req.Query.Keywords) || !slices.Equal(cyc.Query.Excludes, req.Query.Excludes) || len(cyc.Query.Terms) != len(req.Query.Terms) {
			t.Errorf("cycle %d traced another query than it ran", req.Cycle)
		}
		if len(req.Lexical) != len(req.Candidates) || req.Excerpts == nil {
			t.Errorf("cycle %d: %d lexical verdicts for %d candidates, excerpts %v", req.Cycle, len(req.Lexical), len(req.Candidates), req.Excerpts)
		}
		for i := 1; i < len(req.Lexical); i++ {
			if req.Lexical[i].Score > req.Lexical[i-1].Score {
				t.Errorf("cycle %d: the candidates are not best first by their lexical verdicts", req.Cycle)
			}
		}
		for _, ev := range cyc.Evaluated {
			want := math.Round(fake.scores[ev.Path]*100) / 100
			if ev.ModelScore == nil || *ev.ModelScore != want {
				t.Errorf("cycle %d: %s's model score %v, the fake said %.2f", req.Cycle, ev.Path, ev.ModelScore, want)
			}
			if !strings.HasPrefix(ev.Reason, "model: the fake said so") {
				t.Errorf("cycle %d: %s's reason %q", req.Cycle, ev.Path, ev.Reason)
			}
			if strings.HasSuffix(ev.Path, ".test.ts") {
				t.Errorf("a test was dispatched though the task asks for none outside a comment: %s", ev.Path)
			}
		}
	}
	if cycles != len(res.Cycles) {
		t.Errorf("%d cycles asked the evaluator, %d ran", cycles, len(res.Cycles))
	}
	// The fake scores four files 0.75 or more; the stop rule counts the
	// result's relevance, not the fake's scores.
	if res.StopReason == hone.StopSufficient && relevantFiles(res) < hone.SufficientFiles {
		t.Errorf("stopped as sufficient on the fake's scores: the ranking holds %d files at %.2f", relevantFiles(res), res.Threshold)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "src/auth/tokens.ts" {
		t.Errorf("files %+v", res.Files)
	}
}

// Whatever an evaluator returns, the loop keeps to 0..1 and to the
// candidates, one verdict a file.
func TestJudgeKeepsToTheCandidates(t *testing.T) {
	ev := evaluatorFunc(func(context.Context, hone.EvaluateRequest) ([]hone.Evaluation, error) {
		return []hone.Evaluation{
			{Path: "a", Score: math.NaN()}, {Path: "b", Score: 7}, {Path: "c", Score: -1},
			{Path: "b", Score: 0.1}, {Path: "not asked", Score: 1},
		}, nil
	})
	req := hone.EvaluateRequest{Cycle: 1, Candidates: []hone.Candidate{{Path: "a"}, {Path: "b"}, {Path: "c"}}}
	vs, err := judge(context.Background(), ev, req, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, v := range vs {
		got[v.Path] = v.Score
	}
	want := map[string]float64{"a": 0, "b": 1, "c": 0}
	if len(got) != len(want) {
		t.Fatalf("verdicts %v, want %v", got, want)
	}
	for p, r := range want {
		if got[p] != r {
			t.Errorf("%s at %g, want %g", p, got[p], r)
		}
	}
}

type evaluatorFunc func(context.Context, hone.EvaluateRequest) ([]hone.Evaluation, error)

func (f evaluatorFunc) Evaluate(ctx context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
	return f(ctx, req)
}

// What an evaluator does to its request stays in the request: the trace,
// the next query and the result keep the query that ran.
func TestEvaluatorCannotChangeTheQuery(t *testing.T) {
	scores := map[string]float64{"src/auth/tokens.ts": 0.9, "src/auth/auth.ts": 0.85}
	ev := evaluatorFunc(func(_ context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		for i := range req.Query.Terms {
			req.Query.Terms[i].Stems[0] = "zzzmutated"
			for j := range req.Query.Terms[i].Files {
				req.Query.Terms[i].Files[j] = "zzzmutated"
			}
		}
		for i := range req.Query.Keywords {
			req.Query.Keywords[i] = "zzzmutated"
		}
		var out []hone.Evaluation
		for _, c := range req.Candidates {
			out = append(out, hone.Evaluation{Path: c.Path, Score: scores[c.Path]})
		}
		return out, nil
	})
	res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask+" in src/auth/tokens.ts", hone.Options{IndexDir: t.TempDir(), Evaluator: ev, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cycles {
		for _, k := range c.Query.Keywords {
			if strings.Contains(k, "zzz") {
				t.Errorf("cycle %d's trace was changed: %v", c.N, c.Query.Keywords)
			}
		}
		for _, term := range c.Query.Terms {
			if slices.Contains(term.Stems, "zzzmutated") || slices.Contains(term.Files, "zzzmutated") {
				t.Errorf("cycle %d's terms were changed: %+v", c.N, term)
			}
		}
	}
	for _, c := range res.Concepts {
		if slices.Contains(c.Terms, "zzzmutated") {
			t.Errorf("the concepts were changed: %+v", c)
		}
	}
}

// What a replacement evaluator is sent has passed the redaction.
func TestEvaluatorGetsNoSecret(t *testing.T) {
	const key = "AKIAZ7VRSQ5TJN2XEHKW"
	var tasks []string
	ev := evaluatorFunc(func(_ context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		tasks = append(tasks, req.Task)
		return nil, nil
	})
	_, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask+" with aws_access_key_id = "+key,
		hone.Options{IndexDir: t.TempDir(), Evaluator: ev, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) == 0 {
		t.Fatal("the evaluator was never asked")
	}
	for _, task := range tasks {
		if strings.Contains(task, key) || !strings.Contains(task, "[redacted: ") {
			t.Errorf("the evaluator was sent %q", task)
		}
	}
}

// A model that fails leaves the run to the lexical evaluator, with one
// notice: the result is the lexical one, and the model is not asked again.
func TestEvaluatorError(t *testing.T) {
	fake := &fakeEvaluator{err: errors.New("the model is down")}
	var notices []string
	opts := hone.Options{IndexDir: t.TempDir(), Evaluator: fake, NoHistory: true, Notice: func(s string) { notices = append(notices, s) }}
	res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.reqs) != 1 {
		t.Errorf("the failed model was asked %d times", len(fake.reqs))
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "the model is down") || !strings.Contains(notices[0], "lexical evaluator alone") {
		t.Errorf("notices %q", notices)
	}
	if res.Evaluator == nil || res.Evaluator.Fallback != "the model is down" {
		t.Errorf("the result's evaluator %+v", res.Evaluator)
	}
	lex, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: t.TempDir(), NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filePaths(res), filePaths(lex); !slices.Equal(got, want) {
		t.Errorf("after the fallback the files are %v, the lexical run's %v", got, want)
	}
}

// A model that judged some files before it failed keeps those verdicts
// for that cycle: they are joined with the lexical ones, and the rest of
// the run is the lexical evaluator's, as after any failure.
func TestEvaluatorPartialVerdicts(t *testing.T) {
	var judged string
	calls := 0
	ev := evaluatorFunc(func(_ context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		calls++
		judged = req.Candidates[0].Path
		return []hone.Evaluation{{Path: judged, Score: 0.95, Reason: "the first batch's verdict"}}, errors.New("the second batch failed")
	})
	var notices []string
	res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: t.TempDir(), Evaluator: ev, NoHistory: true,
		Notice: func(n string) { notices = append(notices, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || len(notices) != 1 || !strings.Contains(notices[0], "the second batch failed") {
		t.Errorf("%d calls, notices %q: want one call and one notice of the failure", calls, notices)
	}
	found := false
	for _, e := range res.Cycles[0].Evaluated {
		if e.Path == judged {
			found = true
			if e.ModelScore == nil || *e.ModelScore != 0.95 {
				t.Errorf("%s in cycle 1: model score %v, want the 0.95 judged before the failure", e.Path, e.ModelScore)
			}
		} else if e.ModelScore != nil {
			t.Errorf("%s in cycle 1: model score %v, which no call gave", e.Path, *e.ModelScore)
		}
	}
	if !found {
		t.Errorf("%s, the file judged, is not among cycle 1's evaluations", judged)
	}
}

func filePaths(res *hone.Result) []string {
	var out []string
	for _, f := range res.Files {
		out = append(out, fmt.Sprintf("%s %.2f", f.Path, f.Relevance))
	}
	return out
}

// A cancelled context ends the run, even while a model judges: it is no
// model failure to fall back from.
func TestEvaluatorCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ev := evaluatorFunc(func(ctx context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	_, err := Retrieve(ctx, "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: t.TempDir(), Evaluator: ev, NoHistory: true})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// A model's verdicts join the lexical evidence: a planted rule (every
// session file is direct, every other file irrelevant) lifts the session
// files and sinks the rest, and each file's relevance is the join of the
// lexical one and the model's.
func TestModelVerdictsJoinTheRanking(t *testing.T) {
	rule := evaluatorFunc(func(_ context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		var out []hone.Evaluation
		for _, c := range req.Candidates {
			score := 0.0
			if strings.Contains(c.Path, "session") {
				score = 1
			}
			out = append(out, hone.Evaluation{Path: c.Path, Score: score, Reason: "the rule"})
		}
		return out, nil
	})
	dir := t.TempDir()
	lex, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: dir, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: dir, NoHistory: true, Evaluator: rule})
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]float64{}
	for _, r := range lex.Ranking {
		before[r.Path] = r.Relevance
	}
	if !strings.Contains(res.Ranking[0].Path, "session") {
		t.Errorf("the rule's file is not first: %+v", res.Ranking[:min(3, len(res.Ranking))])
	}
	if strings.Contains(lex.Ranking[0].Path, "session") {
		t.Fatalf("the lexical ranking has a session file first already; the test plants nothing")
	}
	for _, f := range res.Files {
		if f.ModelScore == nil {
			continue
		}
		b, ok := before[f.Path]
		if !ok {
			continue
		}
		// The joined relevance lies between the two, within the lexical
		// run's own drift (the model's verdicts steer the cycles too).
		lo, hi := math.Min(b, *f.ModelScore)-0.15, math.Max(b, *f.ModelScore)+0.15
		if f.Relevance < lo || f.Relevance > hi {
			t.Errorf("%s at %.2f: lexical %.2f, model %.2f", f.Path, f.Relevance, b, *f.ModelScore)
		}
	}
	if res.Evaluator == nil {
		t.Error("no evaluator in the result")
	}
}

// The codebase's words a model names feed refine: they are learned, and
// the next cycle searches for them.
func TestModelTermsFeedRefine(t *testing.T) {
	ev := evaluatorFunc(func(_ context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		var out []hone.Evaluation
		for _, c := range req.Candidates {
			out = append(out, hone.Evaluation{Path: c.Path, Score: 0.6, Terms: []string{"sliding", "ROLLBACK"}})
		}
		return out, nil
	})
	res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: t.TempDir(), NoHistory: true, Evaluator: ev, MaxCycles: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cycles) < 2 {
		t.Fatalf("%d cycles", len(res.Cycles))
	}
	var fromModel []string
	for _, term := range res.Cycles[1].Query.Terms {
		if term.Source == "model" {
			fromModel = append(fromModel, term.Label)
		}
	}
	if len(fromModel) == 0 {
		t.Errorf("cycle 2 searched for no term the model named: %+v", res.Cycles[1].Query.Terms)
	}
}

// The task is read once, cleaned: a template's comment does not make it
// about tests, nor a version line about vendored code.
func TestParseTaskReadsTheCleanedTask(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	for _, tt := range []struct {
		task       string
		aboutTests bool
	}{
		{expiryTask, false},
		{expiryTask + "\n<!-- Please add tests for the change -->", false},
		{expiryTask + " and add a test for it", true},
	} {
		tp := parseTask(tt.task, ix)
		if tp.aboutTests != tt.aboutTests {
			t.Errorf("%q: about tests %v, want %v", tt.task, tp.aboutTests, tt.aboutTests)
		}
		if strings.Contains(tp.clean, "<!--") {
			t.Errorf("%q: the comment stayed in %q", tt.task, tp.clean)
		}
	}
}

// A call that fails leaves no goroutine behind: the history, read beside
// the index, is stopped and waited for.
func TestNoGoroutineOutlivesAFailedCall(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(bad, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		// The repository has a history to read; the index cannot be opened
		// under a file.
		_, err := Retrieve(context.Background(), "..", expiryTask, hone.Options{IndexDir: filepath.Join(bad, "index")})
		if err == nil {
			t.Fatal("an index under a file opened")
		}
	}
	// The call has returned: no goroutine of its history reading may be
	// left. (os/exec ends a helper of its own a moment after a command is
	// waited for; that one is not the call's.) The reader's goroutine
	// closes its done channel as its last act, so it may still be seen
	// on its way out, a moment after the call returned: it must be gone
	// within a second.
	var left []string
	for deadline := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		left = left[:0]
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "retrieve.readHistory") || strings.Contains(g, "hone/history.") {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, g := range left {
		t.Errorf("a goroutine outlived the failed call:\n%s", g)
	}
}

// relevantFiles counts the ranking's files at the threshold or above,
// tests aside, as the stop rule counts them.
func relevantFiles(res *hone.Result) int {
	return countRelevant(res.Ranking, res.Threshold, func(p string) bool {
		return strings.Contains(p, ".test.") || strings.HasPrefix(p, "tests/")
	})
}

// The stop rule counts the result's relevance: files at the threshold or
// above, tests aside.
func TestCountRelevant(t *testing.T) {
	isTest := func(p string) bool { return strings.HasSuffix(p, "_test.go") }
	for _, c := range []struct {
		name    string
		ranking []hone.Ranked
		want    int
	}{
		{"none", nil, 0},
		{"at the threshold counts", []hone.Ranked{{Path: "a.go", Relevance: 0.7}, {Path: "b.go", Relevance: 0.69}}, 1},
		{"tests aside", []hone.Ranked{{Path: "a.go", Relevance: 0.9}, {Path: "a_test.go", Relevance: 0.95}, {Path: "b.go", Relevance: 0.8}}, 2},
		{"every file", []hone.Ranked{{Path: "a.go", Relevance: 0.99}, {Path: "b.go", Relevance: 0.9}, {Path: "c.go", Relevance: 0.71}}, 3},
	} {
		if got := countRelevant(c.ranking, 0.7, isTest); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// The loop's stop rule, after a cycle: sufficient first, then no
// progress (nothing new, or the ranking's best files as they were), then
// the budget.
func TestCycleEndStop(t *testing.T) {
	ab, abc, ba := []string{"a.go", "b.go"}, []string{"a.go", "b.go", "c.go"}, []string{"b.go", "a.go"}
	for _, c := range []struct {
		name string
		end  cycleEnd
		want hone.StopReason
	}{
		{"first cycle goes on", cycleEnd{progress: true, relevant: 2, best: ab}, ""},
		{"enough relevant files", cycleEnd{progress: true, relevant: hone.SufficientFiles, before: ba, best: ab}, hone.StopSufficient},
		{"a critical gap keeps sufficiency off", cycleEnd{progress: true, critical: true, relevant: 5, before: ba, best: ab}, ""},
		{"nothing new", cycleEnd{best: ab}, hone.StopNoProgress},
		{"nothing new, last", cycleEnd{last: true}, hone.StopNoProgress},
		{"best files as they were", cycleEnd{progress: true, before: ab, best: ab}, hone.StopNoProgress},
		{"as they were, a critical gap open", cycleEnd{progress: true, critical: true, before: ab, best: ab}, hone.StopNoProgress},
		{"reordered goes on", cycleEnd{progress: true, before: ab, best: ba}, ""},
		{"a file added goes on", cycleEnd{progress: true, before: ab, best: abc}, ""},
		{"no ranking is nothing settled", cycleEnd{progress: true, before: []string{}, best: nil}, ""},
		{"last cycle's budget", cycleEnd{progress: true, last: true, before: ba, best: ab}, hone.StopMaxCycles},
		{"last cycle settled is the budget's", cycleEnd{progress: true, last: true, before: ab, best: ab}, hone.StopMaxCycles},
		{"last cycle sufficient", cycleEnd{progress: true, last: true, relevant: 3}, hone.StopSufficient},
	} {
		if got := c.end.stop(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// The tests' search is kept between a run's asks: what a kept search
// answers, the excluded tests dropped after it, is what a new one
// answers, as exclusions grow.
func TestTestFinderKeepsItsSearch(t *testing.T) {
	files := map[string]string{}
	for i := range 8 {
		name := fmt.Sprintf("cache%d", i)
		files["src/"+name+".py"] = fmt.Sprintf("def evict_%d(entry):\n    return entry\n", i)
		// Each test names the task's words a different number of times, so
		// that the search ranks them in turn.
		files["tests/test_"+name+".py"] = fmt.Sprintf("from src.%s import evict_%d\n%s\n", name, i,
			strings.Repeat("# cache eviction expiry\n", i+1))
	}
	dir := writeFiles(t, files)
	ix, err := buildIndex(dir, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	tp := parseTask("the cache eviction ignores the expiry", ix)
	opts, _ := hone.Options{}.WithDefaults()
	q := firstQuery(tp, opts)

	kept := newTestFinder(ix)
	for _, tt := range []struct {
		excluded []string
		want     []string // the files pointed at: the five best tests' subjects
	}{
		{nil, []string{"src/cache3.py", "src/cache4.py", "src/cache5.py", "src/cache6.py", "src/cache7.py"}},
		{[]string{"tests/test_cache7.py"}, []string{"src/cache2.py", "src/cache3.py", "src/cache4.py", "src/cache5.py", "src/cache6.py"}},
		{[]string{"src/cache5.py"}, []string{"src/cache2.py", "src/cache3.py", "src/cache4.py", "src/cache5.py", "src/cache6.py"}},
		{[]string{"tests/test_cache6.py", "tests/test_cache5.py", "tests/test_cache4.py"}, []string{"src/cache0.py", "src/cache1.py", "src/cache2.py", "src/cache3.py"}},
	} {
		q = q.next() // exclusions are for good: each case adds to those before
		for _, p := range tt.excluded {
			q.isExcluded[p] = true
		}
		got, fresh := kept.pointers(q), newTestFinder(ix).pointers(q)
		if paths := slices.Sorted(maps.Keys(got)); !slices.Equal(paths, tt.want) {
			t.Errorf("excluding %v: the kept search points at %v, want %v", tt.excluded, paths, tt.want)
		}
		if fmt.Sprint(got) != fmt.Sprint(fresh) {
			t.Errorf("excluding %v: the kept search points at %v, a new one at %v", tt.excluded, got, fresh)
		}
	}
}

// A file that defines a name is no caller of another file's definition of
// it, nor does the name lead a hop to that file: two backends' Render are
// siblings. A call site scanner reads each definition's own line as a
// call; the index's docs leave those out, and CallsOut does for any doc.
func TestOwnDefinitionsAreNoCalls(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"gl/draw.go":   "package gl\n\nfunc Draw(n int) int { return n * 2 }\n",
		"vk/draw.go":   "package vk\n\nfunc Draw(n int) int { return n * 3 }\n",
		"app/frame.go": "package app\n\nfunc Frame() int { return Draw(1) }\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := buildIndex(root, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if d := ix.Doc("vk/draw.go"); d == nil || slices.Contains(d.Calls, "Draw") {
		t.Fatalf("vk/draw.go's calls in the index hold its own definition, Draw")
	}
	tp := parseTask("frames draw twice", ix)
	lx := &lexical{ix: ix, tp: tp}
	k := &knowledge{relevant: map[string]float64{"gl/draw.go": 0.9}, relDefs: map[string][]string{"Draw": {"gl/draw.go"}}}
	for _, tt := range []struct {
		path string
		want int
	}{
		{"vk/draw.go", 0},   // a sibling: it defines Draw itself
		{"app/frame.go", 1}, // a caller
	} {
		got := lx.callerSupports(ix.Doc(tt.path), k)
		if len(got) != tt.want {
			t.Errorf("%s: %d caller supports %+v, want %d", tt.path, len(got), got, tt.want)
		}
		for _, s := range got {
			if s.from != "gl/draw.go" || s.kind != "caller" {
				t.Errorf("%s: support %+v, want a caller of gl/draw.go", tt.path, s)
			}
		}
	}

	// A doc whose calls hold its own definition, as a call scan reads it,
	// is no caller of it either.
	scanned := ix.Doc("vk/draw.go")
	own := *scanned
	own.Calls = []string{"Draw"}
	if got := lx.callerSupports(&own, k); len(got) != 0 {
		t.Errorf("vk/draw.go with its own Draw among its calls: caller supports %+v, want none", got)
	}

	opts, _ := hone.Options{}.WithDefaults()
	dp := newDispatcher(ix, tp, opts)
	q := firstQuery(tp, opts).next()
	q.expand = []string{"vk/draw.go"}
	var hop []string
	for _, e := range dp.neighbours(q) {
		hop = append(hop, e.Path)
	}
	if slices.Contains(hop, "gl/draw.go") {
		t.Errorf("neighbours of vk/draw.go %v hold gl/draw.go, which only defines the same name", hop)
	}
	q.expand = []string{"app/frame.go"}
	hop = hop[:0]
	for _, e := range dp.neighbours(q) {
		hop = append(hop, e.Path)
	}
	if !slices.Contains(hop, "gl/draw.go") || !slices.Contains(hop, "vk/draw.go") {
		t.Errorf("neighbours of app/frame.go %v lack the two files defining the Draw it calls", hop)
	}
}

// A repository named relative to the working directory is judged as its
// absolute path is: the tests' fixtures lie below GIT_CEILING_DIRECTORIES
// (testenv.Setup), and hone's search for their git repository stops there
// as git's does, so that they have no history, silently, where a
// relative path had led hone to hone's own repository and git to refuse
// it, said as a history that failed.
func TestRelativeRepository(t *testing.T) {
	res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Notice, "history left out") {
		t.Errorf("notice %q: a relative path's history said failed", res.Notice)
	}
}

// A library caller's task is checked as the CLI's is, and a caller's
// evaluator that panics leaves the run to the lexical evaluator, saying
// so; it gets the candidates' paths as they are, a name that is not
// UTF-8 too, to ask their excerpts by.
func TestLibraryCallersGuarded(t *testing.T) {
	dir := t.TempDir()
	if _, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", strings.Repeat("token expiry ", hone.MaxTaskBytes/12+1), hone.Options{IndexDir: dir}); !errors.Is(err, hone.ErrTaskTooLong) {
		t.Errorf("a task over MaxTaskBytes: %v", err)
	}
	if _, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", "\xff\xfe\xfd", hone.Options{IndexDir: dir}); !errors.Is(err, hone.ErrNotText) {
		t.Errorf("a task of bytes that are not UTF-8: %v", err)
	}
	for _, ix := range []*index.Index{nil, {}} {
		if _, err := RetrieveIndex(context.Background(), ix, "token expiry", hone.Options{}); err == nil || !strings.Contains(err.Error(), "open one with index.Open") {
			t.Errorf("RetrieveIndex with no index open (%v): %v", ix, err)
		}
	}
	// An index opened and never updated is empty, and said so.
	empty, err := index.Open(context.Background(), "../testdata/repos/auth-expiry", index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := RetrieveIndex(context.Background(), empty, expiryTask, hone.Options{NoHistory: true})
	empty.Close()
	if err != nil || len(res.Files) != 0 || !strings.Contains(res.Notice, "holds no files, as it was never updated: update it") {
		t.Errorf("RetrieveIndex on an index never updated: %v, notice %q, want one saying it is empty, and to update it", err, res.Notice)
	}
	// Retrieve updates the index first: a repository of nothing hone
	// indexes is said to be so, and no update is asked for.
	res, err = Retrieve(context.Background(), t.TempDir(), expiryTask, hone.Options{IndexDir: t.TempDir(), NoHistory: true})
	if err != nil || len(res.Files) != 0 || res.Notice != "nothing found: the repository has no files hone indexes, so its index holds none" {
		t.Errorf("Retrieve on a repository of no files: %v, notice %q, want one saying it has none hone indexes", err, res.Notice)
	}
	var notices []string
	panics := evaluatorFunc(func(context.Context, hone.EvaluateRequest) ([]hone.Evaluation, error) { panic("a bug of the caller's") })
	res, err = Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: dir, Evaluator: panics, NoHistory: true,
		Notice: func(n string) { notices = append(notices, n) }})
	if err != nil || len(res.Files) == 0 {
		t.Fatalf("with an evaluator that panics: %v, %+v", err, res)
	}
	if !slices.ContainsFunc(notices, func(n string) bool { return strings.Contains(n, "panicked") }) {
		t.Errorf("notices %q say nothing of the panic", notices)
	}

	// An evaluator whose Usage panics, or says a cost that is no number,
	// costs the run nothing: its result comes, and marshals as JSON.
	for _, m := range []meteredFunc{
		{func() hone.Usage { panic("a bug of the caller's") }},
		{func() hone.Usage { return hone.Usage{Evaluator: "fake", Calls: 1, CostUSD: math.NaN()} }},
	} {
		res, err := Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: dir, Evaluator: m, NoHistory: true})
		if err != nil || len(res.Files) == 0 {
			t.Fatalf("with an evaluator whose Usage fails: %v, %+v", err, res)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("the result does not marshal: %v", err)
		}
	}

	// A revision asked for that git has not: said in the result, not
	// passed over.
	res, err = Retrieve(context.Background(), "../testdata/repos/auth-expiry", expiryTask, hone.Options{IndexDir: dir, Rev: "no-such-revision"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Notice, `no commit "no-such-revision"`) {
		t.Errorf("a revision git has not: notice %q", res.Notice)
	}

	repo := writeFiles(t, map[string]string{"auth/tok\xffen.go": "package auth\n\n// TokenExpired reports whether the token's expiry passed.\nfunc TokenExpired(expiry int64) bool { return expiry < now() }\n"})
	var asked []string
	var excerptErr error
	names := evaluatorFunc(func(_ context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		for _, c := range req.Candidates {
			asked = append(asked, c.Path)
			if _, err := req.Excerpts.Excerpt(c.Path, 200); err != nil {
				excerptErr = err
			}
		}
		return nil, nil
	})
	if _, err := Retrieve(context.Background(), repo, "token expiry", hone.Options{IndexDir: t.TempDir(), Evaluator: names, NoHistory: true}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(asked, "auth/tok\xffen.go") || excerptErr != nil {
		t.Errorf("the evaluator was asked %q (excerpt: %v), want the name as it is", asked, excerptErr)
	}
}

// meteredFunc is an evaluator that judges nothing and says what it spent
// by usage.
type meteredFunc struct{ usage func() hone.Usage }

func (meteredFunc) Evaluate(context.Context, hone.EvaluateRequest) ([]hone.Evaluation, error) {
	return nil, nil
}

func (m meteredFunc) Usage() hone.Usage { return m.usage() }
