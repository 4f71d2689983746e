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
	"github.com/hone-tools/hone/index"
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
	src, commit := scratchRepo(t)
	rev1 := commit("one", map[string]string{"a.go": "package a\n", "b.go": "package a\n"})
	rev2 := commit("two", map[string]string{"c.go": "package a\n\nfunc C() {}\n"}, "b.go")
	mirror := filepath.Join(t.TempDir(), "mirror.git")
	if out, err := exec.Command("git", "clone", "-q", "--bare", src, mirror).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v: %s", err, out)
	}

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
	// A search has no set: its files are its first few.
	if len(res.Ranking) == 0 || len(res.Files) != min(bm25Files, len(res.Ranking)) || res.Files[0].Path != res.Ranking[0].Path {
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

// IndexBench times an update after one edit of the largest file of the
// repository's main language, and leaves the file, and the index, as
// the revision has them.
func TestIndexBenchEdit(t *testing.T) {
	dir, commit := scratchRepo(t)
	rev := commit("Start", map[string]string{
		"calc/add.py":   "def add(a, b):\n    return a + b\n",
		"calc/round.py": "def round_cents(x):\n    \"\"\"Round an amount to the cent.\"\"\"\n    return round(x * 100) / 100\n",
		"README.md":     "# calc\n\nSmall sums, written out at length so that this file is the largest of all, though not in Python.\n",
	})
	// The cold index is another process's (Exe): here one that does
	// nothing, so that the first update builds the index in process.
	exe, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true command")
	}
	work := t.TempDir()
	rep, err := IndexBench(context.Background(), IndexConfig{GitDir: filepath.Join(dir, ".git"), Rev: rev, Exe: exe, Runs: 1, Work: work})
	if err != nil {
		t.Fatal(err)
	}
	if rep.EditPath != "calc/round.py" || rep.Edit <= 0 {
		t.Errorf("edit update of %q in %v, want calc/round.py timed", rep.EditPath, rep.Edit)
	}
	tree := filepath.Join(work, "tree")
	got, err := os.ReadFile(filepath.Join(tree, "calc", "round.py"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "def round_cents(x):\n    \"\"\"Round an amount to the cent.\"\"\"\n    return round(x * 100) / 100\n"; string(got) != want {
		t.Errorf("the edited file was left as\n%s", got)
	}
	ix, err := index.Open(context.Background(), tree, index.Options{Dir: filepath.Join(work, "index")})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if e := ix.Entry("calc/round.py"); e == nil || e.Size != int64(len(got)) {
		t.Errorf("the index holds calc/round.py as %+v, want %d bytes", e, len(got))
	}
}

// The report says how large the index is against what it indexed.
func TestIndexReportSize(t *testing.T) {
	var b strings.Builder
	(&IndexReport{Files: 3, SourceBytes: 2 << 20, IndexBytes: 5 << 20}).Print(&b)
	if first, _, _ := strings.Cut(b.String(), "\n"); !strings.Contains(first, "(2.50× the source)") {
		t.Errorf("first line %q, want the index's size as 2.50× the source", first)
	}
}
