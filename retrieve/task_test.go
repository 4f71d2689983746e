package retrieve

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone/index"
)

// buildIndex opens the index of root and brings it up to date.
func buildIndex(root string, opts index.Options) (*index.Index, error) {
	ix, err := index.Open(context.Background(), root, opts)
	if err != nil {
		return nil, err
	}
	if _, err := ix.Update(context.Background(), nil); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// writeFiles writes files, by slash-separated path, into a new folder,
// and returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fixtureIndex(t testing.TB, name string) *index.Index {
	t.Helper()
	ix, err := buildIndex(filepath.Join("..", "testdata", "repos", name), index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestAnalyzeTask(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	tests := []struct {
		task string
		want []string // labels, in any order
		kind map[string]conceptKind
		not  []string
	}{
		{
			task: "fix the auth token expiry bug",
			want: []string{"auth", "token", "expiry"},
			not:  []string{"fix", "bug", "the"},
		},
		{
			task: "`refreshSession` throws when SESSION_TTL_SECONDS is unset; see src/session/session-manager.ts",
			want: []string{"refreshSession", "SESSION_TTL_SECONDS", "src/session/session-manager.ts"},
			kind: map[string]conceptKind{"refreshSession": identifier, "SESSION_TTL_SECONDS": identifier, "src/session/session-manager.ts": filePath},
		},
		{
			task: "Calling SessionManager.refresh() fails",
			want: []string{"SessionManager", "refresh"},
			kind: map[string]conceptKind{"SessionManager": identifier, "refresh": identifier},
		},
		{
			task: "add rate limiting to the API endpoints",
			want: []string{"rate limiting", "api", "endpoints"},
			not:  []string{"rate", "limiting", "add"},
		},
		{
			// A phrase with stop words, as written: not "sign" (a
			// signature's) nor "memory" alone.
			task: "users cannot sign in after the worker ran out of memory",
			want: []string{"sign in", "out of memory", "users", "worker"},
			not:  []string{"sign", "memory"},
		},
		{
			task: "sign the token; it is out of date",
			want: []string{"sign", "token"},
			not:  []string{"sign in", "out of memory"},
		},
		{
			// import, include and export name things in code: kept.
			task: "the import block is cut; `include()` ignores the namespace; export fails",
			want: []string{"import", "block", "include", "export"},
			not:  []string{"the"},
		},
		{
			// the keywords as the task's code writes them are code.
			task: "Vector fails:\n>>> from geomkit import Vector\nimport numpy as np\n#include <stdio.h>\nexport default App",
			not:  []string{"import", "include", "export"},
		},
		{
			task: "导入块被截断了",
			want: []string{"import"},
		},
		{
			task: "修复身份验证令牌过期错误",
			want: []string{"authentication", "token", "expiry", "error"},
			not:  []string{"fix"},
		},
	}
	for _, tt := range tests {
		cs := analyzeTask(tt.task, ix)
		labels := map[string]*concept{}
		for _, c := range cs {
			labels[c.label] = c
			if c.weight <= 0 || c.weight > 1 {
				t.Errorf("%q: %s weighs %.2f, want (0, 1]", tt.task, c.label, c.weight)
			}
		}
		for _, w := range tt.want {
			c, ok := labels[w]
			if !ok {
				var got []string
				for l := range labels {
					got = append(got, l)
				}
				t.Errorf("%q: no concept %q in %q", tt.task, w, got)
				continue
			}
			if k, ok := tt.kind[w]; ok && c.kind != k {
				t.Errorf("%q: %s is a %s, want %s", tt.task, w, c.kind, k)
			}
		}
		for _, w := range tt.not {
			if _, ok := labels[w]; ok {
				t.Errorf("%q: %q should not be a concept", tt.task, w)
			}
		}
	}
}

func TestAnalyzeTaskWeights(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	cs := analyzeTask("the refreshSession function and the token", ix)
	var ident, word *concept
	for _, c := range cs {
		switch c.label {
		case "refreshSession":
			ident = c
		case "token":
			word = c
		}
	}
	if ident == nil || word == nil {
		t.Fatalf("concepts %v", cs)
	}
	if ident.weight <= word.weight {
		t.Errorf("identifier weighs %.2f, prose word %.2f: a named identifier must weigh more", ident.weight, word.weight)
	}
	if cs[0] != ident {
		t.Errorf("concepts not most important first: %s leads", cs[0].label)
	}
}

func TestMentionsTests(t *testing.T) {
	for task, want := range map[string]bool{
		"the expiry tests fail": true, "add a unit test": true, "测试失败": true,
		"fix the token expiry": false, "latest contest results": false,
		"GridSpec ignores its ratios": false, "X_test is scaled twice": false, "TestEnum's set loses order": true,
		"format_spec parses a fill": false, "Tests: the expiry's": true, "a failing spec.": true,
		"test_login_redirect fails on 3.12": true, "TestServeMux panics under -race": true, "auth_test.go fails": true,
		"test_auth.py::test_refresh fails": true, "UserServiceTest fails after upgrade": true, "SessionTest.testRefresh throws": true,
		"app.spec.ts times out": true, "X_test.shape is wrong": false, "pytest_configure runs twice": false, "the latest contest": false,
		"testID is not forwarded": false, "the abTest cookie is lost": false, "isTest is ignored": false,
	} {
		if got := mentionsTests(task); got != want {
			t.Errorf("mentionsTests(%q) = %v", task, got)
		}
	}
}

// Two words the task writes apart that the code writes as one: a word
// and a particle make a concept of their own, two words one more form of
// the second's concept.
func TestCompounds(t *testing.T) {
	ix, err := buildIndex(writeFiles(t, map[string]string{
		"retry.go": "package x\n\n// wait before the next try\nvar backoff = 2\n\nfunc wait() {}\n",
		"log.go":   "package x\n\nvar timestamp int\n\nfunc stamp() {}\n",
		"check.go": "package x\n\n// check the times\nfunc checkTimes() {}\n\ntype ElementIt struct{}\n",
		"form.go":  "package x\n\n// inform the user; a form of one line\nfunc inform() {}\n\nvar online, inline bool\n",
	}), index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, tt := range []struct {
		task    string
		concept string // a concept of the joined form, by its label
		alt     string // or the concept that shows it as one more alternative
		stem    string
	}{
		{task: "the client should back off when the server is busy", concept: "back off", stem: "backoff"},
		{task: "the client should back-off", concept: "back off", stem: "backoff"},
		{task: "the time stamp of a log line is wrong", alt: "stamp", stem: "timestamp"},
		{task: "it should check times first"}, // checkTime, a name, not a word code writes
		{task: "we moved to the back office"},
		{task: "go back, off we go"},
		{task: "log it in to the file"},
		{task: "the element it points at"}, // "it" is no particle
		{task: "a typo in form labels"},    // a preposition, not inform
		{task: "the error on line 5"},
		{task: "show it on-line", concept: "on line", stem: "onlin"},
	} {
		cs := analyzeTask(tt.task, ix)
		var found []string
		for _, c := range cs {
			for i, a := range c.alts {
				if i > 0 || c.kind == prose && strings.Contains(c.label, " ") {
					if len(a.stems) == 1 && !slices.Contains(stemsOf(c.label), a.stems[0]) {
						found = append(found, c.label+"="+a.stems[0])
					}
				}
			}
		}
		var want []string
		switch {
		case tt.concept != "":
			want = []string{tt.concept + "=" + tt.stem}
		case tt.alt != "":
			want = []string{tt.alt + "=" + tt.stem}
		}
		if !slices.Equal(found, want) {
			t.Errorf("%q: joined forms %q, want %q", tt.task, found, want)
		}
	}
}

// A phrase of the synonym table counts once a mention, whether or not
// code joins it, and is searched as the table writes it ("log out" for
// "logging out", "time out" for "time out", not "timed out").
func TestPhraseConcepts(t *testing.T) {
	ix, err := buildIndex(writeFiles(t, map[string]string{
		"auth.go":  "package x\n\n// signin handles a user's sign in\nfunc signin() {}\n\nvar timeout = 3\n",
		"other.go": "package x\n\n// sign the request\nfunc sign() {}\n\nfunc logout() {}\n",
	}), index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, tt := range []struct {
		task, label, first string
		count              int
	}{
		{"users cannot sign in", "sign in", "signin", 1},
		{"users cannot sign in; sign in fails", "sign in", "signin", 2},
		{"the request should time out", "time out", "timeout", 1},
		{"logging out leaves the session", "logging out", "logout", 1},
	} {
		var got *concept
		for _, c := range analyzeTask(tt.task, ix) {
			if c.label == tt.label {
				got = c
			}
		}
		if got == nil {
			t.Errorf("%q: no concept %q", tt.task, tt.label)
			continue
		}
		if got.count != tt.count || strings.Join(got.alts[0].stems, " ") != tt.first {
			t.Errorf("%q: %q counted %d, first searched as %v; want %d, %s", tt.task, tt.label, got.count, got.alts[0].stems, tt.count, tt.first)
		}
	}
}

func TestPhraseStems(t *testing.T) {
	if got := phraseStems("sign in"); !slices.Equal(got, []string{"signin"}) {
		t.Errorf("sign in: %v", got)
	}
	if got := phraseStems("access token"); !slices.Equal(got, []string{"access", "token"}) {
		t.Errorf("access token: %v", got)
	}
}

func FuzzAnalyzeTask(f *testing.F) {
	ix := fixtureIndex(f, "auth-expiry")
	f.Add("fix the auth token expiry bug")
	f.Add("为API端点添加速率限制")
	f.Add("Traceback (most recent call last):\n  File \"a/b.py\", line 3, in f\n    x.y()\nValueError: bad `thing`")
	f.Add("`a.b.c()` src/x.ts ``")
	f.Add("<!-- hidden -->\n```python\nfrom a import (b, c)\n>>> d(e)\n```\nnumpy 1.2.3 py_0\n")
	f.Add("retry the login 🔁 when the session times out, 会话超时 👩‍💻")
	f.Add("Привет upload too big ＡＰＩ ｔｏｋｅｎ")
	f.Fuzz(func(t *testing.T, task string) {
		for _, c := range analyzeTask(cleanTask(task), ix) {
			if len(c.alts) == 0 || c.weight < 0 || c.weight > 1 {
				t.Fatalf("bad concept %+v", c)
			}
			for _, a := range c.alts {
				if a.source != "vocabulary" {
					continue
				}
				// An expansion is one the repository supports.
				for _, s := range a.stems {
					if ix.DF(s) == 0 {
						t.Fatalf("%q: the vocabulary's %q is in no file", task, s)
					}
				}
			}
		}
	})
}

func TestCodeBlockNames(t *testing.T) {
	tests := []struct {
		name, task string
		want       []string
	}{
		{"fenced block", "Clamp is wrong:\n```python\nfrom geomkit import Vector, Clamp\nv = Vector('v', bounded=True)\nprint(Clamp(3*v, 2))\n```\n",
			[]string{"Vector", "Clamp"}},
		{"interpreter prompt", "It fails:\n>>> tabulate(x, expr)(1)\n... rootscan(f, 0)\nTypeError\n", []string{"tabulate", "rootscan"}},
		{"ipython prompt", "In [3]: df.groupby('a').resample('1D')\n", []string{"groupby", "resample"}},
		{"traceback block is left out", "```\nTraceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n    foo(1)\n```\n", nil},
		{"prose calls are not code", "Calling foo(x) breaks.\n", nil},
		{"short names are dropped", ">>> f(x)\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeBlockNames(tt.task); !slices.Equal(got, tt.want) {
				t.Errorf("codeBlockNames = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCleanTask(t *testing.T) {
	task := "Title\r\n<!--Please fill out\r\nthe form-->\r\nBody keeps this.\r\n```\r\nnumpy 1.19.2 py38_0 conda-forge\r\nscipy==1.5.2\r\n```\r\n" +
		"```\nplatform darwin -- Python 3.7.6, pytest-6.0.0rc1, py-1.9.0, pluggy-0.13.0\nrootdir: /Users/me/sandbox\n" +
		"plugins: xdist-1.29.0, hypothesis-4.36.2, asyncio-0.10.0\ncollected 1 item\n```\n" +
		"**To Reproduce**\nRun it twice.\n**Additional context**\n - OS: [e.g. iOS]\n"
	got := cleanTask(task)
	for _, gone := range []string{"fill", "form", "numpy", "scipy", "darwin", "sandbox", "xdist", "asyncio", "Reproduce", "Additional", "iOS"} {
		if strings.Contains(got, gone) {
			t.Errorf("cleanTask kept %q: %q", gone, got)
		}
	}
	for _, kept := range []string{"Title", "Body keeps this.", "collected 1 item", "Run it twice."} {
		if !strings.Contains(got, kept) {
			t.Errorf("cleanTask dropped %q: %q", kept, got)
		}
	}
}

// A task typed with full-width letters, digits and spaces, as a Chinese
// input method gives them, reads as the same task in ASCII.
func TestCleanTaskFoldsWidth(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	for _, tc := range []struct{ wide, narrow string }{
		{"修复ＲｏｕｔｅｒＧｒｏｕｐ的问题", "修复RouterGroup的问题"},
		{"ｒｅｆｒｅｓｈＳｅｓｓｉｏｎ（）　令牌过期", "refreshSession() 令牌过期"},
		{"ＦＩＸ　ＴＯＫＥＮ　ＥＸＰＩＲＹ２", "FIX TOKEN EXPIRY2"},
	} {
		if got := cleanTask(tc.wide); got != tc.narrow {
			t.Errorf("cleanTask(%q) = %q, want %q", tc.wide, got, tc.narrow)
		}
		wide, narrow := analyzeTask(cleanTask(tc.wide), ix), analyzeTask(cleanTask(tc.narrow), ix)
		if len(wide) == 0 || len(wide) != len(narrow) {
			t.Fatalf("%q: %d concepts, %q: %d", tc.wide, len(wide), tc.narrow, len(narrow))
		}
		for i := range wide {
			if wide[i].alts[0].label != narrow[i].alts[0].label {
				t.Errorf("%q: concept %d %q, want %q", tc.wide, i, wide[i].alts[0].label, narrow[i].alts[0].label)
			}
		}
	}
}

// TestTaskNoise checks each pattern of what cleanTask drops, line by line:
// what it must drop, and what it must keep.
func TestTaskNoise(t *testing.T) {
	type cases = []struct {
		line string
		want bool
	}
	tests := []struct {
		what string
		re   func() *regexp.Regexp
		cases
	}{
		{"environment line", versionLine, cases{
			{"_libgcc_mutex             0.1                 conda_forge    conda-forge", true},
			{"numpy 1.19.2 py38h54aff64_0 conda-forge", true},
			{"pandas: 1.1.0", true},
			{"attrs==20.3.0", true},
			{"numpy 1.19.2\r", true},
			{"numpy\n1.19.2", false},
			{"  * Plotkit version: 3.1.2 (conda-forge)", false},
			{"Clamp(3*v, 2) returns 3.5 instead", false},
			{"Creating PanelGrid raises TypeError", false},
			{"python: 3.8.5 (default, Sep  4 2020, 07:30:14)", false},
		}},
		{"list of versions", versionList, cases{
			{"platform darwin -- Python 3.7.6, pytest-5.4.3, py-1.9.0, pluggy-0.13.0", true},
			{"platform linux -- Python 3.9.7, pytest-6.2.5, py-1.10.0, pluggy-1.0.0 -- /usr/bin/python3", true},
			{"plugins: xdist-1.29.0, hypothesis-4.36.2, forked-1.0.2, repeat-0.8.0, asyncio-0.10.0, cov-2.8.1", true},
			{"Versions: numpy 1.19.2, scipy 1.5.2, plotkit 3.3.1", true},
			{"plugins: cov-2.8.1", false},
			{"It fails with numpy 1.19 and works with 1.18", false},
			{"Clamp(3*v, 2) returns 3.5, 2.5 and 1.5 instead", false},
			{"Creating PanelGrid raises TypeError, ValueError, KeyError", false},
			{"x = Point(1.5, 2.5, 3.5)", false},
			{"Matrix([x-1.5, y-2.5, z-3.5])", false},
		}},
		{"test session's header", sessionLine, cases{
			{"rootdir: /Users/me/sandbox, inifile: setup.cfg", true},
			{"cachedir: .pytest_cache", true},
			{"configfile: pyproject.toml", true},
			{"hypothesis profile 'default' -> database=DirectoryBasedExampleDatabase('/Users/me/.hypothesis/examples')", true},
			{"the rootdir: is computed wrong when a conftest.py is above it", false},
			{"collected 1 item", false},
		}},
		{"template's heading", templateHeading, cases{
			{"**Describe the bug**", true},
			{"## Expected behavior", true},
			{"### Steps to reproduce\r", true},
			{"To Reproduce", true},
			{"Steps to reproduce the behavior:", true},
			{"**Environment (please complete the following information):**", true},
			{"Desktop (please complete the following information):", true},
			{"**Is your feature request related to a problem? Please describe.**", true},
			{"## Describe the solution you'd like", true},
			{"**Additional context**", true},
			{"The expected behavior is that the cookie is deleted", false},
			{"Describe the bug in the parser: it drops the last token", false},
			{"def context():", false},
		}},
		{"environment answer", environmentItem, cases{
			{"- OS and Version: macOS (whatever)", true},
			{"- kq version: kq-1.7rc1-25-gf94a9d4", true},
			{" * Browser [e.g. chrome, safari]: ff", true},
			{"- the version string is parsed wrong", false},
			{"- OS threads leak when the pool stops", false},
		}},
		{"template's example", templatePlaceholder, cases{
			{" - OS: [e.g. iOS]", true},
			{" - Browser [e.g. chrome, safari]", true},
			{" - Browser [chrome]", false},
		}},
	}
	for _, tt := range tests {
		for _, c := range tt.cases {
			if got := tt.re().MatchString(c.line); got != c.want {
				t.Errorf("%q: a %s = %v, want %v", c.line, tt.what, got, c.want)
			}
		}
	}
}

func TestWholeStem(t *testing.T) {
	// The task's identifier must meet the index's whole token, however
	// the code spells it.
	for _, pair := range [][2]string{
		{"repr_instance", "reprInstance"},
		{"SESSION_TTL", "sessionTtl"},
		{"_hookexec", "hookexec"},
		{"__repr__", "repr"},
	} {
		if a, b := wholeStem(pair[0]), wholeStem(pair[1]); a != b || a == "" {
			t.Errorf("wholeStem(%q) = %q, wholeStem(%q) = %q: want the same stem", pair[0], a, pair[1], b)
		}
	}
}

func TestIdentifiersMeetTheIndex(t *testing.T) {
	ix := fixtureIndex(t, "auth-expiry")
	task := "`password_hash` is empty after refreshSession; SESSION_TTL_SECONDS is set\n" +
		"  File \"/usr/lib/python3.11/site-packages/thirdparty/callers.py\", line 3, in wrap\n" +
		"  File \"/srv/app/src/session/session-manager.ts\", line 9, in refresh\n"
	byLabel := map[string]*concept{}
	for _, c := range analyzeTask(task, ix) {
		byLabel[c.label] = c
	}
	for _, id := range []string{"password_hash", "refreshSession", "SESSION_TTL_SECONDS"} {
		c := byLabel[id]
		if c == nil {
			t.Errorf("no concept %q", id)
			continue
		}
		if df := ix.DF(c.alts[0].stems[0]); df == 0 {
			t.Errorf("%s: its whole form %q is in no file of the index", id, c.alts[0].stems[0])
		}
	}
	in, out := byLabel["src/session/session-manager.ts"], byLabel["usr/lib/python3.11/site-packages/thirdparty/callers.py"]
	if in == nil || out == nil {
		t.Fatalf("paths: %v", byLabel)
	}
	if out.weight >= in.weight || out.weight > 0.5 {
		t.Errorf("a path outside the repository weighs %.2f, one in it %.2f: want the outside one at most 0.5 and lighter", out.weight, in.weight)
	}
}

// A path the task gives resolves to the indexed files whose paths end with
// the most of its parts, when that is all of them, or two at least, or
// when a single file does; an absolute path by two parts at least.
func TestResolvePath(t *testing.T) {
	var entries []*index.Entry
	for _, p := range []string{"src/app/models.py", "lib/app/models.py", "src/other/models.py", "views.py", "src/app/views.py", "a/b/c/deep.py"} {
		entries = append(entries, &index.Entry{Path: p})
	}
	for _, tc := range []struct {
		path     string
		absolute bool
		want     []string
	}{
		{"app/models.py", false, []string{"lib/app/models.py", "src/app/models.py"}},
		{"home/me/proj/src/app/models.py", true, []string{"src/app/models.py"}},
		{"./src/other/models.py", false, []string{"src/other/models.py"}},
		{"models.py", false, []string{"lib/app/models.py", "src/app/models.py", "src/other/models.py"}}, // all of it matched
		{"views.py", false, []string{"src/app/views.py", "views.py"}},
		{"deep.py", false, []string{"a/b/c/deep.py"}},
		{"x/c/deep.py", false, []string{"a/b/c/deep.py"}},
		{"x/deep.py", false, []string{"a/b/c/deep.py"}}, // the one file of the name
		{"home/me/app/deep.py", true, nil},              // the user's own file
		{"deep.py", true, nil},                          // a file at the root of the file system
		{"home/me/proj/a/b/c/deep.py", true, []string{"a/b/c/deep.py"}},
		{"nothere.py", false, nil},
		{`src\app\views.py`, false, []string{"src/app/views.py"}},
	} {
		if got := resolvePath(tc.path, tc.absolute, entries); !slices.Equal(got, tc.want) {
			t.Errorf("resolvePath(%q, %v) = %q, want %q", tc.path, tc.absolute, got, tc.want)
		}
	}
	for _, tc := range []struct {
		task string
		at   string // where the path starts
		want bool
	}{
		{`File "/home/me/app/cli.py", line 3`, "home", true},
		{"see ~/app/cli.py", "app", true},
		{`at C:\Users\me\cli.py`, "Users", true},
		{"at C:/Users/me/cli.py", "Users", true},
		{"https://github.com/org/repo/blob/main/cli.py", "github", false},
		{"see ./src/cli.py", ".", false},
		{"src/cli.py", "src", false},
		{"(/opt/app/cli.py)", "opt", true},
	} {
		if got := absoluteAt(tc.task, strings.Index(tc.task, tc.at)); got != tc.want {
			t.Errorf("absoluteAt(%q at %q) = %v, want %v", tc.task, tc.at, got, tc.want)
		}
	}
}

// A traceback's frame of the user's own code, outside the repository,
// names none of its files by the file's name alone; a frame of the
// repository's package, installed, or of the repository where it lies on
// this machine, names its file.
func TestTaskAbsolutePaths(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"src/clikit/parser.py": "def parse_args(args):\n    return args\n",
		"src/clikit/core.py":   "def main():\n    pass\n",
		"setup.py":             "from setuptools import setup\n",
	})
	ix, err := buildIndex(repo, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, tc := range []struct {
		frame string
		want  []string // the files the path concept names
	}{
		{"/home/me/app/parser.py", nil},
		{"/usr/lib/python3/site-packages/clikit/core.py", []string{"src/clikit/core.py"}},
		{ix.Root + "/setup.py", []string{"setup.py"}},
		{"src/clikit/parser.py", []string{"src/clikit/parser.py"}},
	} {
		task := "Traceback (most recent call last):\n  File \"" + tc.frame + "\", line 3, in <module>\nValueError: bad"
		var got []string
		found := false
		for _, c := range analyzeTask(task, ix) {
			if c.kind == filePath {
				got, found = c.files, true
			}
		}
		if !found || !slices.Equal(got, tc.want) {
			t.Errorf("%s: the path names %q (a path concept: %v), want %q", tc.frame, got, found, tc.want)
		}
	}
}

// quotedRunsCases are the quote characters and bounds the task's readers
// use, with the regular expressions they once were.
var quotedRunsCases = []struct {
	quotes string
	lo, hi int
	n      int
	re     *regexp.Regexp
}{
	{"`", 1, 120, -1, regexp.MustCompile("`([^`\n]{1,120})`")},
	{`"'`, 12, 300, 20, regexp.MustCompile(`"([^"\n]{12,300})"|'([^'\n]{12,300})'`)},
	{"`\"'", 1, 100, -1, regexp.MustCompile("`([^`\n]{1,100})`|\"([^\"\n]{1,100})\"|'([^'\n]{1,100})'")},
}

// quotedRunsByRE is what a case's regular expression finds.
func quotedRunsByRE(re *regexp.Regexp, s string, n int) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, n) {
		out = append(out, strings.Join(m[1:], ""))
	}
	return out
}

func TestQuotedRuns(t *testing.T) {
	long := strings.Repeat("x", 301)
	for _, tt := range []struct {
		text   string
		quotes string
		lo, hi int
		want   []string
	}{
		{"call `foo()` then `bar`", "`", 1, 120, []string{"foo()", "bar"}},
		{"empty `` and `a\nb` and `ok`", "`", 1, 120, []string{" and ", " and "}},
		{`it's "a message that is long enough" and 'short'`, `"'`, 12, 300, []string{"s \"a message that is long enough\" and "}},
		{`"` + long + `" then "another long message" here`, `"'`, 12, 300, []string{"another long message"}},
		{"unclosed `quote", "`", 1, 120, nil},
		{"錯誤 `漢字漢字` done", "`", 1, 4, []string{"漢字漢字"}},
		{"錯誤 `漢字漢字漢` done", "`", 1, 4, nil},
	} {
		got := quotedRuns(tt.text, tt.quotes, tt.lo, tt.hi, -1)
		if !slices.Equal(got, tt.want) {
			t.Errorf("quotedRuns(%q, %q, %d, %d) = %q, want %q", tt.text, tt.quotes, tt.lo, tt.hi, got, tt.want)
		}
	}
	// And what the regular expressions found, on the same texts.
	for _, c := range quotedRunsCases {
		for _, s := range []string{"call `foo()` then `bar`", `it's "a message that is long enough" and 'short'`, "`a` \"bb\" 'ccc' `\n`", "empty `` and `a\nb` and `ok`"} {
			if got, want := quotedRuns(s, c.quotes, c.lo, c.hi, c.n), quotedRunsByRE(c.re, s, c.n); !slices.Equal(got, want) {
				t.Errorf("%s on %q: %q, the expression finds %q", c.re, s, got, want)
			}
		}
	}
}

// FuzzQuotedRuns holds quotedRuns to the regular expressions it replaced.
func FuzzQuotedRuns(f *testing.F) {
	for _, s := range []string{"`a` `b`", `"it's" 'x "y" z'`, "\"12345678901\" \"123456789012\"", "`\xff\xfe`", "'''", "``\n``"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range quotedRunsCases {
			if got, want := quotedRuns(s, c.quotes, c.lo, c.hi, c.n), quotedRunsByRE(c.re, s, c.n); !slices.Equal(got, want) {
				t.Fatalf("%s on %q: %q, the expression finds %q", c.re, s, got, want)
			}
		}
	})
}

// A language the task names gains the codes its locale files go by, where
// a file is named for one; a repository with none gains nothing.
func TestLanguageCodes(t *testing.T) {
	locales := writeFiles(t, map[string]string{
		"src/lang/bg.js":               "// Bulgarian\nexport default { name: 'bg', ordinal: n => `${n}.` }\n",
		"src/lang/de.js":               "// German\nexport default { name: 'de', ordinal: n => `${n}.` }\n",
		"src/lang/nb.js":               "// Norwegian Bokmal\nexport default { name: 'nb' }\n",
		"src/lang/pt-br.js":            "// Portuguese (Brazil)\nexport default { name: 'pt-br' }\n",
		"src/lang/it.js":               "// Italian\nexport default { name: 'it' }\n",
		"src/plugin/isWithin/index.js": "// isWithin compares two dates\nexport default (a, b) => a < b\n",
		"src/format.js":                "export function format(d, locale) { return locale.ordinal(d) }\n",
	})
	folders := writeFiles(t, map[string]string{
		"site/locale/he/formats.py": "DATE_FORMAT = 'j F Y'\n",
		"site/locale/de/formats.py": "DATE_FORMAT = 'j. F Y'\n",
		"site/locale/__init__.py":   "LOCALE_INFO = {}\n",
	})
	plain := writeFiles(t, map[string]string{
		"src/format.js": "export function format(d, locale) { return locale.ordinal(d) }\n",
		"src/german.js": "// German grammar notes\nexport const cases = 4\n",
	})
	for _, tc := range []struct {
		name, repo, task, concept string
		want                      []string // the codes among the concept's forms
	}{
		{"English name", locales, "The Bulgarian translation prints ordinals wrong", "bulgarian", []string{"bg"}},
		{"Chinese name", locales, "德语的序数格式不对", "german", []string{"de"}},
		{"one code of several named", locales, "Norwegian ordinals are wrong", "norwegian", []string{"nb"}},
		{"a region's file", locales, "Portuguese months are capitalized", "portuguese", []string{"pt"}},
		{"no file named for it", plain, "The German translation prints ordinals wrong", "german", nil},
		{"a code that is a stop word", locales, "The Italian months are capitalized", "italian", []string{"it"}},
		{"a stop word's file in a folder", folders, "Hebrew dates are reversed", "hebrew", []string{"he"}},
		{"a code as a word of a camelCase name", locales, "The Icelandic months are capitalized", "icelandic", nil}, // isWithin is no file of Icelandic's
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix, err := buildIndex(tc.repo, index.Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			var c *concept
			for _, x := range analyzeTask(tc.task, ix) {
				if x.label == tc.concept {
					c = x
				}
			}
			if c == nil {
				t.Fatalf("no concept %q", tc.concept)
			}
			var codes []string
			for _, a := range c.alts[1:] {
				if a.source == "glossary" && len(a.label) <= 3 {
					codes = append(codes, a.label)
				}
			}
			if !slices.Equal(codes, tc.want) {
				t.Errorf("codes %q, want %q", codes, tc.want)
			}
		})
	}
}

// TestKeywordUse: import, include and export written as code are found,
// the keyword itself; said in prose, they are not.
func TestKeywordUse(t *testing.T) {
	for s, code := range map[string]bool{
		"from geomkit import *":                   true,
		">>> from a.b import c":                   true,
		"import numpy as np":                      true,
		"x\nimport os\n":                          true,
		"import os\r\n":                           true,
		"#include <stdio.h>":                      true,
		"# include \"a.h\"":                       true,
		"@import 'a.css';":                        true,
		"import (\n":                              true,
		"import \"fmt\"":                          true,
		"import java.util.List;":                  true,
		"import type { A } from 'b'":              true,
		"import React, { useState } from 'react'": true,
		"+import foo":                             true,
		"export default function":                 true,
		"export {a}":                              true,
		"include 'a.php';":                        true,
		"include Comparable":                      true,
		"`import token` 失败":                       true,
		"the import block is cut":                 false,
		"`include()` drops the namespace":         false,
		"Import of modules":                       false,
		"import fails when the path has spaces":   false,
		"  import of modules":                     false,
		"- export crashes on empty token":         false,
		"# import is slow":                        false,
		"data from disk import fails":             false,
		"export fails":                            false,
	} {
		var got []string
		for _, at := range codeKeywords(s) {
			for _, w := range []string{"import", "include", "export"} {
				if strings.HasPrefix(s[at:], w) {
					got = append(got, w)
				}
			}
		}
		switch {
		case code && len(got) != 1:
			t.Errorf("%q: found %q, want the keyword", s, got)
		case !code && len(got) > 0:
			t.Errorf("%q: found %q as code, want prose", s, got)
		}
	}
}

func TestCodeNames(t *testing.T) {
	for _, c := range []struct {
		path, code string
		want       bool
	}{
		{"src/lang/it.js", "it", true},
		{"src/lang/pt-br.js", "pt", true},
		{"src/main/resources/messages_fr.properties", "fr", true},
		{"shop/conf/locale/he/formats.py", "he", true},
		{"shop/conf/locale/de/LC_MESSAGES/shop.po", "de", true},
		{"src/plugin/isWithin/index.js", "is", false},
		{"src/utils/deepMerge.ts", "de", false},
		{"src/main/java/de/acme/web/Server.java", "de", false},
	} {
		if got := codeNames(c.path, c.code); got != c.want {
			t.Errorf("codeNames(%q, %q) = %v, want %v", c.path, c.code, got, c.want)
		}
	}
}
