package modeleval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/modeleval/modelevaltest"
)

const testKey = "sk-test-0123456789abcdefSECRETKEY"

// excerpts is a fake hone.Excerpter: each file's text, or withheld.
type excerpts map[string]string

func (x excerpts) Excerpt(path string, maxTokens int) (hone.Excerpt, error) {
	t, ok := x[path]
	if !ok {
		return hone.Excerpt{}, fmt.Errorf("no %s", path)
	}
	if t == "WITHHELD" {
		return hone.Excerpt{Path: path, Withheld: "holds secrets"}, nil
	}
	return hone.Excerpt{Path: path, Text: t}, nil
}

func request(paths ...string) hone.EvaluateRequest {
	x := excerpts{}
	req := hone.EvaluateRequest{Task: "fix the token expiry check", Cycle: 1, Excerpts: x}
	for _, p := range paths {
		x[p] = "1| func " + strings.ReplaceAll(p, "/", "_") + "() {}\n"
		req.Candidates = append(req.Candidates, hone.Candidate{Path: p})
		req.Lexical = append(req.Lexical, hone.Evaluation{Path: p, Score: 0.5})
	}
	return req
}

var files = modelevaltest.Files

// verdicts answers every file of a prompt by rule.
func verdicts(user string, rule func(path string) float64) string {
	return modelevaltest.Answer(user, rule, "by the rule", "expiresAt")
}

// openAIBody is a chat completion, as OpenAI's API gives it.
func openAIBody(content, finish string) string {
	return modelevaltest.OpenAIBody(content, finish, 120, 30)
}

type openAIReq struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	MaxTokens      int            `json:"max_tokens"`
	ResponseFormat map[string]any `json:"response_format"`
}

// openAIServer answers chat completions with handle's status, headers and
// body; it fails the test on a request of another shape.
func openAIServer(t *testing.T, handle func(n int, req openAIReq) (int, http.Header, string)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			t.Errorf("authorization %q", got)
		}
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), testKey) {
			t.Error("the key is in the request's body")
		}
		var req openAIReq
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request %s: %v", body, err)
		}
		status, h, out := handle(n, req)
		for k, v := range h {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func openAIChat(t *testing.T, url string, ep Endpoint) Chat {
	t.Helper()
	ep.BaseURL, ep.Model, ep.Key = url+"/v1", "gpt-test", testKey
	if ep.Timeout == 0 {
		ep.Timeout = 5 * time.Second
	}
	c, err := NewOpenAI(ep)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOpenAIShapes(t *testing.T) {
	srv, calls := openAIServer(t, func(_ int, req openAIReq) (int, http.Header, string) {
		if req.Model != "gpt-test" || len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
			t.Errorf("request %+v", req)
		}
		if req.ResponseFormat["type"] != "json_schema" || req.MaxTokens != DefaultAnswerTokens {
			t.Errorf("response_format %v, max_tokens %d", req.ResponseFormat, req.MaxTokens)
		}
		if !strings.Contains(req.Messages[1].Content, "fix the token expiry check") {
			t.Errorf("the prompt lacks the task: %q", req.Messages[1].Content)
		}
		return 200, nil, openAIBody(verdicts(req.Messages[1].Content, func(p string) float64 {
			if p == "auth/token.go" {
				return 0.9
			}
			return 0.1
		}), "stop")
	})
	ev := New(openAIChat(t, srv.URL, Endpoint{}), Config{})
	evs, err := ev.Evaluate(context.Background(), request("auth/token.go", "db/pool.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || calls.Load() != 1 {
		t.Fatalf("%d verdicts in %d calls: %+v", len(evs), calls.Load(), evs)
	}
	for _, e := range evs {
		want := map[string]float64{"auth/token.go": 0.9, "db/pool.go": 0.1}[e.Path]
		if e.Score != want || e.Reason != "by the rule" || len(e.Terms) != 1 {
			t.Errorf("verdict %+v", e)
		}
	}
	u := ev.Usage()
	if u.Calls != 1 || u.InputTokens != 120 || u.OutputTokens != 30 || u.Judged != 2 || u.Evaluator != "openai:gpt-test" {
		t.Errorf("usage %+v", u)
	}
}

// anthropicServer answers the Messages API.
func anthropicServer(t *testing.T, handle func(n int, req map[string]any) (int, http.Header, string)) *httptest.Server {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		if r.Header.Get("x-api-key") != testKey || r.Header.Get("anthropic-version") != anthropicVersion {
			t.Errorf("headers %v", r.Header)
		}
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), testKey) {
			t.Error("the key is in the request's body")
		}
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request %s: %v", body, err)
		}
		status, h, out := handle(n, req)
		for k, v := range h {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func anthropicBody(input string, stop string) string {
	b, _ := json.Marshal(map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
		"content":     []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": verdictTool, "input": json.RawMessage(input)}},
		"stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 200, "output_tokens": 40},
	})
	return string(b)
}

