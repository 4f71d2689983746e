// Package pack turns a retrieval result into a context pack: a text, held
// to a token budget, to paste into a subagent's prompt. It holds a header
// (the task, the files with their relevance, reasons and missing context,
// and why the loop stopped), then the code: each file's imports and the
// definitions that matter, whole, or the whole file when it is small. The
// most relevant content goes in first; a definition is never cut in half;
// what did not fit is listed by name, so the agent can ask for it.
package pack

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
	"github.com/tiktoken-go/tokenizer"
)

// DefaultBudget is the budget when none is given, in tokens.
const DefaultBudget = 8000

// smallFile: a file this short goes in whole.
const smallFile = 80 // lines

// The first piece of every file is chosen first, then up to firstPieces
// of every file, then the rest.
const firstPieces = 3

// Options controls Build.
type Options struct {
	// Budget is the most tokens the pack may hold; 0 means DefaultBudget.
	Budget int
	// Count counts a text's tokens; nil uses the o200k tokenizer.
	Count func(string) int
}

// Pack is a built context pack.
type Pack struct {
	Text   string
	Tokens int
	Budget int
	// Included lists what went in: "path" for whole files, "path:start-end
	// symbol" for definitions.
	Included []string
	// Omitted lists what did not fit, the same way.
	Omitted []string
	// Ranges are the line ranges of what went in, in the order of
	// Included.
	Ranges []Range
	// Redacted counts the secrets the pack hides, each replaced by a
	// placeholder that names its kind: [redacted: aws-access-token].
	Redacted int
	// Unreadable lists the result's files whose contents could not be
	// read for the pack (gone, or unreadable since they were indexed).
	Unreadable []string
}

var o200k = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

// CountTokens counts a text's tokens with the o200k tokenizer (offline,
// embedded), or estimates four bytes a token if it cannot be loaded.
func CountTokens(s string) int {
	enc, err := o200k()
	if err != nil {
		return (len(s) + 3) / 4
	}
	n, err := enc.Count(s)
	if err != nil {
		return (len(s) + 3) / 4
	}
	return n
}

// Range is a file's lines from Start to End, 1-based and inclusive.
type Range struct {
	Path       string
	Start, End int
}

// piece is one unit of the pack: it goes in whole or not at all.
type piece struct {
	text  string
	name  string // for Included and Omitted
	lines Range
}

// Build makes the pack of a result; root is the repository the paths are
// relative to.
func Build(res *hone.Result, root string, opts Options) *Pack {
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	count := opts.Count
	if count == nil {
		count = CountTokens
	}
	p := &Pack{Budget: opts.Budget, Included: []string{}, Omitted: []string{}}

	// Choose best first: every file's first piece, then its next ones,
	// then the rest, files in order of relevance, so that a tight budget
	// still shows every file. A piece that does not fit is listed, and
	// smaller ones after it may still go in.
	head := header(res)
	used := count(head)
	var files [][]piece
	for _, f := range res.Files {
		files = append(files, p.filePieces(root, f))
	}
	if len(p.Unreadable) > 0 {
		var q []string
		for _, u := range p.Unreadable {
			q = append(q, redact.QuotePath(u))
		}
		head += "Could not be read for this pack (changed or unreadable since indexing): " + strings.Join(q, ", ") + "\n\n"
		used = count(head)
	}
	head, n := redact.String(head)
	p.Redacted += n
	chosen := make([][]bool, len(files))
	for i := range files {
		chosen[i] = make([]bool, len(files[i]))
	}
	var b strings.Builder
	if used > opts.Budget {
		head = "# Context pack from hone\nThe budget is too small for the header; raise --budget.\n"
		used = count(head)
		if used > opts.Budget {
			head, used = "", 0
		}
	}
	b.WriteString(head)
	// Room is kept for the list of what did not fit.
	limit := opts.Budget - min(opts.Budget/8, 300)
	for _, tier := range [][2]int{{0, 1}, {1, firstPieces}, {firstPieces, 1 << 30}} {
		for i, ps := range files {
			for j := tier[0]; j < len(ps) && j < tier[1]; j++ {
				n := count(ps[j].text)
				if used+n > limit {
					continue
				}
				chosen[i][j] = true
				used += n
			}
		}
	}
	for i, ps := range files {
		for j, pc := range ps {
			if chosen[i][j] {
				b.WriteString(pc.text)
				p.Included = append(p.Included, pc.name)
				p.Ranges = append(p.Ranges, pc.lines)
			} else {
				p.Omitted = append(p.Omitted, pc.name)
			}
		}
	}
	text := b.String()
	if len(p.Omitted) > 0 {
		text = p.withOmitted(text, count)
	}
	// Tokens of a whole are not always the sum of its parts: make sure.
	for count(text) > opts.Budget && len(p.Included) > 0 {
		last := p.Included[len(p.Included)-1]
		p.Included = p.Included[:len(p.Included)-1]
		p.Ranges = p.Ranges[:len(p.Ranges)-1]
		p.Omitted = append(p.Omitted, last)
		text = dropPiece(text, last)
	}
	p.Text = text
	p.Tokens = count(text)
	return p
}

