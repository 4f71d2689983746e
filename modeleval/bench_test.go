package modeleval

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/modeleval/modelevaltest"
)

// instant is a Chat that answers at once: every file of a prompt at 0.5.
type instant struct{}

func (instant) Name() string { return "bench:instant" }

func (instant) Complete(_ context.Context, p Prompt) (Reply, error) {
	return Reply{Text: modelevaltest.Answer(p.User, func(string) float64 { return 0.5 }, "r")}, nil
}

// BenchmarkEvaluate is what the evaluator costs around a model that
// answers at once: a cycle of 20 candidates, each with an excerpt of about
// 500 tokens, in two calls, the tokens counted with the tokenizer.
func BenchmarkEvaluate(b *testing.B) {
	x := excerpts{}
	req := hone.EvaluateRequest{Task: "Expired JWT tokens are still accepted by the auth middleware", Cycle: 1, Excerpts: x}
	for i := range 20 {
		p := fmt.Sprintf("pkg%d/file%d.go", i, i)
		var body strings.Builder
		for l := 1; l <= 60; l++ {
			fmt.Fprintf(&body, "%d| \tif tok.ExpiresAt.Before(now) { return errExpired%d }\n", l, l)
		}
		x[p] = body.String()
		req.Candidates = append(req.Candidates, hone.Candidate{Path: p})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(instant{}, Config{}).Evaluate(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
