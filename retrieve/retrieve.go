// Package retrieve runs hone's iterative retrieval loop over a
// repository's index.
//
// The loop is four stages with values between them. A query goes into
// dispatch, and the cycle's candidates come out; an evaluator
// (hone.Evaluator; the lexical one by default) turns the candidates into
// evaluations; refine turns them into the next query; after the last
// cycle, the ranking turns every evaluation into the result. The task is
// read once, before the first cycle, and each stage reads that reading.
package retrieve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/lexicon"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
)

// Retrieve runs the retrieval loop for task over the repository at repoDir.
// Its index is brought up to date first.
func Retrieve(ctx context.Context, repoDir, task string, opts hone.Options) (*hone.Result, error) {
	start := time.Now()
	task, opts, err := prepare(task, opts)
	if err != nil {
		return nil, err
	}
	// The history is read once the index is up to date, beside the
	// loop, on the core it leaves free: beside the update's walk, whose
	// stats take both cores, it slowed the walk by more than it saved.
	// An update that reads many files has it read beside it; a failed
	// update stops it, so that nothing outlives the call.
	var pc *history.Reading
	var started sync.Once
	startHistory := func() { started.Do(func() { pc = readHistory(ctx, repoDir, opts) }) }
	progress := func(p index.Progress) {
		if p.Total >= historyBeside {
			startHistory()
		}
		if opts.Progress != nil {
			opts.Progress(p.Done, p.Total, p.Bytes)
		}
	}
	// The task is read once the index is up to date; the tables it is
	// read and refined with are made beside the update.
	go synonymsByStems()
	ix, _, err := index.OpenUpdate(ctx, repoDir, index.Options{Dir: opts.IndexDir, MaxFileSize: opts.MaxFileSize, Notice: opts.Notice}, progress)
	if ix == nil {
		started.Do(func() {}) // none starts now; one started beside the update stops
		pc.Stop()
		return nil, err
	}
	startHistory()
	defer ix.Close()
	res, rerr := runRepaired(ctx, ix, task, opts, pc, start)
	if err != nil && res != nil {
		// The disk is full: the answer is from the index as it was, and
		// says so.
		addNotice(res, fmt.Sprintf("answered from the index as it was before this update failed: %v", err))
	}
	return res, rerr
}

// historyBeside: an update that reads this many files or more, about as
// long as a history's read from its cache, has the history read beside it.
const historyBeside = 200

// RetrieveIndex runs the loop over an index the caller keeps up to date,
// so that several tasks can share one. It only reads the index, and may
// run beside the index's other reads: where they meet damage in the
// index, its error says so (index.IsDamaged), and a caller that holds the
// index alone rebuilds it (Index.Rebuild) and asks again; hone's server
// and MCP server do.
func RetrieveIndex(ctx context.Context, ix *index.Index, task string, opts hone.Options) (*hone.Result, error) {
	if !ix.IsOpen() {
		return nil, errors.New("retrieve: no open index: open one with index.Open or index.OpenUpdate, and close it after the last retrieval")
	}
	start := time.Now()
	task, opts, err := prepare(task, opts)
	if err != nil {
		return nil, err
	}
	pc := readHistory(ctx, ix.Root, opts)
	defer pc.Stop()
	return run(ctx, ix, task, opts, pc, start)
}

// prepare checks a task as every caller's is: within MaxTaskBytes, text
// (bytes that are not UTF-8 become U+FFFD, and a task of nothing else is
// ErrNotText), not empty, with something to search for.
func prepare(task string, opts hone.Options) (string, hone.Options, error) {
	if len(task) > hone.MaxTaskBytes {
		return "", opts, hone.ErrTaskTooLong
	}
	task, err := hone.TaskText(task)
	if err != nil {
		return "", opts, err
	}
	task = strings.TrimSpace(task)
	if task == "" {
		return "", opts, hone.ErrEmptyTask
	}
	if !HasSearchTerms(task) {
		// Said before the index is opened: a folder's first index is
		// no price for an answer that cannot come.
		return "", opts, hone.ErrNothingToSearch
	}
	opts, err = opts.WithDefaults()
	if err == nil && opts.GitDir != "" {
		// Relative to the caller's working directory, as the
		// repository's path is, not to the repository git runs in.
		if abs, aerr := filepath.Abs(opts.GitDir); aerr == nil {
			opts.GitDir = abs
		}
	}
	return task, opts, err
}

