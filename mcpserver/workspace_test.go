package mcpserver

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectWorkspace starts a server with no repository of its own, and a
// client that names no workspace root.
func connectWorkspace(t *testing.T, fallback string) *mcp.ClientSession {
	t.Helper()
	srv, err := NewWorkspace(fallback, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return connectServer(t, srv)
}

// workspaceWire starts a server with no repository of its own, and a
// session over the wire with a client of these capabilities.
func workspaceWire(t *testing.T, capabilities string) *wire {
	t.Helper()
	srv, err := NewWorkspace("", t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	w := serveWire(t, srv.MCP(), NewStdioTransport(io.Discard), 16)
	w.initializeAs(capabilities)
	return w
}

// initializeAs starts the session as a client of these capabilities.
func (w *wire) initializeAs(capabilities string) {
	w.t.Helper()
	w.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":` + capabilities + `,"clientInfo":{"name":"test","version":"0"}}}`)
	if r, ok := w.await(`"init"`); !ok || r.Error != nil {
		w.t.Fatalf("initialize: %+v", r)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// Without --repo, the server works on the client's workspace: it asks
// the client for its roots (MCP's roots/list) and takes the first that is
// a folder.
func TestWorkspaceRoots(t *testing.T) {
	w := workspaceWire(t, `{"roots":{"listChanged":true}}`)
	defer w.close()
	abs, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	roots, _ := json.Marshal([]map[string]string{
		{"uri": "file:///no/such/folder"},
		{"uri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), "name": "auth-expiry"},
	})
	line, asked := callWithRoots(t, w, roots, `{"name":"read_span","arguments":{"path":"src/auth/auth.ts","start_line":1,"end_line":3}}`)
	var m struct {
		Result struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	if !asked || m.Result.IsError || len(m.Result.Content) == 0 || !strings.Contains(m.Result.Content[0].Text, "import") {
		t.Errorf("read_span on the client's root (asked for roots: %v): %s", asked, line)
	}
}

// A client whose roots are no local folder hears so, not that it named
// none, and what to do before its roots, which a long list may cut.
func TestWorkspaceRootsNotFolders(t *testing.T) {
	w := workspaceWire(t, `{"roots":{"listChanged":true}}`)
	defer w.close()
	roots, _ := json.Marshal([]map[string]string{{"uri": "https://example.com/x"}, {"uri": "file:///no/such/folder"}})
	line, asked := callWithRoots(t, w, roots, `{"name":"index_status","arguments":{}}`)
	if !asked || !strings.Contains(line, `are no local folder`) || !strings.Contains(line, `https://example.com/x, file:///no/such/folder`) || !strings.Contains(line, "start hone mcp with --repo DIR") {
		t.Errorf("index_status with roots that are no folder (asked: %v): %s", asked, line)
	}
	w2 := workspaceWire(t, `{"roots":{"listChanged":true}}`)
	defer w2.close()
	long, _ := json.Marshal([]map[string]string{{"uri": "https://example.com/" + strings.Repeat("p", 200)}, {"uri": "vscode-remote://ssh-remote+box/" + strings.Repeat("q", 200)}})
	if line, _ := callWithRoots(t, w2, long, `{"name":"index_status","arguments":{}}`); !strings.Contains(line, "start hone mcp with --repo DIR") {
		t.Errorf("long roots cut the advice: %s", line)
	}
}

// callWithRoots sends a tools/call of params, as id 1, answers the
// server's roots/list with roots, and returns the call's answer's line
// and whether the server asked for the roots.
func callWithRoots(t *testing.T, w *wire, roots []byte, params string) (string, bool) {
	t.Helper()
	w.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + params + `}`)
	asked := false
	for {
		_, line, ok := w.next()
		if !ok {
			t.Fatal("no answer to the call")
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Method == "roots/list" {
			asked = true
			w.send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"roots":` + string(roots) + `}}`)
			continue
		}
		if string(m.ID) == "1" {
			return line, asked
		}
	}
}

// With no root from the client, the server works on the repository it
// started in; with neither, every call says how to name one.
func TestWorkspaceFallback(t *testing.T) {
	cs := connectWorkspace(t, fixture)
	if res, text := call(t, cs, "file_outline", map[string]any{"path": "src/auth/tokens.ts"}); res.IsError || !strings.Contains(text, "definitions") {
		t.Errorf("file_outline on the fallback: %q", text)
	}
	cs = connectWorkspace(t, "")
	for tool, args := range map[string]map[string]any{
		"retrieve_context": {"task": "token expiry"}, "search_code": {"query": "token"},
		"read_span": {"path": "src/auth/auth.ts", "start_line": 1}, "file_outline": {"path": "src/auth/auth.ts"},
		"index_status": {}, "reindex": {},
	} {
		res, text := call(t, cs, tool, args)
		if !res.IsError || !strings.Contains(text, "start it with --repo") {
			t.Errorf("%s with no workspace: %q, want an error that says to use --repo", tool, text)
		}
	}
}

// A client that did not say it has roots is never asked for them: one
// that cannot answer would leave the call waiting for ever. The call says
// how to name the repository instead.
func TestWorkspaceClientWithoutRoots(t *testing.T) {
	w := workspaceWire(t, `{}`)
	defer w.close()
	w.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"index_status","arguments":{}}}`)
	for {
		_, line, ok := w.next()
		if !ok {
			t.Fatal("no answer to the call")
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Method == "roots/list" {
			t.Fatalf("asked a client without roots for them: %s", line)
		}
		if string(m.ID) != "1" {
			continue
		}
		if !strings.Contains(line, "start it with --repo") {
			t.Errorf("index_status with no workspace: %s, want an error that says to use --repo", line)
		}
		break
	}
}

// More calls at once than the server runs, each asking the client for its
// roots: the client's answers are read while calls wait, and every call is
// answered, those past the bound and its queue that the server is busy.
func TestManyCallsThatAskTheClient(t *testing.T) {
	w := workspaceWire(t, `{"roots":{"listChanged":true}}`)
	defer w.close()
	abs, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	roots, _ := json.Marshal([]map[string]string{{"uri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}})
	const calls = 2*DefaultMaxInFlight + 6
	sent := make(chan struct{})
	var sendMu sync.Mutex
	send := func(line string) {
		sendMu.Lock()
		defer sendMu.Unlock()
		w.send(line)
	}
	go func() {
		defer close(sent)
		for i := range calls {
			send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_span","arguments":{"path":"src/auth/auth.ts","start_line":1,"end_line":2}}}`, i))
		}
	}()
	// The client answers no roots/list until every call is sent: the
	// calls in progress wait on it meanwhile, as they would on a slow
	// client.
	answered, busy := map[string]bool{}, 0
	var held []json.RawMessage
	allSent := false
	sentNow := sent
	for len(answered) < calls {
		var line string
		select {
		case <-sentNow:
			allSent, sentNow = true, nil
			for _, id := range held {
				go send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"roots":` + string(roots) + `}}`)
			}
			held = nil
			continue
		case l, ok := <-w.lines:
			if !ok {
				t.Fatalf("%d of %d calls answered (%d busy), then the session ended", len(answered), calls, busy)
			}
			line = l
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d calls answered (%d busy, all sent: %v), then nothing for 10s", len(answered), calls, busy, allSent)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Method == "roots/list" {
			if !allSent {
				held = append(held, m.ID)
				continue
			}
			go send(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"roots":` + string(roots) + `}}`)
			continue
		}
		switch {
		case m.Error != nil && m.Error.Code == codeBusy:
			busy++
		case m.Error != nil || m.Result == nil || m.Result.IsError:
			t.Errorf("call %s: %.300s", m.ID, line)
		}
		answered[string(m.ID)] = true
	}
	<-sent
	if busy > calls-2*DefaultMaxInFlight {
		t.Errorf("%d of %d calls refused as busy; want %d at most", busy, calls, calls-2*DefaultMaxInFlight)
	}
}

// A client that says it has roots but never answers for them leaves the
// call to the server's fallback repository, after rootsTimeout, not
// waiting for good.
func TestRootsNeverAnswered(t *testing.T) {
	old := rootsTimeout
	rootsTimeout = 200 * time.Millisecond
	t.Cleanup(func() { rootsTimeout = old })
	srv, err := NewWorkspace(fixture, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	w := serveWire(t, srv.MCP(), NewStdioTransport(io.Discard), 16)
	defer w.close()
	w.initializeAs(`{"roots":{}}`)
	// Each call, until the client says its roots changed: the first asks
	// and waits; the second is not asked again, and waits for nothing; a
	// call after the client said its roots changed asks again.
	asks := func(id string) int {
		t.Helper()
		w.send(`{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"read_span","arguments":{"path":"src/auth/auth.ts","start_line":1,"end_line":2}}}`)
		n := 0
		for {
			r, line, ok := w.next()
			if !ok {
				t.Fatalf("call %s: no answer", id)
			}
			if strings.Contains(line, `"method":"roots/list"`) {
				n++
				continue
			}
			if string(r.ID) == `"`+id+`"` {
				if r.Error != nil || !strings.Contains(string(r.Result), "import") {
					t.Errorf("call %s, whose roots were never answered: %+v", id, r)
				}
				return n
			}
		}
	}
	if n := asks("first"); n != 1 {
		t.Errorf("the first call asked for the roots %d times, want once", n)
	}
	if n := asks("second"); n != 0 {
		t.Errorf("the second call asked for the roots %d times, want none: the client did not answer the first", n)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	if n := asks("third"); n != 1 {
		t.Errorf("a call after the roots changed asked for them %d times, want once", n)
	}
}

// A request cancelled while it waits for a slot does not run: with one
// slot taken by a call waiting on the client's roots, a second call
// queued and then cancelled asks nothing of the client and gets no reply.
func TestCancelledWhileQueued(t *testing.T) {
	srv, err := NewWorkspace("", t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	w := serveWire(t, srv.MCP(), &Transport{MaxInFlight: 1}, 16)
	defer w.close()
	w.initializeAs(`{"roots":{}}`)
	abs, err := filepath.Abs(fixture)
	if err != nil {
		t.Fatal(err)
	}
	roots, _ := json.Marshal([]map[string]string{{"uri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()}})
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"read_span","arguments":{"path":"src/auth/auth.ts","start_line":1,"end_line":2}}}`
	}
	w.send(call("a"))
	// The first call asks for the roots; the second waits for its slot.
	var asked json.RawMessage
	for asked == nil {
		_, line, ok := w.next()
		if !ok {
			t.Fatal("no roots/list for the first call")
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal([]byte(line), &m)
		if m.Method == "roots/list" {
			asked = m.ID
		}
	}
	w.send(call("b"))
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b","reason":"the user moved on"}}`)
	w.send(`{"jsonrpc":"2.0","id":` + string(asked) + `,"result":{"roots":` + string(roots) + `}}`)
	if r, ok := w.await(`"a"`); !ok || r.Error != nil {
		t.Fatalf("the first call: %+v", r)
	}
	w.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	for {
		r, line, ok := w.next()
		if !ok {
			t.Fatal("no reply to the ping after")
		}
		if strings.Contains(line, `"roots/list"`) || string(r.ID) == `"b"` {
			t.Fatalf("the cancelled call ran: %s", line)
		}
		if string(r.ID) == `"after"` {
			break
		}
	}
}

// A client whose workspace is the file system's root, or the user's home
// folder, gets an error that says what to do, not an index of everything.
func TestWorkspaceTooBroad(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	// The root written otherwise is the root: "/tmp/..", "//", "/.".
	up := "/" + strings.Split(filepath.ToSlash(home), "/")[1] + "/.." // "/tmp/.."
	if err := os.Mkdir(filepath.Join(home, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"/", home, up, "//", "/.", home + "/sub/.."} {
		w := workspaceWire(t, `{"roots":{"listChanged":true}}`)
		roots, _ := json.Marshal([]map[string]string{{"uri": "file://" + filepath.ToSlash(dir)}})
		line, _ := callWithRoots(t, w, roots, `{"name":"index_status","arguments":{}}`)
		if !strings.Contains(line, `"isError":true`) || !strings.Contains(line, "does not index unasked") {
			t.Errorf("a workspace of %s: %s", dir, line)
		}
		w.close()
	}
}

// rootDir takes a file:// URI of a folder on this machine, and no other
// machine's folder of the same path.
func TestRootDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	slash := filepath.ToSlash(dir)
	for _, tt := range []struct {
		uri string
		ok  bool
	}{
		{"file://" + slash, true},
		{"file://localhost" + slash, true},
		{"file://LOCALHOST" + slash, true},
		{"file://otherhost" + slash, false}, // on Windows, a share that does not exist
		{"https://example.com" + slash, false},
		{"file://" + slash + "/missing", false},
		{"file://" + slash + "/.", true},
		{"file://" + slash + "/sub/..", true},
	} {
		got, ok := rootDir(tt.uri)
		if ok != tt.ok || ok && got != dir {
			t.Errorf("rootDir(%q) = %q, %v; want ok %v", tt.uri, got, ok, tt.ok)
		}
	}
}
