package pack

import (
	"fmt"
	pathpkg "path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
)

// A pack is made of units: runs of a file's lines that go in whole or not
// at all. Every line of a file lies in one unit: its imports, each
// definition (the innermost, so that a long class gives its methods one
// by one), and the lines between them, in runs of maxGap lines at most. A
// unit is worth what its evidence says: the file's relevance, times what
// the retrieval said of it (a definition named for the task, one the
// other files call) and how much of the task's concepts its lines hold.
// The pack takes the units of most worth per token.

// unit is one run of a file's lines.
type unit struct {
	file     int // the index of its file
	from, to int // lines, 1-based, inclusive
	symbol   string
	why      string  // match, callee, caller, imports, definition, lines
	worth    float64 // its expected worth to the task
	tokens   int
	chosen   bool
	whole    bool // the file's only unit: the whole file
	// cut are the first and last lines left out of the middle of a unit
	// too large for the budget, or zeros.
	cut [2]int
}

// A unit's worth is the chance that the task needs it: the file's
// relevance, times the chance that what the task changes in the file lies
// in the unit. That chance goes by lines, each weighing 1, more for lines
// that hold the task's concepts (conceptWorth for all of them), times
// what the unit is (kindWorth): so that, per token, a long definition
// that matches weighs as a short one does, and what matches more than
// what does not.
//
// kindWorth is fitted: for each kind of unit, the share of its lines that
// the fixes changed, against a definition's, in the gold files of
// Multi-SWE-bench's development set and SWE-bench Lite (a fix's hunk less
// its three lines of context on each side; each rate shrunk toward a
// definition's by 10,000 lines). Held out by repository, packs at 8,000
// tokens built with these weights hold every hunk of the fix more often
// than with the earlier guesses (match 3, imports 0.5, callers and
// callees 1.5, lines between definitions 1), in both sets; see the
// README.
var kindWorth = map[string]float64{
	"match": 3.7, "imports": 4.1, "lines": 2, "callee": 1.3, "caller": 1.3, "definition": 1,
}

const (
	conceptWorth = 2
	// frameWorth: a unit holding a line a stack trace of the task names
	// is worth this many times more.
	frameWorth = 3
	// maxGap: lines between definitions go in runs of at most this many.
	maxGap = 40
	// relevanceFloor: a file is worth this much at least, so that its
	// units still rank among themselves.
	relevanceFloor = 0.05
)

// concepts are the task's concepts as the pack weighs them: each
// concept's stems, and its weight; and the lines its stack traces name.
type concepts struct {
	stems  []map[string]bool
	weight []float64
	all    float64
	frames []frame
}

// frame is a line a stack trace in the task names: a path as the trace
// writes it (absolute, or relative to somewhere else), and a line.
type frame struct {
	path string
	line int
}

// Stack-trace frames: Python's `File "a/b.py", line 12`, and the
// `path:line` of most other languages (Go, Rust, JavaScript, Java's
// `(Foo.java:123)`).
var (
	pyFrame   = regexp.MustCompile(`File "([^"\n]+)", line (\d+)`)
	pathFrame = regexp.MustCompile(`([\w./\\-]+\.[A-Za-z]{1,5}):(\d+)`)
)

// maxFrames: the frames of a task read at most.
const maxFrames = 200

// traceFrames finds the lines the stack traces of a task name.
func traceFrames(task string) []frame {
	var out []frame
	for _, re := range []*regexp.Regexp{pyFrame, pathFrame} {
		for _, m := range re.FindAllStringSubmatch(task, maxFrames) {
			if n, err := strconv.Atoi(m[2]); err == nil && n > 0 && len(out) < maxFrames {
				out = append(out, frame{strings.ReplaceAll(m[1], "\\", "/"), n})
			}
		}
	}
	return out
}

