// Package mcpserver serves hone to agents over the Model Context Protocol:
// retrieval with a context pack, code search, outlines, spans of files, and
// the index's status. One file per tool, typed parameters, as gopls's MCP
// server has it. Every call sees the files as they are: the server keeps
// each repository's index open and, on Linux, watches its folders, so that
// a call walks the repository only when a file changed. Every answer stays
// under what MCP clients accept, and says so when it is cut.
package mcpserver

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/warm"
	"github.com/hone-tools/hone/modeleval"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
	"github.com/hone-tools/hone/zoekt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed instructions.md
var instructions string

// maxAnswerTokens bounds an answer: Claude Code truncates tool output near
// 25k tokens.
const maxAnswerTokens = 20000

// Server holds the repository the tools serve: fixed at start, or the
// client's workspace.
type Server struct {
	root     string // the repository named at start; empty: the client's workspace
	fallback string // without one: the repository the server started in, if any
	indexDir string
	log      *slog.Logger
	// model, if set, judges every retrieve_context call's best
	// candidates beside the lexical evaluator; its limits also bound
	// sampling's.
	model *modeleval.Model
	// zoekt, when set, is the cluster the server searches instead of a
	// repository; zoektWork holds what it fetched (see NewZoekt).
	zoekt     *zoekt.Client
	zoektWork string
	// runs are the retrieve_context calls whose runs wait on the client's
	// round trips, by their request state; under mu.
	runs map[string]*pausedRun
	mu   sync.Mutex
	// runGrace is how long an ended run's answer waits for its client's
	// call before it is dropped.
	runGrace time.Duration

	// pool keeps the repositories' indexes open and watched.
	pool *warm.Pool

	// silent are the sessions whose client said it has roots and left
	// roots/list unanswered: not asked again, each call waiting out the
	// timeout, until it says its roots changed; under mu.
	silent map[*mcp.ServerSession]bool
}

// New serves the repository at root; indexDir may be empty for the
// default; log receives what the server has to say (never stdout).
func New(root, indexDir string, log *slog.Logger) (*Server, error) {
	abs, err := checkRoot(root)
	if err != nil {
		return nil, err
	}
	return newServer(abs, "", indexDir, log), nil
}

// NewWorkspace serves the workspace each client names, its first root (MCP's
// roots), and where a client names none, fallback (the repository the
// server started in; empty for none). indexDir and log are New's.
func NewWorkspace(fallback, indexDir string, log *slog.Logger) (*Server, error) {
	if fallback != "" {
		var err error
		if fallback, err = checkRoot(fallback); err != nil {
			return nil, err
		}
	}
	return newServer("", fallback, indexDir, log), nil
}

func newServer(root, fallback, indexDir string, log *slog.Logger) *Server {
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return &Server{root: root, fallback: fallback, indexDir: indexDir, log: log, pool: warm.New(indexDir, log), runGrace: runGrace}
}

// SetModel has a model judge every retrieve_context call's best
// candidates beside the lexical evaluator (hone mcp --evaluator); a call
// that asks for the client's own model takes that instead. Call it before
// Run.
func (s *Server) SetModel(m *modeleval.Model) { s.model = m }

func checkRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("repository %s is not a directory", root)
	}
	if walk.InGitDir(abs) {
		return "", fmt.Errorf("%s is a git directory (a bare repository, a .git folder, or a folder inside one), not a work tree: give a checkout of it", root)
	}
	return abs, nil
}

// clientHasRoots reports whether the client said, when it started the
// session, that it can name its workspace (the roots capability).
func clientHasRoots(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil
}

// rootsTimeout bounds the wait for the client's roots: a client that
// does not answer leaves the call to the fallback, not waiting for good.
var rootsTimeout = 10 * time.Second

