// Package hone finds the code context a coding agent needs for a task.
//
// It runs the iterative retrieval loop: dispatch a broad search, evaluate
// each candidate file's relevance to the task, refine the query with the
// codebase's own vocabulary and the gaps the relevant files leave, and loop
// until enough highly relevant files are in hand. This package holds the
// API's types alone (Options, Result, Evaluator, ...); the loop runs in
// package retrieve, whose Retrieve is the entry point. The result carries
// a trace of every cycle.
package hone

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ThresholdText writes a threshold as the outputs write relevances, to two
// places, or with all its places where it has more: a threshold of 0.664
// is not "0.66", which a file at 0.66 does not reach.
func ThresholdText(t float64) string {
	if c := t * 100; math.Abs(c-math.Round(c)) < 1e-9 {
		return fmt.Sprintf("%.2f", t)
	}
	return strconv.FormatFloat(t, 'f', -1, 64)
}

// Defaults of the loop.
const (
	DefaultMaxCycles = 3
	// MaxCycles bounds Options.MaxCycles.
	MaxCycles         = 10
	DefaultThreshold  = 0.7
	DefaultCandidates = 25
	// MaxCandidates bounds Options.Candidates: a cycle evaluates no more
	// files than a large repository's search can rank.
	MaxCandidates = 10000
	// DefaultMaxFiles bounds the result's files.
	DefaultMaxFiles = 10
	// SufficientFiles is how many files at or above the threshold let the
	// loop stop early, when no critical gap is left.
	SufficientFiles = 3
	// SettledFiles is how many of the ranking's best files a cycle must
	// leave as the cycle before left them, in the same order, for the
	// loop to stop as making no progress: as many as the result holds at
	// most by default (DefaultMaxFiles), whatever Options.MaxFiles says.
	SettledFiles = 10
	// ExcludeBelow: files the evaluator scores under it are excluded for
	// the rest of the run.
	ExcludeBelow = 0.2
)

// Query is what one cycle dispatches.
type Query struct {
	// Keywords are stemmed search terms: the task's own, then those learned
	// from the codebase. Terms holds them with their weights.
	Keywords []string `json:"keywords"`
	// Terms are the search terms: each way of saying each of the task's
	// concepts, then the terms learned from the codebase. The search
	// weighs a form by its concept's Weight times its Discount, an
	// identifier as written more, a learned term less.
	Terms []Term `json:"terms"`
	// Patterns are globs of the files to search. Empty means all source files.
	// Those the caller gives are a hard filter; those refine learns (where
	// the relevant files live) narrow the keyword search, while gap searches
	// still reach the whole repository.
	Patterns []string `json:"patterns"`
	// Excludes are globs or paths never evaluated again in this run.
	Excludes []string `json:"excludes"`
	// FocusAreas name the missing context the cycle aims at: definitions a
	// relevant file needs, and task concepts no relevant file covers yet.
	// They are the names of the open Gaps.
	FocusAreas []string `json:"focus_areas"`
	// Gaps are the open gaps the cycle aims at: the files they name are
	// dispatched first, and a concept gap is searched for on its own.
	Gaps []Gap `json:"gaps"`
	// Expand are the best files so far: the files one hop from them along
	// imports and calls are dispatched too.
	Expand []string `json:"expand"`
	// Named are the files the task names, by path or dotted module path:
	// the first cycle dispatches them before anything else.
	Named []string `json:"named"`
	// Probes are the words refine learned in the cycle before (the
	// synonyms the codebase uses, the terms of the relevant files): each
	// is searched on its own, with its own share of the candidates, for
	// files not evaluated yet.
	Probes []string `json:"probes"`
	// SkipKinds are kinds of file left out of the search: tests (unless the
	// task is about tests), vendored, generated and secret-bearing files.
	SkipKinds []string `json:"skip_kinds"`
}

