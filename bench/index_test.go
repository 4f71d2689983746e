package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hone-tools/hone"
)

func TestReadTasks(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "tasks.jsonl")
	os.WriteFile(jsonl, []byte(`{"repo": "a/b", "problem_statement": "first\nline two"}
{"repo": "c/d", "problem_statement": "other repo"}

{"repo": "a/b", "problem_statement": "second"}
`), 0o644)
	got, err := ReadTasks(jsonl, "a/b", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"first\nline two", "second"}) {
		t.Errorf("ReadTasks = %q", got)
	}
	if got, _ := ReadTasks(jsonl, "", 2); len(got) != 2 {
		t.Errorf("limit 2: %d tasks", len(got))
	}
	plain := filepath.Join(dir, "tasks.txt")
	os.WriteFile(plain, []byte("fix the token expiry\n\nadd rate limiting\n"), 0o644)
	if got, _ := ReadTasks(plain, "", 0); !slices.Equal(got, []string{"fix the token expiry", "add rate limiting"}) {
		t.Errorf("plain tasks = %q", got)
	}
	if _, err := ReadTasks(filepath.Join(dir, "missing"), "", 0); err == nil {
		t.Error("missing file: no error")
	}
	os.WriteFile(jsonl, []byte("{not json\n"), 0o644)
	if _, err := ReadTasks(jsonl, "", 0); err == nil {
		t.Error("bad JSON: no error")
	}
}

func TestLatency(t *testing.T) {
	var ds []time.Duration
	for i := 10; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	l := latency(ds)
	if l.N != 10 || l.Median != 6*time.Millisecond || l.P90 != 9*time.Millisecond {
		t.Errorf("latency = %+v", l)
	}
	if m := median([]time.Duration{3, 1, 2}); m != 2 {
		t.Errorf("median = %v", m)
	}
}

// TestCheckout moves a work tree between two commits of a bare mirror
// without touching the mirror's HEAD or index.
func TestCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	src := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	git(src, "init", "-q")
	os.WriteFile(filepath.Join(src, "a.go"), []byte("package a\n"), 0o644)
	os.WriteFile(filepath.Join(src, "b.go"), []byte("package a\n"), 0o644)
	git(src, "add", ".")
	git(src, "commit", "-qm", "one")
	rev1 := git(src, "rev-parse", "HEAD")[:40]
	os.Remove(filepath.Join(src, "b.go"))
	os.WriteFile(filepath.Join(src, "c.go"), []byte("package a\n\nfunc C() {}\n"), 0o644)
	git(src, "add", "-A")
	git(src, "commit", "-qm", "two")
	rev2 := git(src, "rev-parse", "HEAD")[:40]
	mirror := filepath.Join(t.TempDir(), "mirror.git")
	git(src, "clone", "-q", "--bare", src, mirror)

	work := t.TempDir()
	co := &checkout{gitDir: mirror, tree: filepath.Join(work, "tree"), index: filepath.Join(work, "idx")}
	ctx := context.Background()
	if err := co.to(ctx, "", rev1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(co.tree, "b.go")); err != nil {
		t.Errorf("rev1: b.go missing: %v", err)
	}
	if err := co.to(ctx, rev1, rev2); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(co.tree, "b.go")); err == nil {
		t.Error("rev2: b.go still there")
	}
	if _, err := os.Stat(filepath.Join(co.tree, "c.go")); err != nil {
		t.Errorf("rev2: c.go missing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(mirror, "index")); err == nil {
		t.Error("the mirror got an index file")
	}
	// A work tree file that differs from what the index says (touched,
	// or written in the second the index was) does not stop the next
	// checkout: the tree is the revision's again.
	if err := os.WriteFile(filepath.Join(co.tree, "c.go"), []byte("package a // edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := co.to(ctx, rev2, rev1); err != nil {
		t.Fatalf("back to rev1 over an edited file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(co.tree, "c.go")); err == nil {
		t.Error("rev1 again: c.go still there")
	}
	if _, err := os.Stat(filepath.Join(co.tree, "b.go")); err != nil {
		t.Errorf("rev1 again: b.go missing: %v", err)
	}
	if err := co.to(ctx, rev1, "no-such-rev"); err == nil {
		t.Error("bad revision: no error")
	}
}

func TestBM25(t *testing.T) {
	repo := filepath.Join("..", "testdata", "repos", "auth-expiry")
	res, err := BM25(context.Background(), repo, "fix the auth token expiry bug", hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ranking) == 0 || len(res.Files) != 0 {
		t.Fatalf("ranking %v, files %v", res.Ranking, res.Files)
	}
	top := []string{}
	for _, r := range res.Ranking[:min(3, len(res.Ranking))] {
		top = append(top, r.Path)
	}
	if !slices.Contains(top, "src/auth/auth.ts") && !slices.Contains(top, "src/auth/tokens.ts") {
		t.Errorf("BM25 top 3 = %v", top)
	}
	for i, r := range res.Ranking {
		if strings.HasSuffix(r.Path, ".test.ts") || r.Relevance > 1 || i > 0 && r.Relevance > res.Ranking[i-1].Relevance {
			t.Errorf("ranking[%d] = %+v", i, r)
		}
	}
}
