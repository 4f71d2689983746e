// Package serve is the local socket through which hone's commands reach a
// running hone serve, which keeps indexes open and watched between them:
// one Unix socket in the index folder. On each connection the server says
// hello (its build) at once, the client sends one request and the server
// one reply, each a line of JSON; the reply's line gives the lengths of
// what the command printed, which follows it as it was printed, bytes
// not JSON: a large output is not escaped and read back, and bytes that
// are not UTF-8 come back as they are. The server answers only its own user
// and the client talks only to its own user's server (the folder is the
// user's; on Linux each end checks the other's user too), and only
// clients of the server's build: any other works alone.
package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Socket is the name of the server's socket in the index folder; lock is
// the file whose lock a server holds while it serves.
const (
	Socket = "serve.sock"
	lock   = "serve.lock"
)

// maxRequest bounds a request: a task is at most hone.MaxTaskBytes, which
// JSON may write six bytes a byte.
const maxRequest = 8 << 20

// maxOutput bounds what a reply says its command printed, on each stream:
// far more than any command prints (a pack is held to its budget).
const maxOutput = 1 << 30

// maxSocketPath is the longest path a Unix socket may have, on Linux
// (108 bytes with the NUL; macOS allows 104).
const maxSocketPath = 103

const (
	// dialTimeout bounds the connection to a server, and helloTimeout
	// its hello: a live one accepts and says hello at once; one stopped
	// (Ctrl-Z) or stuck is passed over.
	dialTimeout  = 200 * time.Millisecond
	helloTimeout = time.Second
	// requestTimeout bounds the wait for a client's request, and
	// writeTimeout a write to a client that does not read.
	requestTimeout = 10 * time.Second
	writeTimeout   = 10 * time.Second
)

// Path is the socket's path for the indexes in dir.
func Path(dir string) string { return filepath.Join(dir, Socket) }

// Request is a command a client asks the server to run.
type Request struct {
	// Version is the client's build; a server of another build refuses
	// the call.
	Version string          `json:"version"`
	Command string          `json:"command"`
	Params  json.RawMessage `json:"params"`
	// Env is the part of the client's environment that decides what a
	// command reads ("KEY=value", sorted); a server whose own differs
	// refuses the call, which the client then runs alone.
	Env []string `json:"env,omitempty"`
}

// hello is what the server says first: its build, and its process.
type hello struct {
	Version string `json:"version"`
	PID     int    `json:"pid,omitempty"`
}

// Reply is what the command printed, and how it ended.
type Reply struct {
	Version string `json:"version"` // the server's build
	// Stdout and Stderr are what the command printed. They follow the
	// reply's line on the wire, as bytes (see replyLine).
	Stdout string `json:"-"`
	Stderr string `json:"-"`
	// Error is the command's error, if it failed; Usage marks it as the
	// user's (a bad option), which the client says as its own.
	Error string `json:"error,omitempty"`
	Usage bool   `json:"usage,omitempty"`
	// Refused says why the server did not run the command (another build,
	// a command it does not serve, the server stopping): the client runs
	// it alone.
	Refused string `json:"refused,omitempty"`
}

// replyLine is a reply's line on the wire: the reply, and the lengths of
// what its command printed, whose bytes follow the line.
type replyLine struct {
	Reply
	StdoutBytes int `json:"stdout_bytes,omitempty"`
	StderrBytes int `json:"stderr_bytes,omitempty"`
}

// UsageError is an error that is the user's to fix; a Handler returns it
// for a bad option, and the client says it as its own usage error.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Handler runs a command with its parameters, printing what the command
// prints to stdout and stderr. ctx ends when the client goes, or the
// server stops. progress tells the client how a long update goes, while
// the command runs (the client draws it on a terminal); it may be called
// often: what reaches the client is spaced.
type Handler func(ctx context.Context, command string, params json.RawMessage, stdout, stderr io.Writer, progress func(Progress)) error

// Progress is how an update under way goes, file by file.
type Progress struct {
	Done  int   `json:"done"`
	Total int   `json:"total"`
	Bytes int64 `json:"bytes"`
}

