package zoekt

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hone-tools/hone"
)

// -record URL records the answers of a real zoekt-webserver, started with
// -rpc over shards of the fixture repositories, into testdata/recorded:
//
//	zoekt-index -index /tmp/zfx testdata/repos/auth-expiry (and the others)
//	zoekt-webserver -rpc -index /tmp/zfx -listen 127.0.0.1:6071
//	go test ./zoekt -record http://127.0.0.1:6071
//
// Without it, the tests replay what was recorded: the answers' shapes are
// a real server's.
var record = flag.String("record", "", "record the answers of the zoekt-webserver at this URL into testdata/recorded")

// recording is one recorded answer.
type recording struct {
	Path   string          `json:"path"`
	Q      string          `json:"q"`
	Max    int             `json:"max"`
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

func recordingFile(apiPath, q string, max int) string {
	key := fmt.Sprintf("%s\x00%d", q, max)
	if apiPath != "/api/search" {
		key = apiPath + "\x00" + key
	}
	h := sha256.Sum256([]byte(key))
	return filepath.Join("testdata", "recorded", hex.EncodeToString(h[:8])+".json.gz")
}

// replay serves the recorded answers to the queries it is sent; with
// -record, it asks the real server and records its answers.
func replay(t testing.TB) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var args searchArgs
		if err := json.Unmarshal(body, &args); err != nil || (r.URL.Path != "/api/search" && r.URL.Path != "/api/list") {
			t.Errorf("request %s %s", r.URL.Path, body)
			w.WriteHeader(400)
			return
		}
		f := recordingFile(r.URL.Path, args.Q, args.Opts.MaxDocDisplayCount)
		if *record != "" {
			resp, err := http.Post(*record+r.URL.Path, "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatalf("record: %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			rec := recording{Path: r.URL.Path, Q: args.Q, Max: args.Opts.MaxDocDisplayCount, Status: resp.StatusCode, Body: b}
			out, _ := json.Marshal(rec)
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(out)
			zw.Close()
			os.MkdirAll(filepath.Dir(f), 0o755)
			tmp := fmt.Sprintf("%s.%d.tmp", f, time.Now().UnixNano())
			if err := os.WriteFile(tmp, gz.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Rename(tmp, f)
		}
		b, err := readGzip(f)
		if err != nil {
			t.Errorf("no recorded answer to %q (max %d): record with -record URL", args.Q, args.Opts.MaxDocDisplayCount)
			w.WriteHeader(500)
			io.WriteString(w, `{"Error":"not recorded"}`)
			return
		}
		var rec recording
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Status)
		w.Write(rec.Body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func client(t testing.TB, url string, repos ...string) *Client {
	t.Helper()
	c, err := New(url, repos)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A real server's answer reads as files, whole, each with its repository,
// path and language.
func TestRecordedSearch(t *testing.T) {
	c := client(t, replay(t).URL)
	files, err := c.Search(context.Background(), "case:no (token or expiry)", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 || len(files) > 5 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		if f.Repo == "" || f.Path == "" || f.Language == "" || len(f.Content) == 0 {
			t.Errorf("file %+v", f)
		}
	}
	if files[0].Path != "src/auth/tokens.ts" || !bytes.Contains(files[0].Content, []byte("tokenExpiresAt")) {
		t.Errorf("first file %s: %.60q", files[0].Path, files[0].Content)
	}
}

// The repository filter keeps the search to the repositories named.
func TestRepoFilter(t *testing.T) {
	c := client(t, replay(t).URL, "auth-expiry")
	files, err := c.Search(context.Background(), "case:no (limit or token)", 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no file")
	}
	for _, f := range files {
		if f.Repo != "auth-expiry" {
			t.Errorf("%s/%s is outside the filter", f.Repo, f.Path)
		}
	}
}

// Each way a server fails is one line that says what to do.
func TestErrors(t *testing.T) {
	// A bad query: zoekt's own message.
	_, err := client(t, replay(t).URL).Search(context.Background(), "((", 5)
	if err == nil || !strings.Contains(err.Error(), "HTTP 400: error parsing regexp: missing closing )") {
		t.Errorf("bad query: %v", err)
	}

	// Nobody there.
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL
	dead.Close()
	c := client(t, url)
	c.Retries = 1
	_, err = c.Search(context.Background(), "x", 5)
	if err == nil || !strings.Contains(err.Error(), "cannot reach zoekt at "+url+": is zoekt-webserver running there, with -rpc? (after 2 attempts)") {
		t.Errorf("down: %v", err)
	}

	for _, tt := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"html: no -rpc", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html><body>Zoekt search</body></html>")
		}, "something other than zoekt's JSON: is it zoekt-webserver, started with -rpc?"},
		{"not found", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }, "has no search API (HTTP 404): start zoekt-webserver with -rpc"},
		{"too large", func(w http.ResponseWriter, r *http.Request) {
			w.Write(bytes.Repeat([]byte("x"), 2<<20))
		}, "answered with over 1 MiB: narrow the search to fewer repositories (hone's --zoekt-repos)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			c := client(t, srv.URL)
			c.MaxBytes = 1 << 20
			_, err := c.Search(context.Background(), "x", 5)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%v, want %q", err, tt.want)
			}
		})
	}
}

