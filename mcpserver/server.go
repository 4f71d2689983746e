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
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// resolve checks a path a model gave: relative to the repository, inside
// it once symbolic links are followed, not a secret. It returns the slash
// path and the absolute one.
func (s *Server) resolve(p string) (string, string, error) {
	if p == "" {
		return "", "", errors.New("path is empty: give a file's path relative to the repository root")
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") || filepath.VolumeName(p) != "" {
		return "", "", fmt.Errorf("path %q is absolute: give it relative to the repository root", p)
	}
	clean := filepath.Clean(filepath.FromSlash(p))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("path %q leaves the repository: only files inside it can be read", p)
	}
	abs := filepath.Join(s.root, clean)
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", "", fmt.Errorf("path %q: no such file in the repository", p)
	}
	root, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return "", "", err
	}
	if real != root && !strings.HasPrefix(real, root+string(filepath.Separator)) {
		return "", "", fmt.Errorf("path %q is a link that leaves the repository: only files inside it can be read", p)
	}
	slash := filepath.ToSlash(clean)
	if walk.Classify(slash, nil).Has(walk.Secret) {
		return "", "", fmt.Errorf("path %q is a secret-bearing file: hone never reads its contents", p)
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return "", "", fmt.Errorf("path %q is not a regular file", p)
	}
	return slash, real, nil
}
