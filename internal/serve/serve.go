// Package serve is the local socket through which hone's commands reach a
// running hone serve, which keeps indexes open and watched between them:
// one Unix socket in the index folder, one request and one reply a
// connection, each a JSON object. The server answers only its own user
// (the folder is the user's; on Linux the peer's user is checked too), and
// only a client of its own build: any other works alone.
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
	"strings"
	"sync"
	"time"
)

// Socket is the name of the server's socket in the index folder.
const Socket = "serve.sock"

// maxRequest bounds a request: a task is at most hone.MaxTaskBytes.
const maxRequest = 4 << 20

// maxSocketPath is the longest path a Unix socket may have, on Linux
// (108 bytes with the NUL; macOS allows 104).
const maxSocketPath = 103

// dialTimeout bounds the connection to a server: a live one accepts at
// once.
const dialTimeout = 200 * time.Millisecond

// requestTimeout bounds the wait for a client's request.
const requestTimeout = 10 * time.Second

// Path is the socket's path for the indexes in dir.
func Path(dir string) string { return filepath.Join(dir, Socket) }

// Request is a command a client asks the server to run.
type Request struct {
	// Version is the client's build; a server of another build refuses
	// the call.
	Version string          `json:"version"`
	Command string          `json:"command"`
	Params  json.RawMessage `json:"params"`
}

// Reply is what the command printed, and how it ended.
type Reply struct {
	Version string `json:"version"` // the server's build
	Stdout  string `json:"stdout,omitempty"`
	Stderr  string `json:"stderr,omitempty"`
	// Error is the command's error, if it failed; Usage marks it as the
	// user's (a bad option), which the client says as its own.
	Error string `json:"error,omitempty"`
	Usage bool   `json:"usage,omitempty"`
	// Refused says why the server did not run the command (another build,
	// a command it does not serve): the client runs it alone.
	Refused string `json:"refused,omitempty"`
}

// UsageError is an error that is the user's to fix; a Handler returns it
// for a bad option, and the client says it as its own usage error.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Handler runs a command with its parameters, printing what the command
// prints to stdout and stderr. ctx ends when the client goes.
type Handler func(ctx context.Context, command string, params json.RawMessage, stdout, stderr io.Writer) error

// ErrNoServer is Call's error when no server answers at the socket.
var ErrNoServer = errors.New("no hone serve answers")

// Listen makes the socket for the indexes in dir. A socket left by a
// server that is gone is replaced; one that a live server answers is an
// error.
func Listen(dir string) (net.Listener, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make the index folder: %w", err)
	}
	path := Path(dir)
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("the socket's path %s is %d bytes, over the %d a socket may have: give a shorter --index-dir or HONE_INDEX_DIR", path, len(path), maxSocketPath)
	}
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, dialTimeout); err == nil {
			c.Close()
			return nil, fmt.Errorf("a hone serve already serves the indexes in %s: stop it first, or give another --index-dir", dir)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove the socket a stopped server left: %w", err)
		}
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("make the socket the user's alone: %w", err)
	}
	return l, nil
}

// Server answers the calls that come to its listener.
type Server struct {
	Version string // the server's build: it answers clients of this build alone
	Handle  Handler
	Log     *slog.Logger
}

// Serve answers calls until ctx ends, then closes the listener and waits
// for the calls in progress, which are canceled.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	for {
		c, err := l.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("accept a call: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.answer(ctx, c)
		}()
	}
}

// answer reads one request from c and writes its reply.
func (s *Server) answer(ctx context.Context, c net.Conn) {
	defer c.Close()
	if err := peerAllowed(c); err != nil {
		s.Log.Warn("refused a call", "err", err)
		return
	}
	// A client sends its request at once: one that does not is let go.
	c.SetReadDeadline(time.Now().Add(requestTimeout))
	r := bufio.NewReader(io.LimitReader(c, maxRequest))
	line, err := r.ReadBytes('\n')
	c.SetReadDeadline(time.Time{})
	if err != nil {
		if len(line) > 0 {
			// Nothing at all is a probe: a new server's check for a
			// live one.
			s.Log.Warn("a call's request was cut or too long", "err", err)
		}
		return
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		s.reply(c, Reply{Refused: "the request is not hone serve's JSON"})
		return
	}
	if req.Version != s.Version {
		s.reply(c, Reply{Refused: fmt.Sprintf("hone serve is build %s, the command build %s", s.Version, req.Version)})
		return
	}
	// The call ends when its client goes: a client sends nothing after
	// its request, so a read that returns means it closed.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		var b [1]byte
		c.Read(b[:])
		cancel()
	}()
	var stdout, stderr strings.Builder
	start := time.Now()
	err = s.Handle(ctx, req.Command, req.Params, &stdout, &stderr)
	rep := Reply{Stdout: stdout.String(), Stderr: stderr.String()}
	if err != nil {
		rep.Error = err.Error()
		var ue UsageError
		rep.Usage = errors.As(err, &ue)
		var re refusal
		if errors.As(err, &re) {
			rep = Reply{Refused: re.why}
		}
	}
	s.Log.Info("answered", "command", req.Command, "ms", time.Since(start).Milliseconds(), "err", rep.Error)
	s.reply(c, rep)
}

func (s *Server) reply(c net.Conn, rep Reply) {
	rep.Version = s.Version
	b, err := json.Marshal(rep)
	if err != nil {
		s.Log.Warn("encode a reply", "err", err)
		return
	}
	if _, err := c.Write(append(b, '\n')); err != nil {
		s.Log.Info("the client went before its reply", "err", err)
	}
}

// refusal is a Handler's way to decline a call that the client can run
// alone (Refuse).
type refusal struct{ why string }

func (r refusal) Error() string { return r.why }

// Refuse is a Handler's error for a call it does not serve: the client
// runs the command itself.
func Refuse(why string) error { return refusal{why} }

// Call asks the server of the indexes in dir to run a command. Its error
// is ErrNoServer, wrapped, when no server answers there; a reply that
// refuses the call comes back with Refused set.
func Call(ctx context.Context, dir string, req Request) (*Reply, error) {
	path := Path(dir)
	if _, err := os.Lstat(path); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoServer, err)
	}
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	c, err := d.DialContext(dctx, "unix", path)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %v", ErrNoServer, path, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	if _, err := c.Write(append(b, '\n')); err != nil {
		return nil, fmt.Errorf("send the call to hone serve: %w", err)
	}
	var rep Reply
	if err := json.NewDecoder(c).Decode(&rep); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("read hone serve's reply: %w", err)
	}
	return &rep, nil
}
