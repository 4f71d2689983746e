package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/retrieve"
	"github.com/hone-tools/hone/walk"
	"github.com/hone-tools/hone/zoekt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NewZoekt serves a zoekt cluster rather than a repository:
// retrieve_context runs the loop over what the cluster finds, and
// read_span reads the files it named, fetched from the cluster. The files
// fetched are kept under work while the server runs.
func NewZoekt(c *zoekt.Client, work string, log *slog.Logger) (*Server, error) {
	files := filepath.Join(work, "files")
	if err := os.MkdirAll(files, 0o700); err != nil {
		return nil, fmt.Errorf("make the working folder: %w", err)
	}
	s := newServer(files, "", filepath.Join(work, "index"), log)
	s.zoekt = c
	s.zoektWork = work
	return s, nil
}

// errZoekt answers the tools that need a repository on disk.
var errZoekt = errors.New("this server searches a zoekt cluster, whose index is the cluster's own: use retrieve_context or search_code, then file_outline and read_span on the paths they give")

// retrieveZoekt is retrieve_context over the cluster: each call in a
// working folder of its own, whose files then join those read_span reads.
func (s *Server) retrieveZoekt(ctx context.Context, task string, opts hone.Options, noted func(*hone.Result), budget int) (*mcp.CallToolResult, RetrieveResult, error) {
	work, err := os.MkdirTemp(s.zoektWork, "call-")
	if err != nil {
		return nil, RetrieveResult{}, fmt.Errorf("make the working folder: %w", err)
	}
	defer os.RemoveAll(work)
	tree := filepath.Join(work, "tree")
	res, err := retrieve.RetrieveFrom(ctx, s.zoekt, tree, filepath.Join(work, "index"), task, opts)
	if err != nil {
		return nil, RetrieveResult{}, err
	}
	noted(res)
	head := "Searched: " + res.Repo + "\n\n"
	call, out := answerWithin(res, tree, pack.Options{Budget: budget, BudgetName: "budget_tokens"}, head)
	// The result's files, and the rest of what was fetched, stay for
	// read_span.
	if err := keepFiles(tree, s.root); err != nil {
		s.log.Warn("keep the fetched files", "err", err)
	}
	return call, out, nil
}

// keepFiles moves the files under from to the same paths under to.
func keepFiles(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		return os.Rename(p, dst)
	})
}

// fetchZoekt fetches a file the cluster holds into the files read_span
// reads, when it is not there yet: p is REPO/PATH, or PATH in the one
// repository the server searches.
func (s *Server) fetchZoekt(ctx context.Context, p string) error {
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
	if clean == ".." || strings.HasPrefix(clean, "../") || filepath.IsAbs(p) {
		return nil // resolve says why
	}
	dst := filepath.Join(s.root, filepath.FromSlash(clean))
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	base := clean[strings.LastIndexByte(clean, '/')+1:]
	files, err := s.zoekt.Search(ctx, "f:"+zoekt.NameRegexp(base), 50)
	if err != nil {
		return err
	}
	// REPO/PATH, or PATH when a run's files were all of one repository
	// (retrieve names them so): the one file at that path.
	var byPath []zoekt.File
	for _, f := range files {
		if f.Repo+"/"+f.Path == clean {
			return s.keepFile(clean, f.Content)
		}
		if f.Path == clean {
			byPath = append(byPath, f)
		}
	}
	if len(byPath) == 1 {
		return s.keepFile(clean, byPath[0].Content)
	}
	return nil
}

// searchZoekt is search_code over the cluster: its ranking of the files
// that hold the query's words, each with the lines that hold the most of
// them; the files stay for read_span.
func (s *Server) searchZoekt(ctx context.Context, in SearchParams, terms []index.QueryTerm, limit int) (*mcp.CallToolResult, SearchResult, error) {
	q := zoekt.TaskQuery(in.Query, in.Include, in.Exclude)
	if q == "" {
		return nil, SearchResult{}, errNoWords(in.Query)
	}
	files, err := s.zoekt.Search(ctx, q, limit)
	if err != nil {
		return nil, SearchResult{}, err
	}
	weights := map[string]float64{}
	for _, t := range terms {
		weights[t.Stem] = t.Weight
	}
	single := len(s.zoekt.Repos) == 1
	var hits []SearchHit
	for _, f := range files {
		if walk.Classify(f.Path, nil).Has(walk.Secret) {
			continue
		}
		p := f.Repo + "/" + f.Path
		if single {
			p = f.Path
		}
		if err := s.keepFile(p, f.Content); err != nil {
			s.log.Warn("keep a fetched file", "err", err)
		}
		hits = append(hits, SearchHit{Path: p, Score: f.Score, Lines: shownLinesOf(f.Path, f.Content, weights, shownLines)})
	}
	res, out := hitsAnswer("Searched: "+s.zoekt.Name()+"\n\n", hits, false)
	return res, out, nil
}

// keepFile writes a fetched file at p under the files read_span reads; a
// path that would leave them is refused.
func (s *Server) keepFile(p string, content []byte) error {
	dst := filepath.Join(s.root, filepath.FromSlash(p))
	if !strings.HasPrefix(dst, s.root+string(filepath.Separator)) {
		return fmt.Errorf("%s leaves the working folder", p)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	return os.WriteFile(dst, content, 0o600)
}