// repo is the repository a call works on: the one named at start, else
// the client's workspace, its first root that is a local folder, else the
// fallback.
func (s *Server) repo(ctx context.Context, ss *mcp.ServerSession) (string, error) {
	if s.root != "" {
		return s.root, nil
	}
	var unusable []string // the client's roots that are no local folder
	unanswered := false   // the client did not answer roots/list in time
	s.mu.Lock()
	silent := s.silent[ss]
	s.mu.Unlock()
	if silent {
		unanswered = true
	} else if clientHasRoots(ss) {
		// A client that said it has roots may still answer that it has
		// no such method; one that did not say so is not asked, for
		// it may never answer.
		rctx, cancel := context.WithTimeout(ctx, rootsTimeout)
		//lint:ignore SA1019 roots are deprecated (SEP-2577), but still how clients name their workspace; --repo is the lasting way.
		res, err := ss.ListRoots(rctx, nil)
		cancel()
		if err == nil {
			broad := ""
			for _, r := range res.Roots {
				dir, ok := rootDir(r.URI)
				switch {
				case !ok:
					unusable = append(unusable, r.URI)
				case walk.TooBroad(dir):
					// A workspace of the user's home, or of the file
					// system's root, is no repository: indexing it would
					// take each call, and the disk, to read everything.
					broad = dir
				default:
					return dir, nil
				}
			}
			if broad != "" && s.fallback == "" {
				return "", fmt.Errorf("open a repository in the client, or start hone mcp with --repo DIR: the client's workspace is a home folder or the file system's root, which hone does not index unasked: %s", quote(broad))
			}
		} else if ctx.Err() != nil {
			return "", ctx.Err()
		} else {
			unanswered = errors.Is(err, context.DeadlineExceeded)
			s.log.Info("the client named no workspace roots", "err", err)
			if unanswered {
				s.mu.Lock()
				if s.silent == nil {
					s.silent = map[*mcp.ServerSession]bool{}
				}
				s.silent[ss] = true
				s.mu.Unlock()
			}
		}
	}
	if s.fallback != "" {
		return s.fallback, nil
	}
	if len(unusable) > 0 {
		named := strings.Join(unusable[:min(len(unusable), 3)], ", ")
		if len(unusable) > 3 {
			named += fmt.Sprintf(" and %d more", len(unusable)-3)
		}
		// What to do first: the roots, the client's words, come last, where
		// an error cut to its length loses them and not the advice.
		return "", fmt.Errorf("no repository: open a local folder in the client, or start hone mcp with --repo DIR; the client's roots are no local folder: %s", quote(named))
	}
	if unanswered {
		return "", fmt.Errorf("no repository: the client did not answer roots/list, which names its workspace folders, within %v, and hone mcp did not start in a git repository; start it with --repo DIR", rootsTimeout)
	}
	return "", errors.New("no repository: the client named no workspace folder (MCP roots), and hone mcp did not start in a git repository; start it with --repo DIR")
}

// rootDir turns a root's file:// URI into a folder that exists on this
// machine: its host empty or localhost, not another machine's folder of
// the same path (on Windows, a share's UNC path, \\host\share).
func rootDir(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	dir := filepath.Clean(filepath.FromSlash(u.Path)) // "/src/app/." is /src/app, one index
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		if runtime.GOOS != "windows" {
			return "", false
		}
		dir = `\\` + u.Host + dir
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || walk.InGitDir(dir) {
		return "", false
	}
	return dir, true
}

// MCP builds the MCP server with hone's tools.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "hone", Version: hone.Version}, &mcp.ServerOptions{Instructions: instructions, Logger: s.log,
		// A client that left roots/list unanswered is asked again once
		// it says its roots changed.
		RootsListChangedHandler: func(_ context.Context, req *mcp.RootsListChangedRequest) {
			s.mu.Lock()
			delete(s.silent, req.Session)
			s.mu.Unlock()
		}})
	s.addRetrieveContext(srv)
	s.addSearchCode(srv)
	s.addFileOutline(srv)
	s.addReadSpan(srv)
	s.addIndexStatus(srv)
	s.addReindex(srv)
	srv.AddReceivingMiddleware(redactResults, agreedVersion)
	// Outermost: no error repeats more than a little of its input, and
	// the log says what each call was, as the client got it.
	srv.AddReceivingMiddleware(s.logCalls, cutErrors)
	return srv
}

// logCalls logs each tool call once it is answered: the tool, how long
// it took, and its error, as the client got it (cut and redacted), so
// that an agent's session can be followed in the server's log.
func (s *Server) logCalls(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		tool := ""
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			tool = redact.Line(cut(p.Name))
		}
		attrs := []any{"tool", tool, "ms", time.Since(start).Milliseconds()}
		switch r, _ := res.(*mcp.CallToolResult); {
		case err != nil:
			s.log.Info("tool call failed", append(attrs, "err", err.Error())...)
		case r != nil && r.IsError:
			msg := ""
			for _, c := range r.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					msg += t.Text
				}
			}
			s.log.Info("tool call refused", append(attrs, "err", msg)...)
		default:
			s.log.Info("tool call", attrs...)
		}
		return res, err
	}
}