// Term is one way of saying one thing a query looks for.
type Term struct {
	// Concept is the label of the task concept the term says; a learned
	// term's own label.
	Concept string `json:"concept"`
	// Kind is the concept's kind ("identifier", "path" or "word"), or
	// "learned" for a term learned from the codebase.
	Kind string `json:"kind"`
	// Stems must all occur in a file for the term to match it.
	Stems []string `json:"stems"`
	// Label is the term as the task or the code writes it.
	Label string `json:"label"`
	// Weight is the concept's importance in 0..1; a learned term's
	// association with the task.
	Weight float64 `json:"weight"`
	// Discount is what a match of this form counts for against one of
	// the task's own words: 1 for those, less for synonyms and
	// translations.
	Discount float64 `json:"discount"`
	// Source is where the form comes from: "task", "glossary" (a
	// translation), "synonym", "vocabulary" (a code term public code's
	// documentation and commits tie to a task word), "feedback" (the
	// relevant files' lines) or "thesaurus" (the repository's term
	// associations: its identifiers, doc comments and prose).
	Source string `json:"source"`
	// Files, for a path, are the repository files it names.
	Files []string `json:"files,omitempty"`
}

// Evaluation is an evaluator's verdict on one file, in one cycle.
type Evaluation struct {
	Path string `json:"path"`
	// Score is the evaluator's verdict, in 0..1: 0.8-1.0 directly
	// implements the target; 0.5-0.8 related patterns or types; 0.2-0.5
	// tangential; below 0.2 irrelevant. It steers the loop; the result's
	// Relevance, which weighs every cycle's evidence, is what to act on.
	Score float64 `json:"score"`
	// Relevance is the file's relevance in the result, on the result's
	// scale (File.Relevance): the probability that the task needs the
	// file, weighing every cycle's evidence. The evaluator's Score is no
	// probability: of the files the lexical evaluator scores 0.8 or more
	// in a third cycle, 5-15% are changed by the fix, on the benchmark
	// sets. An evaluator fills in Score alone; the loop sets Relevance
	// when it ranks.
	Relevance float64 `json:"relevance"`
	// Reason says which task concepts matched, and where.
	Reason string `json:"reason"`
	// MissingContext lists what the file needs that is not yet in hand.
	MissingContext []string `json:"missing_context"`
	// Cycle is the cycle that found the file: the first in which it reached
	// the threshold, or below it, the one that gave its best score.
	Cycle int `json:"cycle"`
	// ModelScore is a model's own verdict, when one judged the file;
	// Score is then the lexical verdict joined with it (JoinScores).
	ModelScore *float64 `json:"model_score,omitempty"`
	// Terms are the codebase's own words for what the task is about, as
	// a model named them in the file: refine searches for them.
	Terms []string `json:"terms,omitempty"`
}

// File is one of the result's files.
type File struct {
	Path string `json:"path"`
	// Relevance is the probability, in 0..1, that the task needs this
	// file, to change it or to read it, judged for each file on its own
	// and calibrated on benchmarks whose changes are known: of the files
	// at 0.8, about 8 in 10 are needed. Several files can each be high.
	// The bands: 0.8-1.0 direct, 0.5-0.8 related, 0.2-0.5 tangential.
	// Where a model judged the file, its verdict joins the calibrated
	// probability (JoinScores), and the join is not calibrated.
	Relevance float64 `json:"relevance"`
	// Role says what the file is for: "target", to change; "context",
	// to read, as a target calls or imports it; "test", a test of the
	// change.
	Role string `json:"role"`
	// Score is the evaluator's best verdict on it, over the cycles.
	Score float64 `json:"score"`
	// Reason says which task concepts matched, and where.
	Reason string `json:"reason"`
	// MissingContext lists what the file needs that is not among the
	// result's files.
	MissingContext []string `json:"missing_context"`
	// Cycle is the cycle that found the file; a file that only the
	// ranking's last search found, after the cycles, has the last
	// cycle's number and is in no cycle's Evaluated.
	Cycle int `json:"cycle"`
	// ModelScore is a model's best verdict on the file, when one judged
	// it; Relevance then joins it (JoinScores).
	ModelScore *float64 `json:"model_score,omitempty"`
	// Spans are the line ranges that matter.
	Spans []Span `json:"spans"`
}

// The roles of the result's files.
const (
	RoleTarget  = "target"
	RoleContext = "context"
	RoleTest    = "test"
)

// Concept is one thing the task is about.
type Concept struct {
	Label string `json:"label"`
	// Kind is "identifier", "path" or "word".
	Kind string `json:"kind"`
	// Weight is the concept's importance in 0..1: rarer in the repository,
	// and named as code rather than prose, weighs more.
	Weight float64 `json:"weight"`
	// Terms are the stemmed terms that match it, the task's own first, then
	// synonyms and translations.
	Terms []string `json:"terms"`
}

