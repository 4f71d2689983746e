package pack

import (
	"fmt"
	"math"
	pathpkg "path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
)

// A pack is made of units: runs of a file's lines that go in whole or not
// at all. Every line of a file lies in one unit: its imports, each
// definition (the innermost, so that a long class gives its methods one
// by one), and the lines between them, in runs of maxGap lines at most. A
// unit is worth what its evidence says: the file's relevance, times the
// chance that the change lies in it, from what the retrieval said of it
// (a definition named for the task, one the other files call) and how
// much of the task's concepts its lines and its name hold. The pack takes
// the units of most worth per token.

// unit is one run of a file's lines.
type unit struct {
	file     int // the index of its file
	at       int // its index among the pack's units
	from, to int // lines, 1-based, inclusive
	symbol   string
	why      string    // match, callee, caller, imports, definition, lines
	worth    float64   // its expected worth to the task
	x        []float64 // its features, in UnitFeatures' order
	tokens   int
	chosen   bool
	whole    bool // the file's only unit: the whole file
	// cut are the first and last lines left out of the middle of a unit
	// too large for the budget, or zeros.
	cut [2]int
	// bytes, for a unit of a few long lines too large for the budget (a
	// minified bundle's line), are where the middle left out of its text
	// (its lines joined) starts and ends, or zeros.
	bytes [2]int
	// within names, for a run of lines that no unit of its own holds, the
	// definition it lies in (a function whose nested functions are units
	// of their own): it is shown and listed as part of that definition.
	within string
	// head and doc are, for each part of a Python definition cut from
	// its long docstring (docstringCut: its signature, its docstring's
	// runs, its body), the lines of its signature and of its docstring,
	// zeros for any other unit: a block that shows a part shows the
	// signature above it, and says which of the docstring's lines it
	// leaves out (see layout).
	head, doc [2]int
	// dropped is how many lines of its preamble (doc comment, decorators)
	// a copy cut to fit left out before from, where the preamble and the
	// signature did not fit together (elide's bare copy, whole or cut);
	// they are listed as left out.
	dropped int
}

// trimmed reports whether the unit goes in with its middle left out.
func (u *unit) trimmed() bool { return u.cut[0] > 0 || u.bytes[1] > 0 }

// A unit's worth is the chance that the task needs it: the file's
// relevance, times the chance that what the task changes in the file lies
// in the unit. That chance is a softmax over the file's units of a linear
// score of the unit's features (UnitFeatures), with UnitWeights:
//   - lines: the log of its lines (at weight 1, a long unit would weigh
//     per token as a short one of the same kind does; the fit gives it
//     far less: the change is in the unit that holds the task's words,
//     whatever its size);
//   - match, imports, gap (the lines between definitions), callee,
//     caller: what the unit is (a definition otherwise);
//   - concepts: log(1 + 2s), s the weighted share of the task's concepts
//     that its lines hold a term of;
//   - name: the weighted share of the concepts its definition's name
//     holds a term of;
//   - mentions: the log of 1 + how many of its words are a concept's
//     terms;
//   - framed: the task names one of its lines (a stack trace's frame, a
//     link's #L12, "line 12 of a/b.py": traceFrames);
//   - literal: one of its string literals is in the task as it is written
//     (a part between its placeholders, of eight characters or more with
//     a space, - or _ among them): the error message the task quotes;
//   - quoted: the log of 1 + how many of the strings the task quotes
//     (in backticks or quotes), of its -options and of the check codes it
//     names (E108) its text holds, as they are written;
//   - named: the task writes its definition's own name as code (with an
//     underscore or an inner capital, called, or after a dot): the
//     `set_ticks` of "Axis.set_ticks() ignores kwargs";
//   - owner: the task writes, as code, the name of the class or module
//     that holds it: each method of `RenameIndex()`;
//   - past: it still holds a line that a past commit like the task (the
//     result's PastCommits) wrote in the file (Options.PastLines): code
//     that changed for tasks like this one.
//
// The weights were fitted on the units of the gold files of SWE-bench Lite
// and Multi-SWE-bench's development set (1,140 files), a unit being gold
// when it holds a line a fix's hunk changed, by
//
//	hone bench packs --fit --dump SWE,MULTI --test UW --pack-budget 2000,4000,8000,16000 --repos MIRRORS
//
// over the dumps of runs of both sets (hone bench --pack-dump; --repos
// reads the past commits' lines of dumps written without them). Held out
// by repository, with the packing of 7f57abe, SWE-bench Lite's packs hold
// every gold hunk in 39.7/55.0/71.3/81.0% of instances at 2k/4k/8k/16k
// tokens, and Multi-SWE-bench's in 12.5/22.3/30.4/35.1%; a set of tasks
// in users' words, never fitted on, with the weights fitted on both:
// 35.3/57.1/69.9/84.6%. With the packing before it (the ranking's next
// five files, not ten): 40.3/56.0/71.0/78.7%, 11.9/21.6/28.2/33.2% and
// 36.5/55.8/71.2/79.5%; without past, 39.7/55.7/71.7/77.3%,
// 11.0/20.1/27.6/33.5% and 35.9/57.1/70.5/79.5%; without named and owner
// too, 37.7/54.0/71.7/77.0%, 11.9/18.8/27.0/32.6% and
// 33.3/55.8/69.9/79.5%. With an earlier packing, literal and quoted added
// 1 to 5 instances a budget on each fitted set, held out, and the kinds'
// weights alone held 4 to 10 points fewer on SWE-bench Lite.
var (
	unitFeatures = []string{"lines", "match", "imports", "gap", "callee", "caller", "concepts", "name", "mentions", "framed", "literal", "quoted", "named", "owner", "past"}
	unitWeights  = []float64{0.145, 0.4194, 0.9575, -0.09735, 0.04559, -0.02127, 3.021, 2.138, 0.2879, 1.182, 0.8619, 1.02, 1.026, 0.7044, 0.7904}
)

// UnitFeatures names a unit's features, in the order of UnitWeights and
// of BuildWeighted's weights. The slice is the caller's own.
func UnitFeatures() []string { return slices.Clone(unitFeatures) }

// UnitWeights returns the fitted weights of a unit's features, in the
// order of UnitFeatures. The slice is the caller's own.
func UnitWeights() []float64 { return slices.Clone(unitWeights) }

// unitKinds are the kinds of unit that have a feature of their own, in
// UnitFeatures' order from its second.
var unitKinds = map[string]int{"match": 1, "imports": 2, "lines": 3, "callee": 4, "caller": 5}

// splitSpan: a retrieval span longer than this many lines gives way to
// the definitions it holds.
const splitSpan = 80

// smallContainer: a definition of this many lines at most that holds
// others is one unit with them; smallGroup, a group of Go declarations
// (const ( ... )), whose lines are each a name's.
const (
	smallContainer = 6
	smallGroup     = 24
)

// goGroup opens a group of Go declarations at a line's start.
var goGroup = lazyre.New(`^(const|var|type)\s*\(\s*(//.*)?$`)

