package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInputLimits: every text a tool takes has a limit, checked at once,
// and no error repeats more than 200 bytes of what it was given, not even
// the SDK's own errors.
func TestInputLimits(t *testing.T) {
	cs := connect(t, fixture)
	big := strings.Repeat("x", 10<<20)
	mid := strings.Repeat("x", 2<<20)
	many := make([]string, maxGlobs+1)
	for i := range many {
		many[i] = "src/*.ts"
	}
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"10 MB task", "retrieve_context", map[string]any{"task": big}, "the task is 10485760 bytes long, over the 1048576"},
		{"task just over", "retrieve_context", map[string]any{"task": strings.Repeat("y ", maxTaskBytes/2) + "y"}, "over the 1048576"},
		{"include globs", "retrieve_context", map[string]any{"task": "token expiry", "include": many}, "over the 100 it may have"},
		{"long exclude glob", "retrieve_context", map[string]any{"task": "token expiry", "exclude": []string{mid}}, "exclude glob 1 is 2097152 bytes long"},
		{"2 MB query", "search_code", map[string]any{"query": mid}, "the query is 2097152 bytes long"},
		{"query globs", "search_code", map[string]any{"query": "token", "exclude": many}, "over the 100 it may have"},
		{"long include glob", "search_code", map[string]any{"query": "token", "include": []string{mid}}, "include glob 1 is 2097152 bytes long"},
		{"10 MB path", "read_span", map[string]any{"path": big, "start_line": 1}, "the path is 10485760 bytes long, over the 4096"},
		{"2 MB path", "file_outline", map[string]any{"path": mid}, "the path is 2097152 bytes long, over the 4096"},
		{"path at the limit", "read_span", map[string]any{"path": strings.Repeat("x", maxPathBytes), "start_line": 1}, "no such file"},
		{"query with no words", "search_code", map[string]any{"query": strings.Repeat("the ", 1000)}, "has no words to search for: common words"},
		{"start_line a 2 MB string", "read_span", map[string]any{"path": "a.go", "start_line": mid}, "start_line must be a whole number, not a string"},
		{"path null", "read_span", map[string]any{"path": nil, "start_line": 1}, "path must be a string, not null"},
		{"path an array", "read_span", map[string]any{"path": []string{"a"}, "start_line": 1}, "path must be a string, not an array"},
		{"a 2 MB argument name", "read_span", map[string]any{"path": "a.go", "start_line": 1, mid: 1}, ": no such argument of this tool; tools/list names its arguments"},
		{"an unknown argument", "retrieve_context", map[string]any{"task": "token expiry", "bogus": 1}, `"bogus": no such argument of this tool`},
		{"two unknown arguments", "search_code", map[string]any{"query": "token", "bogus": 1, "other": 2}, `"bogus" and "other": no such argument`},
		{"no task", "retrieve_context", map[string]any{}, `"task" is needed: give it`},
		{"no path nor start_line", "read_span", map[string]any{}, `"path" and "start_line" are needed: give them`},
		{"a glob for a list", "retrieve_context", map[string]any{"task": "token expiry", "include": "src/**"}, "include must be an array, not a string"},
		{"a fraction for a count", "retrieve_context", map[string]any{"task": "token expiry", "budget_tokens": 1.5}, "budget_tokens must be a whole number, not a fraction"},
		{"max_cycles below 0", "retrieve_context", map[string]any{"task": "token expiry", "max_cycles": -3}, "max_cycles must be at least 0, not -3: give another value, or leave it out for the default"},
		{"max_cycles over 10", "retrieve_context", map[string]any{"task": "token expiry", "max_cycles": 11}, "max_cycles must be at most 10, not 11"},
		// Globs that are none, and counts below any default, are refused
		// as the command line refuses them, not taken for the default.
		{"a bracket that does not close", "search_code", map[string]any{"query": "token", "include": []string{"["}}, `bad glob "[" in include: check its brackets and braces`},
		{"a brace that does not close", "search_code", map[string]any{"query": "token", "exclude": []string{"{a,b"}}, `bad glob "{a,b" in exclude`},
		{"an empty glob", "search_code", map[string]any{"query": "token", "include": []string{"src/**", ""}}, "include glob 2 is empty, which matches no file: leave it out"},
		{"a bad glob in retrieve_context", "retrieve_context", map[string]any{"task": "token expiry", "include": []string{"src/[a"}}, `bad glob "src/[a" in include`},
		{"max_files below 0", "retrieve_context", map[string]any{"task": "token expiry", "max_files": -3}, "max_files must be at least 0, not -3"},
		{"budget_tokens below 0", "retrieve_context", map[string]any{"task": "token expiry", "budget_tokens": -5}, "budget_tokens must be at least 0, not -5"},
		{"budget_tokens too small for a pack", "retrieve_context", map[string]any{"task": "token expiry", "budget_tokens": 5}, "budget_tokens must be at least 32, not 5"},
		{"limit below 0", "search_code", map[string]any{"query": "token", "limit": -1}, "limit must be at least 0, not -1"},
		{"start_line 0", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": 0}, "start_line is 1-based: give 1 or more, not 0"},
		{"start_line below 0", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": -1}, "start_line is 1-based"},
		{"start_column below 0", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": 1, "start_column": -4}, "start_column must be at least 0, not -4"},
		{"end_line below 0", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": 1, "end_line": -2}, "end_line must be at least 0, not -2"},
		// JSON's numbers reach the tools as floats: the largest int64
		// arrives as 2^63, and the error says what is taken.
		{"budget_tokens past an integer", "retrieve_context", map[string]any{"task": "token expiry", "budget_tokens": 1e30}, "budget_tokens must be at most 20000, not 1e+30: give another value"},
		{"budget_tokens far below an integer", "retrieve_context", map[string]any{"task": "token expiry", "budget_tokens": -1e30}, "budget_tokens must be at least 0, not -1e+30"},
		{"start_line past an integer", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": 9223372036854775807.0 * 4}, "start_line must be a whole number from"},
		{"start_line the largest int64", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": int64(9223372036854775807)}, "start_line must be a whole number from -9223372036854775808 to 9223372036854774784"},
		{"start_line the largest taken", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": int64(maxIntArgument)}, "start_line is past the end of every file read_span reads (1073741824 lines at most)"},
		{"start_line past every file", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": maxPosition + 1}, "past the end of every file read_span reads"},
		{"start_column past every line", "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": 1, "start_column": int64(maxIntArgument)}, "start_column is past the end of every line read_span reads (1073741824 bytes at most)"},
	} {
		start := time.Now()
		res, text := call(t, cs, tt.tool, tt.args)
		took := time.Since(start)
		if !res.IsError || !strings.Contains(text, tt.want) {
			t.Errorf("%s: error %v, %.300q; want %q", tt.name, res.IsError, text, tt.want)
		}
		if len(text) > maxErrorBytes+len("…") {
			t.Errorf("%s: an error of %d bytes: %.300q", tt.name, len(text), text)
		}
		if strings.Contains(text, strings.Repeat("x", 201)) || strings.Contains(text, strings.Repeat("the ", 51)) {
			t.Errorf("%s: the error repeats over 200 bytes of its input: %q", tt.name, text)
		}
		if took > 10*time.Second {
			t.Errorf("%s: %v to refuse", tt.name, took)
		}
	}
	// An end_line past every file reads to the end of the file.
	for _, end := range []int64{maxPosition, maxPosition + 1, maxIntArgument} {
		res, text := call(t, cs, "read_span", map[string]any{"path": "src/auth/tokens.ts", "start_line": 1, "end_line": end})
		if res.IsError || !strings.HasPrefix(text, "1: ") {
			t.Errorf("end_line %d: error %v, %.300q", end, res.IsError, text)
		}
	}
	// An unknown tool's name is cut too, in a JSON-RPC error.
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mid})
	if err == nil || len(err.Error()) > maxErrorBytes+100 {
		t.Errorf("unknown tool: %.400v", err)
	}
}

// TestFileOutlineSizeLimit: file_outline reads no more than the index
// does, and refuses what is not a regular file.
func TestFileOutlineSizeLimit(t *testing.T) {
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "big.go"), []byte("package big\n"+strings.Repeat("var x = 1\n", 110000)), 0o644)
	os.WriteFile(filepath.Join(repo, "small.go"), []byte("package small\n\nfunc F() {}\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "blob.bin"), []byte("GIF89a\x00\x01\x02\n"), 0o644)
	os.Mkdir(filepath.Join(repo, "dir"), 0o755)
	cs := connect(t, repo)
	for _, tt := range []struct{ path, want string }{
		{"big.go", "over the 1048576 bytes hone indexes and outlines"},
		// As read_span says it.
		{"blob.bin", "blob.bin is a binary file: hone reads and outlines text files only"},
		{"dir", "not a regular file"},
		{"/dev/zero", "is absolute"},
	} {
		res, text := call(t, cs, "file_outline", map[string]any{"path": tt.path})
		if !res.IsError || !strings.Contains(text, tt.want) {
			t.Errorf("file_outline %s: %q; want %q", tt.path, text, tt.want)
		}
	}
	if res, text := call(t, cs, "file_outline", map[string]any{"path": "small.go"}); res.IsError || !strings.Contains(text, "function F") {
		t.Errorf("file_outline small.go: %q", text)
	}
}

// The ranges of the count arguments are in the tools' input schemas, each
// named for a property the tool has, for a model to read in tools/list.
func TestSchemaBounds(t *testing.T) {
	cs := connect(t, fixture)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]map[string]any{}
	for _, tl := range tools.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		var s struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		schemas[tl.Name] = s.Properties
	}
	for tool, bounds := range map[string]map[string]bound{"retrieve_context": retrieveBounds, "search_code": searchBounds, "read_span": spanBounds} {
		for name, b := range bounds {
			p, ok := schemas[tool][name].(map[string]any)
			if !ok {
				t.Errorf("%s has no property %s", tool, name)
				continue
			}
			if p["minimum"] != b.min || b.max != 0 && p["maximum"] != b.max {
				t.Errorf("%s.%s: minimum %v, maximum %v; want %v, %v", tool, name, p["minimum"], p["maximum"], b.min, b.max)
			}
		}
	}
	if p := schemas["retrieve_context"]["budget_tokens"].(map[string]any); p["maximum"] != float64(maxAnswerTokens) {
		t.Errorf("budget_tokens' maximum %v", p["maximum"])
	}
}
