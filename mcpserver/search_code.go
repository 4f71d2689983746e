package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/tokenize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SearchParams are search_code's arguments.
type SearchParams struct {
	Query   string   `json:"query" jsonschema:"keywords or identifiers, e.g. refreshSession token expiry"`
	Include []string `json:"include,omitempty" jsonschema:"search only files matching these globs"`
	Exclude []string `json:"exclude,omitempty" jsonschema:"never search files matching these globs or under these paths"`
	Limit   int      `json:"limit,omitempty" jsonschema:"files to return at most (default 10, at most 50)"`
}

// SearchHit is one file search_code found.
type SearchHit struct {
	Path  string   `json:"path"`
	Score float64  `json:"score"`
	Lines []string `json:"lines"` // "NUMBER: text" of the first matching lines
}

// SearchResult is search_code's structured result.
type SearchResult struct {
	Hits      []SearchHit `json:"hits"`
	Truncated bool        `json:"truncated"`
}

func (s *Server) addSearchCode(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name: "search_code",
		Description: "Search the repository's files for keywords or identifiers (identifier-aware: refreshSession matches refresh_session " +
			"and session refresh), ranked by BM25 over file names, definitions and text, with the first matching lines of each file.",
	}, s.searchCode)
}

func (s *Server) searchCode(ctx context.Context, _ *mcp.CallToolRequest, in SearchParams) (*mcp.CallToolResult, SearchResult, error) {
	limit := in.Limit
	if limit <= 0 {
		limit = 10
	}
	limit = min(limit, 50)
	if err := checkLen("the query", in.Query, maxQueryBytes); err != nil {
		return nil, SearchResult{}, err
	}
	if err := checkGlobs("include", in.Include); err != nil {
		return nil, SearchResult{}, err
	}
	if err := checkGlobs("exclude", in.Exclude); err != nil {
		return nil, SearchResult{}, err
	}
	terms := index.Words(in.Query)
	if len(terms) == 0 {
		return nil, SearchResult{}, fmt.Errorf("the query %s has no words to search for", quote(in.Query))
	}
	ix, err := s.index(ctx)
	if err != nil {
		return nil, SearchResult{}, err
	}
	defer ix.Close()
	stems := map[string]bool{}
	for _, t := range terms {
		stems[t.Stem] = true
	}
	keep := func(e *index.Entry) bool { return retrieve.Searchable(in.Include, in.Exclude, e) }
	out := SearchResult{Hits: []SearchHit{}}
	var b strings.Builder
	used := 0
	hits := ix.Run(index.Search{Terms: terms, Keep: keep, Limit: limit})
	if err := ix.Err(); err != nil {
		if !index.IsDamaged(err) {
			return nil, SearchResult{}, fmt.Errorf("search the index: %w", err)
		}
		// Never answer from damaged data: rebuild, then search again.
		s.log.Warn("the index was damaged and is rebuilt", "err", err)
		if _, err := ix.Rebuild(ctx, nil); err != nil {
			return nil, SearchResult{}, fmt.Errorf("rebuild the damaged index: %w", err)
		}
		hits = ix.Run(index.Search{Terms: terms, Keep: keep, Limit: limit})
		if err := ix.Err(); err != nil {
			return nil, SearchResult{}, fmt.Errorf("search the index: %w", err)
		}
	}
	for _, h := range hits {
		hit := SearchHit{Path: h.Entry.Path, Score: h.Score, Lines: s.matchingLines(ix, h.Entry, stems, 3)}
		block := fmt.Sprintf("%s (score %.2f)\n", hit.Path, hit.Score)
		for _, l := range hit.Lines {
			block += "  " + l + "\n"
		}
		n := pack.CountTokens(block)
		if used+n > maxAnswerTokens {
			out.Truncated = true
			break
		}
		used += n
		b.WriteString(block)
		out.Hits = append(out.Hits, hit)
	}
	if len(out.Hits) == 0 {
		b.WriteString("No file matched. Try other words, or the codebase's own names for the thing.\n")
	}
	if out.Truncated {
		b.WriteString("(Cut to stay within the answer size: narrow with include globs or a smaller limit.)\n")
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out, nil
}

// matchingLines returns the first lines of a file holding a query term.
// The file is checked as read_span checks it: it may have become a link
// to a secret since it was indexed.
func (s *Server) matchingLines(ix *index.Index, e *index.Entry, stems map[string]bool, max int) []string {
	data, err := ix.Content(e)
	if err != nil {
		return nil
	}
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		if len(out) == max {
			break
		}
		if len(line) > 300 {
			continue
		}
		hit := false
		tokenize.Each(line, func(t tokenize.Token) { hit = hit || stems[t.Stem] })
		if hit {
			shown, _ := redact.File(e.Path, strings.TrimSpace(line))
			out = append(out, fmt.Sprintf("%d: %s", i+1, shown))
		}
	}
	return out
}