// Ranked is one entry of the full ranking.
type Ranked struct {
	Path string `json:"path"`
	// Relevance is the file's, as File.Relevance says.
	Relevance float64 `json:"relevance"`
	// Signals are the evidence the ranking weighed, in the order of
	// retrieve.SignalNames; only when Options.Signals asks for them.
	Signals []float64 `json:"signals,omitempty"`
}

// Cycle is the trace of one pass of the loop.
type Cycle struct {
	N         int          `json:"n"`
	Query     Query        `json:"query"`
	Evaluated []Evaluation `json:"evaluated"`
	// LearnedKeywords are the terms refine learned from the codebase: those
	// that go with the task in the relevant files, then the synonyms of task
	// concepts that the code uses (also in LearnedSynonyms).
	LearnedKeywords []string  `json:"learned_keywords"`
	LearnedSynonyms []Synonym `json:"learned_synonyms"`
	// LearnedRelated are the learned keywords the repository's thesaurus
	// ties to a task word: they stand together in its identifiers, comments
	// and docstrings.
	LearnedRelated  []Related `json:"learned_related"`
	LearnedPatterns []string  `json:"learned_patterns"`
	Excluded        []string  `json:"excluded"`
	// ModelUsage is what a model evaluator spent in the cycle. What it
	// spent on the files the ranking weighs after the last cycle is in
	// no cycle's: Result.Evaluator counts it with the rest.
	ModelUsage *Usage `json:"model_usage,omitempty"`
	// Gaps are the missing context refine found, aimed at by the next cycle.
	Gaps []Gap `json:"gaps"`
}

// Related is a learned keyword that the repository's thesaurus ties to a
// task word.
type Related struct {
	Term string `json:"term"`
	// With is the task word it stands with most, in Files files.
	With  string `json:"with"`
	Files int    `json:"files"`
}

// Synonym is a general synonym of a task concept that the codebase uses.
type Synonym struct {
	Term string `json:"term"`
	For  string `json:"for"`
}

// Gap is context the relevant files need and the run does not yet have.
type Gap struct {
	// Name is what the next cycle looks for: a definition's name, or a task
	// concept.
	Name string `json:"name"`
	// Kind is "call" (relevant code calls it), "import" (a relevant file
	// imports a file not yet evaluated), "concept" (a task concept no
	// relevant file covers) or "model" (a model judging a file named it
	// as missing context).
	Kind string `json:"kind"`
	// From is the relevant file that needs it; empty for concepts.
	From string `json:"from,omitempty"`
	// Where is the file expected to hold it, when known.
	Where string `json:"where,omitempty"`
	// Critical gaps keep the loop from stopping as sufficient: the
	// relevant code calls into them, or the task names them and nothing
	// covers them. A cycle that leaves the ranking's best files as they
	// were still ends it (StopNoProgress).
	Critical bool `json:"critical"`
}

// StopReason says why the loop stopped.
type StopReason string

// The reasons the loop stops.
const (
	StopSufficient StopReason = "sufficient"  // enough relevant files, no critical gap
	StopNoProgress StopReason = "no_progress" // a cycle found nothing new, or left the ranking's best files as they were
	StopMaxCycles  StopReason = "max_cycles"  // the cycle budget ran out
)

// Result is the outcome of a run.
type Result struct {
	// Version is hone's; JSONVersion the output's (see JSONVersion).
	Version     string `json:"version"`
	JSONVersion int    `json:"json_version"`
	Task        string `json:"task"`
	Repo        string `json:"repo"`
	// Language is the repository's main language, the language most of
	// its own code is written in: the ranking model weighs the signals
	// with its set for that language, or with its own weights when no
	// set lists it.
	Language string `json:"language,omitempty"`
	// Concepts are what hone understood the task to be about, most
	// important first, with the ways the code may say each.
	Concepts []Concept `json:"concepts"`
	// Files are the files whose relevance reaches the threshold, over all
	// cycles, best first, MaxFiles at most. When none does, they are the
	// best few, as many as the evidence supports, and Notice says so;
	// none, when no file holds any of the task's words and no past commit
	// like it changed one.
	Files []File `json:"files"`
	// RelatedTests are the tests that exercise the files: what to run
	// after changing them.
	RelatedTests []RelatedTest `json:"related_tests"`
	// PastCommits are the commits of the repository's history whose
	// messages are most like the task, best first: what changed for tasks
	// like this one. None outside a git repository.
	PastCommits []PastCommit `json:"past_commits,omitempty"`
	// Ranking lists every file evaluated in the run, best first.
	Ranking    []Ranked   `json:"ranking"`
	Cycles     []Cycle    `json:"cycles"`
	StopReason StopReason `json:"stop_reason"`
	// Notice explains an empty or doubtful result in one sentence.
	Notice    string  `json:"notice,omitempty"`
	Threshold float64 `json:"threshold"`
	ElapsedMS int64   `json:"elapsed_ms"`
	// Timings says where ElapsedMS went.
	Timings Timings `json:"timings_ms"`
	// Evaluator is what a model evaluator spent in the run, when one
	// joined the lexical one; nil without one. It is the cycles'
	// ModelUsage and what the ranking's last search spent, after them.
	Evaluator *Usage `json:"evaluator,omitempty"`
	// Redacted counts the secrets hidden in this result and its outputs,
	// each replaced by a placeholder that names its kind, such as
	// "[redacted: aws-access-token]".
	Redacted int `json:"redacted"`
}

