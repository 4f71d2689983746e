//lint:file-ignore SA1019 the tests exercise MCP sampling, deprecated (SEP-2577) but served.

package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hone-tools/hone/modeleval/modelevaltest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplingClient connects a client whose own model answers sampling
// requests by a planted rule: files under src/session are direct, the
// others irrelevant. It keeps each request.
func samplingClient(t *testing.T, repo string, handle func(*mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)) *mcp.ClientSession {
	return samplingClientAt(t, repo, "", handle)
}

// samplingClientAt is samplingClient speaking a protocol version; empty
// for the latest.
func samplingClientAt(t *testing.T, repo, version string, handle func(*mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)) *mcp.ClientSession {
	t.Helper()
	srv, err := New(repo, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := &mcp.ClientOptions{}
	if handle != nil {
		opts.CreateMessageHandler = func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return handle(req)
		}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sampler", Version: "v0"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func plantedAnswer(prompt string) string {
	return "Here is the JSON:\n" + modelevaltest.Answer(prompt, modelevaltest.Session, "the client's model says so")
}

// retrieve_context with use_my_model asks the client's own model through
// sampling, and its verdicts join the ranking: on the latest protocol by
// input requests in the call's round trips (SEP-2322), on older ones by
// requests of the server's own.
func TestRetrieveWithClientModel(t *testing.T) {
	for _, version := range []string{"", "2025-06-18"} {
		t.Run("protocol "+version, func(t *testing.T) {
			var mu sync.Mutex
			var asked []*mcp.CreateMessageParams
			cs := samplingClientAt(t, "../testdata/repos/auth-expiry", version, func(req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				mu.Lock()
				asked = append(asked, req.Params)
				mu.Unlock()
				text := req.Params.Messages[0].Content.(*mcp.TextContent).Text
				return &mcp.CreateMessageResult{Model: "client-model", Role: "assistant", Content: &mcp.TextContent{Text: plantedAnswer(text)}, StopReason: "endTurn"}, nil
			})
			res, _ := call(t, cs, "retrieve_context", map[string]any{"task": "Expired JWT tokens are still accepted by the auth middleware", "use_my_model": true})
			var out RetrieveResult
			b, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(b, &out); err != nil {
				t.Fatal(err)
			}
			if len(asked) == 0 {
				t.Fatalf("the client's model was never asked: %+v %q", out.Model, out.Notice)
			}
			for _, p := range asked {
				if p.SystemPrompt == "" || p.MaxTokens <= 0 || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, "JSON schema") {
					t.Errorf("sampling request %+v", p)
				}
			}
			if len(out.Files) == 0 || !strings.HasPrefix(out.Files[0].Path, "src/session/") || out.Files[0].ModelScore == nil {
				t.Errorf("files %+v, want a session file first", out.Files)
			}
			if out.Model == nil || out.Model.Evaluator != "sampling:sampler" || out.Model.Calls != len(asked) || out.Model.InputTokens == 0 || out.Model.Fallback != "" {
				t.Errorf("model %+v after %d requests", out.Model, len(asked))
			}
		})
	}
}

// Without the capability, or without use_my_model, nothing is sampled;
// asked for anyway, the answer says so.
func TestRetrieveWithoutSampling(t *testing.T) {
	cs := samplingClient(t, "../testdata/repos/auth-expiry", nil)
	res, _ := call(t, cs, "retrieve_context", map[string]any{"task": "Expired JWT tokens are still accepted by the auth middleware", "use_my_model": true})
	var out RetrieveResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Model != nil || !strings.Contains(out.Notice, "does not support MCP sampling") {
		t.Errorf("model %+v, notice %q", out.Model, out.Notice)
	}

	sampled := false
	cs = samplingClient(t, "../testdata/repos/auth-expiry", func(*mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		sampled = true
		return nil, nil
	})
	call(t, cs, "retrieve_context", map[string]any{"task": "Expired JWT tokens are still accepted by the auth middleware"})
	if sampled {
		t.Error("sampled without use_my_model")
	}
}

// A client whose model errs leaves the call to the lexical evaluator,
// with a notice.
func TestClientModelFails(t *testing.T) {
	cs := samplingClient(t, "../testdata/repos/auth-expiry", func(*mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "I'd rather not."}}, nil
	})
	res, _ := call(t, cs, "retrieve_context", map[string]any{"task": "Expired JWT tokens are still accepted by the auth middleware", "use_my_model": true})
	var out RetrieveResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Files) == 0 || out.Model == nil || out.Model.Fallback == "" || !strings.Contains(out.Notice, "lexical evaluator alone") {
		t.Errorf("files %d, model %+v, notice %q", len(out.Files), out.Model, out.Notice)
	}
}

