package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/redact"
)

// traceRows is how many evaluated files a cycle's block shows.
const traceRows = 12

// The text's list of the ranking's next files: maxNextShown at most, at
// nextFloor or more, the relevance of a tangential file.
const (
	maxNextShown = 5
	nextFloor    = 0.2
)

// writeText prints the per-cycle trace, then the result.
func writeText(w io.Writer, res *hone.Result) error {
	b := bufio.NewWriter(w)
	task := res.Task
	if i := strings.IndexByte(task, '\n'); i >= 0 || len(task) > 100 {
		if i < 0 || i > 100 {
			i = 100
		}
		task = strings.TrimSpace(task[:i]) + " …"
	}
	task, _ = redact.CleanText(task)
	fmt.Fprintf(b, "Task: %s\n", task)
	fmt.Fprintf(b, "Repo: %s\n", redact.QuotePath(res.Repo))
	place := make(map[string]int, len(res.Ranking)) // each file's place in the ranking, from 1
	for i, r := range res.Ranking {
		place[r.Path] = i + 1
	}

	for _, c := range res.Cycles {
		fmt.Fprintf(b, "\n── Cycle %d ──\n", c.N)
		fmt.Fprintf(b, "Dispatch\n")
		own, related, learned := keywordRows(c.Query)
		fmt.Fprintf(b, "  keywords:    %s\n", list(own, 16))
		if len(related) > 0 {
			fmt.Fprintf(b, "  related:     %s\n", listSep(related, 6, "; "))
		}
		if len(learned) > 0 {
			fmt.Fprintf(b, "  learned:     %s\n", list(learned, 8))
		}
		if len(c.Query.Patterns) > 0 {
			fmt.Fprintf(b, "  patterns:    %s\n", list(c.Query.Patterns, 8))
		} else {
			fmt.Fprintf(b, "  patterns:    all source files\n")
		}
		if len(c.Query.Named) > 0 {
			fmt.Fprintf(b, "  named:       %s\n", list(quoteAll(c.Query.Named), 6))
		}
		if len(c.Query.Probes) > 0 {
			fmt.Fprintf(b, "  probes:      %s\n", list(c.Query.Probes, 8))
		}
		if len(c.Query.FocusAreas) > 0 {
			fmt.Fprintf(b, "  focus:       %s\n", list(c.Query.FocusAreas, 8))
		}
		if len(c.Query.Expand) > 0 {
			fmt.Fprintf(b, "  around:      %s\n", list(quoteAll(c.Query.Expand), 3))
		}
		if len(c.Query.Excludes) > 0 {
			fmt.Fprintf(b, "  excludes:    %s\n", list(quoteAll(c.Query.Excludes), 6))
		}
		if len(c.Query.SkipKinds) > 0 {
			fmt.Fprintf(b, "  skipping:    %s files\n", strings.Join(c.Query.SkipKinds, ", "))
		}
		// The evaluator's score steered this cycle; the relevance, on the
		// result's scale, carries the band.
		fmt.Fprintf(b, "Evaluate (%d file%s; score: the evaluator's in this cycle; relevance: the result's)\n", len(c.Evaluated), plural(len(c.Evaluated)))
		if len(c.Evaluated) > 0 {
			fmt.Fprintf(b, "  score relevance\n")
		}
		for i, ev := range c.Evaluated {
			if i == traceRows {
				// The rows left out are bounded by the best of them, which
				// may tie with the last row shown.
				top := 0.0
				for _, hidden := range c.Evaluated[i:] {
					top = max(top, hidden.Score)
				}
				fmt.Fprintf(b, "  … %d more, scored %.2f or less\n", len(c.Evaluated)-traceRows, top)
				break
			}
			model := ""
			if ev.ModelScore != nil {
				model = fmt.Sprintf("  (model %.2f)", *ev.ModelScore)
			}
			name, gap := redact.QuotePath(ev.Path), " "
			if utf8.RuneCountInString(name) >= 40 {
				gap = "  " // a long path stands apart from its band
			}
			// A file the evaluator scored high that the result holds
			// irrelevant says where the ranking put it: below files
			// that stand far above it.
			where := ""
			if ev.Score >= res.Threshold && ev.Relevance < 0.2 {
				if k, ok := place[ev.Path]; ok {
					where = fmt.Sprintf(", %s in the ranking", ordinal(k))
				}
			}
			fmt.Fprintf(b, "  %.2f  %.2f  %-40s%s%s%s%s\n", ev.Score, ev.Relevance, name, gap, band(ev.Relevance), where, model)
		}
		if u := c.ModelUsage; u != nil {
			fmt.Fprintf(b, "  model:       %s\n", usageLine(*u))
		}
		fmt.Fprintf(b, "Refine\n")
		// The terms learned from the code: the keywords less the synonyms,
		// which have their own line, wherever they stand among them.
		syn := map[string]bool{}
		for _, s := range c.LearnedSynonyms {
			syn[s.Term] = true
		}
		var fromCode []string
		for _, k := range c.LearnedKeywords {
			if !syn[k] {
				fromCode = append(fromCode, k)
			}
		}
		fmt.Fprintf(b, "  learned:     %s\n", orNone(list(fromCode, 10)))
		if len(c.LearnedSynonyms) > 0 {
			var syns []string
			for _, s := range c.LearnedSynonyms {
				syns = append(syns, fmt.Sprintf("%s (for %s)", s.Term, s.For))
			}
			fmt.Fprintf(b, "  synonyms:    %s\n", list(syns, 8))
		}
		if len(c.LearnedRelated) > 0 {
			var rel []string
			for _, r := range c.LearnedRelated {
				rel = append(rel, fmt.Sprintf("%s (with %s in %d files)", r.Term, r.With, r.Files))
			}
			fmt.Fprintf(b, "  thesaurus:   %s\n", list(rel, 6))
		}
		if len(c.LearnedPatterns) > 0 {
			fmt.Fprintf(b, "  patterns:    %s\n", list(c.LearnedPatterns, 8))
		}
		fmt.Fprintf(b, "  excluded:    %s\n", orNone(list(quoteAll(c.Excluded), 6)))
		if len(c.Gaps) == 0 {
			fmt.Fprintf(b, "  gaps:        none\n")
		}
		for i, g := range c.Gaps {
			label := "gaps:"
			if i > 0 {
				label = ""
			}
			if i == 8 {
				fmt.Fprintf(b, "  %-12s … %d more\n", "", len(c.Gaps)-8)
				break
			}
			fmt.Fprintf(b, "  %-12s %s\n", label, gapLine(g))
		}
	}

	fmt.Fprintf(b, "\n── Result: relevance, the probability the task needs each file ──\n")
	if len(res.Files) == 0 {
		fmt.Fprintf(b, "No file found.\n")
	} else {
		roles := map[string]int{}
		reached := 0
		for _, f := range res.Files {
			roles[f.Role]++
			if f.Relevance >= res.Threshold {
				reached++
			}
		}
		var parts []string
		for _, r := range []string{hone.RoleTarget, hone.RoleContext, hone.RoleTest} {
			if roles[r] > 0 {
				noun := r + plural(roles[r])
				if r == hone.RoleContext {
					noun = r // context is a mass noun
				}
				parts = append(parts, fmt.Sprintf("%d %s", roles[r], noun))
			}
		}
		at := fmt.Sprintf("%d at %s or above", reached, hone.ThresholdText(res.Threshold))
		if reached == 0 {
			at = fmt.Sprintf("none at %s or above", hone.ThresholdText(res.Threshold))
		}
		fmt.Fprintf(b, "%d file%s, %s: %s\n", len(res.Files), plural(len(res.Files)), at, strings.Join(parts, ", "))
	}
	// A file no cycle evaluated was found by the ranking's own search,
	// after the cycles: the trace lists it under none of them.
	inCycles := map[string]bool{}
	for _, c := range res.Cycles {
		for _, ev := range c.Evaluated {
			inCycles[ev.Path] = true
		}
	}
	for _, f := range res.Files {
		model := ""
		if f.ModelScore != nil {
			model = fmt.Sprintf(", model %.2f", *f.ModelScore)
		}
		found := fmt.Sprintf("cycle %d", f.Cycle)
		if !inCycles[f.Path] {
			found = "found after the cycles"
		}
		fmt.Fprintf(b, "\n  %.2f  %s  %s, %s, scored %.2f%s\n", f.Relevance, redact.QuotePath(f.Path), f.Role, found, f.Score, model)
		fmt.Fprintf(b, "        why:     %s\n", redact.Line(f.Reason))
		if len(f.MissingContext) > 0 {
			fmt.Fprintf(b, "        missing: %s\n", redact.Line(strings.Join(f.MissingContext, "; ")))
		}
	}
	// The ranking's next files that the task may well need (tangential or
	// more on the relevance scale), as a context pack shows them: a
	// threshold that left out the file a user wanted leaves it in sight.
	inFiles := map[string]bool{}
	for _, f := range res.Files {
		inFiles[f.Path] = true
	}
	var next []string
	for _, r := range res.Ranking {
		if len(res.Files) == 0 || len(next) == maxNextShown || r.Relevance < nextFloor {
			break // nothing found has no next file
		}
		if !inFiles[r.Path] {
			next = append(next, fmt.Sprintf("%s %.2f", redact.QuotePath(r.Path), r.Relevance))
		}
	}
	if len(next) > 0 {
		fmt.Fprintf(b, "\nNext in the ranking: %s\n", strings.Join(next, ", "))
	}
	if len(res.RelatedTests) > 0 {
		fmt.Fprintf(b, "\nTests to run:\n")
		for _, t := range res.RelatedTests {
			if len(t.For) == 0 {
				fmt.Fprintf(b, "  %s  (%s)\n", redact.QuotePath(t.Path), t.Reason)
				continue
			}
			fmt.Fprintf(b, "  %s  (%s; for %s)\n", redact.QuotePath(t.Path), t.Reason, strings.Join(quoteAll(t.For), ", "))
		}
	}
	if len(res.PastCommits) > 0 {
		fmt.Fprintf(b, "\nPast commits like the task (relevance: their most relevant file's):\n")
		for _, c := range res.PastCommits {
			score := fmt.Sprintf("%.2f", c.Relevance)
			if c.Named {
				score = "named"
			}
			fmt.Fprintf(b, "  %s  %.10s  %s  (%s)\n", score, c.Hash, redact.Line(c.Subject), strings.Join(quoteAll(c.Files), ", "))
		}
	}
	if res.Notice != "" {
		fmt.Fprintf(b, "\n%s\n", res.Notice)
	}
	if u := res.Evaluator; u != nil {
		fmt.Fprintf(b, "\nModel: %s\n", usageLine(*u))
	}
	// The files the cycles evaluated, and those the ranking's search after
	// them did (Ranking holds both).
	more := ""
	if n := len(res.Ranking) - len(inCycles); n > 0 {
		more = fmt.Sprintf(" and %d more for the ranking", n)
	}
	fmt.Fprintf(b, "\nStopped: %s. %d cycle%s, %d file%s evaluated%s, %d ms.\n",
		stopText(res), len(res.Cycles), plural(len(res.Cycles)), len(inCycles), plural(len(inCycles)), more, res.ElapsedMS)
	fmt.Fprintf(b, "Time: %s.\n", timingsText(res.Timings))
	return b.Flush()
}

