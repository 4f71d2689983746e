package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
)

func TestMirrors(t *testing.T) {
	for _, c := range []struct {
		test, src string
		want      bool
	}{
		{"tests", "contests", true},
		{"algebra/core/tests", "algebra/core", true},
		{"src/test/java/com/acme", "src/main/java/com/acme", true},
		{"test/com/acme", "src/main/java/com/acme/web", true},
		{"internal/mesh/clients/internal", "internal", false},
		{"tests/web", "app/api", false},
	} {
		if got := mirrors(c.test, c.src); got != c.want {
			t.Errorf("mirrors(%q, %q) = %v, want %v", c.test, c.src, got, c.want)
		}
	}
	for p, want := range map[string]bool{"testdata/certs/create.sh": true, "tests/fixtures/a_test.py": true, "tests/test_a.py": false} {
		if got := dataPath(p); got != want {
			t.Errorf("dataPath(%q) = %v, want %v", p, got, want)
		}
	}
	for lang, want := range map[string]bool{"python": true, "shell": true, "": true, "html": false, "json": false, "text": false, "yaml": false} {
		if got := runnable(lang); got != want {
			t.Errorf("runnable(%q) = %v, want %v", lang, got, want)
		}
	}
}

// A test belongs to the code it sits beside, mirrors or imports; one of
// the same name in another package, a script among test data, or a
// template or data file among the tests, is not a test to run.
func TestRelatedTestsBelong(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"internal/internal.go":                   "package internal\n\n// ExpireTokens drops expired tokens.\nfunc ExpireTokens() {}\n",
		"internal/internal_test.go":              "package internal\n\nimport \"testing\"\n\nfunc TestExpireTokens(t *testing.T) { ExpireTokens() }\n",
		"mesh/clients/internal/internal.go":      "package internal\n\nfunc Other() {}\n",
		"mesh/clients/internal/internal_test.go": "package internal\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) { Other() }\n",
		"testdata/certs/internal_test.sh":        "#!/bin/sh\n# expire tokens\necho ExpireTokens\n",
		"tests/templates/internal.html":          "<p>{{ ExpireTokens }}</p>\n",
		"tests/expected/internal.json":           "{\"ExpireTokens\": true}\n",
	})
	res, err := Retrieve(context.Background(), repo, "expire tokens", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rt := range res.RelatedTests {
		got = append(got, rt.Path)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "internal/internal.go" {
		t.Fatalf("files %v: want internal/internal.go first", res.Files)
	}
	if !slices.Contains(got, "internal/internal_test.go") {
		t.Errorf("related tests %v lack internal/internal_test.go", got)
	}
	// A template or a data file among the tests is read by them, not run.
	for _, not := range []string{"mesh/clients/internal/internal_test.go", "testdata/certs/internal_test.sh", "tests/templates/internal.html", "tests/expected/internal.json"} {
		if slices.Contains(got, not) {
			t.Errorf("related tests %v hold %s", got, not)
		}
	}
}

// Of the tests that import a result file, the one that matches the task
// comes first, and says so, though others use more of the file's first
// definitions.
func TestRelatedTestsMatchTheTask(t *testing.T) {
	files := map[string]string{
		"app/options.py": "def parse_args(a):\n    return a\n\n\ndef parse_value(v):\n    return v\n\n\ndef parse_flags(f):\n    return f\n\n\n" +
			"def parse_environ(e):\n    return e\n\n\ndef show_default(option):\n    \"\"\"The default shown in an option's help text.\"\"\"\n    return option.default\n",
		"tests/test_help.py": "from app.options import show_default\n\n\ndef test_callable_default_in_help():\n    # the help text shows a callable default's value\n    assert show_default(None) is None\n",
	}
	for _, name := range []string{"args", "value", "flags", "environ"} {
		files["tests/test_parse_"+name+".py"] = "from app.options import parse_args, parse_value, parse_flags, parse_environ\n\n\ndef test_parse():\n    assert parse_args(parse_value(parse_flags(parse_environ(1)))) == 1\n"
	}
	res, err := Retrieve(context.Background(), writeFiles(t, files), "the help text shows the wrong default when the default is a callable", hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "app/options.py" {
		t.Fatalf("files %+v, want app/options.py first", res.Files)
	}
	if len(res.RelatedTests) == 0 || res.RelatedTests[0].Path != "tests/test_help.py" || res.RelatedTests[0].Reason != "matches the task, imports it" {
		t.Errorf("related tests %+v, want tests/test_help.py first, matching the task", res.RelatedTests)
	}
}

// A test in a folder named for a result file is its test when it matches
// the task, though it reaches the file only through a helper that builds
// what it tests (test/context/abort.js, of lib/context.js).
func TestRelatedTestsInFolderFor(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"lib/context.js": "'use strict';\n\n// The context of a request.\nmodule.exports = {\n" +
			"  // abort raises an HTTP error with the status given.\n  abort(...args) {\n    throw createError(...args);\n  },\n\n" +
			"  snapshot() {\n    return this.toJSON();\n  },\n};\n",
		"lib/server.js":           "'use strict';\n\nconst context = require('./context');\n\nmodule.exports = class Server {\n  createContext(req, res) {\n    return Object.create(context);\n  }\n};\n",
		"index.js":                "module.exports = require('./lib/server');\n",
		"test/helpers/context.js": "'use strict';\n\nconst Kite = require('../..');\n\nmodule.exports = () => new Kite().createContext({}, {});\n",
		"test/context/abort.js": "'use strict';\n\nconst context = require('../helpers/context');\n\n" +
			"describe('ctx.abort(status)', () => {\n  it('should abort with an error of the status', () => {\n    const ctx = context();\n    ctx.abort(404);\n  });\n});\n",
		"test/context/snapshot.js": "'use strict';\n\nconst context = require('../helpers/context');\n\ndescribe('ctx.snapshot()', () => {\n  it('should return a json', () => {\n    context().snapshot();\n  });\n});\n",
	})
	res, err := Retrieve(context.Background(), repo, "ctx.abort loses the status of the error", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "lib/context.js" {
		t.Fatalf("files %v: want lib/context.js first", res.Files)
	}
	if len(res.RelatedTests) == 0 || res.RelatedTests[0].Path != "test/context/abort.js" {
		t.Fatalf("related tests %v: want test/context/abort.js first", res.RelatedTests)
	}
	if got, want := res.RelatedTests[0].Reason, "matches the task, in a folder named for context.js"; got != want {
		t.Errorf("its reason %q, want %q", got, want)
	}
	// The helper uses the application's definitions, and is no test to
	// run.
	res, err = Retrieve(context.Background(), repo, "createContext builds the context of a request", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range res.RelatedTests {
		if rt.Path == "test/helpers/context.js" {
			t.Errorf("related tests %v hold the helper", res.RelatedTests)
		}
	}
}

// A test that imports the package whole, not the file, is the file's test
// when it matches the task and calls what the file defines
// (test/reply.cookie.js, of lib/reply.js); a name many files define ties
// it to none. A test that matches the task with nothing to tie it to a
// result file comes after those that have, for no file.
func TestRelatedTestsCallTheFile(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"lib/reply.js": "'use strict';\n\nvar res = module.exports = {};\n\n" +
			"// cookie sets a cookie, its expiry from maxAge.\nres.cookie = function cookie(name, value, options) {\n  return this.set('Set-Cookie', name + '=' + value);\n};\n\n" +
			"res.send = function send(body) {\n  return this.end(body);\n};\n",
		"lib/request.js": "'use strict';\n\nvar req = module.exports = {};\n\nreq.send = function send(body) {\n  return body;\n};\n",
		"lib/other.js":   "'use strict';\n\nexports.send = function send(x) {\n  return x;\n};\n",
		"lib/router.js":  "'use strict';\n\nexports.send = function send(route) {\n  return route;\n};\n",
		"lib/app.js":     "'use strict';\n\nexports.response = require('./response');\nexports.request = require('./request');\n",
		"index.js":       "module.exports = require('./lib/app');\n",
		"test/reply.cookie.js": "var app = require('../');\n\ndescribe('res.cookie(name, value, options)', function () {\n" +
			"  it('should set the cookie expiry from maxAge', function () {\n    app.response.cookie('name', 'tobi', { maxAge: 1000 });\n  });\n});\n",
		"test/reply.send.js":            "var app = require('../');\n\ndescribe('res.send(body)', function () {\n  it('should send a cookie body with maxAge', function () {\n    app.response.send('cookie maxAge');\n  });\n});\n",
		"test/acceptance/cookie-jar.js": "var request = require('supertest');\n\ndescribe('cookies example', function () {\n  it('should remember the cookie for maxAge', function () {\n    request('/remember');\n  });\n});\n",
	})
	res, err := Retrieve(context.Background(), repo, "a cookie set with maxAge gets no expiry", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "lib/reply.js" {
		t.Fatalf("files %v: want lib/reply.js first", res.Files)
	}
	byPath := map[string]hone.RelatedTest{}
	var order []string
	for _, rt := range res.RelatedTests {
		byPath[rt.Path] = rt
		order = append(order, rt.Path)
	}
	if len(order) == 0 || order[0] != "test/reply.cookie.js" {
		t.Fatalf("related tests %v: want test/reply.cookie.js first", order)
	}
	if got, want := byPath["test/reply.cookie.js"].Reason, "matches the task, calls its cookie()"; got != want {
		t.Errorf("its reason %q, want %q", got, want)
	}
	// send is defined by four files: it ties test/reply.send.js to none
	// of them, and it is listed, if at all, for matching the task.
	if rt, ok := byPath["test/reply.send.js"]; ok && (rt.Reason != "matches the task" || len(rt.For) != 0) {
		t.Errorf("test/reply.send.js listed %+v: want it tied to no file", rt)
	}
	rt, ok := byPath["test/acceptance/cookie-jar.js"]
	if !ok {
		t.Fatalf("related tests %v lack test/acceptance/cookie-jar.js, which matches the task", order)
	}
	if rt.Reason != "matches the task" || rt.For == nil || len(rt.For) != 0 {
		t.Errorf("test/acceptance/cookie-jar.js listed %+v: want it for no file, an empty list", rt)
	}
}

// A test's reason is its tie's whenever it has one, and "matches the task"
// only with no file for it, whichever scored more; and a name a result file
// defines ties it to no test in another language that calls the same name.
func TestRelatedTestsReasonAndFor(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"pkg/session.py":                    "def expire_session_cookies(session, max_age):\n    \"\"\"Expire the session cookies after max_age.\"\"\"\n    return session\n",
		"tests/test_session.py":             "from pkg.session import expire_session_cookies\n\n\ndef test_expire():\n    assert expire_session_cookies({}, 1) == {}\n",
		"tests/test_views.py":               "# expire_session_cookies is called by the views\n\n\ndef test_views():\n    assert True\n",
		"tests/test_integration.py":         "# session cookies expire after max_age: expire_session_cookies\n\n\ndef test_session_cookies_max_age():\n    assert True\n",
		"lib/reply.js":                      "'use strict';\n\n// cookie sets a session cookie with max_age.\nexports.cookie = function cookie(name, maxAge) {\n  return name;\n};\n",
		"tools/browser.py":                  "def cookie(name):\n    return name\n",
		"tools/tests/test_cookie_expiry.py": "from tools.browser import cookie\n\n\ndef test_session_cookie_expiry():\n    # session cookies and max_age\n    assert cookie('a') == 'a'\n",
	})
	res, err := Retrieve(context.Background(), repo, "session cookies do not expire after max_age", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RelatedTests) == 0 {
		t.Fatalf("no related tests; files %v", res.Files)
	}
	for _, rt := range res.RelatedTests {
		if taskOnly := rt.Reason == "matches the task"; taskOnly != (len(rt.For) == 0) {
			t.Errorf("%s: reason %q for %v: matching the task alone is the reason of a test for no file, and only of one", rt.Path, rt.Reason, rt.For)
		}
		if rt.Path == "tools/tests/test_cookie_expiry.py" && slices.Contains(rt.For, "lib/reply.js") {
			t.Errorf("%s tied to lib/reply.js (%s): a Python test's cookie() is not a JavaScript file's", rt.Path, rt.Reason)
		}
	}
}

