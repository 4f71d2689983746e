package main

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/hone-tools/hone/modeleval/modelevaltest"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const fakeKey = "sk-cli-00112233445566778899SECRET"

// fakeModel is an OpenAI-compatible endpoint whose verdicts follow a
// planted rule (session files are direct, the rest irrelevant), or which
// fails with an error that echoes the key.
func fakeModel(t *testing.T, fail bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+fakeKey {
			t.Errorf("authorization %q", r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		if fail {
			w.WriteHeader(401)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+fakeKey+`.","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		content := modelevaltest.Answer(modelevaltest.LastUser(body), modelevaltest.Session, "planted")
		io.WriteString(w, modelevaltest.OpenAIBody(content, "stop", 900, 90))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func runInProcess(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// A model evaluator that is not set up says what to do, in one line, and
// exits 2.
func TestEvaluatorFlagErrors(t *testing.T) {
	t.Setenv("HONE_INDEX_DIR", t.TempDir())
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--evaluator", "openai", "--model", "m"}, "needs OPENAI_API_KEY in the environment, or --base-url"},
		{nil, []string{"--evaluator", "anthropic", "--model", "m"}, "needs ANTHROPIC_API_KEY"},
		{nil, []string{"--evaluator", "gemini"}, `unknown evaluator "gemini" (--evaluator or HONE_EVALUATOR): use none, openai or anthropic`},
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai"}, "needs --model NAME"},
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai", "--model", "m", "--model-top", "0"}, "--model-top must be at least 1"},
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai", "--model", "m", "--base-url", "localhost:1234"}, "not an http(s) URL"},
		{map[string]string{"HONE_EVALUATOR": "bogus"}, nil, `unknown evaluator "bogus" (--evaluator or HONE_EVALUATOR)`},
		// A key with a control character inside: the user's to fix, not
		// a connection that failed.
		{map[string]string{"ANTHROPIC_API_KEY": " "}, []string{"--evaluator", "anthropic", "--model", "m"}, "needs ANTHROPIC_API_KEY"},
		{map[string]string{"OPENAI_API_KEY": "sk-abc\x1bdef"}, []string{"--evaluator", "openai", "--model", "m"}, "OPENAI_API_KEY holds a control character: set it to the key alone"},
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai", "--model", "m", "--model-cache", "/proc/no-such-folder"}, "open the model's cache"},
		// Prices that are no numbers, or that would make the account's
		// sums infinite.
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai", "--model", "m", "--price-in", "NaN"}, "--price-in and --price-out are US dollars per million tokens"},
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai", "--model", "m", "--price-out", "Inf"}, "from 0 to 1e+06"},
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai", "--model", "m", "--price-in", "1e308"}, "from 0 to 1e+06"},
		{map[string]string{"OPENAI_API_KEY": fakeKey}, []string{"--evaluator", "openai", "--model", "m", "--price-in", "-1"}, "from 0 to 1e+06"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "HONE_EVALUATOR", "HONE_MODEL"} {
				t.Setenv(k, tt.env[k])
			}
			args := append([]string{"retrieve", "--repo", "../../testdata/repos/auth-expiry"}, tt.args...)
			code, stdout, stderr := runInProcess(t, append(args, "token", "expiry")...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, tt.want)
			}
			if strings.Contains(stderr, fakeKey) {
				t.Errorf("the key is in %q", stderr)
			}
		})
	}
}

// hone retrieve --evaluator openai: the model's verdicts show in the trace
// and the JSON, with what it spent; the key shows nowhere.
func TestRetrieveWithModel(t *testing.T) {
	t.Setenv("HONE_INDEX_DIR", t.TempDir())
	t.Setenv("OPENAI_API_KEY", fakeKey)
	srv := fakeModel(t, false)
	args := []string{"retrieve", "--repo", "../../testdata/repos/auth-expiry", "--evaluator", "openai", "--model", "planted", "--base-url", srv.URL + "/v1", "--model-cache", t.TempDir(), "--price-in", "2", "--price-out", "8"}
	task := "Expired JWT tokens are still accepted by the auth middleware"
	code, stdout, stderr := runInProcess(t, append(args, task)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"(model 0.97)", "\nModel: openai:planted, ", "tokens in", ", $0."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the trace lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runInProcess(t, append(args, "--json", task)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Files []struct {
			Path       string   `json:"path"`
			ModelScore *float64 `json:"model_score"`
		} `json:"files"`
		Evaluator *struct {
			Evaluator string `json:"evaluator"`
			Calls     int    `json:"calls"`
			Cached    int    `json:"cached"`
		} `json:"evaluator"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 || !strings.HasPrefix(res.Files[0].Path, "src/session/") || res.Files[0].ModelScore == nil {
		t.Errorf("files %+v", res.Files)
	}
	// The second run's verdicts came from the cache.
	if res.Evaluator == nil || res.Evaluator.Evaluator != "openai:planted" || res.Evaluator.Calls != 0 || res.Evaluator.Cached == 0 {
		t.Errorf("evaluator %+v", res.Evaluator)
	}
	if strings.Contains(stdout+stderr, fakeKey) {
		t.Error("the key is in the output")
	}
}

// A key read with its line's end works; a default cache folder that cannot
// be made leaves the run uncached, saying so, not failed.
func TestModelKeyAndCacheFallback(t *testing.T) {
	t.Setenv("HONE_INDEX_DIR", t.TempDir())
	t.Setenv("OPENAI_API_KEY", fakeKey+"\n")
	t.Setenv("XDG_CACHE_HOME", "/proc/no-such-folder")
	t.Setenv("HOME", "/proc/no-such-folder")
	srv := fakeModel(t, false)
	code, stdout, stderr := runInProcess(t, "retrieve", "--repo", "../../testdata/repos/auth-expiry", "--no-server", "--evaluator", "openai", "--model", "planted", "--base-url", srv.URL+"/v1", "Expired JWT tokens are still accepted by the auth middleware")
	if code != 0 || !strings.Contains(stdout, "(model 0.97)") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	if !strings.Contains(stderr, "the model's verdicts are not cached") {
		t.Errorf("stderr %q says nothing of the cache", stderr)
	}
}

// A model that fails leaves the run to the lexical evaluator: the command
// succeeds, and says so on stderr, without the key the error echoed.
func TestRetrieveModelFails(t *testing.T) {
	t.Setenv("HONE_INDEX_DIR", t.TempDir())
	t.Setenv("OPENAI_API_KEY", fakeKey)
	srv := fakeModel(t, true)
	code, stdout, stderr := runInProcess(t, "retrieve", "--repo", "../../testdata/repos/auth-expiry", "--evaluator", "openai", "--model", "m", "--base-url", srv.URL+"/v1", "--model-cache", "off", "token expiry")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "hone: the model evaluator failed (openai:m: HTTP 401: Incorrect API key provided: [redacted") || !strings.Contains(stderr, "lexical evaluator alone") {
		t.Errorf("stderr %q", stderr)
	}
	if strings.Contains(stdout+stderr, fakeKey) {
		t.Error("the key is in the output")
	}
	if !strings.Contains(stdout, "failed, the lexical evaluator went on alone") {
		t.Errorf("the trace does not say the model failed:\n%s", stdout)
	}
}
