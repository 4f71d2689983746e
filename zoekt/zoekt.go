// Package zoekt is hone's search backend over a zoekt cluster: it speaks
// zoekt-webserver's JSON search API (POST /api/search, served with -rpc)
// and gives hone's loop the files that its queries find, whole, each named
// by its repository and path.
//
// zoekt is Sourcegraph's code search engine: sharded trigram indexes,
// symbols from ctags, and one webserver in front of any number of
// repositories. Nothing of zoekt is imported: the API's JSON is all hone
// needs, and the shapes it reads are recorded from a real server in
// testdata.
package zoekt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/fanout"
	"github.com/hone-tools/hone/redact"
)

// Defaults of a Client.
const (
	DefaultTimeout  = 20 * time.Second
	DefaultMaxBytes = 64 << 20
	DefaultRetries  = 2
)

// Client searches a zoekt-webserver.
type Client struct {
	// URL is the webserver's root, such as http://localhost:6070.
	URL string
	// Repos, if set, are the repositories searched, by their names in
	// zoekt (github.com/org/name); none means all.
	Repos []string
	// HTTP makes the requests; nil means a client of its own.
	HTTP *http.Client
	// Timeout bounds each attempt of a search; MaxBytes what is read of
	// one answer; Retries the attempts made again after a 5xx or a broken
	// connection.
	Timeout  time.Duration
	MaxBytes int64
	Retries  int
	// Parallel bounds the searches in flight.
	Parallel int
}

// New makes a client of the webserver at rawURL, checking the URL.
func New(rawURL string, repos []string) (*Client, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the zoekt URL %q is not an http(s) URL: give one such as http://localhost:6070 (hone's --zoekt-url)", rawURL)
	}
	if u.User != nil {
		return nil, errors.New("the zoekt URL holds a user or password: hone does not send credentials to zoekt")
	}
	var rs []string
	for _, r := range repos {
		if r = strings.TrimSpace(r); r != "" {
			rs = append(rs, r)
		}
	}
	return &Client{URL: strings.TrimRight(rawURL, "/"), Repos: rs, Timeout: DefaultTimeout, MaxBytes: DefaultMaxBytes, Retries: DefaultRetries, Parallel: 4}, nil
}

// Name says where the client searches.
func (c *Client) Name() string {
	if len(c.Repos) > 0 {
		return "zoekt at " + c.URL + " (" + strings.Join(c.Repos, ", ") + ")"
	}
	return "zoekt at " + c.URL
}

// The API's JSON, as zoekt-webserver reads and writes it (zoekt's
// internal/json and api.go): only the fields hone uses.
type searchArgs struct {
	Q    string
	Opts searchOpts
}

type searchOpts struct {
	Whole              bool `json:",omitempty"`
	ChunkMatches       bool `json:",omitempty"`
	NumContextLines    int  `json:",omitempty"`
	MaxDocDisplayCount int  `json:",omitempty"`
	// MaxMatchDisplayCount bounds the matches given per file: hone reads
	// the whole content, and the matches only for their symbols.
	MaxMatchDisplayCount int   `json:",omitempty"`
	MaxWallTime          int64 `json:",omitempty"` // nanoseconds, as Go's time.Duration
	UseBM25Scoring       bool  `json:",omitempty"`
}

type searchReply struct {
	Result *struct {
		Files []fileMatch
		// Stats, in part.
		FileCount  int
		MatchCount int
	}
	Error string
}

type fileMatch struct {
	FileName   string
	Repository string
	Language   string
	Branches   []string
	Content    []byte // base64 in JSON; set with Whole
	Score      float64
	// ChunkMatches carry the symbols ctags found on the matched lines.
	ChunkMatches []struct {
		ContentStart struct{ LineNumber int }
		SymbolInfo   []*struct {
			Sym, Kind, Parent, ParentKind string
		}
		FileName bool
	}
}

// File is a file a search found, whole.
type File struct {
	Repo, Path string
	Content    []byte
	// Language is zoekt's name for it; Symbols the definitions ctags
	// found on its matched lines, where the index has them.
	Language string
	Symbols  []string
	Score    float64
}

// Search runs one query, in zoekt's query language, and returns up to
// limit files, best first, whole. The client's repositories, if any,
// bound it.
func (c *Client) Search(ctx context.Context, q string, limit int) ([]File, error) {
	if len(c.Repos) > 0 {
		var rs []string
		for _, r := range c.Repos {
			rs = append(rs, "r:^"+regexpQuote(r)+"$")
		}
		// The space before the parenthesis: zoekt's parser reads "$)"
		// as the regular expression's.
		q = "(" + strings.Join(rs, " or ") + " ) " + q
	}
	// What goes to the cluster has passed the redaction: a task may hold
	// a secret, and its words make the queries.
	q, _ = redact.String(q)
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	args := searchArgs{Q: q, Opts: searchOpts{Whole: true, ChunkMatches: true, MaxDocDisplayCount: limit, MaxWallTime: int64(timeout * 9 / 10), UseBM25Scoring: true}}
	var reply searchReply
	if err := c.post(ctx, "/api/search", args, &reply); err != nil {
		return nil, err
	}
	if reply.Result == nil {
		return nil, fmt.Errorf("%s answered without a result: is it zoekt-webserver?", c.Name())
	}
	var out []File
	for _, f := range reply.Result.Files {
		if f.FileName == "" || len(out) == limit {
			continue
		}
		file := File{Repo: f.Repository, Path: f.FileName, Content: f.Content, Language: f.Language, Score: f.Score}
		for _, cm := range f.ChunkMatches {
			for _, s := range cm.SymbolInfo {
				if s != nil && s.Sym != "" && !contains(file.Symbols, s.Sym) {
					file.Symbols = append(file.Symbols, s.Sym)
				}
			}
		}
		out = append(out, file)
	}
	return out, nil
}

