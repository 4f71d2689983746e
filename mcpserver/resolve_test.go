package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinksToSecretsAndGit: a link inside the repository to a secret, or
// into .git, and .git itself are refused by every tool that reads a file
// by a path it is given; a link to an ordinary file still reads.
func TestLinksToSecretsAndGit(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"a.go":                    "package a // plain code\n",
		".env":                    "TOKEN=LEAK-env-value\n",
		"id_rsa":                  "-----BEGIN OPENSSH PRIVATE KEY-----\nLEAK-key-value\n",
		"credentials.json":        `{"secret": "LEAK-credentials-value"}` + "\n",
		"deploy/.env.production":  "DB_PASSWORD=LEAK-production-value\n",
		".git/config":             "[remote \"origin\"]\n\turl = https://user:LEAK-remote-value@example.com/r.git\n",
		".git/logs/HEAD":          "0000 1111 A U <a@b> 1 +0000\tcommit: LEAK-log-value\n",
		".git/COMMIT_EDITMSG":     "LEAK-commit-value\n",
		"vendor/lib/.git/config":  "[core]\n\tsecret = LEAK-submodule-value\n",
		".GIT/config":             "LEAK-case-value\n",
		"docs/.git":               "gitdir: LEAK-gitfile-value\n",
		"src/deep/ordinary.txt":   "ordinary text\n",
		"src/deep/credentials":    "LEAK-deep-value\n",
		"keys/server.pem":         "-----BEGIN PRIVATE KEY-----\nLEAK-pem-value\n",
		"keys/readme.txt":         "not a key\n",
		"nested/dir/id_ed25519_x": "LEAK-ed-value\n",
	}
	for p, text := range files {
		abs := filepath.Join(repo, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"notes.txt":         ".env",
		"key.txt":           "id_rsa",
		"creds.json":        "credentials.json",
		"prod.txt":          "deploy/.env.production",
		"chain1.txt":        "chain2.txt",
		"chain2.txt":        "notes.txt",
		"cert.txt":          "keys/server.pem",
		"ed.txt":            "nested/dir/id_ed25519_x",
		"gitcfg.txt":        ".git/config",
		"gitdir":            ".git",
		"sub/up.txt":        "../src/deep/credentials",
		"alias.go":          "a.go",
		"keys/link.txt":     "readme.txt",
		"sub/ordinary.txt":  "../src/deep/ordinary.txt",
		"sub/gitlogs":       "../.git/logs",
		"vendor/lib/cfg.md": ".git/config",
	}
	for p, target := range links {
		abs := filepath.Join(repo, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(target), abs); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	cs := connect(t, repo)
	for _, tt := range []struct{ path, why string }{
		{"notes.txt", "link to a secret-bearing file"},
		{"key.txt", "link to a secret-bearing file"},
		{"creds.json", "link to a secret-bearing file"},
		{"prod.txt", "link to a secret-bearing file"},
		{"chain1.txt", "link to a secret-bearing file"},
		{"cert.txt", "link to a secret-bearing file"},
		{"ed.txt", "link to a secret-bearing file"},
		{"sub/up.txt", "link to a secret-bearing file"},
		{"gitcfg.txt", "link into .git"},
		{"gitdir/config", "link into .git"},
		{"gitdir/logs/HEAD", "link into .git"},
		{"sub/gitlogs/HEAD", "link into .git"},
		{"vendor/lib/cfg.md", "link into .git"},
		{".git/config", "under .git"},
		{".git/logs/HEAD", "under .git"},
		{".git/COMMIT_EDITMSG", "under .git"},
		{"./.git/../.git/config", "under .git"},
		{"vendor/lib/.git/config", "under .git"},
		{".GIT/config", "under .git"},
		{"docs/.git", "under .git"},
		{"src/deep/credentials", "secret-bearing file"},
		{"deploy/.env.production", "secret-bearing file"},
	} {
		for _, tool := range []string{"read_span", "file_outline"} {
			args := map[string]any{"path": tt.path}
			if tool == "read_span" {
				args["start_line"] = 1
			}
			res, text := call(t, cs, tool, args)
			if !res.IsError || !strings.Contains(text, tt.why) {
				t.Errorf("%s %q: error %v, %q; want it refused as %q", tool, tt.path, res.IsError, text, tt.why)
			}
			if strings.Contains(text, "LEAK-") {
				t.Errorf("%s %q leaked: %q", tool, tt.path, text)
			}
		}
	}
	for path, want := range map[string]string{
		"alias.go":         "package a",
		"keys/link.txt":    "not a key",
		"sub/ordinary.txt": "ordinary text",
	} {
		res, text := call(t, cs, "read_span", map[string]any{"path": path, "start_line": 1})
		if res.IsError || !strings.Contains(text, want) {
			t.Errorf("read_span %q: %q; want %q", path, text, want)
		}
	}
}
