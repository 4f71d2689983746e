package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hone-tools/hone/lexicon"
)

// The glossary's coverage of real Chinese text: how much of it the
// Chinese-English glossary segments, and what it leaves. A Han character
// inside a matched term is covered by a term, one inside a blocker by a
// blocker; any other is uncovered. Runs of uncovered Han characters are
// where the glossary is thin: their most frequent n-grams are the
// candidates for new entries.

// GlossaryReport is the coverage of a set of texts.
type GlossaryReport struct {
	Texts    int // texts read
	HanTexts int // texts with a Han character
	Han      int // Han characters
	Term     int // Han characters inside a term
	Blocker  int // Han characters inside a blocker
	// GapTexts is the texts with an uncovered run of two Han
	// characters or more.
	GapTexts int
	// Gaps are the most frequent uncovered n-grams, most frequent
	// first.
	Gaps []GlossaryGap
}

// GlossaryGap is an uncovered n-gram of 2 to 4 Han characters: how often
// it occurs in the uncovered runs, and in how many texts.
type GlossaryGap struct {
	Text  string
	Count int
	Texts int
}

// Gap n-grams are 2 to 4 Han characters long.
const minGap, maxGap = 2, 4

// GlossaryCoverage measures the glossary on texts and keeps the top most
// frequent uncovered n-grams. An n-gram inside a longer one of the same
// count is left out: 通配 is not listed beside 通配符 when it never
// occurs without it.
func GlossaryCoverage(texts []string, top int) GlossaryReport {
	r := GlossaryReport{Texts: len(texts)}
	count := map[string]int{}
	inTexts := map[string]int{}
	for _, text := range texts {
		var covered []bool // per Han rune, in order: inside a span
		var runes []rune
		spans := lexicon.Segment(text)
		si := 0
		for i, c := range text {
			if !unicode.Is(unicode.Han, c) {
				covered = append(covered, true) // a break in a run
				runes = append(runes, 0)
				continue
			}
			r.Han++
			for si < len(spans) && spans[si].End <= i {
				si++
			}
			in := si < len(spans) && spans[si].Start <= i
			switch {
			case in && spans[si].Blocker():
				r.Blocker++
			case in:
				r.Term++
			}
			covered = append(covered, in)
			runes = append(runes, c)
		}
		if hasHan(text) {
			r.HanTexts++
		}
		seen := map[string]bool{}
		gap := false
		for i := 0; i < len(runes); {
			if covered[i] {
				i++
				continue
			}
			j := i
			for j < len(runes) && !covered[j] {
				j++
			}
			if j-i >= minGap {
				gap = true
			}
			for a := i; a < j; a++ {
				for n := minGap; n <= maxGap && a+n <= j; n++ {
					g := string(runes[a : a+n])
					count[g]++
					if !seen[g] {
						seen[g] = true
						inTexts[g]++
					}
				}
			}
			i = j
		}
		if gap {
			r.GapTexts++
		}
	}
	// The most frequent n-gram one rune longer that holds each n-gram:
	// never more frequent than it, and as frequent when the n-gram never
	// occurs without it.
	outer := map[string]int{}
	for h, n := range count {
		if rs := []rune(h); len(rs) > minGap {
			for _, g := range []string{string(rs[1:]), string(rs[:len(rs)-1])} {
				outer[g] = max(outer[g], n)
			}
		}
	}
	var gaps []GlossaryGap
	for g, n := range count {
		if outer[g] == n {
			continue
		}
		gaps = append(gaps, GlossaryGap{Text: g, Count: n, Texts: inTexts[g]})
	}
	sort.Slice(gaps, func(i, j int) bool {
		a, b := gaps[i], gaps[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if la, lb := utf8.RuneCountInString(a.Text), utf8.RuneCountInString(b.Text); la != lb {
			return la > lb
		}
		return a.Text < b.Text
	})
	if top >= 0 && len(gaps) > top {
		gaps = gaps[:top]
	}
	r.Gaps = gaps
	return r
}

func hasHan(s string) bool {
	return strings.IndexFunc(s, func(c rune) bool { return unicode.Is(unicode.Han, c) }) >= 0
}

// Print writes the report for people.
func (r GlossaryReport) Print(w io.Writer) {
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	fmt.Fprintf(w, "%d texts, %d with Han characters; %d Han characters\n", r.Texts, r.HanTexts, r.Han)
	fmt.Fprintf(w, "covered: %.1f%% (terms %.1f%%, blockers %.1f%%); uncovered %.1f%%\n",
		pct(r.Term+r.Blocker, r.Han), pct(r.Term, r.Han), pct(r.Blocker, r.Han), pct(r.Han-r.Term-r.Blocker, r.Han))
	fmt.Fprintf(w, "texts with an uncovered run of 2+ Han characters: %d of %d (%.1f%%)\n", r.GapTexts, r.HanTexts, pct(r.GapTexts, r.HanTexts))
	if len(r.Gaps) == 0 {
		return
	}
	fmt.Fprintf(w, "\nmost frequent uncovered n-grams:\n%-10s %6s %6s\n", "n-gram", "count", "texts")
	for _, g := range r.Gaps {
		fmt.Fprintf(w, "%s%s %6d %6d\n", g.Text, strings.Repeat(" ", max(0, 10-2*utf8.RuneCountInString(g.Text))), g.Count, g.Texts)
	}
}

// ReadTexts reads texts, one a line. A line starting with '{' is a JSON
// object whose "problem_statement" or "task" field is the text (a
// benchmark's instances); blank lines are skipped.
func ReadTexts(path string) ([]string, error) {
	var out []string
	err := scanLines(path, func(line []byte) error {
		text := string(line)
		if strings.HasPrefix(text, "{") {
			var row struct {
				Problem string `json:"problem_statement"`
				Task    string `json:"task"`
			}
			if err := json.Unmarshal(line, &row); err != nil {
				return err
			}
			if text = row.Problem; text == "" {
				text = row.Task
			}
			if text == "" {
				return errors.New(`no "problem_statement" or "task" field`)
			}
		}
		out = append(out, text)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
