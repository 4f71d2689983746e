package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// start serves handle for the indexes in a new folder, which it returns.
func start(t testing.TB, handle Handler) string {
	t.Helper()
	dir := t.TempDir()
	l, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Version: "v1", Handle: handle, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return dir
}

func TestCall(t *testing.T) {
	dir := start(t, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		var words []string
		if err := json.Unmarshal(p, &words); err != nil {
			return Refuse("not words")
		}
		switch cmd {
		case "echo":
			fmt.Fprint(stdout, strings.Join(words, " "))
			fmt.Fprint(stderr, "said")
			return nil
		case "usage":
			return UsageError{"bad flag"}
		case "fail":
			fmt.Fprint(stdout, "partial")
			return errors.New("it broke")
		case "stop":
			return Refuse("stopping")
		}
		return Refuse("no such command")
	})
	for _, tt := range []struct {
		version, cmd, params string
		want                 Reply
	}{
		{"v1", "echo", `["a","b"]`, Reply{Version: "v1", Stdout: "a b", Stderr: "said"}},
		{"v1", "usage", `[]`, Reply{Version: "v1", Error: "bad flag", Usage: true}},
		{"v1", "fail", `[]`, Reply{Version: "v1", Stdout: "partial", Error: "it broke"}},
		{"v1", "what", `[]`, Reply{Version: "v1", Refused: "no such command"}},
		{"v1", "echo", `{}`, Reply{Version: "v1", Refused: "not words"}},
		{"v2", "echo", `["a"]`, Reply{Version: "v1", Refused: "hone serve is build v1, the command build v2: restart it with this build"}},
		{"v1", "stop", `[]`, Reply{Version: "v1", Refused: "stopping"}},
	} {
		rep, err := Call(context.Background(), dir, Request{Version: tt.version, Command: tt.cmd, Params: json.RawMessage(tt.params)})
		if err != nil {
			t.Errorf("%s %s: %v", tt.version, tt.cmd, err)
			continue
		}
		if *rep != tt.want {
			t.Errorf("%s %s: %+v, want %+v", tt.version, tt.cmd, *rep, tt.want)
		}
	}
}

// A call larger than a server reads is refused by the client with the
// reason, not sent to fail with a broken pipe; the server stays up.
func TestCallTooLarge(t *testing.T) {
	dir := start(t, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		fmt.Fprint(stdout, "ran")
		return nil
	})
	big, _ := json.Marshal(strings.Repeat("x", maxRequest))
	rep, err := Call(context.Background(), dir, Request{Version: "v1", Command: "echo", Params: big})
	if err != nil {
		t.Fatalf("a call too large: %v, want a refusal that says why", err)
	}
	if !strings.Contains(rep.Refused, "more than the 8 MiB a server takes") || rep.Stdout != "" {
		t.Errorf("a call too large: %+v", *rep)
	}
	rep, err = Call(context.Background(), dir, Request{Version: "v1", Command: "echo", Params: json.RawMessage(`[]`)})
	if err != nil || rep.Stdout != "ran" {
		t.Errorf("the next call: %+v, %v", rep, err)
	}
}

// Without a server, Call says so with ErrNoServer: no socket, or one
// that nothing answers.
func TestNoServer(t *testing.T) {
	dir := t.TempDir()
	if _, err := Call(context.Background(), dir, Request{}); !errors.Is(err, ErrNoServer) {
		t.Errorf("no socket: %v, want ErrNoServer", err)
	}
	l, err := net.Listen("unix", Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if _, err := Call(context.Background(), dir, Request{}); !errors.Is(err, ErrNoServer) {
		t.Errorf("a socket nothing answers: %v, want ErrNoServer", err)
	}
}

// A call whose client goes is canceled; a request that is not JSON, or
// is too long, gets no run.
func TestClientGoes(t *testing.T) {
	began, ended := make(chan struct{}), make(chan error, 1)
	dir := start(t, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		close(began)
		<-ctx.Done()
		ended <- ctx.Err()
		return ctx.Err()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-began
		cancel()
	}()
	if _, err := Call(ctx, dir, Request{Version: "v1", Command: "wait", Params: json.RawMessage(`[]`)}); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled call: %v", err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the run ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the run went on after its client went")
	}

	c, err := net.Dial("unix", Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dec := json.NewDecoder(c)
	var hi hello
	if err := dec.Decode(&hi); err != nil || hi.Version != "v1" {
		t.Fatalf("hello: %+v, %v", hi, err)
	}
	fmt.Fprintln(c, "not json")
	var rep Reply
	if err := dec.Decode(&rep); err != nil || rep.Refused == "" {
		t.Errorf("a request not JSON: %+v, %v; want it refused", rep, err)
	}
}

