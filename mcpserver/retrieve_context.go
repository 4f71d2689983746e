package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/warm"
	"github.com/hone-tools/hone/modeleval"
	"github.com/hone-tools/hone/pack"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// RetrieveParams are retrieve_context's arguments.
type RetrieveParams struct {
	Task         string   `json:"task" jsonschema:"what you need context for, in plain words; a whole issue with stack traces is fine, and so are the flags, error codes, commit hashes and issue numbers (#123) it cites"`
	BudgetTokens int      `json:"budget_tokens,omitempty" jsonschema:"most tokens the context pack may hold (at most 20000; 0 or left out: 6000)"`
	MaxCycles    int      `json:"max_cycles,omitempty" jsonschema:"retrieval cycles at most (1-10; 0 or left out: 3)"`
	MaxFiles     int      `json:"max_files,omitempty" jsonschema:"the result's files at most, targets, tests and the context files they need counted (0 or left out: 10)"`
	Include      []string `json:"include,omitempty" jsonschema:"search only files matching these globs, e.g. src/**/*.ts"`
	Exclude      []string `json:"exclude,omitempty" jsonschema:"never search files matching these globs or under these paths"`
	UseMyModel   bool     `json:"use_my_model,omitempty" jsonschema:"have your own model judge each cycle's best candidates, through MCP sampling (your client may ask its user to approve each request; the files' excerpts, with secrets hidden, go to your model); off by default"`
}

// RetrieveFile is one file of retrieve_context's structured result.
type RetrieveFile struct {
	Path           string      `json:"path"`
	Relevance      float64     `json:"relevance"` // the probability the task needs the file
	Role           string      `json:"role"`      // target, context or test
	Reason         string      `json:"reason"`
	MissingContext []string    `json:"missing_context"`
	Spans          []hone.Span `json:"spans,omitempty"`
	// ModelScore is a model's verdict, when one judged the file.
	ModelScore *float64 `json:"model_score,omitempty"`
}

// RetrieveResult is retrieve_context's structured result.
type RetrieveResult struct {
	Files        []RetrieveFile     `json:"files"`
	RelatedTests []hone.RelatedTest `json:"related_tests"`
	// PastCommits are the commits whose messages are most like the task.
	PastCommits []hone.PastCommit `json:"past_commits,omitempty"`
	StopReason  string            `json:"stop_reason"`
	Notice      string            `json:"notice,omitempty"`
	// Pack is the context pack, the answer's text: the files, why each
	// matters, and their code within the budget. Some clients hand the
	// model the structured form alone, so it holds the text too.
	Pack string `json:"pack"`
	// Omitted lists what the pack left out for its budget, the most worth
	// first, as many as a quarter of the budget holds (and the answer's
	// size leaves room for); OmittedMore counts the rest.
	Omitted     []string `json:"omitted"`
	OmittedMore int      `json:"omitted_more,omitempty"`
	Tokens      int      `json:"tokens"`
	Redacted    int      `json:"redacted"`
	// Model is what a model evaluator spent, when one judged.
	Model *hone.Usage `json:"model,omitempty"`
}

const defaultBudget = 6000

// retrieveBounds are the ranges of retrieve_context's counts; 0 takes the
// default.
var retrieveBounds = map[string]bound{"budget_tokens": {0, maxAnswerTokens}, "max_cycles": {0, hone.MaxCycles}, "max_files": {0, 0}}

func (s *Server) addRetrieveContext(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name: "retrieve_context",
		Description: "Find the files that matter for a task and return a context pack: the files, each with its relevance (the probability the task needs it) and role (target to change, context to read, test), " +
			"why each matters, what each still misses, the tests to run, the past commits most like the task or named in it, and their code within a token budget: the definitions most likely to need the change, whole, then the rest by worth per token, with what did not fit listed by path and line range. " +
			"Use it first, before reading files one by one.",
		InputSchema: boundedSchema[RetrieveParams](retrieveBounds),
	}, s.retrieveContext)
}