// framed reports whether a trace's frame names one of the lines from..to
// of the file at path: the frame's path is the file's, or ends with it,
// or (for a bare file name, as Java writes) the file's name.
func (c concepts) framed(path string, from, to int) bool {
	for _, f := range c.frames {
		if f.line < from || f.line > to {
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
		c.stems = append(c.stems, m)
		c.weight = append(c.weight, k.Weight)
		c.all += k.Weight
	}
	c.frames = traceFrames(res.Task)
	return c
}

// held is the weighted share of the concepts that text holds a term of.
func (c concepts) held(text string) float64 {
	if c.all == 0 {
		return 0
	}
	have := make([]bool, len(c.stems))
	tokenize.Each(text, func(t tokenize.Token) {
		for i, m := range c.stems {
			if !have[i] && (m[t.Stem] || m[t.Text]) {
				have[i] = true
			}
		}
	})
	w := 0.0
	for i, h := range have {
		if h {
			w += c.weight[i]
		}
	}
	return w / c.all
}

// fileUnits splits a file's lines into units and weighs them. spans are
// what the retrieval found in the file; the fast outline gives the rest of
// its definitions.
func fileUnits(file int, path string, lines []string, spans []hone.Span, relevance float64, c concepts) (out []*unit) {
	n := len(lines)
	rel := max(relevance, relevanceFloor)
	weigh := func(u *unit) *unit {
		u.file = file
		text := strings.Join(lines[u.from-1:u.to], "\n")
		if !strings.ContainsFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			return u // blank lines, or a closing brace: worth nothing alone
		}
		u.worth = float64(u.to-u.from+1) * kindWorth[u.why] * (1 + conceptWorth*c.held(text))
		if c.framed(path, u.from, u.to) {
			u.worth *= frameWorth
		}
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
		for _, u := range out {
			u.worth = rel * u.worth / all
		}
	}()
	// The intervals, innermost first: the retrieval's spans, then the
	// outline's definitions, the shortest first; one that overlaps a
	// kept one gives way.
	type iv struct {
		from, to int
		symbol   string
		why      string
	}
	var spanIvs, defIvs []iv
	for _, s := range spans {
		if s.Start >= 1 && s.Start <= min(s.End, n) {
			spanIvs = append(spanIvs, iv{s.Start, min(s.End, n), s.Symbol, s.Why})
		}
	}
	src := []byte(strings.Join(lines, "\n"))
	for _, d := range structure.ExtractFallback(path, src).Defs {
		if d.Kind != "section" && d.Line >= 1 && d.Line <= min(d.EndLine, n) {
			sym := d.Name
			if d.Container != "" {
				sym = d.Container + "." + d.Name
			}
			defIvs = append(defIvs, iv{d.Line, min(d.EndLine, n), sym, "definition"})
		}
	}
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
	if from, to := importLines(lines); to > 0 {
		take(iv{from, to, "imports", "imports"})
	}
	for _, v := range spanIvs {
		take(v)
	}
	for _, v := range defIvs {
		take(v)
	}
	for l := 1; l <= n; {
		if k := owner[l]; k != 0 {
			v := kept[k-1]
			out = append(out, weigh(&unit{from: v.from, to: v.to, symbol: v.symbol, why: v.why}))
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
			for b := end; b > l+maxGap/2; b-- {
				if strings.TrimSpace(lines[b-1]) == "" {
					end = b
					break
				}
			}
		}
		out = append(out, weigh(&unit{from: l, to: end, why: "lines"}))
		l = end + 1
	}
	return out
}

// name is how Included and Omitted list a unit: "path" for a whole file,
// "path:from-to symbol" for the rest.
func (u *unit) name(path string) string {
	if u.whole {
		return path
	}
	s := fmt.Sprintf("%s:%d-%d", path, u.from, u.to)
	switch {
	case u.symbol != "" && u.why != "imports":
		s += " " + u.symbol
	case u.why == "imports":
		s += " imports"
	}
	if u.cut[0] > 0 {
		s += fmt.Sprintf(" (lines %d-%d elided)", u.cut[0], u.cut[1])
	}
	return s
}

// elide returns a copy of u, a unit too large for room tokens, that holds
// its first and last lines, as many of each as fit, and leaves out its
// middle; nil when not even a few lines fit.
func elide(u *unit, lines []string, room int, count func(string) int) *unit {
	n := u.to - u.from + 1
	best := 0
	for lo, hi := 1, n/2; lo <= hi; {
		k := (lo + hi) / 2
		v := *u
		v.cut = [2]int{u.from + k, u.to - k}
		if count(elided(lines, &v))+blockTokens <= room {
			best, lo = k, k+1
		} else {
			hi = k - 1
		}
	}
	if best < 3 {
		return nil
	}
	v := *u
	v.cut = [2]int{u.from + best, u.to - best}
	v.tokens = count(elided(lines, &v)) + blockTokens
	return &v
}

// elided is the text of a unit with its middle left out, saying so.
func elided(lines []string, u *unit) string {
	return strings.Join(lines[u.from-1:u.cut[0]-1], "\n") +
		fmt.Sprintf("\n    … lines %d-%d (%d lines) left out: over the budget; ask for them by range …\n", u.cut[0], u.cut[1], u.cut[1]-u.cut[0]+1) +
		strings.Join(lines[u.cut[1]:u.to], "\n")
}