// A second server for the same folder is refused while the first runs.
func TestListenTwice(t *testing.T) {
	dir := start(t, func(context.Context, string, json.RawMessage, io.Writer, io.Writer, func(Progress)) error { return nil })
	if l, err := Listen(dir); err == nil || !strings.Contains(err.Error(), "already serves") {
		if l != nil {
			l.Close()
		}
		t.Errorf("a second server: %v, want refused", err)
	}
	long := t.TempDir() + "/" + strings.Repeat("x", 120)
	if _, err := Listen(long); err == nil || !strings.Contains(err.Error(), "shorter") {
		t.Errorf("a socket path too long: %v", err)
	}
}

// Whatever a client sends, the server answers it or hangs up, and goes on
// serving.
func FuzzRequest(f *testing.F) {
	f.Add([]byte(`{"version":"v1","command":"echo","params":["a"]}`))
	f.Add([]byte(`{"version":"v1","command":"echo","params":null}`))
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte("\x00\xff{"))
	dir := start(f, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		var words []string
		if err := json.Unmarshal(p, &words); err != nil {
			return Refuse("not words")
		}
		fmt.Fprint(stdout, strings.Join(words, " "))
		return nil
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := net.Dial("unix", Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		c.Write(append(data, '\n'))
		io.Copy(io.Discard, c)
		rep, err := Call(context.Background(), dir, Request{Version: "v1", Command: "echo", Params: json.RawMessage(`["ok"]`)})
		if err != nil || rep.Stdout != "ok" {
			t.Fatalf("after %q the server answers %+v, %v", data, rep, err)
		}
	})
}

// A server that accepts and says nothing (stopped with Ctrl-C, or stuck)
// is no server: the client does not wait for it.
func TestSilentServer(t *testing.T) {
	dir := t.TempDir()
	l, err := net.Listen("unix", Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	start := time.Now()
	_, err = Call(context.Background(), dir, Request{Version: "v1"})
	if !errors.Is(err, ErrNoServer) || !errors.Is(err, ErrSilent) {
		t.Errorf("a silent server: %v, want ErrNoServer and ErrSilent", err)
	}
	if _, err := Call(context.Background(), t.TempDir(), Request{Version: "v1"}); !errors.Is(err, ErrNoServer) || errors.Is(err, ErrSilent) {
		t.Errorf("no server: %v, want ErrNoServer, not ErrSilent", err)
	}
	if d := time.Since(start); d > 5*helloTimeout {
		t.Errorf("waited %s for a silent server", d)
	}
}

// A server that stops during a call refuses it, so that its client runs
// the command alone; the call's run is canceled.
func TestServerStops(t *testing.T) {
	dir := t.TempDir()
	l, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	began := make(chan struct{})
	s := &Server{Version: "v1", Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Handle: func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		close(began)
		<-ctx.Done()
		return ctx.Err()
	}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	go func() {
		<-began
		cancel()
	}()
	rep, err := Call(context.Background(), dir, Request{Version: "v1", Command: "wait", Params: json.RawMessage(`[]`)})
	if err != nil || rep.Refused == "" {
		t.Errorf("a call the stopping server held: %+v, %v; want it refused", rep, err)
	}
	if err := <-done; err != nil {
		t.Error(err)
	}
	// Stopped, the server left neither its socket nor its lock.
	if _, err := os.Stat(Path(dir)); err == nil {
		t.Error("the socket is still there")
	}
	l2, err := Listen(dir)
	if err != nil {
		t.Fatalf("a new server after the first stopped: %v", err)
	}
	l2.Close()
}

// serveIdle serves handle in a new folder with Idle set to idle; done
// gets what Serve returns.
func serveIdle(t *testing.T, idle time.Duration, handle Handler) (dir string, done chan error) {
	t.Helper()
	dir = t.TempDir()
	l, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Version: "v1", Idle: idle, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Handle: handle}
	done = make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), l) }()
	return dir, done
}

