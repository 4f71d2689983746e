package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// scratchRepo makes a git repository in a temporary directory and returns
// it with a function that writes files and commits them.
func scratchRepo(t *testing.T) (string, func(msg string, files map[string]string, remove ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	commit := func(msg string, files map[string]string, remove ...string) string {
		t.Helper()
		for p, text := range files {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range remove {
			git("rm", "-q", p)
		}
		git("add", "-A")
		git("commit", "-q", "-m", msg)
		return git("rev-parse", "HEAD")
	}
	return dir, commit
}

func TestMine(t *testing.T) {
	dir, commit := scratchRepo(t)
	long := "\n\nThe tokenizer stopped one token short when the input ended without a newline, so the last word was lost."
	base := commit("Start", map[string]string{
		"parse/lexer.go": "package parse\n", "parse/lexer_test.go": "package parse\n",
		"parse/ast.go": "package parse\n", "README.md": "# p\n", "vendor/x/x.go": "package x\n",
	})
	fix := commit("parse: keep the last token (#12)"+long+"\n\nFixes #11\nSigned-off-by: A <a@a>", map[string]string{
		"parse/lexer.go": "package parse // fixed\n", "parse/lexer_test.go": "package parse // test\n",
		"README.md": "# p, fixed\n", "vendor/x/x.go": "package x // bumped\n",
	})
	commit("Add the names of words"+long, map[string]string{"parse/naïve.go": "package parse\n"})
	naive := commit("Keep the accents of a name\n\nThe lexer folded naïve words to ASCII when it read a name, so lookups of the\nname failed.", map[string]string{
		"parse/naïve.go": "package parse // ï\n",
	})
	commit("Add a printer"+long, map[string]string{"parse/printer.go": "package parse\n", "parse/lexer.go": "package parse // 2\n"})
	commit("Fix a typo", map[string]string{"parse/ast.go": "package parse // typo\n"})
	commit("Document the lexer"+long, map[string]string{"README.md": "# p, documented\n"})
	commit("Revert \"parse: keep the last token\""+long, map[string]string{"parse/lexer.go": "package parse\n"})
	commit("Drop the printer"+long, nil, "parse/printer.go")
	commit("Rename Node to Expr everywhere"+long, map[string]string{
		"parse/ast.go": "package parse // Expr\n", "parse/lexer.go": "package parse // Expr\n", "parse/printer2.go": "",
	})

	ins, st, err := Mine(context.Background(), MineOptions{GitDir: filepath.Join(dir, ".git"), Repo: "me/parse", MaxGold: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 {
		t.Fatalf("got %d instances, want 2: %+v (stats %+v)", len(ins), ins, st)
	}
	// Oldest first; a name past ASCII as it is, not escaped.
	if n := ins[1]; !strings.HasPrefix(naive, strings.TrimPrefix(n.ID, "parse-")) || !slices.Equal(n.Gold, []string{"parse/naïve.go"}) {
		t.Errorf("second instance %s with gold %q, want parse-%.10s with parse/naïve.go", n.ID, n.Gold, naive)
	}
	in := ins[0]
	if !strings.HasPrefix(fix, strings.TrimPrefix(in.ID, "parse-")) || in.Repo != "me/parse" || in.BaseCommit != base {
		t.Errorf("instance %s of %s at %s, want parse-%.10s of me/parse at %s", in.ID, in.Repo, in.BaseCommit, fix, base)
	}
	if !slices.Equal(in.Gold, []string{"parse/lexer.go"}) {
		t.Errorf("gold %v, want the code file alone, without its test, the docs and vendored code", in.Gold)
	}
	want := "keep the last token" + long
	if in.Problem != want {
		t.Errorf("task %q, want %q: scope, pull request number, reference and trailer out", in.Problem, want)
	}
	wantStats := MineStats{Commits: 10, Qualified: 2, Kept: 2, NoCode: 1, NewFiles: 4, TooBig: 0, Short: 1, Revert: 1}
	if st != wantStats {
		t.Errorf("stats %+v, want %+v", st, wantStats)
	}

	// The scope kept; at most N, drawn the same way each time.
	ins, _, err = Mine(context.Background(), MineOptions{GitDir: filepath.Join(dir, ".git"), Repo: "parse", KeepScope: true, MaxGold: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 || !strings.HasPrefix(ins[0].Problem, "parse: keep the last token\n") {
		t.Errorf("with the scope kept: %+v", ins)
	}
	// A subject to match: the fix's does not say "crash".
	_, st, err = Mine(context.Background(), MineOptions{GitDir: filepath.Join(dir, ".git"), Repo: "parse", MaxGold: 1, Subject: regexp.MustCompile("(?i)crash")})
	if err != nil || st.Kept != 0 || st.Subject != 2 {
		t.Errorf("subject crash: kept %d, passed over %d for the subject (%v), want 0 and 2", st.Kept, st.Subject, err)
	}
	if _, _, err := Mine(context.Background(), MineOptions{GitDir: filepath.Join(dir, "nope"), Repo: "parse"}); err == nil {
		t.Error("no git directory: no error")
	}
}

func TestMineTask(t *testing.T) {
	for msg, want := range map[string]string{
		"net/http: close idle connections (#4411)": "close idle connections",
		"fix(parser): keep comments":               "keep comments",
		"api, web: retry on 503":                   "retry on 503",
		"Fix the bug: it crashes":                  "Fix the bug: it crashes",
		"Handle nil labels\n\nCloses: https://example.com/issues/9\nSee also: 8b843732b365\nChange-Id: I12":            "Handle nil labels",
		"Handle nil labels\n\nIt fixes #9 as well, by guarding the map.":                                               "Handle nil labels\n\nIt fixes #9 as well, by guarding the map.",
		"Handle nil labels\r\n\r\nGuard the map.\r\nSigned-off-by: A <a@a>\r\n":                                        "Handle nil labels\n\nGuard the map.",
		"ignore lazy option\n\n* fix(watch): ignore lazy option\n\n- test(watch)!: cover it\n* Note: it is (not) lazy": "ignore lazy option\n\n* ignore lazy option\n\n- cover it\n* Note: it is (not) lazy",
	} {
		if got := mineTask(msg, false); got != want {
			t.Errorf("mineTask(%q) = %q, want %q", msg, got, want)
		}
	}
}

func FuzzMineTask(f *testing.F) {
	for _, s := range []string{"net/http: close idle connections (#4411)", "fix(parser): keep comments\r\n\r\nFixes #3\r\n", "Revert \"x\"", ": :", "a: b: c", "(#1)"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, msg string, keep bool) {
		got := mineTask(msg, keep)
		if got != strings.TrimSpace(got) {
			t.Errorf("mineTask(%q) = %q: not trimmed", msg, got)
		}
		if strings.Contains(got, "\r\n") {
			t.Errorf("mineTask(%q) = %q: a CRLF line end left", msg, got)
		}
		if len(got) > len(msg) {
			t.Errorf("mineTask(%q) = %q: longer than the message", msg, got)
		}
	})
}
