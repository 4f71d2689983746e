package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wire is a client speaking raw lines to a server over pipes.
type wire struct {
	t       testing.TB
	in      *io.PipeWriter
	lines   chan string
	session *mcp.ServerSession
}

// reply is what a test reads of a reply line.
type reply struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *jsonrpc.Error  `json:"error"`
}

// serveWire connects a transport over pipes to srv. The client holds up
// to buffer replies it has not read yet: with none, the server can write
// a reply only when the test reads it.
func serveWire(t testing.TB, srv *mcp.Server, tr *Transport, buffer int) *wire {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr.Reader, tr.Writer = inR, outW
	ss, err := srv.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := &wire{t: t, in: inW, lines: make(chan string, buffer), session: ss}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w
}

// close ends the input and waits for the session to end.
func (w *wire) close() {
	w.in.Close()
	done := make(chan struct{})
	go func() {
		for range w.lines {
		}
	}()
	go func() { w.session.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		w.t.Error("the session did not end when its input did")
	}
}

func (w *wire) send(line string) {
	w.t.Helper()
	done := make(chan error, 1)
	go func() { _, err := io.WriteString(w.in, line+"\n"); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			w.t.Fatalf("the server stopped reading: %v", err)
		}
	case <-time.After(10 * time.Second):
		w.t.Fatalf("the server read nothing for 10s; sending %.80q", line)
	}
}

// next reads the next reply; ok is false when the server said nothing
// for 10s or ended.
func (w *wire) next() (reply, string, bool) {
	w.t.Helper()
	select {
	case line, ok := <-w.lines:
		if !ok {
			return reply{}, "", false
		}
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Version != "2.0" {
			w.t.Errorf("a reply that is not JSON-RPC 2.0: %.300q (%v)", line, err)
		}
		return r, line, true
	case <-time.After(10 * time.Second):
		return reply{}, "", false
	}
}

// await reads replies until the one with the given id.
func (w *wire) await(id string) (reply, bool) {
	w.t.Helper()
	for {
		r, _, ok := w.next()
		if !ok {
			return reply{}, false
		}
		if string(r.ID) == id {
			return r, true
		}
	}
}

