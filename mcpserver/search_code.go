package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hone-tools/hone/retrieve"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/internal/warm"
	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/tokenize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// searchBounds is the range of search_code's limit; 0 takes the default.
var searchBounds = map[string]bound{"limit": {0, maxSearchLimit}}

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
	Lines []string `json:"lines"` // "NUMBER: text" of the best-matching lines, in line order
}

// SearchResult is search_code's structured result.
type SearchResult struct {
	Hits      []SearchHit `json:"hits"`
	Truncated bool        `json:"truncated"`
	// More says that more files matched than limit asked for.
	More bool `json:"more"`
}

func (s *Server) addSearchCode(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name: "search_code",
		Description: "Search the repository's files for keywords or identifiers (identifier-aware: refreshSession matches refresh_session " +
			"and session refresh), ranked by BM25 over file names, definitions and text, the files that define a name of the query first among equals and tests, docs and examples lower unless the query asks for them, " +
			"with the lines of each file that hold the most of the query.",
		InputSchema: boundedSchema[SearchParams](searchBounds),
	}, s.searchCode)
}

func (s *Server) searchCode(ctx context.Context, req *mcp.CallToolRequest, in SearchParams) (*mcp.CallToolResult, SearchResult, error) {
	if err := notNegative("limit", in.Limit); err != nil {
		return nil, SearchResult{}, err
	}
	if in.Limit > maxSearchLimit {
		return nil, SearchResult{}, fmt.Errorf("limit must be at most %d, not %d: narrow the search with include globs instead", maxSearchLimit, in.Limit)
	}
	limit := in.Limit
	if limit <= 0 {
		limit = 10
	}
	if err := checkLen("the query", in.Query, maxQueryBytes); err != nil {
		return nil, SearchResult{}, err
	}
	if err := checkGlobs("include", in.Include); err != nil {
		return nil, SearchResult{}, err
	}
	if err := checkGlobs("exclude", in.Exclude); err != nil {
		return nil, SearchResult{}, err
	}
	query, terms := retrieve.SearchWords(in.Query)
	if len(terms) == 0 {
		return nil, SearchResult{}, errNoWords(in.Query)
	}
	in.Query = query // full-width letters folded
	if s.zoekt != nil {
		return s.searchZoekt(ctx, in, terms, limit)
	}
	ix, release, err := s.index(ctx, req.Session, warm.Call{Progress: progressOf(ctx, req)})
	if err != nil {
		return nil, SearchResult{}, err
	}
	defer release()
	keep := func(e *index.Entry) bool { return retrieve.Searchable(in.Include, in.Exclude, e) }
	kind := retrieve.SearchPrior(ix, in.Query)
	var hits []index.Hit
	err = warm.Repaired(ctx, ix, func() error {
		defined := definerWeights(ix, in.Query, keep)
		prior := func(e *index.Entry) float64 {
			if w, ok := defined[e.Path]; ok {
				return kind(e) * w
			}
			return kind(e)
		}
		// One more than the limit: whether more files matched.
		hits = ix.Run(index.Search{Terms: terms, Keep: keep, Prior: prior, Limit: limit + 1})
		return ix.Err()
	})
	if err != nil {
		return nil, SearchResult{}, fmt.Errorf("search the index: %w", err)
	}
	more := len(hits) > limit
	hits = hits[:min(len(hits), limit)]
	weights := lineWeights(ix, terms)
	found := make([]SearchHit, 0, len(hits))
	for _, h := range hits {
		found = append(found, SearchHit{Path: h.Entry.Path, Score: h.Score, Lines: s.matchingLines(ix, h.Entry, weights, shownLines)})
	}
	res, out := hitsAnswer("", found, more)
	return res, out, nil
}

// maxSearchLimit: search_code returns this many files at most.
const maxSearchLimit = 50

// queryName is a name a query may write as code: an identifier, or each
// part of a dotted one (Command.PersistentFlags).
var queryName = lazyre.New(`[A-Za-z_$][\w$]{2,}`)

// maxQueryNames: the names of a query looked up among the definitions,
// at most.
const maxQueryNames = 32

// definerWeights are, by path, what search_code multiplies the score of
// a file that defines one of the query's names by (PersistentFlags,
// refresh_session: the name as written): 1 + 1/n, n the searchable files
// that define it, the most over its names. The file that implements a name outranks the
// tests and documents that say it more often, as zoekt's symbol matches
// do; a name many files define weighs little.
func definerWeights(ix *index.Index, query string, keep func(*index.Entry) bool) map[string]float64 {
	names := queryName().FindAllString(query, maxQueryNames)
	out := map[string]float64{}
	for _, es := range ix.DefinersOf(names) {
		var kept []string
		for _, e := range es {
			if keep(e) && !slices.Contains(kept, e.Path) {
				kept = append(kept, e.Path)
			}
		}
		for _, p := range kept {
			out[p] = max(out[p], 1+1/float64(len(kept)))
		}
	}
	return out
}

