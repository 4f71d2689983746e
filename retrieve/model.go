package retrieve

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// judges are the run's evaluators: the lexical one, which judges every
// candidate, and a model's, when the options give one, which joins it.
type judges struct {
	lexical hone.Evaluator
	// model is nil without one, and after it failed: the rest of the run
	// is the lexical evaluator's.
	model    hone.Evaluator
	excerpts hone.Excerpter
	notice   func(string)
	// used is what the model spent in the run; fallback why it stopped.
	used     *hone.Usage
	fallback string
}

func newJudges(ix *index.Index, tp *taskParse, src *sources, opts hone.Options) *judges {
	j := &judges{lexical: &lexical{ix: ix, tp: tp}, notice: opts.Notice}
	if opts.Evaluator != nil {
		j.model = redacting{opts.Evaluator}
		j.excerpts = &excerpter{ix: ix, tp: tp, src: src}
		j.used = &hone.Usage{}
		if m, ok := opts.Evaluator.(hone.Metered); ok {
			*j.used = usageOf(m)
		}
	}
	return j
}

// judge has the lexical evaluator judge the request's candidates, then
// the model, if any, those it chooses; each verdict of the model's is
// joined with the lexical one. It returns the verdicts, best first, and
// what the model spent on them.
func (j *judges) judge(ctx context.Context, req hone.EvaluateRequest, cycle int) ([]verdict, *hone.Usage, error) {
	vs, err := judge(ctx, j.lexical, req, cycle)
	if err != nil || j.model == nil || len(vs) == 0 {
		return vs, nil, err
	}
	// The model sees the candidates best first by the lexical verdicts,
	// with those verdicts.
	near := map[string]float64{}
	for _, c := range req.Candidates {
		near[c.Path] = c.Near
	}
	req.Candidates = make([]hone.Candidate, 0, len(vs))
	req.Lexical = make([]hone.Evaluation, len(vs))
	for i, v := range vs {
		req.Candidates = append(req.Candidates, hone.Candidate{Path: v.Path, Near: near[v.Path]})
		req.Lexical[i] = v.Evaluation
	}
	req.Excerpts = j.excerpts
	evs, err := evaluateSafely(ctx, j.model, req)
	use := j.spent()
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		msg, _ := redact.String(err.Error())
		j.fallback = msg
		if use == nil {
			use = &hone.Usage{}
		}
		use.Fallback = msg
		j.model = nil
		if j.notice != nil {
			j.notice(fmt.Sprintf("the model evaluator failed (%s): the rest of this run is judged by the lexical evaluator alone", msg))
		}
		// What it judged before it failed is joined all the same.
	}
	byPath := make(map[string]int, len(vs))
	for i, v := range vs {
		byPath[v.Path] = i
	}
	for _, e := range evs {
		i, ok := byPath[e.Path]
		if !ok {
			continue // not a candidate
		}
		delete(byPath, e.Path) // one verdict a file
		vs[i] = joinVerdict(vs[i], e)
	}
	sortEvals(vs)
	return vs, use, nil
}

// usageOf is what an evaluator the caller wrote says it spent: nothing
// where its Usage panics, as its Evaluate's panic is a fallback, not the
// run's failure; a cost that is no number (NaN, infinite, below zero) as
// 0, which JSON can carry.
func usageOf(m hone.Metered) (u hone.Usage) {
	defer func() {
		if recover() != nil {
			u = hone.Usage{}
		}
	}()
	u = m.Usage()
	if math.IsNaN(u.CostUSD) || math.IsInf(u.CostUSD, 0) || u.CostUSD < 0 {
		u.CostUSD = 0
	}
	return u
}

// spent reads what the model spent since the last reading.
func (j *judges) spent() *hone.Usage {
	m, ok := j.model.(redacting).Evaluator.(hone.Metered)
	if !ok {
		return nil
	}
	now := usageOf(m)
	d := now.Sub(*j.used)
	*j.used = now
	return &d
}

// usage is what the model spent in the run; nil without one.
func (j *judges) usage() *hone.Usage {
	if j.used == nil {
		return nil
	}
	u := *j.used
	u.Fallback = j.fallback
	u.CostUSD = math.Round(u.CostUSD*1e6) / 1e6
	return &u
}