// goGroups are the groups of Go declarations in lines (const ( ... )),
// from their opening to their closing parenthesis at a line's start, each
// named by the definitions in it (its first, and how many more); a group
// of none is left out.
func goGroups(lines []string, defs []iv) []iv {
	var out []iv
	for l := 1; l <= len(lines); l++ {
		if !goGroup().MatchString(lines[l-1]) {
			continue
		}
		end := l + 1
		for end <= len(lines) && !strings.HasPrefix(lines[end-1], ")") {
			end++
		}
		if end > len(lines) {
			break
		}
		first, n := iv{from: end}, 0
		for _, d := range defs {
			if l < d.from && d.to < end {
				if n++; d.from < first.from {
					first = d
				}
			}
		}
		if n > 0 {
			sym := first.symbol
			if n > 1 {
				sym += fmt.Sprintf(" and %d more", n-1)
			}
			out = append(out, iv{l, end, sym, "definition"})
		}
		l = end
	}
	return out
}

// dataKinds are the kinds of definition that may hold no code of their
// own, only values, fields or signatures: one longer than splitSpan lines
// (a C enum of a hundred parameters, each with its comment; a Go struct's
// fields; a TypeScript interface's options) is cut into runs of lines as
// the lines between definitions are, so that the value a change needs can
// go in without the rest. (One whose methods are units gives way to them
// whatever its length.)
var dataKinds = map[string]bool{"type": true, "enum": true, "struct": true, "interface": true}

const (
	// maxGap: lines between definitions go in runs of at most this many.
	maxGap = 40
	// relevanceFloor: a result's file gets this share of the budget at
	// least, by relevance, for its best unit (see Build).
	relevanceFloor = 0.05
	// worthFloor: a file's units are worth what its relevance says, and
	// this at least, so that a file the ranking puts near 0 (the files
	// the result calls, often) still ranks its own units.
	worthFloor = 0.01
)

// concepts are the task's concepts as the pack weighs them: each
// concept's stems, and its weight; and the lines the task names (its
// stack traces', its links', its prose's: traceFrames).
type concepts struct {
	// of maps each of the concepts' stems to the concepts that hold it,
	// by their index in weight.
	of     map[string][]int
	weight []float64
	all    float64
	frames []frame
	// task is the task's text; quoted are the strings it quotes, and
	// its options.
	task   string
	quoted []string
	// idents are the words of the task written as code: with an
	// underscore or an inner capital, called, or after a dot.
	idents map[string]bool
	// past are the lines past commits like the task wrote in the file
	// at hand (see Options.PastLines).
	past map[string]bool
}

// pastSet is the set of the lines past commits wrote that tell something:
// of eight characters or more, with a letter.
func pastSet(lines []string) map[string]bool {
	var m map[string]bool
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if len(l) < 8 || !strings.ContainsFunc(l, unicode.IsLetter) {
			continue
		}
		if m == nil {
			m = map[string]bool{}
		}
		m[l] = true
	}
	return m
}

// pastIn is how many of text's lines past commits like the task wrote.
func (c concepts) pastIn(text string) int {
	if len(c.past) == 0 {
		return 0
	}
	n := 0
	for l := range strings.Lines(text) {
		if c.past[strings.TrimSpace(l)] {
			n++
		}
	}
	return n
}

// frame is a run of lines the task names: a stack trace's line, a link's
// lines, a "line 745" in its prose. path is as the task writes it
// (absolute, relative to somewhere else, or a link), and the lines are
// from..to.
type frame struct {
	path     string
	from, to int
}

// The ways a task names a file's lines, each with the groups path, from
// and, where it can, to:
//   - Python's trace frame, `File "a/b.py", line 12`;
//   - the `path:line` of most other traces (Go, Rust, JavaScript, Java's
//     `(Foo.java:123)`);
//   - C#'s `in C:\src\F.cs:line 12`, its path's spaces and all (C:\My
//     Projects\src\My Lib\F.cs);
//   - a link to a line or lines of a repository's file:
//     `…/blob/main/src/x.c#L12`, `#L12-L20`, `#L12C3-L20C5`,
//     `README.md?plain=1#L5` (GitHub, GitLab, Gitea);
//   - prose: `a/b.py line 12`, `a/b.py, lines 12-20`, `a/b.py at line 12`,
//     `a/b.py in 745 line`, `line 12 of a/b.py`.
//
// A prose match that the words after it give to another file ("a.py, line
// 40 of b.py") or make a size ("config.py in 80 line width") is none.
var framePatterns = []struct {
	re     func() *regexp.Regexp
	reject func() *regexp.Regexp // what may not follow the match
}{
	{re: lazyre.New(`File "(?P<path>[^"\n]+)", line (?P<from>\d+)`)},
	{re: lazyre.New(`(?P<path>[\w./\\-]+\.[A-Za-z]{1,5}):(?P<from>\d+)`)},
	{re: lazyre.New(`\bin (?P<path>(?:[A-Za-z]:)?[^\s:"'(][^:"'\n]*?\.[A-Za-z]{1,5}):line (?P<from>\d+)`)},
	{re: lazyre.New(`(?P<path>[\w./-]+\.[A-Za-z]{1,5})(?:\?[\w=&]*)?#L(?P<from>\d+)(?:C\d+)?(?:-L?(?P<to>\d+)(?:C\d+)?)?`)},
	{re: lazyre.New(`(?i)(?P<path>[\w./\\-]+\.[a-z]{1,5})[` + "`" + `'"]?,?\s+(?:(?:at|in|on)\s+)?lines?\s+(?P<from>\d+)(?:\s*(?:-|–|to)\s*(?P<to>\d+))?\b`),
		reject: lazyre.New(`(?i)^\s+(?:of|in)\s+[` + "`" + `'"]?[\w./\\-]+\.[a-z]{1,5}\b`)},
	{re: lazyre.New(`(?i)(?P<path>[\w./\\-]+\.[a-z]{1,5})[` + "`" + `'"]?,?\s+in\s+(?P<from>\d+)(?:st|nd|rd|th)?\s+line\b`),
		reject: lazyre.New(`(?i)^\s*(?:width|length|limit|long|wrap)`)},
	{re: lazyre.New(`(?i)\blines?\s+(?P<from>\d+)(?:\s*(?:-|–|to)\s*(?P<to>\d+))?\s+(?:of|in)\s+[` + "`" + `'"]?(?P<path>[\w./\\-]+\.[a-z]{1,5})`)},
}

// maxFrames: the frames of a task read at most; maxFrameLines: the most
// lines one frame names (a link to a whole file's lines names none).
const (
	maxFrames     = 200
	maxFrameLines = 200
)

