// Package pack turns a retrieval result into a context pack: a text, held
// to a token budget, to paste into a subagent's prompt. It holds a header
// (the task, the files with their relevance, reasons and missing context,
// and why the loop stopped), then the code: the units of the files (see
// units.go) most likely to hold the change, per token, each whole; a
// definition is never cut in half, unless it alone is larger than the
// budget, and then visibly. What did not fit is listed by path and line
// range, the most likely needed first, so the agent can read it.
package pack

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// DefaultBudget is the budget when none is given, in tokens.
const DefaultBudget = 8000

// MinBudget is the least budget the command and the MCP tool take: below
// it the pack holds no more than the line saying the budget is too small
// (which takes some 22 tokens), or nothing at all.
const MinBudget = 32

// smallFile: a file this short goes in whole.
const smallFile = 80 // lines

// Options controls Build.
type Options struct {
	// Budget is the most tokens the pack may hold; 0 means DefaultBudget,
	// and less than 0 a pack of nothing.
	Budget int
	// Count counts a text's tokens; nil uses the o200k tokenizer.
	Count func(string) int
	// BudgetName is what the pack calls the budget when it asks for a
	// larger one: the caller's name for it, such as MCP's budget_tokens;
	// empty means the command line's --budget.
	BudgetName string
	// PastLines are, for each file, the lines that past commits like the
	// task (the result's PastCommits) wrote there, trimmed: a unit that
	// still holds them is code that changed for tasks like this one.
	PastLines map[string][]string
}

// defaultBudgetName is what a pack calls the budget where Options say
// nothing: the command line's flag.
const defaultBudgetName = "--budget"

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
	// Ranges are the line ranges the pack shows, in its order: of what
	// went in, as Included lists it (a unit elided in the middle gives
	// two), and of the lines around each block that join it to what lies
	// next to it (see leadContext), before and after its units'.
	Ranges []Range
	// Redacted counts the secrets the pack hides, each replaced by a
	// placeholder that names its kind: [redacted: aws-access-token].
	Redacted int
	// Unreadable lists the result's files whose contents could not be
	// read for the pack (gone, or unreadable since they were indexed).
	Unreadable []string
	// Withheld lists the result's files whose paths hold a secret: the
	// result names them redacted, and the pack holds none of their code.
	Withheld []string
	// HeaderNeeds is, where the budget is too small for the pack's
	// header (the task, the files and their reasons), the budget that
	// holds it; 0 where it fits. The pack then holds code first, and a
	// line that says so.
	HeaderNeeds int

	budgetName string // what the caller calls the budget, for the text
}

// Range is a file's lines from Start to End, 1-based and inclusive.
type Range struct {
	Path       string
	Start, End int
}

// Build makes the pack of a result; root is the repository the paths are
// relative to.
func Build(res *hone.Result, root string, opts Options) *Pack {
	return build(res, root, opts, unitWeights)
}

// BuildWeighted makes the pack of a result as Build does, with weights
// on the units' features in place of the fitted ones (UnitWeights), in
// the order of UnitFeatures: for fitting them, and for measuring a fit
// held out.
func BuildWeighted(res *hone.Result, root string, opts Options, weights []float64) (*Pack, error) {
	if len(weights) != len(unitFeatures) {
		return nil, fmt.Errorf("pack: %d unit weights for %d features (%s): give one weight a feature", len(weights), len(unitFeatures), strings.Join(unitFeatures, ", "))
	}
	return build(res, root, opts, weights), nil
}

