//go:build unix

package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hone mcp stops on SIGTERM, as an MCP client ends its server, with its
// input still open: it says so and exits, rather than die by the signal
// with its indexes open.
func TestMCPStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone and runs its server")
	}
	cmd, in, _, stderr := startInitializedMCP(t)
	defer in.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if cmd.ProcessState.ExitCode() != 143 || !strings.Contains(stderr.String(), "hone: interrupted") {
			t.Errorf("after SIGTERM: %v, exit %d, stderr:\n%s", err, cmd.ProcessState.ExitCode(), stderr.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("hone mcp did not stop on SIGTERM")
	}
}

// A client that stops reading with a call under way ends its session:
// the server's write fails and it exits 0, where a SIGPIPE had killed it
// before it closed its indexes.
func TestMCPClientStopsReading(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone and runs its server")
	}
	cmd, in, out, stderr := startInitializedMCP(t)
	defer in.Close()
	out.Close() // the client stops reading
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reindex","arguments":{"rebuild":true},"_meta":{"progressToken":"p"}}}`+"\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after the client stopped reading: %v, exit %d, stderr:\n%s", err, cmd.ProcessState.ExitCode(), stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("hone mcp did not end when its client stopped reading")
	}
}

// startInitializedMCP starts hone mcp on the first fixture, its input and output
// piped, and initializes its session.
func startInitializedMCP(t *testing.T) (cmd *exec.Cmd, in io.WriteCloser, out io.ReadCloser, stderr *strings.Builder) {
	t.Helper()
	cmd = exec.Command(buildHone(t), "mcp", "--repo", "../../testdata/repos/auth-expiry")
	cmd.Env = append(os.Environ(), "HONE_INDEX_DIR="+t.TempDir())
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err = cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr = &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, `"id":0`) {
		t.Fatalf("initialize: %q, %v", line, err)
	}
	return cmd, in, out, stderr
}
