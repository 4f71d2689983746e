package retrieve

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hone-tools/hone"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/rankmodel"
	"github.com/hone-tools/hone/walk"
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
			name: "python traceback into the reporter's test: the deepest frame in the code",
			task: "Traceback (most recent call last):\n  File \"/venv/app/src/api/routes.ts\", line 3, in handler\n" +
				"  File \"/venv/app/src/session/session-manager.ts\", line 9, in refresh\n" +
				"  File \"/venv/app/src/auth/auth.test.ts\", line 4, in check\n" +
				"ValueError: the session cannot be refreshed after expiry\n",
			paths:    []string{"src/api/routes.ts", "src/session/session-manager.ts", "src/auth/auth.test.ts"},
			last:     "src/session/session-manager.ts",
			messages: 1,
		},
		{
			name: "windows traceback: backslashed paths are paths",
			task: "Traceback (most recent call last):\n  File \"C:\\Users\\me\\app\\src\\api\\routes.ts\", line 3, in handler\n" +
				"  File \"C:\\Users\\me\\app\\src\\session\\session-manager.ts\", line 9, in refresh\n" +
				"ValueError: the session cannot be refreshed after expiry\n",
			paths:    []string{"src/api/routes.ts", "src/session/session-manager.ts"},
			last:     "src/session/session-manager.ts",
			messages: 1,
		},
		{
			name:  "a test file is the deepest when no frame is in the code",
			task:  "Traceback (most recent call last):\n  File \"/venv/app/src/auth/auth.test.ts\", line 4, in check\nValueError: boom",
			paths: []string{"src/auth/auth.test.ts"},
			last:  "src/auth/auth.test.ts",
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
			name: "node trace pasted without its indentation: the first frame is the deepest, a path named twice placed by its first",
			task: "Error: Cannot create a string longer than 0x1fffffe8 characters\n" +
				"at Object.isFormData (file:///app/node_modules/x/src/session/session-manager.ts:195:42)\n" +
				"at Object.transformRequest (file:///app/node_modules/x/src/api/routes.ts:55:30)\n" +
				"at Object.forEach (file:///app/node_modules/x/src/session/session-manager.ts:251:10)\n" +
				"at dispatchRequest (file:///app/node_modules/x/src/auth/tokens.ts:40:31)\n",
			paths: []string{"src/session/session-manager.ts", "src/api/routes.ts", "src/auth/tokens.ts"},
			last:  "src/session/session-manager.ts",
		},
		{
			name: "C# trace pasted without its indentation",
			task: "System.NullReferenceException: Object reference not set\n" +
				"at App.Session.Refresh() in C:\\src\\app\\src\\session\\session-manager.ts:line 12\n" +
				"at App.Api.Handle() in C:\\src\\app\\src\\api\\routes.ts:line 3\n",
			paths:    []string{"src/session/session-manager.ts", "src/api/routes.ts"},
			last:     "src/session/session-manager.ts",
			messages: 1,
		},
		{
			name:  "at the start of a line in prose is no frame",
			task:  "the session breaks\nat least when src/api/routes.ts calls src/session/session-manager.ts",
			paths: []string{"src/api/routes.ts", "src/session/session-manager.ts"},
			last:  "src/session/session-manager.ts",
		},
		{
			name:  "a place in prose is no frame",
			task:  "the session breaks when src/api/routes.ts calls src/session/session-manager.ts\nrepro: run the dev server, it listens\nat localhost:3000\nat http://localhost:3000\nat 10:30",
			paths: []string{"src/api/routes.ts", "src/session/session-manager.ts"},
			last:  "src/session/session-manager.ts",
		},
		{
			name: "a path the prose names before the trace is placed by its frame",
			task: "Calling the handler in src/api/routes.ts crashes:\n\n" +
				"TypeError: Cannot read properties of undefined (reading 'exp')\n" +
				"    at verify (/app/src/auth/tokens.ts:42:17)\n    at handler (/app/src/api/routes.ts:9:3)",
			paths:    []string{"src/auth/tokens.ts", "src/api/routes.ts"},
			last:     "src/auth/tokens.ts",
			messages: 1,
		},
		{
			name: "a short path in the prose is no frame's tail, nor a line of prose that starts with at; a path the prose alone names comes after the frames'",
			task: "login in auth.ts fails\nat first src/api/routes.ts looked fine:\n" +
				"    at a (/app/lib/oauth.ts:1:1)\n    at verify (/app/src/auth/tokens.ts:42:17)\n    at handler (/app/src/api/routes.ts:9:3)",
			paths: []string{"src/auth/tokens.ts", "src/api/routes.ts", "src/auth/auth.ts"},
			last:  "src/auth/tokens.ts",
		},
		{
			name:  "firefox's frames: the first is the deepest",
			task:  "TypeError: e is undefined\nverify@http://localhost:3000/src/auth/tokens.ts:42:17\nhandler@http://localhost:3000/src/api/routes.ts:9:3",
			paths: []string{"src/auth/tokens.ts", "src/api/routes.ts"},
			last:  "src/auth/tokens.ts",
		},
		{
			name:    "java frames pasted without their indentation",
			task:    "Exception in thread main\nat src.auth.tokens.issueToken(tokens.ts:51)\nat src.api.routes.handle(routes.ts:9)",
			paths:   []string{"src/auth/tokens.ts", "src/api/routes.ts"},
			last:    "src/auth/tokens.ts",
			modules: []string{"src/api/routes.ts", "src/auth/tokens.ts"},
		},
		{
			name: "java frames with a module before the class and a jar after the place, pasted without their indentation",
			task: "Exception in thread main\nat java.base/src.auth.tokens.issueToken(tokens.ts:51) ~[app.jar:1.0]\n" +
				"at src.api.routes.handle(routes.ts:9) [app.jar:1.0]\n",
			paths:   []string{"src/auth/tokens.ts", "src/api/routes.ts"},
			last:    "src/auth/tokens.ts",
			modules: []string{"src/api/routes.ts", "src/auth/tokens.ts"},
		},
		{
			name: "java frames with a class loader and a module, and Forge's tail, pasted without their indentation",
			task: "Exception in thread main\nat com.foo.loader/foo@9.0/src.auth.tokens.issueToken(tokens.ts:51)\n" +
				"at TRANSFORMER/app@1.19/src.api.routes.handle(routes.ts:9) ~[forge.jar:?] {re:classloading}\n",
			paths:   []string{"src/auth/tokens.ts", "src/api/routes.ts"},
			last:    "src/auth/tokens.ts",
			modules: []string{"src/api/routes.ts", "src/auth/tokens.ts"},
		},
		{
			name: "a router's frames, and a path with spaces, pasted without their indentation",
			task: "TypeError: Cannot read properties of undefined\n" +
				"at verify (C:\\My Projects\\app\\src\\auth\\tokens.ts:42:17)\n" +
				"at Stack.run [as run_layer] (/app/src/api/routes.ts:95:5)\n",
			paths: []string{"src/auth/tokens.ts", "src/api/routes.ts"},
			last:  "src/auth/tokens.ts",
		},
		{
			name: "C# trace whose paths hold spaces, pasted without its indentation",
			task: "System.NullReferenceException: Object reference not set\n" +
				"at App.Session.Refresh() in C:\\My Projects\\app\\src\\session\\session-manager.ts:line 12\n" +
				"at App.Api.Handle() in C:\\My Projects\\app\\src\\api\\routes.ts:line 3\n",
			paths:    []string{"src/session/session-manager.ts", "src/api/routes.ts"},
			last:     "src/session/session-manager.ts",
			messages: 1,
		},
		{
			name:  "a line of prose that starts with at and one after it with a place in parentheses are no frame",
			task:  "the session breaks when src/api/routes.ts calls src/session/session-manager.ts\nat least one user\nsees a crash (lib/app.ts:12:5)",
			paths: []string{"src/api/routes.ts", "src/session/session-manager.ts"},
			last:  "src/session/session-manager.ts",
		},
		{
			name:  "a version at a line's start is no frame",
			task:  "the session breaks when src/api/routes.ts calls src/session/session-manager.ts\nit broke\nat v1.2.3:4:5",
			paths: []string{"src/api/routes.ts", "src/session/session-manager.ts"},
			last:  "src/session/session-manager.ts",
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

// A trace that passes through two files of one name (a query.py and a
// sql/query.py) names both: one concept, two frames.
func TestReadEvidenceSameName(t *testing.T) {
	run := "def run():\n    return 1\n"
	dir := writeFiles(t, map[string]string{"app/models/query.py": run, "app/models/sql/query.py": run, "app/models/base.py": run})
	ix, err := buildIndex(dir, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	task := "Traceback (most recent call last):\n" +
		"  File \"D:\\env\\site-packages\\app\\models\\query.py\", line 3, in run\n" +
		"  File \"D:\\env\\site-packages\\app\\models\\base.py\", line 9, in run\n" +
		"ValueError: 'id' is not in list\n" +
		"At app/models/sql/query.py, line 745, the options are read from the proxy."
	ev := readEvidence(task, analyzeTask(task, ix), ix)
	want := []string{"app/models/query.py", "app/models/base.py", "app/models/sql/query.py"}
	if !slices.Equal(ev.paths, want) {
		t.Errorf("paths %v, want %v", ev.paths, want)
	}
	if ev.lastPath != "app/models/sql/query.py" {
		t.Errorf("last path %q, want app/models/sql/query.py", ev.lastPath)
	}
}

// Every signal has a name, and the model weighs signals by name: each of
// its weights names a signal the ranking computes, and each signal is
// weighed.
func TestSignalsNamed(t *testing.T) {
	if len(signalNames) != numSignals {
		t.Fatalf("%d names for %d signals", len(signalNames), numSignals)
	}
	m := rankmodel.Default()
	if _, err := m.Vector(signalNames); err != nil {
		t.Fatal(err)
	}
	for _, n := range signalNames {
		if _, ok := m.Weights[n]; !ok {
			t.Errorf("the model has no weight for the signal %q", n)
		}
	}
	// Each set, the model's own and those for other languages, weighs
	// every signal by its name, and its calibration, which turns scores
	// into relevance, weighs only what is computed.
	for _, s := range append([]*rankmodel.Model{m}, m.Sets...) {
		w := allWeights()[s]
		if w == nil {
			t.Fatalf("the set for %v is not laid out", s.Languages)
		}
		for i, n := range signalNames {
			if _, ok := s.Weights[n]; !ok {
				t.Errorf("the set for %v has no weight for the signal %q", s.Languages, n)
			}
			if w.rank[i] != s.Weights[n] {
				t.Errorf("set for %v: signal %q weighed %g, the model says %g", s.Languages, n, w.rank[i], s.Weights[n])
			}
		}
		if _, err := s.CalibrationVector(signalNames); err != nil {
			t.Fatal(err)
		}
		if len(w.calibration) != len(rankmodel.CalibrationNames(signalNames)) {
			t.Errorf("%d calibration weights for %d features", len(w.calibration), len(rankmodel.CalibrationNames(signalNames)))
		}
	}
	for _, s := range m.Sets {
		for _, l := range s.Languages {
			if weightsFor(l) != allWeights()[s] {
				t.Errorf("a repository in %s is not ranked by the set that lists it", l)
			}
		}
	}
	if weightsFor("python") != allWeights()[m] || weightsFor("") != allWeights()[m] {
		t.Error("a repository in a language no set lists is not ranked by the model's own weights")
	}
}

func TestRelatedTests(t *testing.T) {
	res := retrieveFixture(t, "auth-expiry", "fix the auth token expiry bug")
	if len(res.RelatedTests) == 0 || res.RelatedTests[0].Path != "src/auth/auth.test.ts" {
		t.Fatalf("related tests %+v, want src/auth/auth.test.ts first", res.RelatedTests)
	}
	if !slices.Contains(res.RelatedTests[0].For, "src/auth/tokens.ts") {
		t.Errorf("auth.test.ts is for %v, want tokens.ts among them", res.RelatedTests[0].For)
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

func retrieveFixture(t *testing.T, repo, task string) *hone.Result {
	t.Helper()
	res, err := Retrieve(t.Context(), filepath.Join("..", "testdata", "repos", repo), task, hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The tests that best match the task point at the code they exercise.
func TestTestedSignal(t *testing.T) {
	res, err := Retrieve(t.Context(), filepath.Join("..", "testdata", "repos", "auth-expiry"), "fix the auth token expiry bug", hone.Options{IndexDir: t.TempDir(), Signals: true})
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

// The signals of where a file stands and of the task's words said
// another way.
func TestKindAndFormSignals(t *testing.T) {
	res, err := Retrieve(t.Context(), filepath.Join("..", "testdata", "repos", "login-throttle"),
		"add rate limiting to the login endpoint", hone.Options{IndexDir: t.TempDir(), Signals: true})
	if err != nil {
		t.Fatal(err)
	}
	sig := map[string][]float64{}
	for _, r := range res.Ranking {
		sig[r.Path] = r.Signals
	}
	throttle, ok := sig["src/lib/throttle.ts"]
	if !ok {
		t.Fatalf("throttle.ts is not ranked: %v", res.Ranking)
	}
	// The task says "rate limiting", the file's name "throttle": a
	// synonym the codebase uses.
	if throttle[sigAltName] <= 0 {
		t.Errorf("throttle.ts: alt_name %v, want the synonym in its name to count", throttle[sigAltName])
	}
	if login, ok := sig["src/routes/login.ts"]; ok && login[sigAltName] != 0 {
		t.Errorf("login.ts: alt_name %v, want 0: the task's own word is in its name", login[sigAltName])
	}
	for p, x := range sig {
		// package.json is data; the README is documentation, not data.
		if want := p == "package.json"; (x[sigData] == 1) != want || x[sigAux] != 0 {
			t.Errorf("%s: data %v, aux %v", p, x[sigData], x[sigAux])
		}
	}
}

func TestIsTestHelper(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"internal/testutil/daemon/daemon.go", true},
		{"pkg/TestUtils/env.ts", true},
		{"src/test_helpers.rb", false},
		{"testutil.go", false},
		{"internal/testing/x.go", false},
		{"daemon/daemon.go", false},
	} {
		if got := isTestHelper(tt.path); got != tt.want {
			t.Errorf("isTestHelper(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestIsAux(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"scripts/release.py", true},
		{"benchmark/loadgen/main.go", true},
		{"interop/peer/peer.go", true},
		{".github/workflows/test.yml", true},
		{"tools/gen/Main.java", true},
		{"lib/legacy/codec_v05.c", true},
		{"microbench/src/main/java/io/a/BufBenchmark.java", true},
		{"core/src/jmh/java/a/ParseBench.java", true},
		{"src/legacy.rs", false},
		{"server.go", false},
		{"src/scripts.ts", false},
		{"internal/wire/frame_server.go", false},
		{"src/benchmark.rs", false},
		{"src/benchmark/runner.rs", false},
		{"imgkit-core/src/main/java/com/example/cloud/tools/imgkit/api/ImgKit.java", false},
		{"Sources/Tools/Plugin.swift", false},
		{"args_bench/benches/grep_like.rs", true},
		{"Tools/make-docs/main.swift", true},
		{"sinkio/jvm/jmh/src/jmh/java/a/BufferBenchmark.java", true},
		{"src/.github/x.yml", true},
	} {
		if got := isAux(tt.path); got != tt.want {
			t.Errorf("isAux(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// A test among the result's files is not listed as its own test.
func TestRelatedTestsNotTheirOwn(t *testing.T) {
	res := retrieveFixture(t, "auth-expiry", "src/auth/auth.test.ts fails")
	for _, rt := range res.RelatedTests {
		if slices.Contains(rt.For, rt.Path) {
			t.Errorf("%s is listed as a test of itself: %+v", rt.Path, rt)
		}
	}
}

// TestSearchPrior: a plain search lowers tests, documentation and
// examples, each unless its query asks for them.
func TestSearchPrior(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	files := map[string]*index.Entry{
		"code":    {Path: "src/auth/tokens.ts"},
		"test":    {Path: "src/auth/tokens.test.ts", Kind: walk.Test},
		"docs":    {Path: "docs/auth.md", Kind: walk.Docs},
		"example": {Path: "examples/login.ts", Kind: walk.Example},
	}
	for _, c := range []struct {
		query string
		full  []string // the kinds at 1; the others lower
	}{
		{"token expiry", []string{"code"}},
		{"token expiry tests", []string{"code", "test"}},
		{"token expiry in the docs", []string{"code", "docs"}},
		{"an example of token expiry", []string{"code", "example"}},
		{"令牌过期的文档", []string{"code", "docs"}},
		{"the Guides on token expiry", []string{"code", "docs"}},
		{"getDocs docId ExampleService", []string{"code"}},
	} {
		p := SearchPrior(ix, c.query)
		for kind, e := range files {
			if got, want := p(e) == 1, slices.Contains(c.full, kind); got != want {
				t.Errorf("%q: the %s file weighs %.2f", c.query, kind, p(e))
			}
		}
	}
}

func TestReadAsks(t *testing.T) {
	for _, c := range []struct {
		task              string
		vendor, generated bool
	}{
		{"files under node_modules are scanned twice", true, false},
		{"third_party code is linted", true, false},
		{"bump the vendored copy", true, false},
		{"the generated parser drops a rule", false, true},
		{"Protobuf messages lose their fields", false, true},
		{"getGenerated returns nil", false, false},
		{"vendorId is missing from the receipt", false, false},
		{"token expiry is off by one", false, false},
	} {
		tp := &taskParse{}
		tp.readAsks(cleanTask(c.task))
		if tp.aboutVendor != c.vendor || tp.aboutGenerated != c.generated {
			t.Errorf("%q: vendored %v, generated %v; want %v, %v", c.task, tp.aboutVendor, tp.aboutGenerated, c.vendor, c.generated)
		}
	}
}

// A file every verdict called irrelevant is tangential at most, whatever
// its signals: a one-word task whose word one file holds in passing
// makes that file the search's first, and no target.
func TestIrrelevantIsAtMostTangential(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"client/urls.py":    "def copy_with(url, **kwargs):\n    # perform the copy field by field\n    return url\n",
		"client/session.py": "def send(request):\n    return request\n",
		"client/models.py":  "class Response:\n    def read(self):\n        return b''\n",
	})
	res, err := Retrieve(context.Background(), repo, "improve performance", hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	best := map[string]float64{}
	for _, c := range res.Cycles {
		for _, ev := range c.Evaluated {
			best[ev.Path] = max(best[ev.Path], ev.Score)
		}
	}
	held := 0
	for _, r := range res.Ranking {
		if b, ok := best[r.Path]; ok && b < hone.ExcludeBelow {
			held++
			if r.Relevance > irrelevantMost {
				t.Errorf("%s scored %.2f at best, at relevance %.2f: over %.2f", r.Path, b, r.Relevance, irrelevantMost)
			}
		}
	}
	if held == 0 {
		t.Fatalf("no file scored under %.2f: ranking %+v", hone.ExcludeBelow, res.Ranking)
	}
	if len(res.Files) > 0 && res.Files[0].Relevance >= res.Threshold {
		t.Errorf("files %+v: a file the evaluator called irrelevant reached the threshold", res.Files)
	}
	for i := 1; i < len(res.Ranking); i++ {
		if res.Ranking[i].Relevance > res.Ranking[i-1].Relevance {
			t.Errorf("ranking not by relevance at %d: %+v", i, res.Ranking)
		}
	}
}