// errNoWords refuses a query that leaves nothing to search for.
func errNoWords(query string) error {
	return fmt.Errorf("the query %s has no words to search for: common words (the, of, and), the languages' keywords (func, import, return) and single letters are left out; give names or other words", quote(query))
}

// hitsAnswer is search_code's answer: head, then the hits as fit the
// answer's size; more says that the limit left files out.
func hitsAnswer(head string, hits []SearchHit, more bool) (*mcp.CallToolResult, SearchResult) {
	out := SearchResult{Hits: []SearchHit{}}
	var b strings.Builder
	b.WriteString(head)
	used := 0
	for _, hit := range hits {
		// A name cannot forge a line of the answer: it is quoted where it
		// holds a control character or is not UTF-8.
		block := fmt.Sprintf("%s (score %.2f)\n", redact.QuotePath(hit.Path), hit.Score)
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
		hit.Path = redact.JSONName(hit.Path)
		out.Hits = append(out.Hits, hit)
	}
	if len(out.Hits) == 0 {
		b.WriteString("No file matched. Try other words, or the codebase's own names for the thing.\n")
	}
	if out.Truncated {
		b.WriteString("(Cut to stay within the answer size: narrow with include globs or a smaller limit.)\n")
	} else if more {
		out.More = true
		fmt.Fprintf(&b, "(More files matched: raise limit, up to %d, or narrow with include globs.)\n", maxSearchLimit)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out
}

// shownLines is how many lines search_code shows of each file.
const shownLines = 3

// maxShownLineBytes: a longer line (minified code, data) is not shown.
const maxShownLineBytes = 300

// lineWeights weighs the query's terms for choosing the lines of a file
// to show: each by its inverse document frequency, so that the rarer a
// term the more it counts, times how often the query says it. An
// identifier of several parts is a term of its own beside its parts
// (delete_cookie is delete, cookie and deletecookie), so a line holding it
// whole outweighs one holding its parts alone.
func lineWeights(ix *index.Index, terms []index.QueryTerm) map[string]float64 {
	w := make(map[string]float64, len(terms))
	for _, t := range terms {
		w[t.Stem] = t.Weight * ix.IDF(ix.DF(t.Stem))
	}
	return w
}

// matchingLines returns the lines of a file that best match the query,
// n at most, in line order (see bestLines). The file is checked as
// read_span checks it: it may have become a link to a secret since it was
// indexed.
func (s *Server) matchingLines(ix *index.Index, e *index.Entry, weights map[string]float64, n int) []string {
	data, err := ix.Content(e)
	if err != nil {
		return nil
	}
	return shownLinesOf(e.Path, data, weights, n)
}

// shownLinesOf are the n lines of a file's data that best match the
// query, as "NUMBER: text". The whole file is redacted first, its lines
// kept, so that a line of a secret over several (a private key's) is
// found as the secret's. Each line is cleaned as one line of output
// (redact.Line: no control character, no carriage return), so that the
// structured result carries what the text shows.
func shownLinesOf(path string, data []byte, weights map[string]float64, n int) []string {
	text, _ := redact.FileLines(path, string(data))
	lines := strings.Split(text, "\n")
	var out []string
	for _, i := range bestLines(lines, weights, n) {
		out = append(out, fmt.Sprintf("%d: %s", i+1, strings.TrimSpace(redact.Line(lines[i]))))
	}
	return out
}

// bestLines picks the n lines that weigh the most, by the weights of
// the query's terms each holds, each term once, and returns their indexes
// in line order. Of lines that weigh the same, the earlier are picked. A
// line holding no term is never picked, nor one over maxShownLineBytes.
func bestLines(lines []string, weights map[string]float64, n int) []int {
	type scored struct {
		i int
		w float64
	}
	var cands []scored
	var held []string
	for i, line := range lines {
		if len(line) > maxShownLineBytes {
			continue
		}
		held = held[:0]
		tokenize.Each(line, func(t tokenize.Token) {
			if weights[t.Stem] > 0 && !slices.Contains(held, t.Stem) {
				held = append(held, t.Stem)
			}
		})
		if len(held) == 0 {
			continue
		}
		// Summed in the order of the terms, so that two lines holding the
		// same terms weigh exactly the same.
		slices.Sort(held)
		w := 0.0
		for _, st := range held {
			w += weights[st]
		}
		cands = append(cands, scored{i, w})
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].w > cands[b].w })
	cands = cands[:max(0, min(n, len(cands)))]
	out := make([]int, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.i)
	}
	slices.Sort(out)
	return out
}
