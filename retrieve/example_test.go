package retrieve_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone"
)

// Retrieve runs the loop and returns the files at or above the threshold,
// best first, with the trace of every cycle. When none reaches it, as in
// this small repository, the files are the best few the evidence
// supports, and the notice says so.
func ExampleRetrieve() {
	res, err := retrieve.Retrieve(context.Background(), "../testdata/repos/auth-expiry",
		"fix the auth token expiry bug", hone.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		fmt.Printf("%s: %s at %.2f, found in cycle %d\n", f.Path, f.Role, f.Relevance, f.Cycle)
	}
	fmt.Println("stopped:", res.StopReason)
	fmt.Println(strings.SplitN(res.Notice, ":", 2)[0])
	// Output:
	// src/auth/tokens.ts: target at 0.47, found in cycle 1
	// src/auth/auth.ts: target at 0.30, found in cycle 1
	// stopped: max_cycles
	// no file reached relevance 0.70
}

// RetrieveIndex runs the loop over an index the caller opens, keeps up to
// date and closes, for several tasks. Retrievals may run side by side;
// an update may not run beside them (see index.Index).
func ExampleRetrieveIndex() {
	ctx := context.Background()
	ix, _, err := index.OpenUpdate(ctx, "../testdata/repos/auth-expiry", index.Options{}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ix.Close()
	for _, task := range []string{"fix the auth token expiry bug", "orders are listed without their user"} {
		res, err := retrieve.RetrieveIndex(ctx, ix, task, hone.Options{NoHistory: true})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s\n", task, res.Ranking[0].Path)
	}
	// Output:
	// fix the auth token expiry bug: src/auth/tokens.ts
	// orders are listed without their user: src/models/order.ts
}

// An Evaluator joins the lexical one: it judges the candidates it
// chooses, here by a rule of its own, and may read their excerpts, with
// the secrets hidden. Where it judged a file, the cycle's score joins
// both verdicts.
func Example_evaluator() {
	sessions := evaluator(func(ctx context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
		var out []hone.Evaluation
		for _, c := range req.Candidates {
			ex, err := req.Excerpts.Excerpt(c.Path, 400)
			if err != nil || ex.Withheld != "" {
				continue
			}
			score := 0.1
			if strings.Contains(ex.Text, "session") {
				score = 0.95
			}
			out = append(out, hone.Evaluation{Path: c.Path, Score: score, Reason: "mentions sessions"})
		}
		return out, nil
	})
	res, err := retrieve.Retrieve(context.Background(), "../testdata/repos/auth-expiry",
		"expired tokens are still accepted", hone.Options{Evaluator: sessions, NoHistory: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range res.Files {
		if f.ModelScore != nil {
			fmt.Printf("%s %.2f (the evaluator's %.2f)\n", f.Path, f.Relevance, *f.ModelScore)
		}
	}
	// Output:
	// src/auth/tokens.ts 0.79 (the evaluator's 0.95)
	// src/auth/auth.ts 0.56 (the evaluator's 0.95)
	// src/session/session-manager.ts 0.48 (the evaluator's 0.95)
}

// evaluator makes a function a hone.Evaluator.
type evaluator func(context.Context, hone.EvaluateRequest) ([]hone.Evaluation, error)

func (f evaluator) Evaluate(ctx context.Context, req hone.EvaluateRequest) ([]hone.Evaluation, error) {
	return f(ctx, req)
}
