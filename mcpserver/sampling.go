//lint:file-ignore SA1019 MCP sampling is deprecated from protocol 2026-07-28 (SEP-2577) but works through its deprecation window; users of older clients and of that window ask for it.

package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hone-tools/hone/modeleval"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplingTimeout bounds one sampling call: the client may ask its user
// to approve it first.
const samplingTimeout = 2 * time.Minute

// samplingChat reaches the client's own model through MCP sampling
// (sampling/createMessage): no key and no configuration, and the client
// decides what its model may do.
type samplingChat struct {
	ss     *mcp.ServerSession
	client string
}

// clientSamples reports whether the session's client can sample.
func clientSamples(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Sampling != nil
}

func newSamplingChat(ss *mcp.ServerSession) *samplingChat {
	name := "client"
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
		name = p.ClientInfo.Name
	}
	return &samplingChat{ss: ss, client: name}
}

func (c *samplingChat) Name() string { return "sampling:" + c.client }

func (c *samplingChat) Complete(ctx context.Context, p modeleval.Prompt) (modeleval.Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, samplingTimeout)
	defer cancel()
	params, err := samplingParams(p)
	if err != nil {
		return modeleval.Reply{}, err
	}
	res, err := c.ss.CreateMessage(ctx, params)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return modeleval.Reply{}, fmt.Errorf("%s: no answer to sampling in %s", c.Name(), samplingTimeout)
		}
		// The client's error, on one line: it goes into a notice.
		return modeleval.Reply{}, fmt.Errorf("%s: sampling failed: %s", c.Name(), strings.Join(strings.Fields(err.Error()), " "))
	}
	t, _ := res.Content.(*mcp.TextContent)
	text := ""
	if t != nil {
		text = t.Text
	}
	return samplingReply(c.Name(), res.Model, res.StopReason, text, p.MaxTokens)
}

// samplingParams is a prompt as a sampling request. Sampling carries no
// schema: the prompt gives it.
func samplingParams(p modeleval.Prompt) (*mcp.CreateMessageParams, error) {
	user := p.WithSchemaText().User
	return &mcp.CreateMessageParams{
		SystemPrompt: p.System,
		Messages:     []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: user}}},
		MaxTokens:    int64(p.MaxTokens),
		ModelPreferences: &mcp.ModelPreferences{
			IntelligencePriority: 0.8, SpeedPriority: 0.5, CostPriority: 0.3,
		},
	}, nil
}

// samplingReply reads a sampling answer.
func samplingReply(name, model, stop, text string, maxTokens int) (modeleval.Reply, error) {
	r := modeleval.Reply{Model: model}
	if stop == "maxTokens" {
		return r, fmt.Errorf("%s: %w at %d tokens", name, modeleval.ErrTruncated, maxTokens)
	}
	if text == "" {
		return r, fmt.Errorf("%s: %w: the answer holds no text", name, modeleval.ErrMalformed)
	}
	r.Text = text
	return r, nil
}

// roundTrips reports whether the client speaks a protocol (2026-07-28 on)
// where a server asks for sampling only by answering a call with input
// requests, which the client fulfils and answers by making the call again
// (SEP-2322), rather than by a request of its own.
func roundTrips(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= inputRequests
}

// inputRequests is the first protocol version in which a server asks the
// client's model through the call's round trips (see roundTrips).
const inputRequests = "2026-07-28"

// agreedVersion keeps, of a session that begins with initialize (the
// handshake of the protocols before 2026-07-28), the version the
// handshake agrees rather than the one the client asked for: the SDK
// answers 2026-07-28, or a version it does not know, with the newest
// older one it speaks, yet goes on reading the session's protocol from
// what the client asked for (roundTrips too), and then refuses to send
// the sampling requests that protocol needs. A client asking for what
// the SDK speaks is left as it is.
func agreedVersion(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.ServerRequest[*mcp.InitializeParams]); ok && r.Params != nil {
			if v := r.Params.ProtocolVersion; v >= inputRequests || !slices.Contains(mcp.SupportedProtocolVersions(), v) {
				for _, older := range mcp.SupportedProtocolVersions() { // newest first
					if older < inputRequests {
						r.Params.ProtocolVersion = older
						break
					}
				}
			}
		}
		return next(ctx, method, req)
	}
}

