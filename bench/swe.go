package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/retrieve"
	"github.com/hone-tools/hone/walk"
	"github.com/hone-tools/hone/zoekt"

	"github.com/hone-tools/hone"
)

// Instance is one task of a localization benchmark, in the format of
// SWE-bench Lite as shared/bench/swebench_lite.jsonl holds it.
type Instance struct {
	ID         string   `json:"instance_id"`
	Repo       string   `json:"repo"`
	BaseCommit string   `json:"base_commit"`
	Problem    string   `json:"problem_statement"`
	Gold       []string `json:"gold_files"`
	// Commit is the change itself, where a set records it (the
	// users'-words set does, for its word check).
	Commit string `json:"commit,omitempty"`
	// TaskLanguage is the task's language, "en" or "zh", where a set
	// records it.
	TaskLanguage string `json:"task_language,omitempty"`
	// Language is the language of the repository's code ("c", "go",
	// "typescript"), where a set records it.
	Language string `json:"language,omitempty"`
	// GoldHunks are the lines the fix changed, each hunk's pre-image
	// range at the base commit, where a set records them. A hunk of a
	// file the fix creates starts at 0.
	GoldHunks []Hunk `json:"gold_hunks,omitempty"`
}

// Hunk is a hunk's pre-image line range, 1-based and inclusive.
type Hunk struct {
	Path  string `json:"path"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// created returns the gold files the fix creates: those whose every hunk
// starts at 0. None where the set gives no hunks.
func (in Instance) created() []string {
	base := map[string]bool{}
	for _, h := range in.GoldHunks {
		base[h.Path] = base[h.Path] || h.inBase()
	}
	var out []string
	for _, g := range in.Gold {
		if b, ok := base[g]; ok && !b {
			out = append(out, g)
		}
	}
	return out
}

// inBase reports whether the hunk changes a file the base commit holds:
// one a fix creates starts at line 0, and no pack can hold it.
func (h Hunk) inBase() bool { return h.Start > 0 }

// ReadInstances reads a benchmark file, one JSON object a line.
func ReadInstances(path string) ([]Instance, error) {
	var out []Instance
	err := scanLines(path, func(line []byte) error {
		var in Instance
		if err := json.Unmarshal(line, &in); err != nil {
			return err
		}
		if in.ID == "" || in.Repo == "" || in.BaseCommit == "" || len(in.Gold) == 0 {
			return errors.New("an instance needs instance_id, repo, base_commit and gold_files")
		}
		out = append(out, in)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Every keeps every nth instance, a fixed subset spread over the file.
func Every(ins []Instance, n int) []Instance {
	if n <= 1 {
		return ins
	}
	var out []Instance
	for i := 0; i < len(ins); i += n {
		out = append(out, ins[i])
	}
	return out
}

// Repos finds the git directory of each repository under a directory. A
// mapping file, if given, says it first: lines "owner/name = relative/path".
// Otherwise a repository owner/name is looked for as owner+name/repo (the
// layout fetch makes), owner+name, owner__name, name.git and name.
type Repos struct {
	Dir     string
	Mapping map[string]string
}

// ReadMapping reads a mapping file.
func ReadMapping(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want \"owner/name = path\"", path, n+1)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// GitDir returns the git directory of a repository.
func (r Repos) GitDir(repo string) (string, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok {
		owner, name = repo, repo // a bare name: the directory's
	}
	var cands []string
	if p, ok := r.Mapping[repo]; ok {
		cands = append(cands, p)
	}
	cands = append(cands, owner+"+"+name+"/repo", owner+"+"+name, owner+"__"+name, name+".git", name, filepath.Join(name, ".git"))
	for _, c := range cands {
		p := c
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Dir, c)
		}
		if isGitDir(p) {
			// Absolute: git runs in the work tree, not here.
			return filepath.Abs(p)
		}
	}
	return "", fmt.Errorf("no git directory for %s under %s (tried %s); say where it is with a mapping file", repo, r.Dir, strings.Join(cands, ", "))
}

func isGitDir(p string) bool {
	for _, f := range []string{"HEAD", "objects"} {
		if _, err := os.Stat(filepath.Join(p, f)); err != nil {
			return false
		}
	}
	return true
}

// Row is the outcome of one instance.
type Row struct {
	ID        string   `json:"instance_id"`
	Repo      string   `json:"repo"`
	Gold      []string `json:"gold_files"`
	GoldRanks []int    `json:"gold_ranks"` // 1-based rank of each gold file in the ranking, 0 when absent
	// Created are the gold files the fix creates, where the set gives
	// its hunks: no ranking of the base commit can hold them.
	Created []string `json:"created,omitempty"`
	Top     []string `json:"top"`   // the first ten of the ranking
	Files   []string `json:"files"` // the returned files
	// Roles are the returned files' roles, in order: "target", "test" or
	// "context" (what the targets need to be read, not changed).
	Roles []string `json:"roles,omitempty"`
	// FileRelevance are the returned files' relevance, in order.
	FileRelevance []float64 `json:"file_relevance"`
	// Scores are every ranked file's relevance, with whether it is gold: for
	// calibration.
	Scores []Scored `json:"scores"`
	// Verdicts are the evaluator's scores in the loop's cycles, each with
	// its cycle and whether the file is gold: for the calibration of the
	// scores the trace shows.
	Verdicts  []Verdict `json:"verdicts,omitempty"`
	Tokens    int       `json:"tokens"` // in the returned files' text
	ElapsedMS int64     `json:"elapsed_ms"`
	// Timings are the run's, stage by stage (hone.Timings): its update
	// is the checkout's first index.
	Timings *hone.Timings `json:"timings_ms,omitempty"`
	Cycles  int           `json:"cycles"`
	Stop    string        `json:"stop_reason"`
	Error   string        `json:"error,omitempty"`
	// Evidence says what the task gives beyond prose: "path",
	// "traceback", "identifier"; for the analysis of misses.
	Evidence []string `json:"evidence"`
	// Lang is the language the task is written in: "zh" when it holds Han
	// characters, "en" otherwise.
	Lang string `json:"lang,omitempty"`
	// Code is the language of the repository's code, where the set says.
	Code string `json:"code,omitempty"`
	// Packs are how the context packs of the result, at each budget
	// asked for, hold the gold hunks.
	Packs []PackRow `json:"packs,omitempty"`
	// GoldTests are the test files of the base commit that the change
	// itself modified, where the set records its commit (goldTests);
	// Tests are the result's tests to run, in order (its RelatedTests).
	GoldTests []string `json:"gold_tests,omitempty"`
	Tests     []string `json:"tests,omitempty"`
	// Model is what a model evaluator spent on the instance.
	Model *hone.Usage `json:"model,omitempty"`
}

// PackRow is how a context pack holds the fix's hunks: of the Hunks a
// pack can hold (those of files the fix does not create), how many it
// holds, at least heldShare of their lines each.
type PackRow struct {
	Budget int `json:"budget"`
	Tokens int `json:"tokens"`
	Hunks  int `json:"hunks"`
	Held   int `json:"held"`
}

// heldShare: a pack holds a hunk when it holds this share of its lines.
const heldShare = 0.6

// packRow measures a pack against the fix's hunks.
func packRow(p *pack.Pack, budget int, hunks []Hunk) PackRow {
	out := PackRow{Budget: budget, Tokens: p.Tokens}
	for _, h := range hunks {
		if !h.inBase() {
			continue
		}
		out.Hunks++
		end := max(h.End, h.Start)
		in := 0
		for l := h.Start; l <= end; l++ {
			for _, r := range p.Ranges {
				if r.Path == h.Path && r.Start <= l && l <= r.End {
					in++
					break
				}
			}
		}
		if float64(in) >= heldShare*float64(end-h.Start+1) {
			out.Held++
		}
	}
	return out
}

var (
	evPath       = lazyre.New(`[\w-]+/[\w./-]*\.\w{1,5}\b|\b\w+\.(?:py|go|js|ts|java|rs|rb|c|h)\b`)
	evTraceback  = lazyre.New(`Traceback \(most recent call last\)|goroutine \d+ \[|\n\s+at [\w.$<>]+\(|Exception in thread`)
	evIdentifier = lazyre.New("`[^`\n]+`|\\b[a-z]+_[a-z_]+\\b|\\b[a-z]+[A-Z]\\w*\\b|\\b[A-Z][a-z]+[A-Z]\\w*\\b|\\w\\(\\)")
)

// taskEvidence says what a task gives beyond prose.
func taskEvidence(task string) []string {
	out := []string{}
	if evPath().MatchString(task) {
		out = append(out, "path")
	}
	if evTraceback().MatchString(task) {
		out = append(out, "traceback")
	}
	if evIdentifier().MatchString(task) {
		out = append(out, "identifier")
	}
	return out
}

// taskLang names the language a task is written in: "zh" when it holds a
// Han character, "en" otherwise.
func taskLang(task string) string {
	for _, r := range task {
		if unicode.Is(unicode.Han, r) {
			return "zh"
		}
	}
	return "en"
}

// ReadRows reads the per-instance rows of a run.
func ReadRows(path string) ([]Row, error) { return readLines[Row](path) }

// readLines reads a file of JSON objects, one a line; blank lines are
// skipped.
func readLines[T any](path string) ([]T, error) {
	var out []T
	err := scanLines(path, func(line []byte) error {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// scanLines calls fn with each line of a file, blank lines and the
// spaces around each line left out; an error fn returns is given the
// file's name and the line's number.
func scanLines(path string, fn func(line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// worstRank is the rank of a row's last gold file, math.MaxInt when one
// was not ranked at all or the row has none.
func worstRank(r Row) int {
	worst := 0
	for _, k := range r.GoldRanks {
		if k == 0 {
			return math.MaxInt
		}
		worst = max(worst, k)
	}
	if worst == 0 {
		return math.MaxInt
	}
	return worst
}

// Scored is one ranked file's relevance and whether it is gold.
type Scored struct {
	Relevance float64 `json:"r"`
	Gold      bool    `json:"g"`
}

// Verdict is one of the evaluator's scores in a cycle, and whether the
// file it judged is gold.
type Verdict struct {
	Cycle int     `json:"c"`
	Score float64 `json:"s"`
	Gold  bool    `json:"g"`
}

// SWEConfig says how to run a localization benchmark.
type SWEConfig struct {
	Instances []Instance
	Repos     Repos
	Work      string // scratch: work trees and indexes; empty means a temporary directory
	Options   hone.Options
	Out       io.Writer // per-instance rows, JSON lines; may be nil
	Log       io.Writer // progress; may be nil
	// CountTokens counts the tokens of a text; nil counts bytes/4.
	CountTokens func(string) int
	// Baseline ranks with plain BM25 over the task's words instead of the
	// loop: the reference every change is measured against.
	Baseline bool
	// Signals, if set, receives each instance's ranked files with their
	// signals, JSON lines of SignalRow: what `hone bench fit` fits on.
	Signals io.Writer
	// PackBudgets are the budgets, in tokens, of the context packs built
	// of each result and measured against the gold hunks; none, none
	// built.
	PackBudgets []int
	// PackDump, if set with PackBudgets, is a folder where each instance's
	// result, gold hunks and the files its pack reads are kept, for
	// ReplayPacks.
	PackDump string
	// NewEvaluator, if set, makes each instance's model evaluator, which
	// joins the lexical one: a run's evaluator keeps that run's state.
	NewEvaluator func() hone.Evaluator
	// Zoekt, if set, runs each instance over a zoekt cluster rather than
	// the embedded index.
	Zoekt *ZoektBench
}

// ZoektBench runs a benchmark over a zoekt-webserver: after each
// checkout, IndexCmd (run by sh, its {tree} the work tree) indexes the
// tree into the shards the webserver serves, the run waits until the
// webserver serves them, and the loop searches it, the repository being
// the tree's folder name, as zoekt-index names it.
type ZoektBench struct {
	URL      string
	IndexCmd string
}

// RunSWE runs every instance: it checks each repository out at the
// instance's base commit (one work tree and one index per repository,
// updated incrementally from commit to commit), retrieves with the
// problem statement as the task and scores the ranking.
func RunSWE(ctx context.Context, cfg SWEConfig) ([]Row, error) {
	work := cfg.Work
	if work == "" {
		dir, err := os.MkdirTemp("", "hone-swe-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	// Absolute: git runs in the work tree, not here.
	work, err := filepath.Abs(work)
	if err != nil {
		return nil, err
	}
	count := cfg.CountTokens
	if count == nil {
		count = func(s string) int { return len(s) / 4 }
	}
	// Group by repository, keeping the file's order within each.
	order := []string{}
	byRepo := map[string][]Instance{}
	for _, in := range cfg.Instances {
		if _, ok := byRepo[in.Repo]; !ok {
			order = append(order, in.Repo)
		}
		byRepo[in.Repo] = append(byRepo[in.Repo], in)
	}
	var rows []Row
	var enc *Encoder
	if cfg.Out != nil {
		enc = NewEncoder(cfg.Out)
	}
	var sig *Encoder
	if cfg.Signals != nil {
		sig = NewEncoder(cfg.Signals)
		cfg.Options.Signals = true
	}
	done := 0
	for _, repo := range order {
		gitDir, err := cfg.Repos.GitDir(repo)
		if err != nil {
			// Score what can be scored; these rows say why they failed.
			for _, in := range byRepo[repo] {
				row := Row{ID: in.ID, Repo: in.Repo, Gold: in.Gold, GoldRanks: make([]int, len(in.Gold)), Error: err.Error()}
				rows = append(rows, row)
				if err := enc.Encode(row); err != nil {
					return rows, err
				}
			}
			if cfg.Log != nil {
				fmt.Fprintf(cfg.Log, "%s: %v\n", repo, err)
			}
			continue
		}
		slug := strings.ReplaceAll(repo, "/", "+")
		co := &checkout{gitDir: gitDir, tree: filepath.Join(work, slug, "tree"), index: filepath.Join(work, slug, "git-index")}
		opts := cfg.Options
		opts.IndexDir = filepath.Join(work, slug, "index")
		prev := ""
		for _, in := range byRepo[repo] {
			if err := ctx.Err(); err != nil {
				return rows, err
			}
			row := Row{ID: in.ID, Repo: in.Repo, Gold: in.Gold, Created: in.created(), Evidence: taskEvidence(in.Problem), Lang: taskLang(in.Problem), Code: strings.ToLower(in.Language)}
			if err := co.to(ctx, prev, in.BaseCommit); err != nil {
				// A snapshot can lack a large file at some commit: score
				// this instance as failed, and start the next checkout
				// afresh.
				row.GoldRanks, row.Error = make([]int, len(in.Gold)), err.Error()
				rows = append(rows, row)
				if err := enc.Encode(row); err != nil {
					return rows, err
				}
				if sig != nil {
					// A failed instance counts, with nothing ranked.
					if err := sig.Encode(signalRow(in, &hone.Result{})); err != nil {
						return rows, err
					}
				}
				if cfg.Log != nil {
					fmt.Fprintf(cfg.Log, "%s: %v\n", in.ID, err)
				}
				os.RemoveAll(co.tree)
				os.Remove(co.index)
				prev = ""
				continue
			}
			prev = in.BaseCommit
			if in.Commit != "" {
				// The tests the change modified: what its tests to run
				// are measured against. A history that cannot be read
				// leaves them out.
				row.GoldTests, _ = goldTests(ctx, co.gitDir, co.tree, in.BaseCommit, in.Commit)
			}
			start := time.Now()
			retrieve := retrieve.Retrieve
			if cfg.Baseline {
				retrieve = BM25
			}
			// The work tree is checked out from a bare mirror: the history
			// is the mirror's, as of the instance's commit.
			opts.GitDir, opts.Rev = co.gitDir, in.BaseCommit
			if cfg.NewEvaluator != nil && !cfg.Baseline {
				opts.Evaluator = cfg.NewEvaluator()
			}
			var res *hone.Result
			root := co.tree
			if cfg.Zoekt != nil && !cfg.Baseline {
				var zerr error
				var ms int64
				res, root, ms, zerr = overZoekt(ctx, cfg.Zoekt, co.tree, filepath.Join(work, slug, "zoekt"), in.Problem, opts)
				start = start.Add(time.Duration(ms) * time.Millisecond) // the indexing is not the retrieve's
				err = zerr
			} else {
				res, err = retrieve(ctx, co.tree, in.Problem, opts)
			}
			row.ElapsedMS = time.Since(start).Milliseconds()
			if err != nil {
				row.Error = err.Error()
				if sig != nil {
					if err := sig.Encode(signalRow(in, &hone.Result{})); err != nil {
						return rows, err
					}
				}
			} else {
				row.Model = res.Evaluator
				score(&row, res, root, count)
				var past map[string][]string
				if len(cfg.PackBudgets) > 0 || cfg.PackDump != "" {
					// As the command line's packs weigh them; a
					// history that cannot be read leaves them out.
					past, _ = history.Added(ctx, co.tree, co.gitDir, res.PastCommits)
				}
				for _, b := range cfg.PackBudgets {
					p := pack.Build(res, root, pack.Options{Budget: b, PastLines: past})
					row.Packs = append(row.Packs, packRow(p, b, in.GoldHunks))
				}
				if cfg.PackDump != "" {
					if err := dumpPack(cfg.PackDump, in, res, root, past); err != nil {
						return rows, err
					}
				}
				if sig != nil {
					if err := sig.Encode(signalRow(in, res)); err != nil {
						return rows, err
					}
				}
			}
			rows = append(rows, row)
			if err := enc.Encode(row); err != nil {
				return rows, err
			}
			done++
			if cfg.Log != nil {
				fmt.Fprintf(cfg.Log, "[%d/%d] %s: gold at %v, %d files, %d ms\n", done, len(cfg.Instances), in.ID, row.GoldRanks, len(row.Files), row.ElapsedMS)
			}
		}
	}
	return rows, nil
}

func signalRow(in Instance, res *hone.Result) SignalRow {
	gold := map[string]bool{}
	for _, g := range in.Gold {
		gold[g] = true
	}
	lang := res.Language
	if lang == "" && len(res.Ranking) > 0 {
		lang = NoLanguage
	}
	r := SignalRow{ID: in.ID, Repo: in.Repo, Language: lang, Names: retrieve.SignalNames(), Gold: len(in.Gold), Paths: []string{}, IsG: []bool{}, X: [][]float64{}}
	weighed := slices.ContainsFunc(res.Ranking, func(f hone.Ranked) bool { return f.Signals != nil })
	for _, f := range res.Ranking {
		if weighed && f.Signals == nil {
			continue // a changelog placed by the history, not weighed by the signals
		}
		r.Paths = append(r.Paths, f.Path)
		r.IsG = append(r.IsG, gold[f.Path])
		r.X = append(r.X, f.Signals)
	}
	return r
}

func score(row *Row, res *hone.Result, tree string, count func(string) int) {
	if res.Timings.Cycles != nil { // the loop ran: BM25's results have no stages
		tm := res.Timings
		row.Timings = &tm
	}
	rank := map[string]int{}
	for i, r := range res.Ranking {
		rank[r.Path] = i + 1
		if i < 10 {
			row.Top = append(row.Top, r.Path)
		}
	}
	gold := map[string]bool{}
	for _, g := range row.Gold {
		gold[g] = true
		row.GoldRanks = append(row.GoldRanks, rank[g])
	}
	for _, r := range res.Ranking {
		row.Scores = append(row.Scores, Scored{Relevance: r.Relevance, Gold: gold[r.Path]})
	}
	for _, c := range res.Cycles {
		for _, e := range c.Evaluated {
			row.Verdicts = append(row.Verdicts, Verdict{Cycle: c.N, Score: e.Score, Gold: gold[e.Path]})
		}
	}
	for _, f := range res.Files {
		row.Files = append(row.Files, f.Path)
		row.Roles = append(row.Roles, f.Role)
		row.FileRelevance = append(row.FileRelevance, f.Relevance)
		if b, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(f.Path))); err == nil {
			row.Tokens += count(string(b))
		}
	}
	for _, t := range res.RelatedTests {
		row.Tests = append(row.Tests, t.Path)
	}
	row.Cycles = len(res.Cycles)
	row.Stop = string(res.StopReason)
}

// goldTests are the test files of the base commit (as the walk classifies
// them, read in tree, its checkout) that commit modified: not those it
// adds, which no retrieve of the base can name, nor those it deletes.
func goldTests(ctx context.Context, gitDir, tree, base, commit string) ([]string, error) {
	out, err := gitOutput(ctx, gitDir, "diff", "--name-status", "--no-renames", "-z", base, commit)
	if err != nil {
		return nil, err
	}
	var tests []string
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status, p := fields[i], fields[i+1]
		if status != "M" {
			continue
		}
		// Classify reads what the walk reads of it, its first HeadSize
		// bytes.
		content, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		if walk.Classify(p, content).Has(walk.Test) {
			tests = append(tests, p)
		}
	}
	return tests, nil
}

// Summary is a benchmark's figures.
type Summary struct {
	N        int
	Acc      map[int]float64 // k -> share of instances with every gold file in the top k, in percent
	Recall5  float64         // mean share of gold files in the top 5, in percent
	Recall10 float64         // and in the top 10
	MRR      float64         // mean reciprocal rank of the first gold file
	Returned float64         // share of instances whose returned files hold every gold file, in percent
	// Precision, Recall and F05 measure the returned files as a set
	// against the gold files, averaged over the instances: F0.5 weighs
	// precision twice as much as recall, since a file the change does not
	// need costs the agent context. An empty set has precision 0.
	Precision, Recall, F05 float64
	// F05Targets is F0.5 of the returned files less the context, which
	// they hold to be read rather than changed.
	F05Targets float64
	Files      float64       // median count of returned files
	Tokens     float64       // median tokens in the returned files
	Median     time.Duration // retrieve time, incremental update included
	P90        time.Duration
	Errors     int
}

// accK are the k of Acc@k.
var accK = []int{1, 3, 5, 10}

// Summarize computes the figures of a set of rows.
func Summarize(rows []Row) Summary {
	s := Summary{N: len(rows), Acc: map[int]float64{}}
	if len(rows) == 0 {
		return s
	}
	var files, tokens []float64
	var times []time.Duration
	for _, r := range rows {
		if r.Error != "" {
			s.Errors++
		}
		worst := worstRank(r)
		first := math.MaxInt
		in5, in10 := 0, 0
		for _, k := range r.GoldRanks {
			if k == 0 {
				continue
			}
			first = min(first, k)
			if k <= 5 {
				in5++
			}
			if k <= 10 {
				in10++
			}
		}
		for _, k := range accK {
			if worst <= k {
				s.Acc[k]++
			}
		}
		if len(r.Gold) > 0 {
			s.Recall5 += float64(in5) / float64(len(r.Gold))
			s.Recall10 += float64(in10) / float64(len(r.Gold))
		}
		if first != math.MaxInt {
			s.MRR += 1 / float64(first)
		}
		held := 0
		for _, g := range r.Gold {
			for _, f := range r.Files {
				if f == g {
					held++
					break
				}
			}
		}
		if held == len(r.Gold) {
			s.Returned++
		}
		p, rc, f := setFit(r, true)
		s.Precision += p
		s.Recall += rc
		s.F05 += f
		_, _, f = setFit(r, false)
		s.F05Targets += f
		files = append(files, float64(len(r.Files)))
		tokens = append(tokens, float64(r.Tokens))
		times = append(times, time.Duration(r.ElapsedMS)*time.Millisecond)
	}
	n := float64(len(rows))
	for _, k := range accK {
		s.Acc[k] = 100 * s.Acc[k] / n
	}
	s.Recall5 = 100 * s.Recall5 / n
	s.Recall10 = 100 * s.Recall10 / n
	s.Precision /= n
	s.Recall /= n
	s.F05 /= n
	s.F05Targets /= n
	s.MRR /= n
	s.Returned = 100 * s.Returned / n
	s.Files = medianF(files)
	s.Tokens = medianF(tokens)
	l := latency(times)
	s.Median, s.P90 = l.Median, l.P90
	return s
}

// setFit measures a row's returned files as a set against its gold
// files: precision, recall and F0.5, all 0 when none of them is gold.
// Without context, the context files are left out.
func setFit(r Row, context bool) (precision, recall, f05 float64) {
	gold := map[string]bool{}
	for _, g := range r.Gold {
		gold[g] = true
	}
	n, held := 0, 0
	for i, f := range r.Files {
		if !context && i < len(r.Roles) && r.Roles[i] == hone.RoleContext {
			continue
		}
		n++
		if gold[f] {
			held++
			delete(gold, f) // each gold file counts once
		}
	}
	if held == 0 {
		return 0, 0, 0
	}
	precision, recall = float64(held)/float64(n), float64(held)/float64(len(r.Gold))
	return precision, recall, 1.25 * precision * recall / (0.25*precision + recall)
}

func medianF(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// PrintSummary writes the figures overall and per repository.
func PrintSummary(w io.Writer, rows []Row) { printSummary(w, rows, true) }

// PrintRankStats writes the figures without the timings, which vary from
// run to run: the golden files keep these.
func PrintRankStats(w io.Writer, rows []Row) { printSummary(w, rows, false) }

func printSummary(w io.Writer, rows []Row, times bool) {
	head := fmt.Sprintf("%-26s %4s %6s %6s %6s %6s %6s %6s %6s %9s %5s %5s %5s %6s %6s %7s",
		"repository", "n", "Acc@1", "Acc@3", "Acc@5", "Acc@10", "R@5", "R@10", "MRR", "returned", "P", "R", "F0.5", "F0.5t", "files", "tokens")
	if times {
		head += fmt.Sprintf(" %7s %7s", "median", "p90")
	}
	fmt.Fprintln(w, head)
	line := func(name string, s Summary) {
		l := fmt.Sprintf("%-26s %4d %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %6.3f %8.1f%% %5.2f %5.2f %5.2f %6.2f %6.1f %7.0f",
			name, s.N, s.Acc[1], s.Acc[3], s.Acc[5], s.Acc[10], s.Recall5, s.Recall10, s.MRR, s.Returned, s.Precision, s.Recall, s.F05, s.F05Targets, s.Files, s.Tokens)
		if times {
			l += fmt.Sprintf(" %6dms %6dms", s.Median.Milliseconds(), s.P90.Milliseconds())
		}
		fmt.Fprintln(w, l)
	}
	line("all", Summarize(rows))
	// Each language of the tasks, where there are several.
	byLang := map[string][]Row{}
	for _, r := range rows {
		if r.Lang != "" {
			byLang[r.Lang] = append(byLang[r.Lang], r)
		}
	}
	if len(byLang) > 1 {
		langs := slices.Sorted(maps.Keys(byLang))
		for _, l := range langs {
			line("  tasks in "+l, Summarize(byLang[l]))
		}
	}
	// And each language of the code, where the set says.
	byCode := map[string][]Row{}
	for _, r := range rows {
		if r.Code != "" {
			byCode[r.Code] = append(byCode[r.Code], r)
		}
	}
	if len(byCode) > 1 {
		for _, l := range slices.Sorted(maps.Keys(byCode)) {
			line("  code in "+l, Summarize(byCode[l]))
		}
	}
	byRepo := map[string][]Row{}
	var repos []string
	for _, r := range rows {
		if _, ok := byRepo[r.Repo]; !ok {
			repos = append(repos, r.Repo)
		}
		byRepo[r.Repo] = append(byRepo[r.Repo], r)
	}
	sort.Strings(repos)
	for _, repo := range repos {
		line(repo, Summarize(byRepo[repo]))
	}
	if s := Summarize(rows); s.Errors > 0 {
		fmt.Fprintf(w, "%d instances failed: see their error in the rows\n", s.Errors)
	}
}

// Calibration is, per relevance band, how many ranked files fell in it and
// the share of them that were gold.
type Calibration struct {
	Band       string
	Files      int
	GoldShare  float64 // percent
	GoldInBand int
}

// calibrationBands are the seed's bands, with the threshold's line at 0.7.
var calibrationBands = []struct {
	name   string
	lo, hi float64
}{{"0.8-1.0", 0.8, 1.01}, {"0.7-0.8", 0.7, 0.8}, {"0.5-0.7", 0.5, 0.7}, {"0.2-0.5", 0.2, 0.5}, {"0.0-0.2", 0, 0.2}}

// Calibrate bins every ranked file by relevance band.
func Calibrate(rows []Row) []Calibration {
	var all []Scored
	for _, r := range rows {
		all = append(all, r.Scores...)
	}
	return binned(all)
}

// binned bins scored files by band.
func binned(scores []Scored) []Calibration {
	out := make([]Calibration, len(calibrationBands))
	for i, b := range calibrationBands {
		out[i].Band = b.name
	}
	for _, s := range scores {
		for i, b := range calibrationBands {
			if s.Relevance >= b.lo && s.Relevance < b.hi {
				out[i].Files++
				if s.Gold {
					out[i].GoldInBand++
				}
				break
			}
		}
	}
	for i := range out {
		if out[i].Files > 0 {
			out[i].GoldShare = 100 * float64(out[i].GoldInBand) / float64(out[i].Files)
		}
	}
	return out
}

// CalibrateVerdicts bins the evaluator's scores in the cycles by band,
// one table a cycle, in the cycles' order.
func CalibrateVerdicts(rows []Row) [][]Calibration {
	var byCycle [][]Scored
	for _, r := range rows {
		for _, v := range r.Verdicts {
			if v.Cycle < 1 {
				continue
			}
			for len(byCycle) < v.Cycle {
				byCycle = append(byCycle, nil)
			}
			byCycle[v.Cycle-1] = append(byCycle[v.Cycle-1], Scored{Relevance: v.Score, Gold: v.Gold})
		}
	}
	if len(byCycle) == 0 {
		return nil
	}
	out := make([][]Calibration, len(byCycle))
	for i, s := range byCycle {
		out[i] = binned(s)
	}
	return out
}

// PrintCalibration writes, per relevance band, the share of files that
// were gold; then, when the rows hold them, the same of the evaluator's
// scores in each cycle, side by side.
func PrintCalibration(w io.Writer, rows []Row) {
	fmt.Fprintf(w, "%-8s %8s %8s %7s\n", "band", "files", "gold", "gold%")
	for _, c := range Calibrate(rows) {
		fmt.Fprintf(w, "%-8s %8d %8d %6.1f%%\n", c.Band, c.Files, c.GoldInBand, c.GoldShare)
	}
	cycles := CalibrateVerdicts(rows)
	if len(cycles) == 0 {
		return
	}
	fmt.Fprintln(w, "\nthe evaluator's scores in the cycles, by band: files, and the share gold")
	fmt.Fprintf(w, "%-8s", "band")
	for i := range cycles {
		fmt.Fprintf(w, " %16s", fmt.Sprintf("cycle %d", i+1))
	}
	fmt.Fprintln(w)
	for b := range calibrationBands {
		fmt.Fprintf(w, "%-8s", calibrationBands[b].name)
		for _, c := range cycles {
			fmt.Fprintf(w, " %8d %6.1f%%", c[b].Files, c[b].GoldShare)
		}
		fmt.Fprintln(w)
	}
}

// PrintTimings writes, after a blank line, where the runs' time went,
// stage by stage, or nothing when no row timed its stages (BM25's): each
// stage's median and 90th percentile over the rows that timed it, the
// cycles together and one by one. A run's update is its checkout's first
// index, which a user pays once.
func PrintTimings(w io.Writer, rows []Row) {
	var update, task, cycles, rank, history []time.Duration
	var nth [][]time.Duration
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	for _, r := range rows {
		t := r.Timings
		if t == nil {
			continue
		}
		update, task, rank, history = append(update, ms(t.Update)), append(task, ms(t.Task)), append(rank, ms(t.Rank)), append(history, ms(t.History))
		var all int64
		for i, c := range t.Cycles {
			all += c
			if i == len(nth) {
				nth = append(nth, nil)
			}
			nth[i] = append(nth[i], ms(c))
		}
		cycles = append(cycles, ms(all))
	}
	if len(update) == 0 {
		return
	}
	fmt.Fprintf(w, "\ntime by stage over %d runs, median and 90th percentile:\n", len(update))
	line := func(name string, ds []time.Duration) {
		l := latency(ds)
		fmt.Fprintf(w, "  %-24s %4d %7dms %7dms\n", name, l.N, l.Median.Milliseconds(), l.P90.Milliseconds())
	}
	line("update (first index)", update)
	line("task", task)
	line("cycles", cycles)
	for i, ds := range nth {
		line(fmt.Sprintf("  cycle %d", i+1), ds)
	}
	line("ranking", rank)
	line("waiting for the history", history)
}

// PrintMisses writes, for the instances whose gold files are not all in
// the top 5, why: never ranked at all, ranked 6-10, or lower; and what the
// tasks gave beyond prose.
func PrintMisses(w io.Writer, rows []Row) {
	causes := []string{"failed to run", "a gold file is new", "gold never a candidate", "ranked 6-10", "ranked 11 or lower"}
	count := map[string]int{}
	byEv := map[string][2]int{} // evidence -> {instances, misses}
	// The instances that ran whose gold files all exist at the base
	// commit, and those of them with every gold file in the top 5.
	inBase, inBaseHit := 0, 0
	for _, r := range rows {
		worst := worstRank(r)
		miss := worst > 5
		ev := "prose only"
		if len(r.Evidence) > 0 {
			ev = strings.Join(r.Evidence, "+")
		}
		c := byEv[ev]
		c[0]++
		if miss {
			c[1]++
		}
		byEv[ev] = c
		switch {
		case !miss:
		case r.Error != "":
			count[causes[0]]++
		case len(r.Created) > 0:
			count[causes[1]]++
		case worst == math.MaxInt:
			count[causes[2]]++
		case worst <= 10:
			count[causes[3]]++
		default:
			count[causes[4]]++
		}
		if len(r.Created) == 0 && r.Error == "" {
			inBase++
			if !miss {
				inBaseHit++
			}
		}
	}
	fmt.Fprintln(w, "misses at 5, by cause:")
	for _, c := range causes {
		fmt.Fprintf(w, "  %-24s %4d\n", c, count[c])
	}
	if inBase > 0 && inBase < len(rows) {
		// A fix that creates a file is a miss at every k: say what the
		// ranking does where the base commit holds every gold file.
		fmt.Fprintf(w, "  Acc@5 of the %d instances that ran whose gold files all exist at the base commit: %.1f\n",
			inBase, 100*float64(inBaseHit)/float64(inBase))
	}
	fmt.Fprintln(w, "by what the task gives:")
	var evs []string
	for e := range byEv {
		evs = append(evs, e)
	}
	sort.Strings(evs)
	for _, e := range evs {
		c := byEv[e]
		fmt.Fprintf(w, "  %-32s %4d tasks, Acc@5 %5.1f\n", e, c[0], 100*float64(c[0]-c[1])/float64(c[0]))
	}
}

// PackSummary is how the context packs of one budget hold the fixes'
// hunks, over the instances with a hunk a pack can hold.
type PackSummary struct {
	Budget int
	N      int
	Every  float64 // share of them whose pack holds every hunk, in percent
	Any    float64 // share whose pack holds at least one
	Tokens float64 // median tokens of the packs
}

// SummarizePacks computes the pack figures of a set of rows, per budget.
func SummarizePacks(rows []Row) []PackSummary {
	by := map[int][]PackRow{}
	for _, r := range rows {
		for _, p := range r.Packs {
			by[p.Budget] = append(by[p.Budget], p)
		}
	}
	var out []PackSummary
	for _, b := range slices.Sorted(maps.Keys(by)) {
		s := PackSummary{Budget: b}
		var tokens []float64
		for _, p := range by[b] {
			tokens = append(tokens, float64(p.Tokens))
			if p.Hunks == 0 {
				continue
			}
			s.N++
			if p.Held == p.Hunks {
				s.Every++
			}
			if p.Held > 0 {
				s.Any++
			}
		}
		if s.N > 0 {
			s.Every = 100 * s.Every / float64(s.N)
			s.Any = 100 * s.Any / float64(s.N)
		}
		s.Tokens = medianF(tokens)
		out = append(out, s)
	}
	return out
}

// PrintPacks writes the pack figures per budget, if the rows have any.
func PrintPacks(w io.Writer, rows []Row) {
	ps := SummarizePacks(rows)
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(w, "\ncontext packs: instances whose pack holds every gold hunk, at least one (%.0f%% of a hunk's lines), median tokens\n", 100*heldShare)
	fmt.Fprintf(w, "%7s %4s %7s %7s %7s\n", "budget", "n", "every", "any", "tokens")
	for _, p := range ps {
		fmt.Fprintf(w, "%7d %4d %6.1f%% %6.1f%% %7.0f\n", p.Budget, p.N, p.Every, p.Any, p.Tokens)
	}
}

// TestsSummary is how the results' tests to run name the tests the
// changes modified, over the instances whose change modified one.
type TestsSummary struct {
	N int
	// At are the shares of them, in percent, whose first k tests to run
	// (k of 1, 3 and 5) hold one of those tests.
	At map[int]float64
	// Listed is the mean number of tests to run.
	Listed float64
}

// testsK are the k of TestsSummary.At.
var testsK = []int{1, 3, 5}

// SummarizeTests computes the tests-to-run figures of a set of rows.
func SummarizeTests(rows []Row) TestsSummary {
	s := TestsSummary{At: map[int]float64{}}
	var listed int
	for _, r := range rows {
		if len(r.GoldTests) == 0 || r.Error != "" {
			continue
		}
		s.N++
		listed += len(r.Tests)
		first := 0
		for i, t := range r.Tests {
			if slices.Contains(r.GoldTests, t) {
				first = i + 1
				break
			}
		}
		for _, k := range testsK {
			if first > 0 && first <= k {
				s.At[k]++
			}
		}
	}
	if s.N > 0 {
		for k := range s.At {
			s.At[k] = 100 * s.At[k] / float64(s.N)
		}
		s.Listed = float64(listed) / float64(s.N)
	}
	return s
}

// PrintTests writes the tests-to-run figures, if the rows record the
// tests their changes modified.
func PrintTests(w io.Writer, rows []Row) {
	s := SummarizeTests(rows)
	if s.N == 0 {
		return
	}
	fmt.Fprintf(w, "\ntests to run: of %d instances whose change modified a test of the base commit, those with one among the first k (mean %.1f listed)\n", s.N, s.Listed)
	for _, k := range testsK {
		fmt.Fprintf(w, "  first %d: %5.1f%%\n", k, s.At[k])
	}
}

// PrintModel writes what a model evaluator spent over the rows, if any
// row has one: calls, tokens and cost per instance, the instances served
// from the cache alone, and those that fell back to the lexical
// evaluator.
func PrintModel(w io.Writer, rows []Row) {
	var n, calls, cached, judged, failed, fellBack, in, out int
	var cost float64
	name := ""
	var tokens []float64
	for _, r := range rows {
		u := r.Model
		if u == nil {
			continue
		}
		n++
		name = u.Evaluator
		calls += u.Calls
		cached += u.Cached
		judged += u.Judged
		failed += u.Failed
		in += u.InputTokens
		out += u.OutputTokens
		cost += u.CostUSD
		tokens = append(tokens, float64(u.InputTokens+u.OutputTokens))
		if u.Fallback != "" {
			fellBack++
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\nmodel evaluator %s over %d instances: %d calls (%d failed), %d files judged (%d from the cache)\n", name, n, calls, failed, judged, cached)
	fmt.Fprintf(w, "  tokens: %d in, %d out; median %.0f an instance", in, out, medianF(tokens))
	if cost > 0 {
		fmt.Fprintf(w, "; cost $%.4f, $%.5f an instance", cost, cost/float64(n))
	}
	fmt.Fprintf(w, "\n  fell back to the lexical evaluator: %d instances\n", fellBack)
}

// overZoekt indexes the tree into the cluster, waits until it is served,
// and retrieves over it, in work; it returns the result, the folder its
// paths are in, and the milliseconds the indexing took.
func overZoekt(ctx context.Context, z *ZoektBench, tree, work, task string, opts hone.Options) (*hone.Result, string, int64, error) {
	start := time.Now()
	cmd := exec.CommandContext(ctx, "sh", "-c", strings.ReplaceAll(z.IndexCmd, "{tree}", tree))
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, "", 0, fmt.Errorf("index the tree for zoekt: %v: %s", err, lastLine(string(out)))
	}
	c, err := zoekt.New(z.URL, []string{filepath.Base(tree)})
	if err != nil {
		return nil, "", 0, err
	}
	if err := c.WaitIndexed(ctx, filepath.Base(tree), start.Add(-time.Second), time.Minute); err != nil {
		return nil, "", 0, err
	}
	indexed := time.Since(start).Milliseconds()
	os.RemoveAll(work)
	defer os.RemoveAll(filepath.Join(work, "index"))
	res, err := retrieve.RetrieveFrom(ctx, c, filepath.Join(work, "tree"), filepath.Join(work, "index"), task, opts)
	return res, filepath.Join(work, "tree"), indexed, err
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
