package mcpserver

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/walk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SpanParams are read_span's arguments.
type SpanParams struct {
	Path      string `json:"path" jsonschema:"the file, relative to the repository root"`
	StartLine int    `json:"start_line" jsonschema:"first line to read, 1-based"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to read, inclusive (default: start_line + 199)"`
}

// SpanResult is read_span's structured result.
type SpanResult struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"` // the last line returned
	Lines     int    `json:"lines"`    // lines in the file
	Truncated bool   `json:"truncated"`
}

// maxSpanLines bounds one read.
const maxSpanLines = 600

func (s *Server) addReadSpan(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name:        "read_span",
		Description: "Read lines of a file inside the repository, with line numbers. Paths are relative to the repository root; files outside it and secret-bearing files cannot be read.",
	}, s.readSpan)
}

func (s *Server) readSpan(ctx context.Context, _ *mcp.CallToolRequest, in SpanParams) (*mcp.CallToolResult, SpanResult, error) {
	slash, abs, err := s.resolve(in.Path)
	if err != nil {
		return nil, SpanResult{}, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, SpanResult{}, fmt.Errorf("read %s: %w", slash, err)
	}
	if walk.IsBinary(data[:min(len(data), walk.HeadSize)]) {
		return nil, SpanResult{}, fmt.Errorf("%s is a binary file", slash)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	start, end := in.StartLine, in.EndLine
	if start < 1 {
		start = 1
	}
	if start > len(lines) {
		return nil, SpanResult{}, fmt.Errorf("%s has %d lines; start_line %d is past its end", slash, len(lines), start)
	}
	if end <= 0 {
		end = start + 199
	}
	if end < start {
		return nil, SpanResult{}, fmt.Errorf("end_line %d is before start_line %d", end, start)
	}
	out := SpanResult{Path: slash, StartLine: start, Lines: len(lines)}
	end = min(end, len(lines))
	if end-start+1 > maxSpanLines {
		end, out.Truncated = start+maxSpanLines-1, true
	}
	var b strings.Builder
	used := 0
	for i := start; i <= end; i++ {
		if err := ctx.Err(); err != nil {
			return nil, SpanResult{}, err
		}
		line := fmt.Sprintf("%d: %s\n", i, lines[i-1])
		n := pack.CountTokens(line)
		if used+n > maxAnswerTokens {
			end, out.Truncated = i-1, true
			break
		}
		used += n
		b.WriteString(line)
	}
	out.EndLine = end
	if out.Truncated {
		fmt.Fprintf(&b, "(Cut at line %d to stay within the answer size: read on from start_line %d.)\n", end, end+1)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out, nil
}