// Timings is where a run's wall time went, in milliseconds: its stages,
// one after the other, so that a slow answer says which stage to look at.
// Together they are Result.ElapsedMS but for what comes after the
// ranking (the commits shown, a check that the files can still be read).
type Timings struct {
	// Update is the time before the loop: bringing the index up to date
	// (for a first index, building it), or none where the caller keeps
	// the index (retrieve.RetrieveIndex, hone serve).
	Update int64 `json:"update"`
	// Task is reading the task: its concepts, and the evidence it gives.
	Task int64 `json:"task"`
	// Cycles are the cycles', in order: each one's search, evaluation and
	// refinement.
	Cycles []int64 `json:"cycles"`
	// Rank is the last search, for the ranking alone, and the ranking.
	Rank int64 `json:"rank"`
	// History is how long, of the stages' time, the loop waited for the
	// repository's git history, which is read beside the update and the
	// loop, and which the ranking needs.
	History int64 `json:"history"`
}

// Options tunes a run. The zero value gives the defaults.
type Options struct {
	MaxCycles  int     // default DefaultMaxCycles
	Threshold  float64 // the relevance a result's file needs, and the evaluator's score the loop counts as relevant; default DefaultThreshold
	Candidates int     // files evaluated per cycle at most; default DefaultCandidates
	MaxFiles   int     // the result's files at most, its context files counted; default DefaultMaxFiles
	// Evaluator joins the lexical evaluator, which judges every cycle's
	// candidates and needs nothing but the index: nil, the default, means
	// the lexical one alone. See Evaluator.
	Evaluator Evaluator
	Include   []string // globs: only these files are searched
	Exclude   []string // globs or paths never searched
	// MaxFileSize skips larger files; 0 means 1 MiB, less than 0 no
	// limit. An index holds the files of one limit: two callers that
	// share IndexDir with different limits index again in turn.
	MaxFileSize int64
	// IndexDir holds the indexes; empty means $HONE_INDEX_DIR, else the
	// user's cache directory.
	IndexDir string
	// Notice, if set, receives one-line notices, such as an index rebuilt.
	Notice func(string)
	// Progress, if set, hears how the index's update goes: files read of
	// those to read, and their bytes.
	Progress func(done, total int, bytes int64)
	// Signals asks for each ranked file's signals, to explain the ranking
	// or to fit its weights.
	Signals bool
	// NoHistory leaves the repository's git history out: no past commit
	// like the task points to the files it changed.
	NoHistory bool
	// GitDir and Rev say whose history to read when the repository is not
	// a git work tree checked out at the revision (a benchmark's checkout
	// of a bare mirror): empty GitDir means the git repository enclosing
	// the repository, empty Rev its HEAD. A relative GitDir is the
	// caller's, as a relative repository is, not the repository's.
	GitDir, Rev string
}

// ErrEmptyTask is returned for a task with no text.
var ErrEmptyTask = errors.New("the task is empty: say what you need context for")

// ErrNothingToSearch is returned for a task with no word or name to search
// for: punctuation, numbers, single letters.
var ErrNothingToSearch = errors.New("the task has no words or names hone can search for: describe it with the names of the things involved, e.g. \"fix the token expiry bug\"")

// ErrNotText is TaskText's error for a task of bytes that are not UTF-8,
// or U+FFFD that stands for them, and nothing else.
var ErrNotText = errors.New("the task is not text: it holds only bytes that are not UTF-8, or the replacement character (U+FFFD) that stands for them; give the task as UTF-8 text")