// progressLine is a line the server may send before its reply: how an
// update goes, or, every heartbeatEvery, that the server is still at the
// call.
type progressLine struct {
	Progress *Progress `json:"progress,omitempty"`
	Alive    bool      `json:"alive,omitempty"`
}

// progressEvery spaces the progress lines of a call.
const progressEvery = 100 * time.Millisecond

// heartbeatEvery is how often a server at a call says so; a client that
// hears nothing for silenceLimit takes the server for stopped (kill
// -STOP, a hung machine) and runs the command alone.
var (
	heartbeatEvery = time.Second
	silenceLimit   = 10 * time.Second
)

// ErrNoServer is Call's error when no server answers at the socket.
var ErrNoServer = errors.New("no hone serve answers")

// ErrSilent is Call's error when a server accepted the call but said
// nothing (stopped with Ctrl-Z or kill -STOP, or stuck): it wraps
// ErrNoServer, and another server started for the folder would find it
// served.
var ErrSilent = fmt.Errorf("%w: one is there but silent", ErrNoServer)

// Listener is a server's socket, and the lock that makes it the folder's
// one server.
type Listener struct {
	net.Listener
	unlock func()
}

// Close closes the socket, removing it, and lets the lock go.
func (l *Listener) Close() error {
	err := l.Listener.Close()
	l.unlock()
	return err
}

// Listen makes the socket for the indexes in dir, for one server at a
// time: while another serves the folder, it says so. A socket left by a
// server that is gone is replaced.
func Listen(dir string) (*Listener, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the index folder: %w", err)
	}
	path := Path(dir)
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("the socket's path %s is %d bytes, over the %d a socket may have: give a shorter --index-dir or HONE_INDEX_DIR", path, len(path), maxSocketPath)
	}
	busy := fmt.Errorf("a hone serve already serves the indexes in %s: stop it first, or give another --index-dir", dir)
	unlock, err := lockServer(filepath.Join(dir, lock))
	if errors.Is(err, errLocked) {
		return nil, busy
	}
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(path); err == nil {
		// Where the lock is not kept (outside Unix), a live server
		// answers its socket.
		if c, err := net.DialTimeout("unix", path, dialTimeout); err == nil {
			c.Close()
			unlock()
			return nil, busy
		}
		if err := os.Remove(path); err != nil {
			unlock()
			return nil, fmt.Errorf("remove the socket a stopped server left: %w", err)
		}
	}
	l, err := listenPrivate(path)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	return &Listener{Listener: l, unlock: unlock}, nil
}

// Server answers the calls that come to its listener.
type Server struct {
	Version string // the server's build: it answers clients of this build alone
	Handle  Handler
	Log     *slog.Logger
	// Idle, if set, stops the server once it has answered no call for
	// that long.
	Idle time.Duration
	// Env is the part of the server's environment that decides what a
	// command reads, as Request.Env: it serves clients of the same alone.
	Env []string
}

// Serve answers calls until ctx ends, then closes the listener and waits
// for the calls in progress, which are canceled and refused, so that
// their clients run them alone.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	// The listener is closed, its socket removed and its lock let go,
	// before Serve returns: a server started next finds the folder free.
	closed := make(chan struct{})
	go func() {
		<-ctx.Done()
		l.Close()
		close(closed)
	}()
	defer func() {
		cancel()
		<-closed
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	var busy idleClock
	if s.Idle > 0 {
		go busy.stopIdle(ctx, s.Idle, func() {
			s.Log.Info("stopping: no call for a while", "idle", s.Idle)
			cancel()
		})
	}
	pause := 5 * time.Millisecond
	for {
		c, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return fmt.Errorf("accept a call: %w", err)
			}
			// Out of file descriptors, or another passing failure: wait,
			// and go on.
			s.Log.Warn("accept a call", "err", err)
			select {
			case <-time.After(pause):
			case <-ctx.Done():
			}
			pause = min(2*pause, time.Second)
			continue
		}
		pause = 5 * time.Millisecond
		wg.Add(1)
		busy.begin()
		go func() {
			defer wg.Done()
			busy.end(s.answer(ctx, c))
		}()
	}
}