// A server with Idle stops once no call has come for that long, and not
// while one runs.
func TestIdle(t *testing.T) {
	const idle = 300 * time.Millisecond
	start := time.Now()
	dir, done := serveIdle(t, idle, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		time.Sleep(2 * idle) // a long call keeps it up
		return nil
	})
	if rep, err := Call(context.Background(), dir, Request{Version: "v1", Command: "slow", Params: json.RawMessage(`[]`)}); err != nil || rep.Refused != "" {
		t.Fatalf("the long call: %+v, %v", rep, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
		if d := time.Since(start); d < 3*idle {
			t.Errorf("stopped after %s, within a call and its idle time", d)
		}
	case <-time.After(20 * idle):
		t.Fatal("the idle server did not stop")
	}
	if _, err := os.Stat(Path(dir)); err == nil {
		t.Error("the idle server left its socket")
	}
}

// Calls the server refuses (another build's) do not keep it up: after an
// upgrade, an idle server of the old build goes.
func TestIdleRefusalsDoNotCount(t *testing.T) {
	const idle = 300 * time.Millisecond
	start := time.Now()
	dir, done := serveIdle(t, idle, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		return nil
	})
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
			if d := time.Since(start); d > 8*idle {
				t.Errorf("stopped after %s: refusals kept it up", d)
			}
			return
		case <-time.After(idle / 3):
			rep, err := Call(context.Background(), dir, Request{Version: "v2", Command: "x", Params: json.RawMessage(`[]`)})
			if err == nil && rep.Refused == "" {
				t.Fatalf("a call of another build was answered: %+v", rep)
			}
		}
		if time.Since(start) > 30*idle {
			t.Fatal("the idle server did not stop")
		}
	}
}

// What a command printed comes back byte for byte: bytes that are not
// UTF-8, which JSON would have replaced, quotes, newlines and NULs, and
// an output of megabytes.
func TestReplyBytes(t *testing.T) {
	outputs := map[string]string{
		"latin1": "caf\xe9 \xff\xfe\n",
		"json":   `{"a": "b\"c"}` + "\n\x00\t\r\\",
		"large":  strings.Repeat("\"quoted\"\n\xe9", 300_000),
		"empty":  "",
	}
	dir := start(t, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		io.WriteString(stdout, outputs[cmd])
		io.WriteString(stderr, outputs[cmd]+"!")
		return nil
	})
	for name, want := range outputs {
		rep, err := Call(context.Background(), dir, Request{Version: "v1", Command: name, Params: json.RawMessage(`[]`)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Stdout != want || rep.Stderr != want+"!" {
			t.Errorf("%s: stdout %d bytes, stderr %d bytes; want %d and %d, the same bytes",
				name, len(rep.Stdout), len(rep.Stderr), len(want), len(want)+1)
		}
	}
}

// readReply reads any bytes a server might send without panicking or
// holding more memory than they hold, and reads back what encodeReply
// wrote.
func FuzzReply(f *testing.F) {
	f.Add([]byte(`{"version":"v1","stdout_bytes":2}`+"\nhi"), "out", "err")
	f.Add([]byte(`{"version":"v1","stdout_bytes":1073741824}`+"\n"), "", "\xff")
	f.Add([]byte(`{"version":"v1","stderr_bytes":-1}`+"\n"), "a\nb", "")
	f.Add([]byte(`{"version":"v1"} `), "", "")
	f.Fuzz(func(t *testing.T, data []byte, stdout, stderr string) {
		r := bytes.NewReader(data)
		if rep, err := readReply(json.NewDecoder(r), r, nil, nil); err == nil && len(rep.Stdout)+len(rep.Stderr) > len(data) {
			t.Fatalf("%q: a reply of %d bytes from %d", data, len(rep.Stdout)+len(rep.Stderr), len(data))
		}
		want := Reply{Version: "v1", Stdout: stdout, Stderr: stderr, Error: "e"}
		b, err := encodeReply(want)
		if err != nil {
			t.Fatal(err)
		}
		var wire bytes.Buffer
		b.WriteTo(&wire)
		r = bytes.NewReader(wire.Bytes())
		got, err := readReply(json.NewDecoder(r), r, nil, nil)
		if err != nil || *got != want {
			t.Fatalf("%+v came back as %+v, %v", want, got, err)
		}
	})
}

// A command's progress reaches the client before its reply: the first
// file's and the last's at least, spaced in between, growing; a client
// that asks for none gets the reply all the same.
func TestCallProgress(t *testing.T) {
	dir := start(t, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, progress func(Progress)) error {
		for i := 1; i <= 1000; i++ {
			progress(Progress{Done: i, Total: 1000, Bytes: int64(i) * 10})
		}
		fmt.Fprint(stdout, "indexed")
		return nil
	})
	var heard []Progress
	rep, err := CallProgress(context.Background(), dir, Request{Version: "v1", Command: "index", Params: json.RawMessage(`[]`)}, func(p Progress) {
		heard = append(heard, p)
	})
	if err != nil || rep.Stdout != "indexed" || rep.Error != "" {
		t.Fatalf("reply %+v, %v", rep, err)
	}
	if len(heard) < 2 || len(heard) > 100 {
		t.Fatalf("heard %d progress lines, want the first, the last, and few between", len(heard))
	}
	if heard[0].Done != 1 || heard[len(heard)-1] != (Progress{Done: 1000, Total: 1000, Bytes: 10000}) {
		t.Errorf("first %+v, last %+v", heard[0], heard[len(heard)-1])
	}
	for i := 1; i < len(heard); i++ {
		if heard[i].Done <= heard[i-1].Done {
			t.Errorf("progress %d after %d", heard[i].Done, heard[i-1].Done)
		}
	}
	rep, err = Call(context.Background(), dir, Request{Version: "v1", Command: "index", Params: json.RawMessage(`[]`)})
	if err != nil || rep.Stdout != "indexed" {
		t.Errorf("without a progress sink: %+v, %v", rep, err)
	}
}

