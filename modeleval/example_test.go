package modeleval_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/modeleval"
)

// echoModel is a Chat that judges every file of a prompt direct when its
// excerpt names "Expiry".
type echoModel struct{}

func (echoModel) Name() string { return "example:echo" }

func (echoModel) Complete(_ context.Context, p modeleval.Prompt) (modeleval.Reply, error) {
	var parts []string
	for _, block := range strings.Split(p.User, "\n=== ")[1:] {
		path, body, _ := strings.Cut(block, "\n")
		score := 0.1
		if strings.Contains(body, "Expiry") {
			score = 0.9
		}
		parts = append(parts, fmt.Sprintf(`{"path":%q,"relevance":%g,"reason":"read it","missing_context":[],"terms":["expiresAt"]}`, path, score))
	}
	return modeleval.Reply{Text: `{"files":[` + strings.Join(parts, ",") + `]}`, InputTokens: 500, OutputTokens: 50}, nil
}

type excerpts map[string]string

func (x excerpts) Excerpt(path string, _ int) (hone.Excerpt, error) {
	return hone.Excerpt{Path: path, Text: x[path]}, nil
}

func ExampleNew() {
	ev := modeleval.New(echoModel{}, modeleval.Config{PriceIn: 2, PriceOut: 8})
	req := hone.EvaluateRequest{
		Task:       "expired tokens are accepted",
		Cycle:      1,
		Candidates: []hone.Candidate{{Path: "auth/token.go"}, {Path: "db/pool.go"}},
		Excerpts: excerpts{
			"auth/token.go": "1| func checkExpiry(t Token) bool {\n",
			"db/pool.go":    "1| func Open() *Pool {\n",
		},
	}
	evs, err := ev.Evaluate(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range evs {
		fmt.Printf("%.1f %s %v\n", e.Score, e.Path, e.Terms)
	}
	u := ev.Usage()
	fmt.Printf("%d call, %d tokens in, $%.4f\n", u.Calls, u.InputTokens, u.CostUSD)
	// Output:
	// 0.9 auth/token.go [expiresAt]
	// 0.1 db/pool.go [expiresAt]
	// 1 call, 500 tokens in, $0.0014
}
