package hone_test

import (
	"context"
	"os"
	"testing"

	"github.com/hone-tools/hone"
)

// BenchmarkRetrieveWarm times a retrieve on a warm index of a real
// checkout, the incremental update included:
//
//	HONE_BENCH_REPO=/path/to/repo HONE_BENCH_TASK=task.txt go test -run '^$' -bench RetrieveWarm .
func BenchmarkRetrieveWarm(b *testing.B) {
	repo, taskFile := os.Getenv("HONE_BENCH_REPO"), os.Getenv("HONE_BENCH_TASK")
	if repo == "" || taskFile == "" {
		b.Skip("set HONE_BENCH_REPO and HONE_BENCH_TASK")
	}
	task, err := os.ReadFile(taskFile)
	if err != nil {
		b.Fatal(err)
	}
	opts := hone.Options{IndexDir: b.TempDir()}
	if _, err := hone.Retrieve(context.Background(), repo, string(task), opts); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := hone.Retrieve(context.Background(), repo, string(task), opts); err != nil {
			b.Fatal(err)
		}
	}
}