// runRepaired runs the loop. When its reads meet damage in the index, it
// has the index rebuilt, with a notice, and runs again, rather than answer
// from damaged data.
func runRepaired(ctx context.Context, ix *index.Index, task string, opts hone.Options, pc *history.Reading, start time.Time) (*hone.Result, error) {
	// A run that ends before it needs the history stops its read: nothing
	// outlives the call.
	defer pc.Stop()
	res, err := run(ctx, ix, task, opts, pc, start)
	if !index.IsDamaged(err) {
		return res, err
	}
	if _, err := ix.Rebuild(ctx, nil); err != nil {
		return nil, fmt.Errorf("rebuild the damaged index: %w", err)
	}
	return run(ctx, ix, task, opts, pc, start)
}

// verdict is an evaluation as the loop keeps it: rounded for the trace,
// with the evaluator's relevance before rounding, which orders files whose
// rounded relevance ties.
type verdict struct {
	hone.Evaluation
	// score is the verdict before rounding: the lexical one, joined with a
	// model's where one judged the file.
	score float64
	// lex is the lexical evaluator's; model a model's, when judged.
	lex    float64
	model  float64
	judged bool
	// modelNeeds is the missing context a model named.
	modelNeeds []string
}

// newVerdict rounds an evaluator's relevance, held to 0..1, to the two
// places every output shows; the threshold is compared with the rounded
// relevance.
func newVerdict(ev hone.Evaluation, cycle int) verdict {
	score := ev.Score
	if math.IsNaN(score) {
		score = 0 // an evaluator's mistake counts as no evidence
	}
	score = math.Max(0, math.Min(1, score))
	ev.Score = math.Round(score*100) / 100
	ev.Cycle = cycle
	// What the result alone says of a file is the ranking's to set.
	ev.MissingContext = []string{}
	return verdict{Evaluation: ev, score: score, lex: score}
}

// record is what the loop keeps of the evaluations: each file's best and
// first verdicts, and the cycles that evaluated it.
type record struct {
	best  map[string]verdict // merged over cycles: each file's best verdict
	first map[string]verdict
	// bestLex is each file's best lexical verdict; bestModel a model's
	// best, for the files a model judged.
	bestLex   map[string]float64
	bestModel map[string]float64
	seen      map[string]int // path -> cycle it was first evaluated in
	last      map[string]int // path -> last cycle it was evaluated in
}

func newRecord() *record {
	return &record{best: map[string]verdict{}, first: map[string]verdict{}, seen: map[string]int{}, last: map[string]int{},
		bestLex: map[string]float64{}, bestModel: map[string]float64{}}
}

// note keeps a verdict's lexical and model parts.
func (r *record) note(ev verdict) {
	if old, ok := r.bestLex[ev.Path]; !ok || ev.lex > old {
		r.bestLex[ev.Path] = ev.lex
	}
	if old, ok := r.bestModel[ev.Path]; ev.judged && (!ok || ev.model > old) {
		r.bestModel[ev.Path] = ev.model
	}
}

// add records cycle n's verdicts, and reports how many files were new and
// how many reached the threshold for the first time.
func (r *record) add(n int, vs []verdict, threshold float64) (newFiles, crossed int) {
	for _, ev := range vs {
		r.note(ev)
		if _, ok := r.seen[ev.Path]; !ok {
			r.seen[ev.Path] = n
			r.first[ev.Path] = ev
			newFiles++
		}
		r.last[ev.Path] = n
		old, had := r.best[ev.Path]
		if !had || ev.score > old.score {
			if ev.Score >= threshold && had && old.Score >= threshold {
				ev.Cycle = old.Cycle // found when it first reached the threshold
			} else if ev.Score >= threshold {
				crossed++
			}
			r.best[ev.Path] = ev
		}
	}
	return newFiles, crossed
}

// addWidened records the verdicts on files evaluated for the ranking
// alone, after the cycles.
func (r *record) addWidened(vs []verdict) map[string]bool {
	out := map[string]bool{}
	for _, ev := range vs {
		r.note(ev)
		r.best[ev.Path], r.first[ev.Path] = ev, ev
		out[ev.Path] = true
	}
	return out
}

