package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/hone-tools/hone/modeleval"
)

// evalFlags set up the optional model evaluator, for retrieve, mcp and
// bench. The keys come from the environment only, never from a flag,
// which a shell's history and a process list would show.
type evalFlags struct {
	kind, model, baseURL, cache string
	top, batch, concurrency     int
	callTokens, answerTokens    int
	timeout                     time.Duration
	priceIn, priceOut           float64
	fs                          *flag.FlagSet // where they were registered
}

func (f *evalFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	fs.StringVar(&f.kind, "evaluator", envOr("HONE_EVALUATOR", "none"), "none (the default: offline, nothing leaves the machine), openai (any OpenAI-compatible endpoint; key in OPENAI_API_KEY) or anthropic (key in ANTHROPIC_API_KEY): a model that judges each cycle's best candidates beside the lexical evaluator ($HONE_EVALUATOR)")
	fs.StringVar(&f.model, "model", os.Getenv("HONE_MODEL"), "the evaluator's model, e.g. gpt-4.1-mini, qwen2.5-coder:14b or claude-sonnet-4-5 ($HONE_MODEL)")
	fs.StringVar(&f.baseURL, "base-url", "", "the evaluator's API root, e.g. http://localhost:11434/v1 for Ollama (default: $OPENAI_BASE_URL or $ANTHROPIC_BASE_URL, else the provider's own)")
	fs.IntVar(&f.top, "model-top", modeleval.DefaultTop, "candidates of each cycle, best first, that the model judges")
	fs.IntVar(&f.batch, "model-batch", modeleval.DefaultBatch, "files judged in one call at most")
	fs.IntVar(&f.concurrency, "model-concurrency", modeleval.DefaultConcurrency, "calls to the model in flight at most")
	fs.IntVar(&f.callTokens, "model-call-tokens", modeleval.DefaultCallTokens, "tokens a call's prompt holds at most: the task, the rubric and the files' excerpts")
	fs.IntVar(&f.answerTokens, "model-answer-tokens", modeleval.DefaultAnswerTokens, "tokens a call's answer holds at most")
	fs.DurationVar(&f.timeout, "model-timeout", modeleval.DefaultTimeout, "time one attempt of a call may take")
	fs.StringVar(&f.cache, "model-cache", "", "where the model's verdicts are kept between runs (default: the user's cache directory; off keeps none)")
	fs.Float64Var(&f.priceIn, "price-in", 0, "the model's price in US dollars per million input tokens, for the cost account")
	fs.Float64Var(&f.priceOut, "price-out", 0, "the model's price in US dollars per million output tokens, for the cost account")
}

// givenOf is the first of names that the command line gives, "" for
// none (a nil fs gives none).
func givenOf(fs *flag.FlagSet, names ...string) string {
	if fs == nil {
		return ""
	}
	for _, name := range names {
		if isSet(fs, name) {
			return name
		}
	}
	return ""
}

// open dials the evaluator the flags ask for, nil for none; what it has
// to say of a default it could not use goes to notice.
func (f *evalFlags) open(notice func(string)) (*modeleval.Model, error) {
	if f.kind == "" || f.kind == "none" {
		// A model's flag given with no model to use is a mistake to say,
		// not to pass over: the retrieve would run without the model.
		if name := givenOf(f.fs, "model", "base-url", "model-top", "model-batch", "model-concurrency", "model-call-tokens",
			"model-answer-tokens", "model-timeout", "model-cache", "price-in", "price-out"); name != "" {
			return nil, usagef("--%s is for a model evaluator: give --evaluator openai or anthropic (or HONE_EVALUATOR), or leave --%s out", name, name)
		}
		return nil, nil
	}
	// A key read from a file keeps its line's end: it is taken off, and a
	// control character left inside is the user's to fix, not a failed
	// connection (which is what the HTTP client makes of it).
	keyOf := func(name string) (string, error) {
		key := strings.TrimSpace(os.Getenv(name))
		if strings.ContainsFunc(key, unicode.IsControl) {
			return "", usagef("%s holds a control character: set it to the key alone", name)
		}
		return key, nil
	}
	var ep modeleval.Endpoint
	switch f.kind {
	case "openai":
		key, err := keyOf("OPENAI_API_KEY")
		if err != nil {
			return nil, err
		}
		ep = modeleval.Endpoint{BaseURL: firstOf(f.baseURL, os.Getenv("OPENAI_BASE_URL")), Key: key}
		if ep.Key == "" && (ep.BaseURL == "" || ep.BaseURL == modeleval.DefaultOpenAIURL) {
			return nil, usagef("--evaluator openai needs OPENAI_API_KEY in the environment, or --base-url of a local server that needs no key")
		}
	case "anthropic":
		key, err := keyOf("ANTHROPIC_API_KEY")
		if err != nil {
			return nil, err
		}
		ep = modeleval.Endpoint{BaseURL: firstOf(f.baseURL, os.Getenv("ANTHROPIC_BASE_URL")), Key: key}
		if ep.Key == "" {
			return nil, usagef("--evaluator anthropic needs ANTHROPIC_API_KEY in the environment")
		}
	default:
		return nil, usagef("unknown evaluator %q (--evaluator or HONE_EVALUATOR): use none, openai or anthropic", f.kind)
	}
	ep.Model, ep.Timeout = f.model, f.timeout
	if f.model == "" {
		return nil, usagef("--evaluator %s needs --model NAME (or HONE_MODEL)", f.kind)
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"--model-top", f.top}, {"--model-batch", f.batch}, {"--model-concurrency", f.concurrency}, {"--model-call-tokens", f.callTokens}, {"--model-answer-tokens", f.answerTokens}} {
		if c.v < 1 {
			return nil, usagef("%s must be at least 1, not %d", c.name, c.v)
		}
	}
	if f.timeout <= 0 {
		return nil, usagef("--model-timeout must be more than 0, not %s", f.timeout)
	}
	for _, p := range []float64{f.priceIn, f.priceOut} {
		// NaN fails both tests; a price past a million dollars a
		// million tokens is no price, and would make the account's
		// sums infinite.
		if !(p >= 0 && p <= maxPrice) {
			return nil, usagef("--price-in and --price-out are US dollars per million tokens, from 0 to %g", float64(maxPrice))
		}
	}
	chat, err := modeleval.Dial(f.kind, ep)
	if err != nil {
		return nil, usagef("%v", err)
	}
	cfg := modeleval.Config{Top: f.top, Batch: f.batch, Concurrency: f.concurrency, CallTokens: f.callTokens, AnswerTokens: f.answerTokens,
		PriceIn: f.priceIn, PriceOut: f.priceOut}
	if f.cache != "off" {
		dir := f.cache
		if dir == "" {
			base, err := os.UserCacheDir()
			if err != nil {
				return nil, usagef("no cache directory for the model's verdicts (%v): give --model-cache DIR, or off", err)
			}
			dir = filepath.Join(base, "hone", "verdicts")
		}
		if cfg.Cache, err = modeleval.OpenCache(dir); err != nil {
			if f.cache != "" {
				return nil, usagef("open the model's cache: %v: give --model-cache a folder you can write, or off", err)
			}
			// The default folder: the run goes on, asking the model
			// again for what a cache would have kept.
			cfg.Cache = nil
			notice(fmt.Sprintf("the model's verdicts are not cached: %v (give --model-cache DIR, or off)", err))
		}
	}
	return &modeleval.Model{Chat: chat, Config: cfg}, nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// maxPrice is the most --price-in and --price-out may be.
const maxPrice = 1e6

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
