package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone/redact/redacttest"
)

// read_span and search_code hide secrets, by the file's own rules, and a
// long line's cut never shows part of one.
func TestToolsHideSecrets(t *testing.T) {
	repo := t.TempDir()
	var b strings.Builder
	var secrets []string
	for _, p := range redacttest.Formats(9) {
		if p.Secret != "" && !strings.Contains(p.Text, "\n") {
			b.WriteString(p.Text + "\n")
			secrets = append(secrets, p.Secret)
		}
	}
	// A minified line whose secret straddles the 16 KiB cut.
	aws := redacttest.Formats(10)[0]
	lead := aws.Text[:strings.Index(aws.Text, aws.Secret)]
	long := strings.Repeat(" ", maxLineBytes-10-len(lead)) + aws.Text + strings.Repeat(";b=2", 100)
	secrets = append(secrets, aws.Secret)
	os.WriteFile(filepath.Join(repo, "settings.py"), []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(repo, "bundle.min.js"), []byte(long+"\n"), 0o644)
	cs := connect(t, repo)
	var outs []string
	_, text := call(t, cs, "read_span", map[string]any{"path": "settings.py", "start_line": 1, "end_line": 100})
	outs = append(outs, text)
	_, text = call(t, cs, "search_code", map[string]any{"query": "password api key token secret export environ"})
	outs = append(outs, text)
	_, text = call(t, cs, "read_span", map[string]any{"path": "bundle.min.js", "start_line": 1})
	outs = append(outs, text)
	i := strings.Index(text, "start_column ")
	if i < 0 {
		t.Fatalf("the long line is not cut:\n%.300s", text)
	}
	var col int
	for _, c := range text[i+len("start_column "):] {
		if c < '0' || c > '9' {
			break
		}
		col = col*10 + int(c-'0')
	}
	_, text = call(t, cs, "read_span", map[string]any{"path": "bundle.min.js", "start_line": 1, "start_column": col})
	outs = append(outs, text)
	for _, out := range outs {
		for _, s := range secrets {
			for k := 8; k <= len(s); k += 4 {
				if strings.Contains(out, s[:k]) || strings.Contains(out, s[len(s)-k:]) {
					t.Errorf("part of a secret (%d of %d bytes) shown:\n%.400s", k, len(s), out)
					break
				}
			}
		}
	}
	if !strings.Contains(outs[0], "[redacted: ") {
		t.Errorf("read_span shows no placeholder:\n%s", outs[0])
	}
}

// A protocol error that quotes what the client sent (an unknown method, a
// tool's name) goes out short and with the secrets in it hidden, as a
// tool's errors do.
func TestProtocolErrorsSafe(t *testing.T) {
	secret := ""
	for _, p := range redacttest.Formats(9) {
		if p.Rule == "github-pat" {
			secret = p.Secret
		}
	}
	if secret == "" {
		t.Fatal("redacttest makes no GitHub token")
	}
	w := serveWire(t, quietServer(t), &Transport{MaxLine: 128 << 10}, 16)
	defer w.close()
	w.initialize()
	long := strings.Repeat("m", 5000)
	for i, method := range []string{long, "x/" + secret} {
		id := fmt.Sprintf(`"m%d"`, i)
		w.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"}`)
		r, ok := w.await(id)
		if !ok || r.Error == nil {
			t.Fatalf("method %.20q: %+v, want an error", method, r)
		}
		if len(r.Error.Message) > maxErrorBytes+len("…") || strings.Contains(r.Error.Message, secret[:12]) {
			t.Errorf("method %.20q: error %.300q", method, r.Error.Message)
		}
	}
	w.send(`{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"` + secret + `","arguments":{}}}`)
	if r, ok := w.await(`"t"`); ok && r.Error != nil && strings.Contains(r.Error.Message, secret[:12]) {
		t.Errorf("tools/call of an unknown tool: error %.300q", r.Error.Message)
	}
}
