package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/retrieve"
)

// gitRepo makes a repository of files, committed with message.
func gitRepo(t *testing.T, files map[string]string, message string) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	repo := t.TempDir()
	for name, body := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Skipf("this file system takes no name %q", name)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=hone", "-c", "user.email=hone@example.com", "commit", "-qm", message}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return repo
}

// A file whose name is not UTF-8 comes in the quoted form in every path of
// retrieve_context's answer, the structured form's and the pack's text's
// alike, reasons too, and read_span reads it by that name. The budget
// leaves the pack's header room for its tests, whose reason names the
// file.
func TestRetrieveNamesNotUTF8(t *testing.T) {
	var src strings.Builder
	src.WriteString("def calc_total(items):\n    return sum(items)\n\ndef calc_tax(total):\n    return total * 0.2\n")
	for i := range 400 {
		fmt.Fprintf(&src, "\ndef calc_item_%d(items):\n    total = sum(items) + %d\n    return calc_tax(total)\n", i, i)
	}
	repo := gitRepo(t, map[string]string{
		"cal\xe9.py": src.String(),
		// Named for the file, and matching none of the task's words, so
		// that its reason is the name's, not a call's or the task's.
		"tests/test_cal\xe9.py": "import cal\n\ndef test_cal():\n    assert cal\n",
	}, "calc_total sums the items")
	cs := connect(t, repo)
	res, text := call(t, cs, "retrieve_context", map[string]any{"task": "calc_total calc_tax sum items", "budget_tokens": 6000})
	if res.IsError {
		t.Fatal(text)
	}
	if strings.ContainsRune(text, '\uFFFD') || !strings.Contains(text, `named for "cal\xe9.py"`) {
		t.Errorf("the pack's text does not quote the names:\n%s", text)
	}
	out, raw := structuredAs[RetrieveResult](t, res.StructuredContent)
	if len(out.RelatedTests) == 0 || len(out.PastCommits) == 0 || len(out.Omitted) == 0 {
		t.Fatalf("the answer has no related test, past commit or omitted span to check: %s", raw)
	}
	var paths []string
	for _, f := range out.Files {
		paths = append(paths, f.Path)
	}
	for _, rt := range out.RelatedTests {
		paths = append(append(paths, rt.Path), rt.For...)
		if strings.ContainsRune(rt.Reason, '\uFFFD') {
			t.Errorf("related test %s: reason %q", rt.Path, rt.Reason)
		}
	}
	for _, c := range out.PastCommits {
		paths = append(paths, c.Files...)
	}
	for _, p := range paths {
		if u, err := strconv.Unquote(p); err != nil || (u != "cal\xe9.py" && u != "tests/test_cal\xe9.py") {
			t.Errorf("path %q is not the quoted form of a name of the repository", p)
		}
		if res, text := call(t, cs, "read_span", map[string]any{"path": p, "start_line": 1, "end_line": 1}); res.IsError {
			t.Errorf("read_span of %s: %s", p, text)
		}
	}
	for _, o := range out.Omitted {
		if !strings.HasPrefix(o, `"cal\xe9.py"`) {
			t.Errorf("omitted %q does not start with the quoted name", o)
		}
	}
}

// retrieve_context's answer, its text and its structured form (which
// holds the text: some clients hand the model that alone), each stays
// within maxAnswerTokens however much the pack leaves out: the structured
// form lists the most worth first, as the text does, as many as a quarter
// of the budget holds, and counts the rest.
func TestRetrieveOmittedBounded(t *testing.T) {
	var src strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&src, "def calc_item_%d(items):\n    return sum(items) + %d\n\n", i, i)
	}
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "gen.py"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, repo)
	for _, budget := range []int{0, 700, 6000, maxAnswerTokens} {
		args := map[string]any{"task": "calc_item sum items"}
		if budget > 0 {
			args["budget_tokens"] = budget
		}
		res, text := call(t, cs, "retrieve_context", args)
		if res.IsError {
			t.Fatalf("budget %d: %s", budget, text)
		}
		out, raw := structuredAs[RetrieveResult](t, res.StructuredContent)
		if n := pack.CountTokens(text); n > min(cmp.Or(budget, defaultBudget), maxAnswerTokens) {
			t.Errorf("budget %d: the text holds %d tokens", budget, n)
		}
		if n := pack.CountTokens(raw); n > maxAnswerTokens {
			t.Errorf("budget %d: the structured form holds %d tokens (text %d), over %d", budget, n, pack.CountTokens(text), maxAnswerTokens)
		}
		if out.Pack != text {
			t.Errorf("budget %d: the structured form's pack is not the text", budget)
		}
		listed, _ := json.Marshal(out.Omitted)
		if n := pack.CountTokens(string(listed)); n > max(cmp.Or(budget, defaultBudget)/4, minOmittedRoom)+structuredSlack {
			t.Errorf("budget %d: the omitted list holds %d tokens", budget, n)
		}
		t.Logf("budget %d: text %d, json %d, listed %d, more %d, tokens %d", budget, pack.CountTokens(text), pack.CountTokens(raw), len(out.Omitted), out.OmittedMore, out.Tokens)
		if len(out.Omitted) == 0 || out.OmittedMore == 0 {
			t.Errorf("budget %d: %d omitted listed, %d more: want some of each", budget, len(out.Omitted), out.OmittedMore)
			continue
		}
		// The text's list of what was left out starts as the structured one does.
		if first := "- " + out.Omitted[0] + "\n"; !strings.Contains(text, "## Not included") || !strings.Contains(text, first) {
			t.Errorf("budget %d: the text does not list %q first", budget, out.Omitted[0])
		}
	}
}

