package bench

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestGoldTests: the tests a change modified, of those its base commit
// holds: not a test it adds or deletes, nor the code it changes.
func TestGoldTests(t *testing.T) {
	dir, commit := scratchRepo(t)
	base := commit("base", map[string]string{
		"src/cookie.go":         "package src\n\nfunc Cookie() {}\n",
		"src/cookie_test.go":    "package src\n\nfunc TestCookie() {}\n",
		"tests/test_session.py": "def test_session():\n    pass\n",
		"tests/test_gone.py":    "def test_gone():\n    pass\n",
		"docs/cookies.md":       "# Cookies\n",
	})
	change := commit("change", map[string]string{
		"src/cookie.go":         "package src\n\nfunc Cookie() { _ = 1 }\n",
		"src/cookie_test.go":    "package src\n\nfunc TestCookie() { _ = 2 }\n",
		"tests/test_session.py": "def test_session():\n    assert True\n",
		"tests/test_new.py":     "def test_new():\n    pass\n",
		"docs/cookies.md":       "# Cookies\n\nMaxAge.\n",
	}, "tests/test_gone.py")
	// The tree at the base, as the harness checks it out.
	if out, err := exec.Command("git", "-C", dir, "checkout", "-q", base).CombinedOutput(); err != nil {
		t.Fatalf("git checkout: %v: %s", err, out)
	}
	gitDir := filepath.Join(dir, ".git")
	got, err := goldTests(context.Background(), gitDir, dir, base, change)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"src/cookie_test.go", "tests/test_session.py"}
	if !slices.Equal(got, want) {
		t.Errorf("goldTests = %q, want %q", got, want)
	}
	if _, err := goldTests(context.Background(), gitDir, dir, base, "0000000000000000000000000000000000000000"); err == nil {
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
			for _, k := range testsK {
				if s.At[k] != tt.at[k] {
					t.Errorf("At[%d] = %.1f, want %.1f", k, s.At[k], tt.at[k])
				}
			}
		})
	}
}
