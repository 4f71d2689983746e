package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OutlineParams are file_outline's arguments.
type OutlineParams struct {
	Path string `json:"path" jsonschema:"the file, relative to the repository root"`
	// FromLine lists the definitions from that line on, the imports left
	// out: the rest of an outline cut to stay within the answer's size.
	FromLine int `json:"from_line,omitempty" jsonschema:"list only the definitions that start at this line or after, and no imports: to read on past an outline that was cut"`
}

// OutlineResult is file_outline's structured result.
type OutlineResult struct {
	Path    string          `json:"path"`
	Lang    string          `json:"lang"`
	Defs    []structure.Def `json:"defs"`
	Imports []string        `json:"imports"`
	// DefsMore and ImportsMore count the definitions and imports left out
	// to keep the answer within its size, the last of the file's.
	DefsMore    int `json:"defs_more,omitempty"`
	ImportsMore int `json:"imports_more,omitempty"`
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
	if in.FromLine < 0 || in.FromLine > maxPosition {
		return nil, OutlineResult{}, fmt.Errorf("from_line %d is not a line number: give one from 1 to %d, or leave it out for the whole outline", in.FromLine, maxPosition)
	}
	total := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		total++ // a last line with no newline
	}
	if in.FromLine > max(total, 1) {
		// As read_span says of a line past the end.
		return nil, OutlineResult{}, fmt.Errorf("%s has %d lines; from_line %d is past its end", redact.QuotePath(slash), total, in.FromLine)
	}
	o := structure.Extract(slash, src)
	if in.FromLine > 1 {
		var rest []structure.Def
		for _, d := range o.Defs {
			if d.Line >= in.FromLine {
				rest = append(rest, d)
			}
		}
		o.Defs, o.Imports = rest, nil
	}
	res, out := outlineAnswer(slash, o)
	return res, out, nil
}

// outlineSlack is what an outline's answer may take past what its parts
// are counted at: the note of a cut, the counts' digits, tokens that join
// across the parts counted one by one.
const outlineSlack = 100

// outlineAnswer is file_outline's answer: the file's name, language and
// number of definitions, its imports, and its definitions, as many of each
// as keep the text and the structured form together within
// maxAnswerTokens, the imports taking half of it at most; what is left
// out is counted in both.
func outlineAnswer(slash string, o structure.Outline) (*mcp.CallToolResult, OutlineResult) {
	// A name cannot forge a line of the answer: it is quoted where it
	// holds a control character or is not UTF-8.
	head := fmt.Sprintf("%s (%s): %d definitions\n", redact.QuotePath(slash), o.Lang, len(o.Defs))
	build := func(imports, defs int) (string, OutlineResult) {
		out := OutlineResult{Path: redact.JSONName(slash), Lang: o.Lang, Defs: append([]structure.Def{}, o.Defs[:defs]...), Imports: append([]string{}, o.Imports[:imports]...),
			DefsMore: len(o.Defs) - defs, ImportsMore: len(o.Imports) - imports}
		// The structured form's names are cleaned as the text's are.
		for i := range out.Imports {
			out.Imports[i] = redact.Line(out.Imports[i])
		}
		for i := range out.Defs {
			out.Defs[i].Name, out.Defs[i].Container = redact.Line(out.Defs[i].Name), redact.Line(out.Defs[i].Container)
		}
		var b strings.Builder
		b.WriteString(head)
		if len(o.Imports) > 0 {
			b.WriteString("imports: ")
			for i, imp := range o.Imports[:imports] {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(redact.Line(imp))
			}
			if out.ImportsMore > 0 {
				if imports > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "… %d more (cut to stay within the answer size)", out.ImportsMore)
			}
			b.WriteString("\n")
		}
		for _, d := range o.Defs[:defs] {
			b.WriteString(defLine(d))
		}
		if out.DefsMore > 0 {
			fmt.Fprintf(&b, "… %d more definitions, from line %d on (cut to stay within the answer size: ask again with from_line %d)\n", out.DefsMore, o.Defs[defs].Line, o.Defs[defs].Line)
		}
		return b.String(), out
	}
	text, out := build(0, 0)
	used := pack.CountTokens(text) + structuredTokens(out) + outlineSlack
	// Each import and definition costs its tokens in the text and in the
	// JSON, and a separator in each.
	imports := fitting(len(o.Imports), func(i int) int {
		return pack.CountTokens(redact.Line(o.Imports[i])) + structuredTokens(o.Imports[i]) + 2
	}, &used, maxAnswerTokens/2)
	defs := fitting(len(o.Defs), func(i int) int {
		return pack.CountTokens(defLine(o.Defs[i])) + structuredTokens(o.Defs[i]) + 1
	}, &used, maxAnswerTokens)
	text, out = build(imports, defs)
	// Counted one by one, the parts may take a little more together: each
	// takes a token at least, so dropping as many as the excess brings the
	// whole within the limit.
	for imports+defs > 0 {
		over := pack.CountTokens(text) + structuredTokens(out) - maxAnswerTokens
		if over <= 0 {
			break
		}
		if defs > 0 {
			defs = max(defs-over, 0)
		} else {
			imports = max(imports-over, 0)
		}
		text, out = build(imports, defs)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out
}

// defLine is a definition's line of file_outline's text.
func defLine(d structure.Def) string {
	name := d.Name
	if d.Container != "" {
		name = d.Container + "." + d.Name
	}
	return fmt.Sprintf("%d-%d %s %s\n", d.Line, d.EndLine, d.Kind, redact.Line(name))
}

// fitting is how many of n parts, from the first, fit under limit tokens
// with used, each costing cost(i); it adds theirs to used.
func fitting(n int, cost func(i int) int, used *int, limit int) int {
	for i := range n {
		c := cost(i)
		if *used+c > limit {
			return i
		}
		*used += c
	}
	return n
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
