package mcpserver

import (
	"context"
	"encoding/json"
	"github.com/hone-tools/hone/internal/testenv"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/pack"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain: the fixtures are folders of this project's repository; git
// stops looking for a repository at testdata/repos, so that they have no
// history, whatever commit of hone is checked out.
func TestMain(m *testing.M) {
	testenv.Main(m, filepath.Join("..", "testdata", "repos"))
}

var fixture = filepath.Join("..", "testdata", "repos", "auth-expiry")

// connect starts the server on a repository and a client beside it, over
// the SDK's in-memory transports.
func connect(t testing.TB, repo string) *mcp.ClientSession {
	t.Helper()
	srv, err := New(repo, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return connectServer(t, srv)
}

// connectServer starts a server and a client beside it.
func connectServer(t testing.TB, srv *Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return res, text.String()
}

func TestTools(t *testing.T) {
	cs := connect(t, fixture)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.Description == "" || tl.InputSchema == nil {
			t.Errorf("%s: no description or schema", tl.Name)
		}
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "retrieve_context") || !strings.Contains(got, "read_span") ||
		!strings.Contains(got, "search_code") || !strings.Contains(got, "file_outline") || !strings.Contains(got, "index_status") || !strings.Contains(got, "reindex") {
		t.Errorf("tools: %s", got)
	}

	res, text := call(t, cs, "retrieve_context", map[string]any{"task": "fix the auth token expiry bug", "budget_tokens": 3000})
	if res.IsError || !strings.Contains(text, "# Context pack from hone") || !strings.Contains(text, "src/session/session-manager.ts") {
		t.Errorf("retrieve_context: %s", text)
	}
	var out RetrieveResult
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	if len(out.Files) != 2 || out.Files[0].Role != hone.RoleTarget || out.StopReason != "max_cycles" || out.Tokens > 3000 {
		t.Errorf("retrieve_context structured: %+v", out)
	}

	// max_files bounds the targets.
	res, _ = call(t, cs, "retrieve_context", map[string]any{"task": "fix the auth token expiry bug", "max_files": 1})
	b, _ = json.Marshal(res.StructuredContent)
	out = RetrieveResult{}
	json.Unmarshal(b, &out)
	targets := 0
	for _, f := range out.Files {
		if f.Role == "target" {
			targets++
		}
	}
	if targets != 1 {
		t.Errorf("retrieve_context max_files 1: %d targets in %+v", targets, out.Files)
	}

	_, text = call(t, cs, "search_code", map[string]any{"query": "refreshSession"})
	if !strings.Contains(text, "src/session/session-manager.ts") || !strings.Contains(text, "refreshSession(") {
		t.Errorf("search_code: %s", text)
	}
	_, text = call(t, cs, "file_outline", map[string]any{"path": "src/session/session-manager.ts"})
	if !strings.Contains(text, "91-101 function refreshSession") {
		t.Errorf("file_outline: %s", text)
	}
	_, text = call(t, cs, "read_span", map[string]any{"path": "src/auth/auth.ts", "start_line": 31, "end_line": 33})
	if !strings.HasPrefix(text, "31: export function isTokenExpired") || strings.Count(text, "\n") != 3 {
		t.Errorf("read_span: %q", text)
	}
	_, text = call(t, cs, "index_status", map[string]any{})
	if !strings.Contains(text, "files ") {
		t.Errorf("index_status: %s", text)
	}
	_, text = call(t, cs, "reindex", map[string]any{"rebuild": true})
	if !strings.Contains(text, "added") {
		t.Errorf("reindex: %s", text)
	}
}

// TestReadSpanRefuses checks the escapes: read_span and file_outline read
// only files inside the repository, and never secrets.
func TestReadSpanRefuses(t *testing.T) {
	repo := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "passwd"), []byte("root:x:0:0\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(repo, ".env"), []byte("TOKEN=secret\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "id_rsa"), []byte("-----BEGIN\n"), 0o644)
	os.Symlink(filepath.Join(outside, "passwd"), filepath.Join(repo, "link"))
	os.Symlink(outside, filepath.Join(repo, "dirlink"))
	cs := connect(t, repo)
	for _, tt := range []struct{ path, why string }{
		{"../" + filepath.Base(outside) + "/passwd", "leaves the repository"},
		{"a/../../x", "leaves the repository"},
		{filepath.Join(outside, "passwd"), "is absolute"},
		{"link", "link that leaves the repository"},
		{"dirlink/passwd", "link that leaves the repository"},
		{".env", "secret-bearing"},
		{"id_rsa", "secret-bearing"},
		{"missing.go", "no such file"},
		{"", "path is empty"},
	} {
		for _, tool := range []string{"read_span", "file_outline"} {
			args := map[string]any{"path": tt.path}
			if tool == "read_span" {
				args["start_line"] = 1
			}
			res, text := call(t, cs, tool, args)
			if !res.IsError || !strings.Contains(text, tt.why) {
				t.Errorf("%s %q: error %v, %q; want it refused as %q", tool, tt.path, res.IsError, text, tt.why)
			}
			if strings.Contains(text, "root:x") || strings.Contains(text, "TOKEN=secret") {
				t.Errorf("%s %q leaked contents", tool, tt.path)
			}
		}
	}
	res, text := call(t, cs, "read_span", map[string]any{"path": "a.go", "start_line": 5})
	if !res.IsError || !strings.Contains(text, "past its end") {
		t.Errorf("read_span past the end: %q", text)
	}
}

