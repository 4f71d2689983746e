package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call that gives a progress token hears the first index's progress:
// its first file at once, then at most one notification a progressEvery,
// and its last file always, under the call's token, growing, each saying
// how many files are read. A call without a token hears none.
func TestProgressNotified(t *testing.T) {
	old := progressEvery
	progressEvery = time.Hour // the first and the last file alone
	t.Cleanup(func() { progressEvery = old })

	const files = 20
	newRepo := func() string {
		repo := t.TempDir()
		for i := range files {
			src := fmt.Sprintf("package session\n\n// Expire%d ends session %d.\nfunc Expire%d() {}\n", i, i, i)
			if err := os.WriteFile(filepath.Join(repo, fmt.Sprintf("s%02d.go", i)), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return repo
	}
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		token any
	}{
		{"retrieve_context", map[string]any{"task": "sessions expire too early"}, "retrieve-1"},
		{"search_code", map[string]any{"query": "expire session"}, 7},
		{"index_status", map[string]any{}, "status"},
		{"reindex", map[string]any{"rebuild": true}, "rebuild"},
		{"search_code", map[string]any{"query": "expire session"}, nil},
	} {
		t.Run(fmt.Sprintf("%s/%v", tc.tool, tc.token), func(t *testing.T) {
			srv, err := New(newRepo(), t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { srv.Close() })
			var mu sync.Mutex
			var heard []*mcp.ProgressNotificationParams
			ctx := context.Background()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.MCP().Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					heard = append(heard, req.Params)
					mu.Unlock()
				},
			})
			cs, err := client.Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close(); ss.Wait() })
			params := &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args}
			if tc.token != nil {
				params.SetProgressToken(tc.token)
			}
			res, err := cs.CallTool(ctx, params)
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", tc.tool, err, res)
			}
			if tc.token == nil {
				// Give a stray notification time to arrive.
				time.Sleep(50 * time.Millisecond)
				mu.Lock()
				defer mu.Unlock()
				if len(heard) != 0 {
					t.Fatalf("a call without a token heard %+v", heard[0])
				}
				return
			}
			deadline := time.Now().Add(5 * time.Second)
			for {
				mu.Lock()
				n := len(heard)
				mu.Unlock()
				if n >= 2 || time.Now().After(deadline) {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(heard) != 2 {
				t.Fatalf("heard %d notifications, want the first file's and the last's: %+v", len(heard), heard)
			}
			for i, want := range []float64{1, files} {
				p := heard[i]
				if fmt.Sprint(p.ProgressToken) != fmt.Sprint(tc.token) {
					t.Errorf("notification %d has token %v, want %v", i, p.ProgressToken, tc.token)
				}
				if p.Progress != want || p.Total != files {
					t.Errorf("notification %d: %v of %v, want %v of %d", i, p.Progress, p.Total, want, files)
				}
				if wantMsg := fmt.Sprintf("%d of %d files read", int(want), files); !strings.Contains(p.Message, wantMsg) {
					t.Errorf("notification %d says %q, want it to say %q", i, p.Message, wantMsg)
				}
			}
		})
	}
}
