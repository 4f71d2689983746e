package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/hone-tools/hone/pack"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SpanParams are read_span's arguments.
type SpanParams struct {
	Path        string `json:"path" jsonschema:"the file, relative to the repository root"`
	StartLine   int    `json:"start_line" jsonschema:"first line to read, 1-based"`
	EndLine     int    `json:"end_line,omitempty" jsonschema:"last line to read, inclusive (default: start_line + 199)"`
	StartColumn int    `json:"start_column,omitempty" jsonschema:"byte of start_line to start at, 1-based (default 1): to read on in a line too long to show whole, as a cut line says"`
}

// spanBounds are the ranges of read_span's numbers below: start_line's is
// its own check's, which says it is 1-based.
var spanBounds = map[string]bound{"end_line": {0, 0}, "start_column": {0, 0}}

// SpanResult is read_span's structured result.
type SpanResult struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column,omitempty"` // the first byte shown of start_line, when not 1
	EndLine     int    `json:"end_line"`               // the last line returned
	Lines       int    `json:"lines"`                  // lines in the file
	Truncated   bool   `json:"truncated"`
	// NextLine and NextColumn say where to read on when the answer was cut:
	// the start_line and start_column of the next call.
	NextLine   int `json:"next_line,omitempty"`
	NextColumn int `json:"next_column,omitempty"`
	// Text is the answer's text, the lines with their numbers: some
	// clients hand the model the structured form alone.
	Text string `json:"text"`
}

// Bounds of one read.
const (
	maxSpanLines = 600
	// maxLineBytes bounds a line shown: a longer one (minified code, data)
	// is cut, and start_column reads on.
	maxLineBytes = 16 << 10
	// maxSpanFileBytes bounds a file read_span reads through.
	maxSpanFileBytes = 64 << 20
	// maxPosition bounds the line numbers and columns read_span takes:
	// no file it reads has more lines, nor a line more bytes. A larger
	// end_line reads to the end.
	maxPosition = 1 << 30
)

func (s *Server) addReadSpan(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{
		Name: "read_span",
		Description: "Read lines of a file inside the repository, with line numbers. Paths are relative to the repository root; files outside it, under .git and secret-bearing files cannot be read. " +
			"A line too long to show whole is cut, and the cut says the start_line and start_column that read on.",
		InputSchema: boundedSchema[SpanParams](spanBounds),
	}, s.readSpan)
}

func (s *Server) readSpan(ctx context.Context, req *mcp.CallToolRequest, in SpanParams) (*mcp.CallToolResult, SpanResult, error) {
	if s.zoekt != nil && in.Path != "" {
		if err := s.fetchZoekt(ctx, in.Path); err != nil {
			return nil, SpanResult{}, err
		}
	}
	slash, abs, err := s.resolve(ctx, req.Session, in.Path)
	if err != nil {
		return nil, SpanResult{}, err
	}
	if in.StartLine < 1 {
		return nil, SpanResult{}, fmt.Errorf("start_line is 1-based: give 1 or more, not %d", in.StartLine)
	}
	// Past maxPosition the numbers are not echoed: past 2^53 they are
	// not what the client sent, JSON's numbers reaching the tools as
	// 64-bit floats.
	if in.StartLine > maxPosition {
		return nil, SpanResult{}, fmt.Errorf("start_line is past the end of every file read_span reads (%d lines at most): give a line of the file", maxPosition)
	}
	if in.StartColumn > maxPosition {
		return nil, SpanResult{}, fmt.Errorf("start_column is past the end of every line read_span reads (%d bytes at most): give a column of the line", maxPosition)
	}
	if err := notNegative("end_line", in.EndLine); err != nil {
		return nil, SpanResult{}, err
	}
	if err := notNegative("start_column", in.StartColumn); err != nil {
		return nil, SpanResult{}, err
	}
	start, end, col := in.StartLine, in.EndLine, max(in.StartColumn, 1)
	if end <= 0 {
		end = start + 199
	}
	end = min(end, maxPosition)
	if end < start {
		return nil, SpanResult{}, fmt.Errorf("end_line %d is before start_line %d", end, start)
	}
	reqEnd := end
	out := SpanResult{Path: redact.JSONName(slash), StartLine: start}
	if end-start+1 > maxSpanLines {
		end, out.Truncated = start+maxSpanLines-1, true
	}
	lines, total, err := readLines(ctx, slash, abs, start, end, col)
	if err != nil {
		return nil, SpanResult{}, err
	}
	out.Lines = total
	if out.Truncated && total <= end {
		// The file ends within the lines read: the bound cut nothing.
		out.Truncated = false
	}
	if start > total {
		return nil, SpanResult{}, fmt.Errorf("%s has %d lines; start_line %d is past its end", redact.QuotePath(slash), total, start)
	}
	if first := lines[0]; col > 1 && col > first.size {
		return nil, SpanResult{}, fmt.Errorf("line %d of %s has %d bytes; start_column %d is past its end: read on from start_line %d", start, redact.QuotePath(slash), first.size, col, start+1)
	}
	var b strings.Builder
	used := 0
	out.EndLine = lines[len(lines)-1].no
	for i, ln := range lines {
		if err := ctx.Err(); err != nil {
			return nil, SpanResult{}, err
		}
		text, n := ln.show(maxLineBytes)
		if i == 0 && ln.from > 0 {
			out.StartColumn = ln.from + 1
		}
		if tokens := escapedTokens(text); used+tokens > spanRoom {
			if i > 0 {
				// Whole lines only past the first: read on from the next.
				out.EndLine, out.Truncated = ln.no-1, true
				break
			}
			// The first line alone is over the budget: show what fits.
			lo, hi := 1, n
			for lo < hi {
				mid := (lo + hi + 1) / 2
				if t, _ := ln.show(mid); escapedTokens(t) <= spanRoom {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			text, n = ln.show(lo)
			used += escapedTokens(text)
		} else {
			used += tokens
		}
		b.WriteString(text)
		// A cut line says where its rest is; the answer reads on from the
		// rest of the last line shown, if it was cut.
		out.NextLine, out.NextColumn = 0, 0
		if ln.from+n < ln.size {
			out.Truncated = true
			out.NextLine, out.NextColumn = ln.no, ln.from+n+1
		}
	}
	if out.NextLine == 0 && out.Truncated && out.EndLine < min(reqEnd, total) {
		out.NextLine = out.EndLine + 1
	}
	if out.NextLine > 0 && out.NextColumn == 0 {
		fmt.Fprintf(&b, "(Cut at line %d to stay within the answer size: read on from start_line %d.)\n", out.EndLine, out.NextLine)
	}
	out.Text = b.String()
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Text}}}, out, nil
}

