// Package modeleval is hone's model evaluator: a model judges the best
// candidates of each cycle, several files a call, by the seed's rubric,
// and its verdicts join the lexical evaluator's (hone.JoinScores).
//
// A Chat reaches the model: an OpenAI-compatible chat completions
// endpoint (NewOpenAI), Anthropic's Messages API (NewAnthropic), or the
// MCP client's own model through sampling (package mcpserver). The
// Evaluator around it bounds what a call holds, runs calls side by side
// up to a limit, retries what the endpoint asks to be retried, keeps
// verdicts in a cache keyed by the task, the file's excerpt and the
// model, and counts the tokens and their cost. What it sends has passed
// hone's redaction, and a secret-bearing file is never sent.
package modeleval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/fanout"
	"github.com/hone-tools/hone/pack"
)

// Defaults of Config.
const (
	DefaultTop          = 20
	DefaultBatch        = 10
	DefaultCallTokens   = 8000
	DefaultAnswerTokens = 2500
	DefaultConcurrency  = 4
	DefaultTimeout      = 60 * time.Second
)

// A Chat sends one prompt to a model and returns its answer.
type Chat interface {
	// Name says which model: "openai:gpt-4.1".
	Name() string
	// Complete sends the prompt. The answer's Text is the JSON that
	// Prompt.Schema describes. An error says what to do in one line;
	// ErrRefused and ErrTruncated are wrapped where the model refused or
	// was cut short.
	Complete(ctx context.Context, p Prompt) (Reply, error)
}

// A BatchChat sends several prompts in one round trip: MCP sampling, where
// each round trip is a tool call the client makes again. The Evaluator
// sends a cycle's calls together through it.
type BatchChat interface {
	Chat
	// CompleteAll answers each prompt, replies and errors in order.
	CompleteAll(ctx context.Context, ps []Prompt) ([]Reply, []error)
}

// Prompt is one call's request.
type Prompt struct {
	System string
	User   string
	// MaxTokens bounds the answer.
	MaxTokens int
	// Schema is the JSON schema of the answer.
	Schema map[string]any
}

// Reply is a model's answer.
type Reply struct {
	Text string
	// InputTokens and OutputTokens are as the endpoint counted them; 0
	// when it did not say.
	InputTokens, OutputTokens int
	// Retries are the attempts made again before this answer.
	Retries int
	// Model is the model that answered, when the endpoint says.
	Model string
}

// Errors a Chat wraps.
var (
	ErrRefused   = errors.New("the model refused")
	ErrTruncated = errors.New("the model's answer was cut short")
	ErrMalformed = errors.New("the model's answer is not the JSON asked for")
)

// Config sets an Evaluator's limits; a zero field takes its default.
type Config struct {
	// Top is how many of a cycle's candidates, best first by the lexical
	// verdicts, the model judges.
	Top int
	// Batch is the files a call holds at most.
	Batch int
	// CallTokens bounds a call's prompt; each file's excerpt gets its
	// share of what the task and the rubric leave.
	CallTokens int
	// AnswerTokens bounds a call's answer.
	AnswerTokens int
	// Concurrency is the calls in flight at most.
	Concurrency int
	// Cache keeps verdicts between runs; nil keeps none.
	Cache *Cache
	// PriceIn and PriceOut are the model's prices in US dollars per
	// million input and output tokens, for the cost account; 0 counts
	// no cost.
	PriceIn, PriceOut float64
}

func (c Config) withDefaults() Config {
	if c.Top <= 0 {
		c.Top = DefaultTop
	}
	if c.Batch <= 0 {
		c.Batch = DefaultBatch
	}
	if c.CallTokens <= 0 {
		c.CallTokens = DefaultCallTokens
	}
	if c.AnswerTokens <= 0 {
		c.AnswerTokens = DefaultAnswerTokens
	}
	if c.Concurrency <= 0 {
		c.Concurrency = DefaultConcurrency
	}
	return c
}