// ErrTaskTooLong is returned for a task over MaxTaskBytes.
var ErrTaskTooLong = fmt.Errorf("the task is over %d bytes: shorten it to the issue text and the stack trace", MaxTaskBytes)

// TaskText makes a task valid UTF-8, each run of bytes that are not UTF-8
// becoming U+FFFD, so that none reaches a terminal or a prompt as it came.
// A task with nothing else, spaces and U+FFFD aside, is ErrNotText; an
// empty one is returned as it is, for the caller's ErrEmptyTask.
func TaskText(task string) (string, error) {
	task = strings.ToValidUTF8(task, "\uFFFD")
	if strings.TrimSpace(task) != "" && strings.TrimSpace(strings.ReplaceAll(task, "\uFFFD", "")) == "" {
		return task, ErrNotText
	}
	return task, nil
}

// OptionError reports an option out of range: Option names its field of
// Options (MaxFiles, Include), for a caller that branches on it; Msg says
// what is wrong in the terms a user sets it in.
type OptionError struct {
	Option string
	Msg    string
}

func (e *OptionError) Error() string { return e.Msg }

func optionErr(option, format string, args ...any) error {
	return &OptionError{Option: option, Msg: fmt.Sprintf(format, args...)}
}

// WithDefaults fills in the defaults of the zero fields, then checks
// every option.
func (o Options) WithDefaults() (Options, error) {
	if o.MaxCycles == 0 {
		o.MaxCycles = DefaultMaxCycles
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Candidates == 0 {
		o.Candidates = DefaultCandidates
	}
	if o.MaxFiles == 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	return o, o.Check()
}

// Check reports the first option out of range, in the terms a user sets
// it in. A zero is out of range here: WithDefaults reads it as the
// default, a command line as a mistake.
func (o Options) Check() error {
	if o.MaxFiles < 1 {
		return optionErr("MaxFiles", "max files must be at least 1, not %d", o.MaxFiles)
	}
	if o.MaxCycles < 1 || o.MaxCycles > MaxCycles {
		return optionErr("MaxCycles", "max cycles must be between 1 and %d, not %d", MaxCycles, o.MaxCycles)
	}
	if !(o.Threshold > 0 && o.Threshold <= 1) { // NaN too
		return optionErr("Threshold", "threshold must be in (0, 1], not %g", o.Threshold)
	}
	if o.Candidates < 1 || o.Candidates > MaxCandidates {
		return optionErr("Candidates", "candidates must be between 1 and %d, not %d", MaxCandidates, o.Candidates)
	}
	for i, g := range append(append([]string{}, o.Include...), o.Exclude...) {
		option := "Include"
		if i >= len(o.Include) {
			option = "Exclude"
		}
		if g == "" {
			return optionErr(option, "an empty glob matches no file: leave it out")
		}
		if !validGlob(g) {
			return optionErr(option, "bad glob %q: check its brackets and braces", g)
		}
	}
	return nil
}

// PastCommit is a commit whose message is like the task.
type PastCommit struct {
	Hash    string   `json:"hash"`
	Subject string   `json:"subject"`
	Files   []string `json:"files"` // the files it changed, ten at most
	Score   float64  `json:"score"` // its message's match to the task, 1 for the best
	// Relevance is on the files' scale: the relevance of the most
	// relevant file it changed, the chance that it touched what the task
	// needs.
	Relevance float64 `json:"relevance"`
	// Named: the task names this commit, by its hash or by an issue or
	// pull request its subject cites.
	Named bool `json:"named,omitempty"`
}

// Span is a range of lines of a file that matters for the task.
type Span struct {
	Start  int    `json:"start"` // first line, 1-based
	End    int    `json:"end"`   // last line, inclusive
	Symbol string `json:"symbol"`
	// Why is "match" (a definition named for the task), "callee" (a
	// definition that files in hand call) or "caller" (a definition that
	// calls into files in hand).
	Why string `json:"why"`
}

// RelatedTest is a test file that exercises the result's files: what an
// agent should run after changing them.
type RelatedTest struct {
	Path string `json:"path"`
	// For are the result's files it exercises: none for a test listed
	// for matching the task alone.
	For []string `json:"for"`
	// Reason says how it was found: named for the file, importing it,
	// calling its definitions, or matching the task.
	Reason string `json:"reason"`
}
