package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OutlineParams are file_outline's arguments.
type OutlineParams struct {
	Path string `json:"path" jsonschema:"the file, relative to the repository root"`
}

// OutlineResult is file_outline's structured result.
type OutlineResult struct {
	Path    string          `json:"path"`
	Lang    string          `json:"lang"`
	Defs    []structure.Def `json:"defs"`
	Imports []string        `json:"imports"`
}

func (s *Server) addFileOutline(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "file_outline",
		Description: "List a file's definitions (functions, methods, classes, types...) with their exact line ranges and containers, and its imports. Read what you need with read_span.",
	}, s.fileOutline)
}

func (s *Server) fileOutline(ctx context.Context, req *mcp.CallToolRequest, in OutlineParams) (*mcp.CallToolResult, OutlineResult, error) {
	if s.zoekt != nil && in.Path != "" {
		// Over a cluster: the file as it holds it, outlined here.
		if err := s.fetchZoekt(ctx, in.Path); err != nil {
			return nil, OutlineResult{}, err
		}
	}
	slash, abs, err := s.resolve(ctx, req.Session, in.Path)
	if err != nil {
		return nil, OutlineResult{}, err
	}
	src, err := readSource(slash, abs)
	if err != nil {
		return nil, OutlineResult{}, err
	}
	if walk.IsBinary(src) {
		return nil, OutlineResult{}, errBinary(slash)
	}
	if err := ctx.Err(); err != nil {
		return nil, OutlineResult{}, err
	}
	o := structure.Extract(slash, src)
	out := OutlineResult{Path: redact.JSONName(slash), Lang: o.Lang, Defs: o.Defs, Imports: o.Imports}
	if out.Defs == nil {
		out.Defs = []structure.Def{}
	}
	if out.Imports == nil {
		out.Imports = []string{}
	}
	var b strings.Builder
	// A name cannot forge a line of the answer: it is quoted where it
	// holds a control character or is not UTF-8.
	fmt.Fprintf(&b, "%s (%s): %d definitions\n", redact.QuotePath(slash), o.Lang, len(o.Defs))
	for i, d := range o.Defs {
		if i == 2000 {
			fmt.Fprintf(&b, "… %d more (cut to stay within the answer size)\n", len(o.Defs)-i)
			out.Defs = out.Defs[:i]
			break
		}
		name := d.Name
		if d.Container != "" {
			name = d.Container + "." + d.Name
		}
		fmt.Fprintf(&b, "%d-%d %s %s\n", d.Line, d.EndLine, d.Kind, name)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out, nil
}

// readSource reads a regular file of at most the size the index takes
// (walk.DefaultMaxFileSize): what is larger is not source code to outline.
func readSource(slash, abs string) ([]byte, error) {
	const limit = walk.DefaultMaxFileSize
	src, err := walk.ReadRegular(abs, limit)
	switch {
	case errors.Is(err, walk.ErrNotRegular):
		return nil, fmt.Errorf("%s is not a regular file: only files can be outlined", redact.QuotePath(slash))
	case errors.Is(err, walk.ErrTooLarge):
		return nil, fmt.Errorf("%s is over the %d bytes hone indexes and outlines: read it with read_span", redact.QuotePath(slash), limit)
	case err != nil:
		return nil, readError(slash, err)
	}
	return src, nil
}
