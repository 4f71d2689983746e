package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGoldTests: the tests a change modified, of those its base commit
// holds: not a test it adds or deletes, nor the code it changes.
func TestGoldTests(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(p, body string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("src/cookie.go", "package src\n\nfunc Cookie() {}\n")
	write("src/cookie_test.go", "package src\n\nfunc TestCookie() {}\n")
	write("tests/test_session.py", "def test_session():\n    pass\n")
	write("tests/test_gone.py", "def test_gone():\n    pass\n")
	write("docs/cookies.md", "# Cookies\n")
	git("add", ".")
	git("commit", "-qm", "base")
	base := git("rev-parse", "HEAD")
	write("src/cookie.go", "package src\n\nfunc Cookie() { _ = 1 }\n")
	write("src/cookie_test.go", "package src\n\nfunc TestCookie() { _ = 2 }\n")
	write("tests/test_session.py", "def test_session():\n    assert True\n")
	write("tests/test_new.py", "def test_new():\n    pass\n")
	write("docs/cookies.md", "# Cookies\n\nMaxAge.\n")
	git("rm", "-q", "tests/test_gone.py")
	git("add", "-A")
	git("commit", "-qm", "change")
	change := git("rev-parse", "HEAD")
	git("checkout", "-q", base)

	got, err := goldTests(context.Background(), filepath.Join(dir, ".git"), dir, base, change)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"src/cookie_test.go", "tests/test_session.py"}
	if !slices.Equal(got, want) {
		t.Errorf("goldTests = %q, want %q", got, want)
	}
	if _, err := goldTests(context.Background(), filepath.Join(dir, ".git"), dir, base, "0000000000000000000000000000000000000000"); err == nil {
		t.Error("a commit the history lacks: no error")
	}
}

func TestSummarizeTests(t *testing.T) {
	for _, tt := range []struct {
		name string
		rows []Row
		n    int
		at   map[int]float64
	}{
		{"none recorded", []Row{{Tests: []string{"a_test.go"}}}, 0, map[int]float64{}},
		{
			"first, third, sixth, missed",
			[]Row{
				{GoldTests: []string{"a_test.go"}, Tests: []string{"a_test.go", "b_test.go"}},
				{GoldTests: []string{"c_test.go", "z_test.go"}, Tests: []string{"x", "y", "c_test.go"}},
				{GoldTests: []string{"f_test.go"}, Tests: []string{"1", "2", "3", "4", "5", "f_test.go"}},
				{GoldTests: []string{"g_test.go"}},
			},
			4, map[int]float64{1: 25, 3: 50, 5: 50},
		},
		{"a failed run is left out", []Row{{GoldTests: []string{"a"}, Error: "checkout"}, {GoldTests: []string{"a"}, Tests: []string{"a"}}}, 1, map[int]float64{1: 100, 3: 100, 5: 100}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := SummarizeTests(tt.rows)
			if s.N != tt.n {
				t.Errorf("N = %d, want %d", s.N, tt.n)
			}
			for _, k := range TestsK {
				if s.At[k] != tt.at[k] {
					t.Errorf("At[%d] = %.1f, want %.1f", k, s.At[k], tt.at[k])
				}
			}
		})
	}
}