func build(res *hone.Result, root string, opts Options, weights []float64) *Pack {
	if res == nil {
		res = &hone.Result{} // a pack of no result: its header alone
	}
	switch {
	case opts.Budget == 0:
		opts.Budget = DefaultBudget
	case opts.Budget < 0:
		// A budget a caller worked out as what is left, and nothing is:
		// a pack of nothing, not the default's 8,000 tokens.
		opts.Budget = 0
	}
	count := opts.Count
	if count == nil {
		count = CountTokens
	}
	budgetName := cmp.Or(opts.BudgetName, defaultBudgetName)
	p := &Pack{Budget: opts.Budget, Included: []string{}, Omitted: []string{}, Ranges: []Range{}, budgetName: budgetName}
	files, called := packFiles(res)
	// The header names the ranking's next files; the files the result
	// calls are named in its missing context already.
	head := ""
	for level := range terse {
		head = header(res, files[len(res.Files):called], level)
		if float64(count(head)) <= headerShare*float64(opts.Budget) {
			break
		}
	}
	c := taskConcepts(res)
	texts := make([][]string, len(files))
	// Each file's language, read once: a .h file's is its text's.
	langs := make([]string, len(files))
	var units []*unit
	for i, f := range files {
		lines, ok := p.read(root, f.Path)
		if !ok {
			continue
		}
		texts[i], langs[i] = lines, structure.LanguageOfLines(f.Path, lines)
		// Tokens are estimated from the bytes, at the file's rate as a
		// sample of it is counted: counting every unit of a large file
		// would cost more than the rest of the pack. The pack as a whole
		// is counted, and held to the budget, at the end.
		rate := tokenRate(lines, count)
		c.past = pastSet(opts.PastLines[f.Path])
		fu := fileUnits(i, f.Path, langs[i], lines, f.Spans, f.Relevance, c, weights)
		if _, ok := structure.ChangelogOwner(f.Path); ok {
			newestFirst(fu, f.Relevance)
		}
		for _, u := range fu {
			size := 0
			for _, l := range lines[u.from-1 : u.to] {
				size += len(l) + 1
			}
			u.tokens = int(math.Ceil(float64(size)*rate)) + blockTokens
			if i >= called {
				// What the result calls, read beside it, fills what
				// the budget leaves.
				u.worth *= calledWorth
			}
			units = append(units, u)
		}
	}
	quoted := func(paths []string) string {
		q := make([]string, len(paths))
		for i, u := range paths {
			q[i] = redact.QuotePath(u)
		}
		return strings.Join(q, ", ")
	}
	if len(p.Unreadable) > 0 {
		head += "Could not be read for this pack (changed or unreadable since indexing): " + quoted(p.Unreadable) + "\n\n"
	}
	if len(p.Withheld) > 0 {
		head += "Withheld, their paths holding a secret (open them by their real names): " + quoted(p.Withheld) + "\n\n"
	}
	head, n := redact.String(head)
	p.Redacted += n
	used := count(head)
	if used > opts.Budget*headerMost/100 {
		// Even the tersest header would leave the code too little
		// room: the code goes first.
		// It says how much would hold it.
		need := (used*100 + headerMost - 1) / headerMost
		p.HeaderNeeds = need
		head = fmt.Sprintf("# Context pack from hone\nThe budget is too small for the header; raise %s to %d.\n", budgetName, need)
		used = count(head)
		if used > opts.Budget {
			head, used = "", 0
		}
	}
	headTokens := used
	// Room is kept for the list of what did not fit.
	limit := opts.Budget - min(opts.Budget/8, 300)
	for k, u := range units {
		u.at = k
	}
	// A unit next to a chosen one of its file, or with blank lines alone
	// between them, joins its block, the blank lines with it: it costs
	// its lines and theirs, not a block's title and fences.
	link := func(u *unit, step int) (blanks []*unit, ok bool) {
		for k := u.at + step; k >= 0 && k < len(units); k += step {
			v, w := units[k], units[k-step]
			if !adjacent(v, w) {
				return nil, false
			}
			if v.chosen {
				return blanks, true
			}
			if v.worth != 0 {
				return nil, false
			}
			blanks = append(blanks, v)
		}
		return nil, false
	}
	// A file's imports say what its code uses: alone, with none of its
	// code, they are a block of names that tells nothing, and wait for a
	// unit of their file.
	codeIn := func(file int) bool {
		return slices.ContainsFunc(units, func(v *unit) bool { return v.file == file && chosenCode(v) })
	}
	choose := func(u *unit) {
		if u.chosen || u.why == "imports" && !codeIn(u.file) {
			return
		}
		c := u.tokens
		var bridge []*unit
		joined := false
		for _, step := range []int{-1, 1} {
			if bl, ok := link(u, step); ok {
				joined = true
				bridge = append(bridge, bl...)
			}
		}
		if joined {
			c -= blockTokens
		}
		for _, b := range bridge {
			c += b.tokens - blockTokens
		}
		if used+c <= limit {
			u.chosen = true
			for _, b := range bridge {
				b.chosen = true
			}
			used += c
		}
	}
	// Each of the result's files' best unit first, files in order, so
	// that a tight budget still shows every file's best: the best file's
	// whole however long; each other file's within its share of the
	// budget, by relevance, or its head and tail when none fits, so that
	// a file read for context does not crowd out the target. Then the
	// units of most worth per token, wherever they are, the ranking's
	// next files' among them.
	all := 0.0
	for _, f := range res.Files {
		all += max(f.Relevance, relevanceFloor)
	}
	for i, f := range res.Files {
		share := limit
		if i > 0 {
			share = int(float64(limit) * max(f.Relevance, relevanceFloor) / all)
		}
		var best, fits *unit
		for _, u := range units {
			if u.file != i || u.why == "imports" {
				continue
			}
			if best == nil || u.worth > best.worth {
				best = u
			}
			if u.tokens <= share && (fits == nil || u.worth > fits.worth) {
				fits = u
			}
		}
		if best == nil {
			continue
		}
		if i > 0 && fits != nil {
			best = fits
		}
		choose(best)
		if !best.chosen && used < limit {
			// The unit is larger than the file's room: its head and
			// tail, the middle left out, visibly.
			if u := elide(best, langs[i], texts[i], min(share, limit-used), count); u != nil {
				choose(u)
				units[slices.Index(units, best)] = u
			}
		}
	}
	rest := slices.Clone(units)
	sort.SliceStable(rest, func(i, j int) bool {
		return rest[i].worth/float64(rest[i].tokens) > rest[j].worth/float64(rest[j].tokens)
	})
	// Blank lines and lone braces are worth nothing alone: they go in
	// only between two chosen units, with the second (see link).
	// Twice: the imports that waited for their file's code are taken
	// when it came after them.
	fill := func() {
		for range 2 {
			for _, u := range rest {
				if used+minUnitTokens > limit {
					break
				}
				if u.worth > 0 {
					choose(u)
				}
			}
		}
	}
	// Taking the units of most worth per token can leave out a long unit
	// worth more than the short ones that fill its room: the fill is
	// tried again with each of the units of most worth left out taken
	// first, and the choice worth most in all is kept.
	base, baseUsed := chosenOf(units), used
	fill()
	bestSet, bestUsed, bestWorth := chosenOf(units), used, worthOf(units)
	var firsts []*unit
	for k, u := range units {
		if !base[k] && u.worth > 0 && u.tokens <= limit-baseUsed {
			firsts = append(firsts, u)
		}
	}
	sort.SliceStable(firsts, func(i, j int) bool { return firsts[i].worth > firsts[j].worth })
	for _, f := range firsts[:min(len(firsts), tryFirst)] {
		setChosen(units, base)
		used = baseUsed
		choose(f)
		fill()
		if w := worthOf(units); w > bestWorth {
			bestSet, bestUsed, bestWorth = chosenOf(units), used, w
		}
	}
	setChosen(units, bestSet)
	used = bestUsed
	used = fillGaps(units, used, limit)
	blocks := layout(files, texts, langs, units)
	// The units' tokens are estimated with a margin, and units that
	// follow one another share a block: the pack counted often holds
	// less than the estimates said. What it leaves is filled again, the
	// units of most worth per token first, while the count holds. The
	// count is the header's and the blocks', each block counted once.
	counted := map[string]int{}
	measure := func(blocks []block) int {
		n := headTokens
		for _, b := range blocks {
			c, ok := counted[b.text]
			if !ok {
				c = count(b.text)
				counted[b.text] = c
			}
			n += c
		}
		return n
	}
	for range refills {
		real := measure(blocks)
		if real+2*minUnitTokens > limit {
			break
		}
		was := chosenOf(units)
		used = real
		fill()
		if slices.Equal(was, chosenOf(units)) {
			break
		}
		nb := layout(files, texts, langs, units)
		if measure(nb) > limit {
			for i, u := range units {
				u.chosen = was[i]
			}
			break
		}
		blocks = nb
	}
	// The refills can leave new short runs out between two chosen units:
	// they join their blocks too, where the count holds.
	if was := chosenOf(units); true {
		fillGaps(units, measure(blocks), limit)
		if !slices.Equal(was, chosenOf(units)) {
			if nb := layout(files, texts, langs, units); measure(nb) <= limit {
				blocks = nb
			} else {
				setChosen(units, was)
			}
		}
	}
	text := p.assemble(head, files, texts, blocks)
	// Tokens of a whole are not always the sum of its parts, and a file's
	// rate can be off (a license at its head counts as prose): make sure.
	// What goes out is what is worth least per token, as the fill would
	// have left it, not what comes last: the best file's best unit often
	// lies at its end.
	// The list of what did not fit has room for its heading and a line
	// that says how much there is (withOmitted): the code keeps out of
	// it, but for an eighth of the budget at most, which a budget too
	// small for the header gives to the code.
	codeBudget := opts.Budget - min(count(omittedHead(budgetName))+count(more(len(units))), opts.Budget/8)
	for real := count(text); real > codeBudget && len(blocks) > 0; real = count(text) {
		var in []*unit
		estimated := 0
		at := map[*unit]int{}
		for k, u := range units {
			if u.chosen {
				in = append(in, u)
				estimated += u.tokens
			}
			at[u] = k
		}
		// The units' estimates, scaled to what the pack counts.
		scale := max(1, float64(real-headTokens)/float64(max(estimated, 1)))
		over := float64(real - codeBudget)
		sort.SliceStable(in, func(i, j int) bool {
			return in[i].worth/float64(in[i].tokens) < in[j].worth/float64(in[j].tokens)
		})
		freed := 0.0
		for _, u := range in {
			if freed >= over {
				break
			}
			if u.worth == 0 {
				continue // blank lines between two units: they go with them
			}
			n := freedBy(units, at[u])
			if n <= 0 {
				continue // a short unit that joins two blocks: out, the pack grows
			}
			u.chosen = false
			freed += scale * float64(n)
		}
		if freed == 0 {
			// Only joining units are left: the least worth per token
			// goes all the same, so that the loop ends.
			for _, u := range in {
				if u.worth != 0 {
					u.chosen = false
					break
				}
			}
		}
		unbridge(units)
		dropLoneImports(units)
		blocks = layout(files, texts, langs, units)
		text = p.assemble(head, files, texts, blocks)
	}
	// A pack that lost all its code to the count (its one unit fit by the
	// estimate, not by the count) gets the best unit's head and tail in
	// the room the count leaves; one that left out the best file's best
	// unit, for which the header left too little room, gets it in place
	// of the little code that fit instead, when it can.
	first := bestUnit(units, func(u *unit) bool { return u.file == 0 })
	noCode := !slices.ContainsFunc(units, func(u *unit) bool { return u.chosen && u.worth > 0 })
	if noCode || first != nil && !first.chosen && worthOf(units) < first.worth {
		best := first
		if best == nil {
			best = bestUnit(units, func(*unit) bool { return true })
		}
		was, wasBlocks, wasText := chosenOf(units), blocks, text
		if !noCode {
			setChosen(units, make([]bool, len(units)))
			blocks = layout(files, texts, langs, units)
			text = p.assemble(head, files, texts, blocks)
		}
		placed := false
		for room := codeBudget - count(text); best != nil && room > minUnitTokens; room = room * 3 / 4 {
			v := elide(best, langs[best.file], texts[best.file], room, count)
			if v == nil {
				break
			}
			v.chosen = true
			k := slices.Index(units, best)
			units[k] = v
			nb := layout(files, texts, langs, units)
			if nt := p.assemble(head, files, texts, nb); count(nt) <= codeBudget {
				blocks, text, placed = nb, nt, true
				break
			}
			units[k] = best
		}
		if !placed && !noCode {
			setChosen(units, was)
			blocks, text = wasBlocks, wasText
		}
		// What went in is what the blocks kept hold, not the last try's.
		text = p.assemble(head, files, texts, blocks)
	}
	omitted := leftOut(units, blocks, texts)
	// What did not fit, the most worth first, ready to ask for.
	sort.SliceStable(omitted, func(i, j int) bool { return omitted[i].worth > omitted[j].worth })
	for _, u := range omitted {
		if u.worth == 0 {
			continue // blank lines and lone braces: nothing to ask for
		}
		// A unit cut to fit and then left out is left out whole.
		whole := *u
		whole.cut, whole.bytes = [2]int{}, [2]int{}
		whole.from, whole.dropped = whole.from-whole.dropped, 0
		p.Omitted = append(p.Omitted, whole.name(redact.QuotePath(files[u.file].Path)))
	}
	if len(p.Omitted) > 0 {
		text = p.withOmitted(text, count)
	}
	p.Text = text
	p.Tokens = count(text)
	return p
}

