package mcpserver

import (
	"context"
	"fmt"
	"time"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/warm"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StatusParams are index_status's arguments: none.
type StatusParams struct{}

// StatusResult describes the index.
type StatusResult struct {
	Repo        string    `json:"repo"`
	Index       string    `json:"index"`
	Files       int       `json:"files"`
	IndexBytes  int64     `json:"index_bytes"`
	SourceBytes int64     `json:"source_bytes"`
	Updated     time.Time `json:"updated"`
}

// ReindexParams are reindex's arguments.
type ReindexParams struct {
	Rebuild bool `json:"rebuild,omitempty" jsonschema:"discard the index and build it again (rarely needed: every call updates it)"`
}

// ReindexResult reports a reindex.
type ReindexResult struct {
	Files   int   `json:"files"`
	Added   int   `json:"added"`
	Changed int   `json:"changed"`
	Deleted int   `json:"deleted"`
	Millis  int64 `json:"elapsed_ms"`
}

func (s *Server) addIndexStatus(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "index_status",
		Description: "Show hone's index of this repository: where it is, how many files, its size and when it was last updated.",
	}, s.indexStatus)
}

func (s *Server) addReindex(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "reindex",
		Description: "Bring hone's index up to date now, or rebuild it. Every other call already updates it incrementally.",
	}, s.reindex)
}

func (s *Server) indexStatus(ctx context.Context, req *mcp.CallToolRequest, _ StatusParams) (*mcp.CallToolResult, StatusResult, error) {
	if s.zoekt != nil {
		return nil, StatusResult{}, errZoekt
	}
	ix, release, err := s.index(ctx, req.Session, warm.Call{Progress: progressOf(ctx, req)})
	if err != nil {
		return nil, StatusResult{}, err
	}
	defer release()
	st, err := ix.Status(ctx)
	if err != nil {
		return nil, StatusResult{}, err
	}
	out := StatusResult{Repo: st.Root, Index: st.Path, Files: st.Files, IndexBytes: st.Bytes, SourceBytes: st.Source, Updated: st.Updated}
	text := fmt.Sprintf("repo %s\nindex %s\nfiles %d (%d bytes of source), index %d bytes, updated %s\n",
		st.Root, st.Path, st.Files, st.Source, st.Bytes, st.Updated.Format(time.RFC3339))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

func (s *Server) reindex(ctx context.Context, req *mcp.CallToolRequest, in ReindexParams) (*mcp.CallToolResult, ReindexResult, error) {
	if s.zoekt != nil {
		return nil, ReindexResult{}, errZoekt
	}
	var st index.Stats
	progress := progressOf(ctx, req)
	_, release, err := s.index(ctx, req.Session, warm.Call{Update: func(ix *index.Index) (index.Stats, error) {
		var err error
		if in.Rebuild {
			st, err = ix.Rebuild(ctx, progress)
		} else {
			st, err = ix.Update(ctx, progress)
		}
		return st, err
	}})
	if err != nil {
		return nil, ReindexResult{}, err
	}
	defer release()
	out := ReindexResult{Files: st.Files, Added: st.Added, Changed: st.Changed, Deleted: st.Deleted, Millis: st.Elapsed.Milliseconds()}
	text := fmt.Sprintf("indexed %d files: %d added, %d changed, %d deleted in %d ms\n", st.Files, st.Added, st.Changed, st.Deleted, out.Millis)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}