func (w *wire) initialize() {
	w.t.Helper()
	w.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	if r, ok := w.await(`"init"`); !ok || r.Error != nil {
		w.t.Fatalf("initialize: %+v", r)
	}
	w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func quietServer(t testing.TB) *mcp.Server {
	t.Helper()
	srv, err := New(fixture, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.MCP()
}

// malformed are lines that are not a message the server takes, with the
// error code and the reply's id they get; a code of 0 means no reply (a
// blank line is no message), and an id of "" means any reply will do.
var malformed = []struct {
	name, line string
	code       int64
	id         string
}{
	{"open brace", `{`, -32700, "null"},
	{"not json", `not json`, -32700, "null"},
	{"empty array", `[]`, -32600, "null"},
	{"empty object", `{}`, -32600, "null"},
	{"null", `null`, -32600, "null"},
	{"number", `123`, -32600, "null"},
	{"string", `"ping"`, -32600, "null"},
	{"true", `true`, -32600, "null"},
	{"invalid UTF-8", "\xff\xfe\xfd", -32700, "null"},
	{"invalid UTF-8 in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xc3\x28\"}", -32700, "null"},
	{"NUL byte", "{\"jsonrpc\":\"2.0\",\x00\"id\":1}", -32700, "null"},
	{"id object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, "null"},
	{"id array", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "null"},
	{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
	{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
	{"id fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "null"},
	{"id huge", `{"jsonrpc":"2.0","id":1e999,"method":"ping"}`, -32600, "null"},
	{"id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600, "null"},
	{"id too long", `{"jsonrpc":"2.0","id":"` + strings.Repeat("i", 300) + `","method":"ping"}`, -32600, "null"},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`, -32600, "null"},
	{"two objects", `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, -32700, "null"},
	{"object and garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, -32700, "null"},
	{"no version", `{"id":3,"method":"ping"}`, -32600, "3"},
	{"version 1.0", `{"jsonrpc":"1.0","id":30,"method":"ping"}`, -32600, "30"},
	{"version number", `{"jsonrpc":2.0,"id":31,"method":"ping"}`, -32600, "31"},
	{"version in capitals", `{"JSONRPC":"2.0","id":32,"method":"ping"}`, -32600, "32"},
	{"method number", `{"jsonrpc":"2.0","id":4,"method":5}`, -32600, "4"},
	{"method null", `{"jsonrpc":"2.0","id":33,"method":null}`, -32600, "33"},
	{"params string", `{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}`, -32600, "5"},
	{"params number", `{"jsonrpc":"2.0","id":34,"method":"ping","params":12}`, -32600, "34"},
	{"reply without id", `{"jsonrpc":"2.0","result":{}}`, -32600, "null"},
	{"reply with result and error", `{"jsonrpc":"2.0","id":6,"result":{},"error":{"code":1,"message":"x"}}`, -32600, "null"},
	{"reply with a bad error", `{"jsonrpc":"2.0","id":6,"error":"boom"}`, -32600, "6"},
	{"neither request nor reply", `{"jsonrpc":"2.0","id":6}`, -32600, "null"},
	{"huge number in params", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_span","arguments":{"path":"a","start_line":1e400}}}`, 0, "7"},
	{"huge exponent", `{"jsonrpc":"2.0","id":35,"method":"ping","params":{"x":1e99999999999}}`, 0, "35"},
	{"nested past the SDK's depth", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}}`, -32600, "8"},
	{"nested past any depth", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`, -32700, "null"},
	{"deeply nested arrays", strings.Repeat("[", 50000) + strings.Repeat("]", 50000), -32700, "null"},
	{"deeply nested objects", strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000), -32700, "null"},
	{"unclosed string", `{"jsonrpc":"2.0","id":9,"method":"ping`, -32700, "null"},
	{"unknown method", `{"jsonrpc":"2.0","id":10,"method":"no/such"}`, -32601, "10"},
	{"empty method", `{"jsonrpc":"2.0","id":36,"method":""}`, -32601, "36"},
	{"tool call without params", `{"jsonrpc":"2.0","id":11,"method":"tools/call"}`, 0, "11"},
	{"unknown tool", `{"jsonrpc":"2.0","id":37,"method":"tools/call","params":{"name":"` + strings.Repeat("x", 100<<10) + `"}}`, 0, "37"},
	{"unexpected reply", `{"jsonrpc":"2.0","id":"nobody-asked","result":{}}`, 0, ""},
	{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/nothing"}`, 0, ""},
	{"cancel of nothing", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`, 0, ""},
	{"white space around a request", " \t{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\"} \t\r", 0, "13"},
	{"a notification with a space after it", `{"jsonrpc":"2.0","method":""} `, 0, ""},
	{"empty line", ``, 0, ""},
	{"whitespace", " \t \r", 0, ""},
	{"carriage return", "\r", 0, ""},
	{"line over the limit", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"retrieve_context","arguments":{"task":"` + strings.Repeat("t", 200<<10) + `"}}}`, -32600, "12"},
	{"line over the limit, no id", strings.Repeat("x", 300<<10), -32600, "null"},
}

// TestMalformedInput sends every malformed line to a real server, each
// followed by a valid request: each bad line gets its error reply, and the
// server answers the next request.
// Each case has an id of its own: the SDK may still hold a request's id
// for a moment after its reply is sent, and a next request with the same
// id is then refused as still in progress.
func TestMalformedInput(t *testing.T) {
	w := serveWire(t, quietServer(t), &Transport{MaxLine: 128 << 10}, 1024)
	defer w.close()
	w.initialize()
	survived := 0
	for i, tt := range malformed {
		w.send(tt.line)
		next := fmt.Sprintf(`"after-%d"`, i)
		w.send(`{"jsonrpc":"2.0","id":` + next + `,"method":"tools/list"}`)
		// The transport's own replies come before the next request's; the
		// SDK's may come after, as it answers requests concurrently.
		var got []reply
		ok, seen := false, tt.id == "" || tt.id == "null"
		for !ok || !seen {
			r, line, more := w.next()
			if !more {
				t.Fatalf("%s: the server stopped answering", tt.name)
			}
			if string(r.ID) == next {
				ok = true
				if r.Error != nil || !strings.Contains(string(r.Result), "read_span") {
					t.Errorf("%s: tools/list after it: %.300s", tt.name, line)
				}
				continue
			}
			if len(line) > 1000 {
				t.Errorf("%s: a reply of %d bytes: %.300s", tt.name, len(line), line)
			}
			seen = seen || string(r.ID) == tt.id
			got = append(got, r)
		}
		switch {
		case tt.code == 0 && tt.id == "" && len(got) > 0:
			t.Errorf("%s: replies %+v, want none", tt.name, got)
		case tt.id != "" && (len(got) != 1 || string(got[0].ID) != tt.id):
			t.Errorf("%s: replies %+v, want one with id %s", tt.name, got, tt.id)
		case tt.code != 0 && (len(got) != 1 || got[0].Error == nil || got[0].Error.Code != tt.code):
			t.Errorf("%s: replies %+v, want error %d", tt.name, got, tt.code)
		default:
			survived++
		}
	}
	t.Logf("malformed inputs survived: %d of %d", survived, len(malformed))
}

// TestCheckMessage checks the line check alone: valid messages pass, as
// the SDK reads them.
func TestCheckMessage(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping","params":null}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"ping","params":[]}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}`,
		`  {"jsonrpc":"2.0","id":1,"method":"ping"}  `,
	} {
		if bad := checkMessage([]byte(line)); bad != nil {
			t.Errorf("%s: refused: %+v", line, bad)
		}
	}
	for _, tt := range malformed {
		if tt.code != -32700 && tt.code != -32600 || strings.HasPrefix(tt.name, "line over") {
			continue
		}
		if bad := checkMessage([]byte(tt.line)); bad == nil || bad.code != tt.code {
			t.Errorf("%s: %+v, want code %d", tt.name, bad, tt.code)
		}
	}
}

// TestInFlightBound: a client that writes requests and never reads the
// replies. The requests in progress never pass the bound, the server stops
// reading its input, and once the client reads, every request is answered.
func TestInFlightBound(t *testing.T) {
	const bound, requests = 4, 200
	var now, most atomic.Int64
	tr := &Transport{MaxInFlight: bound, inFlight: func(n int) {
		now.Store(int64(n))
		for m := most.Load(); int64(n) > m && !most.CompareAndSwap(m, int64(n)); m = most.Load() {
		}
	}}
	w := serveWire(t, quietServer(t), tr, 0)
	defer w.close()
	w.initialize()

	var sent atomic.Int64
	go func() {
		for i := range requests {
			if _, err := fmt.Fprintf(w.in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i); err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	// Wait until the client can send no more.
	last := int64(-1)
	for sent.Load() != last {
		last = sent.Load()
		time.Sleep(300 * time.Millisecond)
	}
	if most.Load() > bound {
		t.Errorf("%d requests in progress, over the bound of %d", most.Load(), bound)
	}
	// The server holds the requests in progress, one decoded, one line;
	// the client's pipe reader holds a reply or two.
	if last > bound+8 {
		t.Errorf("the server read %d requests while it could write no reply; want at most %d", last, bound+8)
	}
	answered := map[string]bool{}
	for len(answered) < requests {
		r, _, ok := w.next()
		if !ok {
			t.Fatalf("%d of %d requests answered, then nothing", len(answered), requests)
		}
		if r.Error != nil {
			t.Errorf("ping %s: %v", r.ID, r.Error.Message)
		}
		answered[string(r.ID)] = true
	}
	if most.Load() > bound || most.Load() < 1 {
		t.Errorf("at most %d requests in progress; want 1 to %d", most.Load(), bound)
	}
	deadline := time.Now().Add(5 * time.Second)
	for now.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if now.Load() != 0 {
		t.Errorf("%d requests still in progress after every reply", now.Load())
	}
	t.Logf("sent %d requests before the server stopped reading; at most %d in progress", last, most.Load())
}

// fakeConn is an SDK connection that returns given messages and records
// what is written.
type fakeConn struct {
	msgs   chan jsonrpc.Message
	mu     sync.Mutex
	writes []jsonrpc.Message
}

func (c *fakeConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m, ok := <-c.msgs:
		if !ok {
			return nil, io.EOF
		}
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *fakeConn) Write(_ context.Context, m jsonrpc.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, m)
	return nil
}

func (c *fakeConn) Close() error      { return nil }
func (c *fakeConn) SessionID() string { return "" }

// TestBoundedConn: a request whose id is still in progress is answered at
// once with an error, and takes no slot; a full set of slots holds the
// next request until a reply frees one.
func TestBoundedConn(t *testing.T) {
	fake := &fakeConn{msgs: make(chan jsonrpc.Message, 8)}
	c := &boundedConn{inner: fake, slots: make(chan struct{}, 2), pending: map[jsonrpc.ID]bool{}, done: make(chan struct{})}
	id := func(n float64) jsonrpc.ID {
		id, err := jsonrpc.MakeID(n)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	call := func(n float64) *jsonrpc.Request { return &jsonrpc.Request{ID: id(n), Method: "ping"} }
	ctx := context.Background()
	fake.msgs <- call(1)
	fake.msgs <- call(1) // a duplicate, answered by the connection
	fake.msgs <- &jsonrpc.Request{Method: "notifications/x"}
	fake.msgs <- call(2)
	fake.msgs <- call(3)
	for _, want := range []string{"1", "notifications/x", "2"} {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r := m.(*jsonrpc.Request)
		if got := fmt.Sprint(r.ID.Raw()); r.IsCall() && got != want || !r.IsCall() && r.Method != want {
			t.Errorf("read %v %s, want %s", r.ID.Raw(), r.Method, want)
		}
	}
	if len(fake.writes) != 1 {
		t.Fatalf("writes %v, want the duplicate's error", fake.writes)
	}
	if resp := fake.writes[0].(*jsonrpc.Response); resp.ID.Raw() != int64(1) || !strings.Contains(resp.Error.Error(), "still in progress") {
		t.Errorf("the duplicate's reply: %+v", resp)
	}
	// Two in progress: the third waits for a reply.
	got := make(chan jsonrpc.Message, 1)
	go func() {
		m, _ := c.Read(ctx)
		got <- m
	}()
	select {
	case m := <-got:
		t.Fatalf("read %v past the bound", m)
	case <-time.After(200 * time.Millisecond):
	}
	if err := c.Write(ctx, &jsonrpc.Response{ID: id(1), Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m.(*jsonrpc.Request).ID.Raw() != int64(3) {
			t.Errorf("read %v, want request 3", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a reply freed no slot")
	}
}

// FuzzServerInput sends any bytes to a real server, then a ping: the
// server must not crash, every reply must be JSON-RPC, and the ping must
// be answered.
func FuzzServerInput(f *testing.F) {
	for _, tt := range malformed {
		if len(tt.line) < 4096 {
			f.Add([]byte(tt.line))
		}
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"0"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_span","arguments":{"path":"src/auth/auth.ts","start_line":1,"end_line":3}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	srv := quietServer(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		w := serveWire(t, srv, &Transport{MaxLine: 64 << 10}, 1024)
		defer w.close()
		sent := make(chan error, 1)
		go func() {
			_, err := w.in.Write(append(append([]byte{}, data...), '\n'))
			if err == nil {
				_, err = io.WriteString(w.in, `{"jsonrpc":"2.0","id":"fuzz-final","method":"ping"}`+"\n")
			}
			sent <- err
		}()
		if _, ok := w.await(`"fuzz-final"`); !ok {
			t.Fatalf("the ping after %.200q was not answered", data)
		}
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
	})
}

// A client that writes its requests and closes its end gets every reply:
// the session ends once the requests in progress are answered.
func TestRepliesBeforeTheInputsEnd(t *testing.T) {
	w := serveWire(t, quietServer(t), &Transport{}, 16)
	w.initialize()
	w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"retrieve_context","arguments":{"task":"token expiry","budget_tokens":300}}}`)
	w.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	w.in.Close()
	got := map[string]bool{}
	for {
		r, line, ok := w.next()
		if !ok {
			break
		}
		if r.Error != nil {
			t.Errorf("an error: %.300s", line)
		}
		got[string(r.ID)] = true
	}
	if !got["2"] || !got["3"] {
		t.Errorf("replies to %v, want 2 and 3", got)
	}
	done := make(chan struct{})
	go func() { w.session.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Error("the session did not end when its input did")
	}
}

// A call before initialize, or a second initialize, is refused with
// JSON-RPC's code for an invalid request and what to do, not the SDK's
// code 0.
func TestSessionOrderErrors(t *testing.T) {
	w := serveWire(t, quietServer(t), &Transport{}, 16)
	w.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_span","arguments":{"path":"a","start_line":1}}}`)
	r, ok := w.await("1")
	if !ok || r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest || !strings.Contains(r.Error.Message, "send initialize first") {
		t.Errorf("a call before initialize: %+v", r.Error)
	}
	w.initialize()
	w.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	r, ok = w.await("2")
	if !ok || r.Error == nil || r.Error.Code == 0 {
		t.Errorf("a second initialize: %+v", r.Error)
	}
}

// Arguments that are not an object of named values are refused in the
// tool's terms, not Go's.
func TestArgumentsNotAnObject(t *testing.T) {
	w := serveWire(t, quietServer(t), &Transport{}, 16)
	w.initialize()
	w.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"retrieve_context","arguments":"auth"}}`)
	r, ok := w.await("7")
	if !ok {
		t.Fatal("no reply")
	}
	msg := string(r.Result)
	if r.Error != nil {
		msg = r.Error.Message
	}
	if !strings.Contains(msg, "the arguments must be a JSON object of named values, not a string") || strings.Contains(msg, "map[string]") {
		t.Errorf("arguments a string: %s", msg)
	}
}

// A client that closes its input while the server waits on its model's
// verdict (sampling) still gets its reply at once: the server answers its
// own question in the client's place and goes on without the model,
// rather than wait out drainLimit.
func TestInputsEndAnswersWhatTheServerAsked(t *testing.T) {
	for _, tt := range []struct {
		name string
		// closeFirst: the input ends right after the calls, before the
		// server asks; queued: a second call waits for the one slot.
		closeFirst, queued bool
	}{
		{"asked, then the input's end", false, false},
		{"the input's end, then asked", true, false},
		{"a call queued behind the one that asked", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := &Transport{}
			if tt.queued {
				tr.MaxInFlight = 1
			}
			w := serveWire(t, quietServer(t), tr, 16)
			w.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}},"clientInfo":{"name":"test","version":"0"}}}`)
			if r, ok := w.await(`"init"`); !ok || r.Error != nil {
				t.Fatalf("initialize: %+v", r)
			}
			w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"retrieve_context","arguments":{"task":"token expiry","budget_tokens":300,"use_my_model":true}}}`)
			want := map[string]bool{"2": true}
			if tt.queued {
				w.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_span","arguments":{"path":"src/auth/tokens.ts","start_line":1,"end_line":2}}}`)
				want["3"] = true
			}
			start := time.Now()
			if tt.closeFirst {
				w.in.Close()
			} else {
				// The server asks the client's model, then the input ends.
				for {
					_, line, ok := w.next()
					if !ok {
						t.Fatal("the server asked the client nothing")
					}
					if strings.Contains(line, `"sampling/createMessage"`) {
						break
					}
				}
				start = time.Now()
				w.in.Close()
			}
			for len(want) > 0 {
				r, line, ok := w.next()
				if !ok {
					t.Fatalf("no reply to %v once the input ended", want)
				}
				if !want[string(r.ID)] {
					continue
				}
				delete(want, string(r.ID))
				if r.Error != nil || strings.Contains(line, `"isError":true`) {
					t.Errorf("call %s failed: %.300s", r.ID, line)
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the replies took %v after the input ended", d)
			}
		})
	}
}