// leftOut is what the pack leaves out of the units: those not chosen,
// but the signatures its blocks show above their definitions' parts (see
// layout); the middles of units shown in part; the preambles of units
// cut by their bytes that went without them.
func leftOut(units []*unit, blocks []block, texts [][]string) []*unit {
	heads := map[[3]int]bool{}
	for _, bl := range blocks {
		if bl.head[1] > 0 {
			heads[[3]int{bl.units[0].file, bl.head[0], bl.head[1]}] = true
		}
	}
	var omitted []*unit
	for _, u := range units {
		if !u.chosen && heads[[3]int{u.file, u.from, u.to}] {
			continue
		}
		if u.chosen && u.dropped > 0 {
			// The preamble a unit cut to fit went without.
			omitted = append(omitted, &unit{file: u.file, from: u.from - u.dropped, to: u.from - 1, symbol: u.symbol, why: "preamble", worth: u.worth})
		}
		switch {
		case !u.chosen:
			omitted = append(omitted, u)
		case u.cut[0] > 0:
			// The middle left out of a unit shown in part is listed as
			// what did not fit, by its lines.
			omitted = append(omitted, &unit{file: u.file, from: u.cut[0], to: u.cut[1], symbol: u.symbol, within: u.within, why: "middle", worth: u.worth})
		case u.bytes[1] > 0:
			from, to := lineAt(u, texts[u.file], u.bytes[0]), lineAt(u, texts[u.file], u.bytes[1])
			omitted = append(omitted, &unit{file: u.file, from: from, to: to, symbol: u.symbol, within: u.within, why: "middle", worth: u.worth})
		}
	}
	return omitted
}

// dropLoneImports leaves out the imports of a file none of whose code is
// chosen: what they name tells nothing without it (see choose).
func dropLoneImports(units []*unit) {
	code := map[int]bool{}
	for _, u := range units {
		if chosenCode(u) {
			code[u.file] = true
		}
	}
	for _, u := range units {
		if u.chosen && u.why == "imports" && !code[u.file] {
			u.chosen = false
		}
	}
}

// chosenCode reports whether a unit is chosen code of its file: not its
// imports, nor blank lines that join two blocks.
func chosenCode(u *unit) bool { return u.chosen && u.why != "imports" && u.worth > 0 }

// fillGaps takes the short runs of units left out between two chosen
// units of a file, shortest first, while the budget holds: a few lines
// that join two blocks cost little more than the second block's title
// and fences, and the fix that goes between two definitions (a method
// added after another) is read with both sides of it. It returns the
// tokens used.
func fillGaps(units []*unit, used, limit int) int {
	type gap struct{ from, to, lines, cost int }
	var gaps []gap
	for k := 0; k < len(units); k++ {
		if units[k].chosen || k == 0 || !units[k-1].chosen || !adjacent(units[k-1], units[k]) {
			continue
		}
		end, lines, cost := k, 0, -blockTokens
		for end < len(units) && !units[end].chosen && adjacent(units[end-1], units[end]) {
			lines += units[end].to - units[end].from + 1
			cost += units[end].tokens - blockTokens
			end++
		}
		if end < len(units) && units[end].chosen && adjacent(units[end-1], units[end]) && lines <= gapLines {
			gaps = append(gaps, gap{k, end, lines, cost})
		}
		k = end
	}
	sort.SliceStable(gaps, func(i, j int) bool { return gaps[i].lines < gaps[j].lines })
	for _, g := range gaps {
		if used+g.cost > limit {
			continue
		}
		for _, u := range units[g.from:g.to] {
			u.chosen = true
		}
		used += g.cost
	}
	return used
}

// adjacent reports whether two units of one file follow one another, in
// either order.
func adjacent(a, b *unit) bool {
	return a.file == b.file && min(a.to, b.to)+1 == max(a.from, b.from)
}

// gapLines: the longest run of lines left out between two chosen units
// of a file that fillGaps takes.
const gapLines = 8

// freedBy is what leaving units[k] out of the pack frees, about: its
// lines, and its block's title and fences only where no chosen neighbour
// shares its block; a unit between two chosen neighbours splits their
// block in two, and frees a block's less, nothing or less when it is
// short.
func freedBy(units []*unit, k int) int {
	u, joined := units[k], 0
	for _, j := range []int{k - 1, k + 1} {
		if j >= 0 && j < len(units) && units[j].chosen && adjacent(units[j], u) {
			joined++
		}
	}
	return u.tokens - joined*blockTokens
}