// runTimeout bounds the time a run waits on the client's round trips: past
// it, the run's model calls fail, and the run ends on the lexical
// evaluator. runsMax bounds the runs a session keeps; runGrace is how long
// an ended run's answer waits for its client's call before it is dropped,
// each server's own (Server.runGrace), which a test shortens.
const (
	runTimeout = 10 * time.Minute
	runsMax    = 4
	runGrace   = time.Minute
)

// A pausedRun is a retrieve_context call whose loop runs on between the
// call's round trips: it asks the client's model through them, and ends
// with the answer.
type pausedRun struct {
	id      string
	session *mcp.ServerSession
	asks    chan *samplingAsk
	done    chan runOutcome // buffered: the run never waits to end
	cancel  context.CancelFunc

	deadline time.Time // past it, no model call waits

	mu      sync.Mutex
	pending *samplingAsk // the ask the client is answering
	busy    bool         // a call awaits the run: another with its state is refused
}

// samplingAsk is one round trip's prompts, and where their answers go.
type samplingAsk struct {
	requests mcp.InputRequestMap
	replies  chan mcp.InputResponseMap // buffered
}

type runOutcome struct {
	res *mcp.CallToolResult
	out RetrieveResult
	err error
}

// startRun starts a run in the background, with a chat that asks through
// the call's round trips, and answers the call with the run's first ask or
// its end.
func (s *Server) startRun(ctx context.Context, ss *mcp.ServerSession, run func(context.Context, *roundTripChat) (*mcp.CallToolResult, RetrieveResult, error)) (*mcp.CallToolResult, RetrieveResult, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, RetrieveResult{}, err
	}
	// The run outlives the call that started it: it has its own context,
	// ended when the client gives up on the call or the server closes. Its
	// waits on the client are bounded by its deadline, past which its
	// model calls fail and the loop goes on without them: a retrieve never
	// fails because a model was slow.
	rctx, cancel := context.WithCancel(context.Background())
	pr := &pausedRun{id: hex.EncodeToString(b[:]), session: ss, asks: make(chan *samplingAsk), done: make(chan runOutcome, 1), cancel: cancel, deadline: time.Now().Add(runTimeout)}
	s.mu.Lock()
	if s.runs == nil {
		s.runs = map[string]*pausedRun{}
	}
	mine := 0
	for _, r := range s.runs {
		if r.session == ss {
			mine++
		}
	}
	if mine >= runsMax {
		s.mu.Unlock()
		cancel()
		return nil, RetrieveResult{}, fmt.Errorf("%d of your calls already wait on your model: answer them, or call again without use_my_model", runsMax)
	}
	s.runs[pr.id] = pr
	pr.busy = true
	s.mu.Unlock()
	go func() {
		defer cancel()
		res, out, err := run(rctx, &roundTripChat{run: pr, client: newSamplingChat(ss).client})
		pr.done <- runOutcome{res, out, err}
		// An answer no call comes for is dropped after a while.
		time.AfterFunc(s.runGrace, func() { s.forget(pr) })
	}()
	return s.await(ctx, pr)
}

// resume hands a run its client's answers, from the call made again, and
// answers the call with the run's next ask or its end.
func (s *Server) resume(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, RetrieveResult, error) {
	s.mu.Lock()
	pr := s.runs[req.Params.RequestState]
	s.mu.Unlock()
	if pr == nil || pr.session != req.Session {
		return nil, RetrieveResult{}, errors.New("this call's run is over or unknown (it waits 10 minutes at most): call retrieve_context again")
	}
	pr.mu.Lock()
	if pr.busy {
		pr.mu.Unlock()
		return nil, RetrieveResult{}, errors.New("this call's run is being answered by another call with its request state: wait for that one")
	}
	pr.busy = true
	ask := pr.pending
	pr.pending = nil
	pr.mu.Unlock()
	if ask != nil {
		ask.replies <- req.Params.InputResponses
	}
	return s.await(ctx, pr)
}