// spanRoom bounds the tokens of read_span's lines as JSON writes them in
// the structured form, whose escapes (\n, \t, \") make code longer in
// tokens than its text: the room maxAnswerTokens leaves the form's other
// fields and the note of a cut.
const spanRoom = maxAnswerTokens - 200

// escapedTokens counts the tokens of a text as a JSON string.
func escapedTokens(s string) int {
	b, err := modelJSON(s)
	if err != nil {
		return pack.CountTokens(s)
	}
	return pack.CountTokens(string(b))
}

// spanLine is a line read_span shows: its number, its size in bytes, and
// its bytes from offset from on (up to maxLineBytes and a few more).
type spanLine struct {
	no, size, from int
	text           []byte
	at             int              // the line's first byte in the file
	found          []redact.Finding // the secrets in text, offsets in text (secrets)
}

// show renders the line with at most limit bytes of its text, cut on a
// character boundary; a cut line says how to read the rest. It returns the
// rendering and the bytes of text shown.
func (l spanLine) show(limit int) (string, int) {
	n := len(l.text)
	if l.from+n > l.size {
		n = l.size - l.from
	}
	if n > limit {
		n = limit
		for n > 0 && !utf8.RuneStart(l.text[n]) {
			n--
		}
		if n == 0 {
			n = limit // not UTF-8: cut where the limit falls
		}
	}
	// Secrets are those found in the whole file, past the cut too, so
	// that a cut never shows part of one: a cut inside a secret moves to
	// its start, or past its end when the line's shown part starts with
	// it.
	found := l.found
	for _, f := range found {
		if f.Start < n && f.End > n {
			if f.Start > 0 {
				n = f.Start
			} else {
				n = min(f.End, l.size-l.from)
			}
		}
	}
	text := hideSecrets(l.text[:n], found)
	var b strings.Builder
	if l.from > 0 {
		fmt.Fprintf(&b, "%d (from byte %d): ", l.no, l.from+1)
	} else {
		fmt.Fprintf(&b, "%d: ", l.no)
	}
	if rest := l.size - l.from - n; rest > 0 {
		b.Write(text)
		fmt.Fprintf(&b, " …[cut: line %d goes on for %d more bytes; read them with start_line %d, start_column %d]\n", l.no, rest, l.no, l.from+n+1)
	} else {
		b.Write(bytes.TrimSuffix(text, []byte("\r")))
		b.WriteByte('\n')
	}
	return b.String(), n
}

