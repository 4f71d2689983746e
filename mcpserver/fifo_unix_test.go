//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFiles: a FIFO or a link to a device inside the repository
// is refused at once, never opened (opening a FIFO waits for a writer).
func TestSpecialFiles(t *testing.T) {
	repo := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(repo, "fifo.go"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	os.Symlink("/dev/zero", filepath.Join(repo, "zero.go"))
	os.Symlink("fifo.go", filepath.Join(repo, "tofifo.go"))
	cs := connect(t, repo)
	for _, tt := range []struct{ path, want string }{
		{"fifo.go", "not a regular file"},
		{"tofifo.go", "not a regular file"},
		{"zero.go", "leaves the repository"},
	} {
		for _, tool := range []string{"file_outline", "read_span"} {
			done := make(chan struct{})
			go func() {
				defer close(done)
				args := map[string]any{"path": tt.path}
				if tool == "read_span" {
					args["start_line"] = 1
				}
				res, text := call(t, cs, tool, args)
				if !res.IsError || !strings.Contains(text, tt.want) {
					t.Errorf("%s %s: %q; want %q", tool, tt.path, text, tt.want)
				}
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("%s %s hangs", tool, tt.path)
			}
		}
	}
}