// await answers a call with the run's next ask, or with its end.
func (s *Server) await(ctx context.Context, pr *pausedRun) (*mcp.CallToolResult, RetrieveResult, error) {
	defer func() {
		pr.mu.Lock()
		pr.busy = false
		pr.mu.Unlock()
	}()
	select {
	case ask := <-pr.asks:
		pr.mu.Lock()
		pr.pending = ask
		pr.mu.Unlock()
		return &mcp.CallToolResult{InputRequests: ask.requests, RequestState: pr.id}, RetrieveResult{}, nil
	case o := <-pr.done:
		s.forget(pr)
		return o.res, o.out, o.err
	case <-ctx.Done():
		// The client gave up on the call: so does the run.
		pr.cancel()
		s.forget(pr)
		return nil, RetrieveResult{}, ctx.Err()
	}
}

func (s *Server) forget(pr *pausedRun) {
	s.mu.Lock()
	delete(s.runs, pr.id)
	s.mu.Unlock()
}

// closeRuns ends the runs that wait on round trips.
func (s *Server) closeRuns() {
	s.mu.Lock()
	runs := s.runs
	s.runs = nil
	s.mu.Unlock()
	for _, pr := range runs {
		pr.cancel()
	}
}

// roundTripChat asks the client's model through a run's round trips: the
// prompts of a cycle go in one, as input requests.
type roundTripChat struct {
	run    *pausedRun
	client string
}

func (c *roundTripChat) Name() string { return "sampling:" + c.client }

func (c *roundTripChat) Complete(ctx context.Context, p modeleval.Prompt) (modeleval.Reply, error) {
	rs, errs := c.CompleteAll(ctx, []modeleval.Prompt{p})
	return rs[0], errs[0]
}

func (c *roundTripChat) CompleteAll(ctx context.Context, ps []modeleval.Prompt) ([]modeleval.Reply, []error) {
	replies, errs := make([]modeleval.Reply, len(ps)), make([]error, len(ps))
	fail := func(err error) ([]modeleval.Reply, []error) {
		for i := range errs {
			errs[i] = err
		}
		return replies, errs
	}
	ask := &samplingAsk{requests: mcp.InputRequestMap{}, replies: make(chan mcp.InputResponseMap, 1)}
	for i, p := range ps {
		params, err := samplingParams(p)
		if err != nil {
			return fail(err)
		}
		ask.requests[fmt.Sprintf("judge-%d", i)] = params
	}
	wait := min(samplingTimeout, time.Until(c.run.deadline))
	if wait <= 0 {
		return fail(fmt.Errorf("%s: the run waited %s on your model, its most", c.Name(), runTimeout))
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	select {
	case c.run.asks <- ask:
	case <-ctx.Done():
		return fail(c.timeout(ctx))
	}
	var answers mcp.InputResponseMap
	select {
	case answers = <-ask.replies:
	case <-ctx.Done():
		return fail(c.timeout(ctx))
	}
	for i, p := range ps {
		switch r := answers[fmt.Sprintf("judge-%d", i)].(type) {
		case *mcp.CreateMessageWithToolsResult:
			var text strings.Builder
			for _, ct := range r.Content {
				if t, ok := ct.(*mcp.TextContent); ok {
					text.WriteString(t.Text)
				}
			}
			replies[i], errs[i] = samplingReply(c.Name(), r.Model, r.StopReason, text.String(), p.MaxTokens)
		case *mcp.CreateMessageResult:
			t, _ := r.Content.(*mcp.TextContent)
			text := ""
			if t != nil {
				text = t.Text
			}
			replies[i], errs[i] = samplingReply(c.Name(), r.Model, r.StopReason, text, p.MaxTokens)
		default:
			errs[i] = fmt.Errorf("%s: the client answered no sampling request %d", c.Name(), i)
		}
	}
	return replies, errs
}

func (c *roundTripChat) timeout(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s: no answer to sampling in time (%s a request, %s a run)", c.Name(), samplingTimeout, runTimeout)
	}
	return ctx.Err()
}
