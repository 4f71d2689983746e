package retrieve

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// A command-line tool documents its options apart from the code that
// parses them: a man page, a shell's completions, a help text, a README's
// list. A task about an option (it writes one: --squeeze-blank) changes
// the parser, and often that documentation with it. Which file documents
// the options is in the history: the file, other than code, that the
// parser's recent changes changed most often, and that writes several of
// the parser's own options. How often they changed it is the chance that
// this change does: its relevance, on the ranking's scale.

// longOption is a long option as a command line writes it: --name or
// --two-words, not a web address's path, a file's name or a decrement.
var longOption = lazyre.New(`(?:^|[^\w/.\-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`)

// webAddress is a web address: the options its query writes are not the
// task's.
var webAddress = lazyre.New(`(?i)\bhttps?://\S+`)

const (
	// optionCommits: the newest commits that changed the parser, over
	// which its documentation's share is counted.
	optionCommits = 300
	// parserOptions: the parser writes this many options at least.
	parserOptions = 5
	// sharedOptions: the documentation writes this many of the parser's
	// options at least.
	sharedOptions = 3
	// docCommits: the documentation changed with the parser this many
	// times at least.
	docCommits = 2
)

// longOptions are the long options text writes, each once.
func longOptions(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range longOption().FindAllStringSubmatchIndex(text, -1) {
		end := m[3]
		// The option ends its word: not --name/x, --name_x or --nameX.
		if end < len(text) {
			if c := text[end]; c == '/' || c == '_' || c >= 'A' && c <= 'Z' {
				continue
			}
		}
		out[text[m[2]:end]] = true
	}
	return out
}

// writesOption reports whether a task writes a long option, web
// addresses aside.
func writesOption(task string) bool {
	return len(longOptions(webAddress().ReplaceAllString(task, " "))) > 0
}

// optionDoc is the documentation of the options the parser at p writes
// (see above), and its share of the newest optionCommits commits that
// changed p; "" when p is no parser of options, or nothing documents
// them. read gives a file's text.
func optionDoc(ix *index.Index, log *history.Log, p string, read func(*index.Entry) string) (doc string, share float64) {
	e := ix.Entry(p)
	if log == nil || e == nil || !structure.IsCode(e.Lang) || e.Kind.Has(walk.Test) {
		return "", 0
	}
	opts := longOptions(read(e))
	if len(opts) < parserOptions {
		return "", 0
	}
	n := 0
	with := map[string]int{}
	for _, c := range log.Commits {
		if n == optionCommits {
			break
		}
		if !slices.Contains(c.Files, p) {
			continue
		}
		n++
		for _, f := range c.Files {
			if f != p {
				with[f]++
			}
		}
	}
	var docs []string
	for f, k := range with {
		if k >= docCommits {
			docs = append(docs, f)
		}
	}
	// The most written first; of two as often, by path.
	slices.SortFunc(docs, func(a, b string) int { return cmp.Or(with[b]-with[a], strings.Compare(a, b)) })
	for _, f := range docs {
		d := ix.Entry(f)
		if d == nil || !documentsOptions(d) {
			continue
		}
		shared := 0
		for o := range longOptions(read(d)) {
			if opts[o] {
				shared++
			}
		}
		if shared >= sharedOptions {
			return f, float64(with[f]) / float64(n+1)
		}
	}
	return "", 0
}

// documentsOptions reports whether a file could be a command line's
// documentation: text, a man page or a shell's script (completions), not
// a test, vendored or secret, no changelog (placed on its own), and no
// README: a project's front page shows a few options as examples, and is
// written for more than its options.
func documentsOptions(e *index.Entry) bool {
	if e.Kind.Has(walk.Test) || e.Kind.Has(walk.Vendor) || e.Kind.Has(walk.Secret) {
		return false
	}
	if strings.HasPrefix(strings.ToLower(path.Base(e.Path)), "readme") {
		return false
	}
	if structure.IsCode(e.Lang) && e.Lang != "shell" {
		return false
	}
	_, changelog := structure.ChangelogOwner(e.Path)
	return !changelog
}

// withOptionDoc places the documentation of the options the ranking's
// best file parses, where its share says (placeByShare), when the task
// writes an option.
func withOptionDoc(ranking []hone.Ranked, doc string, share float64) []hone.Ranked {
	if doc == "" || share <= 0 {
		return ranking
	}
	return placeByShare(ranking, doc, share)
}