// A request's id is free again once its reply is read: a client that
// sends each ping under the same id, after the last one's reply, is never
// told that one is still in progress.
func TestIDReusedAfterItsReply(t *testing.T) {
	w := serveWire(t, quietServer(t), &Transport{}, 16)
	defer w.close()
	w.initialize()
	for i := range 300 {
		w.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		r, ok := w.await("1")
		if !ok {
			t.Fatalf("ping %d: no reply", i)
		}
		if r.Error != nil {
			t.Fatalf("ping %d: %s", i, r.Error.Message)
		}
	}
}

// TestCancelledGetsNoReply: a request the client cancels while it is in
// progress gets no reply (MCP sends none), yet frees its slot; its id is
// then free for a new request, which is answered.
func TestCancelledGetsNoReply(t *testing.T) {
	fake := &fakeConn{msgs: make(chan jsonrpc.Message, 8)}
	c := &boundedConn{inner: fake, slots: make(chan struct{}, 1), pending: map[jsonrpc.ID]bool{}, done: make(chan struct{})}
	ctx := context.Background()
	id, err := jsonrpc.MakeID(float64(7))
	if err != nil {
		t.Fatal(err)
	}
	call := &jsonrpc.Request{ID: id, Method: "tools/call"}
	cancel := &jsonrpc.Request{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":7,"reason":"the user stopped"}`)}
	fake.msgs <- call
	fake.msgs <- cancel
	fake.msgs <- call
	for _, want := range []string{"tools/call", "notifications/cancelled"} {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r := m.(*jsonrpc.Request); r.Method != want {
			t.Fatalf("read %s, want %s", r.Method, want)
		}
	}
	// The SDK answers the cancelled call with its handler's error.
	if err := c.Write(ctx, &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: 0, Message: "context canceled"}}); err != nil {
		t.Fatal(err)
	}
	if len(fake.writes) != 0 {
		t.Fatalf("a cancelled request was answered: %+v", fake.writes[0])
	}
	// Its slot is free (the bound is one), and its id with it.
	got := make(chan jsonrpc.Message, 1)
	go func() {
		m, _ := c.Read(ctx)
		got <- m
	}()
	select {
	case m := <-got:
		if r := m.(*jsonrpc.Request); r.ID != id || r.Method != "tools/call" {
			t.Fatalf("read %+v, want the call again", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled request's slot was not freed")
	}
	if err := c.Write(ctx, &jsonrpc.Response{ID: id, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if len(fake.writes) != 1 {
		t.Fatalf("%d replies to the call made again, want 1", len(fake.writes))
	}
}
