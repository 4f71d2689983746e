// Package mcpserver serves hone to agents over the Model Context Protocol:
// retrieval with a context pack, code search, outlines, spans of files, and
// the index's status. One file per tool, typed parameters, as gopls's MCP
// server has it. Every call brings the index up to date first; every
// answer stays under what MCP clients accept, and says so when it is cut.
package mcpserver

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/walk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

//go:embed instructions.md
var instructions string

// maxAnswerTokens bounds an answer: Claude Code truncates tool output near
// 25k tokens.
const maxAnswerTokens = 20000

// Server holds the repository the tools serve, fixed at start.
type Server struct {
	root     string
	indexDir string
	log      *slog.Logger
}

// New serves the repository at root; indexDir may be empty for the
// default; log receives what the server has to say (never stdout).
func New(root, indexDir string, log *slog.Logger) (*Server, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("repository %s is not a directory", root)
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return &Server{root: abs, indexDir: indexDir, log: log}, nil
}

// MCP builds the MCP server with hone's tools.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "hone", Version: hone.Version}, &mcp.ServerOptions{Instructions: instructions, Logger: s.log})
	s.addRetrieveContext(srv)
	s.addSearchCode(srv)
	s.addFileOutline(srv)
	s.addReadSpan(srv)
	s.addIndexStatus(srv)
	s.addReindex(srv)
	srv.AddReceivingMiddleware(redactResults)
	// Outermost: no error repeats more than a little of its input.
	srv.AddReceivingMiddleware(cutErrors)
	return srv
}

// Run serves over a transport until the client goes.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.MCP().Run(ctx, t)
}

// index opens the index and brings it up to date: every call sees the
// files as they are.
func (s *Server) index(ctx context.Context) (*index.Index, error) {
	ix, err := index.Open(ctx, s.root, index.Options{Dir: s.indexDir, Notice: func(n string) { s.log.Info(n) }})
	if err != nil {
		return nil, err
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		if errors.Is(err, index.ErrFull) {
			// The index answers as it was; the log says why.
			s.log.Warn(err.Error())
			return ix, nil
		}
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// resolve checks a path a model gave: relative to the repository, inside
// it once symbolic links are followed, a regular file, not under .git, and
// not a secret, by the name asked for or by the file a link leads to. It
// returns the slash path and the absolute path of the real file.
func (s *Server) resolve(p string) (string, string, error) {
	if p == "" {
		return "", "", errors.New("path is empty: give a file's path relative to the repository root")
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
	if inGitDir(slash) {
		return "", "", fmt.Errorf("path %s is under .git: git's own files are not the repository's code", quote(p))
	}
	abs := filepath.Join(s.root, clean)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", "", fmt.Errorf("path %s: no such file in the repository", quote(p))
	}
	root, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return "", "", fmt.Errorf("resolve the repository root: %w", err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", "", fmt.Errorf("path %s is a link that leaves the repository: only files inside it can be read", quote(p))
	}
	realSlash := filepath.ToSlash(rel)
	if inGitDir(realSlash) {
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
		return "", "", fmt.Errorf("read %s: %w", slash, err)
	}
	if walk.Classify(slash, head).Has(walk.Secret) || walk.Classify(realSlash, head).Has(walk.Secret) {
		return "", "", fmt.Errorf("path %s is a secret-bearing file: hone never reads its contents", quote(p))
	}
	return slash, real, nil
}

// inGitDir reports whether a slash path has a .git element: git's own
// files (its config, logs, commit messages) are not the repository's code.
func inGitDir(slash string) bool {
	for elem := range strings.SplitSeq(slash, "/") {
		if strings.EqualFold(elem, ".git") {
			return true
		}
	}
	return false
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
