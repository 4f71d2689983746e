package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hone-tools/hone/redact/redacttest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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

// A secret is found in the whole file, not in the bytes an answer shows:
// a span that starts inside a private key, below its first line, a read
// from a column inside a secret, and a search whose best lines are a
// key's, in its text and its structured hits, show none of it.
func TestToolsHideSecretsAcrossLines(t *testing.T) {
	repo := t.TempDir()
	var key redacttest.Planted
	var singles []redacttest.Planted
	for _, p := range redacttest.Formats(11) {
		switch {
		case p.Rule == "private-key":
			key = p
		case p.Secret != "" && !strings.Contains(p.Text, "\n"):
			singles = append(singles, p)
		}
	}
	if key.Secret == "" || len(singles) == 0 {
		t.Fatal("redacttest makes no private key or no one-line secret")
	}
	body := strings.Split(key.Secret, "\n")
	notes := "staging deploy key below\n\n" + key.Text + "\n"
	var cfg strings.Builder
	for _, p := range singles {
		cfg.WriteString(p.Text + "\n")
	}
	os.WriteFile(filepath.Join(repo, "deploy_notes.txt"), []byte(notes), 0o644)
	os.WriteFile(filepath.Join(repo, "config.py"), []byte(cfg.String()), 0o644)
	cs := connect(t, repo)
	leaks := func(what, out string, secrets ...string) {
		t.Helper()
		for _, s := range secrets {
			for k := 8; k <= len(s); k += 4 {
				if strings.Contains(out, s[:k]) || strings.Contains(out, s[len(s)-k:]) {
					t.Errorf("%s: part of a secret (%d of %d bytes) shown:\n%.400s", what, k, len(s), out)
					return
				}
			}
		}
	}
	first := strings.Count(notes[:strings.Index(notes, body[0])], "\n") + 1 // the key's first line of its body
	_, text := call(t, cs, "read_span", map[string]any{"path": "deploy_notes.txt", "start_line": first, "end_line": first + 1})
	leaks("read_span inside a key", text, body...)
	if !strings.Contains(text, "[redacted: ") {
		t.Errorf("read_span inside a key shows no placeholder:\n%s", text)
	}
	for i, p := range singles {
		col := strings.Index(p.Text, p.Secret) + 5
		_, text := call(t, cs, "read_span", map[string]any{"path": "config.py", "start_line": i + 1, "end_line": i + 1, "start_column": col})
		leaks(fmt.Sprintf("read_span of %s from column %d", p.Name, col), text, p.Secret[5:])
	}
	res, text := call(t, cs, "search_code", map[string]any{"query": "staging deploy " + body[0] + " " + body[1]})
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	leaks("search_code's text", text, body...)
	leaks("search_code's hits", string(structured), body...)
}

// A file whose name is not UTF-8 comes in search_code's hits in its quoted
// form, which JSON carries whole, and read_span reads it by that name; a
// name that could forge a line of the text is quoted there.
func TestNamesNotUTF8(t *testing.T) {
	repo := t.TempDir()
	odd, forged := "tok\xe9n.py", "token\nfake.py"
	for _, name := range []string{odd, forged} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte("def token_expiry(value):\n    return value\n"), 0o644); err != nil {
			t.Skip("this file system takes no such name")
		}
	}
	cs := connect(t, repo)
	res, text := call(t, cs, "search_code", map[string]any{"query": "token expiry"})
	if strings.Contains(text, "token\nfake.py") || !strings.Contains(text, `"token\nfake.py"`) {
		t.Errorf("the name with a newline is not quoted in the text:\n%s", text)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out SearchResult
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	var quoted string
	for _, h := range out.Hits {
		if u, err := strconv.Unquote(h.Path); err == nil && u == odd {
			quoted = h.Path
		}
	}
	if quoted == "" {
		t.Fatalf("no hit names %q in its quoted form: %+v", odd, out.Hits)
	}
	res, text = call(t, cs, "read_span", map[string]any{"path": quoted, "start_line": 1})
	if res.IsError || !strings.Contains(text, "def token_expiry") {
		t.Errorf("read_span of %s: error %v, %q", quoted, res.IsError, text)
	}
}