// Run serves over a transport until the client goes, then closes the
// indexes it kept open.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	// What every answer is redacted with, and what a context pack counts
	// tokens with, are made while the client starts up.
	redact.Warm()
	pack.Warm()
	err := s.MCP().Run(ctx, t)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// Close closes the indexes the server keeps open, and their watchers.
func (s *Server) Close() error {
	s.closeRuns()
	return s.pool.Close()
}

// index returns the repository's index, up to date, and the function
// that hands it back, which the call defers: every call sees the files as
// they are. c says what else the call asks: its own update (reindex, a
// rebuild), and who hears the update's progress.
func (s *Server) index(ctx context.Context, ss *mcp.ServerSession, c warm.Call) (*index.Index, func(), error) {
	root, err := s.repo(ctx, ss)
	if err != nil {
		return nil, nil, err
	}
	return s.pool.Index(ctx, root, c)
}

// resolve checks a path a model gave: relative to the repository, inside
// it once symbolic links are followed, a regular file, not under .git, and
// not a secret, by the name asked for or by the file a link leads to. It
// returns the slash path and the absolute path of the real file.
func (s *Server) resolve(ctx context.Context, ss *mcp.ServerSession, p string) (string, string, error) {
	if p == "" {
		return "", "", errors.New("path is empty: give a file's path relative to the repository root")
	}
	// A name in the quoted form hone gives a name that could forge a line
	// or is not UTF-8 ("a\nb.go", "caf\xe9.py") is read as the name.
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil && u != "" {
			p = u
		}
	}
	if err := checkLen("the path", p, maxPathBytes); err != nil {
		return "", "", err
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", "", fmt.Errorf("path %s holds a NUL byte: give a file's path relative to the repository root", quote(p))
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || filepath.VolumeName(p) != "" {
		return "", "", fmt.Errorf("path %s is absolute: give it relative to the repository root", quote(p))
	}
	clean := filepath.Clean(filepath.FromSlash(p))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("path %s leaves the repository: only files inside it can be read", quote(p))
	}
	slash := filepath.ToSlash(clean)
	repo, err := s.repo(ctx, ss)
	if err != nil {
		return "", "", err
	}
	if walk.HasGitElement(slash) {
		return "", "", fmt.Errorf("path %s is under .git: git's own files are not the repository's code", quote(p))
	}
	abs := filepath.Join(repo, clean)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", "", fmt.Errorf("path %s: no such file in the repository", quote(p))
	}
	root, err := filepath.EvalSymlinks(repo)
	if err != nil {
		return "", "", fmt.Errorf("resolve the repository root: %w", err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", "", fmt.Errorf("path %s is a link that leaves the repository: only files inside it can be read", quote(p))
	}
	realSlash := filepath.ToSlash(rel)
	if walk.HasGitElement(realSlash) {
		return "", "", fmt.Errorf("path %s is a link into .git: git's own files are not the repository's code", quote(p))
	}
	if walk.Classify(slash, nil).Has(walk.Secret) {
		return "", "", fmt.Errorf("path %s is a secret-bearing file: hone never reads its contents", quote(p))
	}
	if walk.Classify(realSlash, nil).Has(walk.Secret) {
		return "", "", fmt.Errorf("path %s is a link to a secret-bearing file: hone never reads its contents", quote(p))
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return "", "", fmt.Errorf("path %s is not a regular file: only files can be read", quote(p))
	}
	// The head may mark a secret too, as the pack checks it.
	head, err := readHead(real)
	if err != nil {
		return "", "", readError(slash, err)
	}
	if walk.Classify(slash, head).Has(walk.Secret) || walk.Classify(realSlash, head).Has(walk.Secret) {
		return "", "", fmt.Errorf("path %s is a secret-bearing file: hone never reads its contents", quote(p))
	}
	return slash, real, nil
}

// readHead reads a file's first walk.HeadSize bytes.
func readHead(abs string) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, walk.HeadSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	return head[:n], nil
}