// idleClock counts the calls in progress, and when the last ended.
type idleClock struct {
	mu    sync.Mutex
	calls int
	last  time.Time
}

func (k *idleClock) begin() {
	k.mu.Lock()
	k.calls++
	k.mu.Unlock()
}

// end ends a call; one that was a call of this build (served) starts the
// idle period again.
func (k *idleClock) end(served bool) {
	k.mu.Lock()
	k.calls--
	if served {
		k.last = time.Now()
	}
	k.mu.Unlock()
}

// stopIdle calls stop once no call has run for idle, checking a few times
// an idle period, until ctx ends.
func (k *idleClock) stopIdle(ctx context.Context, idle time.Duration, stop func()) {
	k.mu.Lock()
	k.last = time.Now()
	k.mu.Unlock()
	t := time.NewTicker(max(idle/8, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		k.mu.Lock()
		quiet := k.calls == 0 && time.Since(k.last) >= idle
		k.mu.Unlock()
		if quiet {
			stop()
			return
		}
	}
}

// answer says hello on c, reads one request and writes its reply. It
// reports whether it was a call of this build: a probe, a refusal or a
// call cut short does not keep an idle server alive.
func (s *Server) answer(ctx context.Context, c net.Conn) bool {
	defer c.Close()
	if err := peerAllowed(c); err != nil {
		s.Log.Warn("refused a call", "err", err)
		return false
	}
	if !s.write(c, hello{Version: s.Version, PID: os.Getpid()}) {
		return false
	}
	// A client sends its request at once: one that does not is let go.
	c.SetReadDeadline(time.Now().Add(requestTimeout))
	r := bufio.NewReader(io.LimitReader(c, maxRequest))
	line, err := r.ReadBytes('\n')
	c.SetReadDeadline(time.Time{})
	if err != nil {
		if len(line) > 0 {
			// Nothing at all is a probe: a client that saw another
			// build, or a new server's check for a live one.
			s.Log.Warn("a call's request was cut or too long", "err", err)
		}
		return false
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		s.reply(c, Reply{Refused: "the request is not hone serve's JSON"})
		return false
	}
	if req.Version != s.Version {
		s.reply(c, Reply{Refused: otherBuild(s.Version, req.Version)})
		return false
	}
	if differ := envDiffers(s.Env, req.Env); len(differ) > 0 {
		s.reply(c, Reply{Refused: fmt.Sprintf("the command's environment differs from the server's in %s, which decide what it reads", strings.Join(differ, ", "))})
		return false
	}
	// The call ends when its client goes: a client sends nothing after
	// its request, so a read that returns means it closed.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var b [1]byte
		c.Read(b[:])
		cancel()
	}()
	var stdout, stderr strings.Builder
	start := time.Now()
	// Progress lines go before the reply, spaced, the last file's always;
	// none once the command has returned.
	var pmu sync.Mutex
	var sent time.Time
	ended := false
	progress := func(p Progress) {
		pmu.Lock()
		defer pmu.Unlock()
		if ended || p.Done < p.Total && time.Since(sent) < progressEvery {
			return
		}
		sent = time.Now()
		s.write(c, progressLine{Progress: &p})
	}
	beats := time.NewTicker(heartbeatEvery)
	stopBeats := make(chan struct{})
	go func() {
		for {
			select {
			case <-beats.C:
				pmu.Lock()
				if !ended {
					s.write(c, progressLine{Alive: true})
				}
				pmu.Unlock()
			case <-stopBeats:
				return
			}
		}
	}()
	err = s.Handle(cctx, req.Command, req.Params, &stdout, &stderr, progress)
	beats.Stop()
	close(stopBeats)
	pmu.Lock()
	ended = true
	pmu.Unlock()
	rep := Reply{Stdout: stdout.String(), Stderr: stderr.String()}
	var re refusal
	var ue UsageError
	switch {
	case ctx.Err() != nil:
		// The server stops: the client runs the command alone.
		rep = Reply{Refused: "hone serve stopped during the call"}
	case errors.As(err, &re):
		rep = Reply{Refused: re.why}
	case err != nil:
		rep.Error = err.Error()
		rep.Usage = errors.As(err, &ue)
	}
	s.Log.Info("answered", "command", req.Command, "ms", time.Since(start).Milliseconds(), "err", rep.Error, "refused", rep.Refused)
	s.reply(c, rep)
	return true
}

