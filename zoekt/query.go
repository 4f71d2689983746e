package zoekt

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/tokenize"
)

// maxTerms bounds the terms of one query; maxConcepts the concepts, the
// most important first, that get a search of their own.
const (
	maxTerms    = 24
	maxConcepts = 4
)

// wordRE is compiled when first asked for: only a run over zoekt needs it.
var wordRE = lazyre.New(`[\p{L}_][\p{L}\p{N}_]*`)

// TaskQuery is the first search of a task: its identifiers as written,
// then its words of four letters or more that are no stop words, any of
// them, any case; files that match more of them rank first (BM25). The
// globs of include and exclude narrow it.
func TaskQuery(task string, include, exclude []string) string {
	var idents, words []string
	seen := map[string]bool{}
	for _, w := range wordRE().FindAllString(task, -1) {
		lw := strings.ToLower(w)
		if seen[lw] || len([]rune(w)) < 3 {
			continue
		}
		seen[lw] = true
		switch {
		case isIdentifier(w):
			idents = append(idents, w)
		case len([]rune(w)) >= 4 && !tokenize.IsStopWord(lw):
			words = append(words, lw)
		}
	}
	terms := append(idents, words...)
	if len(terms) > maxTerms {
		terms = terms[:maxTerms]
	}
	return build(terms, include, exclude)
}

// isIdentifier: a word written as code (camelCase, snake_case, digits).
func isIdentifier(w string) bool {
	upper, lower := false, false
	for i, r := range w {
		switch {
		case r == '_' || unicode.IsDigit(r):
			return true
		case unicode.IsUpper(r):
			upper = upper || i > 0
		case unicode.IsLower(r):
			lower = true
		}
	}
	return upper && lower
}

// A Search is one query, and the files it may return at most.
type Search struct {
	Q     string
	Limit int
}

// LoopSearches are LoopQueries with their shares of limit: the broad
// search has it whole, each concept a quarter, the learned terms half,
// each gap's symbol five files.
func LoopSearches(q hone.Query, include, exclude []string, limit int) []Search {
	qs := LoopQueries(q, include, exclude)
	out := make([]Search, len(qs))
	for i, s := range qs {
		l := max(5, limit/4)
		switch {
		case strings.Contains(s, "sym:"):
			l = 5
		case i == 0:
			l = limit
		}
		out[i] = Search{Q: s, Limit: l}
	}
	return out
}

// LoopQueries are the searches a run's query makes of the cluster: one
// for any of the task's concepts, then one for each of them, every way the run came to say it (the
// task's words, synonyms, translations, the codebase's terms); one for
// the terms refine learned; and one for each gap's definition, by its
// symbol. The globs the query learned, and those of include and exclude,
// narrow each.
func LoopQueries(q hone.Query, include, exclude []string) []string {
	var order []string
	byConcept := map[string][]string{}
	var learned []string
	for _, t := range q.Terms {
		label := strings.TrimSpace(t.Label)
		if len([]rune(label)) < 3 || t.Kind == "path" {
			continue
		}
		if t.Kind == "learned" {
			learned = appendNew(learned, label)
			continue
		}
		if _, ok := byConcept[t.Concept]; !ok {
			order = append(order, t.Concept)
		}
		byConcept[t.Concept] = appendNew(byConcept[t.Concept], label)
	}
	// The broad search first: any of the concepts, files that match
	// more of them first; then each concept on its own, so that a rare
	// one has its own files.
	var all []string
	for _, c := range order {
		for _, l := range byConcept[c] {
			all = appendNew(all, l)
			// A concept of several words: each word too, so that the
			// files that say one of them in another sense are fetched
			// as well, as the embedded index has them.
			if ws := strings.Fields(l); len(ws) > 1 {
				for _, w := range ws {
					if len(w) >= 4 && !tokenize.IsStopWord(strings.ToLower(w)) {
						all = appendNew(all, w)
					}
				}
			}
		}
	}
	var out []string
	if len(order) > 1 {
		out = append(out, build(all, include, exclude))
	}
	for i, c := range order {
		if i == maxConcepts {
			break
		}
		out = append(out, build(byConcept[c], include, exclude))
	}
	if len(learned) > 0 {
		out = append(out, build(learned, include, exclude))
	}
	for _, g := range q.Gaps {
		if (g.Kind == "call" || g.Kind == "model") && wordRE().FindString(g.Name) == g.Name && len(g.Name) >= 3 {
			if sq := narrow("sym:"+regexpQuote(g.Name), include, exclude); !contains(out, sq) {
				out = append(out, sq)
			}
		}
	}
	return out
}