func (s *Server) retrieveContext(ctx context.Context, req *mcp.CallToolRequest, in RetrieveParams) (*mcp.CallToolResult, RetrieveResult, error) {
	// A call made again with the client's model's answers (SEP-2322)
	// goes on with the run that asked for them.
	if req.Params.RequestState != "" {
		return s.resume(ctx, req)
	}
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
	for _, c := range []struct {
		name string
		v    int
	}{{"budget_tokens", in.BudgetTokens}, {"max_files", in.MaxFiles}} {
		if err := notNegative(c.name, c.v); err != nil {
			return nil, RetrieveResult{}, err
		}
	}
	// The progress of the index's update is the call's: a run that goes
	// on between round trips sends none once the call that started it
	// has its answer.
	progress := progressOf(ctx, req)
	if in.MaxCycles < 0 || in.MaxCycles > hone.MaxCycles {
		return nil, RetrieveResult{}, fmt.Errorf("max_cycles must be from 1 to %d, or 0 for the default (%d), not %d", hone.MaxCycles, hone.DefaultMaxCycles, in.MaxCycles)
	}
	if in.BudgetTokens > maxAnswerTokens {
		return nil, RetrieveResult{}, fmt.Errorf("budget_tokens must be at most %d, not %d: an answer holds that many tokens at most", maxAnswerTokens, in.BudgetTokens)
	}
	if in.BudgetTokens > 0 && in.BudgetTokens < pack.MinBudget {
		return nil, RetrieveResult{}, fmt.Errorf("budget_tokens must be at least %d, not %d: a pack's header alone takes some (leave it out for the default, %d)", pack.MinBudget, in.BudgetTokens, defaultBudget)
	}
	var note string
	switch {
	case in.UseMyModel && clientSamples(req.Session) && roundTrips(req.Session):
		// The client's model answers through the call's round trips: the
		// run goes on in the background between them.
		return s.startRun(ctx, req.Session, func(rctx context.Context, chat *roundTripChat) (*mcp.CallToolResult, RetrieveResult, error) {
			return s.answer(rctx, req.Session, progress, task, in, modeleval.New(chat, s.samplingConfig()), "")
		})
	case in.UseMyModel && clientSamples(req.Session):
		return s.answer(ctx, req.Session, progress, task, in, modeleval.New(newSamplingChat(req.Session), s.samplingConfig()), "")
	case in.UseMyModel:
		note = "your client does not support MCP sampling: the files were judged without your model"
	}
	var ev hone.Evaluator
	if s.model != nil {
		ev = s.model.ForRun()
	}
	return s.answer(ctx, req.Session, progress, task, in, ev, note)
}

// samplingConfig bounds the client's model's calls as the server's model,
// if any, is bounded.
func (s *Server) samplingConfig() modeleval.Config {
	if s.model == nil {
		return modeleval.Config{}
	}
	// The limits only: the client's model has no price here, and its
	// verdicts are not cached, as its name is the client's to choose.
	c := s.model.Config
	return modeleval.Config{Top: c.Top, Batch: c.Batch, CallTokens: c.CallTokens, AnswerTokens: c.AnswerTokens, Concurrency: c.Concurrency}
}

