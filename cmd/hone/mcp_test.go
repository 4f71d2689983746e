package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
