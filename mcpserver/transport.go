package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of the transport.
const (
	// DefaultMaxInFlight bounds the requests in progress at once: past it,
	// requests wait, as many again, for a reply to free a slot, and any
	// more are refused as busy; the replies to the server's own requests
	// and the notifications are read all the while.
	DefaultMaxInFlight = 32
	// DefaultMaxLine bounds one message: a task of hone.MaxTaskBytes fits
	// in it, even with JSON's escapes.
	DefaultMaxLine = 4 << 20
	// maxIDBytes bounds a request's id, which every reply repeats.
	maxIDBytes = 256
)

// Transport serves MCP over newline-delimited JSON-RPC on a reader and a
// writer (standard input and output), as the SDK's IOTransport does, and
// holds out against a hostile or broken client:
//
//   - every line is checked before the SDK sees it: one that is not a single
//     valid JSON-RPC message (not JSON, not UTF-8, not an object, a batch, a
//     bad id or version) gets an error reply, -32700 (parse error) or -32600
//     (invalid request), and the server reads on;
//   - a line over MaxLine bytes is skipped, with an error reply;
//   - at most MaxInFlight requests are in progress, as many more wait, and
//     any past them are answered that the server is busy; no line is read
//     while a reply is being written: a client that stops reading stops the
//     server reading, so its memory stays bounded.
type Transport struct {
	Reader io.ReadCloser
	Writer io.WriteCloser
	// MaxInFlight bounds the requests in progress; 0 means DefaultMaxInFlight.
	MaxInFlight int
	// MaxLine bounds one message in bytes; 0 means DefaultMaxLine.
	MaxLine int

	// inFlight, when set, learns the count of slots taken each time it
	// changes: the requests in progress and the replies not yet written
	// (for tests).
	inFlight func(n int)
}

// NewStdioTransport serves on standard input and the given output
// (standard output), which the transport never closes.
func NewStdioTransport(stdout io.Writer) *Transport {
	return &Transport{Reader: os.Stdin, Writer: nopCloser{stdout}}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Connect implements mcp.Transport: the SDK's own newline-delimited
// connection reads the lines that passed the checks, and writes through
// the same lock as the error replies.
func (t *Transport) Connect(ctx context.Context) (mcp.Connection, error) {
	if t.Reader == nil || t.Writer == nil {
		return nil, errors.New("mcp transport: a reader and a writer are needed")
	}
	maxLine := t.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	maxInFlight := t.MaxInFlight
	if maxInFlight <= 0 {
		maxInFlight = DefaultMaxInFlight
	}
	out := &lockedWriter{w: t.Writer}
	in := &lineFilter{in: bufio.NewReaderSize(t.Reader, 64<<10), closer: t.Reader, out: out, max: maxLine}
	// The filter bounds lines itself, so the SDK's own cap is off.
	inner, err := (&mcp.IOTransport{Reader: in, Writer: out, MaxLineLength: -1}).Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcp transport: %w", err)
	}
	return &boundedConn{inner: inner, slots: make(chan struct{}, maxInFlight), pending: map[jsonrpc.ID]bool{},
		done: make(chan struct{}), hook: t.inFlight}, nil
}

// lockedWriter writes whole messages, one at a time: the SDK's replies and
// the filter's error replies never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

func (w *lockedWriter) Close() error { return w.w.Close() }

// idle waits while a message is being written.
func (w *lockedWriter) idle() {
	w.mu.Lock()
	//lint:ignore SA2001 an empty critical section: waiting for the writer is the point
	w.mu.Unlock()
}