// answer runs the loop, ev joining the lexical evaluator when set, and
// builds the answer; note is said in its notice, progress (if set) hears
// how the index's update goes.
func (s *Server) answer(ctx context.Context, ss *mcp.ServerSession, progress func(index.Progress), task string, in RetrieveParams, ev hone.Evaluator, note string) (*mcp.CallToolResult, RetrieveResult, error) {
	budget := in.BudgetTokens
	if budget <= 0 {
		budget = defaultBudget
	}
	budget = min(budget, maxAnswerTokens)
	opts, noted := s.runOptions(in, ev, note)
	if s.zoekt != nil {
		return s.retrieveZoekt(ctx, task, opts, noted, budget)
	}
	ix, release, err := s.index(ctx, ss, warm.Call{Progress: progress})
	if err != nil {
		return nil, RetrieveResult{}, err
	}
	if ev != nil {
		// A model takes seconds, a client's model minutes: the call
		// reads a snapshot of its own, and the repository's index is
		// free for the other calls meanwhile.
		root := ix.Root
		release()
		own, err := index.OpenExisting(ctx, root, index.Options{Dir: s.indexDir})
		if err != nil {
			return nil, RetrieveResult{}, err
		}
		defer own.Close()
		if err := own.Snapshot(ctx); err != nil {
			return nil, RetrieveResult{}, err
		}
		ix, release = own, func() {}
	}
	defer release()
	opts.IndexDir = s.indexDir
	var res *hone.Result
	err = warm.Repaired(ctx, ix, func() (err error) {
		res, err = retrieve.RetrieveIndex(ctx, ix, task, opts)
		return err
	})
	if err != nil {
		return nil, RetrieveResult{}, err
	}
	noted(res)
	// The lines past commits like the task wrote, which the pack weighs;
	// a history that cannot be read leaves them out.
	past, err := history.Added(ctx, ix.Root, "", res.PastCommits)
	if err != nil {
		s.log.Warn("read the past commits' lines for the pack", "err", err)
	}
	call, out := answerWithin(res, ix.Root, pack.Options{Budget: budget, BudgetName: "budget_tokens", PastLines: past}, "")
	return call, out, nil
}

// answerWithin builds retrieve_context's answer within opts.Budget, the
// caller's budget, and within maxAnswerTokens in each of its forms: the
// text, and the structured form that holds it (some clients hand the model
// one, some the other). JSON's escapes make the text's code a sixth
// longer or so in tokens, so a pack whose structured form is over is
// built again in less.
func answerWithin(res *hone.Result, root string, opts pack.Options, head string) (*mcp.CallToolResult, RetrieveResult) {
	asked := opts.Budget
	opts.Budget = packBudget(res, opts.Budget)
	limit := maxAnswerTokens - structuredSlack - omittedRoom
	var (
		p    *pack.Pack
		text string
		out  RetrieveResult
	)
	for try := 0; ; try++ {
		p = packWithin(res, root, opts, head)
		text = p.Text
		if head != "" && pack.CountTokens(head+text) <= opts.Budget {
			text = head + text
		}
		out = structuredOf(res, p)
		out.Pack = text
		n := structuredTokens(out)
		if n <= limit || try == 3 || opts.Budget <= pack.MinBudget {
			break
		}
		opts.Budget = max(pack.MinBudget, opts.Budget*limit/n*97/100)
	}
	// The list of what was left out takes a quarter of the budget at
	// most: a small budget asked for a small answer.
	room := min(maxAnswerTokens, structuredTokens(out)+max(asked/4, minOmittedRoom))
	listOmitted(&out, p.Omitted, room)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out
}

// packWithin builds the pack so that the answer, head with it, stays
// within the budget: a pack with a head is built again in what the head
// leaves. The pack itself says what it left out and how to have it, as
// the command line's does.
func packWithin(res *hone.Result, root string, opts pack.Options, head string) *pack.Pack {
	p := pack.Build(res, root, opts)
	extra := pack.CountTokens(head)
	if extra == 0 || opts.Budget-extra < pack.MinBudget {
		return p
	}
	opts.Budget -= extra
	return pack.Build(res, root, opts)
}

// runOptions are the loop's options for a call, and what adds to a
// result's notice note and what the run said of its model: a model's
// fallback, or a client that cannot sample, is said in the answer's
// notice as well as the log.
func (s *Server) runOptions(in RetrieveParams, ev hone.Evaluator, note string) (hone.Options, func(*hone.Result)) {
	var notices []string
	if note != "" {
		notices = append(notices, note)
	}
	opts := hone.Options{MaxCycles: in.MaxCycles, MaxFiles: max(in.MaxFiles, 0), Include: in.Include, Exclude: in.Exclude,
		Evaluator: ev, Notice: func(n string) {
			s.log.Info(n)
			if strings.HasPrefix(n, "the model evaluator") {
				notices = append(notices, n)
			}
		}}
	return opts, func(res *hone.Result) {
		for _, n := range notices {
			if res.Notice != "" {
				res.Notice += "; "
			}
			res.Notice += n
		}
	}
}

