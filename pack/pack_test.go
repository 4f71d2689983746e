package pack

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
)

// TestMain: the fixtures are folders of this project's repository; git
// stops looking for a repository at testdata/repos, so that they have no
// history, whatever commit of hone is checked out.
func TestMain(m *testing.M) {
	if repos, err := filepath.Abs(filepath.Join("..", "testdata", "repos")); err == nil {
		os.Setenv("GIT_CEILING_DIRECTORIES", repos)
	}
	os.Exit(m.Run())
}

func retrieve(t *testing.T, repo, task string) *hone.Result {
	t.Helper()
	res, err := hone.Retrieve(context.Background(), repo, task, hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var fixture = filepath.Join("..", "testdata", "repos", "auth-expiry")

func TestBudgetRespected(t *testing.T) {
	res := retrieve(t, fixture, "fix the auth token expiry bug")
	for _, budget := range []int{40, 120, 300, 600, 1200, 2500, 5000, 20000} {
		p := Build(res, fixture, Options{Budget: budget})
		if n := CountTokens(p.Text); n > budget || n != p.Tokens {
			t.Errorf("budget %d: the pack holds %d tokens (reported %d)", budget, n, p.Tokens)
		}
		// Every included definition is whole: its block ends with the
		// fence after its last line.
		for _, name := range p.Included {
			i := strings.Index(p.Text, marker(name))
			if i < 0 {
				t.Errorf("budget %d: %s listed as included but absent", budget, name)
				continue
			}
			if !strings.Contains(p.Text[i:], "\n```\n") {
				t.Errorf("budget %d: %s is cut", budget, name)
			}
		}
		for _, name := range p.Omitted {
			if strings.Contains(p.Text, marker(name)) {
				t.Errorf("budget %d: %s listed as omitted but present", budget, name)
			}
		}
	}
	big := Build(res, fixture, Options{Budget: 20000})
	if len(big.Omitted) != 0 {
		t.Errorf("a large budget left out %v", big.Omitted)
	}
	for _, f := range res.Files {
		if !strings.Contains(big.Text, f.Path) {
			t.Errorf("the pack lacks %s", f.Path)
		}
	}
	small := Build(res, fixture, Options{Budget: 600})
	if len(small.Omitted) == 0 || !strings.Contains(small.Text, "Not included") {
		t.Errorf("a small budget should list what it left out: %v", small.Omitted)
	}
	// Every file's first pieces come before any file's later ones: with a
	// budget too small for everything, every file still shows.
	mid := Build(res, fixture, Options{Budget: 1500})
	if len(mid.Omitted) == 0 {
		t.Fatal("budget 1500 holds everything: the test needs a smaller one")
	}
	for _, f := range res.Files {
		if !strings.Contains(mid.Text, "### "+f.Path) {
			t.Errorf("budget 1500: no code of %s", f.Path)
		}
	}
}

func TestHeader(t *testing.T) {
	res := retrieve(t, fixture, "fix the auth token expiry bug")
	p := Build(res, fixture, Options{})
	for _, want := range []string{"Task: fix the auth token expiry bug", "stopped: sufficient", "src/session/session-manager.ts (context, 0.", "refreshSession", "Tests to run after a change:\n- src/auth/auth.test.ts"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("the pack lacks %q", want)
		}
	}
	none := retrieve(t, fixture, "quaternion spectrogram")
	if p := Build(none, fixture, Options{}); !strings.Contains(p.Text, "hone found no file for this task") {
		t.Errorf("an empty result should say so: %s", p.Text)
	}
}

func TestPastCommitsInThePack(t *testing.T) {
	res := retrieve(t, fixture, "fix the auth token expiry bug")
	res.PastCommits = []hone.PastCommit{
		{Hash: "fedcba9876543210", Subject: "Keep sessions for a week", Files: []string{"src/config.ts"}, Score: 1, Named: true},
		{Hash: "0123456789abcdef", Subject: "Refresh sessions before they expire", Files: []string{"src/session/session-manager.ts"}, Score: 1},
	}
	p := Build(res, fixture, Options{})
	want := "Past commits like the task (what changed for tasks like it):\n" +
		"- fedcba9876 Keep sessions for a week (src/config.ts, named in the task)\n" +
		"- 0123456789 Refresh sessions before they expire (src/session/session-manager.ts)"
	if !strings.Contains(p.Text, want) {
		t.Errorf("the pack lacks %q:\n%s", want, p.Text)
	}
}

func TestSecrets(t *testing.T) {
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "settings.py"), []byte(`API_KEY = "sk-abcdefghijklmnopqrstuvwx1234"
AWS = "AKIAABCDEFGHIJKLMNOP"
db_password = "hunter2hunter2"
token_url = os.environ["TOKEN"]
def load_settings():
    return {"token": TOKEN_FROM_ENV}
`), 0o644)
	os.WriteFile(filepath.Join(repo, ".env"), []byte("SETTINGS_TOKEN=verysecretvalue\n"), 0o644)
	res := &hone.Result{Task: "settings token", Threshold: 0.7, StopReason: hone.StopSufficient, Files: []hone.Evaluation{
		{Path: "settings.py", Relevance: 0.9, Reason: "test"},
		{Path: ".env", Relevance: 0.8, Reason: "test"},
	}}
	p := Build(res, repo, Options{})
	for _, leak := range []string{"sk-abcdefghij", "AKIAABCDEFGHIJKLMNOP", "hunter2hunter2", "verysecretvalue"} {
		if strings.Contains(p.Text, leak) {
			t.Errorf("the pack leaks %q", leak)
		}
	}
	if p.Redacted != 3 {
		t.Errorf("redacted %d strings, want 3", p.Redacted)
	}
	if !strings.Contains(p.Text, "load_settings") || !strings.Contains(p.Text, `os.environ["TOKEN"]`) {
		t.Errorf("redaction went too far:\n%s", p.Text)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct{ in, out string }{
		{`key = "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----"`, `key = "[REDACTED]"`},
		{`const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";`, `const token = "[REDACTED]";`},
		{`password: "${DB_PASSWORD}"`, `password: "${DB_PASSWORD}"`},
		{`secret_key = "short"`, `secret_key = "short"`},
		{`name = "not a secret at all"`, `name = "not a secret at all"`},
	}
	for _, tt := range tests {
		if got, _ := redact(tt.in); got != tt.out {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.out)
		}
	}
}