// A Go definition that is not exported is its package's: a test in
// another folder that writes its name with another case (a field
// AutoRemove, not the method autoRemove) does not use it; one beside it
// may.
func TestRelatedTestsGoUnexported(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"go.mod": "module example.com/d\n\ngo 1.22\n",
		"daemon/monitor.go": "package daemon\n\n// handleContainerExit removes a container that exits, when asked.\n" +
			"func handleContainerExit(c int) {\n\tautoRemoveContainer(c)\n}\n\nfunc autoRemoveContainer(c int) {}\n",
		"daemon/monitor_test.go": "package daemon\n\nimport \"testing\"\n\nfunc TestExit(t *testing.T) {\n\tautoRemoveContainer(1)\n}\n",
		"client/create_test.go":  "package client\n\nimport \"testing\"\n\nfunc TestCreate(t *testing.T) {\n\t_ = HostConfig{AutoRemoveContainer: true}\n}\n",
		"client/create.go":       "package client\n\ntype HostConfig struct{ AutoRemoveContainer bool }\n",
	})
	res, err := Retrieve(context.Background(), repo, "a container that exits is not removed", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range res.RelatedTests {
		if rt.Path == "client/create_test.go" && slices.Contains(rt.For, "daemon/monitor.go") {
			t.Errorf("%s tied to daemon/monitor.go (%s): its AutoRemoveContainer is a field, not the package's autoRemoveContainer", rt.Path, rt.Reason)
		}
	}
}

