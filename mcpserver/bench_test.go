package mcpserver

import (
	"os"
	"testing"

	"github.com/hone-tools/hone/bench"
)

// BenchmarkCallWarm times a search_code call and retrieve_context calls
// on a repository already indexed, none of whose files changed: what an
// agent waits for, call after call. HONE_BENCH_REPO names the repository.
// HONE_BENCH_TASKS, if set, is a file of tasks (as BenchmarkRetrieveWarm
// reads it, filtered by HONE_BENCH_TASKS_REPO) that retrieve_context
// takes in turn; else it asks one task again and again, which its caches
// favour.
func BenchmarkCallWarm(b *testing.B) {
	repo := os.Getenv("HONE_BENCH_REPO")
	if repo == "" {
		b.Skip("set HONE_BENCH_REPO")
	}
	tasks, err := bench.EnvTasks("queryset union drops ordering when sliced")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args func(i int) map[string]any
	}{
		{"search_code", func(int) map[string]any { return map[string]any{"query": "ordering union slice"} }},
		{"retrieve_context", func(i int) map[string]any {
			return map[string]any{"task": tasks[i%len(tasks)], "budget_tokens": 4000}
		}},
	} {
		b.Run(c.tool, func(b *testing.B) {
			cs := connect(b, repo)
			call(b, cs, c.tool, c.args(0)) // the first call indexes
			call(b, cs, c.tool, c.args(0)) // the second settles the watches
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				call(b, cs, c.tool, c.args(i))
			}
		})
	}
}