// ranked lists every file's best verdict, best first.
func (r *record) ranked() []verdict {
	out := make([]verdict, 0, len(r.best))
	for _, ev := range r.best {
		out = append(out, ev)
	}
	sortEvals(out)
	return out
}

// relevant lists the files at or above the threshold, best first.
func (r *record) relevant(threshold float64) []verdict {
	var out []verdict
	for _, ev := range r.best {
		if ev.Score >= threshold {
			out = append(out, ev)
		}
	}
	sortEvals(out)
	return out
}

// sortEvals orders verdicts best first, by unrounded relevance.
func sortEvals(evs []verdict) {
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].score != evs[j].score {
			return evs[i].score > evs[j].score
		}
		return evs[i].Path < evs[j].Path
	})
}

func run(ctx context.Context, ix *index.Index, raw string, opts hone.Options, pc *history.Reading, start time.Time) (*hone.Result, error) {
	opts.Include, opts.Exclude = inRepository(ix.Root, opts.Include), inRepository(ix.Root, opts.Exclude)
	// Each stage's time is a lap: from the end of the one before.
	mark := time.Now()
	lap := func() int64 {
		now := time.Now()
		d := now.Sub(mark)
		mark = now
		return d.Milliseconds()
	}
	update := mark.Sub(start).Milliseconds()
	tp := parseTask(raw, ix)
	abs, _ := filepath.Abs(ix.Root)
	res := &hone.Result{Version: hone.Version, JSONVersion: hone.JSONVersion, Task: raw, Repo: abs, Language: ix.MainLanguage(), Threshold: opts.Threshold}
	res.Timings = hone.Timings{Update: update, Task: lap(), Cycles: []int64{}}
	if len(tp.concepts) == 0 {
		res.StopReason = hone.StopNoProgress
		res.Notice = "nothing found: the task has no words or identifiers hone can search for; describe it with the names of the things involved"
		if unread := lexicon.Unread(raw); len(unread) > 0 {
			res.Notice = fmt.Sprintf("nothing found: hone's glossary does not know the task's words (%s); write them in English, or as the code names them", strings.Join(unread, ", "))
		}
		res.Ranking, res.Files, res.RelatedTests = []hone.Ranked{}, []hone.File{}, []hone.RelatedTest{}
		res.Concepts, res.Cycles = []hone.Concept{}, []hone.Cycle{}
		res.ElapsedMS = time.Since(start).Milliseconds()
		return res, nil
	}
	// The history is read beside the index's update and the loop, and
	// searched for the task as soon as it is read, on a core the loop
	// leaves free: the ranking waits for it when it first needs it, after
	// the first cycle's search. The loop does not return before it, and
	// its notices join the result's.
	found := make(chan past, 1)
	go func() {
		var notes []string
		p := readPast(ix, pc, tp.clean, opts, func(n string) { notes = append(notes, n) })
		p.notes = notes
		found <- p
	}()
	pastOf := sync.OnceValue(func() past {
		waited := time.Now()
		p := <-found
		res.Timings.History = time.Since(waited).Milliseconds()
		return p
	})
	defer pastOf()

	src := newSources(ix)
	dp := newDispatcher(ix, tp, opts)
	jd := newJudges(ix, tp, src, opts)
	rf := newRefiner(ix, tp, src, opts.Threshold)
	tests := newTestFinder(ix)
	rec := newRecord()
	var near map[string]float64 // the last cycle's candidates' closeness to the relevant files
	w := weightsFor(res.Language)

	isTest := func(p string) bool {
		e := ix.Entry(p)
		return e != nil && e.Kind.Has(walk.Test)
	}
	q := firstQuery(tp, opts)
	var bestBefore []string // the ranking's best files after the cycle before (cycleEnd)
	for n := 1; n <= opts.MaxCycles; n++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if n > 1 {
			// The cycle before's time runs to here, its check of the
			// stop rule included.
			res.Timings.Cycles = append(res.Timings.Cycles, lap())
		}
		cyc := hone.Cycle{N: n, Query: q.trace()}

		relevant := rec.relevant(opts.Threshold)
		relBefore := map[string]float64{}
		for _, v := range relevant {
			relBefore[v.Path] = v.Score
		}
		cands := dp.dispatch(q, relBefore)
		near = map[string]float64{}
		for _, c := range cands {
			if c.near > 0 {
				near[c.doc.Path] = c.near
			}
		}
		evaluated, used, err := jd.judge(ctx, hone.EvaluateRequest{
			Task: tp.shown, Cycle: n, Query: q.trace(), Candidates: requestCandidates(cands),
			Relevant: evaluations(relevant), Gaps: rf.found(),
		}, n)
		if err != nil {
			return nil, err
		}
		cyc.ModelUsage = used
		newFiles, crossed := rec.add(n, evaluated, opts.Threshold)

		var closed int
		q, closed = rf.refine(n, q, evaluated, rec, &cyc)
		cyc.Evaluated = []hone.Evaluation{}
		for _, v := range evaluated {
			v.MissingContext = rf.openNeeds(v.Path)
			cyc.Evaluated = append(cyc.Evaluated, v.Evaluation)
		}
		res.Cycles = append(res.Cycles, cyc)

		// The ranking as it stands after this cycle, on the result's own
		// scale, says whether the loop may stop (see cycleEnd). After the
		// last cycle only sufficiency can change why it stopped.
		end := cycleEnd{
			last:     n == opts.MaxCycles,
			critical: rf.criticalOpen(),
			progress: newFiles > 0 || crossed > 0 || closed > 0,
			before:   bestBefore,
		}
		if !end.last || !end.critical {
			rk := &ranker{
				ix: ix, tp: tp, q: q, src: src, rec: rec, hits: dp.hits, near: near, gaps: rf.found(),
				tested: tests.pointers(q), history: pastOf().scores, commits: pastOf().commits, opts: opts, w: w,
			}
			ranked := rk.ranking()
			end.relevant = countRelevant(ranked, opts.Threshold, isTest)
			end.best = bestPaths(ranked, hone.SettledFiles)
		}
		if why := end.stop(); why != "" {
			res.StopReason = why
			break
		}
		bestBefore = end.best
	}

	res.Timings.Cycles = append(res.Timings.Cycles, lap()) // the last cycle's
	// The ranking weighs more files than the cycles evaluated: a last
	// dispatch, judged by the same evaluator, for the ranking alone.
	tested := tests.pointers(q)
	var wide []candidate
	for _, d := range dp.widen(q, tested, rec.best) {
		wide = append(wide, candidate{doc: d})
	}
	widenedVerdicts, _, err := jd.judge(ctx, hone.EvaluateRequest{
		Task: tp.shown, Cycle: 0, Query: q.trace(), Candidates: requestCandidates(wide),
		Relevant: evaluations(rec.relevant(opts.Threshold)), Gaps: rf.found(),
	}, len(res.Cycles))
	if err != nil {
		return nil, err
	}
	widened := rec.addWidened(widenedVerdicts)

	past := pastOf()
	rk := &ranker{
		ix: ix, tp: tp, q: q, src: src, rec: rec, hits: dp.hits, near: near, gaps: rf.found(),
		widened: widened, tested: tested, history: past.scores, commits: past.commits, opts: opts, w: w,
		changelogs: past.changelogs, log: past.log,
	}
	rk.result(res)
	inResult(res)
	res.Timings.Rank = lap()
	res.Evaluator = jd.usage()
	noneSearchable := false // no file passes the patterns: the notice says so already
	if len(res.Ranking) == 0 {
		filtered := len(opts.Include) > 0 || len(opts.Exclude) > 0
		switch {
		case ix.N() == 0:
			// A library caller's index created and never updated is
			// empty, and told to update; an index updated, as Retrieve's
			// always is, is empty for the repository's want of files.
			res.Notice = "nothing found: the repository has no files hone indexes, so its index holds none"
			if st, err := ix.Status(ctx); err == nil && st.Updated.IsZero() {
				res.Notice = "nothing found: the index holds no files, as it was never updated: update it (Index.Update, or hone index) and ask again"
			}
		case filtered && !anySearchable(ix, opts.Include, opts.Exclude):
			noneSearchable = true
			res.Notice = "nothing found: no file of the repository passes " + patternsText(opts.Include, opts.Exclude)
		default:
			res.Notice = "nothing found: no file matched the task's terms"
		}
	}
	// An include pattern that matches no file is most often a typo, which
	// leaves out what it was meant to take, silently. An exclude pattern
	// is not said: one that matches no file changes nothing, and agents
	// exclude node_modules out of habit where git ignores it already.
	if idle := idlePatterns(ix, opts.Include); idle != "" && !noneSearchable {
		addNotice(res, idle)
	}
	// Words of the task that the glossary cannot read went unsearched:
	// said, so that the user can write them another way.
	if unread := lexicon.Unread(raw); len(unread) > 0 {
		addNotice(res, fmt.Sprintf("left out of the search, as hone's glossary does not know them: %s; write them in English, or as the code names them", strings.Join(unread, ", ")))
	}
	// A history asked for and not read makes the answer doubtful: the
	// result says so, in every form it takes (text, JSON, pack, MCP).
	for _, n := range pastOf().notes {
		addNotice(res, n)
	}
	if gone := unreadable(ix.Root, res.Files); len(gone) > 0 {
		note := fmt.Sprintf("%s could not be read since it was indexed (moved, deleted or its permissions changed): update the index (hone index, or Index.Update)", strings.Join(gone, ", "))
		if len(gone) > 1 {
			note = fmt.Sprintf("%d files could not be read since they were indexed (moved, deleted or their permissions changed): %s; update the index (hone index, or Index.Update)", len(gone), strings.Join(gone, ", "))
		}
		addNotice(res, note)
	}
	res.ElapsedMS = time.Since(start).Milliseconds()
	if err := ix.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

