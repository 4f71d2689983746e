package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone/index"
)

// An index made but never written (its first hone index stopped before
// any write, by Ctrl-C say) is no index yet: the status says so in text
// and in JSON, with no zero time for its update.
func TestStatusNeverWritten(t *testing.T) {
	repo := filepath.Join("..", "..", "testdata", "repos", "login-throttle")
	dir := t.TempDir()
	ix, err := index.Open(context.Background(), repo, index.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runOut(t, "status", "--repo", repo, "--index-dir", dir)
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "updated:  never (run \"hone index\")") {
		t.Errorf("status of an index never written:\n%s", out)
	}
	out, stderr, code = runOut(t, "status", "--json", "--repo", repo, "--index-dir", dir)
	if code != 0 {
		t.Fatalf("status --json: exit %d: %s", code, stderr)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	if st["indexed"] != false {
		t.Errorf(`"indexed" = %v for an index never written, want false`, st["indexed"])
	}
	if u, ok := st["updated"]; ok {
		t.Errorf(`"updated" = %v for an index never written, want it left out`, u)
	}
	if st["complete"] != false {
		t.Errorf(`"complete" = %v, want false`, st["complete"])
	}
}