// unbridge leaves out the chosen blank lines (units worth nothing) that
// no longer lie between two chosen units of their file.
func unbridge(units []*unit) {
	for k := 0; k < len(units); {
		if !units[k].chosen || units[k].worth != 0 {
			k++
			continue
		}
		end := k
		for end < len(units) && units[end].chosen && units[end].worth == 0 && units[end].file == units[k].file {
			end++
		}
		joined := k > 0 && end < len(units) && units[k-1].chosen && units[end].chosen &&
			units[k-1].file == units[k].file && units[end].file == units[k].file
		if !joined {
			for _, u := range units[k:end] {
				u.chosen = false
			}
		}
		k = end
	}
}

// refills: how many times at most the pack, counted, is filled again with
// what its estimates left.
var refills = 4

// tryFirst: how many of the units of most worth that the fill by worth
// per token leaves out are each tried first.
const tryFirst = 8

// worthOf is the worth of the chosen units.
func worthOf(units []*unit) float64 {
	w := 0.0
	for _, u := range units {
		if u.chosen {
			w += u.worth
		}
	}
	return w
}

// bestUnit is the unit of most worth of those keep takes, nil if none
// has any.
func bestUnit(units []*unit, keep func(*unit) bool) *unit {
	var best *unit
	for _, u := range units {
		if u.worth > 0 && keep(u) && (best == nil || u.worth > best.worth) {
			best = u
		}
	}
	return best
}

// setChosen sets which units are chosen.
func setChosen(units []*unit, set []bool) {
	for i, u := range units {
		u.chosen = set[i]
	}
}

// chosenOf lists which units are chosen.
func chosenOf(units []*unit) []bool {
	out := make([]bool, len(units))
	for i, u := range units {
		out[i] = u.chosen
	}
	return out
}