// addNotice adds a notice to the result's, after what it says already.
func addNotice(res *hone.Result, note string) {
	if res.Notice != "" {
		note = res.Notice + "; " + note
	}
	res.Notice = note
}

// inResult gives each cycle's evaluated files their relevance in the
// result, so that the trace shows one scale beside the evaluator's score.
// The ranking holds every evaluated file (TestResultContract); one it
// lacked would be at 0.
func inResult(res *hone.Result) {
	rel := make(map[string]float64, len(res.Ranking))
	for _, r := range res.Ranking {
		rel[r.Path] = r.Relevance
	}
	for i := range res.Cycles {
		for j := range res.Cycles[i].Evaluated {
			ev := &res.Cycles[i].Evaluated[j]
			ev.Relevance = rel[ev.Path]
		}
	}
}

// judge has the evaluator judge a request's candidates, and keeps its
// verdicts on them, best first: an evaluation of a file that was no
// candidate is dropped.
func judge(ctx context.Context, ev hone.Evaluator, req hone.EvaluateRequest, cycle int) ([]verdict, error) {
	if len(req.Candidates) == 0 {
		return nil, nil
	}
	evs, err := ev.Evaluate(ctx, req)
	if err != nil {
		if req.Cycle == 0 {
			return nil, fmt.Errorf("evaluate the files the ranking weighs after the loop: %w", err)
		}
		return nil, fmt.Errorf("evaluate cycle %d: %w", req.Cycle, err)
	}
	asked := map[string]bool{}
	for _, c := range req.Candidates {
		asked[c.Path] = true
	}
	out := make([]verdict, 0, len(evs))
	for _, e := range evs {
		if asked[e.Path] {
			asked[e.Path] = false // one verdict a file
			out = append(out, newVerdict(e, cycle))
		}
	}
	sortEvals(out)
	return out, nil
}