// A 5xx is tried again; an attempt that takes too long is given up, and
// so is the search after its retries.
func TestRetriesAndTimeouts(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.WriteHeader(503)
			io.WriteString(w, `{"Error":"shards loading"}`)
			return
		}
		io.WriteString(w, `{"Result":{"Files":[{"FileName":"a.go","Repository":"r","Language":"Go","Content":"cGFja2FnZSBh"}]}}`)
	}))
	defer srv.Close()
	files, err := client(t, srv.URL).Search(context.Background(), "x", 5)
	if err != nil || len(files) != 1 || string(files[0].Content) != "package a" || n.Load() != 2 {
		t.Errorf("%v, %+v after %d attempts", err, files, n.Load())
	}

	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	defer close(release)
	c := client(t, slow.URL)
	c.Timeout, c.Retries = 100*time.Millisecond, 1
	start := time.Now()
	_, err = c.Search(context.Background(), "x", 5)
	if err == nil || !strings.Contains(err.Error(), "gave no answer in 100ms (after 2 attempts)") || time.Since(start) > 3*time.Second {
		t.Errorf("%v after %s", err, time.Since(start))
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	c.Timeout = 5 * time.Second
	if _, err := c.Search(ctx, "x", 5); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

func TestNew(t *testing.T) {
	for _, tt := range []struct{ url, want string }{
		{"localhost:6070", "not an http(s) URL"},
		{"http://u:p@host:6070", "user or password"},
		{"ftp://host", "not an http(s) URL"},
	} {
		if _, err := New(tt.url, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%q): %v, want %q", tt.url, err, tt.want)
		}
	}
	c, err := New("http://localhost:6070/", []string{" a ", "", "b"})
	if err != nil || c.URL != "http://localhost:6070" || len(c.Repos) != 2 || c.Name() != "zoekt at http://localhost:6070 (a, b)" {
		t.Errorf("%+v, %v", c, err)
	}
}