// lineFilter reads newline-delimited messages and passes on, each ended
// by a newline, only those the SDK can take; it answers the others itself.
type lineFilter struct {
	in     *bufio.Reader
	closer io.Closer
	out    *lockedWriter
	max    int

	line  []byte // the line being read, at most max+1 bytes of it
	ready []byte // what is left to pass on of the last good line
	err   error  // the input's end or failure, returned once ready is empty
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.ready) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		// No reading while a reply cannot be written.
		f.out.idle()
		size, err := f.readLine()
		if err != nil && err != io.EOF {
			err = fmt.Errorf("read the client's input: %w", err)
		}
		if size > 0 {
			if rerr := f.take(size); rerr != nil {
				return 0, fmt.Errorf("answer a bad message: %w", rerr)
			}
		}
		f.err = err
	}
	n := copy(p, f.ready)
	f.ready = f.ready[n:]
	return n, nil
}

func (f *lineFilter) Close() error { return f.closer.Close() }

// readLine reads up to the next newline, keeping at most max+1 bytes of
// it, and returns the line's whole size.
func (f *lineFilter) readLine() (int, error) {
	f.line = f.line[:0]
	size := 0
	for {
		chunk, err := f.in.ReadSlice('\n')
		size += len(chunk)
		if room := f.max + 1 - len(f.line); room > 0 {
			f.line = append(f.line, chunk[:min(len(chunk), room)]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return size, err
	}
}

// take checks the line just read: it passes it on, or answers it with an
// error reply, or skips it when it is blank.
func (f *lineFilter) take(size int) error {
	if size > f.max+1 || size == f.max+1 && f.line[len(f.line)-1] != '\n' {
		id := idFromPrefix(f.line[:min(len(f.line), 64<<10)])
		return f.reply(id, jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is %d bytes long, over the %d bytes a message may have: shorten its text", size, f.max))
	}
	// JSON's own white space around the message goes: the SDK's reader
	// takes nothing but a newline after a message.
	line := bytes.Trim(f.line, " \t\r\n")
	if len(line) == 0 {
		return nil // a blank line is no message
	}
	if bad := checkMessage(line); bad != nil {
		return f.reply(bad.id, bad.code, bad.msg)
	}
	f.ready = append(line, '\n')
	return nil
}

// reply writes an error reply; a nil id is written as null.
func (f *lineFilter) reply(id json.RawMessage, code int64, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(errorReply{Version: "2.0", ID: id, Error: jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return err
	}
	_, err = f.out.Write(append(b, '\n'))
	return err
}

type errorReply struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   jsonrpc.Error   `json:"error"`
}

// badMessage is why a line is not a message the server takes, and the
// reply's id (nil for null).
type badMessage struct {
	id   json.RawMessage
	code int64
	msg  string
}

func parseError(msg string) *badMessage {
	return &badMessage{code: jsonrpc.CodeParseError, msg: "parse error: " + msg}
}

func invalidRequest(id json.RawMessage, msg string) *badMessage {
	return &badMessage{id: id, code: jsonrpc.CodeInvalidRequest, msg: "invalid request: " + msg}
}

// checkMessage checks that a line is one JSON-RPC 2.0 message as MCP has
// them: valid UTF-8, one JSON object, "jsonrpc": "2.0", an id that is a
// string or an integer (or none, for a notification), a method that is a
// string, or else a result or an error; and that the SDK decodes it.
func checkMessage(line []byte) *badMessage {
	if !utf8.Valid(line) {
		return parseError("the message is not valid UTF-8")
	}
	var raw json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return parseError(cut(err.Error()) + ": send one JSON object per line")
	}
	switch raw[0] {
	case '{':
	case '[':
		return invalidRequest(nil, "batches are not supported: send one JSON-RPC message per line")
	default:
		return invalidRequest(nil, "a message must be a JSON object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return invalidRequest(nil, cut(err.Error()))
	}
	rawID, hasID := m["id"]
	var id json.RawMessage
	if hasID {
		if msg := checkID(rawID); msg != "" {
			return invalidRequest(nil, msg)
		}
		id = rawID
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return invalidRequest(id, `"jsonrpc" must be "2.0"`)
	}
	if method, ok := m["method"]; ok {
		if method[0] != '"' {
			return invalidRequest(id, `"method" must be a string`)
		}
		if p, ok := m["params"]; ok && p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return invalidRequest(id, `"params" must be an object`)
		}
	} else {
		// A reply to the server: it needs an id, and a result or an error.
		_, hasResult := m["result"]
		_, hasError := m["error"]
		if !hasID || hasResult == hasError {
			return invalidRequest(nil, `a message needs a "method" (a request) or an "id" and a "result" or an "error" (a reply)`)
		}
	}
	if _, err := jsonrpc.DecodeMessage(raw); err != nil {
		return invalidRequest(id, cut(err.Error()))
	}
	return nil
}

// checkID says what is wrong with a request id, or "" if nothing is. The
// SDK reads numbers as float64: an integer id must be exact in one.
func checkID(raw json.RawMessage) string {
	const want = "the id must be a string or an integer"
	if len(raw) > maxIDBytes {
		return fmt.Sprintf("the id is %d bytes long, over %d", len(raw), maxIDBytes)
	}
	switch c := raw[0]; {
	case c == '"':
		return ""
	case c == '-' || '0' <= c && c <= '9':
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) >= 1<<53 {
			return want + " under 2^53"
		}
		return ""
	}
	return want
}

// idFromPrefix finds a request's id in the start of a message too long to
// read whole, where clients put it; nil if it is not there.
func idFromPrefix(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			if checkID(v) != "" {
				return nil
			}
			return v
		}
	}
	return nil
}

