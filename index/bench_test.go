package index

import (
	"context"
	"os"
	"testing"
)

// Benchmarks on a real checkout: HONE_BENCH_REPO=/path/to/repo go test -bench . ./index

func benchRepo(b *testing.B) string {
	repo := os.Getenv("HONE_BENCH_REPO")
	if repo == "" {
		b.Skip("set HONE_BENCH_REPO to a repository to benchmark on")
	}
	return repo
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
