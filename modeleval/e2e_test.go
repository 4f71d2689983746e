package modeleval_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/modeleval"
	"github.com/hone-tools/hone/modeleval/modelevaltest"
	"github.com/hone-tools/hone/retrieve"
)

const (
	key     = "sk-e2e-9f8e7d6c5b4a39281706SECRET"
	awsKey  = "AKIAZ7VRSQ5TJN2XEHKW"
	expiry  = "Expired JWT tokens are still accepted by the auth middleware"
	fixture = "../testdata/repos/auth-expiry"
)

// model is an OpenAI-compatible server whose verdicts follow a planted
// rule: files under src/session are direct, every other file irrelevant.
// It keeps every prompt.
type model struct {
	mu      sync.Mutex
	prompts []string
	fail    bool
}

func (m *model) serve(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) != 2 {
			t.Errorf("request %s", body)
			w.WriteHeader(400)
			return
		}
		user := req.Messages[1].Content
		m.mu.Lock()
		m.prompts = append(m.prompts, string(body))
		fail := m.fail
		m.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if fail {
			w.WriteHeader(500)
			io.WriteString(w, `{"error":{"message":"The server had an error while processing your request; key `+key+`","type":"server_error"}}`)
			return
		}
		content := modelevaltest.Answer(user, modelevaltest.Session, "the planted rule")
		out := modelevaltest.OpenAIBody(content, "stop", 1000, 100)
		io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func planted(t *testing.T, m *model) *modeleval.Model {
	srv := m.serve(t)
	chat, err := modeleval.NewOpenAI(modeleval.Endpoint{BaseURL: srv.URL + "/v1", Model: "planted", Key: key, Timeout: 5 * time.Second, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return &modeleval.Model{Chat: chat, Config: modeleval.Config{PriceIn: 2, PriceOut: 8}}
}

// The planted rule changes the ranking the way it says: the session files
// rise to the top, and the files the lexical ranking put first sink.
func TestPlantedRuleChangesTheRanking(t *testing.T) {
	dir := t.TempDir()
	lex, err := retrieve.Retrieve(context.Background(), fixture, expiry, hone.Options{IndexDir: dir, NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	m := &model{}
	res, err := retrieve.Retrieve(context.Background(), fixture, expiry, hone.Options{IndexDir: dir, NoHistory: true, Evaluator: planted(t, m).ForRun()})
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(lex.Ranking[0].Path, "src/session/") {
		t.Fatalf("the lexical ranking puts a session file first already: the rule plants nothing")
	}
	if !strings.HasPrefix(res.Ranking[0].Path, "src/session/") {
		t.Errorf("ranking %v, want a session file first", res.Ranking[:3])
	}
	for _, f := range res.Files {
		if f.ModelScore == nil {
			t.Errorf("%s has no model score", f.Path)
		} else if !strings.HasPrefix(f.Path, "src/session/") && *f.ModelScore > 0.5 {
			t.Errorf("%s at model %.2f", f.Path, *f.ModelScore)
		}
	}
	u := res.Evaluator
	if u == nil || u.Calls == 0 || u.InputTokens != 1000*u.Calls || u.Fallback != "" || u.CostUSD == 0 {
		t.Errorf("usage %+v", u)
	}
	for _, c := range res.Cycles {
		if c.ModelUsage == nil {
			t.Errorf("cycle %d has no model usage", c.N)
		}
	}
}

// Nothing that goes to the model holds a secret: the task's AWS key is
// redacted, a credentials file is never sent, and the API key is in no
// prompt. When the model fails, its error, which echoes the key, reaches
// the notice and the result without it.
func TestNothingSecretLeaves(t *testing.T) {
	repo := t.TempDir()
	copyDir(t, fixture, repo)
	if err := os.WriteFile(filepath.Join(repo, "src/session/.env"), []byte("SESSION_SECRET="+awsKey+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "src/session/store.ts"), []byte("// session store\nexport const awsKey = '"+awsKey+"';\nexport function sessionExpiry() { return 3600; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := &model{}
	var notices []string
	opts := hone.Options{IndexDir: t.TempDir(), NoHistory: true, Evaluator: planted(t, m).ForRun(), Notice: func(s string) { notices = append(notices, s) }}
	first, err := retrieve.Retrieve(context.Background(), repo, expiry+" session expiry env with "+awsKey, opts)
	if err != nil {
		t.Fatal(err)
	}
	candidate := false
	for _, r := range first.Ranking {
		candidate = candidate || r.Path == "src/session/store.ts"
	}
	if !candidate {
		t.Fatal("the file that holds a key was no candidate: the test shows nothing")
	}
	if len(m.prompts) == 0 {
		t.Fatal("no prompt was sent")
	}
	for _, p := range m.prompts {
		for _, s := range []string{awsKey, key} {
			if strings.Contains(p, s) {
				t.Errorf("a prompt holds %s", s)
			}
		}
		for _, f := range []string{"=== src/session/.env", "=== src/session/store.ts"} {
			if strings.Contains(p, f) {
				t.Errorf("the secret-bearing %s was sent", f)
			}
		}
	}

	m.fail = true
	notices = nil
	opts.Evaluator = planted(t, m).ForRun()
	res, err := retrieve.Retrieve(context.Background(), repo, expiry, opts)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	for _, s := range append(notices, string(out)) {
		if strings.Contains(s, key) {
			t.Errorf("the key leaked: %s", s)
		}
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "HTTP 500") || res.Evaluator == nil || res.Evaluator.Fallback == "" {
		t.Errorf("notices %q, evaluator %+v", notices, res.Evaluator)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if fi.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// instantChat answers every file of a prompt at once, at 0.5, saying
// nothing of tokens, so that the evaluator counts them.
type instantChat struct{}

func (instantChat) Name() string { return "bench:instant" }

func (instantChat) Complete(_ context.Context, p modeleval.Prompt) (modeleval.Reply, error) {
	return modeleval.Reply{Text: modelevaltest.Answer(p.User, func(string) float64 { return 0.5 }, "r")}, nil
}

// BenchmarkRetrieveInstantModel is what a model evaluator adds to a warm
// retrieve, around a model that answers at once: "none" is the lexical
// evaluator alone, "instant" adds the model. The repository is
// HONE_BENCH_REPO (django, for the README's figure), else the fixture.
func BenchmarkRetrieveInstantModel(b *testing.B) {
	repo := os.Getenv("HONE_BENCH_REPO")
	if repo == "" {
		repo = fixture
	}
	ix, err := openIndex(b, repo)
	if err != nil {
		b.Fatal(err)
	}
	task := "looking records up in bulk by a field fails when the field is unique only through a model constraint"
	for _, c := range []struct {
		name string
		ev   func() hone.Evaluator
	}{
		{"none", func() hone.Evaluator { return nil }},
		{"instant", func() hone.Evaluator { return modeleval.New(instantChat{}, modeleval.Config{}) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := retrieve.RetrieveIndex(context.Background(), ix, task, hone.Options{NoHistory: true, Evaluator: c.ev()}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func openIndex(b *testing.B, repo string) (*index.Index, error) {
	ix, err := index.Open(context.Background(), repo, index.Options{Dir: b.TempDir()})
	if err != nil {
		return nil, err
	}
	b.Cleanup(func() { ix.Close() })
	_, err = ix.Update(context.Background(), nil)
	return ix, err
}