// timingsText says where a run's time went, stage by stage.
func timingsText(t hone.Timings) string {
	cycles := make([]string, len(t.Cycles))
	for i, c := range t.Cycles {
		cycles[i] = fmt.Sprintf("%d ms", c)
	}
	s := fmt.Sprintf("update %d ms, task %d ms", t.Update, t.Task)
	switch len(cycles) {
	case 0:
	case 1:
		s += ", cycle " + cycles[0]
	default:
		s += ", cycles " + strings.Join(cycles, " + ")
	}
	return s + fmt.Sprintf(", ranking %d ms, history wait %d ms", t.Rank, t.History)
}

// usageLine says what a model spent, on one line.
func usageLine(u hone.Usage) string {
	s := fmt.Sprintf("%s, %d call%s, %d file%s judged (%d from the cache), %d tokens in, %d out",
		u.Evaluator, u.Calls, plural(u.Calls), u.Judged, plural(u.Judged), u.Cached, u.InputTokens, u.OutputTokens)
	if u.CostUSD > 0 {
		s += fmt.Sprintf(", $%.4f", u.CostUSD)
	}
	if u.Retries > 0 {
		s += fmt.Sprintf(", %d retried", u.Retries)
	}
	if u.Fallback != "" {
		s += "; failed, the lexical evaluator went on alone: " + redact.Line(u.Fallback)
	}
	return s
}