func (s *Server) reply(c net.Conn, rep Reply) {
	rep.Version = s.Version
	b, err := encodeReply(rep)
	if err != nil {
		s.Log.Warn("encode a reply", "err", err)
		return
	}
	s.send(c, b)
}

// encodeReply is a reply as it goes on the wire: its line, then what its
// command printed.
func encodeReply(rep Reply) (net.Buffers, error) {
	b, err := json.Marshal(replyLine{Reply: rep, StdoutBytes: len(rep.Stdout), StderrBytes: len(rep.Stderr)})
	if err != nil {
		return nil, err
	}
	return net.Buffers{append(b, '\n'), []byte(rep.Stdout), []byte(rep.Stderr)}, nil
}

// write writes v as a line of JSON (see send).
func (s *Server) write(c net.Conn, v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		s.Log.Warn("encode a reply", "err", err)
		return false
	}
	return s.send(c, net.Buffers{append(b, '\n')})
}

// send writes b within writeTimeout: a client that does not read holds
// nothing up.
func (s *Server) send(c net.Conn, b net.Buffers) bool {
	c.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := b.WriteTo(c); err != nil {
		s.Log.Info("the client went before its reply", "err", err)
		return false
	}
	return true
}

// envDiffers names the keys whose values differ between two sorted
// environments of "KEY=value" entries, a key set in one alone among them.
func envDiffers(a, b []string) []string {
	values := func(env []string) map[string]string {
		m := make(map[string]string, len(env))
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		return m
	}
	ma, mb := values(a), values(b)
	var out []string
	for k, v := range ma {
		if w, ok := mb[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// otherBuild is why a server refuses a client of another build.
func otherBuild(server, client string) string {
	return fmt.Sprintf("hone serve is build %s, the command build %s: restart it with this build", server, client)
}

// refusal is a Handler's way to decline a call that the client can run
// alone (Refuse).
type refusal struct{ why string }

func (r refusal) Error() string { return r.why }

// Refuse is a Handler's error for a call it does not serve: the client
// runs the command itself.
func Refuse(why string) error { return refusal{why} }

// Status is what a server says of itself.
type Status struct {
	Version string // its build
	PID     int    // its process
}

// Probe asks whether a server answers for the indexes in dir, and what
// it is; its error is ErrNoServer, wrapped, where none does.
func Probe(ctx context.Context, dir string) (Status, error) {
	c, _, hi, err := dial(ctx, dir)
	if err != nil {
		return Status{}, err
	}
	c.Close()
	return Status{Version: hi.Version, PID: hi.PID}, nil
}

// dial connects to the server of the indexes in dir and reads its hello.
func dial(ctx context.Context, dir string) (net.Conn, *json.Decoder, hello, error) {
	path := Path(dir)
	if _, err := os.Lstat(path); err != nil {
		return nil, nil, hello{}, fmt.Errorf("%w: %v", ErrNoServer, err)
	}
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	c, err := d.DialContext(dctx, "unix", path)
	cancel()
	if err != nil {
		return nil, nil, hello{}, fmt.Errorf("%w at %s: %v", ErrNoServer, path, err)
	}
	if err := peerAllowed(c); err != nil {
		c.Close()
		return nil, nil, hello{}, fmt.Errorf("%w at %s: %v", ErrNoServer, path, err)
	}
	dec := json.NewDecoder(c)
	var hi hello
	c.SetReadDeadline(time.Now().Add(helloTimeout))
	if err := dec.Decode(&hi); err != nil {
		c.Close()
		if ctx.Err() != nil {
			return nil, nil, hello{}, ctx.Err()
		}
		return nil, nil, hello{}, fmt.Errorf("%w at %s: it said nothing within %s (stopped, or stuck): %v", ErrSilent, path, helloTimeout, err)
	}
	c.SetReadDeadline(time.Time{})
	return c, dec, hi, nil
}

// Call asks the server of the indexes in dir to run a command. Its error
// is ErrNoServer, wrapped, when no server answers there (none, one
// stopped, one of another user); a reply that refuses the call comes back
// with Refused set, as does a server of another build, which is sent
// nothing.
func Call(ctx context.Context, dir string, req Request) (*Reply, error) {
	return CallProgress(ctx, dir, req, nil)
}

// CallProgress is Call; progress, if set, hears the progress lines the
// server sends while the command runs.
func CallProgress(ctx context.Context, dir string, req Request, progress func(Progress)) (*Reply, error) {
	c, dec, hi, err := dial(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if hi.Version != req.Version {
		return &Reply{Version: hi.Version, Refused: otherBuild(hi.Version, req.Version)}, nil
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if len(b) >= maxRequest {
		// The server would stop reading it: the client's write would
		// fail with a broken pipe, which says nothing of why.
		return &Reply{Version: hi.Version, Refused: fmt.Sprintf("the call is %.1f MiB, more than the %d MiB a server takes", float64(len(b)+1)/(1<<20), maxRequest>>20)}, nil
	}
	if _, err := c.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("send the call to hone serve: %w", err)
	}
	// A server that says nothing for silenceLimit, not even that it is
	// at the call, is stopped.
	rep, err := readReply(dec, c, progress, func() { c.SetReadDeadline(time.Now().Add(silenceLimit)) })
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
		return nil, fmt.Errorf("hone serve said nothing for %s during the call (stopped?)", silenceLimit)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("read hone serve's reply: %w", err)
	}
	return rep, nil
}

// readReply reads a reply's line from dec, then what the command printed
// from what dec holds and r; the progress lines before the reply's go to
// progress, if set, and the heartbeats are passed over. wait, if set, is
// called before each line, to bound the wait for it.
func readReply(dec *json.Decoder, r io.Reader, progress func(Progress), wait func()) (*Reply, error) {
	var line struct {
		replyLine
		progressLine
	}
	for {
		line.progressLine = progressLine{}
		if wait != nil {
			wait()
		}
		if err := dec.Decode(&line); err != nil {
			return nil, err
		}
		if line.Alive {
			continue
		}
		if line.Progress == nil {
			break
		}
		if progress != nil {
			progress(*line.Progress)
		}
	}
	if wait != nil {
		wait() // for what the command printed, which follows at once
	}
	rep := line.Reply
	if line.StdoutBytes < 0 || line.StderrBytes < 0 || line.StdoutBytes > maxOutput || line.StderrBytes > maxOutput {
		return nil, fmt.Errorf("the reply says its command printed %d and %d bytes", line.StdoutBytes, line.StderrBytes)
	}
	// The line's newline, which the decoder leaves, comes first.
	rest := io.MultiReader(dec.Buffered(), r)
	var nl [1]byte
	if _, err := io.ReadFull(rest, nl[:]); err != nil || nl[0] != '\n' {
		return nil, fmt.Errorf("the reply's line does not end where its JSON does (%v)", err)
	}
	for _, out := range []struct {
		n  int
		to *string
	}{{line.StdoutBytes, &rep.Stdout}, {line.StderrBytes, &rep.Stderr}} {
		if out.n == 0 {
			continue
		}
		// Room for what the line says, up to a bound: a line that says
		// more than follows holds no more memory than the bytes do.
		var b strings.Builder
		b.Grow(min(out.n, 16<<20))
		if n, err := io.CopyN(&b, rest, int64(out.n)); err != nil {
			return nil, fmt.Errorf("the reply ends after %d of the %d bytes its command printed: %w", n, out.n, err)
		}
		*out.to = b.String()
	}
	return &rep, nil
}