func TestQueries(t *testing.T) {
	if got, want := TaskQuery("Fix the token expiry in refreshSession (the auth bug)", nil, []string{"dist"}), `case:no (refreshSession or token or expiry or auth) -f:(^|/)dist(/|$)`; got != want {
		t.Errorf("TaskQuery: %q, want %q", got, want)
	}
	q := hone.Query{
		Terms: []hone.Term{
			{Concept: "rate limit", Kind: "word", Label: "rate limit"},
			{Concept: "rate limit", Kind: "word", Label: "throttle"},
			{Concept: "api", Kind: "word", Label: "api"},
			{Concept: "session", Kind: "learned", Label: "session"},
			{Concept: "a.go", Kind: "path", Label: "src/a.go"},
		},
		Gaps: []hone.Gap{{Name: "verifyJwt", Kind: "call"}, {Name: "the router", Kind: "concept"}},
	}
	got := LoopQueries(q, []string{"src/**/*.ts"}, nil)
	want := []string{
		`(f:^src/(.*/)?[^/]*\.ts(/|$) ) case:no (rate[\s_-]*limit or rate or limit or throttle or api)`,
		`(f:^src/(.*/)?[^/]*\.ts(/|$) ) case:no (rate[\s_-]*limit or throttle)`,
		`(f:^src/(.*/)?[^/]*\.ts(/|$) ) case:no (api)`,
		`(f:^src/(.*/)?[^/]*\.ts(/|$) ) case:no (session)`,
		`(f:^src/(.*/)?[^/]*\.ts(/|$) ) sym:verifyJwt`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("LoopQueries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestGlobRegexp(t *testing.T) {
	for _, tt := range []struct{ glob, re string }{
		{"*.go", `(^|/)[^/]*\.go(/|$)`},
		{"src/**/*.ts", `^src/(.*/)?[^/]*\.ts(/|$)`},
		{"src/auth", `^src/auth(/|$)`},
		{"src/auth/", `^src/auth/`},
		{"*.{ts,tsx}", `(^|/)[^/]*\.(ts|tsx)(/|$)`},
		{"test_?.py", `(^|/)test_[^/]\.py(/|$)`},
		{"[!a]*.c", `(^|/)[^a][^/]*\.c(/|$)`},
		// Braces and brackets that do not close are the text they are.
		{"{a,b", `(^|/)\{a,b(/|$)`},
		{"a}b*", `(^|/)a\}b[^/]*(/|$)`},
		{"{a,{b,c}", `(^|/)\{a,(b|c)(/|$)`},
		{"x[*", `(^|/)x\[[^/]*(/|$)`},
		// A ']' first in a bracket is one of its characters; POSIX
		// classes are kept.
		{"[]x]*", `(^|/)[\]x][^/]*(/|$)`},
		{"[]x*", `(^|/)\[\]x[^/]*(/|$)`},
		{"[[:alpha:]]*", `(^|/)[[:alpha:]][^/]*(/|$)`},
		{"[a-c]?", `(^|/)[a-c][^/](/|$)`},
		{"[z-a]*", `(^|/)\[z-a\]\*(/|$)`},
		{"[{]*.go", `(^|/)[{][^/]*\.go(/|$)`},
		{".", `^`},
		// As in .gitignore: a name at any depth, a leading slash the root,
		// a trailing one folders alone.
		{"migrations", `(^|/)migrations(/|$)`},
		{"**/migrations", `^(.*/)?migrations(/|$)`},
		{"/vendor", `^vendor(/|$)`},
		{"./src", `^src(/|$)`},
		{"**/**", `^.*/`},
		{`[\0]*`, `(^|/)[0][^/]*(/|$)`},
		{"build/", `(^|/)build/`},
		{"*.egg-info/", `(^|/)[^/]*\.egg-info/`},
		{"./", `^`},
	} {
		if got := GlobRegexp(tt.glob); got != tt.re {
			t.Errorf("GlobRegexp(%q) = %q, want %q", tt.glob, got, tt.re)
		}
	}
}

func FuzzGlobRegexp(f *testing.F) {
	for _, g := range []string{"*.go", "src/**/x", "{a,b", "[", `\`, "a}b"} {
		f.Add(g)
	}
	f.Fuzz(func(t *testing.T, g string) {
		re := GlobRegexp(g)
		if _, err := regexp.Compile(re); err != nil {
			t.Fatalf("GlobRegexp(%q) = %q, no expression: %v", g, re, err)
		}
	})
}

func readGzip(f string) ([]byte, error) {
	fh, err := os.Open(f)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// TestErrorMessage: the cluster's error is redacted before it is cut (a
// token the cut split would pass in pieces), and cut between characters.
func TestErrorMessage(t *testing.T) {
	const token = "ghp_rPmvA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6"
	got := errorMessage([]byte(`{"Error":"` + strings.Repeat("x", 185) + " " + token + `"}`))
	if strings.Contains(got, "ghp_rPmv") {
		t.Errorf("the error shows the token's head: %q", got)
	}
	got = errorMessage([]byte(`{"Error":"` + strings.Repeat("é", 150) + `"}`))
	if !utf8.ValidString(got) {
		t.Errorf("the error is cut inside a character: %q", got)
	}
}