// SearchAll runs the queries side by side, Parallel at once, and merges
// their files, each once, in the order of the queries, then of each
// query's ranking.
func (c *Client) SearchAll(ctx context.Context, qs []string, limit int) ([]File, error) {
	ss := make([]Search, len(qs))
	for i, q := range qs {
		ss[i] = Search{Q: q, Limit: limit}
	}
	return c.SearchEach(ctx, ss)
}

// SearchEach runs the searches side by side, each with its own limit, as
// SearchAll does.
func (c *Client) SearchEach(ctx context.Context, qs []Search) ([]File, error) {
	par := c.Parallel
	if par <= 0 {
		par = 4
	}
	res := make([][]File, len(qs))
	errs := fanout.Each(ctx, make(chan struct{}, par), len(qs), func(i int) error {
		var err error
		res[i], err = c.Search(ctx, qs[i].Q, qs[i].Limit)
		return err
	})
	seen := map[string]bool{}
	var out []File
	for i := range qs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		for _, f := range res[i] {
			if k := f.Repo + "\x00" + f.Path; !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// post sends a request, retrying a 5xx or a broken connection, and
// decodes the answer.
func (c *Client) post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	retries := c.Retries
	for attempt := 0; ; attempt++ {
		err := c.once(ctx, path, b, out)
		if err == nil || ctx.Err() != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return nil
		}
		var te *transient
		if !errors.As(err, &te) || attempt >= retries {
			if attempt > 0 {
				return fmt.Errorf("%w (after %d attempts)", err, attempt+1)
			}
			return err
		}
		d := 200 * time.Millisecond << attempt
		t := time.NewTimer(d/2 + time.Duration(rand.Int64N(int64(d/2)+1)))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// transient is an error worth another attempt.
type transient struct{ error }

func (t *transient) Unwrap() error { return t.error }

func (c *Client) once(ctx context.Context, path string, body []byte, out any) error {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxBytes := c.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.URL+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s: %v", c.Name(), err)
	}
	req.Header.Set("Content-Type", "application/json")
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if actx.Err() != nil {
			return &transient{fmt.Errorf("%s gave no answer in %s", c.Name(), timeout)}
		}
		return &transient{fmt.Errorf("cannot reach %s: is zoekt-webserver running there, with -rpc?", c.Name())}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		if actx.Err() != nil && ctx.Err() == nil {
			return &transient{fmt.Errorf("%s gave no answer in %s", c.Name(), timeout)}
		}
		return &transient{fmt.Errorf("%s broke off its answer: %v", c.Name(), err)}
	}
	if int64(len(data)) > maxBytes {
		return fmt.Errorf("%s answered with over %d MiB: narrow the search to fewer repositories (hone's --zoekt-repos)", c.Name(), maxBytes>>20)
	}
	if resp.StatusCode != http.StatusOK {
		msg := errorMessage(data)
		err := fmt.Errorf("%s answered HTTP %d%s", c.Name(), resp.StatusCode, msg)
		if resp.StatusCode == http.StatusNotFound {
			err = fmt.Errorf("%s has no search API (HTTP 404): start zoekt-webserver with -rpc", c.Name())
		}
		if resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests {
			return &transient{err}
		}
		return err
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s answered with something other than zoekt's JSON: is it zoekt-webserver, started with -rpc?", c.Name())
	}
	return nil
}

