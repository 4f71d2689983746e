package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/hone-tools/hone/mcpserver"
	"github.com/hone-tools/hone/redact/redacttest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNoSecretLeaves plants a secret of every format users have seen leak,
// and an example of each rule of gitleaks' set, in a repository's files, a
// commit message, a remote URL and files that links lead to, then runs
// every output: retrieve's text, JSON and pack, outline, status, and each
// MCP tool. No secret value may appear in any of them.
func TestNoSecretLeaves(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	planted := redacttest.Formats(42)
	examples, _ := redacttest.RuleExamples(42)
	planted = append(planted, examples...)
	var secrets []string
	for _, p := range planted {
		if p.Secret != "" {
			secrets = append(secrets, p.Secret)
		}
	}

	repo := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Ten settings modules share the secrets, so that one task finds them
	// all and the pack holds their code.
	const modules = 10
	var files []string
	for m := 0; m < modules; m++ {
		var b strings.Builder
		fmt.Fprintf(&b, "\"\"\"Gateway settings for region %d: keys and tokens of the payment gateway.\"\"\"\n\n", m)
		fmt.Fprintf(&b, "def load_gateway_settings_%d():\n    return GATEWAY_SETTINGS\n\n", m)
		for i := m; i < len(planted); i += modules {
			b.WriteString(planted[i].Text + "\n")
		}
		name := fmt.Sprintf("gateway/settings_%d.py", m)
		write(name, b.String())
		files = append(files, name)
	}
	write(".env", "GATEWAY_PASSWORD="+secrets[0]+"\n")
	write("id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n"+strings.Repeat("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", 3)+"\n-----END OPENSSH PRIVATE KEY-----\n")
	secrets = append(secrets, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ")
	links := map[string]string{"notes.txt": ".env", "key.txt": "id_rsa", "creds.json": ".git/config"}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(repo, link)); err != nil {
			t.Skip("no symbolic links here")
		}
	}
	remote := "ghs_" + strings.Repeat("Q7", 18)
	secrets = append(secrets, remote)
	subject := "Rotate the gateway settings key " + planted[2].Secret
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	git("remote", "add", "origin", "https://x-access-token:"+remote+"@github.com/acme/gateway.git")
	git("add", "-A")
	git("commit", "-q", "-m", subject)
	write("gateway/settings_0.py", strings.Replace(readFile(t, filepath.Join(repo, "gateway/settings_0.py")), "GATEWAY_SETTINGS", "GATEWAY_SETTINGS or {}", 1))
	git("commit", "-q", "-am", "Rotate the gateway settings key again: "+planted[3].Secret)

	indexDir := t.TempDir()
	var outputs []string
	cli := func(args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append(args[:1:1], append([]string{"--repo", repo, "--index-dir", indexDir}, args[1:]...)...), strings.NewReader(""), &stdout, &stderr)
		if args[0] == "outline" {
			code = run(context.Background(), args, strings.NewReader(""), &stdout, &stderr)
		}
		shown := strings.Join(args, " ")
		if strings.Contains(shown, "the failing request sent") {
			shown = args[0] + " (the task with secrets)" // not the output's
		}
		outputs = append(outputs, fmt.Sprintf("hone %s (exit %d):\n%s%s", shown, code, stdout.String(), stderr.String()))
	}
	const task = "rotate the keys and tokens in the payment gateway settings"
	cli("retrieve", task)
	cli("retrieve", "--json", task)
	cli("retrieve", "--format", "context", "--budget", "20000", task)
	cli("status")
	// A task that holds secrets (pasted from a log, a config) finds what
	// it finds without them: no form of them is a term, a keyword or a
	// concept of the output.
	var inTask strings.Builder
	inTask.WriteString(task + ": the failing request sent")
	for _, p := range planted[:min(8, len(planted))] {
		if p.Secret != "" && !strings.Contains(p.Text, "\n") {
			inTask.WriteString(" " + p.Text)
		}
	}
	cli("retrieve", inTask.String())
	cli("retrieve", "--json", inTask.String())
	cli("retrieve", "--format", "context", inTask.String())
	pack := outputs[2]
	if !strings.Contains(pack, "[redacted: ") {
		t.Errorf("the pack shows no placeholder: were the settings left out?\n%s", pack)
	}
	var res struct{ Redacted int }
	if err := json.Unmarshal([]byte(outputs[1][strings.Index(outputs[1], "{"):]), &res); err != nil || res.Redacted == 0 {
		t.Errorf("the JSON counts no redaction (%v):\n%s", err, outputs[1])
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(repo); err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, "notes.txt", "key.txt", "creds.json") {
		cli("outline", f)
		cli("outline", "--json", f)
	}
	os.Chdir(wd)

	// Each MCP tool, in process.
	srv, err := mcpserver.New(repo, indexDir, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		var b strings.Builder
		label := maps.Clone(args)
		if t, ok := label["task"].(string); ok && len(t) > len(task) {
			label["task"] = "(the task with secrets)" // not the output's
		}
		fmt.Fprintf(&b, "mcp %s %v: ", name, label)
		if err != nil {
			b.WriteString("error: " + err.Error())
		} else {
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					b.WriteString(tc.Text)
				}
			}
			sc, _ := json.Marshal(res.StructuredContent)
			b.Write(sc)
		}
		outputs = append(outputs, b.String())
	}
	call("retrieve_context", map[string]any{"task": task, "budget_tokens": 20000})
	call("retrieve_context", map[string]any{"task": inTask.String()})
	call("search_code", map[string]any{"query": "gateway settings key token password secret api", "limit": 50})
	call("search_code", map[string]any{"query": "AKIA ghp sk_live AIza github_pat postgres export environ"})
	call("index_status", map[string]any{})
	for _, f := range append(files, "notes.txt", "key.txt", "creds.json", ".env", "id_rsa", ".git/config", ".git/COMMIT_EDITMSG", ".git/logs/HEAD") {
		call("file_outline", map[string]any{"path": f})
		call("read_span", map[string]any{"path": f, "start_line": 1, "end_line": 500})
	}

	// A stem of a secret is its letters and digits, lower-cased.
	squash := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	leaked := 0
	for _, out := range outputs {
		lower := strings.ToLower(out)
		words := strings.Fields(strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' {
				return r
			}
			return ' '
		}, out))
		stems := map[string]bool{}
		for _, w := range words {
			stems[squash(w)] = true
		}
		for _, s := range secrets {
			if strings.Contains(out, s) || len(s) >= 12 && (strings.Contains(lower, strings.ToLower(s)) || stems[squash(s)]) {
				leaked++
				t.Errorf("a secret left hone: %q in\n%.600s", s, out)
			}
		}
	}
	t.Logf("%d secrets planted (%d formats, %d rule examples), %d outputs checked, %d leaks", len(secrets), len(redacttest.Formats(42)), len(examples), len(outputs), leaked)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