// tokenRate is a file's tokens per byte, counted on a sample of it, with a
// margin, so that estimates seldom fall short.
func tokenRate(lines []string, count func(string) int) float64 {
	var b strings.Builder
	for _, l := range lines {
		if b.Len() > rateSample {
			break
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		return 0.25
	}
	return 1.1 * float64(count(b.String())) / float64(b.Len())
}

// rateSample is how many bytes of a file tokenRate counts.
const rateSample = 2048

// blockTokens is what a block costs past its units' own lines, about:
// its title and fences (titleTokens), and its context lines
// (contextTokens); over the 18,693 blocks of SWE-bench Lite's and
// Multi-SWE-bench's packs at 4,000 and 8,000 tokens, 26.9 and 13.9 tokens
// on average (medians 28 and 13). A block cut to fit has no context
// lines. minUnitTokens is what the smallest unit costs.
const (
	titleTokens   = 27
	contextTokens = 14
	blockTokens   = titleTokens + contextTokens
	minUnitTokens = blockTokens + 2
)

// extraFiles: the pack holds the code of this many files of the ranking
// beyond the result's, at extraFloor relevance or more, when the budget
// leaves room: what the result left below the threshold. Their units are
// worth what their relevance says (worthFloor), so that they fill what
// the files more likely needed leave; on the three development sets,
// ten files down to 0.01 held every gold hunk in more packs at 16k (2 to
// 5 points) than five down to 0.05, whose units were worth 0.05 at least,
// and in about as many at 2k to 8k.
const (
	extraFiles = 10
	extraFloor = worthFloor
)

// packFiles are the result's files, then the next of its ranking, then,
// from called on, what the result's files call on the lines about the
// task, which the ranking put too low to return: the code read beside
// them.
func packFiles(res *hone.Result) (files []hone.File, called int) {
	if len(res.Files) == 0 {
		// Nothing found: the ranking's files are the ones weighed, not
		// code to read.
		return nil, 0
	}
	files = slices.Clone(res.Files)
	result := map[string]bool{}
	for _, f := range files {
		result[f.Path] = true
	}
	in := maps.Clone(result)
	extra := 0
	for _, r := range res.Ranking {
		if extra == extraFiles || r.Relevance < extraFloor {
			break
		}
		if !in[r.Path] {
			files = append(files, hone.File{Path: r.Path, Relevance: r.Relevance})
			in[r.Path] = true
			extra++
		}
	}
	relevance := map[string]float64{}
	for _, r := range res.Ranking {
		relevance[r.Path] = r.Relevance
	}
	called = len(files)
	for _, c := range res.Cycles {
		for _, g := range c.Gaps {
			if len(files)-called == calledFiles {
				return files, called
			}
			if g.Kind == "call" && g.Critical && result[g.From] && g.Where != "" && !in[g.Where] {
				files = append(files, hone.File{Path: g.Where, Relevance: relevance[g.Where]})
				in[g.Where] = true
			}
		}
	}
	return files, called
}

// calledFiles: the pack holds the code of this many files, at most, that
// the result's files call on the lines about the task, when the budget
// leaves room: their units are worth calledWorth times what they would
// be, so that they fill what the code more likely to change leaves.
const (
	calledFiles = 3
	calledWorth = 0.1
)

// read reads a file for the pack, redacted, in lines; a secret-bearing
// file is never read, and one that cannot be read is noted.
func (p *Pack) read(root, path string) ([]string, bool) {
	if redact.HasPlaceholder(path) {
		// The result names it redacted: no file has that name.
		p.Withheld = append(p.Withheld, path)
		return nil, false
	}
	data, err := ReadFile(root, path)
	if err != nil {
		if !errors.Is(err, ErrSecret) {
			p.Unreadable = append(p.Unreadable, path)
		}
		return nil, false
	}
	// The whole file is redacted first, so that a secret across the
	// units' edges is found, and before control characters go, which the
	// rules may need to see; its lines stay the file's.
	text, n := redact.FileLines(path, string(data))
	p.Redacted += n
	text, _ = redact.CleanText(text)
	return strings.Split(strings.TrimRight(text, "\n"), "\n"), true
}

// block is one code block of the pack: a file's chosen units that follow
// one another.
type block struct {
	text  string
	units []*unit
	// lead and tail are the lines before its first unit and after its
	// last shown with it, as context (see leadContext): its file's lines
	// lead[0] to lead[1] and tail[0] to tail[1], none where [1] is 0.
	lead, tail [2]int
	// head are the lines of the signature shown above its first unit, a
	// part of a definition cut from its docstring (its docstring's run or
	// its body); none where [1] is 0.
	head [2]int
}

// sameCut reports whether a and b, two units of a file, a before b with
// lines between them, are parts of one definition cut from its docstring
// (docstringCut): they go in one block, and the lines of the docstring
// between them are said to be left out.
func sameCut(a, b *unit) bool {
	return a.doc[1] > 0 && a.file == b.file && a.head == b.head && a.doc == b.doc && a.to < b.from-1
}

// docstringLeft says, in a block, that lines from..to of a definition's
// docstring are left out.
func docstringLeft(from, to int) string {
	if from == to {
		return fmt.Sprintf("    … line %d of the docstring left out; ask for it by range …", from)
	}
	return fmt.Sprintf("    … lines %d-%d (%d lines) of the docstring left out; ask for them by range …", from, to, to-from+1)
}

// layout lays the chosen units out, files in order, each file's in line
// order, those that follow one another in one block.
func layout(files []hone.File, texts [][]string, langs []string, units []*unit) []block {
	var out []block
	for i, f := range files {
		var us []*unit
		for _, u := range units {
			if u.file == i && u.chosen {
				us = append(us, u)
			}
		}
		sort.Slice(us, func(a, b int) bool { return us[a].from < us[b].from })
		qpath := redact.QuotePath(f.Path)
		info := fence(f.Path, langs[i])
		// No context line is one of the file's imports left out: they
		// come whole or not at all.
		var imports [2]int
		for _, u := range units {
			if u.file == i && u.why == "imports" && !u.chosen {
				imports = [2]int{u.from, u.to}
			}
		}
		outside := func(l int) bool { return l < imports[0] || l > imports[1] }
		shown := 0 // the last line of the file's blocks laid out so far
		for len(us) > 0 {
			k := 1
			for k < len(us) && (us[k].from == us[k-1].to+1 || sameCut(us[k-1], us[k])) {
				k++
			}
			run := us[:k]
			us = us[k:]
			from, to, total := run[0].from, run[len(run)-1].to, len(texts[i])
			cut, gapped := false, false
			for j, u := range run {
				cut = cut || u.trimmed()
				gapped = gapped || j > 0 && u.from > run[j-1].to+1
			}
			// A part of a definition cut from its docstring, its
			// docstring's run or its body, comes with its signature
			// (no block above shows it: tailContext stops above it).
			var head [2]int
			if r := run[0]; r.doc[1] > 0 && r.to >= r.doc[0] && r.head[0] > shown {
				head, from, gapped = r.head, r.head[0], true
			}
			// The lines that join the block to what lies around it: a
			// change that goes between two definitions is read with
			// both its sides. A block cut to fit has no room for them.
			var lead, tail [2]int
			if !cut {
				if h := leadContext(texts[i], from, shown); h < from && outside(h) {
					lead, from = [2]int{h, from - 1}, h
				}
				if t := tailContext(texts[i], to, us); t > to && outside(t) {
					tail, to = [2]int{to + 1, t}, t
				}
			}
			shown = to
			title := fmt.Sprintf("%s (lines %d-%d of %d)", qpath, from, to, total)
			// A whole file is one whose units hold it whole, nothing
			// left out between them: context lines that reach its
			// edges make none, and the title
			// names the block's definitions.
			if run[0].from == 1 && run[len(run)-1].to == total && !cut && !gapped {
				title = qpath + " (whole file)"
			} else {
				var syms []string
				for _, u := range run {
					switch {
					case u.why == "imports":
						syms = append(syms, "imports")
					case u.doc[1] > 0:
						// The parts of a definition cut from its
						// docstring name it once.
						if name := u.symbol + u.within; name != "" && !slices.Contains(syms, name) {
							syms = append(syms, name)
						}
					case u.symbol != "":
						syms = append(syms, u.symbol)
					case u.within != "":
						// Runs of one definition's lines, its nested
						// definitions between them, name it once.
						if part := "part of " + u.within; !slices.Contains(syms, part) {
							syms = append(syms, part)
						}
					}
				}
				if len(syms) > titleSymbols {
					syms = append(syms[:titleSymbols], fmt.Sprintf("%d more", len(syms)-titleSymbols))
				}
				if len(syms) > 0 {
					title = fmt.Sprintf("%s: %s (lines %d-%d of %d)", qpath, strings.Join(syms, ", "), from, to, total)
				}
			}
			// Each unit as it goes in: a cut one with its middle left
			// out, saying so, wherever it lies in the block, and the
			// lines of a docstring left out between two parts of its
			// definition, or between its signature and the block's first
			// part.
			body := strings.Join(texts[i][from-1:to], "\n")
			if cut || gapped {
				var parts []string
				add := func(a, b int) {
					if a <= b {
						parts = append(parts, strings.Join(texts[i][a-1:b], "\n"))
					}
				}
				// The docstring's lines left out between two lines
				// shown, a and b.
				left := func(u *unit, a, b int) {
					if a, b := max(a+1, u.doc[0]), min(b-1, u.doc[1]); a <= b {
						parts = append(parts, docstringLeft(a, b))
					}
				}
				if head[1] > 0 {
					add(from, head[1])
					left(run[0], head[1], run[0].from)
				} else {
					add(from, run[0].from-1)
				}
				for j, u := range run {
					if j > 0 && u.from > run[j-1].to+1 {
						left(u, run[j-1].to, u.from)
					}
					if u.trimmed() {
						parts = append(parts, elided(texts[i], u))
					} else {
						add(u.from, u.to)
					}
				}
				add(run[len(run)-1].to+1, to)
				body = strings.Join(parts, "\n")
			}
			ticks := backticksFor(body)
			out = append(out, block{units: run, tail: tail, lead: lead, head: head, text: fmt.Sprintf("### %s\n%s%s\n%s\n%s\n", title, ticks, info, body, ticks)})
		}
	}
	return out
}

// titleSymbols: a block's title names this many of its definitions at
// most, and counts the rest.
const titleSymbols = 4

// assemble writes the header and the blocks, and lists what went in.
func (p *Pack) assemble(head string, files []hone.File, texts [][]string, blocks []block) string {
	var b strings.Builder
	b.WriteString(head)
	p.Included, p.Ranges = p.Included[:0], p.Ranges[:0]
	for _, bl := range blocks {
		b.WriteString(bl.text)
		if bl.lead[1] > 0 {
			p.Ranges = append(p.Ranges, Range{Path: files[bl.units[0].file].Path, Start: bl.lead[0], End: bl.lead[1]})
		}
		if bl.head[1] > 0 {
			p.Ranges = append(p.Ranges, Range{Path: files[bl.units[0].file].Path, Start: bl.head[0], End: bl.head[1]})
		}
		for _, u := range bl.units {
			path := files[u.file].Path
			p.Included = append(p.Included, u.name(redact.QuotePath(path)))
			if u.cut[0] > 0 {
				p.Ranges = append(p.Ranges, Range{Path: path, Start: u.from, End: u.cut[0] - 1}, Range{Path: path, Start: u.cut[1] + 1, End: u.to})
				continue
			}
			if u.bytes[1] > 0 {
				// The lines shown whole: those before the cut's line and
				// after the line it ends on.
				lines := texts[u.file]
				if a := lineAt(u, lines, u.bytes[0]); a > u.from {
					p.Ranges = append(p.Ranges, Range{Path: path, Start: u.from, End: a - 1})
				}
				if b := lineAt(u, lines, u.bytes[1]); b < u.to {
					p.Ranges = append(p.Ranges, Range{Path: path, Start: b + 1, End: u.to})
				}
				continue
			}
			p.Ranges = append(p.Ranges, Range{Path: path, Start: u.from, End: u.to})
		}
		if bl.tail[1] > 0 {
			p.Ranges = append(p.Ranges, Range{Path: files[bl.units[0].file].Path, Start: bl.tail[0], End: bl.tail[1]})
		}
	}
	return b.String()
}

// more is the line that counts n entries of the list of what did not
// fit that it leaves out.
func more(n int) string { return fmt.Sprintf("- and %d more\n", n) }

// omittedHead heads the list of what did not fit, which says how to
// have it: a larger budget (budgetName, as the caller calls it), or a
// read of each by its range.
func omittedHead(budgetName string) string {
	return "\n## Not included (over the budget: raise " + budgetName + ", or read them by path and line range; the most likely needed first)\n"
}

// withOmitted appends the list of what did not fit, as much of it as the
// budget allows, and how many more entries there are where it stops: a
// list cut short says so.
func (p *Pack) withOmitted(text string, count func(string) int) string {
	used := count(text)
	// The heading comes with one line under it at least, the first entry
	// or how many there are, or not at all (the code keeps room for both).
	head := omittedHead(cmp.Or(p.budgetName, defaultBudgetName))
	// The first line: the first entry, with room for the count of the
	// rest after it, or the count of all.
	first := count("- " + p.Omitted[0] + "\n")
	if len(p.Omitted) > 1 {
		first += count(more(len(p.Omitted) - 1))
	}
	first = min(first, count(more(len(p.Omitted))))
	if used+count(head)+first > p.Budget {
		return text
	}
	text += head
	used = count(text)
	for i, name := range p.Omitted {
		line := "- " + name + "\n"
		// An entry leaves room for the line that counts those after it.
		after := 0
		if i+1 < len(p.Omitted) {
			after = count(more(len(p.Omitted) - i - 1))
		}
		if used+count(line)+after > p.Budget {
			text += more(len(p.Omitted) - i)
			break
		}
		text += line
		used += count(line)
	}
	return text
}

// writeTask writes the task: a line of it after "Task:", more lines as a
// block quote, so that the task's own headings and code fences, a fence
// the cut left open among them, stay inside it and leave the pack's
// sections as they are.
func writeTask(b *strings.Builder, task string) {
	if !strings.Contains(task, "\n") {
		fmt.Fprintf(b, "Task: %s\n\n", task)
		return
	}
	b.WriteString("Task:\n\n")
	for line := range strings.SplitSeq(task, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			b.WriteString(">\n")
			continue
		}
		b.WriteString("> " + line + "\n")
	}
	b.WriteString("\n")
}