// errorMessage reads zoekt's error body, {"Error": "…"}.
func errorMessage(b []byte) string {
	var e struct{ Error string }
	if json.Unmarshal(b, &e) == nil && e.Error != "" {
		return ": " + redact.Short(e.Error, 200)
	}
	return ""
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// regexpQuote escapes a literal for zoekt's regular expressions.
func regexpQuote(s string) string {
	const special = `\.+*?()|[]{}^$`
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Find is the Backend's search: the task's first search, or, for a run's
// query, one search of each concept, of the learned terms and of each
// gap's symbol, side by side.
func (c *Client) Find(ctx context.Context, req hone.FindRequest) ([]hone.FoundFile, error) {
	var qs []Search
	if len(req.Folders) > 0 {
		return c.folders(ctx, req)
	}
	if req.Query == nil {
		if q := TaskQuery(req.Task, req.Include, req.Exclude); q != "" {
			qs = append(qs, Search{Q: q, Limit: req.Limit})
		}
	} else {
		qs = LoopSearches(*req.Query, req.Include, req.Exclude, req.Limit)
	}
	if len(qs) == 0 {
		return nil, nil
	}
	files, err := c.SearchEach(ctx, qs)
	if err != nil {
		return nil, err
	}
	// A small repository the first searches reached is fetched whole: it
	// costs little, and the loop then weighs its files against all the
	// others, as over the embedded index.
	if req.First {
		var repos []string
		for _, f := range files {
			if !contains(repos, f.Repo) {
				repos = append(repos, f.Repo)
			}
		}
		small, err := c.smallRepos(ctx, repos)
		if err != nil {
			return nil, err
		}
		var whole []string
		for _, r := range small {
			whole = append(whole, narrow("r:^"+regexpQuote(r)+"$ f:.", req.Include, req.Exclude))
		}
		if len(whole) > 0 {
			all, err := c.SearchAll(ctx, whole, SmallRepoFiles)
			if err != nil {
				return nil, err
			}
			files = append(files, all...)
		}
	}
	out := make([]hone.FoundFile, 0, len(files))
	for _, f := range files {
		out = append(out, hone.FoundFile{Repo: f.Repo, Path: f.Path, Content: f.Content})
	}
	return out, nil
}

// A repository of SmallRepoFiles files at most, and SmallRepoBytes of
// content, is small: the first search that reaches it fetches it whole.
const (
	SmallRepoFiles = 2000
	SmallRepoBytes = 8 << 20
)

// smallRepos are those of repos that are small, as the list API counts
// their files and bytes.
func (c *Client) smallRepos(ctx context.Context, repos []string) ([]string, error) {
	if len(repos) == 0 {
		return nil, nil
	}
	var rs []string
	for _, r := range repos {
		rs = append(rs, "r:^"+regexpQuote(r)+"$")
	}
	var reply struct {
		List *struct {
			Repos []struct {
				Repository struct{ Name string }
				Stats      struct{ Documents, ContentBytes int64 }
			}
		}
	}
	if err := c.post(ctx, "/api/list", map[string]string{"Q": strings.Join(rs, " or ") + " "}, &reply); err != nil {
		return nil, err
	}
	if reply.List == nil {
		return nil, fmt.Errorf("%s answered its list without a list: is it zoekt-webserver?", c.Name())
	}
	var out []string
	for _, r := range reply.List.Repos {
		if r.Stats.Documents <= SmallRepoFiles && r.Stats.ContentBytes <= SmallRepoBytes && contains(repos, r.Repository.Name) {
			out = append(out, r.Repository.Name)
		}
	}
	return out, nil
}

var _ hone.Backend = (*Client)(nil)

// folders finds the files of each folder, REPO/FOLDER, side by side.
func (c *Client) folders(ctx context.Context, req hone.FindRequest) ([]hone.FoundFile, error) {
	var qs []string
	for _, f := range req.Folders {
		repo, dir, _ := strings.Cut(f, "/")
		// The repository part is the repository's whole name, which may
		// hold slashes itself (github.com/org/name): the longest of the
		// client's repositories it starts with, else its first part.
		for _, r := range c.Repos {
			if strings.HasPrefix(f, r+"/") && len(r) > len(repo) {
				repo, dir = r, strings.TrimPrefix(f, r+"/")
			}
		}
		fq := "f:^" + regexpQuote(dir) + "/[^/]+$"
		if dir == "." || dir == "" {
			fq = "f:^[^/]+$"
		}
		qs = append(qs, narrow("r:^"+regexpQuote(repo)+"$ "+fq, req.Include, req.Exclude))
	}
	files, err := c.SearchAll(ctx, qs, req.Limit)
	if err != nil {
		return nil, err
	}
	out := make([]hone.FoundFile, 0, len(files))
	for _, f := range files {
		out = append(out, hone.FoundFile{Repo: f.Repo, Path: f.Path, Content: f.Content})
	}
	return out, nil
}

// WaitIndexed waits until the webserver serves a shard of repo indexed
// after since: zoekt-webserver loads new shards on its own, a moment after
// they are written.
func (c *Client) WaitIndexed(ctx context.Context, repo string, since time.Time, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var reply struct {
			List *struct {
				Repos []struct {
					Repository    struct{ Name string }
					IndexMetadata struct{ IndexTime time.Time }
				}
			}
		}
		if err := c.post(ctx, "/api/list", map[string]string{"Q": "r:^" + regexpQuote(repo) + "$ "}, &reply); err != nil {
			return err
		}
		if reply.List != nil {
			for _, r := range reply.List.Repos {
				if r.Repository.Name == repo && !r.IndexMetadata.IndexTime.Before(since) {
					return nil
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s does not serve %s as indexed since %s, after %s: does it watch the folder the shards are written to?", c.Name(), repo, since.Format(time.TimeOnly), limit)
		}
		t := time.NewTimer(100 * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}