// A call made again with a request state the server does not hold (a run
// over, or another's) is refused, saying what to do.
func TestUnknownRequestState(t *testing.T) {
	cs := samplingClient(t, "../testdata/repos/auth-expiry", nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "retrieve_context", Arguments: map[string]any{"task": "token expiry"}, RequestState: "0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if !res.IsError || !strings.Contains(text, "call retrieve_context again") {
		t.Errorf("error %v: %q", res.IsError, text)
	}
}

// While a call waits on the client's model, the repository's other calls
// go on: the waiting call reads a snapshot of its own.
func TestWaitingCallBlocksNoOther(t *testing.T) {
	asked := make(chan struct{}, 8)
	release := make(chan struct{})
	cs := samplingClient(t, "../testdata/repos/auth-expiry", func(req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		asked <- struct{}{}
		<-release
		text := req.Params.Messages[0].Content.(*mcp.TextContent).Text
		return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: plantedAnswer(text)}}, nil
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "retrieve_context", Arguments: map[string]any{"task": "token expiry", "use_my_model": true}})
	}()
	<-asked
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_code", Arguments: map[string]any{"query": "token"}}); err != nil {
		t.Fatalf("search_code while a call waits on the model: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("search_code took %s while a call waited on the model", d)
	}
	close(release)
	go func() {
		for range asked {
		}
	}()
	<-done
}

// A run whose client never makes the call again is dropped, its answer
// with it, once it ended and waited a while.
func TestAbandonedRunIsDropped(t *testing.T) {
	srv, err := New("../testdata/repos/auth-expiry", t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	srv.runGrace = 50 * time.Millisecond
	defer srv.Close()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A client that asks for input requests back itself, and never
	// answers them.
	opts := &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return nil, nil
		},
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "leaver", Version: "v0"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "retrieve_context", Arguments: map[string]any{"task": "token expiry", "use_my_model": true}})
	if err != nil || !res.NeedsInput() {
		t.Fatalf("%v: the first call does not ask for input: %+v", err, res)
	}
	// The client walks away. Its run waits on it two minutes a request;
	// the test ends that wait as the server's close would, and the ended
	// run must then be dropped after the grace.
	srv.mu.Lock()
	n := len(srv.runs)
	for _, pr := range srv.runs {
		pr.cancel()
	}
	srv.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d runs held", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		srv.mu.Lock()
		n = len(srv.runs)
		srv.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("%d runs still held after the grace", n)
}

// TestLegacyHandshakeAsksByRequests: a client that begins with initialize
// speaks the protocol that handshake agrees, whatever version it asked
// for: the server asks its model by requests of its own, and answers the
// call with its result, never with input requests (a review's finding: a
// client asking for 2026-07-28 in initialize was agreed 2025-11-25 and
// then answered in 2026-07-28's form).
func TestLegacyHandshakeAsksByRequests(t *testing.T) {
	srv, err := New("../testdata/repos/auth-expiry", t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); ss.Wait() })
	id := func(n int64) jsonrpc.ID {
		id, err := jsonrpc.MakeID(float64(n))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	send := func(m jsonrpc.Message) {
		if err := conn.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	send(&jsonrpc.Request{ID: id(0), Method: "initialize", Params: json.RawMessage(`{"protocolVersion":"2026-07-28","capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}`)})
	m, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(m.(*jsonrpc.Response).Result, &init); err != nil || init.ProtocolVersion >= "2026-07-28" {
		t.Fatalf("initialize agreed %q (%v): the test assumes an older protocol", init.ProtocolVersion, err)
	}
	send(&jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)})
	send(&jsonrpc.Request{ID: id(1), Method: "tools/call", Params: json.RawMessage(`{"name":"retrieve_context","arguments":{"task":"Expired JWT tokens are still accepted by the auth middleware","use_my_model":true}}`)})
	asked := 0
	for {
		m, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch m := m.(type) {
		case *jsonrpc.Request:
			if m.Method != "sampling/createMessage" || !m.IsCall() {
				continue // a notification: progress, a log
			}
			asked++
			var p mcp.CreateMessageParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				t.Fatal(err)
			}
			res, _ := json.Marshal(&mcp.CreateMessageResult{Model: "client-model", Role: "assistant", Content: &mcp.TextContent{Text: plantedAnswer(p.Messages[0].Content.(*mcp.TextContent).Text)}, StopReason: "endTurn"})
			send(&jsonrpc.Response{ID: m.ID, Result: res})
		case *jsonrpc.Response:
			if m.ID != id(1) {
				continue
			}
			if m.Error != nil {
				t.Fatal(m.Error)
			}
			var res struct {
				ResultType string            `json:"resultType"`
				Content    []json.RawMessage `json:"content"`
			}
			if err := json.Unmarshal(m.Result, &res); err != nil {
				t.Fatal(err)
			}
			if res.ResultType == "input_required" || len(res.Content) == 0 {
				t.Fatalf("a session begun with initialize got 2026-07-28's answer: %s", m.Result)
			}
			if asked == 0 {
				t.Errorf("the client's model was never asked: %.600s", m.Result)
			}
			return
		}
	}
}
