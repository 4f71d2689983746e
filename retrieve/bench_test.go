package retrieve_test

import (
	"context"
	"os"
	"testing"

	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/bench"
)

// BenchmarkRetrieveWarm times retrieves on a warm index of a real checkout,
// the incremental update included. HONE_BENCH_TASKS is a file of tasks
// (JSON lines with problem_statement, or one per line), filtered by
// HONE_BENCH_TASKS_REPO:
//
//	HONE_BENCH_REPO=/path/to/repo HONE_BENCH_TASKS=tasks.jsonl go test -run '^$' -bench RetrieveWarm .
//
// HONE_BENCH_INDEX_DIR, if set, is where the index is kept between runs.
func BenchmarkRetrieveWarm(b *testing.B) {
	repo, taskFile := os.Getenv("HONE_BENCH_REPO"), os.Getenv("HONE_BENCH_TASKS")
	if repo == "" || taskFile == "" {
		b.Skip("set HONE_BENCH_REPO and HONE_BENCH_TASKS")
	}
	tasks, err := bench.ReadTasks(taskFile, os.Getenv("HONE_BENCH_TASKS_REPO"), 20)
	if err != nil || len(tasks) == 0 {
		b.Fatalf("no tasks: %v", err)
	}
	// HONE_BENCH_INDEX_DIR keeps the index between runs, so that a CPU
	// profile holds the warm retrieves alone.
	dir := os.Getenv("HONE_BENCH_INDEX_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	opts := hone.Options{IndexDir: dir}
	if _, err := retrieve.Retrieve(context.Background(), repo, tasks[0], opts); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := retrieve.Retrieve(context.Background(), repo, tasks[i%len(tasks)], opts); err != nil {
			b.Fatal(err)
		}
	}
}
