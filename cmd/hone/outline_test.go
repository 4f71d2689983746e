package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutlineJSONLines holds that hone outline --json prints JSON Lines:
// each line one whole object, one a file, in the order given.
func TestOutlineJSONLines(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "repos", "auth-expiry"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"src/auth/auth.ts", "src/session/session-manager.ts", "README.md"}
	var stdout, stderr bytes.Buffer
	args := append([]string{"outline", "--json", "--repo", repo}, files...)
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("hone %q: exit %d, %s", args, code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d lines for %d files:\n%s", len(lines), len(files), stdout.String())
	}
	for i, l := range lines {
		var o outlineJSON
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Errorf("line %d is not one JSON object: %v\n%s", i+1, err, l)
			continue
		}
		if o.Path != files[i] || o.Lang == "" || o.Defs == nil || o.Imports == nil {
			t.Errorf("line %d: %+v; want the outline of %s", i+1, o, files[i])
		}
	}
}
