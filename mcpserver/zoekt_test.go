package mcpserver

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hone-tools/hone/zoekt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeZoekt answers every search with the fixture repository's files, in
// zoekt's shapes (package zoekt tests them against a real server's).
func fakeZoekt(t *testing.T, repo string) *httptest.Server {
	type fm struct {
		FileName, Repository, Language string
		Content                        []byte
	}
	var files []fm
	root := filepath.Join("..", "testdata", "repos", repo)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files = append(files, fm{FileName: filepath.ToSlash(rel), Repository: repo, Language: "TypeScript", Content: b})
		return nil
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/search":
			// The query's file filters are kept, as a cluster keeps
			// them; its other terms are not read.
			var args struct{ Q string }
			json.NewDecoder(r.Body).Decode(&args)
			var hits []fm
			for _, f := range files {
				if fileFiltersMatch(args.Q, f.FileName) {
					hits = append(hits, f)
				}
			}
			json.NewEncoder(w).Encode(map[string]any{"Result": map[string]any{"Files": hits, "FileCount": len(hits)}})
		case "/api/list":
			json.NewEncoder(w).Encode(map[string]any{"List": map[string]any{"Repos": []any{map[string]any{
				"Repository": map[string]any{"Name": repo}, "Stats": map[string]any{"Documents": len(files), "ContentBytes": 30000}}}}})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// fileFiltersMatch reports whether a file's path meets every f: and -f:
// of a zoekt query.
func fileFiltersMatch(q, path string) bool {
	for _, m := range regexp.MustCompile(`(^|[\s(])(-?)f:(\S+)`).FindAllStringSubmatch(q, -1) {
		re, err := regexp.Compile(m[3])
		if err != nil || re.MatchString(path) == (m[2] == "-") {
			return false
		}
	}
	return true
}

// connectZoekt starts a server over a fake cluster of one fixture
// repository, and a client beside it.
func connectZoekt(t *testing.T, repo string) *mcp.ClientSession {
	t.Helper()
	c, err := zoekt.New(fakeZoekt(t, repo).URL, []string{repo})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewZoekt(c, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return connectServer(t, srv)
}

// Over a zoekt cluster, retrieve_context, search_code and file_outline
// answer from what the cluster holds, and read_span reads it;
// index_status says the cluster's index is its own.
func TestZoektServer(t *testing.T) {
	cs := connectZoekt(t, "auth-expiry")
	res, text := call(t, cs, "retrieve_context", map[string]any{"task": "fix the auth token expiry bug"})
	if res.IsError || !strings.Contains(text, "Searched: zoekt at ") {
		t.Fatalf("retrieve_context: %s", text)
	}
	var out RetrieveResult
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	if len(out.Files) == 0 {
		t.Fatalf("no files: %s", text)
	}
	res, text = call(t, cs, "read_span", map[string]any{"path": out.Files[0].Path, "start_line": 1, "end_line": 3})
	if res.IsError || !strings.Contains(text, "1") {
		t.Errorf("read_span %s: %s", out.Files[0].Path, text)
	}
	res, text = call(t, cs, "search_code", map[string]any{"query": "refreshSession"})
	if res.IsError || !strings.Contains(text, "refreshSession") {
		t.Errorf("search_code over zoekt: %v %s", res.IsError, text)
	}
	res, text = call(t, cs, "file_outline", map[string]any{"path": "src/session/session-manager.ts"})
	if res.IsError || !strings.Contains(text, "refreshSession") {
		t.Errorf("file_outline over zoekt: %v %s", res.IsError, text)
	}
	res, text = call(t, cs, "index_status", map[string]any{})
	if !res.IsError || !strings.Contains(text, "the cluster's own") {
		t.Errorf("index_status over zoekt: %v %s", res.IsError, text)
	}
	// Asked for its model, a client that cannot sample is told so, as
	// over an index.
	res, text = call(t, cs, "retrieve_context", map[string]any{"task": "fix the auth token expiry bug", "use_my_model": true})
	out = RetrieveResult{}
	b, _ = json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &out)
	if res.IsError || !strings.Contains(out.Notice, "does not support MCP sampling") {
		t.Errorf("use_my_model over zoekt, no sampling: notice %q; %s", out.Notice, text)
	}
}

// A file no search fetched yet is fetched when read_span or file_outline
// asks for it.
func TestZoektFetchesOnRead(t *testing.T) {
	cs := connectZoekt(t, "auth-expiry")
	res, text := call(t, cs, "file_outline", map[string]any{"path": "src/auth/tokens.ts"})
	if res.IsError || !strings.Contains(text, "tokenExpiresAt") {
		t.Errorf("file_outline: %s", text)
	}
	res, text = call(t, cs, "read_span", map[string]any{"path": "src/lib/jwt-utils.ts", "start_line": 1, "end_line": 2})
	if res.IsError {
		t.Errorf("read_span: %s", text)
	}
	res, text = call(t, cs, "read_span", map[string]any{"path": "src/nowhere.ts", "start_line": 1})
	if !res.IsError || !strings.Contains(text, "no such file") {
		t.Errorf("read_span of a file the cluster lacks: %s", text)
	}
}
