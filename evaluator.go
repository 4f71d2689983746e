package hone

import "context"

// An Evaluator is the loop's second stage: it judges the candidate files
// a cycle's search found. The default is a lexical evaluator, which reads
// the index; a model-backed one can take its place through
// Options.Evaluator. Such an evaluator gets its requests with the
// secrets hidden, as everything hone prints or sends.
type Evaluator interface {
	// Evaluate returns one evaluation per candidate, in any order. Each
	// has the candidate's Path, a Score in 0..1 (the bands of
	// Evaluation.Score; it need not be rounded), a Reason and, when
	// known, the MissingContext. A candidate left out counts as
	// irrelevant. An error ends the run.
	Evaluate(ctx context.Context, req EvaluateRequest) ([]Evaluation, error)
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
}

// Candidate is a file a cycle's search found.
type Candidate struct {
	Path string `json:"path"`
	// Near is its closeness, in 0..1, to the files already judged
	// relevant in the graph of calls and imports, scaled by their
	// relevance; 0 when it has no tie to them.
	Near float64 `json:"near,omitempty"`
}
