package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hone-tools/hone/index"
)

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