// redacting hands an evaluator its requests with the secrets hidden: the
// task as the user wrote it may hold one, and so may the code's words in
// the query's terms.
type redacting struct{ hone.Evaluator }

func (r redacting) Evaluate(ctx context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
	// The request's slices are the loop's copies: trace() and evaluations
	// make them for this request alone. The excerpts redact what they
	// give.
	ex := req.Excerpts
	req.Excerpts = nil
	// The strings as they are, not quoted as JSON's output quotes a name
	// that is not UTF-8: the evaluator asks the excerpts by these paths.
	redact.TextValue(&req)
	req.Excerpts = ex
	return r.Evaluator.Evaluate(ctx, req)
}

func requestCandidates(cs []candidate) []hone.Candidate {
	out := make([]hone.Candidate, len(cs))
	for i, c := range cs {
		out[i] = hone.Candidate{Path: c.doc.Path, Near: c.near}
	}
	return out
}

func evaluations(vs []verdict) []hone.Evaluation {
	out := make([]hone.Evaluation, len(vs))
	for i, v := range vs {
		out[i] = v.Evaluation
	}
	return out
}

// bestPaths is the paths of a ranking's first n files.
func bestPaths(ranking []hone.Ranked, n int) []string {
	out := make([]string, 0, min(n, len(ranking)))
	for _, r := range ranking[:min(n, len(ranking))] {
		out = append(out, r.Path)
	}
	return out
}

