package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPOverStdio starts the built binary as an MCP server over stdio, as
// an agent does, and calls retrieve_context on a fixture repository.
func TestMCPOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone: skipped in short mode")
	}
	bin := buildHone(t)
	repo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "repos", "auth-expiry"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp", "--repo", repo, "--log-file", filepath.Join(t.TempDir(), "mcp.log"))
	cmd.Env = append(os.Environ(), "HONE_INDEX_DIR="+t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "retrieve_context", Arguments: map[string]any{"task": "fix the auth token expiry bug"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("retrieve_context failed: %+v", res)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	for _, want := range []string{"# Context pack from hone", "src/auth/auth.ts", "src/session/session-manager.ts", "src/lib/jwt-utils.ts"} {
		if !strings.Contains(text, want) {
			t.Errorf("the pack lacks %q", want)
		}
	}
}

// mcpProcess is hone mcp on the auth-expiry fixture, spoken to in lines.
type mcpProcess struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Reader
	lines chan string
}

func startMCP(t *testing.T, bin string) *mcpProcess {
	t.Helper()
	repo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "repos", "auth-expiry"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp", "--repo", repo, "--log-file", filepath.Join(t.TempDir(), "mcp.log"))
	cmd.Env = append(os.Environ(), "HONE_INDEX_DIR="+t.TempDir())
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &mcpProcess{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

// next reads the next reply; it fails the test after 30s.
func (p *mcpProcess) next(t *testing.T) map[string]any {
	t.Helper()
	if p.lines == nil {
		p.lines = make(chan string, 1024)
		go func() {
			for {
				line, err := p.out.ReadString('\n')
				if err != nil {
					close(p.lines)
					return
				}
				p.lines <- line
			}
		}()
	}
	select {
	case line, ok := <-p.lines:
		if !ok {
			t.Fatal("hone mcp ended")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("not a JSON-RPC reply: %.300q", line)
		}
		return m
	case <-time.After(30 * time.Second):
		t.Fatal("no reply in 30s")
	}
	return nil
}

// read reads replies until the one with the given id, returning those
// before it.
func (p *mcpProcess) read(t *testing.T, id string) (before []map[string]any, got map[string]any) {
	t.Helper()
	for {
		m := p.next(t)
		if fmt.Sprint(m["id"]) == id {
			return before, m
		}
		before = append(before, m)
	}
}

func (p *mcpProcess) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("hone mcp stopped reading: %v", err)
	}
}

