package lexicon

import "sort"

// Terms lists every term and phrase of the synonym table, sorted, so that a
// caller can index the table by its own normal form (a stem, say).
func Terms() []string {
	t := tables()
	out := make([]string, 0, len(t.synonyms))
	for k := range t.synonyms {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