// joinVerdict joins a lexical verdict with a model's evaluation of the
// same file: the score joins both (hone.JoinScores), the reason and the
// missing context are the model's first, and its terms are kept for
// refine.
func joinVerdict(v verdict, e hone.Evaluation) verdict {
	m := e.Score
	if math.IsNaN(m) {
		return v // a model's mistake counts as no verdict
	}
	m = math.Max(0, math.Min(1, m))
	v.model, v.judged = m, true
	shown := math.Round(m*100) / 100
	v.ModelScore = &shown
	v.score = hone.JoinScores(v.lex, m)
	v.Score = math.Round(v.score*100) / 100
	reason := strings.TrimSpace(e.Reason)
	switch {
	case reason != "" && v.Reason != "":
		v.Reason = "model: " + reason + "; lexical: " + v.Reason
	case reason != "":
		v.Reason = "model: " + reason
	}
	v.Terms = cleanTerms(e.Terms)
	v.modelNeeds = cleanTerms(e.MissingContext)
	return v
}

// cleanTerms trims a model's list, drops the empty and repeated, and keeps
// a few: a model's answer is input, not trusted.
func cleanTerms(ts []string) []string {
	var out []string
	for _, t := range ts {
		t = strings.TrimSpace(t)
		if t == "" || len(t) > 200 || slices.Contains(out, t) {
			continue
		}
		out = append(out, t)
		if len(out) == 8 {
			break
		}
	}
	return out
}

// modelStems are the stems of the terms a model named for the codebase's
// own words, in the verdicts of a cycle, that the index knows, most
// relevant file's first, each with the file's joined score.
func modelTerms(ix *index.Index, vs []verdict, known func(stem string) bool) []learnedTerm {
	var out []learnedTerm
	seen := map[string]bool{}
	for _, v := range vs {
		if !v.judged || v.model < hone.ExcludeBelow {
			continue
		}
		for _, t := range append(slices.Clone(v.Terms), v.modelNeeds...) {
			tokenize.Each(t, func(tk tokenize.Token) {
				s := tk.Stem
				if tk.Whole || len(s) < 3 || seen[s] || known(s) || ix.DF(s) == 0 {
					return
				}
				seen[s] = true
				out = append(out, learnedTerm{stem: s, label: tk.Text, weight: v.model, source: "model"})
			})
		}
	}
	if len(out) > modelTermsMax {
		out = out[:modelTermsMax]
	}
	return out
}

// modelTermsMax bounds the terms a cycle learns from a model.
const modelTermsMax = 6

// excerpter gives a model its excerpts of the candidates: the outline,
// then the definitions that match the task best, within a budget, with
// the secrets hidden; a secret-bearing file is withheld. It reads
// through the run's sources, one call at a time.
type excerpter struct {
	mu    sync.Mutex
	ix    *index.Index
	tp    *taskParse
	src   *sources
	stems map[string]bool // the task's, read once
	// secret: whether a file holds a secret, by path, searched once.
	secret map[string]bool
}

func (x *excerpter) Excerpt(path string, maxTokens int) (hone.Excerpt, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := hone.Excerpt{Path: path}
	d := x.ix.Doc(path)
	if d == nil {
		return out, fmt.Errorf("%s is not in the index", path)
	}
	if d.Kind.Has(walk.Secret) {
		out.Withheld = "a credentials file"
		return out, nil
	}
	fc := x.src.fastOutline(d)
	if x.stems == nil {
		x.stems = x.taskStems()
	}
	// The whole file is searched first, with the rules for its path: an
	// excerpt cut inside a secret (a private key's head, without its
	// end) no longer matches the rule that finds it, and the rules of a
	// kind of file (a Kubernetes secret's YAML) need its path.
	if x.secret == nil {
		x.secret = map[string]bool{}
	}
	holds, seen := x.secret[path]
	if !seen {
		_, n := redact.File(path, fc.text.content)
		holds = n > 0
		x.secret[path] = holds
	}
	text := excerptText(fc.text.lines, fc.defs, x.stems, maxTokens)
	text, n := redact.String(text)
	if holds || n > 0 {
		out.Withheld = "holds secrets"
		return out, nil
	}
	out.Text = text
	return out, nil
}

// taskStems are the stems of the task's concepts, each way the run says
// them.
func (x *excerpter) taskStems() map[string]bool {
	out := map[string]bool{}
	for _, c := range x.tp.concepts {
		for _, a := range c.alts {
			for _, s := range a.stems {
				out[s] = true
			}
		}
	}
	return out
}

