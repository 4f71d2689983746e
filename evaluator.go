package hone

import "context"

// An Evaluator is the loop's second stage: it judges the candidate files
// a cycle's search found. The built-in one is lexical: it reads the index,
// and it judges every candidate of every run. Another, such as a model's
// (package modeleval), joins it through Options.Evaluator: it gets the
// candidates with the lexical verdicts, judges those it chooses, and the
// loop joins its verdicts with the lexical ones (JoinScores). Such an
// evaluator gets its requests with the secrets hidden, as everything hone
// prints or sends.
type Evaluator interface {
	// Evaluate returns evaluations of some of the candidates, in any
	// order. Each has the candidate's Path, a Score in 0..1 (the bands of
	// Evaluation.Score; it need not be rounded), a Reason and, when
	// known, the MissingContext and the codebase's own Terms for what the
	// task is about. A candidate left out keeps its lexical verdict
	// alone; an evaluation of a file that was no candidate is dropped, and
	// of two evaluations of one file the first counts. An error other than the context's leaves the rest of the run
	// to the lexical evaluator, with a notice: a retrieve never fails
	// because a model did. Evaluations returned beside such an error still
	// count, for this request: a model that judged some of the files
	// before a call failed keeps those verdicts.
	Evaluate(ctx context.Context, req EvaluateRequest) ([]Evaluation, error)
}

// JoinWeight is the share of a model's verdict in a file's score and in
// its relevance, where a model judged the file; the lexical evidence
// keeps the rest. It is set by reasoning, not fit: no model could be
// reached where hone is measured.
const JoinWeight = 0.5

// JoinScores joins the lexical evidence on a file, in 0..1, with a
// model's verdict on it, in 0..1.
func JoinScores(lexical, model float64) float64 {
	return (1-JoinWeight)*lexical + JoinWeight*model
}

// A Metered evaluator says what it has spent so far: the loop reads it
// after each call, for the trace and the result.
type Metered interface {
	Usage() Usage
}

// Usage is what a model evaluator spent: its calls, and their tokens as
// the endpoint counted them (or, where it does not say, as hone's
// tokenizer does).
type Usage struct {
	// Evaluator names it: "openai:gpt-4.1", "anthropic:claude-…",
	// "sampling:MODEL".
	Evaluator string `json:"evaluator"`
	// Calls are the calls made; Cached the files whose verdicts came from
	// the cache, with no call; Failed the calls that failed after their
	// retries; Retries the calls retried.
	Calls   int `json:"calls"`
	Cached  int `json:"cached"`
	Failed  int `json:"failed"`
	Retries int `json:"retries"`
	// Judged are the files judged, by a call or from the cache.
	Judged       int `json:"judged"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CostUSD is the calls' cost at the prices the user gave; 0 when none
	// was given.
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Fallback, when set, says why the rest of the run was judged by the
	// lexical evaluator alone.
	Fallback string `json:"fallback,omitempty"`
}

// Sub is what u spent beyond before, for one cycle.
func (u Usage) Sub(before Usage) Usage {
	return Usage{
		Evaluator: u.Evaluator, Calls: u.Calls - before.Calls, Cached: u.Cached - before.Cached,
		Failed: u.Failed - before.Failed, Retries: u.Retries - before.Retries, Judged: u.Judged - before.Judged,
		InputTokens: u.InputTokens - before.InputTokens, OutputTokens: u.OutputTokens - before.OutputTokens,
		CostUSD: u.CostUSD - before.CostUSD, Fallback: u.Fallback,
	}
}

// An Excerpter gives a candidate's excerpt: what a model reads of it.
type Excerpter interface {
	// Excerpt gives the file's path, its outline and its lines that
	// matter most for the task, within maxTokens, with the secrets
	// hidden. A file that holds secrets, or a credentials file, is
	// withheld: its excerpt has Withheld set and no text.
	Excerpt(path string, maxTokens int) (Excerpt, error)
}

// Excerpt is what a model reads of a file.
type Excerpt struct {
	Path string
	// Text is the outline, then the chosen lines, each with its number,
	// within the budget asked for, at about four bytes a token.
	Text string
	// Withheld says why the file is not shown: "holds secrets".
	Withheld string
}

// EvaluateRequest is what an evaluator knows when it judges a cycle.
type EvaluateRequest struct {
	// Task is the task as the loop reads it: an issue template's hidden
	// instructions and environment reports taken out.
	Task string
	// Cycle is the cycle's number, from 1; 0 after the loop, when the
	// ranking has the files it weighs beside the cycles' judged (the next
	// best of the first search, the best for the task's first line, the
	// files the matching tests exercise and those defining what the task
	// names).
	Cycle int
	// Query is the query the cycle dispatched; after the loop, the last
	// query refine made, for its vocabulary.
	Query Query
	// Candidates are the files its search found.
	Candidates []Candidate
	// Relevant are the files judged at or above the threshold in earlier
	// cycles, best first, with their best evaluation.
	Relevant []Evaluation
	// Gaps are the missing context found so far: a candidate that a
	// relevant file needs should be judged with that in mind.
	Gaps []Gap
	// Lexical are the lexical evaluator's verdicts on the candidates, in
	// the candidates' order, which is theirs, best first.
	Lexical []Evaluation
	// Excerpts reads the candidates for a model: outline and best lines.
	Excerpts Excerpter
}

// Candidate is a file a cycle's search found.
type Candidate struct {
	Path string `json:"path"`
	// Near is its closeness, in 0..1, to the files already judged
	// relevant in the graph of calls and imports, scaled by their
	// relevance; 0 when it has no tie to them.
	Near float64 `json:"near,omitempty"`
}

// A Backend searches beyond the embedded index: a cluster's code search,
// such as zoekt's (package zoekt). The loop runs over the files it finds,
// which hone reads, outlines and ranks as it does a repository's own;
// RetrieveFrom in package retrieve drives it.
type Backend interface {
	// Name says where it searches, as the result's Repo.
	Name() string
	// Find returns up to Limit files for each search it makes of the
	// request, whole, each named by its repository and its path there.
	Find(ctx context.Context, req FindRequest) ([]FoundFile, error)
}

// FindRequest is what a Backend is asked for.
type FindRequest struct {
	// Task is the task, redacted; Query, when set, the query a run came
	// to, whose concepts, learned terms and gaps each make a search. The
	// first search of a task has only the task.
	Task  string
	Query *Query
	// Folders, when set, are asked for their files instead: each as
	// REPO/FOLDER, the folders of the files a first pass found best, so
	// that their neighbours join them.
	Folders []string
	// First marks a run's first search: a backend may find a small
	// repository whole then, once a run.
	First bool
	// Include and Exclude are the caller's globs, on paths in their
	// repositories.
	Include, Exclude []string
	Limit            int
}

// FoundFile is a file a Backend found.
type FoundFile struct {
	Repo, Path string
	Content    []byte
}