func gapLine(g hone.Gap) string {
	var s string
	switch g.Kind {
	case "call":
		s = fmt.Sprintf("%s() in %s, called by %s", g.Name, redact.QuotePath(g.Where), redact.QuotePath(g.From))
	case "import":
		s = fmt.Sprintf("%s, imported by %s", redact.QuotePath(g.Where), redact.QuotePath(g.From))
	case "model":
		s = fmt.Sprintf("%s in %s, which a model said %s needs", g.Name, redact.QuotePath(g.Where), redact.QuotePath(g.From))
	default:
		s = fmt.Sprintf("%q: no relevant file covers it yet", g.Name)
	}
	if g.Critical {
		s += " [critical]"
	}
	return s
}

func stopText(res *hone.Result) string {
	switch res.StopReason {
	case hone.StopSufficient:
		return fmt.Sprintf("sufficient (the ranking holds at least %d files at relevance %s or more, and no critical gap was left)", hone.SufficientFiles, hone.ThresholdText(res.Threshold))
	case hone.StopNoProgress:
		if len(res.Cycles) == 0 {
			// A task of no words hone can search for runs no cycle: the
			// JSON's no_progress, with no cycle to have made none.
			return "the task gave nothing to search for, so no cycle ran"
		}
		if len(res.Ranking) == 0 {
			// An empty index, or a search that met no file: nothing
			// for a cycle to learn from.
			return "no progress (the search found no file to evaluate)"
		}
		return fmt.Sprintf("no progress (the last cycle found nothing new, or left the ranking's best %d files as they were)", hone.SettledFiles)
	case hone.StopMaxCycles:
		return "max cycles reached"
	}
	return string(res.StopReason)
}