func (p *mcpProcess) initialize(t *testing.T) {
	t.Helper()
	p.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"0"}}}`)
	// Read the one reply here: no reading goes on after it until the
	// test asks for the next.
	line, err := p.out.ReadString('\n')
	var r map[string]any
	if err != nil || json.Unmarshal([]byte(line), &r) != nil || r["id"] != "init" || r["error"] != nil {
		t.Fatalf("initialize: %.300q, %v", line, err)
	}
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestMCPMalformedInput sends hone mcp the lines that used to end it,
// each followed by a request: each gets an error reply, the request after
// it is answered, and hone exits 0 when its input ends.
func TestMCPMalformedInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone: skipped in short mode")
	}
	p := startMCP(t, buildHone(t))
	p.initialize(t)
	cases := []struct {
		line string
		code float64
		id   string
	}{
		{`{`, -32700, "<nil>"},
		{`not json`, -32700, "<nil>"},
		{`[]`, -32600, "<nil>"},
		{`{}`, -32600, "<nil>"},
		{`null`, -32600, "<nil>"},
		{`123`, -32600, "<nil>"},
		{"\xff\xfe", -32700, "<nil>"},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xc0\"}", -32700, "<nil>"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "<nil>"},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, -32600, "<nil>"},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, "<nil>"},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, -32700, "<nil>"},
		{`{"jsonrpc":"2.0","result":{}}`, -32600, "<nil>"},
		{`{"jsonrpc":"2.0","id":3,"method":7}`, -32600, "3"},
		{`{"jsonrpc":"1.0","id":4,"method":"ping"}`, -32600, "4"},
		{strings.Repeat("[", 100000), -32700, "<nil>"},
		// A 10 MB message: over the limit, answered with its id.
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_span","arguments":{"path":"` + strings.Repeat("p", 10<<20) + `"}}}`, -32600, "5"},
	}
	survived := 0
	for i, tt := range cases {
		p.send(t, tt.line)
		next := fmt.Sprintf("after-%d", i)
		p.send(t, `{"jsonrpc":"2.0","id":"`+next+`","method":"tools/list"}`)
		before, r := p.read(t, next)
		if r["error"] != nil {
			t.Errorf("%.40q: tools/list after it: %v", tt.line, r["error"])
			continue
		}
		if len(before) != 1 || fmt.Sprint(before[0]["id"]) != tt.id {
			t.Errorf("%.40q: replies %v; want one error with id %s", tt.line, before, tt.id)
			continue
		}
		e, _ := before[0]["error"].(map[string]any)
		if e == nil || e["code"] != tt.code {
			t.Errorf("%.40q: reply %v; want error %v", tt.line, before[0], tt.code)
			continue
		}
		if msg := fmt.Sprint(e["message"]); len(msg) > 300 {
			t.Errorf("%.40q: an error of %d bytes", tt.line, len(msg))
		}
		survived++
	}
	p.in.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("hone mcp at the end of its input: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("hone mcp did not end with its input")
	}
	t.Logf("malformed inputs survived: %d of %d", survived, len(cases))
}

// TestMCPNonReadingClient feeds hone mcp requests and never reads its
// replies: hone stops reading its input once the replies it could not
// write fill the pipe and its bound of requests in progress, so its
// memory stays flat; once read, it answers. HONE_MCP_SOAK_SECONDS sets
// how long the client feeds it (5 by default).
func TestMCPNonReadingClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone: skipped in short mode")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the memory of a process from /proc")
	}
	soak := 5 * time.Second
	if s := os.Getenv("HONE_MCP_SOAK_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("HONE_MCP_SOAK_SECONDS=%q: %v", s, err)
		}
		soak = time.Duration(n) * time.Second
	}
	p := startMCP(t, buildHone(t))
	p.initialize(t)
	var sent atomic.Int64
	go func() {
		for i := 0; ; i++ {
			_, err := fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_span","arguments":{"path":"src/auth/auth.ts","start_line":1,"end_line":200}}}`+"\n", i)
			if err != nil {
				return
			}
			sent.Add(1)
		}
	}()
	start := time.Now()
	var peak int64
	for time.Since(start) < soak {
		time.Sleep(time.Second)
		peak = max(peak, rssBytes(t, p.cmd.Process.Pid))
	}
	rss := rssBytes(t, p.cmd.Process.Pid)
	t.Logf("after %v of a client that never reads: %d requests sent, RSS %.1f MB (peak %.1f MB)", soak, sent.Load(), float64(rss)/(1<<20), float64(peak)/(1<<20))
	if peak > 150<<20 {
		t.Errorf("RSS peaked at %.1f MB; want it bounded under 150 MB", float64(peak)/(1<<20))
	}
	// Reading stopped: the client could send only what the pipes and the
	// bound hold.
	if n := sent.Load(); n > 2000 {
		t.Errorf("hone read %d requests it could not answer; want it to stop reading", n)
	}
	// Once the client reads, every request sent is answered (in any
	// order: requests run concurrently).
	n := int(sent.Load())
	answered := map[int]bool{}
	for len(answered) < n {
		r := p.next(t)
		if id, err := strconv.Atoi(fmt.Sprint(r["id"])); err == nil && id < n {
			if r["error"] != nil {
				t.Fatalf("request %d: %v", id, r["error"])
			}
			answered[id] = true
		}
	}
}

// rssBytes is a process's resident memory, from /proc.
func rssBytes(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("the memory of hone mcp: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc status")
	return 0
}