// traceFrames finds the lines the task names, each run once.
func traceFrames(task string) []frame {
	var out []frame
	seen := map[frame]bool{}
	for _, p := range framePatterns {
		re := p.re()
		iPath, iFrom, iTo := re.SubexpIndex("path"), re.SubexpIndex("from"), re.SubexpIndex("to")
		for _, at := range re.FindAllStringSubmatchIndex(task, maxFrames) {
			if p.reject != nil && p.reject().MatchString(task[at[1]:]) {
				continue
			}
			group := func(i int) string {
				if i < 0 || at[2*i] < 0 {
					return ""
				}
				return task[at[2*i]:at[2*i+1]]
			}
			from, err := strconv.Atoi(group(iFrom))
			if err != nil || from <= 0 {
				continue
			}
			to := from
			if t := group(iTo); t != "" {
				n, err := strconv.Atoi(t)
				if err != nil || n <= 0 {
					continue
				}
				from, to = min(from, n), max(from, n) // lines 5-3: 3 to 5
				if to-from >= maxFrameLines {
					continue // a whole file's lines name none
				}
			}
			f := frame{strings.ReplaceAll(group(iPath), "\\", "/"), from, to}
			if !seen[f] && len(out) < maxFrames {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// framed reports whether a frame names one of the lines from..to of the
// file at path: the frame's path is the file's, or ends with it, or (for
// a bare file name, as Java writes) the file's name.
func (c concepts) framed(path string, from, to int) bool {
	for _, f := range c.frames {
		if f.to < from || f.from > to {
			continue
		}
		if f.path == path || strings.HasSuffix(f.path, "/"+path) || !strings.Contains(f.path, "/") && f.path == pathpkg.Base(path) {
			return true
		}
	}
	return false
}

func taskConcepts(res *hone.Result) concepts {
	var c concepts
	for _, k := range res.Concepts {
		if k.Kind == "path" || k.Weight <= 0 {
			continue
		}
		m := map[string]bool{}
		for _, t := range k.Terms {
			for _, s := range strings.Fields(t) {
				m[s] = true
			}
		}
		if len(m) == 0 {
			continue
		}
		if c.of == nil {
			c.of = map[string][]int{}
		}
		for s := range m {
			c.of[s] = append(c.of[s], len(c.weight))
		}
		c.weight = append(c.weight, k.Weight)
		c.all += k.Weight
	}
	c.frames = traceFrames(res.Task)
	c.task = res.Task
	c.quoted = taskQuoted(res.Task)
	c.idents = taskIdents(res.Task)
	return c
}

// What a task quotes: `code`, "strings", 'strings', and -options (a
// hyphenated word's tail reads as one too); and the check and message
// codes it names, quoted or not (E108, W0511): the code is written in the
// one definition that raises it, as admin.E108 or "W0511".
// taskCode finds, anywhere in the text, what retrieve's codeKey takes as
// a whole word: the two say what a code is alike.
var (
	taskQuote  = lazyre.New("`([^`\\n]{3,100})`" + `|"([^"\n]{3,100})"|(?:^|[^\w])'([^'\n]{3,100})'(?:[^\w]|$)`)
	taskOption = lazyre.New(`--?[a-z][\w-]{2,}`)
	taskCode   = lazyre.New(`\b[A-Z]{1,4}\d{3,5}\b`)
)

// maxQuoted: the quoted strings of a task read at most.
const maxQuoted = 200

// taskQuoted finds the strings a task quotes, its options and its codes,
// each once.
func taskQuoted(task string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(s) >= 3 && !seen[s] && len(out) < maxQuoted {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, m := range taskQuote().FindAllStringSubmatch(task, maxQuoted) {
		add(m[1] + m[2] + m[3])
	}
	for _, m := range taskOption().FindAllString(task, maxQuoted) {
		add(m)
	}
	for _, m := range taskCode().FindAllString(task, maxQuoted) {
		add(m)
	}
	return out
}

// String literals in code, and the placeholders that format them.
var (
	codeString  = lazyre.New(`"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'`)
	placeholder = lazyre.New(`%(?:\(\w*\))?[-#0 +]*\d*(?:\.\d+)?[a-zA-Z%]|\{[^{}]*\}|\$\{[^{}]*\}|\\[a-z]`)
)

// literal reports whether text holds a string literal that the task
// quotes: a part of it between its placeholders, of eight characters or
// more with a space, - or _ among them (a phrase, an option's or a
// setting's name: one plain word tells too little), in the task as it is
// written.
func (c concepts) literal(text string) bool {
	if c.task == "" {
		return false
	}
	found := false
	stringLiterals(text, func(content string) bool {
		if len(content) < 8 {
			return true // no part of it is long enough
		}
		for _, part := range placeholder().Split(content, -1) {
			part = strings.Trim(part, " .,:;!?")
			if len(part) < 8 || !strings.ContainsAny(part, " -_") {
				continue
			}
			if strings.Contains(c.task, part) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// stringLiterals calls fn with the content of each string literal of
// text, in order, as codeString's matches give them, until fn returns
// false: a literal is quoted by " or ', on one line, a backslash taking
// the character after it (not a line break). Written out, for the
// regexp's engine took a tenth of a context pack's CPU
// (TestStringLiteralsAsRegexp, FuzzStringLiterals).
func stringLiterals(text string, fn func(content string) bool) {
	for i := 0; i < len(text); i++ {
		q := text[i]
		if q != '"' && q != '\'' {
			continue
		}
		end := -1
	scan:
		for j := i + 1; j < len(text); j++ {
			switch text[j] {
			case q:
				end = j
				break scan
			case '\n':
				break scan
			case '\\':
				if j+1 >= len(text) || text[j+1] == '\n' {
					break scan
				}
				j++
			}
		}
		if end < 0 {
			continue // no literal starts here
		}
		if !fn(text[i+1 : end]) {
			return
		}
		i = end
	}
}

// quotedIn is how many of the strings the task quotes, and its options,
// text holds, as they are written.
func (c concepts) quotedIn(text string) int {
	n := 0
	for _, q := range c.quoted {
		if strings.Contains(text, q) {
			n++
		}
	}
	return n
}

// A word of a task, with the dot before it and the parenthesis after it
// where it has them.
var taskIdent = lazyre.New(`(\.?)\b([A-Za-z_]\w*)(\(?)`)

// taskIdents finds the words of a task written as code: with an
// underscore or an inner capital (snake_case, camelCase, PascalCase),
// called (`name(`), or joined to another word by a dot (`obj.name`). A
// word of prose is none of these, so that a method named "update" is not
// named by "update the docs".
func taskIdents(task string) map[string]bool {
	out := map[string]bool{}
	for _, m := range taskIdent().FindAllStringSubmatchIndex(task, -1) {
		w := task[m[4]:m[5]]
		if len(w) < 3 {
			continue
		}
		end := m[5]
		dotted := false
		if end+1 < len(task) && task[end] == '.' {
			r, _ := utf8.DecodeRuneInString(task[end+1:])
			dotted = r == '_' || r < utf8.RuneSelf && unicode.IsLetter(r)
		}
		code := m[3] > m[2] || m[7] > m[6] || dotted || strings.Contains(w, "_")
		for i := 1; i < len(w) && !code; i++ {
			code = unicode.IsLower(rune(w[i-1])) && unicode.IsUpper(rune(w[i]))
		}
		if code {
			out[w] = true
		}
	}
	return out
}

// held is the weighted share of the concepts that text holds a term of,
// and how many of its words are a concept's terms.
func (c concepts) held(text string) (share float64, mentions int) {
	if c.all == 0 {
		return 0, 0
	}
	have := make([]bool, len(c.weight))
	tokenize.Each(text, func(t tokenize.Token) {
		byStem, byText := c.of[t.Stem], []int(nil)
		if t.Text != t.Stem {
			byText = c.of[t.Text]
		}
		for _, i := range byStem {
			have[i] = true
		}
		for _, i := range byText {
			have[i] = true
		}
		if len(byStem)+len(byText) > 0 {
			mentions++
		}
	})
	w := 0.0
	for i, h := range have {
		if h {
			w += c.weight[i]
		}
	}
	return w / c.all, mentions
}

// features are a unit's features, in UnitFeatures' order; text is its
// lines.
func (c concepts) features(path string, u *unit, text string) []float64 {
	x := make([]float64, len(unitFeatures))
	x[0] = math.Log(float64(u.to - u.from + 1))
	if k, ok := unitKinds[u.why]; ok {
		x[k] = 1
	}
	share, mentions := c.held(text)
	x[6] = math.Log1p(2 * share)
	if u.symbol != "" && u.why != "imports" {
		x[7], _ = c.held(u.symbol)
	}
	x[8] = math.Log1p(float64(mentions))
	if c.framed(path, u.from, u.to) {
		x[9] = 1
	}
	if c.literal(text) {
		x[10] = 1
	}
	x[11] = math.Log1p(float64(c.quotedIn(text)))
	if u.symbol != "" && u.why != "imports" {
		owner, name := "", u.symbol
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			owner, name = name[:i], name[i+1:]
		}
		if c.idents[name] {
			x[12] = 1
		}
		if owner != "" && c.idents[owner] {
			x[13] = 1
		}
	}
	if c.pastIn(text) > 0 {
		x[14] = 1
	}
	return x
}

// fileUnits splits a file's lines into units and weighs them. spans are
// what the retrieval found in the file; the fast outline gives the rest of
// its definitions.
func fileUnits(file int, path, lang string, lines []string, spans []hone.Span, relevance float64, c concepts, w []float64) (out []*unit) {
	n := len(lines)
	rel := max(relevance, worthFloor)
	weigh := func(u *unit) *unit {
		u.file = file
		text := strings.Join(lines[u.from-1:u.to], "\n")
		if !strings.ContainsFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			return u // blank lines, or a closing brace: worth nothing alone
		}
		u.x = c.features(path, u, text)
		z := 0.0
		for i, v := range u.x {
			z += w[i] * v
		}
		u.worth = math.Exp(z)
		return u
	}
	if n <= smallFile {
		return []*unit{{file: file, from: 1, to: n, why: "file", whole: true, worth: rel}}
	}
	defer func() {
		// The chances, over the file's units, times the file's relevance.
		all := 0.0
		for _, u := range out {
			all += u.worth
		}
		if all == 0 {
			return // no unit holds a letter or digit: all are worth nothing
		}
		for _, u := range out {
			u.worth = rel * u.worth / all
		}
	}()
	// The intervals, innermost first: the retrieval's spans, then the
	// outline's definitions, the shortest first; one that overlaps a
	// kept one gives way.
	var spanIvs, defIvs, cutIvs []iv
	for _, s := range spans {
		if s.Start >= 1 && s.Start <= min(s.End, n) {
			spanIvs = append(spanIvs, iv{s.Start, min(s.End, n), s.Symbol, s.Why})
		}
	}
	src := []byte(strings.Join(lines, "\n"))
	// The lines of definitions with bodies, whose imports are their own (a
	// function's local import, a class's); a definition that is itself an
	// import line is none.
	inDef := make([]bool, n+2)
	for _, d := range structure.ExtractFallback(path, src).Defs {
		if d.Line >= 1 && d.Line <= min(d.EndLine, n) && ownsImports[d.Kind] &&
			!importLine().MatchString(strings.TrimSpace(lines[d.Line-1])) {
			for l := d.Line; l <= min(d.EndLine, n); l++ {
				inDef[l] = true
			}
		}
		if d.Kind != "section" && d.Line >= 1 && d.Line <= min(d.EndLine, n) {
			sym := d.Name
			if d.Container != "" {
				sym = d.Container + "." + d.Name
			}
			v := iv{d.Line, min(d.EndLine, n), sym, "definition"}
			if dataKinds[d.Kind] && d.EndLine-d.Line+1 > splitSpan {
				cutIvs = append(cutIvs, v) // no unit, but its runs are within it
			} else {
				defIvs = append(defIvs, v)
			}
		}
	}
	// Go's grouped declarations, const ( ... ), var ( ... ), type ( ... ):
	// the group is a definition, whose names are its own.
	groups := map[int]bool{} // the first lines of Go's groups
	if lang == "go" {
		gs := goGroups(lines, defIvs)
		for _, g := range gs {
			groups[g.from] = true
		}
		defIvs = append(defIvs, gs...)
	}
	// A short definition that holds others (a class of a method or two,
	// a group of constants) is one unit, its inner definitions and the
	// spans within it in it: cut into pieces, its pieces would go in
	// without one another (a class's line without its method, a
	// constant without its group's opening).
	// The short definitions, by their first lines: an owner of v begins
	// at most smallGroup lines above its end, so that a file of
	// thousands of one-line constants is not searched whole for each.
	var small []iv
	for _, d := range defIvs {
		limit := smallContainer
		if groups[d.from] && d.why == "definition" {
			limit = smallGroup
		}
		if d.to-d.from+1 <= limit {
			small = append(small, d)
		}
	}
	slices.SortStableFunc(small, func(a, b iv) int { return a.from - b.from })
	smallOwner := func(v iv) (iv, bool) {
		k, _ := slices.BinarySearchFunc(small, v.to-smallGroup+1, func(d iv, from int) int { return d.from - from })
		for ; k < len(small) && small[k].from <= v.from; k++ {
			if d := small[k]; v.to <= d.to && d.to-d.from > v.to-v.from {
				return d, true
			}
		}
		return iv{}, false
	}
	inner := defIvs[:0:0]
	for _, d := range defIvs {
		if _, ok := smallOwner(d); !ok {
			inner = append(inner, d)
		}
	}
	defIvs = inner
	for i, sp := range spanIvs {
		if d, ok := smallOwner(sp); ok {
			spanIvs[i] = iv{d.from, d.to, d.symbol, sp.why}
		}
	}
	// A long span that holds definitions (a class the task names, around
	// its methods) gives way to them: each inner definition is a unit of
	// the span's kind, so that the change's method can go in without the
	// rest of the class.
	whole := spanIvs[:0]
	for _, s := range spanIvs {
		inner := false
		if s.to-s.from+1 > splitSpan {
			for i, d := range defIvs {
				if s.from <= d.from && d.to <= s.to && d.to-d.from < s.to-s.from {
					inner = true
					if defIvs[i].why == "definition" {
						defIvs[i].why = s.why
					}
				}
			}
		}
		if !inner {
			whole = append(whole, s)
		}
	}
	spanIvs = whole
	withPreambles(lang, lines, spanIvs, defIvs)
	sort.SliceStable(spanIvs, func(i, j int) bool { return spanIvs[i].to-spanIvs[i].from < spanIvs[j].to-spanIvs[j].from })
	sort.SliceStable(defIvs, func(i, j int) bool { return defIvs[i].to-defIvs[i].from < defIvs[j].to-defIvs[j].from })
	owner := make([]int, n+1) // 0: free; else 1 + the index in kept
	var kept []iv
	take := func(v iv) {
		for l := v.from; l <= v.to; l++ {
			if owner[l] != 0 {
				return
			}
		}
		kept = append(kept, v)
		for l := v.from; l <= v.to; l++ {
			owner[l] = len(kept)
		}
	}
	// Only code imports: a line of prose that begins "use ..." or
	// "import ..." in a text file is no import.
	if structure.IsCode(lang) {
		if from, to := importLines(lines, func(l int) bool { return inDef[l] }); to > 0 {
			take(iv{from, to, "imports", "imports"})
		}
	}
	for _, v := range spanIvs {
		take(v)
	}
	for _, v := range defIvs {
		take(v)
	}
	var comments []int // commentBlocks, read when a gap run is long
	for l := 1; l <= n; {
		if k := owner[l]; k != 0 {
			v := kept[k-1]
			parts := docstringCut(path, lines, v)
			for _, p := range parts {
				u := &unit{from: p.from, to: p.to, symbol: p.symbol, why: p.why}
				if len(parts) > 1 {
					u.head = [2]int{parts[0].from, parts[0].to}
					u.doc = [2]int{parts[1].from, parts[len(parts)-2].to}
				}
				if p.why == "lines" {
					u.within = v.symbol
				}
				out = append(out, weigh(u))
			}
			l = v.to + 1
			continue
		}
		// The free lines up to the next unit, in runs of maxGap at most,
		// each ending at a blank line where one is near.
		end := l
		for end < n && owner[end+1] == 0 && end-l+1 < maxGap {
			end++
		}
		if end-l+1 == maxGap && end < n && owner[end+1] == 0 {
			end = blankEnd(lines, l, end)
			end = closedEnd(lang, lines, l, end, func(k int) bool { return k <= n && owner[k] == 0 })
			// Nor in a comment's middle: the run ends above a comment
			// that the cut would split, or takes a long one (a doc
			// comment longer than a preamble, left above its definition)
			// whole, up to maxComment lines.
			if comments == nil {
				comments = commentBlocks(lang, lines)
			}
			if k := comments[end]; k != 0 && comments[end+1] == k {
				from := end
				for from > l && comments[from-1] == k {
					from--
				}
				if from > l {
					end = from - 1
				} else {
					for end < n && owner[end+1] == 0 && comments[end+1] == k && end-l+1 < maxComment {
						end++
					}
				}
			}
		}
		u := weigh(&unit{from: l, to: end, why: "lines"})
		// The innermost definition the run's code lies in, if any: its
		// first and last lines that are not blank.
		first, last := l, end
		for first < last && strings.TrimSpace(lines[first-1]) == "" {
			first++
		}
		for last > first && strings.TrimSpace(lines[last-1]) == "" {
			last--
		}
		var best *iv
		for _, ivs := range [][]iv{defIvs, cutIvs} {
			for i, d := range ivs {
				if d.from <= first && last <= d.to && (best == nil || d.to-d.from < best.to-best.from) {
					best = &ivs[i]
				}
			}
		}
		if best != nil {
			u.within = best.symbol
		}
		out = append(out, u)
		l = end + 1
	}
	return out
}

// minDocstring: a Python definition's docstring of this many lines or
// more is no part of its definition's unit (see docstringCut).
const minDocstring = 20

// Python's definition line and a docstring's opening quotes.
var (
	pyDefinition = lazyre.New(`^\s*(async\s+def|def|class)\b`)
	pyDocstring  = lazyre.New(`^\s*[rRuU]?("""|\'\'\')`)
)

// docstringCut cuts a Python definition whose docstring runs to
// minDocstring lines or more (numpy's style: a paragraph for each
// parameter, examples) into three parts: its signature, with its
// decorators and comments; its docstring, in runs of maxGap lines at
// most, each ending at a blank line where one is near; and its body. A
// fix changes the body's code far more often than the docstring's prose,
// and the prose, which names the task's words, made the whole definition
// a unit too large for a pack beside the rest (a function of 743 lines,
// 575 of them its docstring). The signature and the body keep the
// definition's name and kind; the runs are lines within it. Any other
// interval, one that starts in a definition's body among them, is
// returned as it is.
func docstringCut(path string, lines []string, v iv) []iv {
	if v.why == "imports" || v.to-v.from+1 < minDocstring+2 || structure.Language(path) != "python" {
		return []iv{v}
	}
	// The definition's line: the first of the interval that its blank
	// lines, comments and decorators (over lines too) leave.
	def, deco := 0, 0 // deco: the brackets a decorator left open
	for l := v.from; l <= min(v.to, v.from+maxPreamble) && def == 0; l++ {
		code := structure.LineCode(lines[l-1], false)
		t := strings.TrimSpace(code)
		switch {
		case deco > 0 || strings.HasPrefix(t, "@"):
			deco = max(0, deco+brackets(code))
		case t == "":
		case pyDefinition().MatchString(code):
			def = l
		default:
			return []iv{v} // a statement: the interval starts in a body
		}
	}
	if def == 0 {
		return []iv{v}
	}
	// The signature ends at the line that closes its brackets with a
	// colon, outside strings and comments.
	sig := 0
	for l, depth := def, 0; l <= min(v.to, def+maxPreamble) && sig == 0; l++ {
		code := structure.LineCode(lines[l-1], false)
		depth += brackets(code)
		if depth <= 0 && strings.HasSuffix(strings.TrimSpace(code), ":") {
			sig = l
		}
	}
	if sig == 0 {
		return []iv{v}
	}
	open := sig + 1
	for open <= v.to && strings.TrimSpace(lines[open-1]) == "" {
		open++
	}
	if open > v.to {
		return []iv{v}
	}
	m := pyDocstring().FindStringSubmatchIndex(lines[open-1])
	if m == nil || strings.Contains(lines[open-1][m[3]:], lines[open-1][m[2]:m[3]]) {
		return []iv{v} // no docstring, or one on its line
	}
	quote, end := lines[open-1][m[2]:m[3]], 0
	for l := open + 1; l <= v.to && end == 0; l++ {
		if strings.Contains(lines[l-1], quote) {
			end = l
		}
	}
	if end == 0 || end-open+1 < minDocstring || end >= v.to {
		return []iv{v} // unclosed, short, or all there is
	}
	out := []iv{{v.from, open - 1, v.symbol, v.why}}
	for l := open; l <= end; {
		e := min(l+maxGap-1, end)
		if e < end {
			e = blankEnd(lines, l, e)
		}
		out = append(out, iv{l, e, "", "lines"})
		l = e + 1
	}
	return append(out, iv{end + 1, v.to, v.symbol, v.why})
}

// blankEnd is where a run of lines from l, cut at end, ends: at the last
// blank line in its second half, or else before the last decorator that
// starts there, or at end where there is neither.
func blankEnd(lines []string, l, end int) int {
	for b := end; b > l+(end-l+1)/2; b-- {
		if strings.TrimSpace(lines[b-1]) == "" {
			return b
		}
	}
	// No blank line: the line before a decorator's, so that a long run
	// of decorators (click's @click.option( over lines, a hundred of
	// them above one function) goes in runs of whole decorators.
	for b := end; b > l+(end-l+1)/2; b-- {
		if b < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[b]), "@") {
			return b
		}
	}
	return end
}

// closedEnd is the end of a run of lines from l to end that closes every
// bracket it opens: no statement is cut in its middle (a tuple of
// fieldsets over forty lines, a call's arguments). Where the run leaves
// one open, it ends at its last line that closes them, in its second
// half; or, where none does, goes on, over free lines, until they close,
// twice maxGap lines in all at most; or stays as it was.
func closedEnd(lang string, lines []string, l, end int, free func(int) bool) int {
	slashes := lang != "python"
	depth, last := 0, 0
	for k := l; k <= end; k++ {
		if depth += brackets(structure.LineCode(lines[k-1], slashes)); depth <= 0 {
			depth, last = 0, k
		}
	}
	if depth == 0 {
		return end
	}
	if last > l+(end-l+1)/2 {
		return last
	}
	for k := end + 1; k <= len(lines) && k-l < 2*maxGap && free(k); k++ {
		if depth += brackets(structure.LineCode(lines[k-1], slashes)); depth <= 0 {
			return k
		}
	}
	return end
}

// brackets is how many brackets a line's code opens, less those it
// closes.
func brackets(code string) int {
	return strings.Count(code, "(") + strings.Count(code, "[") + strings.Count(code, "{") -
		strings.Count(code, ")") - strings.Count(code, "]") - strings.Count(code, "}")
}

// ownsImports are the kinds of definition whose bodies' imports are their
// own, not the file's: not a module or namespace, which holds the file's
// imports, nor a variable or constant, which has no body to import in.
var ownsImports = map[string]bool{"function": true, "method": true, "class": true, "struct": true, "trait": true,
	"interface": true, "enum": true, "type": true, "macro": true}

// iv is a run of a file's lines that may become a unit.
type iv struct {
	from, to int
	symbol   string
	why      string
}

// withPreambles gives each interval its decorators, attributes and doc
// comment: the lines just above it, with no blank line between (but one
// under a /** doc comment, docAbove), that the language writes for a
// definition, indented as it is or one more (a doc comment's continued
// lines), and a C++ template head over lines (templateHead). The outline may have counted them in the
// definition before, whose end is then moved up to before them; a
// definition that holds this one whole keeps them.
func withPreambles(lang string, lines []string, groups ...[]iv) {
	var all []*iv
	for _, g := range groups {
		for i := range g {
			all = append(all, &g[i])
		}
	}
	for _, d := range all {
		if d.why == "imports" || d.from < 2 || d.from > len(lines) {
			continue
		}
		indent := indentOf(lines[d.from-1])
		from := d.from
		if lang == "cpp" {
			// A template head over lines (template <typename T,
			// TXT_ENABLE_IF(...)>) comes whole with its definition (a
			// .h file with templates is C++'s: structure.LanguageOf).
			from = templateHead(lines, from)
		}
		if slashComments(lang) && docAbove(lines, from) {
			// A doc comment a blank line above (/** … */, then a
			// blank, then the method) is the definition's still.
			from--
		}
		base := from
		above := func(from int) bool {
			return from > 1 && isPreamble(lang, lines[from-2]) && indentOf(lines[from-2]) <= indent+1
		}
		for above(from) && d.from-from < maxPreamble {
			from--
		}
		if above(from) {
			// A doc comment longer than the bound is left whole above
			// the definition, not cut in its middle: the definition
			// takes its attributes and decorators alone.
			from = base
			for above(from) && !docComment(strings.TrimSpace(lines[from-2])) {
				from--
			}
		}
		from = wholeComments(lines, from, d.from)
		if from == d.from {
			continue
		}
		for _, e := range all {
			if e != d && e.from < from && e.to >= from && e.to < d.from {
				e.to = from - 1
				for e.to > e.from && strings.TrimSpace(lines[e.to-1]) == "" {
					e.to--
				}
			}
		}
		d.from = from
	}
}

// wholeComments returns where lines from..to-1, a definition's preamble,
// start once no block comment in them is cut: a comment that closes in
// them and opens above them (its body's lines not starting with a *) is
// taken whole from the line it opens on, within maxPreamble lines of the
// definition, or else the preamble starts after it.
func wholeComments(lines []string, from, to int) int {
	open := false // a /* ... */ opened in the preamble, reading down
	last := 0     // the last line that closes a comment opened above from
	for l := from; l < to; l++ {
		for t := lines[l-1]; t != ""; {
			if open {
				i := strings.Index(t, "*/")
				if i < 0 {
					break
				}
				open, t = false, t[i+2:]
				continue
			}
			i, j := strings.Index(t, "/*"), strings.Index(t, "*/")
			if j >= 0 && (i < 0 || j < i) {
				last, t = l, t[j+2:]
				continue
			}
			if i < 0 {
				break
			}
			open, t = true, t[i+2:]
		}
	}
	if last == 0 {
		return from
	}
	for l := from - 1; l >= 1 && to-l <= maxPreamble && !strings.Contains(lines[l-1], "*/"); l-- {
		if strings.Contains(lines[l-1], "/*") {
			return l
		}
	}
	return last + 1
}

// indentOf is the width of a line's leading white space, a tab counted
// as one.
func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// docComment reports whether a trimmed line is a comment's, not an
// attribute's (Rust's #[…] and #![…]).
func docComment(t string) bool {
	return isComment(t) && !strings.HasPrefix(t, "#[") && !strings.HasPrefix(t, "#![")
}

// docAbove reports whether one blank line stands between a definition
// at line from (1-based) and a doc comment that closes right above it:
// a block comment opened with /** whose */ ends the line before the
// blank, within maxPreamble lines.
func docAbove(lines []string, from int) bool {
	if from < 3 || strings.TrimSpace(lines[from-2]) != "" {
		return false
	}
	// The comment's last line closes it, and no code stands before its
	// */ (int a = f(); /* note */ is code).
	if last := strings.TrimSpace(lines[from-3]); !strings.HasSuffix(last, "*/") || !strings.HasPrefix(last, "*") && !strings.HasPrefix(last, "/**") {
		return false
	}
	for k := from - 2; k >= 1 && from-k <= maxPreamble; k-- {
		t := strings.TrimSpace(lines[k-1])
		switch {
		case strings.HasPrefix(t, "/**"):
			// A file's header (a licence) is no definition's.
			return k > 1
		case !strings.HasPrefix(t, "*"):
			return false // a line of no doc block
		}
	}
	return false
}

// preambleOf is how many lines of a unit from line from to line to
// (1-based) lie above its definition's own first line, as withPreambles
// gave them to it: its decorators, attributes and comments, a template
// head's lines, and a blank line under a doc comment.
func preambleOf(lang string, lines []string, from, to int) int {
	pre, angles := 0, 0
	for l := from; l < to; l++ {
		t := strings.TrimSpace(lines[l-1])
		switch {
		case angles > 0:
			// A template head's lines go on until its angle closes.
			angles += strings.Count(t, "<") - strings.Count(t, ">")
		case isTemplateLine(t) && lang == "cpp":
			angles = strings.Count(t, "<") - strings.Count(t, ">")
		case isPreamble(lang, lines[l-1]):
		case t == "" && pre > 0 && strings.HasSuffix(strings.TrimSpace(lines[l-2]), "*/"):
			// The blank line under a doc comment (docAbove).
		default:
			return pre
		}
		pre++
	}
	return pre
}

// isTemplateLine reports whether a trimmed line opens a C++ template head.
func isTemplateLine(t string) bool {
	return t == "template" || strings.HasPrefix(t, "template<") || strings.HasPrefix(t, "template <")
}

// slashComments reports whether lang's comments start with // or /*, not
// with # (Python's, Ruby's, the shell's).
func slashComments(lang string) bool { return lang != "python" && lang != "ruby" && lang != "shell" }

// templateHead is the line a C++ template head over lines opens on, for
// a definition at line from (1-based): the nearest line above that starts
// with template, within maxTemplateHead lines, where every line between
// goes on with it (none blank, none ending a statement or a block); from
// where there is none.
func templateHead(lines []string, from int) int {
	for k := from - 1; k >= 1 && from-k <= maxTemplateHead; k-- {
		t := strings.TrimSpace(lines[k-1])
		if t == "" || strings.HasSuffix(t, ";") || strings.HasSuffix(t, "}") || strings.HasSuffix(t, "{") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
			return from
		}
		if isTemplateLine(t) {
			return k
		}
	}
	return from
}

// maxTemplateHead: a template head runs over this many lines at most.
const maxTemplateHead = 8

// maxPreamble: a definition takes this many lines above it at most as
// its decorators, attributes and doc comment.
const maxPreamble = 40

// isPreamble reports whether a line, just above a definition, belongs to
// it: a decorator or annotation (@), an attribute (Rust's and PHP's
// #[...], C#'s [...]), a comment, or a C++ template head. In C and C++ a line that
// starts with # is the preprocessor's, not a comment.
func isPreamble(lang, line string) bool {
	t := strings.TrimSpace(line)
	switch {
	case t == "" || !structure.IsCode(lang):
		return false
	case strings.HasPrefix(t, "@"):
		return lang != "c" && lang != "cpp"
	case strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"), strings.HasPrefix(t, "*"):
		return slashComments(lang)
	case strings.HasPrefix(t, "#["), strings.HasPrefix(t, "#!["):
		return lang == "rust" || lang == "php"
	case strings.HasPrefix(t, "#"):
		return lang == "python" || lang == "ruby" || lang == "shell" || lang == "perl" || lang == "r"
	case isTemplateLine(t):
		return lang == "cpp" // a .h file with templates is C++'s (structure.LanguageOf)
	case strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]"):
		return lang == "csharp"
	}
	return false
}

// maxComment: a run of lines between definitions that is one comment
// goes whole up to this many lines.
const maxComment = 4 * maxGap

// commentBlocks numbers the comments of a file's lines, 1-based, from 1:
// a run of line comments or a block comment, from the line that opens it
// to the one that closes it; 0 where a line is none. A docstring is no
// comment here: a class's long one goes in runs, so that the run that
// documents the parameter a fix adds goes in without the rest.
func commentBlocks(lang string, lines []string) []int {
	out := make([]int, len(lines)+2)
	k := 0
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if end := commentBlockEnd(lines, i); end >= 0 && strings.HasPrefix(t, "/*") {
			k++
			for j := i; j <= end; j++ {
				out[j+1] = k
			}
			i = end
			continue
		}
		if !isPreamble(lang, t) || !docComment(t) || strings.HasPrefix(t, "@") {
			continue
		}
		if out[i] == 0 { // the line above is none of a comment's
			k++
		}
		out[i+1] = k
	}
	return out
}

// changelogHead: a changelog's new entry goes at its head, under its
// newest release or the one to come, in the format of the entries there;
// what the task's words match further down is an old release's entry.
// The units that start in its first changelogHead lines (a gap unit's
// length, maxGap) carry the file's worth, the rest none: the pack gives
// the head, and its list of what was left out names no old release.
const changelogHead = maxGap

// newestFirst gives a changelog's worth to the units at its head (see
// changelogHead), in the shares they had among themselves.
func newestFirst(units []*unit, relevance float64) {
	rel := max(relevance, worthFloor)
	head := 0.0
	for _, u := range units {
		if u.from <= changelogHead {
			head += u.worth
		}
	}
	for _, u := range units {
		switch {
		case u.from > changelogHead:
			u.worth = 0
		case head > 0:
			u.worth = rel * u.worth / head
		}
	}
}

// name is how Included and Omitted list a unit: "path" for a whole file,
// "path:from-to symbol" for the rest.
func (u *unit) name(path string) string {
	if u.whole && u.cut[0] == 0 {
		return path
	}
	s := fmt.Sprintf("%s:%d-%d", path, u.from, u.to)
	switch {
	case u.symbol != "" && u.why != "imports":
		s += " " + u.symbol
	case u.why == "imports":
		s += " imports"
	case u.within != "":
		s += " part of " + u.within
	}
	switch u.why {
	case "middle":
		s += " (its middle, left out)"
	case "preamble":
		s += " (its preamble, left out)"
	}
	if u.cut[0] > 0 {
		s += fmt.Sprintf(" (lines %d-%d elided)", u.cut[0], u.cut[1])
	}
	if u.bytes[1] > 0 {
		s += fmt.Sprintf(" (%d bytes left out of its middle)", u.bytes[1]-u.bytes[0])
	}
	return s
}

// elide returns a copy of u, a unit too large for room tokens as its
// estimate has it, that holds its first and last lines, as many of each
// as fit, and leaves out its middle, a line at least; nil when not even a
// few lines fit. The head counts from the definition's own first line:
// its doc comment, decorators and attributes (lang's preamble) come with
// it whole where they fit, and are left out where they do not, so that
// the head never stops inside the preamble and hides the signature.
// Where the unit's own count fits after all, the copy is the whole unit,
// so counted.
func elide(u *unit, lang string, lines []string, room int, count func(string) int) *unit {
	// A unit cut before is cut again from the whole.
	w := *u
	w.cut, w.bytes = [2]int{}, [2]int{}
	w.from, w.dropped = w.from-w.dropped, 0
	u = &w
	// whole is a copy of u, counted, where it fits whole; nil where not.
	whole := func(u *unit) *unit {
		c := count(strings.Join(lines[u.from-1:u.to], "\n")) + blockTokens
		if c > room {
			return nil
		}
		v := *u
		v.tokens = c
		return &v
	}
	if v := whole(u); v != nil {
		return v
	}
	n := u.to - u.from + 1
	pre := min(preambleOf(lang, lines, u.from, u.to), n-1)
	// cutAt is the most lines of its head past its first pre, and of its
	// tail, that a unit keeps within room.
	cutAt := func(u *unit, pre int) (best int) {
		for lo, hi := 1, (u.to-u.from+1-pre-1)/2; lo <= hi; {
			k := (lo + hi) / 2
			v := *u
			v.cut = [2]int{u.from + pre + k, u.to - k}
			if count(elided(lines, &v))+titleTokens <= room {
				best, lo = k, k+1
			} else {
				hi = k - 1
			}
		}
		return best
	}
	lineCut := func(u *unit, pre, best int) *unit {
		v := *u
		v.cut = [2]int{u.from + pre + best, u.to - best}
		v.tokens = count(elided(lines, &v)) + titleTokens
		return &v
	}
	// The definition from its own first line, the preamble left out.
	bare := *u
	bare.from += pre
	bare.dropped = pre
	best := cutAt(u, pre)
	if best >= 3 {
		return lineCut(u, pre, best) // the preamble whole, and lines of the head past it
	}
	bareBest := 0
	if pre > 0 {
		if v := whole(&bare); v != nil {
			return v
		}
		if bareBest = cutAt(&bare, 0); bareBest >= 3 {
			return lineCut(&bare, 0, bareBest)
		}
	}
	// Few lines fit: the head and tail by their bytes, the preamble's
	// bytes and the signature's in the head, or the signature's alone;
	// where not even those fit, the lines that do (a signature and the
	// end), before nothing.
	skip := 0 // the preamble's bytes, its lines' ends with them
	for _, l := range lines[u.from-1 : u.from-1+pre] {
		skip += len(l) + 1
	}
	if v := elideBytes(u, lines, room, count, skip); v != nil {
		return v
	}
	if pre > 0 {
		if v := elideBytes(&bare, lines, room, count, 0); v != nil {
			return v
		}
	}
	switch {
	case best > 0:
		return lineCut(u, pre, best)
	case bareBest > 0:
		return lineCut(&bare, 0, bareBest)
	}
	return nil
}

// maxSignatureBytes: a first line this long at most is kept whole in the
// head of a unit cut by its bytes; a longer one (a minified bundle's) is
// cut as any.
const maxSignatureBytes = 400

// minElidedBytes: a unit cut by its bytes keeps this many of its head
// and as many of its tail at least, or is left out, and leaves out this
// many of its middle at least.
const minElidedBytes = 64

// elideBytes is elide for a unit of lines too few or too long to leave
// whole lines out of: its text's head and tail, as many bytes of each as
// fit, cut on characters, the middle left out, saying so; nil when not
// even a few fit. The head holds skip bytes more than the tail (a
// definition's preamble, so that its signature shows).
func elideBytes(u *unit, lines []string, room int, count func(string) int, skip int) *unit {
	text := strings.Join(lines[u.from-1:u.to], "\n")
	// The head holds the definition's first line whole past skip (its
	// signature), where that line is maxSignatureBytes long at most; the
	// middle left out is minElidedBytes at least: a cut of a few bytes
	// ("… 1 bytes … left out …") costs more than it saves.
	headMin := 0
	if sig := strings.IndexByte(text[skip:], '\n'); sig >= 0 && sig+1 <= maxSignatureBytes {
		headMin = sig + 1
	}
	cutOf := func(k int) [2]int { return byteCut(text, skip+max(k, headMin), k) }
	best := 0
	for lo, hi := minElidedBytes, (len(text)-skip)/2; lo <= hi; {
		k := (lo + hi) / 2
		v := *u
		v.bytes = cutOf(k)
		if v.bytes[1]-v.bytes[0] >= minElidedBytes && count(elided(lines, &v))+titleTokens <= room {
			best, lo = k, k+1
		} else {
			hi = k - 1
		}
	}
	if best == 0 {
		return nil
	}
	v := *u
	v.bytes = cutOf(best)
	v.tokens = count(elided(lines, &v)) + titleTokens
	return &v
}

// byteCut is where the middle of text starts and ends when head bytes of
// it and tail bytes of its end are kept, moved to characters' starts.
func byteCut(text string, head, tail int) [2]int {
	a, b := head, len(text)-tail
	for a > 0 && !utf8.RuneStart(text[a]) {
		a--
	}
	for b < len(text) && !utf8.RuneStart(text[b]) {
		b++
	}
	return [2]int{a, b}
}

// lineAt is the line, of a unit whose text is its lines joined, that the
// text's byte at offset lies on.
func lineAt(u *unit, lines []string, offset int) int {
	l := u.from
	for at := 0; l < u.to; l++ {
		at += len(lines[l-1]) + 1
		if at > offset {
			break
		}
	}
	return l
}

// elided is the text of a unit with its middle left out, saying so.
func elided(lines []string, u *unit) string {
	if u.bytes[1] > 0 {
		text := strings.Join(lines[u.from-1:u.to], "\n")
		return text[:u.bytes[0]] +
			fmt.Sprintf("\n    … %d bytes of lines %d-%d left out: over the budget; ask for them by range …\n", u.bytes[1]-u.bytes[0], lineAt(u, lines, u.bytes[0]), lineAt(u, lines, u.bytes[1])) +
			text[u.bytes[1]:]
	}
	return strings.Join(lines[u.from-1:u.cut[0]-1], "\n") +
		fmt.Sprintf("\n    … lines %d-%d (%d lines) left out: over the budget; ask for them by range …\n", u.cut[0], u.cut[1], u.cut[1]-u.cut[0]+1) +
		strings.Join(lines[u.cut[1]:u.to], "\n")
}

// Unit is one of the units a pack makes of a file, with its features:
// what UnitWeights are fitted on.
type Unit struct {
	From, To int // lines, 1-based, inclusive
	Kind     string
	X        []float64 // in UnitFeatures' order
}

// FileUnits returns the units a pack of res makes of the file at path,
// under root, with their features: the units it could choose among, those
// that hold some letter or digit. A file the pack gives whole, or cannot
// read, has none.
func FileUnits(res *hone.Result, root, path string, past []string) []Unit {
	var p Pack
	lines, ok := p.read(root, path)
	if !ok {
		return nil
	}
	var spans []hone.Span
	for _, f := range res.Files {
		if f.Path == path {
			spans = f.Spans
		}
	}
	var out []Unit
	c := taskConcepts(res)
	c.past = pastSet(past)
	for _, u := range fileUnits(0, path, structure.LanguageOfLines(path, lines), lines, spans, 1, c, unitWeights) {
		if u.x != nil && !u.whole {
			out = append(out, Unit{From: u.from, To: u.to, Kind: u.why, X: u.x})
		}
	}
	return out
}