// Evaluator is a model's hone.Evaluator, for one run: it remembers the
// files it judged, and what it spent.
type Evaluator struct {
	chat Chat
	cfg  Config

	// sem bounds the calls in flight: the Model's, shared by its runs,
	// or the run's own.
	sem chan struct{}

	mu     sync.Mutex
	judged map[string]hone.Evaluation // path -> the model's verdict, this run
	used   hone.Usage
}

// New makes an Evaluator for one run over chat.
func New(chat Chat, cfg Config) *Evaluator {
	return &Evaluator{chat: chat, cfg: cfg.withDefaults(), judged: map[string]hone.Evaluation{}, used: hone.Usage{Evaluator: chat.Name()}}
}

// Usage says what the run spent so far.
func (e *Evaluator) Usage() hone.Usage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.used
}

// item is a file of a call.
type item struct {
	path    string
	excerpt hone.Excerpt
	key     string
}

// Evaluate judges the request's best candidates not judged yet in this
// run, and gives again its verdicts on those it judged in an earlier
// cycle.
func (e *Evaluator) Evaluate(ctx context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
	if req.Excerpts == nil {
		return nil, errors.New("the request carries no excerpts: a model evaluator runs inside hone's loop")
	}
	var out []hone.Evaluation
	var todo []item
	perFile := e.fileBudget(req)
	e.mu.Lock()
	for _, c := range req.Candidates {
		if ev, ok := e.judged[c.Path]; ok {
			out = append(out, ev)
			continue
		}
		if len(todo) < e.cfg.Top {
			todo = append(todo, item{path: c.Path})
		}
	}
	e.mu.Unlock()

	// Excerpts, then the cache.
	var ask []item
	for _, it := range todo {
		x, err := req.Excerpts.Excerpt(it.path, perFile)
		if err != nil || x.Withheld != "" || strings.TrimSpace(x.Text) == "" {
			continue // never sent: the lexical verdict stands alone
		}
		it.excerpt = x
		it.key = cacheKey(e.chat.Name(), req.Task, it.path, x.Text)
		if ev, ok := e.cfg.Cache.get(it.key); ok && ev.Path == it.path {
			e.keep(ev, true)
			out = append(out, ev)
			continue
		}
		ask = append(ask, it)
	}

	// The calls, Concurrency at once.
	var batches [][]item
	for len(ask) > 0 {
		n := min(e.cfg.Batch, len(ask))
		batches = append(batches, ask[:n])
		ask = ask[n:]
	}
	results := make([][]hone.Evaluation, len(batches))
	var errs []error
	prompts := make([]Prompt, len(batches))
	for i, b := range batches {
		prompts[i] = buildPrompt(req, b, e.cfg.AnswerTokens, e.cfg.CallTokens)
	}
	if bc, ok := e.chat.(BatchChat); ok && len(batches) > 0 {
		replies, rerrs := bc.CompleteAll(ctx, prompts)
		errs = make([]error, len(batches))
		for i, b := range batches {
			var r Reply
			var err error = errors.New("no answer")
			if i < len(replies) && i < len(rerrs) {
				r, err = replies[i], rerrs[i]
			}
			results[i], errs[i] = e.finish(prompts[i], b, r, err)
		}
	} else {
		sem := e.sem
		if sem == nil {
			sem = make(chan struct{}, e.cfg.Concurrency)
		}
		errs = fanout.Each(ctx, sem, len(batches), func(i int) error {
			r, err := e.chat.Complete(ctx, prompts[i])
			results[i], err = e.finish(prompts[i], batches[i], r, err)
			return err
		})
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A call that failed fails the request, but the verdicts of the
	// others, and those given again or cached, go with the error: the
	// loop keeps them for this cycle (they are kept for the run and
	// cached, and were paid for).
	var failed error
	for i, r := range results {
		if errs[i] != nil && failed == nil {
			failed = errs[i]
		}
		out = append(out, r...)
	}
	return out, failed
}

// maxCallTokens bounds the tokens one call may say it spent: no model
// reads or writes a billion tokens in one answer, and a sum of counts past
// it could wrap.
const maxCallTokens = 1 << 30

// finish counts one call's answer, and reads its verdicts on the batch.
func (e *Evaluator) finish(p Prompt, b []item, reply Reply, err error) ([]hone.Evaluation, error) {
	e.mu.Lock()
	e.used.Calls++
	e.used.Retries += reply.Retries
	in, out := reply.InputTokens, reply.OutputTokens
	// An endpoint's count past what any call spends (below zero, or past
	// maxCallTokens) counts nothing: the tokens are counted as for an
	// endpoint that said none.
	if in < 0 || in > maxCallTokens {
		in = 0
	}
	if out < 0 || out > maxCallTokens {
		out = 0
	}
	// A call that came to no answer (no connection, a refusal of the
	// request, a timeout) is counted, and failed, but spent nothing the
	// endpoint says; its prompt's tokens are not estimated for it.
	answered := err == nil || reply.Text != "" || in > 0
	if in == 0 && answered {
		in = pack.CountTokens(p.User)
		if p.System == systemPrompt {
			in += systemTokens()
		} else {
			in += pack.CountTokens(p.System)
		}
	}
	if out == 0 && reply.Text != "" {
		out = pack.CountTokens(reply.Text)
	}
	e.used.InputTokens += in
	e.used.OutputTokens += out
	e.used.CostUSD += (float64(in)*e.cfg.PriceIn + float64(out)*e.cfg.PriceOut) / 1e6
	if err != nil {
		e.used.Failed++
	}
	e.mu.Unlock()
	if err != nil {
		return nil, err
	}
	evs, err := parseAnswer(reply.Text, b)
	if err != nil {
		e.mu.Lock()
		e.used.Failed++ // an answer that holds no verdict is a failed call too
		e.mu.Unlock()
		return nil, err
	}
	for i, ev := range evs {
		e.keep(ev, false)
		for _, it := range b {
			if it.path == ev.Path {
				e.cfg.Cache.put(it.key, evs[i])
			}
		}
	}
	return evs, nil
}

// keep remembers a verdict for the run.
func (e *Evaluator) keep(ev hone.Evaluation, cached bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.judged[ev.Path]; ok {
		return
	}
	e.judged[ev.Path] = ev
	e.used.Judged++
	if cached {
		e.used.Cached++
	}
}

// fileBudget is each file's share of a call's prompt: what the task and
// the rubric leave, over the files a call holds.
func (e *Evaluator) fileBudget(req hone.EvaluateRequest) int {
	// Estimated at three bytes a token, on the safe side: loading the
	// tokenizer costs a process about 100 ms, which a call whose endpoint
	// counts its tokens need not pay.
	fixed := (len(systemPrompt)+len(cutTask(req.Task, e.cfg.CallTokens)))/3 + 300
	left := e.cfg.CallTokens - fixed
	return max(200, int(math.Floor(float64(left)/float64(e.cfg.Batch)))-20)
}

// Model is a model to judge with, and the limits of its runs: what a
// command line or a server sets up once.
type Model struct {
	Chat   Chat
	Config Config

	once sync.Once
	sem  chan struct{}
}

// ForRun makes the evaluator of one run. The runs of one Model, side by
// side in a server, share its limit on calls in flight.
func (m *Model) ForRun() *Evaluator {
	m.once.Do(func() { m.sem = make(chan struct{}, m.Config.withDefaults().Concurrency) })
	e := New(m.Chat, m.Config)
	e.sem = m.sem
	return e
}

// Dial makes the Chat of a provider, "openai" or "anthropic", at ep.
func Dial(provider string, ep Endpoint) (Chat, error) {
	switch provider {
	case "openai":
		return NewOpenAI(ep)
	case "anthropic":
		return NewAnthropic(ep)
	}
	return nil, fmt.Errorf("unknown evaluator %q: use none, openai or anthropic", provider)
}

// systemTokens counts the rubric's tokens, once.
var systemTokens = sync.OnceValue(func() int { return pack.CountTokens(systemPrompt) })