// boundedConn is the SDK's connection with at most cap(slots) requests in
// progress: a request read past them waits, in a queue as long again, for
// a reply to free a slot. With the queue full, the connection reads no
// more, and a client that writes faster than the server answers waits,
// unless the server waits on the client: while a request of the server's
// own (roots, sampling) has no reply, reading goes on, for a request in
// progress may need that reply, and a request past the queue is answered
// at once that the server is busy.
type boundedConn struct {
	inner mcp.Connection
	slots chan struct{}
	done  chan struct{}
	once  sync.Once

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	// held counts the slots taken: the requests in progress and the
	// replies not yet written; hook learns it each time it changes.
	held int
	hook func(int)
	// cancelled are the requests in progress that the client cancelled,
	// whose replies are not sent; under mu.
	cancelled map[jsonrpc.ID]bool

	// asked are the server's own requests to the client that have no
	// reply yet, by id; under mu. wake tells a Read that stopped reading
	// that the server now waits on the client.
	asked map[jsonrpc.ID]bool
	wake  chan struct{}

	// The messages as read, in order, by one goroutine started on the
	// first Read; the calls waiting for a slot (Read's alone); and the
	// input's end once read (Read's alone).
	start  sync.Once
	msgs   chan readResult
	queue  []*jsonrpc.Request
	ending error
	// drainUntil bounds the wait, after the input's end, for the
	// requests in progress (drainLimit from the end); Read's alone.
	drainUntil time.Time
}

// protocolError gives an error of the SDK's own that has no JSON-RPC
// code (it sends such as code 0, which JSON-RPC has not) its code, and
// says what to do where the client broke the session's order.
func protocolError(err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && we.Code != 0 {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "during session initialization"):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msg + ": send initialize first, then notifications/initialized once its reply comes"}
	case strings.Contains(msg, `duplicate "initialize"`):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msg + ": the session is initialized already; send initialize once a session"}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
}

// dequeue admits the first request of the queue, whose slot the caller
// took, and returns it.
func (c *boundedConn) dequeue() *jsonrpc.Request {
	req := c.queue[0]
	c.queue = c.queue[1:]
	c.admit(req)
	return req
}

// unanswered takes one of the server's requests to the client out of
// asked and returns an error reply to it, made in the client's place;
// nil when none is left.
func (c *boundedConn) unanswered() *jsonrpc.Response {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range c.asked {
		delete(c.asked, id)
		return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client closed its input before it answered"}}
	}
	return nil
}