// ordinal is n as a place: 1st, 2nd, 3rd, 4th, 11th, 21st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

func band(r float64) string {
	switch {
	case r >= 0.8:
		return "direct"
	case r >= 0.5:
		return "related"
	case r >= 0.2:
		return "tangential"
	}
	return "irrelevant"
}

// keywordRows are a query's search terms as the task or the code writes
// them ("duration", "isinstance"), in the query's order, each once: the
// stems that Keywords holds ("durat", "isinst") are what the index
// matches, not what a reader knows. Own are the task's words and their
// translations; related the other words searched for a task word,
// grouped after it ("expire, ttl (for expiry)": its synonyms, the general
// vocabulary's, the repository's thesaurus's), so that a word the task
// never wrote says where it comes from; learned the terms learned from
// the codebase.
func keywordRows(q hone.Query) (own, related, learned []string) {
	own, related, learned = []string{}, []string{}, []string{}
	seen := map[string]bool{}
	var groups []string // concepts in the order of their first related term
	byConcept := map[string][]string{}
	for _, t := range q.Terms {
		l := t.Label
		if l == "" {
			l = strings.Join(t.Stems, " ")
		}
		k := strings.ToLower(l)
		if seen[k] {
			continue
		}
		seen[k] = true
		switch {
		case t.Kind == "learned":
			learned = append(learned, l)
		case t.Source == "" || t.Source == "task" || t.Source == "glossary" || t.Concept == "":
			own = append(own, l)
		default:
			if _, ok := byConcept[t.Concept]; !ok {
				groups = append(groups, t.Concept)
			}
			byConcept[t.Concept] = append(byConcept[t.Concept], l)
		}
	}
	for _, c := range groups {
		related = append(related, strings.Join(byConcept[c], ", ")+" (for "+c+")")
	}
	return own, related, learned
}

func list(ss []string, max int) string { return listSep(ss, max, ", ") }

// listSep joins the first max of ss with sep, and says how many more.
func listSep(ss []string, max int, sep string) string {
	if len(ss) > max {
		return strings.Join(ss[:max], sep) + fmt.Sprintf("%s… (%d more)", sep, len(ss)-max)
	}
	return strings.Join(ss, sep)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// quoteAll quotes the file names that could forge output.
func quoteAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = redact.QuotePath(p)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
