package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/redact/redacttest"
)

// TestEncoderRedacts: what a benchmark writes (rows, signals, pack dumps)
// holds no secret, and the values it wrote are left as they were.
func TestEncoderRedacts(t *testing.T) {
	for _, p := range redacttest.Formats(3) {
		if strings.Contains(p.Text, "\n") || p.Secret == "" {
			continue // a block across lines (a path or an error holds a line), or a secret not named
		}
		t.Run(p.Name, func(t *testing.T) {
			row := Row{ID: "x-1", Repo: "o/r", Files: []string{"a.go", "deploy/" + p.Text}, Error: "clone: " + p.Text}
			sig := SignalRow{ID: "x-1", Paths: []string{p.Text}, X: [][]float64{{0.25}}, Names: []string{"search"}}
			var b bytes.Buffer
			if err := (*Encoder)(nil).Encode(row); err != nil {
				t.Errorf("a nil Encoder: %v", err)
			}
			enc := NewEncoder(&b)
			for _, v := range []any{row, &sig} {
				if err := enc.Encode(v); err != nil {
					t.Fatal(err)
				}
			}
			if strings.Contains(b.String(), p.Secret) {
				t.Errorf("the JSON holds the secret:\n%s", b.String())
			}
			if !strings.Contains(b.String(), "[redacted: ") {
				t.Errorf("the JSON has no placeholder:\n%s", b.String())
			}
			// The lines read back as the values, but their secrets.
			dec := json.NewDecoder(&b)
			var back Row
			var backSig SignalRow
			if err := dec.Decode(&back); err != nil {
				t.Fatal(err)
			}
			if err := dec.Decode(&backSig); err != nil {
				t.Fatal(err)
			}
			if back.ID != row.ID || back.Files[0] != "a.go" || len(backSig.X) != 1 || backSig.X[0][0] != 0.25 {
				t.Errorf("read back %+v and %+v", back, backSig)
			}
			if !strings.Contains(row.Error, p.Secret) || sig.Paths[0] != p.Text {
				t.Error("Encode changed the values it was given")
			}
		})
	}
}

// TestPackDumpRedacts: a pack dump's copies of the files and its JSON
// hold no secret, and its files keep their lines.
func TestPackDumpRedacts(t *testing.T) {
	var planted redacttest.Planted
	for _, p := range redacttest.Formats(5) {
		if p.Rule == "github-pat" {
			planted = p
		}
	}
	if planted.Secret == "" {
		t.Fatal("no github-pat among the planted secrets")
	}
	root := t.TempDir()
	src := "package deploy\n\n" + planted.Text + "\n\nfunc Deploy() {}\n"
	if err := os.WriteFile(filepath.Join(root, "deploy.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file whose path holds the secret: its copy is left out, and the
	// past lines' key is redacted.
	secretDir := filepath.Join(root, "keys", planted.Secret)
	if err := os.MkdirAll(secretDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secretDir, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secretPath := "keys/" + planted.Secret + "/a.go"
	res := &hone.Result{Task: "deploy with " + planted.Secret, Files: []hone.File{{Path: "deploy.go", Relevance: 0.9, Reason: "holds " + planted.Secret}, {Path: secretPath, Relevance: 0.5}}}
	dir := t.TempDir()
	if err := dumpPack(dir, Instance{ID: "o__r-1", Repo: "o/r"}, res, root, map[string][]string{secretPath: {"package a"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "o__r-1", "keys")); !os.IsNotExist(err) {
		t.Errorf("the file whose path holds the secret was copied: %v", err)
	}
	copied, err := os.ReadFile(filepath.Join(dir, "o__r-1", "deploy.go"))
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile(filepath.Join(dir, "o__r-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"the file's copy": copied, "the JSON": js} {
		if bytes.Contains(b, []byte(planted.Secret)) || !bytes.Contains(b, []byte("[redacted: ")) {
			t.Errorf("%s is not redacted:\n%s", name, b)
		}
	}
	if got, want := strings.Count(string(copied), "\n"), strings.Count(src, "\n"); got != want {
		t.Errorf("the copy has %d lines, the file %d", got, want)
	}
	if !strings.Contains(res.Files[0].Reason, planted.Secret) || res.Files[1].Path != secretPath {
		t.Error("the dump changed the result it was given")
	}
}