// A name that could forge a line, or is not UTF-8 (asked for in its
// quoted form, as JSON cannot carry its bytes), is quoted in
// file_outline's head and in read_span's and file_outline's errors, as
// search_code quotes it: one line, the name whole.
func TestNamesQuotedInOutlineAndErrors(t *testing.T) {
	repo := t.TempDir()
	forged, odd, blob := "new\nline.py", "caf\xe9.py", "blob\n.bin"
	for name, body := range map[string]string{forged: "def f():\n    pass\n", odd: "def f():\n    pass\n", blob: "\x00\x01\x02\n"} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
			t.Skip("this file system takes no such name")
		}
	}
	cs := connect(t, repo)
	for _, tt := range []struct {
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"file_outline", map[string]any{"path": forged}, false, `"new\nline.py" (python): 1 definitions` + "\n"},
		{"file_outline", map[string]any{"path": strconv.Quote(odd)}, false, `"caf\xe9.py" (python): 1 definitions` + "\n"},
		{"read_span", map[string]any{"path": forged, "start_line": 99}, true, `"new\nline.py" has 2 lines; start_line 99 is past its end`},
		{"read_span", map[string]any{"path": strconv.Quote(odd), "start_line": 99}, true, `"caf\xe9.py" has 2 lines`},
		{"read_span", map[string]any{"path": forged, "start_line": 1, "start_column": 99}, true, `line 1 of "new\nline.py" has 8 bytes`},
		{"read_span", map[string]any{"path": blob, "start_line": 1}, true, `"blob\n.bin" is a binary file`},
		{"file_outline", map[string]any{"path": blob}, true, `"blob\n.bin" is a binary file`},
	} {
		res, text := call(t, cs, tt.tool, tt.args)
		if res.IsError != tt.isError || !strings.Contains(text, tt.want) {
			t.Errorf("%s %q: error %v, %q; want %q", tt.tool, tt.args["path"], res.IsError, text, tt.want)
		}
		if first, _, _ := strings.Cut(text, "\n"); strings.ContainsRune(text, '\uFFFD') || tt.isError && first != strings.TrimSuffix(text, "\n") {
			t.Errorf("%s %q: the name is not quoted whole on one line: %q", tt.tool, tt.args["path"], text)
		}
	}
}

// TestSafeErrorRedactsData: a protocol error's data, which may quote what
// the client sent (a resource's URI), is redacted as its message is.
func TestSafeErrorRedactsData(t *testing.T) {
	const token = "ghp_rPmvA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
	err := safeError(&jsonrpc.Error{Code: -32002, Message: "resource not found", Data: json.RawMessage(`{"uri":"file:///` + token + `"}`)})
	we, ok := err.(*jsonrpc.Error)
	if !ok {
		t.Fatalf("safeError gave %T, want a *jsonrpc.Error", err)
	}
	if strings.Contains(string(we.Data), "ghp_rPmv") || !json.Valid(we.Data) {
		t.Errorf("data %s: want valid JSON with the token redacted", we.Data)
	}
}

// TestSafeErrorRedactsDataValues: a secret in a string of the data, which
// JSON's escapes would hide from the rules read as text, is redacted.
func TestSafeErrorRedactsDataValues(t *testing.T) {
	data := json.RawMessage(`{"k":"api_key=\"abcd1234efgh5678ijkl\""}`)
	err := safeError(&jsonrpc.Error{Code: -32002, Message: "resource not found", Data: data})
	we, ok := err.(*jsonrpc.Error)
	if !ok {
		t.Fatalf("safeError gave %T, want a *jsonrpc.Error", err)
	}
	if strings.Contains(string(we.Data), "abcd1234efgh5678ijkl") || !json.Valid(we.Data) {
		t.Errorf("data %s: want valid JSON with the key redacted", we.Data)
	}
}
