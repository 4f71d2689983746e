package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Benchmarks on a real checkout: HONE_BENCH_REPO=/path/to/repo go test -bench . ./index
// On a generated one of 100,000 small files:
// HONE_BENCH_FILES=100000 go test -bench NoChange -benchtime 5x ./index

func benchRepo(b *testing.B) string {
	if n, err := strconv.Atoi(os.Getenv("HONE_BENCH_FILES")); err == nil && n > 0 {
		return generatedRepo(b, n)
	}
	repo := os.Getenv("HONE_BENCH_REPO")
	if repo == "" {
		b.Skip("set HONE_BENCH_REPO to a repository to benchmark on, or HONE_BENCH_FILES to a number of small files to generate one")
	}
	return repo
}

// generatedRepo is a repository of n small Python files, a hundred to a
// folder, each defining a function named from a vocabulary of made-up
// words that calls another: the shape of issue 22's 100,000-file
// repository. It is made once, under the system's temporary folder, and
// kept for the next run.
func generatedRepo(b *testing.B, n int) string {
	root := filepath.Join(os.TempDir(), fmt.Sprintf("hone-bench-files-%d", n))
	done := root + ".complete"
	if _, err := os.Stat(done); err == nil {
		return root
	}
	os.RemoveAll(root)
	rng := rand.New(rand.NewPCG(7, 22))
	syllables := []string{"ka", "to", "ri", "mon", "sel", "var", "pex", "dor", "lin", "qua", "zen", "bro", "fli", "gat", "hum", "jor", "nex", "pol", "sut", "wim"}
	word := func() string {
		var w strings.Builder
		for range 2 + rng.IntN(3) {
			w.WriteString(syllables[rng.IntN(len(syllables))])
		}
		return w.String()
	}
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("pkg%d", i/10000), fmt.Sprintf("mod%d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		a, c, d := word(), word(), word()
		text := fmt.Sprintf("def %s_%s(x):\n    return %s(x)\n", a, c, d)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%d.py", a, i%100)), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

func BenchmarkColdIndex(b *testing.B) {
	repo := benchRepo(b)
	for i := 0; i < b.N; i++ {
		ix, err := buildAt(context.Background(), repo, Options{Dir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

func BenchmarkNoChangeUpdate(b *testing.B) {
	repo := benchRepo(b)
	dir := b.TempDir()
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	ix.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}
