// Package pack turns a retrieval result into a context pack: a text, held
// to a token budget, to paste into a subagent's prompt. It holds a header
// (the task, the files with their relevance, reasons and missing context,
// and why the loop stopped), then the code: each file's imports and the
// definitions that matter, whole, or the whole file when it is small. The
// most relevant content goes in first; a definition is never cut in half;
// what did not fit is listed by name, so the agent can ask for it.
package pack

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hone-tools/hone"
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
	// Redacted counts the strings that looked like keys or tokens and were
	// replaced.
	Redacted int
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

// piece is one unit of the pack: it goes in whole or not at all.
type piece struct {
	text string
	name string // for Included and Omitted
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
	task := strings.TrimSpace(res.Task)
	if len(task) > 600 {
		task = task[:600] + " …"
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
	fmt.Fprintf(&b, "Files (target: likely where the change goes, with the probability it is; context: what the targets need; stopped: %s):\n", res.StopReason)
	for _, f := range res.Files {
		role := f.Role
		if role == "" {
			role = "file"
		}
		fmt.Fprintf(&b, "- %s (%s, %.2f): %s\n", f.Path, role, f.Relevance, f.Reason)
		if len(f.MissingContext) > 0 {
			fmt.Fprintf(&b, "  missing: %s\n", strings.Join(f.MissingContext, "; "))
		}
	}
	if len(res.RelatedTests) > 0 {
		b.WriteString("Tests to run after a change:\n")
		for _, t := range res.RelatedTests {
			fmt.Fprintf(&b, "- %s (%s)\n", t.Path, t.Reason)
		}
	}
	if len(res.PastCommits) > 0 {
		b.WriteString("Past commits like the task (what changed for tasks like it):\n")
		for _, c := range res.PastCommits {
			named := ""
			if c.Named {
				named = ", named in the task"
			}
			fmt.Fprintf(&b, "- %.10s %s (%s%s)\n", c.Hash, c.Subject, strings.Join(c.Files, ", "), named)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// filePieces are a file's parts of the pack, best first: the whole file
// when it is small, else its imports and its spans.
func (p *Pack) filePieces(root string, f hone.Evaluation) []piece {
	if walk.Classify(f.Path, nil).Has(walk.Secret) {
		return nil // never the contents of a secret-bearing file
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
	if err != nil || walk.IsBinary(data[:min(len(data), walk.HeadSize)]) || walk.Classify(f.Path, data[:min(len(data), walk.HeadSize)]).Has(walk.Secret) {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	lang := fence(f.Path)
	block := func(name, title string, from, to int) piece {
		body := strings.Join(lines[from-1:to], "\n")
		body, n := redact(body)
		p.Redacted += n
		return piece{name: name, text: fmt.Sprintf("%s### %s\n```%s\n%s\n```\n", marker(name), title, lang, body)}
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

// importLines finds the run of import lines near the top of a file.
func importLines(lines []string) (from, to int) {
	for i, l := range lines {
		if i > 200 {
			break
		}
		t := strings.TrimSpace(l)
		if importLine.MatchString(t) {
			if from == 0 {
				from = i + 1
			}
			to = i + 1
		} else if from > 0 && t != "" && !strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "#") &&
			!strings.HasPrefix(t, ")") && !strings.HasPrefix(t, "}") && !strings.HasSuffix(lines[to-1], "(") &&
			!strings.HasSuffix(lines[to-1], ",") && !strings.HasSuffix(lines[to-1], "{") && i-to > 2 {
			break
		}
	}
	return from, to
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

// Strings that look like credentials: a private key block, known key
// formats, and values assigned to names that say key, secret, token or
// password.
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`),
	regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),
	regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b`),
	regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{20,}\b`),
	regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`),
	regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b`),
}

var assignedSecret = regexp.MustCompile(`(?i)((?:api[_-]?key|secret|token|passw(?:or)?d|credential|private[_-]?key)[A-Za-z0-9_-]*["']?\s*[:=]\s*["'])([^"'\s]{8,})(["'])`)

// redact replaces what looks like a key or token, and counts it.
func redact(s string) (string, int) {
	n := 0
	for _, re := range secretPatterns {
		s = re.ReplaceAllStringFunc(s, func(string) string { n++; return "[REDACTED]" })
	}
	s = assignedSecret.ReplaceAllStringFunc(s, func(m string) string {
		parts := assignedSecret.FindStringSubmatch(m)
		if strings.Contains(parts[2], "[REDACTED]") || looksLikeCode(parts[2]) {
			return m
		}
		n++
		return parts[1] + "[REDACTED]" + parts[3]
	})
	return s, n
}

// looksLikeCode tells a placeholder or a reference from a secret: a value
// with spaces, an environment lookup, a template.
func looksLikeCode(v string) bool {
	return strings.ContainsAny(v, "${}<>()") || strings.HasPrefix(v, "process.env") || strings.HasPrefix(v, "os.")
}