// awaiting reports whether the server waits on a reply from the client.
func (c *boundedConn) awaiting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.asked) > 0
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// reader reads the client's messages until the input ends or fails.
func (c *boundedConn) reader() {
	for {
		msg, err := c.inner.Read(context.Background())
		select {
		case c.msgs <- readResult{msg, err}:
		case <-c.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (c *boundedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.start.Do(func() {
		c.msgs = make(chan readResult)
		go c.reader()
	})
	for {
		eof := errors.Is(c.ending, io.EOF)
		if eof {
			// What the server asked the client (its model's verdicts,
			// its roots), before the input's end or since, can have no
			// answer now: each is answered with an error in the
			// client's place, so that the run goes on without it, and
			// frees its slot for the calls still queued.
			if resp := c.unanswered(); resp != nil {
				return resp, nil
			}
		}
		var free chan struct{} // a slot, when a call waits for one
		if len(c.queue) > 0 {
			free = c.slots
		} else if c.ending != nil {
			// The client closed its end: the requests in progress are
			// answered before the session ends, so that a script that
			// writes its requests and closes gets every reply, provided
			// it reads them: the replies it leaves unread hold their
			// slots, and the server reads no more than the slots and
			// the queue hold.
			if eof {
				if c.drainUntil.IsZero() {
					c.drainUntil = time.Now().Add(drainLimit)
				}
				if c.drain(ctx, c.drainUntil) {
					continue // the server asked the client something
				}
			}
			return nil, c.ending
		}
		if free != nil {
			// A request that waits goes first when a slot is free:
			// a notification read after it (initialized, after
			// initialize) must not overtake it.
			select {
			case free <- struct{}{}:
				return c.dequeue(), nil
			default:
			}
		}
		msgs := c.msgs
		if c.ending != nil || len(c.queue) >= cap(c.slots) && !c.awaiting() {
			msgs = nil
		}
		select {
		case free <- struct{}{}:
			return c.dequeue(), nil
		case r := <-msgs:
			if r.err != nil {
				c.ending = r.err
				continue
			}
			if resp, ok := r.msg.(*jsonrpc.Response); ok {
				c.mu.Lock()
				delete(c.asked, resp.ID)
				c.mu.Unlock()
			}
			req, ok := r.msg.(*jsonrpc.Request)
			if ok && req.Method == "notifications/cancelled" {
				// A request still waiting for a slot is dropped: the SDK,
				// which has not seen it, would let it run. One in progress
				// is stopped by the SDK, which would still answer it.
				c.cancel(req)
			}
			if !ok || !req.IsCall() {
				return r.msg, nil
			}
			if err := c.take(ctx, req); err != nil {
				return nil, err
			}
		case <-c.wakeup():
			// The server asked the client something: read on.
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.done:
			return nil, io.EOF
		}
	}
}

// wakeup is the channel that says the server asked the client something.
func (c *boundedConn) wakeup() chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wake == nil {
		c.wake = make(chan struct{}, 1)
	}
	return c.wake
}

// take queues a call read, or answers it at once: a duplicate of a
// request in progress or waiting, or one past the queue.
func (c *boundedConn) take(ctx context.Context, req *jsonrpc.Request) error {
	c.mu.Lock()
	dup := c.pending[req.ID]
	c.mu.Unlock()
	for _, q := range c.queue {
		dup = dup || q.ID == req.ID
	}
	var refuse *jsonrpc.Error
	switch {
	case dup:
		// The SDK would answer it with a null id; answer it here, so
		// that the reply names the request and frees no slot.
		refuse = &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: "invalid request: a request with this id is still in progress: give each request its own id"}
	case len(c.queue) >= cap(c.slots):
		refuse = &jsonrpc.Error{Code: codeBusy,
			Message: fmt.Sprintf("the server is busy: %d requests are in progress and %d wait; send this one again once some are answered", cap(c.slots), len(c.queue))}
	default:
		c.queue = append(c.queue, req)
		return nil
	}
	return c.inner.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: refuse})
}