// readLines reads lines start to end of a file, the first from byte col
// (1-based) on, keeping at most maxLineBytes and a little more of each, and
// counts the file's lines; each line kept holds the secrets of the whole
// file that lie in what it keeps (secrets). It reads the file once.
func readLines(ctx context.Context, slash, abs string, start, end, col int) ([]spanLine, int, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, 0, readError(slash, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, readError(slash, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("%s is not a regular file: only files can be read", redact.QuotePath(slash))
	}
	if fi.Size() > maxSpanFileBytes {
		return nil, 0, fmt.Errorf("%s is %d bytes, over the %d bytes read_span reads: search_code finds what is in smaller files", redact.QuotePath(slash), fi.Size(), maxSpanFileBytes)
	}
	// The file is read whole: its secrets are found in all of it, a
	// private key's lines as the key's, a secret before start_column as
	// one.
	data, err := io.ReadAll(io.LimitReader(f, maxSpanFileBytes))
	if err != nil {
		return nil, 0, readError(slash, err)
	}
	if walk.IsBinary(data[:min(len(data), walk.HeadSize)]) {
		return nil, 0, errBinary(slash)
	}
	r := bufio.NewReaderSize(bytes.NewReader(data), 64<<10)
	read := 0 // bytes of the file read before the chunk
	var (
		lines []spanLine
		cur   *spanLine
		no    = 1
		pos   = 0    // bytes of line no read
		ended = true // the last line read ended with a newline
		empty = true
	)
	// Past what is shown, a margin in which a secret that the cut would
	// split is found whole.
	keep := maxLineBytes + utf8.UTFMax + secretMargin
	for blocks := 0; ; blocks++ {
		if blocks%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
		}
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			empty = false
			body := chunk
			ended = body[len(body)-1] == '\n'
			if ended {
				body = body[:len(body)-1]
			}
			if no >= start && no <= end {
				if cur == nil {
					lines = append(lines, spanLine{no: no, at: read - pos})
					cur = &lines[len(lines)-1]
					if no == start {
						cur.from = col - 1
					}
				}
				// The bytes of body at line offsets [from, from+keep).
				lo, hi := max(cur.from-pos, 0), min(cur.from+keep-pos, len(body))
				if lo < hi {
					cur.text = append(cur.text, body[lo:hi]...)
				}
			}
			pos += len(body)
			read += len(chunk)
			if ended {
				if cur != nil {
					cur.size, cur = pos, nil
				}
				no, pos = no+1, 0
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, readError(slash, err)
		}
	}
	total := no
	if ended && !empty {
		total = no - 1 // the last line ended with its newline
	} else if no >= start && no <= end {
		if cur == nil {
			lines = append(lines, spanLine{no: no, at: read - pos})
			cur = &lines[len(lines)-1]
			if no == start {
				cur.from = col - 1
			}
		}
		cur.size = pos
	}
	// A start inside a character moves on to the next one.
	if len(lines) > 0 && lines[0].no == start {
		first := &lines[0]
		for first.from < first.size && len(first.text) > 0 && !utf8.RuneStart(first.text[0]) {
			first.from++
			first.text = first.text[1:]
		}
	}
	if len(lines) > 0 {
		secrets(slash, string(data), lines)
	}
	return lines, total, nil
}

// errBinary is the error of read_span and file_outline for a binary file.
func errBinary(slash string) error {
	return fmt.Errorf("%s is a binary file: hone reads and outlines text files only", redact.QuotePath(slash))
}

// readError is the error of a file that could not be read: its name
// quoted (redact.QuotePath), and what went wrong without the absolute path
// an *fs.PathError repeats, which could forge a line as the name could.
func readError(slash string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("read %s: %w", redact.QuotePath(slash), err)
}

// secrets gives each line the secrets of the file's text that lie in the
// bytes it keeps, as offsets in them: a secret that starts before them
// (before start_column, or on a line above, a private key's) starts at 0.
func secrets(slash, text string, lines []spanLine) {
	found := redact.Default().FindIn(slash, text)
	k := 0
	for i := range lines {
		l := &lines[i]
		lo, hi := l.at+l.from, l.at+l.from+len(l.text)
		for k < len(found) && found[k].End <= lo {
			k++
		}
		for _, f := range found[k:] {
			if f.Start >= hi {
				break
			}
			l.found = append(l.found, redact.Finding{Rule: f.Rule, Start: max(f.Start-lo, 0), End: min(f.End, hi) - lo})
		}
	}
}

// secretMargin: the bytes kept past a line's cut, so that a secret the
// cut would split moves the cut to its start or past its end.
const secretMargin = 4 << 10

// hideSecrets writes text with each secret found in it (offsets in text)
// replaced by its placeholder.
func hideSecrets(text []byte, found []redact.Finding) []byte {
	var out []byte
	at := 0
	for _, f := range found {
		if f.Start >= len(text) {
			break
		}
		out = append(out, text[at:f.Start]...)
		out = append(out, redact.Placeholder(f.Rule)...)
		at = min(f.End, len(text))
	}
	if out == nil {
		return text
	}
	return append(out, text[at:]...)
}