func TestEnvDiffers(t *testing.T) {
	for _, tc := range []struct {
		a, b []string
		want []string
	}{
		{nil, nil, nil},
		{[]string{"HOME=/h"}, []string{"HOME=/h"}, nil},
		{[]string{"HOME=/h"}, []string{"HOME=/g"}, []string{"HOME"}},
		{[]string{"HOME=/h"}, []string{"GIT_INDEX_FILE=/r/.git/index.lock", "HOME=/h"}, []string{"GIT_INDEX_FILE"}},
		{[]string{"A=", "HOME=/h"}, []string{"HOME=/h"}, []string{"A"}},
		{[]string{"A=x=y"}, []string{"A=x=y"}, nil},
	} {
		if got := envDiffers(tc.a, tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("envDiffers(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// A server at a long call says so, and its client waits for it; one that
// said hello and then nothing (stopped with kill -STOP) is given up after
// silenceLimit, and the client runs the command alone.
func TestSilentDuringTheCall(t *testing.T) {
	oldBeat, oldLimit := heartbeatEvery, silenceLimit
	heartbeatEvery, silenceLimit = 50*time.Millisecond, 300*time.Millisecond
	t.Cleanup(func() { heartbeatEvery, silenceLimit = oldBeat, oldLimit })

	slow := start(t, func(ctx context.Context, cmd string, p json.RawMessage, stdout, stderr io.Writer, _ func(Progress)) error {
		time.Sleep(4 * silenceLimit)
		fmt.Fprint(stdout, "done")
		return nil
	})
	rep, err := Call(context.Background(), slow, Request{Version: "v1", Command: "slow", Params: json.RawMessage(`[]`)})
	if err != nil || rep.Stdout != "done" {
		t.Errorf("a slow call that says it is alive: %+v, %v", rep, err)
	}

	dir := t.TempDir()
	l, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	stopped := 10 * silenceLimit // read here: the cleanup sets it back while the server sleeps
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		fmt.Fprintf(c, `{"version":"v1"}`+"\n")
		bufio.NewReader(c).ReadString('\n')
		time.Sleep(stopped)
	}()
	begin := time.Now()
	_, err = Call(context.Background(), dir, Request{Version: "v1", Command: "x", Params: json.RawMessage(`[]`)})
	if err == nil || !strings.Contains(err.Error(), "said nothing") {
		t.Errorf("a server silent after hello: %v", err)
	}
	if took := time.Since(begin); took > 5*silenceLimit {
		t.Errorf("the client waited %s for a silent server", took)
	}
}
