package mcpserver

import (
	"context"
	"fmt"

	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/pack"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RetrieveParams are retrieve_context's arguments.
type RetrieveParams struct {
	Task         string   `json:"task" jsonschema:"what you need context for, in plain words; a whole issue with stack traces is fine, and so are the flags, error codes, commit hashes and issue numbers (#123) it cites"`
	BudgetTokens int      `json:"budget_tokens,omitempty" jsonschema:"most tokens the context pack may hold (default 6000, at most 20000)"`
	MaxCycles    int      `json:"max_cycles,omitempty" jsonschema:"retrieval cycles at most (1-10, default 3)"`
	MaxFiles     int      `json:"max_files,omitempty" jsonschema:"target files at most (default 10)"`
	Include      []string `json:"include,omitempty" jsonschema:"search only files matching these globs, e.g. src/**/*.ts"`
	Exclude      []string `json:"exclude,omitempty" jsonschema:"never search files matching these globs or under these paths"`
}

// RetrieveFile is one file of retrieve_context's structured result.
type RetrieveFile struct {
	Path           string      `json:"path"`
	Relevance      float64     `json:"relevance"` // the probability the task needs the file
	Role           string      `json:"role"`      // target, context or test
	Reason         string      `json:"reason"`
	MissingContext []string    `json:"missing_context"`
	Spans          []hone.Span `json:"spans,omitempty"`
}

// RetrieveResult is retrieve_context's structured result.
type RetrieveResult struct {
	Files        []RetrieveFile     `json:"files"`
	RelatedTests []hone.RelatedTest `json:"related_tests"`
	// PastCommits are the commits whose messages are most like the task.
	PastCommits []hone.PastCommit `json:"past_commits,omitempty"`
	StopReason  string            `json:"stop_reason"`
	Notice      string            `json:"notice,omitempty"`
	// Omitted lists what the pack left out for its budget.
	Omitted  []string `json:"omitted"`
	Tokens   int      `json:"tokens"`
	Redacted int      `json:"redacted"`
}

const defaultBudget = 6000

func (s *Server) addRetrieveContext(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name: "retrieve_context",
		Description: "Find the files that matter for a task and return a context pack: the files, each with its relevance (the probability the task needs it) and role (target to change, context to read, test), " +
			"why each matters, what each still misses, the tests to run, the past commits most like the task or named in it, and their code within a token budget: the definitions most likely to need the change, whole, then the rest by worth per token, with what did not fit listed by path and line range. " +
			"Use it first, before reading files one by one.",
	}, s.retrieveContext)
}

func (s *Server) retrieveContext(ctx context.Context, req *mcp.CallToolRequest, in RetrieveParams) (*mcp.CallToolResult, RetrieveResult, error) {
	if err := checkLen("the task", in.Task, maxTaskBytes); err != nil {
		return nil, RetrieveResult{}, fmt.Errorf("%w: give the issue's text and its stack trace, not whole logs or files", err)
	}
	// JSON holds no bytes that are not UTF-8, but its escapes of lone
	// surrogates arrive as U+FFFD: a task of nothing else is no text.
	task, err := hone.TaskText(in.Task)
	if err != nil {
		return nil, RetrieveResult{}, err
	}
	if err := checkGlobs("include", in.Include); err != nil {
		return nil, RetrieveResult{}, err
	}
	if err := checkGlobs("exclude", in.Exclude); err != nil {
		return nil, RetrieveResult{}, err
	}
	budget := in.BudgetTokens
	if budget <= 0 {
		budget = defaultBudget
	}
	budget = min(budget, maxAnswerTokens)
	ix, release, err := s.index(ctx, req.Session)
	if err != nil {
		return nil, RetrieveResult{}, err
	}
	defer release()
	res, err := retrieve.RetrieveIndex(ctx, ix, task, hone.Options{MaxCycles: in.MaxCycles, MaxFiles: max(in.MaxFiles, 0), Include: in.Include, Exclude: in.Exclude,
		IndexDir: s.indexDir, Notice: func(n string) { s.log.Info(n) }})
	if err != nil {
		return nil, RetrieveResult{}, err
	}
	p := pack.Build(res, ix.Root, pack.Options{Budget: budget, BudgetName: "budget_tokens"})
	out := RetrieveResult{Files: []RetrieveFile{}, RelatedTests: res.RelatedTests, PastCommits: res.PastCommits, StopReason: string(res.StopReason), Notice: res.Notice, Omitted: p.Omitted, Tokens: p.Tokens, Redacted: p.Redacted}
	for _, f := range res.Files {
		out.Files = append(out.Files, RetrieveFile{Path: f.Path, Relevance: f.Relevance, Role: f.Role, Reason: f.Reason, MissingContext: f.MissingContext, Spans: f.Spans})
	}
	text := p.Text
	if len(p.Omitted) > 0 {
		text += "\n(The pack was cut to its budget: raise budget_tokens, or read what was left out with read_span.)\n"
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}