// cycleEnd is what the loop knows at the end of a cycle, for its stop
// rule.
type cycleEnd struct {
	last     bool // the cycle was the last the budget allows
	critical bool // a critical gap is open
	progress bool // the cycle evaluated a new file, took one over the threshold, or closed a gap
	relevant int  // the ranking's files at the threshold, tests aside
	// best and before are the paths of the ranking's best files
	// (hone.SettledFiles) after this cycle and after the cycle before;
	// before is nil after the first cycle.
	best, before []string
}

// stop says why the loop stops after the cycle, or "" for it to go on.
// Enough relevant files, with no critical gap open, are sufficient. A
// cycle that found nothing new made no progress; so did one that left the
// ranking's best files as the cycle before left them, in the same order,
// critical gaps or not: the next cycle would search around the same files,
// and on the benchmarks it seldom moves a file the fix changed. After
// the last cycle the budget has run out.
func (e cycleEnd) stop() hone.StopReason {
	switch {
	case !e.critical && e.relevant >= hone.SufficientFiles:
		return hone.StopSufficient
	case !e.progress:
		return hone.StopNoProgress
	case !e.last && e.before != nil && len(e.best) > 0 && slices.Equal(e.before, e.best):
		return hone.StopNoProgress
	case e.last:
		return hone.StopMaxCycles
	}
	return ""
}

// countRelevant counts the ranked files at the threshold or above, tests
// aside: tests tell where to look, but the files a task is after are the
// code they test.
func countRelevant(ranking []hone.Ranked, threshold float64, isTest func(path string) bool) int {
	n := 0
	for _, r := range ranking {
		if r.Relevance >= threshold && !isTest(r.Path) {
			n++
		}
	}
	return n
}

func describeGap(g hone.Gap) string {
	switch g.Kind {
	case "call":
		return fmt.Sprintf("%s() in %s", g.Name, redact.QuotePath(g.Where))
	case "import":
		return fmt.Sprintf("imports %s", redact.QuotePath(g.Where))
	case "model":
		return fmt.Sprintf("%s in %s, as a model said", g.Name, redact.QuotePath(g.Where))
	}
	return g.Name
}

// readHistory starts reading the history of the repository at root,
// beside the index's update; nil when the options leave it out.
func readHistory(ctx context.Context, root string, opts hone.Options) *history.Reading {
	if opts.NoHistory {
		return nil
	}
	return history.Start(ctx, root, opts.GitDir, opts.Rev, opts.IndexDir)
}

// past is what the history says of the task: the files past commits
// like it changed, scored; and those commits.
type past struct {
	scores  map[string]float64
	commits []history.Match
	notes   []string // what its reading has to say
	// changelogs are the repository's changelogs, each with its share
	// of the recent changes to its folder's code (changelogShares).
	changelogs map[string]float64
	// log is the history itself, for what the ranking reads of it once
	// it knows its best file (optionDoc).
	log *history.Log
}

// readPast waits for the history and reads it for the task. A repository
// without git history has none; a history that cannot be read is noticed
// and left out.
func readPast(ix *index.Index, pc *history.Reading, task string, opts hone.Options, notice func(string)) past {
	log, _, err := pc.Wait()
	if err != nil {
		switch {
		case notice == nil:
		case !errors.Is(err, history.ErrNoGit):
			notice(fmt.Sprintf("git history left out: %v", err))
		case opts.GitDir != "" || opts.Rev != "":
			// Not asked for, a repository without git goes without its
			// history silently; asked for, one that cannot be read is
			// said.
			notice(fmt.Sprintf("git history left out: no commit %q in the git repository %q: check the git directory and the revision asked for", cmp.Or(opts.Rev, "HEAD"), cmp.Or(opts.GitDir, ix.Root)))
		}
		return past{}
	}
	if log == nil {
		return past{}
	}
	// The commits the task names lead, then those most like it.
	named := log.Named(task)
	ms := named
	isNamed := map[string]bool{}
	for _, m := range named {
		isNamed[m.Commit.Hash] = true
	}
	for _, m := range log.Similar(task, historyMatches) {
		if !isNamed[m.Commit.Hash] {
			ms = append(ms, m)
		}
	}
	return past{commits: ms, scores: history.FileScores(ms), changelogs: changelogShares(ix, log), log: log}
}