// withOmitted appends the list of what did not fit, as much of it as the
// budget allows.
func (p *Pack) withOmitted(text string, count func(string) int) string {
	used := count(text)
	head := "\n## Not included (over the budget; ask for them by name)\n"
	if used+count(head) > p.Budget {
		return text
	}
	text += head
	used = count(text)
	for i, name := range p.Omitted {
		line := "- " + name + "\n"
		if used+count(line) > p.Budget {
			rest := fmt.Sprintf("- and %d more\n", len(p.Omitted)-i)
			if used+count(rest) <= p.Budget {
				text += rest
			}
			break
		}
		text += line
		used += count(line)
	}
	return text
}

// dropPiece removes the code block of a named piece from a pack's text.
func dropPiece(text, name string) string {
	start := strings.Index(text, marker(name))
	if start < 0 {
		return text
	}
	end := strings.Index(text[start:], "\n```\n")
	if end < 0 {
		return text
	}
	return text[:start] + text[start+end+len("\n```\n"):]
}

func marker(name string) string { return "<!-- " + name + " -->\n" }

func header(res *hone.Result) string {
	var b strings.Builder
	b.WriteString("# Context pack from hone\n\n")
	task, _ := redact.CleanText(strings.TrimSpace(res.Task))
	if len(task) > 600 {
		task = strings.ToValidUTF8(task[:600], "") + " …"
	}
	fmt.Fprintf(&b, "Task: %s\n\n", task)
	if len(res.Files) == 0 {
		b.WriteString("hone found no file for this task.")
		if res.Notice != "" {
			b.WriteString(" " + res.Notice + ".")
		}
		b.WriteString("\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Files (each with its role, target to change, context to read or test, and its relevance, the probability the task needs it; stopped: %s):\n", res.StopReason)
	if res.Notice != "" {
		fmt.Fprintf(&b, "Note: %s.\n", res.Notice)
	}
	for _, f := range res.Files {
		role := f.Role
		if role == "" {
			role = "file"
		}
		fmt.Fprintf(&b, "- %s (%s, %.2f): %s\n", redact.QuotePath(f.Path), role, f.Relevance, f.Reason)
		if len(f.MissingContext) > 0 {
			fmt.Fprintf(&b, "  missing: %s\n", strings.Join(f.MissingContext, "; "))
		}
	}
	if len(res.RelatedTests) > 0 {
		b.WriteString("Tests to run after a change:\n")
		for _, t := range res.RelatedTests {
			fmt.Fprintf(&b, "- %s (%s)\n", redact.QuotePath(t.Path), t.Reason)
		}
	}
	if len(res.PastCommits) > 0 {
		b.WriteString("Past commits like the task (what changed for tasks like it):\n")
		for _, c := range res.PastCommits {
			named := ""
			if c.Named {
				named = ", named in the task"
			}
			var files []string
			for _, f := range c.Files {
				files = append(files, redact.QuotePath(f))
			}
			fmt.Fprintf(&b, "- %.10s %s (%s%s)\n", c.Hash, redact.Line(c.Subject), strings.Join(files, ", "), named)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// filePieces are a file's parts of the pack, best first: the whole file
// when it is small, else its imports and its spans.
func (p *Pack) filePieces(root string, f hone.File) []piece {
	data, err := ReadFile(root, f.Path)
	if err != nil {
		if !errors.Is(err, ErrSecret) {
			p.Unreadable = append(p.Unreadable, f.Path)
		}
		return nil // never the contents of a secret-bearing file
	}
	// The whole file is redacted first, so that a secret across the
	// pieces' edges is found, and before control characters go, which the
	// rules may need to see.
	text, n := redact.File(f.Path, string(data))
	p.Redacted += n
	text, _ = redact.CleanText(text)
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	lang := fence(f.Path)
	qpath := redact.QuotePath(f.Path)
	block := func(name, title string, from, to int) piece {
		body := strings.Join(lines[from-1:to], "\n")
		title = strings.Replace(title, f.Path, qpath, 1)
		name = strings.Replace(name, f.Path, qpath, 1)
		return piece{name: name, text: fmt.Sprintf("%s### %s\n```%s\n%s\n```\n", marker(name), title, lang, body), lines: Range{f.Path, from, to}}
	}
	if len(lines) <= smallFile || len(f.Spans) == 0 {
		if len(lines) > smallFile*4 {
			// A big file with no spans: its head only, a definition-free
			// glimpse is worth less than other files' definitions.
			return []piece{block(fmt.Sprintf("%s:1-%d", f.Path, smallFile), fmt.Sprintf("%s (lines 1-%d of %d)", f.Path, smallFile, len(lines)), 1, smallFile)}
		}
		return []piece{block(f.Path, f.Path+" (whole file)", 1, len(lines))}
	}
	var out []piece
	if from, to := importLines(lines); to > 0 {
		out = append(out, block(fmt.Sprintf("%s:%d-%d imports", f.Path, from, to), fmt.Sprintf("%s: imports (lines %d-%d)", f.Path, from, to), from, to))
	}
	for _, s := range f.Spans {
		end := min(s.End, len(lines))
		if s.Start < 1 || s.Start > end {
			continue
		}
		name := fmt.Sprintf("%s:%d-%d %s", f.Path, s.Start, end, s.Symbol)
		title := fmt.Sprintf("%s: %s (lines %d-%d)", f.Path, s.Symbol, s.Start, end)
		if s.Why != "match" && end-s.Start > 3 {
			// A neighbour of what matched: its signature says enough.
			sig := signatureEnd(lines, s.Start, end)
			name = fmt.Sprintf("%s:%d-%d %s (signature)", f.Path, s.Start, sig, s.Symbol)
			title = fmt.Sprintf("%s: %s, signature (lines %d-%d of %d-%d)", f.Path, s.Symbol, s.Start, sig, s.Start, end)
			end = sig
		}
		out = append(out, block(name, title, s.Start, end))
	}
	return out
}

// ErrSecret is ReadFile's answer for a secret-bearing file.
var ErrSecret = errors.New("a secret-bearing file: hone never reads its contents")

// maxFileBytes: a file larger is not read (the index skips such files).
const maxFileBytes = walk.DefaultMaxFileSize

// ReadFile reads a file of the repository for output, refusing what must
// not be shown: a secret-bearing file by its name, its contents, or the
// name of the file a symbolic link leads to; a link that leaves the
// repository; anything under .git; anything but a regular file; and a
// binary file.
func ReadFile(root, slash string) ([]byte, error) {
	if walk.Classify(slash, nil).Has(walk.Secret) {
		return nil, ErrSecret
	}
	if underGit(slash) {
		return nil, fmt.Errorf("%s is under .git, which is not part of the repository's code", slash)
	}
	abs := filepath.Join(root, filepath.FromSlash(slash))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is a link that leaves the repository", slash)
	}
	relSlash := filepath.ToSlash(rel)
	if walk.Classify(relSlash, nil).Has(walk.Secret) {
		return nil, ErrSecret
	}
	if underGit(relSlash) {
		return nil, fmt.Errorf("%s leads under .git, which is not part of the repository's code", slash)
	}
	data, err := walk.ReadRegular(real, maxFileBytes)
	switch {
	case errors.Is(err, walk.ErrNotRegular):
		return nil, fmt.Errorf("%s is not a regular file", slash)
	case errors.Is(err, walk.ErrTooLarge):
		return nil, fmt.Errorf("%s is over the %d KiB the index reads", slash, maxFileBytes>>10)
	case err != nil:
		return nil, err
	}
	head := data[:min(len(data), walk.HeadSize)]
	if walk.IsBinary(head) {
		return nil, fmt.Errorf("%s is a binary file", slash)
	}
	if walk.Classify(slash, head).Has(walk.Secret) || walk.Classify(relSlash, head).Has(walk.Secret) {
		return nil, ErrSecret
	}
	return data, nil
}

// underGit: a path with a .git folder among its parts.
func underGit(slash string) bool {
	return slices.Contains(strings.Split(slash, "/"), ".git")
}

// importLines finds the run of import lines near the top of a file, each
// import whole: one that opens a block, Go's "import (", Rust's "use a::{",
// a JavaScript "import {" or Python's "from a import (", runs to the line
// that closes it. Up to two other lines may stand among the imports (an
// "if TYPE_CHECKING:", a "try:"); blank lines and comments any number.
// An import block that never closes, within maxImportBlock lines, ends
// the run before it.
func importLines(lines []string) (from, to int) {
	for i := 0; i < len(lines) && i <= 200; i++ {
		t := strings.TrimSpace(lines[i])
		if importLine.MatchString(t) {
			end := i
			if closer := opensBlock(t); closer != 0 {
				end = -1
				for j := i + 1; j < len(lines) && j <= i+maxImportBlock; j++ {
					if strings.IndexByte(lines[j], closer) >= 0 {
						end = j
						break
					}
				}
				if end < 0 {
					break
				}
			}
			if from == 0 {
				from = i + 1
			}
			to = end + 1
			i = end
			continue
		}
		if from > 0 && t != "" && !isComment(t) && i+1-to > 2 {
			break
		}
	}
	return from, to
}

// maxImportBlock: an import block longer than this is taken for no block.
const maxImportBlock = 400

// opensBlock returns the bracket that closes a block an import line
// opens and leaves open, or 0.
func opensBlock(t string) byte {
	for _, b := range [][2]byte{{'(', ')'}, {'{', '}'}} {
		if strings.Count(t, string(b[0])) > strings.Count(t, string(b[1])) {
			return b[1]
		}
	}
	return 0
}

// isComment reports whether a trimmed line is a comment line.
func isComment(t string) bool {
	for _, p := range []string{"//", "#", "/*", "*", "--"} {
		if strings.HasPrefix(t, p) && !strings.HasPrefix(t, "#include") {
			return true
		}
	}
	return false
}

var importLine = regexp.MustCompile(`^(import\b|from\s+\S+\s+import\b|#\s*include\b|use\s|require(_relative)?\b|using\s|package\s)`)

// signatureEnd is the last line of a definition's signature: up to the
// line that opens its body.
func signatureEnd(lines []string, start, end int) int {
	for i := start; i <= end && i <= start+6; i++ {
		t := strings.TrimSpace(lines[i-1])
		if strings.HasSuffix(t, "{") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "=>") {
			return i
		}
	}
	return start
}

func fence(p string) string {
	switch ext := strings.TrimPrefix(path.Ext(p), "."); ext {
	case "py", "go", "ts", "tsx", "js", "jsx", "java", "rs", "rb", "c", "h", "cpp", "cs", "php", "kt", "scala", "swift", "sh", "sql", "md", "yaml", "json", "toml":
		return ext
	}
	return ""
}
