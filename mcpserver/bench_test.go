package mcpserver

import (
	"os"
	"testing"
)

// BenchmarkCallWarm times a search_code call and a retrieve_context call
// on a repository already indexed, none of whose files changed: what an
// agent waits for, call after call. HONE_BENCH_REPO names the repository.
func BenchmarkCallWarm(b *testing.B) {
	repo := os.Getenv("HONE_BENCH_REPO")
	if repo == "" {
		b.Skip("set HONE_BENCH_REPO")
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"search_code", map[string]any{"query": "ordering union slice"}},
		{"retrieve_context", map[string]any{"task": "queryset union drops ordering when sliced", "budget_tokens": 4000}},
	} {
		b.Run(c.tool, func(b *testing.B) {
			cs := connect(b, repo)
			call(b, cs, c.tool, c.args) // the first call indexes
			call(b, cs, c.tool, c.args) // the second settles the watches
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				call(b, cs, c.tool, c.args)
			}
		})
	}
}