// shownCommitsOf are the commits a result shows: those the task names, then
// those like it whose changes touched files the task likely needs, each
// with the relevance of the most relevant file it changed, on the
// ranking's scale; a commit like the task in words that changed nothing
// relevant is not shown. Each one's files come most relevant first.
func shownCommitsOf(ms []history.Match, ranking []hone.Ranked) []hone.PastCommit {
	rel := make(map[string]float64, len(ranking))
	for _, r := range ranking {
		rel[r.Path] = r.Relevance
	}
	out := []hone.PastCommit{}
	named, like := 0, 0
	for _, m := range ms {
		files := slices.Clone(m.Commit.Files)
		sort.SliceStable(files, func(i, j int) bool { return rel[files[i]] > rel[files[j]] })
		best := 0.0
		if len(files) > 0 {
			best = rel[files[0]]
		}
		switch {
		case m.Named && named < shownNamed:
			named++
		case !m.Named && like < shownCommits && best >= commitFloor:
			like++
		default:
			continue
		}
		if len(files) > maxCommitFiles {
			files = files[:maxCommitFiles]
		}
		out = append(out, hone.PastCommit{Hash: m.Commit.Hash, Subject: m.Commit.Subject, Files: files, Score: m.Score, Relevance: best, Named: m.Named})
	}
	// The named first, as the history gave them; then the most relevant.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Named != out[j].Named {
			return out[i].Named
		}
		return !out[i].Named && out[i].Relevance > out[j].Relevance
	})
	// The history scores a message's match against the best of the
	// commits it searched, which the result may not list: the listed
	// ones' are made relative to the best listed, 1 for it, to the two
	// places the other numbers have. A named commit's is 1.
	best := 0.0
	for _, c := range out {
		if !c.Named {
			best = max(best, c.Score)
		}
	}
	for i := range out {
		if !out[i].Named && best > 0 {
			out[i].Score = math.Round(out[i].Score/best*100) / 100
		}
	}
	return out
}

// rankedReason adds to a returned file's reason what the ranking saw and
// the evaluator did not: the flags, keys and codes it declares, and the
// past commits that changed it, of those the result shows.
func (rk *ranker) rankedReason(p, reason string) string {
	var add []string
	if len(rk.tp.evidence.keys) > 0 {
		if d := rk.ix.Doc(p); d != nil {
			if found := rk.declaredBy(d); len(found) > 0 {
				add = append(add, "declares "+strings.Join(found, ", "))
			}
		}
	}
	var named, like []string
	for _, m := range rk.commits {
		if !rk.shown[m.Commit.Hash] || !slices.Contains(m.Commit.Files, p) {
			continue
		}
		h := m.Commit.Hash[:min(10, len(m.Commit.Hash))]
		if m.Named && len(named) < 2 {
			named = append(named, h)
		} else if len(like) < 2 {
			like = append(like, h)
		}
	}
	if len(named) > 0 {
		add = append(add, "changed by "+strings.Join(named, ", ")+", named in the task")
	}
	if len(like) > 0 {
		add = append(add, "changed by past commits like the task: "+strings.Join(like, ", "))
	}
	if len(add) == 0 {
		return reason
	}
	if reason == "" {
		return strings.Join(add, "; ")
	}
	return reason + "; " + strings.Join(add, "; ")
}

// unreadable lists the result's files that can no longer be opened.
func unreadable(root string, files []hone.File) []string {
	var out []string
	for _, f := range files {
		fh, err := os.Open(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			out = append(out, f.Path)
			continue
		}
		fh.Close()
	}
	return out
}