func appendNew(ss []string, s string) []string {
	for _, x := range ss {
		if strings.EqualFold(x, s) {
			return ss
		}
	}
	return append(ss, s)
}

// build makes the query of any of the terms, any case, narrowed by the
// globs.
func build(terms []string, include, exclude []string) string {
	if len(terms) > maxTerms {
		terms = terms[:maxTerms]
	}
	var parts []string
	for _, t := range terms {
		// A term of several words matches them with anything between:
		// "access token" is access_token and accessToken too.
		words := strings.Fields(t)
		for i, w := range words {
			words[i] = regexpQuote(w)
		}
		parts = append(parts, strings.Join(words, `[\s_-]*`))
	}
	if len(parts) == 0 {
		return ""
	}
	return narrow("case:no ("+strings.Join(parts, " or ")+")", include, exclude)
}

// narrow adds the file filters of include and exclude globs.
func narrow(q string, include, exclude []string) string {
	if len(include) > 0 {
		var fs []string
		for _, g := range include {
			fs = append(fs, "f:"+GlobRegexp(g))
		}
		q = "(" + strings.Join(fs, " or ") + " ) " + q
	}
	for _, g := range exclude {
		q += " -f:" + GlobRegexp(g)
	}
	return q
}

// GlobRegexp is a glob as a regular expression over a file's path in its
// repository, read as a line of a .gitignore is, as hone reads --include
// and --exclude: * within a folder, ** across folders, ? one character,
// {a,b} either; one with no slash but at its end matches a name at any
// depth, one with a slash before its end or a leading one a path from the
// root; one that ends in a slash matches folders alone; and what matches a
// folder matches everything under it. It is a prefilter: hone matches the
// globs exactly on the files it gets.
func GlobRegexp(g string) string {
	if g == "." || g == "./" || g == "/" {
		return "^" // the repository's root: every file
	}
	anchored := strings.HasPrefix(g, "./") || strings.HasPrefix(g, "/")
	g = strings.TrimPrefix(g, "./")
	g = strings.TrimPrefix(g, "/")
	tail := "(/|$)" // the path itself, or what lies under it
	if strings.HasSuffix(g, "/") {
		tail = "/" // a folder alone: what lies under it
	}
	g = strings.TrimRight(g, "/")
	anchored = anchored || strings.Contains(g, "/")
	// "dir/**" is what lies under dir, as "dir/" is: its ".*" says so.
	// Where what comes before it is a glob too ("**/**"), it is the
	// folders that glob matches, as "glob/" is.
	if rest, ok := strings.CutSuffix(g, "/**"); ok {
		if strings.ContainsAny(rest, "*?[{\\") {
			g, tail = rest, "/"
		} else {
			tail = "$"
		}
	}
	if g == "" {
		return "^$" // no file
	}
	anchor := "^"
	if !anchored {
		anchor = "(^|/)"
	}
	if !strings.ContainsAny(g, "*?[{\\") {
		return anchor + regexpQuote(g) + tail
	}
	var b strings.Builder
	b.WriteString(anchor)
	// A brace is a group only where it closes: "{a,b" is literal text, as
	// an unclosed bracket is.
	closes := braceGroups(g)
	var open []int // the braces that are groups, innermost last
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			// ** is a globstar only as a whole segment (doublestar's
			// rule): elsewhere it is two *.
			if i+1 < len(g) && g[i+1] == '*' && (i == 0 || g[i-1] == '/') && (i+2 == len(g) || g[i+2] == '/') {
				i++
				if i+1 < len(g) && g[i+1] == '/' {
					i++
					b.WriteString("(.*/)?")
				} else {
					b.WriteString(".*")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '{':
			if _, ok := closes[i]; ok {
				open = append(open, i)
				b.WriteString("(")
			} else {
				b.WriteString(`\{`)
			}
		case '}':
			if n := len(open); n > 0 && closes[open[n-1]] == i {
				open = open[:n-1]
				b.WriteString(")")
			} else {
				b.WriteString(`\}`)
			}
		case ',':
			if len(open) > 0 {
				b.WriteString("|")
			} else {
				b.WriteString(",")
			}
		case '[':
			class, n := globClass(g[i:])
			if n == 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(class)
			i += n - 1
		case '\\':
			if i+1 < len(g) {
				i++
				b.WriteString(regexpQuote(string(g[i])))
			} else {
				b.WriteString(`\\`)
			}
		default:
			b.WriteString(regexpQuote(string(c)))
		}
	}
	b.WriteString(tail)
	re := b.String()
	if _, err := regexp.Compile(re); err != nil {
		// What is no expression (a range backwards, "[z-a]") is taken as
		// the text it is.
		return anchor + regexpQuote(g) + tail
	}
	return re
}

