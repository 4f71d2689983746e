package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSearchCodeBestLines: the lines search_code shows of a file are those
// holding the most of the query, the rarer terms counting more and an
// identifier matched whole more than its parts, in line order; not the
// first lines that hold any one term.
func TestSearchCodeBestLines(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"sessions.py": `"""Sessions keep their data in a signed cookie."""
# Each cookie is signed with the secret key.
COOKIE_NAME = "session"  # the name of the cookie
# To log out, delete the cookie.
# A cookie is deleted by sending it again, expired: delete it so.

samesite = "Lax"
def save_session(response, session, name):
    if not session:
        response.delete_cookie(name, samesite=samesite)
`,
		// Cookies are common in the repository; samesite is not.
		"cookies.py": "def read_cookie(request):\n    return request.cookies\n",
		"config.py":  "COOKIE_DOMAIN = None  # the cookie's domain\n",
		"README.md":  "The session lives in a cookie.\n",
		"app.py":     "def handle(request):\n    return request.path\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, repo)
	cases := []struct {
		query string
		want  []int // lines of sessions.py shown, in order
	}{
		// The identifier whole and another term, on a late line, beat the
		// first lines that say cookie; delete, as rare as samesite here,
		// with cookie beats samesite alone.
		{"delete_cookie samesite", []int{4, 5, 10}},
		// The identifier whole beats its parts, which beat one of them.
		{"delete_cookie", []int{4, 5, 10}},
		// The rare term beats the common one; of lines weighing the same,
		// the first.
		{"cookie samesite", []int{1, 7, 10}},
		// One term: the first lines holding it.
		{"cookie", []int{1, 2, 3}},
	}
	for _, c := range cases {
		out, text := searchCode(t, cs, c.query)
		var got []int
		for _, h := range out.Hits {
			if h.Path != "sessions.py" {
				continue
			}
			for _, l := range h.Lines {
				n, _, _ := strings.Cut(l, ":")
				got = append(got, atoi(n))
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: sessions.py shows lines %v, want %v:\n%s", c.query, got, c.want, text)
		}
	}
}

// searchCode calls search_code and returns its structured answer and its
// text.
func searchCode(t testing.TB, cs *mcp.ClientSession, query string) (SearchResult, string) {
	t.Helper()
	res, text := call(t, cs, "search_code", map[string]any{"query": query})
	if res.IsError {
		t.Fatalf("%q: %s", query, text)
	}
	var out SearchResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out, text
}

// search_code's structured lines are its text's: control characters (an
// escape sequence, a bell, a lone carriage return) and bytes that are not
// UTF-8 are cleaned from both alike.
func TestSearchCodeLinesClean(t *testing.T) {
	repo := t.TempDir()
	body := "def token_expiry(value):\n" +
		"    token = \"\x1b[31mred\x1b[0m\"  # expiry\n" +
		"    expiry = \"\a\"\r  # token\n" +
		"    return token, expiry, \"\xff\"\n"
	if err := os.WriteFile(filepath.Join(repo, "tokens.py"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, repo)
	out, text := searchCode(t, cs, "token expiry")
	if len(out.Hits) != 1 || len(out.Hits[0].Lines) != 3 {
		t.Fatalf("want 3 lines of one hit: %+v", out.Hits)
	}
	for _, l := range out.Hits[0].Lines {
		if strings.ContainsAny(l, "\x1b\a\r\x00") || !strings.Contains(text, "  "+l+"\n") {
			t.Errorf("line %q is not clean, or not as the text shows it:\n%q", l, text)
		}
	}
	if strings.ContainsAny(text, "\x1b\a\r") {
		t.Errorf("the text holds a control character: %q", text)
	}
}

// TestSearchCodeRanking: the file that defines a name the query writes
// outranks the test and the document that say it more often; tests come
// first when the query asks for them.
func TestSearchCodeRanking(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"command.go": "package cli\n\n// PersistentFlags are the flags of the command and its children.\nfunc (c *Command) PersistentFlags() *FlagSet {\n\treturn c.pflags\n}\n" +
			strings.Repeat("\nfunc (c *Command) other() {\n\tc.run(c.args, c.flags, c.parent)\n}\n", 20),
		"command_test.go": "package cli\n\nfunc TestPersistentFlags(t *testing.T) {\n\tc.PersistentFlags().Bool(\"a\")\n\tc.PersistentFlags().Bool(\"b\")\n" +
			strings.Repeat("\tc.PersistentFlags().Bool(\"c\")\n", 6) + "\tif c.PersistentFlags().Lookup(\"a\") == nil {\n\t\tt.Fatal(\"PersistentFlags lost a\")\n\t}\n}\n",
		"docs/guide.md":  "# Flags\n\nPersistentFlags are inherited. Use PersistentFlags for global flags:\n\n    root.PersistentFlags().String(\"config\")\n\nPersistentFlags again.\n",
		"completions.go": "package cli\n\nfunc complete(c *Command) {\n\tc.PersistentFlags().VisitAll(show)\n}\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, repo)
	for _, c := range []struct{ query, first string }{
		{"PersistentFlags", "command.go"},
		{"Command.PersistentFlags", "command.go"},
		{"PersistentFlags test", "command_test.go"},
	} {
		out, text := searchCode(t, cs, c.query)
		if len(out.Hits) == 0 || out.Hits[0].Path != c.first {
			t.Errorf("%q: %s first, want %s:\n%s", c.query, first(out.Hits), c.first, text)
		}
	}
}

func first(hits []SearchHit) string {
	if len(hits) == 0 {
		return "nothing"
	}
	return hits[0].Path
}

// A query in Chinese searches the English of its words, and full-width
// letters read as ASCII, as retrieve_context reads a task; a limit over
// the most is refused; and an answer whose files the limit cut says more
// matched.
func TestSearchCodeWordsAndLimits(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		"router_group.go": "package web\n\n// RouterGroup groups the routes under a prefix, with their middleware.\ntype RouterGroup struct {\n\tHandlers []HandlerFunc\n}\n\nfunc (group *RouterGroup) Use(middleware ...HandlerFunc) {\n\tgroup.Handlers = append(group.Handlers, middleware...)\n}\n",
		"context.go":      "package web\n\n// Context carries a request.\ntype Context struct{}\n",
	}
	for i := range 4 {
		files[fmt.Sprintf("route%d.go", i)] = fmt.Sprintf("package web\n\n// route%d is a route.\nfunc route%d() {}\n", i, i)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, repo)
	for _, q := range []string{"为路由组添加中间件", "ＲｏｕｔｅｒＧｒｏｕｐ"} {
		out, text := searchCode(t, cs, q)
		if first(out.Hits) != "router_group.go" {
			t.Errorf("%q: %s first, want router_group.go:\n%s", q, first(out.Hits), text)
		}
	}
	res, text := call(t, cs, "search_code", map[string]any{"query": "route", "limit": 51})
	if !res.IsError || !strings.Contains(text, "limit must be at most 50") {
		t.Errorf("limit 51: error %v, %q", res.IsError, text)
	}
	res, text = call(t, cs, "search_code", map[string]any{"query": "route", "limit": 2})
	out, _ := structuredAs[SearchResult](t, res.StructuredContent)
	if res.IsError || len(out.Hits) != 2 || !out.More || !strings.Contains(text, "More files matched") {
		t.Errorf("limit 2 of 5 files: %d hits, more %v:\n%s", len(out.Hits), out.More, text)
	}
	res, text = call(t, cs, "search_code", map[string]any{"query": "RouterGroup"})
	if out, _ := structuredAs[SearchResult](t, res.StructuredContent); out.More || strings.Contains(text, "More files matched") {
		t.Errorf("one file matched, and the answer says more did:\n%s", text)
	}
	res, text = call(t, cs, "retrieve_context", map[string]any{"task": "route group middleware", "budget_tokens": 50000})
	if !res.IsError || !strings.Contains(text, "budget_tokens must be at most 20000") {
		t.Errorf("budget_tokens 50000: error %v, %q", res.IsError, text)
	}
}