func TestErrorsAndCancellation(t *testing.T) {
	cs := connect(t, fixture)
	res, text := call(t, cs, "retrieve_context", map[string]any{"task": "  "})
	if !res.IsError || !strings.Contains(text, "the task is empty") {
		t.Errorf("empty task: %q", text)
	}
	// JSON's escapes of lone surrogates arrive as U+FFFD: a task of them
	// alone is no text, refused as an empty one is.
	for _, task := range []string{"\uFFFD\uFFFD", " \uFFFD \n"} {
		res, text = call(t, cs, "retrieve_context", map[string]any{"task": task})
		if !res.IsError || !strings.Contains(text, "the task is not text") {
			t.Errorf("a task of U+FFFD alone: error %v, %q", res.IsError, text)
		}
	}
	// A budget too small for the pack's header asks for more by the name
	// MCP gives it.
	res, text = call(t, cs, "retrieve_context", map[string]any{"task": "token expiry", "budget_tokens": 40})
	if res.IsError || !strings.Contains(text, "too small for the header; raise budget_tokens to ") || strings.Contains(text, "--budget") {
		t.Errorf("a budget too small for the header: error %v, %q", res.IsError, text)
	}
	res, text = call(t, cs, "search_code", map[string]any{"query": "the of"})
	if !res.IsError || !strings.Contains(text, "no words to search") {
		t.Errorf("empty query: %q", text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "retrieve_context", Arguments: map[string]any{"task": "token expiry"}}); err == nil {
		t.Error("a cancelled call succeeded")
	}
	// The session still serves after a cancelled call.
	if _, text := call(t, cs, "index_status", map[string]any{}); !strings.Contains(text, "files ") {
		t.Errorf("after cancellation: %q", text)
	}
}

// retrieve_context's answer stays within budget_tokens, the note of a
// cut pack with it where it fits, the smallest budgets too.
func TestRetrieveContextWithinBudget(t *testing.T) {
	cs := connect(t, fixture)
	for _, budget := range []int{32, 33, 40, 50, 60, 120, 300, 500, 900, 1500} {
		_, text := call(t, cs, "retrieve_context", map[string]any{"task": "fix the auth token expiry bug", "budget_tokens": budget})
		if n := pack.CountTokens(text); n > budget {
			t.Errorf("budget %d: the answer holds %d tokens", budget, n)
		}
	}
}

// The server's log says what each tool call was: the tool, its time, and
// its error as the client got it.
func TestCallsLogged(t *testing.T) {
	var log syncBuffer
	srv, err := New(fixture, t.TempDir(), slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cs := connectServer(t, srv)
	call(t, cs, "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": 1, "end_line": 3})
	call(t, cs, "read_span", map[string]any{"path": "../outside.ts", "start_line": 1})
	got := log.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`msg="tool call" tool=read_span ms=\d+`),
		regexp.MustCompile(`msg="tool call refused" tool=read_span ms=\d+ err=".*outside`),
	} {
		if !want.MatchString(got) {
			t.Errorf("the log lacks %s:\n%s", want, got)
		}
	}
}

// syncBuffer is a buffer safe for a logger's and a test's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