func anthropicError429() string {
	return `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`
}

func userText(req map[string]any) string {
	msgs, _ := req["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	m, _ := msgs[0].(map[string]any)
	s, _ := m["content"].(string)
	return s
}

func anthropicChat(t *testing.T, url string) Chat {
	t.Helper()
	c, err := NewAnthropic(Endpoint{BaseURL: url, Model: "claude-test", Key: testKey, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAnthropicShapes(t *testing.T) {
	srv := anthropicServer(t, func(_ int, req map[string]any) (int, http.Header, string) {
		tc, _ := req["tool_choice"].(map[string]any)
		if req["model"] != "claude-test" || tc["name"] != verdictTool || req["system"] == "" || req["max_tokens"] != float64(DefaultAnswerTokens) {
			t.Errorf("request %v", req)
		}
		return 200, nil, anthropicBody(verdicts(userText(req), func(string) float64 { return 0.7 }), "tool_use")
	})
	ev := New(anthropicChat(t, srv.URL), Config{PriceIn: 3, PriceOut: 15})
	evs, err := ev.Evaluate(context.Background(), request("a.go", "b.go", "c.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 || evs[0].Score != 0.7 {
		t.Fatalf("verdicts %+v", evs)
	}
	u := ev.Usage()
	if u.InputTokens != 200 || u.OutputTokens != 40 || u.CostUSD != (200*3+40*15)/1e6 {
		t.Errorf("usage %+v", u)
	}
}

// Each way a call fails comes back as one error that says what happened,
// and the key never appears in it.
func TestFailures(t *testing.T) {
	for _, tt := range []struct {
		name     string
		provider string
		status   int
		header   http.Header
		body     string
		want     string
		is       error
	}{
		{"malformed json", "openai", 200, nil, openAIBody("here are my thoughts: {not json", "stop"), "not the JSON asked for", ErrMalformed},
		{"no verdict on a shown file", "openai", 200, nil, openAIBody(`{"files":[{"path":"elsewhere.go","relevance":1,"reason":"","missing_context":[],"terms":[]}]}`, "stop"), "no verdict on any file", ErrMalformed},
		{"refusal", "openai", 200, nil, `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":5}}`, "refused: I can't help with that.", ErrRefused},
		{"truncated", "openai", 200, nil, openAIBody(`{"files":[{"path":"a.go","rele`, "length"), "cut short at 2500 tokens", ErrTruncated},
		{"anthropic refusal", "anthropic", 200, nil, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":"refusal","usage":{"input_tokens":5,"output_tokens":0}}`, "refused", ErrRefused},
		{"anthropic truncated", "anthropic", 200, nil, anthropicBody(`{}`, "max_tokens"), "cut short", ErrTruncated},
		{"bad key", "openai", 401, nil, `{"error":{"message":"Incorrect API key provided: ` + testKey + `. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`, "HTTP 401: Incorrect API key provided: [redacted", nil},
		{"key quoted where the message is cut", "openai", 401, nil, `{"error":{"message":"` + strings.Repeat("refused ", 22) + "now " + testKey + ` is not a key of this project"}}`, "HTTP 401: refused refused", nil},
		{"no such model", "openai", 404, nil, `{"error":{"message":"The model gpt-test does not exist"}}`, "does not exist (check the model's name, and that the base URL, hone's --base-url, is the API's root", nil},
		{"a key refused says what to do", "openai", 401, nil, `{"error":{"message":"Incorrect API key provided"}}`, "(check the API key", nil},
		{"anthropic bad request", "anthropic", 400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"model: field required"}}`, "HTTP 400: invalid_request_error: model: field required", nil},
		{"not the API", "openai", 200, nil, `<html>hello</html>`, "not the API's JSON", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var chat Chat
			if tt.provider == "openai" {
				srv, _ := openAIServer(t, func(int, openAIReq) (int, http.Header, string) { return tt.status, tt.header, tt.body })
				chat = openAIChat(t, srv.URL, Endpoint{})
			} else {
				srv := anthropicServer(t, func(int, map[string]any) (int, http.Header, string) { return tt.status, tt.header, tt.body })
				chat = anthropicChat(t, srv.URL)
			}
			_, err := New(chat, Config{}).Evaluate(context.Background(), request("a.go"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if strings.Contains(err.Error(), testKey[:12]) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q leaks the key or is not one line", err)
			}
		})
	}
}

// A 429 is retried after the wait its Retry-After asks for; so is a 5xx.
func TestRetries(t *testing.T) {
	var first time.Time
	srv := anthropicServer(t, func(n int, req map[string]any) (int, http.Header, string) {
		switch n {
		case 1:
			first = time.Now()
			return 429, http.Header{"Retry-After": {"1"}}, anthropicError429()
		case 2:
			if d := time.Since(first); d < 900*time.Millisecond {
				t.Errorf("retried after %s, before Retry-After's second", d)
			}
			return 529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
		}
		return 200, nil, anthropicBody(verdicts(userText(req), func(string) float64 { return 0.8 }), "tool_use")
	})
	ev := New(anthropicChat(t, srv.URL), Config{})
	evs, err := ev.Evaluate(context.Background(), request("a.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || ev.Usage().Retries != 2 || ev.Usage().Calls != 1 {
		t.Errorf("verdicts %+v, usage %+v", evs, ev.Usage())
	}
}

// A server that asks for a longer wait than the limit fails the call at
// once, saying so; one that never recovers fails after the retries.
func TestRetryLimits(t *testing.T) {
	srv, calls := openAIServer(t, func(int, openAIReq) (int, http.Header, string) {
		return 429, http.Header{"Retry-After": {"3600"}}, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`
	})
	_, err := New(openAIChat(t, srv.URL, Endpoint{}), Config{}).Evaluate(context.Background(), request("a.go"))
	if err == nil || !strings.Contains(err.Error(), "asks to wait 1h0m0s") || calls.Load() != 1 {
		t.Errorf("error %v after %d calls", err, calls.Load())
	}
	srv2, calls2 := openAIServer(t, func(int, openAIReq) (int, http.Header, string) {
		return 503, http.Header{"Retry-After": {"0.01"}}, `upstream connect error`
	})
	_, err = New(openAIChat(t, srv2.URL, Endpoint{Retries: 2}), Config{}).Evaluate(context.Background(), request("a.go"))
	if err == nil || !strings.Contains(err.Error(), "HTTP 503: upstream connect error (after 3 attempts)") || calls2.Load() != 3 {
		t.Errorf("error %v after %d calls", err, calls2.Load())
	}
}

func TestRetryAfter(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"2", 2 * time.Second}, {"0.5", 500 * time.Millisecond}, {"soon", 0}, {"-3", 0},
		{time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), time.Hour},
	} {
		got := retryAfter(tt.in)
		if got < tt.want-2*time.Second || got > tt.want {
			t.Errorf("retryAfter(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// An attempt that takes too long is given up and tried again; the call
// fails after its retries, saying it timed out.
func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv, calls := openAIServer(t, func(int, openAIReq) (int, http.Header, string) {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
		return 200, nil, openAIBody("{}", "stop")
	})
	t.Cleanup(func() { close(release) }) // before the server closes
	start := time.Now()
	// Retries as the default, three: a timeout is tried again once.
	_, err := New(openAIChat(t, srv.URL, Endpoint{Timeout: 100 * time.Millisecond, Retries: 3, MaxWait: time.Millisecond}), Config{}).Evaluate(context.Background(), request("a.go"))
	if err == nil || !strings.Contains(err.Error(), "no answer in time after 100ms (after 2 attempts)") {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > 3*time.Second || calls.Load() != 2 {
		t.Errorf("took %s and %d calls", d, calls.Load())
	}
}

// A cancelled context ends the calls at once, with the context's error.
func TestCancelled(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	srv, _ := openAIServer(t, func(int, openAIReq) (int, http.Header, string) {
		started <- struct{}{}
		<-release
		return 200, nil, openAIBody("{}", "stop")
	})
	t.Cleanup(func() { close(release) }) // before the server closes
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	start := time.Now()
	_, err := New(openAIChat(t, srv.URL, Endpoint{}), Config{}).Evaluate(ctx, request("a.go"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s to stop", d)
	}
}

// A second run of the same task over the same files makes no call.
func TestCache(t *testing.T) {
	srv, calls := openAIServer(t, func(_ int, req openAIReq) (int, http.Header, string) {
		return 200, nil, openAIBody(verdicts(req.Messages[1].Content, func(string) float64 { return 0.6 }), "stop")
	})
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	chat := openAIChat(t, srv.URL, Endpoint{})
	for run := 1; run <= 2; run++ {
		ev := New(chat, Config{Cache: cache})
		evs, err := ev.Evaluate(context.Background(), request("a.go", "b.go"))
		if err != nil || len(evs) != 2 {
			t.Fatalf("run %d: %v, %+v", run, err, evs)
		}
		if run == 2 && (ev.Usage().Calls != 0 || ev.Usage().Cached != 2) {
			t.Errorf("run 2 usage %+v", ev.Usage())
		}
	}
	if calls.Load() != 1 {
		t.Errorf("%d calls in two runs", calls.Load())
	}
	// Another task, or a changed file, is judged again.
	req := request("a.go", "b.go")
	req.Excerpts.(excerpts)["a.go"] = "1| changed\n"
	if _, err := New(chat, Config{Cache: cache}).Evaluate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 2 {
		t.Errorf("a changed file was not judged again: %d calls", calls.Load())
	}
}

// The calls in flight stay within the limit; the files go several to a
// call; a file judged in an earlier cycle is not sent again; a withheld
// file is never sent.
func TestBatchesAndLimits(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	var sent []string
	srv, calls := openAIServer(t, func(_ int, req openAIReq) (int, http.Header, string) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		sent = append(sent, files(req.Messages[1].Content)...)
		mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		return 200, nil, openAIBody(verdicts(req.Messages[1].Content, func(string) float64 { return 0.3 }), "stop")
	})
	var paths []string
	for i := range 24 {
		paths = append(paths, fmt.Sprintf("f%02d.go", i))
	}
	req := request(paths...)
	req.Excerpts.(excerpts)["f01.go"] = "WITHHELD"
	ev := New(openAIChat(t, srv.URL, Endpoint{}), Config{Top: 20, Batch: 3, Concurrency: 2})
	evs, err := ev.Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 19 || calls.Load() != 7 || most > 2 {
		t.Errorf("%d verdicts, %d calls, %d in flight at most", len(evs), calls.Load(), most)
	}
	for _, p := range sent {
		if p == "f01.go" || p >= "f20.go" {
			t.Errorf("%s was sent", p)
		}
	}
	// The next cycle: the judged files are given again, without a call.
	req = request(paths[:5]...)
	req.Excerpts.(excerpts)["f01.go"] = "WITHHELD"
	evs, err = ev.Evaluate(context.Background(), req)
	if err != nil || len(evs) != 4 || calls.Load() != 7 {
		t.Errorf("cycle 2: %d verdicts, %d calls, %v", len(evs), calls.Load(), err)
	}
}

// A call that fails fails the request, but the verdicts of the calls
// that answered go with the error, for the loop to keep.
func TestFailedBatchKeepsTheOthers(t *testing.T) {
	srv, calls := openAIServer(t, func(n int, req openAIReq) (int, http.Header, string) {
		if n == 2 {
			return 400, nil, `{"error":{"message":"bad request"}}`
		}
		return 200, nil, openAIBody(verdicts(req.Messages[1].Content, func(string) float64 { return 0.8 }), "stop")
	})
	ev := New(openAIChat(t, srv.URL, Endpoint{}), Config{Top: 4, Batch: 2, Concurrency: 1})
	evs, err := ev.Evaluate(context.Background(), request("a.go", "b.go", "c.go", "d.go"))
	if err == nil {
		t.Fatal("a failed call: no error")
	}
	var got []string
	for _, e := range evs {
		got = append(got, fmt.Sprintf("%s %.1f", e.Path, e.Score))
	}
	if g := strings.Join(got, ", "); calls.Load() != 2 || g != "a.go 0.8, b.go 0.8" && g != "c.go 0.8, d.go 0.8" {
		t.Errorf("%d calls, verdicts %s: want one batch's two, from the call that answered", calls.Load(), g)
	}
}

// A server that takes no JSON schema is asked for a JSON object instead.
func TestNoSchema(t *testing.T) {
	srv, calls := openAIServer(t, func(_ int, req openAIReq) (int, http.Header, string) {
		if req.ResponseFormat["type"] == "json_schema" {
			return 400, nil, `{"error":{"message":"response_format json_schema is not supported by this model","type":"invalid_request_error"}}`
		}
		// In plain JSON mode, the prompt gives the answer's shape.
		if !strings.Contains(req.Messages[1].Content, `"missing_context"`) {
			t.Errorf("a JSON object asked for without its schema:\n%s", req.Messages[1].Content)
		}
		return 200, nil, openAIBody("```json\n"+verdicts(req.Messages[1].Content, func(string) float64 { return 0.4 })+"\n```", "stop")
	})
	chat := openAIChat(t, srv.URL, Endpoint{})
	evs, err := New(chat, Config{}).Evaluate(context.Background(), request("a.go"))
	if err != nil || len(evs) != 1 || evs[0].Score != 0.4 || calls.Load() != 2 {
		t.Fatalf("%v, %+v, %d calls", err, evs, calls.Load())
	}
	if _, err := New(chat, Config{}).Evaluate(context.Background(), request("b.go")); err != nil || calls.Load() != 3 {
		t.Errorf("the second run asked for a schema again: %v, %d calls", err, calls.Load())
	}
}

// A key may go to any https server, and over plain http to this
// machine; a server that needs no key may be anywhere.
func TestEndpointKeyOverHTTP(t *testing.T) {
	for _, ep := range []Endpoint{
		{Model: "m", Key: "sk-x", BaseURL: "https://openrouter.ai/api/v1"},
		{Model: "m", Key: "sk-x", BaseURL: "http://localhost:11434/v1"},
		{Model: "m", Key: "sk-x", BaseURL: "http://127.0.0.1:8080/v1"},
		{Model: "m", Key: "sk-x", BaseURL: "http://127.1.2.3/v1"},
		{Model: "m", Key: "sk-x", BaseURL: "http://[::1]:8080/v1"},
		{Model: "m", Key: "sk-x", BaseURL: "http://[::ffff:127.0.0.1]:8080/v1"},
		{Model: "m", BaseURL: "http://192.168.1.9:8000/v1"},
	} {
		if _, err := Dial("openai", ep); err != nil {
			t.Errorf("Dial(openai, %s, key %t): %v", ep.BaseURL, ep.Key != "", err)
		}
	}
}

func TestEndpointChecks(t *testing.T) {
	for _, tt := range []struct {
		provider string
		ep       Endpoint
		want     string
	}{
		{"openai", Endpoint{BaseURL: "http://localhost:11434/v1"}, "needs a model"},
		{"openai", Endpoint{Model: "m", BaseURL: "localhost:11434"}, "not an http(s) URL"},
		{"openai", Endpoint{Model: "m", BaseURL: "http://user:pw@host/v1"}, "user or password"},
		{"anthropic", Endpoint{Model: "m"}, "ANTHROPIC_API_KEY"},
		// A key goes over plain http to this machine alone.
		{"openai", Endpoint{Model: "m", Key: "sk-x", BaseURL: "http://192.168.1.9:8000/v1"}, "unencrypted to 192.168.1.9:8000"},
		{"openai", Endpoint{Model: "m", Key: "sk-x", BaseURL: "http://gpu-box.lan/v1"}, "give an https base URL"},
		{"anthropic", Endpoint{Model: "m", Key: "k", BaseURL: "http://proxy.example.com"}, "unencrypted"},
		{"openai", Endpoint{Model: "m", Key: "sk-x", BaseURL: "http://localhost.evil.com/v1"}, "unencrypted"},
		{"openai", Endpoint{Model: "m", Key: "sk-x", BaseURL: "http://127.0.0.1.nip.io/v1"}, "unencrypted"},
		// Names the proxy rules and the resolver do not take for this
		// machine: a proxy in HTTP_PROXY, or the network's DNS, would
		// see the key.
		{"openai", Endpoint{Model: "m", Key: "sk-x", BaseURL: "http://LOCALHOST./v1"}, "unencrypted"},
		{"openai", Endpoint{Model: "m", Key: "sk-x", BaseURL: "http://localhost.:11434/v1"}, "unencrypted"},
		{"openai", Endpoint{Model: "m", Key: "sk-x", BaseURL: "http://ollama.localhost:11434/v1"}, "unencrypted"},
		{"gemini", Endpoint{Model: "m"}, "unknown evaluator"},
	} {
		if _, err := Dial(tt.provider, tt.ep); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Dial(%s, %+v): %v, want %q", tt.provider, tt.ep, err, tt.want)
		}
	}
}

// An answer is read wherever it stands in the text, as local models write
// them: prose with braces before it, a thinking block, a bare array, a
// "./" before a path, a relevance in a string.
// A local server's placeholder key ("1") is no secret to take out of its
// answers: 0.91 stays 0.91.
func TestShortKeyLeavesTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, openAIBody(`{"files":[{"path":"a.go","relevance":0.91,"reason":"r1","missing_context":[],"terms":[]}]}`, "stop"))
	}))
	t.Cleanup(srv.Close)
	c, err := NewOpenAI(Endpoint{BaseURL: srv.URL + "/v1", Model: "m", Key: "1", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := New(c, Config{}).Evaluate(context.Background(), request("a.go"))
	if err != nil || len(evs) != 1 || evs[0].Score != 0.91 {
		t.Fatalf("%+v, %v", evs, err)
	}
}

func TestParseAnswerLenient(t *testing.T) {
	b := []item{{path: "a.go"}, {path: "b.go"}}
	for _, tt := range []struct {
		name, text string
		want       map[string]float64
	}{
		{"as asked", `{"files":[{"path":"a.go","relevance":0.9}]}`, map[string]float64{"a.go": 0.9}},
		{"prose with a brace, then a fence", "Here is {my} answer:\n```json\n{\"files\":[{\"path\":\"a.go\",\"relevance\":0.7}]}\n```\nDone.", map[string]float64{"a.go": 0.7}},
		{"a thinking block with code", "<think>if (x) { return y; }</think>\n{\"files\":[{\"path\":\"b.go\",\"relevance\":0.2}]}", map[string]float64{"b.go": 0.2}},
		{"a bare array", `[{"path":"a.go","relevance":0.5},{"path":"b.go","relevance":0.1}]`, map[string]float64{"a.go": 0.5, "b.go": 0.1}},
		{"./ before a path", `{"files":[{"path":"./a.go","relevance":0.6}]}`, map[string]float64{"a.go": 0.6}},
		{"a relevance in a string", `{"files":[{"path":"a.go","relevance":"0.8"}]}`, map[string]float64{"a.go": 0.8}},
		{"the files under another key", `{"verdicts":[{"path":"a.go","relevance":0.3}]}`, map[string]float64{"a.go": 0.3}},
	} {
		evs, err := parseAnswer(tt.text, b)
		got := map[string]float64{}
		for _, e := range evs {
			got[e.Path] = e.Score
		}
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("%s: %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	if _, err := parseAnswer(`{"result":"a.go looks right, b.go does not"}`, b); !errors.Is(err, ErrMalformed) {
		t.Errorf("an answer with no verdict: %v, want ErrMalformed", err)
	}
}

func FuzzParseAnswer(f *testing.F) {
	f.Add(`{"files":[{"path":"a.go","relevance":0.9,"reason":"r","missing_context":["X"],"terms":["t"]}]}`)
	f.Add("```json\n{\"files\":[]}\n```")
	f.Add(`{"files":[{"path":"a.go","relevance":1e309}]}`)
	f.Add(`not json`)
	f.Fuzz(func(t *testing.T, s string) {
		evs, err := parseAnswer(s, []item{{path: "a.go"}, {path: "b.go"}})
		if err != nil {
			return
		}
		for _, e := range evs {
			if e.Path != "a.go" && e.Path != "b.go" || e.Score < 0 || e.Score > 1 || len(e.Terms) > 4 || len(e.MissingContext) > 4 {
				t.Fatalf("verdict %+v", e)
			}
		}
	})
}

// The API's path goes under the base URL's path, before its query (an
// Azure endpoint's api-version).
func TestEndpointURL(t *testing.T) {
	for _, tt := range []struct{ base, want string }{
		{"https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions"},
		{"https://api.openai.com/v1/", "https://api.openai.com/v1/chat/completions"},
		{"https://x.openai.azure.com/openai/deployments/d?api-version=2024-10-21", "https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21"},
		{"http://localhost:11434/v1", "http://localhost:11434/v1/chat/completions"},
	} {
		if got, err := endpointURL(tt.base, "/chat/completions"); err != nil || got != tt.want {
			t.Errorf("endpointURL(%q) = %q, %v; want %q", tt.base, got, err, tt.want)
		}
	}
}

// A redirect is not followed: Anthropic's key, in a header of its own,
// would go with it to the other host.
func TestNoRedirect(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != "" || r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	_, err := New(anthropicChat(t, srv.URL), Config{}).Evaluate(context.Background(), request("a.go"))
	if err == nil || !strings.Contains(err.Error(), "redirects (HTTP 307)") || leaked.Load() {
		t.Errorf("error %v; key sent on: %v", err, leaked.Load())
	}
}

// A task longer than a quarter of a call is cut in the prompt, visibly.
func TestLongTaskIsCut(t *testing.T) {
	var longest int
	srv, _ := openAIServer(t, func(_ int, req openAIReq) (int, http.Header, string) {
		longest = max(longest, len(req.Messages[1].Content))
		if !strings.Contains(req.Messages[1].Content, "[… the rest of the task is cut]") {
			t.Error("the cut is not marked")
		}
		return 200, nil, openAIBody(verdicts(req.Messages[1].Content, func(string) float64 { return 0.5 }), "stop")
	})
	req := request("a.go")
	req.Task = strings.Repeat("a stack trace line\n", 50000)
	if _, err := New(openAIChat(t, srv.URL, Endpoint{}), Config{CallTokens: 4000}).Evaluate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if longest > 4*4000 {
		t.Errorf("a prompt of %d bytes for 4000 tokens", longest)
	}
}

// The runs of one Model share its limit on calls in flight.
func TestModelSharesItsLimit(t *testing.T) {
	var mu sync.Mutex
	inFlight, most := 0, 0
	srv, _ := openAIServer(t, func(_ int, req openAIReq) (int, http.Header, string) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		return 200, nil, openAIBody(verdicts(req.Messages[1].Content, func(string) float64 { return 0.5 }), "stop")
	})
	m := &Model{Chat: openAIChat(t, srv.URL, Endpoint{}), Config: Config{Batch: 1, Concurrency: 2}}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := m.ForRun().Evaluate(context.Background(), request("a.go", "b.go", "c.go")); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most > 2 {
		t.Errorf("%d calls in flight, over the limit of 2", most)
	}
}

// A call that came to no answer costs nothing; one whose answer holds no
// verdict is counted as failed.
func TestUsageOfFailedCalls(t *testing.T) {
	for _, tt := range []struct {
		name      string
		status    int
		body      string
		wantIn    bool
		wantFails int
	}{
		{"refused", 400, `{"error":{"message":"bad request"}}`, false, 1},
		{"no verdict", 200, openAIBody("I cannot judge these files.", "stop"), true, 1},
	} {
		srv, _ := openAIServer(t, func(int, openAIReq) (int, http.Header, string) { return tt.status, nil, tt.body })
		ev := New(openAIChat(t, srv.URL, Endpoint{}), Config{PriceIn: 3, PriceOut: 15})
		if _, err := ev.Evaluate(context.Background(), request("a.go")); err == nil {
			t.Fatalf("%s: no error", tt.name)
		}
		u := ev.Usage()
		if u.Calls != 1 || u.Failed != tt.wantFails || (u.InputTokens > 0) != tt.wantIn || (u.CostUSD > 0) != tt.wantIn {
			t.Errorf("%s: usage %+v", tt.name, u)
		}
	}
}

// countsChat answers every file at 0.5 and says it spent in and out tokens.
type countsChat struct{ in, out int }

func (countsChat) Name() string { return "fake:counts" }

func (c countsChat) Complete(_ context.Context, p Prompt) (Reply, error) {
	return Reply{Text: verdicts(p.User, func(string) float64 { return 0.5 }), InputTokens: c.in, OutputTokens: c.out}, nil
}

// An endpoint's token counts below zero, or past what a call can spend,
// count as none said: the usage and cost stay what the prompt and answer
// hold, never negative, never wrapped.
func TestUsageCountsChecked(t *testing.T) {
	honest := New(countsChat{}, Config{PriceIn: 1, PriceOut: 2})
	if _, err := honest.Evaluate(context.Background(), request("a.go", "b.go")); err != nil {
		t.Fatal(err)
	}
	want := honest.Usage()
	for _, c := range []countsChat{{-100000, -5000}, {1 << 62, 1 << 62}, {-1, 1 << 40}} {
		ev := New(c, Config{PriceIn: 1, PriceOut: 2})
		if _, err := ev.Evaluate(context.Background(), request("a.go", "b.go")); err != nil {
			t.Fatal(err)
		}
		if u := ev.Usage(); u != want {
			t.Errorf("counts %d in, %d out said: usage %+v, want %+v", c.in, c.out, u, want)
		}
	}
}

// TestOneLineRedactsBeforeItCuts: a token that the cut would split is
// redacted whole first, so that its head does not show.
func TestOneLineRedactsBeforeItCuts(t *testing.T) {
	const token = "ghp_rPmvA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
	got := oneLine(strings.Repeat("x", 185)+" "+token+" and more", 200)
	if strings.Contains(got, "ghp_rPmv") {
		t.Errorf("oneLine shows the token's head: %q", got)
	}
}
