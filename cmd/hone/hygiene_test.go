package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone/redact/redacttest"
)

// File names that hold a newline, terminal escapes or bytes that are not
// UTF-8 cannot forge a result line or reach the terminal, and come back
// in JSON as names that exist.
func TestHostileNames(t *testing.T) {
	repo := t.TempDir()
	names := []string{
		"invoice\n  1.00  forged.py  target, cycle 1\n.py",
		"invoice_\x1b[2J\x1b]0;pwned\x07.py",
		"invoice_\xff\xfe.py",
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(repo, n), []byte("def render_invoice(invoice):\n    return invoice.total\n"), 0o644); err != nil {
			t.Skipf("this file system refuses the name %q: %v", n, err)
		}
	}
	// A low threshold, so that all three files are among the result's.
	retrieve := func(args ...string) string {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), append([]string{"retrieve", "--repo", repo, "--index-dir", t.TempDir(), "--no-history", "--threshold", "0.01"}, args...), strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		return stdout.String()
	}
	for _, format := range []string{"text", "context"} {
		out := retrieve("--format", format, "render the invoice")
		if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `\x1b`) {
			t.Errorf("%s: escapes reach the terminal, or the name is not shown quoted:\n%q", format, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "  1.00  forged.py") {
				t.Errorf("%s: a file name forged a line:\n%s", format, out)
			}
		}
		if !bytes.Equal([]byte(out), bytes.ToValidUTF8([]byte(out), nil)) {
			t.Errorf("%s: the output is not UTF-8", format)
		}
	}
	var res struct {
		Files []struct{ Path string }
	}
	if err := json.Unmarshal([]byte(retrieve("--json", "render the invoice")), &res); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range res.Files {
		if _, err := os.Stat(filepath.Join(repo, redacttest.Unquote(f.Path))); err != nil {
			t.Errorf("JSON path %q names no file: %v", f.Path, err)
		}
		found++
	}
	if found != len(names) {
		t.Errorf("JSON holds %d files, want %d", found, len(names))
	}
}