// listOmitted lists what fits in its room, in the pack's order, and
// counts the rest.
func TestListOmitted(t *testing.T) {
	var omitted []string
	for i := range 300 {
		omitted = append(omitted, fmt.Sprintf("src/gen/file_%d.py:%d-%d calc_item_%d", i%7, i*3+1, i*3+2, i))
	}
	for _, tt := range []struct {
		name      string
		room      int
		all, none bool
	}{
		{"no room", 0, false, true},
		{"room for the rest of the answer alone", structuredSlack + 40, false, true},
		{"room for some", 1000, false, false},
		{"room for all", 100000, true, false},
	} {
		out := RetrieveResult{Files: []RetrieveFile{}, StopReason: "max_cycles"}
		listOmitted(&out, omitted, tt.room)
		n := len(out.Omitted)
		if n+out.OmittedMore != len(omitted) {
			t.Errorf("%s: %d listed and %d more, of %d", tt.name, n, out.OmittedMore, len(omitted))
		}
		if tt.all != (n == len(omitted)) || tt.none != (n == 0) {
			t.Errorf("%s: %d of %d listed", tt.name, n, len(omitted))
		}
		if n > 0 && structuredTokens(out) > tt.room {
			t.Errorf("%s: %d tokens, over the room of %d", tt.name, structuredTokens(out), tt.room)
		}
		for i, o := range out.Omitted {
			if o != omitted[i] {
				t.Errorf("%s: listed %q at %d, want %q: the most worth first, as the pack has them", tt.name, o, i, omitted[i])
				break
			}
		}
	}
}

// retrieve_context's pack is the command line's: the same result packed
// at the same budget gives the same text, but for the name the budget
// goes by, with no note of its own after it.
func TestRetrievePackIsTheCommandLines(t *testing.T) {
	var src strings.Builder
	for i := range 60 {
		fmt.Fprintf(&src, "\ndef expire_token_%d(token):\n    \"\"\"Drop token %d once its expiry passed.\"\"\"\n    return token.expiry < %d\n", i, i, i)
	}
	files := map[string]string{"tokens.py": src.String(), "session.py": "def refresh_session(token):\n    return token\n"}
	repo := gitRepo(t, files, "token expiry")
	task := "token expiry is checked too late"
	cs := connect(t, repo)
	for _, budget := range []int{800, 2000} {
		res, text := call(t, cs, "retrieve_context", map[string]any{"task": task, "budget_tokens": budget})
		if res.IsError {
			t.Fatal(text)
		}
		r, err := retrieve.Retrieve(context.Background(), repo, task, hone.Options{IndexDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		past, err := history.Added(context.Background(), repo, "", r.PastCommits)
		if err != nil {
			t.Fatal(err)
		}
		cli := pack.Build(r, repo, pack.Options{Budget: packBudget(r, budget), PastLines: past})
		if len(cli.Omitted) == 0 {
			t.Fatalf("budget %d: nothing left out; the test wants a pack cut to its budget", budget)
		}
		if want := strings.ReplaceAll(cli.Text, "--budget", "budget_tokens"); text != want {
			t.Errorf("budget %d: retrieve_context's text differs from the command line's pack:\n%s\n---\n%s", budget, text, want)
		}
	}
}