func TestRunnerCollects(t *testing.T) {
	for _, c := range []struct {
		path, lang string
		want       bool
	}{
		{"tests/test_views.py", "python", true},
		{"tests/shop_views/tests.py", "python", true},
		{"pkg/views_test.py", "python", true},
		{"tests/conftest.py", "python", false},
		{"tests/eager_loading/models.py", "python", false},
		{"tests/shop_commands/management/commands/subparser.py", "python", false},
		{"src/test/java/org/a/HttpConnectionTest.java", "java", true},
		{"src/test/java/org/a/TestFiler.java", "java", true},
		{"src/test/java/org/a/ParserTests.java", "java", true},
		{"src/test/java/org/a/ConnectIT.java", "java", true},
		{"src/test/kotlin/a/ClientSpec.kt", "kotlin", true},
		{"src/test/java/org/a/relay/RelayProxyServer.java", "java", false},
		{"test/response/location.js", "javascript", true},
		{"tests/parse_samples.c", "c", true},
	} {
		if got := runnerCollects(c.path, c.lang); got != c.want {
			t.Errorf("runnerCollects(%q, %q) = %v, want %v", c.path, c.lang, got, c.want)
		}
	}
}

// The tests to run: a test among the result's files first; none the
// caller excluded, nor a tests' folder's shared code (conftest.py, a test
// app's models.py); and none at all where no file was found.
func TestRelatedTestsListed(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"pkg/session.py":            "def expire_session_cookies(session, max_age):\n    \"\"\"Expire the session cookies after max_age.\"\"\"\n    return session\n",
		"tests/test_session.py":     "from pkg.session import expire_session_cookies\n\n\ndef test_expire_session_cookies():\n    assert expire_session_cookies({}, 1) == {}\n",
		"tests/conftest.py":         "import pytest\nfrom pkg.session import expire_session_cookies\n\n\n@pytest.fixture\ndef session_cookies():\n    return expire_session_cookies({}, 1)\n",
		"tests/models.py":           "from pkg.session import expire_session_cookies\n\n\nclass SessionCookies:\n    expire = expire_session_cookies\n",
		"other/test_session_max.py": "from pkg.session import expire_session_cookies\n\n\ndef test_max_age():\n    assert expire_session_cookies({}, 2) == {}\n",
	})
	paths := func(res *hone.Result) []string {
		var got []string
		for _, rt := range res.RelatedTests {
			got = append(got, rt.Path)
		}
		return got
	}
	res, err := Retrieve(context.Background(), repo, "session cookies do not expire after max_age", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	got := paths(res)
	if !slices.Contains(got, "tests/test_session.py") {
		t.Errorf("tests to run %v lack tests/test_session.py", got)
	}
	for _, not := range []string{"tests/conftest.py", "tests/models.py"} {
		if slices.Contains(got, not) {
			t.Errorf("tests to run %v hold %s, which pytest does not collect", got, not)
		}
	}
	res, err = Retrieve(context.Background(), repo, "session cookies do not expire after max_age", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01, Exclude: []string{"other/**"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(res); slices.Contains(got, "other/test_session_max.py") {
		t.Errorf("tests to run %v hold a test the caller excluded", got)
	}
	res, err = Retrieve(context.Background(), repo, "test_expire_session_cookies in tests/test_session.py fails", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(res); len(got) == 0 || got[0] != "tests/test_session.py" || res.RelatedTests[0].Reason != "among the result's files" {
		t.Errorf("files %v: tests to run %+v, want tests/test_session.py first, as a file of the result", res.Files, res.RelatedTests)
	}
	res, err = Retrieve(context.Background(), repo, "session cookies do not expire after max_age", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Include: []string{"nomatch/**"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 0 || len(res.RelatedTests) != 0 {
		t.Errorf("include matching nothing: files %v, tests to run %v; want neither", res.Files, paths(res))
	}
}

func TestHelperPath(t *testing.T) {
	for p, want := range map[string]bool{
		"test/helpers/context.js":       true,
		"spec/support/matchers.rb":      true,
		"src/__mocks__/fs.js":           true,
		"internal/testutil/server.go":   true,
		"internal/testutil/url_test.go": false, // a test of the helpers
		"test/context/abort.js":         false,
		"tests/test_helpers.py":         false,
		// named as a test the way walk tells one: rspec-rails' helper
		// specs, googletest's unit tests.
		"spec/helpers/application_helper_spec.rb": false,
		"test/helpers/url_unittest.cc":            false,
		// a folder of tests below a source folder of helpers: Jest runs
		// every file under __tests__.
		"src/helpers/__tests__/format.js": false,
		"lib/support/test/parse.js":       false,
		"src/__tests__/__mocks__/fs.js":   true,
		// the files the tests source or load before they run
		"tests/setup":            true,
		"test/globalSetup.ts":    true,
		"test/utils.js":          false, // the test of lib/utils.js, as often as not
		"src/__tests__/setup.js": false, // Jest runs every file under __tests__
		"test/setup.test.js":     false,
		"tests/shtest":           false,
		"tests/setup_test.go":    false,
	} {
		if got := helperPath(p); got != want {
			t.Errorf("helperPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestInFolderFor(t *testing.T) {
	for _, tc := range []struct {
		test, src string
		want      bool
	}{
		{"test/context/abort.js", "lib/context.js", true},
		{"test/Context/abort.js", "lib/context.js", true},
		{"test/context/abort.js", "lib/context/index.js", true},
		{"lib/context/abort.js", "lib/context.js", true},
		{"test/request/accept-types.js", "lib/context.js", false},
		{"lib/context/abort.test.js", "lib/context/index.js", false}, // beside it
		// the tests' own folder is named for no file: mocha's lib/test.js.
		{"test/reporter.spec.js", "lib/test.js", false},
		{"spec/user_spec.rb", "lib/spec.rb", false},
		{"tests/test_views.py", "shop/test/testcases.py", false},
		{"tests/test_views.py", "kiln/tests.py", false},
	} {
		if got := inFolderFor(tc.test, tc.src); got != tc.want {
			t.Errorf("inFolderFor(%q, %q) = %v, want %v", tc.test, tc.src, got, tc.want)
		}
	}
}