// cancel acts on a client's cancellation: a request it names that waits
// for a slot is dropped from the queue, and one in progress is marked, so
// that its reply is not sent. MCP has no reply sent for a cancelled
// request; the SDK stops the request's handler, and would answer it with
// the error that the stop made.
func (c *boundedConn) cancel(note *jsonrpc.Request) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(note.Params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	var raw any
	if json.Unmarshal(p.RequestID, &raw) != nil {
		return
	}
	id, err := jsonrpc.MakeID(raw)
	if err != nil {
		return
	}
	c.queue = slices.DeleteFunc(c.queue, func(q *jsonrpc.Request) bool { return q.ID == id })
	c.mu.Lock()
	if c.pending[id] {
		if c.cancelled == nil {
			c.cancelled = map[jsonrpc.ID]bool{}
		}
		c.cancelled[id] = true
	}
	c.mu.Unlock()
}

// codeBusy is the error code of a request refused for the requests
// already in progress and waiting (JSON-RPC's range for a server's own).
const codeBusy = -32000

// admit counts a call in progress, its slot taken.
func (c *boundedConn) admit(req *jsonrpc.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending[req.ID] = true
	c.held++
	if c.hook != nil {
		c.hook(c.held)
	}
}

func (c *boundedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && resp.Error != nil {
		// A protocol error may quote what the client sent (an unknown
		// method's name, whatever its size): it goes out short and
		// redacted, as a tool's errors do (cutErrors).
		r := *resp
		r.Error = protocolError(safeError(resp.Error))
		msg = &r
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		if c.asked == nil {
			c.asked = map[jsonrpc.ID]bool{}
		}
		c.asked[req.ID] = true
		c.mu.Unlock()
		select {
		case c.wakeup() <- struct{}{}:
		default:
		}
	}
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.inner.Write(ctx, msg)
	}
	// The request is over before its reply goes: a client may send the
	// next under the same id as soon as it reads the reply. Its slot is
	// freed once the reply is written, not before: a client that stops
	// reading holds the slots of the replies it has not taken, and the
	// connection reads no more than the slots and the queue hold.
	c.mu.Lock()
	had := c.pending[resp.ID]
	delete(c.pending, resp.ID)
	dropped := c.cancelled[resp.ID]
	delete(c.cancelled, resp.ID)
	c.mu.Unlock()
	var err error
	if !dropped { // a request the client cancelled gets no reply
		err = c.inner.Write(ctx, msg)
	}
	if had {
		// Counted out before the slot is freed, so that the count never
		// passes the slots.
		c.mu.Lock()
		c.held--
		if c.hook != nil {
			c.hook(c.held)
		}
		c.mu.Unlock()
		<-c.slots
	}
	return err
}

// drainLimit bounds how long the end of the client's input waits for the
// requests in progress: long enough for a first index of a large
// repository, short enough that a request left waiting on the client
// that closed (its model's answer, through sampling) does not keep the
// server long.
const drainLimit = 2 * time.Minute

// drain waits until no slot is taken (every request answered and its
// reply written), the connection closes, ctx ends, or until passes; or,
// reporting true, until the server asks the client something, which Read
// answers in the client's place.
func (c *boundedConn) drain(ctx context.Context, until time.Time) (asked bool) {
	deadline := time.After(time.Until(until))
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		c.mu.Lock()
		n := c.held
		c.mu.Unlock()
		if n == 0 {
			return false
		}
		select {
		case <-tick.C:
		case <-c.wakeup():
			return true
		case <-deadline:
			return false
		case <-ctx.Done():
			return false
		case <-c.done:
			return false
		}
	}
}

func (c *boundedConn) Close() error {
	c.once.Do(func() { close(c.done) })
	return c.inner.Close()
}

func (c *boundedConn) SessionID() string { return c.inner.SessionID() }