// NameRegexp is a regular expression over a file's path in its
// repository that matches the files of that name, the name taken as it
// is, in any folder.
func NameRegexp(name string) string {
	return "(^|/)" + regexpQuote(name) + "$"
}

// braceGroups maps each brace of g that opens a group to the brace that
// closes it; braces that do not pair are left out, and are literal.
// Brackets and escaped characters hold no braces.
func braceGroups(g string) map[int]int {
	out := map[int]int{}
	var stack []int
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '\\':
			i++
		case '[':
			if _, n := globClass(g[i:]); n > 0 {
				i += n - 1
			}
		case '{':
			stack = append(stack, i)
		case '}':
			if n := len(stack); n > 0 {
				out[stack[n-1]] = i
				stack = stack[:n-1]
			}
		}
	}
	return out
}

// globClass reads the bracket expression at the start of g ("[abc]",
// "[!a-z]", "[]x]", "[[:alpha:]_]") as a regular expression's class, and
// how many bytes of g it spans; 0 where the bracket does not close, and
// is literal. A ']' first in the class (after any '!') is one of its
// characters, as in a shell's glob; so is every other character but a
// range's '-' and a POSIX class's name.
func globClass(g string) (string, int) {
	i := 1
	var b strings.Builder
	b.WriteString("[")
	if i < len(g) && (g[i] == '!' || g[i] == '^') {
		b.WriteString("^")
		i++
	}
	first := true
	for ; i < len(g); i++ {
		c := g[i]
		switch {
		case c == ']' && !first:
			b.WriteString("]")
			return b.String(), i + 1
		case c == '[' && i+1 < len(g) && g[i+1] == ':':
			if j := strings.Index(g[i+2:], ":]"); j >= 0 && posixClass[g[i+2:i+2+j]] {
				b.WriteString(g[i : i+2+j+2])
				i += 2 + j + 1
				break
			}
			b.WriteString(`\[`)
		case c == '-' && !first && i+1 < len(g) && g[i+1] != ']':
			b.WriteString("-")
		case c == '\\' && i+1 < len(g):
			// An escaped character is itself: \0 is a 0, not a NUL.
			r, size := utf8.DecodeRuneInString(g[i+1:])
			i += size
			if strings.ContainsRune(`\[]^-`, r) {
				b.WriteString(`\` + string(r))
			} else {
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		case strings.IndexByte(`\[]^-`, c) >= 0:
			b.WriteString(`\` + string(c))
		default:
			r, size := utf8.DecodeRuneInString(g[i:])
			b.WriteRune(r)
			i += size - 1
		}
		first = false
	}
	return "", 0
}

// posixClass holds the names of the POSIX character classes a bracket
// may hold, as [[:alpha:]].
var posixClass = map[string]bool{
	"alnum": true, "alpha": true, "ascii": true, "blank": true, "cntrl": true, "digit": true, "graph": true,
	"lower": true, "print": true, "punct": true, "space": true, "upper": true, "word": true, "xdigit": true,
}
