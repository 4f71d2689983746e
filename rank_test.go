package hone

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReadEvidence(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	tests := []struct {
		name     string
		task     string
		paths    []string
		last     string
		modules  []string
		messages int
	}{
		{
			name: "python traceback: frames in order, the deepest last",
			task: "Traceback (most recent call last):\n  File \"/venv/app/src/api/routes.ts\", line 3, in handler\n" +
				"  File \"/venv/app/src/session/session-manager.ts\", line 9, in refresh\n" +
				"ValueError: the session cannot be refreshed after expiry\n",
			paths:    []string{"src/api/routes.ts", "src/session/session-manager.ts"},
			last:     "src/session/session-manager.ts",
			messages: 1,
		},
		{
			name: "javascript stack trace",
			task: "TypeError: Cannot read properties of undefined (reading 'exp')\n" +
				"    at verify (/app/src/auth/tokens.ts:42:17)\n    at handler (/app/src/api/routes.ts:9:3)",
			paths:    []string{"src/auth/tokens.ts", "src/api/routes.ts"},
			last:     "src/auth/tokens.ts",
			messages: 1,
		},
		{
			name:  "go panic",
			task:  "panic: runtime error\n\ngoroutine 1 [running]:\nmain.refresh()\n\t/home/me/app/src/session/session-manager.ts:12 +0x1d",
			paths: []string{"src/session/session-manager.ts"},
			last:  "src/session/session-manager.ts",
		},
		{
			name:    "java frame: the class's dotted path",
			task:    "Exception in thread main\n\tat src.auth.tokens.issueToken(tokens.ts:51)",
			paths:   []string{"src/auth/tokens.ts"},
			last:    "src/auth/tokens.ts",
			modules: []string{"src/auth/tokens.ts"},
		},
		{
			name:    "dotted module path",
			task:    "importing src.auth.tokens.issueToken fails",
			modules: []string{"src/auth/tokens.ts"},
		},
		{
			name:     "quoted message",
			task:     `it says "token expired before the refresh window" and stops`,
			messages: 1,
		},
		{
			name: "short quotes are not messages",
			task: `the "auth" module`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := readEvidence(tt.task, analyzeTask(tt.task, ix), ix)
			if !slices.Equal(ev.paths, tt.paths) {
				t.Errorf("paths %v, want %v", ev.paths, tt.paths)
			}
			if ev.lastPath != tt.last {
				t.Errorf("last path %q, want %q", ev.lastPath, tt.last)
			}
			var mods []string
			for m := range ev.modules {
				mods = append(mods, m)
			}
			slices.Sort(mods)
			if !slices.Equal(mods, tt.modules) {
				t.Errorf("modules %v, want %v", mods, tt.modules)
			}
			if len(ev.messages) != tt.messages {
				t.Errorf("messages %v, want %d", ev.messages, tt.messages)
			}
		})
	}
}

// Every signal has a name, and the weights one each.
func TestSignalsNamed(t *testing.T) {
	if len(SignalNames) != numSignals || len(rankWeights) != numSignals {
		t.Fatalf("%d names and %d weights for %d signals", len(SignalNames), len(rankWeights), numSignals)
	}
}

func TestRelatedTests(t *testing.T) {
	res := retrieveFixture(t, "auth-expiry", "fix the auth token expiry bug")
	if len(res.RelatedTests) == 0 || res.RelatedTests[0].Path != "src/auth/auth.test.ts" {
		t.Fatalf("related tests %+v, want src/auth/auth.test.ts first", res.RelatedTests)
	}
	if !slices.Contains(res.RelatedTests[0].For, "src/auth/auth.ts") {
		t.Errorf("auth.test.ts is for %v, want auth.ts among them", res.RelatedTests[0].For)
	}
	for _, f := range res.Files {
		if f.Path == "src/auth/auth.test.ts" {
			t.Errorf("a test is among the files; it belongs in related_tests")
		}
	}
}

func TestTestNamedFor(t *testing.T) {
	tests := []struct {
		test, base string
		want       bool
	}{
		{"tests/test_query.py", "query", true},
		{"pkg/query_test.go", "query", true},
		{"src/auth/auth.test.ts", "auth", true},
		{"src/auth/auth.spec.js", "auth", true},
		{"tests/test_querystring.py", "query", false},
		{"tests/tests.py", "query", false},
	}
	for _, tt := range tests {
		if got := testNamedFor(tt.test, tt.base); got != tt.want {
			t.Errorf("testNamedFor(%q, %q) = %v, want %v", tt.test, tt.base, got, tt.want)
		}
	}
}

func retrieveFixture(t *testing.T, repo, task string) *Result {
	t.Helper()
	res, err := Retrieve(t.Context(), filepath.Join("testdata", "repos", repo), task, Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The tests that best match the task point at the code they exercise.
func TestTestedSignal(t *testing.T) {
	res, err := Retrieve(t.Context(), filepath.Join("testdata", "repos", "auth-expiry"), "fix the auth token expiry bug", Options{IndexDir: t.TempDir(), Signals: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range res.Ranking {
		got[r.Path] = r.Signals[sigTested]
	}
	if got["src/auth/auth.ts"] <= 0 {
		t.Errorf("auth.test.ts, the test best matching the task, imports auth.ts: tested %v", got)
	}
	if got["src/models/user.ts"] > 0 {
		t.Errorf("no test matching the task exercises user.ts: tested %v", got)
	}
}

// One function holding the whole task outweighs a file that says each
// word somewhere.
func TestSpanSignals(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		// The API: one method holds the task's words, and calls the helper.
		"pkg/api.py": "class Grid:\n    def set_label_mode(self, mode):\n        \"\"\"Set the label mode of the axes grid.\"\"\"\n" +
			"        for ax in self.axes:\n            _toggle_tick_labels(ax, mode)\n\n" +
			"    def other(self):\n        return 1\n",
		// The implementation of the helper.
		"pkg/ticks.py": "def _toggle_tick_labels(ax, mode):\n    ax.axis['bottom'].toggle(mode)\n",
		// Every word, each in another function.
		"pkg/scatter.py": "def label():\n    return 1\n\n\ndef mode():\n    return 2\n\n\ndef grid():\n    return 3\n\n\ndef axes():\n    return 4\n",
	}
	for p, body := range files {
		full := filepath.Join(repo, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Retrieve(t.Context(), repo, "label mode of the axes grid is wrong", Options{IndexDir: t.TempDir(), Signals: true})
	if err != nil {
		t.Fatal(err)
	}
	sig := map[string][]float64{}
	for _, r := range res.Ranking {
		sig[r.Path] = r.Signals
	}
	api, scatter := sig["pkg/api.py"], sig["pkg/scatter.py"]
	if api == nil || scatter == nil {
		t.Fatalf("ranking %v lacks a file", res.Ranking)
	}
	if api[sigSpanCover] < 0.99 || api[sigSpanTitle] < 0.99 {
		t.Errorf("api.py's set_label_mode holds every word of the task: span_cover %v, span_title %v", api[sigSpanCover], api[sigSpanTitle])
	}
	if scatter[sigSpanCover] >= api[sigSpanCover] || scatter[sigSpanCover] > 0.5 {
		t.Errorf("scatter.py holds one word a function: span_cover %v, against api.py's %v", scatter[sigSpanCover], api[sigSpanCover])
	}
}