// excerptText lays out a file for a model: its path and size, its
// outline, then its lines, the whole file when it fits, else the
// definitions whose names and lines hold most of the task's stems, best
// first, each whole or cut with a visible mark, in line order.
// A line holds a stem when its lower case does: stems are the heads of
// words, and tokenizing every line of seventy files would cost more than
// the rest of a cycle.
func excerptText(lines []string, defs []structure.Def, stems map[string]bool, maxTokens int) string {
	var heads []string
	for st := range stems {
		if len(st) >= 3 && !strings.Contains(st, " ") {
			heads = append(heads, st)
		}
	}
	hits := make([]int, len(lines))
	done := make([]bool, len(lines))
	lineHits := func(i int) int {
		if !done[i] {
			done[i] = true
			l := strings.ToLower(lines[i])
			for _, h := range heads {
				if strings.Contains(l, h) {
					hits[i]++
				}
			}
		}
		return hits[i]
	}
	budget := maxTokens * 4 // bytes, at about four a token
	var b strings.Builder
	fmt.Fprintf(&b, "%d lines\n", len(lines))
	// size is the bytes of lines from..to, numbered.
	size := func(from, to int) int {
		n := 0
		for i := from; i <= to && i <= len(lines); i++ {
			n += len(lines[i-1]) + len(strconv.Itoa(i)) + 3
		}
		return n
	}
	numbered := func(from, to int) string {
		var s strings.Builder
		for i := from; i <= to && i <= len(lines); i++ {
			s.WriteString(strconv.Itoa(i))
			s.WriteString("| ")
			s.WriteString(lines[i-1])
			s.WriteByte('\n')
		}
		return s.String()
	}
	if size(1, len(lines)) <= budget-b.Len() {
		b.WriteString(numbered(1, len(lines)))
		return b.String()
	}
	// The outline, within a third of the budget.
	if len(defs) > 0 {
		var o strings.Builder
		o.WriteString("outline:\n")
		for _, d := range defs {
			line := fmt.Sprintf("  %d-%d %s %s\n", d.Line, max(d.Line, d.EndLine), d.Kind, qualified(d))
			if o.Len()+len(line) > budget/3 {
				o.WriteString("  …\n")
				break
			}
			o.WriteString(line)
		}
		b.WriteString(o.String())
	}
	// The definitions by how much of the task they hold.
	type part struct {
		from, to int
		worth    float64
	}
	var parts []part
	for _, d := range defs {
		if d.Kind == "section" || d.Line < 1 || d.Line > len(lines) {
			continue
		}
		to := min(max(d.Line, d.EndLine), len(lines))
		w := 0.0
		for _, s := range stemsOf(d.Name) {
			if stems[s] {
				w += 3
			}
		}
		for i := d.Line; i <= to; i++ {
			w += float64(lineHits(i - 1))
		}
		if w > 0 {
			parts = append(parts, part{d.Line, to, w / math.Sqrt(float64(to-d.Line+1))})
		}
	}
	if len(parts) == 0 {
		// Nothing matches: the head of the file.
		parts = append(parts, part{1, len(lines), 1})
	}
	slices.SortStableFunc(parts, func(a, c part) int {
		switch {
		case a.worth > c.worth:
			return -1
		case a.worth < c.worth:
			return 1
		}
		return a.from - c.from
	})
	left := budget - b.Len()
	var chosen []part
	for _, p := range parts {
		covered := false
		for _, c := range chosen {
			covered = covered || c.from <= p.from && p.to <= c.to
		}
		if covered {
			continue
		}
		n := size(p.from, p.to)
		if n > left {
			if len(chosen) > 0 || left < 200 {
				continue
			}
			// The best definition alone is over the budget: its head.
			to, n2 := p.from, size(p.from, p.from)
			for to < p.to && n2+size(to+1, to+1) < left-40 {
				to++
				n2 += size(to, to)
			}
			p.to, n = to, n2
		}
		chosen = append(chosen, p)
		left -= n + 4
	}
	slices.SortFunc(chosen, func(a, c part) int { return a.from - c.from })
	for _, p := range chosen {
		b.WriteString("…\n")
		b.WriteString(numbered(p.from, p.to))
	}
	if len(chosen) > 0 && chosen[len(chosen)-1].to < len(lines) {
		b.WriteString("…\n")
	}
	return b.String()
}

// evaluateSafely asks ev, and makes a panic of its an error: a retrieve
// never fails because a model, or an evaluator a caller wrote, did.
func evaluateSafely(ctx context.Context, ev hone.Evaluator, req hone.EvaluateRequest) (evs []hone.Evaluation, err error) {
	defer func() {
		if r := recover(); r != nil {
			evs, err = nil, fmt.Errorf("the evaluator panicked: %v", r)
		}
	}()
	return ev.Evaluate(ctx, req)
}