// structuredOf is the structured form of a result and its pack, but for
// what the pack left out (listOmitted). Every file name in it is as JSON
// can carry it (redact.JSONName); the result's own are left as they are,
// for the pack's text quotes them itself.
func structuredOf(res *hone.Result, p *pack.Pack) RetrieveResult {
	out := RetrieveResult{Files: []RetrieveFile{}, RelatedTests: []hone.RelatedTest{}, StopReason: string(res.StopReason), Notice: res.Notice, Omitted: []string{}, Tokens: p.Tokens, Redacted: p.Redacted, Model: res.Evaluator}
	for _, f := range res.Files {
		out.Files = append(out.Files, RetrieveFile{Path: redact.JSONName(f.Path), Relevance: f.Relevance, Role: f.Role, Reason: f.Reason, MissingContext: f.MissingContext, Spans: f.Spans, ModelScore: f.ModelScore})
	}
	for _, rt := range res.RelatedTests {
		rt.Path, rt.For = redact.JSONName(rt.Path), jsonNames(rt.For)
		out.RelatedTests = append(out.RelatedTests, rt)
	}
	for _, c := range res.PastCommits {
		c.Files = jsonNames(c.Files)
		out.PastCommits = append(out.PastCommits, c)
	}
	return out
}

// jsonNames are names as JSON can carry them (redact.JSONName), in a new
// slice.
func jsonNames(names []string) []string {
	if names == nil {
		return nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = redact.JSONName(n)
	}
	return out
}

// structuredSlack is what the structured form may gain after it is
// counted: its counts' digits, a secret's placeholder longer than the
// secret, tokens that join across the entries counted one by one.
const structuredSlack = 64

// listOmitted puts in out.Omitted what the pack left out, the most worth
// first as the pack has them, as many as keep out's JSON within room
// tokens; out.OmittedMore counts the rest.
func listOmitted(out *RetrieveResult, omitted []string, room int) {
	room -= structuredSlack
	out.Omitted, out.OmittedMore = []string{}, len(omitted)
	used := structuredTokens(out)
	n := fitting(len(omitted), func(i int) int {
		b, _ := modelJSON(redact.JSONName(omitted[i]))
		return pack.CountTokens(string(b)) + 1 // and its comma
	}, &used, room)
	out.Omitted, out.OmittedMore = jsonNames(omitted[:n]), len(omitted)-n
	// Counted one by one, the entries may take a little more together:
	// each takes a token at least, so dropping as many as the excess
	// brings the whole within room.
	for n > 0 {
		over := structuredTokens(out) - room
		if over <= 0 {
			break
		}
		n = max(n-over, 0)
		out.Omitted, out.OmittedMore = out.Omitted[:n], len(omitted)-n
	}
}

// structuredTokens counts the tokens of a structured result as it is
// sent, its JSON.
func structuredTokens(v any) int {
	b, err := modelJSON(v)
	if err != nil {
		return 0
	}
	return pack.CountTokens(string(b))
}

// modelJSON is v's JSON as a client hands it to its model: decoded and
// written again, so without the \u003c, \u003e and \u0026 that Go's
// encoding writes for <, > and & on the wire (a review's TSX pack asked
// for 15,000 tokens had come out at 8,600, its JSX counted escaped).
func modelJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// omittedRoom is the room packBudget leaves the structured form's list of
// what the pack left out, at least: a pack at the largest budget still
// lists its first omissions there. minOmittedRoom is the list's room
// however small the budget.
const (
	omittedRoom    = 1000
	minOmittedRoom = 200
)

// packBudget is the budget of a result's pack: budget, but no more than
// what maxAnswerTokens leaves once the rest of the structured form and
// omittedRoom are counted. It is pack.MinBudget at least.
func packBudget(res *hone.Result, budget int) int {
	room := maxAnswerTokens - structuredTokens(structuredOf(res, &pack.Pack{})) - structuredSlack - omittedRoom
	return max(min(budget, room), pack.MinBudget)
}