// clip cuts s to n bytes at most, and says so with " …": at the end of
// its last clause that fits ("; "), else at a word's end, never in a
// word's or a character's middle, where the cut keeps some word.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.ToValidUTF8(s[:n], "")
	if i := strings.LastIndex(cut, "; "); i > 0 {
		cut = cut[:i]
	} else if i := strings.LastIndexAny(cut, " \n"); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ;,") + " …"
}

// header is the pack's header at a terseness, 0 the fullest: each level
// past it says less of what the result's JSON holds whole (see terse).
func header(res *hone.Result, extra []hone.File, level int) string {
	t := terse[min(level, len(terse)-1)]
	var b strings.Builder
	b.WriteString("# Context pack from hone\n\n")
	task, _ := redact.CleanText(strings.TrimSpace(res.Task))
	task = clip(task, t.task)
	writeTask(&b, task)
	if len(res.Files) == 0 {
		// The notice says why, in a clause of the sentence: "nothing
		// found" is what the sentence says already.
		b.WriteString("hone found no file for this task")
		if why := strings.TrimPrefix(res.Notice, "nothing found: "); why != "" {
			b.WriteString(": " + why)
		}
		b.WriteString(".\n")
		return b.String()
	}
	if res.Notice != "" {
		// Above the list, not among its entries.
		fmt.Fprintf(&b, "Note: %s.\n\n", res.Notice)
	}
	fmt.Fprintf(&b, "Files (each with its role, target to change, context to read or test, and its relevance, the probability the task needs it; %s):\n", stopWords(res.StopReason))
	for _, f := range res.Files {
		role := f.Role
		if role == "" {
			role = "file"
		}
		// Redacted before it is cut, so that a secret cut in half is
		// still found.
		reason, _ := redact.String(f.Reason)
		reason = clip(reason, t.reason)
		fmt.Fprintf(&b, "- %s (%s, %.2f): %s\n", redact.QuotePath(f.Path), role, f.Relevance, reason)
		if m := f.MissingContext; len(m) > 0 && t.missing > 0 {
			if len(m) > t.missing {
				m = append(slices.Clip(m[:t.missing]), fmt.Sprintf("%d more", len(f.MissingContext)-t.missing))
			}
			fmt.Fprintf(&b, "  missing: %s\n", strings.Join(m, "; "))
		}
	}
	if len(extra) > 0 && t.next > 0 {
		var next []string
		below := true
		for _, f := range extra[:min(len(extra), t.next)] {
			next = append(next, fmt.Sprintf("%s (%.2f)", redact.QuotePath(f.Path), f.Relevance))
			below = below && f.Relevance < res.Threshold
		}
		// Files past --max-files may reach the threshold: the header says
		// "below" only of files that are.
		what := "the ranking's next files"
		if below {
			what += ", below the threshold"
		}
		fmt.Fprintf(&b, "Also shown, as the budget allows: %s: %s\n", what, strings.Join(next, ", "))
	}
	if len(res.RelatedTests) > 0 && t.tests > 0 {
		b.WriteString("Tests to run after a change:\n")
		for i, rt := range res.RelatedTests {
			if i == t.tests {
				fmt.Fprintf(&b, "- %d more\n", len(res.RelatedTests)-i)
				break
			}
			fmt.Fprintf(&b, "- %s (%s)\n", redact.QuotePath(rt.Path), rt.Reason)
		}
	}
	if len(res.PastCommits) > 0 && t.commits > 0 {
		b.WriteString("Past commits like the task (what changed for tasks like it):\n")
		for i, c := range res.PastCommits {
			if i == t.commits {
				fmt.Fprintf(&b, "- %d more\n", len(res.PastCommits)-i)
				break
			}
			named := fmt.Sprintf(", relevance %.2f", c.Relevance)
			if c.Named {
				named = ", named in the task"
			}
			var files []string
			for i, f := range c.Files {
				if i == t.commitFiles {
					files = append(files, fmt.Sprintf("%d more", len(c.Files)-i))
					break
				}
				files = append(files, redact.QuotePath(f))
			}
			fmt.Fprintf(&b, "- %.10s %s (%s%s)\n", c.Hash, redact.Line(c.Subject), strings.Join(files, ", "), named)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// terseness is how much of the result a header says: the task's first
// bytes, each file's reason's first bytes and its first missing context,
// the first related tests and past commits, and each commit's first files;
// it counts the rest. The result's JSON holds all of it, and the budget is
// the code's: the pack's header takes the first level that keeps it
// within headerShare of the budget, or the last.
type terseness struct {
	task, reason, missing, tests, commits, commitFiles int
	// next is how many of the ranking's next files, shown as the budget
	// allows, the header names; none, no line for them.
	next int
}

var terse = []terseness{
	{task: 600, reason: 200, missing: 3, tests: 5, commits: 5, commitFiles: 3, next: extraFiles},
	{task: 400, reason: 120, missing: 2, tests: 3, commits: 3, commitFiles: 2, next: extraFiles},
	{task: 200, reason: 80, missing: 1, tests: 2, commits: 2, commitFiles: 1, next: extraFiles},
	// The files, and the two tests to run first.
	{task: 200, reason: 60, tests: 2},
	// The tersest, for budgets of a few hundred tokens: the result's
	// files alone, so that the best file's best unit has room at least
	// for its head and tail.
	{task: 200, reason: 40},
}

// stopWords says in words why the loop stopped, as the header gives it.
func stopWords(r hone.StopReason) string {
	switch r {
	case hone.StopSufficient:
		return "stopped with enough relevant files"
	case hone.StopNoProgress:
		return "stopped when a cycle found nothing new"
	case hone.StopMaxCycles:
		return "stopped after the most cycles"
	}
	return "stopped: " + string(r)
}

// headerShare: the share of the budget the header may take, when its
// terser levels can keep it there; headerMost, in percent, the most it
// takes, past which a pack holds code and a line that says the budget is
// too small for the header.
const (
	headerShare = 0.05
	headerMost  = 33
)

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
// that closes it, its brackets counted outside strings and comments, and
// a Python line that ends in a backslash runs on to the next. Up to two
// other lines may stand among the imports (an "if TYPE_CHECKING:", a
// "try:", an "#ifdef"); blank lines and comments any number; a
// preprocessor conditional opened among the includes, or on the line
// just before them, runs to its "#endif". An import block that never
// closes, within maxImportBlock lines, ends the run before it.
//
// inDef, when not nil, says which lines (1-based) lie in one of the
// file's definitions: the imports there are the definition's own (a
// function's local require or import), and the run ends before the first
// such line.
func importLines(lines []string, inDef func(line int) bool) (from, to int) {
	for i := 0; i < len(lines) && i <= 200; i++ {
		if inDef != nil && inDef(i+1) {
			if from > 0 {
				break
			}
			continue
		}
		t := strings.TrimSpace(lines[i])
		if end := commentBlockEnd(lines, i); end > i {
			// A block comment or a docstring over lines is read as a
			// comment: its example code (a crate's /*! use x; */) is
			// no import.
			i = end
			continue
		}
		if end := requireBlock(lines, i); end > i {
			// const {\n  a,\n} = require('x'): one import over its lines.
			if from == 0 {
				from = i + 1
			}
			to = end + 1
			i = end
			continue
		}
		if importLine().MatchString(t) {
			end := importEnd(lines, i)
			if end < 0 {
				break
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
	if to > 0 {
		from, to = balanceConditionals(lines, from, to)
	}
	return from, to
}

// commentBlockEnd is, where line i opens a block comment (/* … */) or a
// triple-quoted string (a docstring) that it does not close, the index of
// the line that closes it (the last line, if none does); else -1.
func commentBlockEnd(lines []string, i int) int {
	t := strings.TrimSpace(lines[i])
	closer := ""
	switch {
	case strings.HasPrefix(t, "/*"):
		if strings.Contains(t[2:], "*/") {
			return -1
		}
		closer = "*/"
	case strings.HasPrefix(t, `"""`), strings.HasPrefix(t, "'''"):
		q := t[:3]
		if strings.Contains(t[3:], q) {
			return -1
		}
		closer = q
	default:
		// A docstring's prefix of a letter or two: r"""…, rb'''….
		p := 0
		for p < 2 && p < len(t) && strings.ContainsRune("rRbBuUfF", rune(t[p])) {
			p++
		}
		if p == 0 || !(strings.HasPrefix(t[p:], `"""`) || strings.HasPrefix(t[p:], "'''")) {
			return -1
		}
		q := t[p : p+3]
		if strings.Contains(t[p+3:], q) {
			return -1
		}
		closer = q
	}
	for j := i + 1; j < len(lines); j++ {
		if strings.Contains(lines[j], closer) {
			return j
		}
	}
	return len(lines) - 1
}

// importEnd returns the last line of the import statement on line i: the
// line that closes the bracket it leaves open, the last of its lines
// continued by a backslash, or i itself; -1 where a bracket stays open
// for maxImportBlock lines.
func importEnd(lines []string, i int) int {
	for _, b := range [][2]byte{{'(', ')'}, {'{', '}'}} {
		depth := bracketDepth(lines[i], b[0], b[1])
		if depth <= 0 {
			continue
		}
		for j := i + 1; j < len(lines) && j <= i+maxImportBlock; j++ {
			if depth += bracketDepth(lines[j], b[0], b[1]); depth <= 0 {
				return j
			}
		}
		return -1
	}
	end := i
	for end+1 < len(lines) && end-i < maxImportBlock && strings.HasSuffix(strings.TrimRight(codeOf(lines[end]), " \t"), "\\") {
		end++
	}
	return end
}

// balanceConditionals widens a run of imports to the preprocessor
// conditionals it leaves open: an "#if" on the line just before it, whose
// "#endif" the run or the directives after it close, and an "#endif"
// after it, past directives (their continued lines too), blank lines and
// comments alone. Where the run opens conditionals that nothing closes
// so, it ends before the first of them.
func balanceConditionals(lines []string, from, to int) (int, int) {
	depth := func(a, b int) (d int) {
		for _, l := range lines[a-1 : b] {
			d += directiveDepth(l)
		}
		return d
	}
	closeAt := func(from, to int) (int, bool) {
		d := depth(from, to)
		cont := strings.HasSuffix(strings.TrimRight(lines[to-1], " \t"), "\\")
		for j := to; d > 0 && j < len(lines) && j < to+maxImportBlock; j++ {
			t := strings.TrimSpace(lines[j])
			// A directive's continued lines (#if A || \ then B) are
			// the directive's.
			if !cont && t != "" && !strings.HasPrefix(t, "#") && !isComment(t) {
				return to, false
			}
			cont = strings.HasSuffix(t, "\\")
			d += directiveDepth(t) // 0 for a line that goes on one

			if d == 0 {
				return j + 1, true
			}
		}
		return to, d == 0
	}
	if from > 1 && directiveDepth(lines[from-2]) > 0 {
		if end, ok := closeAt(from-1, to); ok {
			return from - 1, end
		}
	}
	if end, ok := closeAt(from, to); ok {
		return from, end
	}
	// Conditionals the run opens and nothing closes: the run ends before
	// the first of them, whole, rather than open.
	var open []int // the lines of the conditionals open, outermost first
	for k := from; k <= to; k++ {
		switch d := directiveDepth(lines[k-1]); {
		case d > 0:
			open = append(open, k)
		case d < 0 && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		for to = open[0] - 1; to > from && strings.TrimSpace(lines[to-1]) == ""; to-- {
		}
		return from, max(to, from)
	}
	return from, to
}

// directiveDepth is what a line does to the depth of preprocessor
// conditionals: 1 for an #if, #ifdef or #ifndef, -1 for an #endif.
func directiveDepth(line string) int {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "#") {
		return 0
	}
	t = strings.TrimSpace(t[1:])
	switch {
	case strings.HasPrefix(t, "endif"):
		return -1
	case strings.HasPrefix(t, "if"):
		return 1
	}
	return 0
}

// bracketDepth is how many more of open than of close a line holds,
// outside its strings and its trailing comment.
func bracketDepth(line string, open, shut byte) int {
	code := structure.LineCode(line, true)
	return strings.Count(code, string(open)) - strings.Count(code, string(shut))
}

// requireBlock returns the last line of an import whose braces open on
// line i and close on a later line, or i where there is none: a CommonJS
// require destructured ("const {" … "} = require('fs');") or a re-export
// ("export {" … "} from './x';").
func requireBlock(lines []string, i int) int {
	t := strings.TrimSpace(lines[i])
	var closer *regexp.Regexp
	switch {
	case requireOpen().MatchString(t):
		closer = requireClose()
	case reexportOpen().MatchString(t):
		closer = reexportClose()
	default:
		return i
	}
	for j := i + 1; j < len(lines) && j <= i+maxImportBlock; j++ {
		t := strings.TrimSpace(codeOf(lines[j]))
		if strings.HasPrefix(t, "}") {
			if closer.MatchString(t) {
				return j
			}
			return i
		}
	}
	return i
}

var (
	requireOpen   = lazyre.New(`^(const|let|var)\s*\{[^}]*$`)
	requireClose  = lazyre.New(`^\}\s*=\s*require\s*\(`)
	reexportOpen  = lazyre.New(`^export\s+(type\s+)?\{[^}]*$`)
	reexportClose = lazyre.New(`^\}\s*from\s`)
)

// maxImportBlock: an import block longer than this is taken for no block.
const maxImportBlock = 400

// backticksFor is the fence for a code block of body: longer than any run
// of backticks that starts one of its lines (a docstring's own markdown
// fence), so that none closes the block; three at least. A lone carriage
// return ends a line, as Markdown reads it.
func backticksFor(body string) string {
	n := 3
	for line := range strings.FieldsFuncSeq(body, func(r rune) bool { return r == '\n' || r == '\r' }) {
		t := strings.TrimLeft(line, " \t")
		run := len(t) - len(strings.TrimLeft(t, "`"))
		n = max(n, run+1)
	}
	return strings.Repeat("`", n)
}

// codeOf is a line less its trailing comment ("//" or "#" outside a
// string): enough to find an import block's closing bracket.
func codeOf(line string) string { return line[:len(structure.LineCode(line, true))] }

// isComment reports whether a trimmed line is a comment line.
func isComment(t string) bool {
	for _, p := range []string{"//", "#", "/*", "*", "--"} {
		if strings.HasPrefix(t, p) && !strings.HasPrefix(t, "#include") {
			return true
		}
	}
	return false
}

// importLine matches a line that imports: Python's, Java's, Kotlin's,
// Scala's, Go's and their package line, JavaScript's (ES modules and
// CommonJS' require, a re-export from another module), C's includes and
// Objective-C's imports, Rust's use, mod and extern crate, Ruby's and
// Lua's require, C#'s using (global too) and PHP's use with their
// file-scoped namespace, Swift's import with its attributes (@testable
// import, @_spi(X) import), Dart's import, export, part and library
// directives, Elixir's alias, Zig's @import, R's library().
var importLine = lazyre.New(`^((@\w+(\([^)]*\))?\s+)*import\b|from\s+\S+\s+import\b|#\s*include\b|#\s*import\s*[<"]|(pub(\([^)]*\))?\s+)?use\s|require(_relative)?\b|(global\s+)?using\s|package\s|` +
	`(const|let|var)\s+([\w$]+|\{[^}]*\})\s*=\s*require\s*\(|export\s+(\*|\{|type\s+\{).*\bfrom\s|extern\s+crate\s|(pub(\([^)]*\))?\s+)?mod\s+\w+\s*;|` +
	`namespace\s+[\w\\.]+\s*;|(export|part)\s+['"][^'"=$\s]+['"]|part\s+of\s+(['"][^'"\s]+['"]|[\w.]+)\s*;|library\s+[\w.]+\s*;|library\(|` +
	`alias\s+[A-Z][\w.]*(\.\{|\s*(,|#|$))|local\s+\w+\s*=\s*require\b|(pub\s+)?const\s+\w+\s*=\s*@import\s*\()`)

// fence is the info string of a file's code block: its language, as the
// outlines name it (structure.LanguageOf's, the file's text read where
// its name leaves it open).
func fence(p, lang string) string {
	switch ext := strings.ToLower(path.Ext(p)); ext {
	case ".tsx", ".jsx":
		return ext[1:] // highlighted apart from plain TypeScript and JavaScript
	}
	return fenceNames[lang]
}

// fenceNames are the info strings that fence a language's code, by the
// language structure.Language names; "" for one that has none.
var fenceNames = map[string]string{
	"python": "py", "go": "go", "javascript": "js", "typescript": "ts", "java": "java", "kotlin": "kt",
	"scala": "scala", "csharp": "cs", "rust": "rs", "c": "c", "cpp": "cpp", "ruby": "rb", "php": "php",
	"swift": "swift", "shell": "sh", "lua": "lua", "perl": "pl", "r": "r", "julia": "jl", "elixir": "ex",
	"erlang": "erl", "haskell": "hs", "ocaml": "ml", "dart": "dart", "vue": "vue", "svelte": "svelte",
	"markdown": "md", "json": "json", "yaml": "yaml", "toml": "toml", "ini": "ini", "html": "html",
	"css": "css", "sql": "sql", "proto": "proto", "groovy": "groovy", "zig": "zig", "cmake": "cmake",
}

// contextLines: a block shows this many lines at most around its units,
// above and below (see leadContext and tailContext); none longer than
// maxContextBytes, which the units' estimates would not foresee (a data
// line, minified code), whose cost could push the units out.
const (
	contextLines    = 2
	maxContextBytes = 240
)

// leadContext is the first line of the context shown above a block that
// begins on line from: the blank lines above it and the line of code
// above them (the end of the definition before), contextLines in all at
// most, none at or above line shown (another block's); from when there
// is none, blank lines alone, or a line too long.
func leadContext(lines []string, from, shown int) int {
	for l := from - 1; l > shown && l >= 1 && from-l <= contextLines; l-- {
		if strings.TrimSpace(lines[l-1]) != "" {
			if len(lines[l-1]) > maxContextBytes {
				return from
			}
			return l
		}
	}
	return from
}

// tailContext is the last line of the context shown below a block that
// ends on line to: the blank lines below it and the line of code below
// them (the next definition's signature), contextLines in all at most,
// none in a unit of next, the file's next blocks' units in line order;
// to when there is none, blank lines alone, or a line too long.
func tailContext(lines []string, to int, next []*unit) int {
	stop := len(lines) + 1
	if len(next) > 0 {
		stop = next[0].from
		if next[0].doc[1] > 0 {
			stop = min(stop, next[0].head[0]) // its block shows the signature
		}
	}
	for l := to + 1; l < stop && l <= len(lines) && l-to <= contextLines; l++ {
		if strings.TrimSpace(lines[l-1]) != "" {
			if len(lines[l-1]) > maxContextBytes {
				return to
			}
			return l
		}
	}
	return to
}
