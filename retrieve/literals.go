package retrieve

import (
	"strings"

	"github.com/hone-tools/hone/index"
)

// A file declares a key the task names (see declaredKeys) when it holds
// it as a string literal: the option's parser, the rule's checker, the
// check's definition.

// declaredBy is what of the task's keys the file declares: read once a
// run, for the signal and for the reason.
func (rk *ranker) declaredBy(d *index.Doc) []string {
	if found, ok := rk.declaredIn[d.Path]; ok {
		return found
	}
	if rk.declaredIn == nil {
		rk.declaredIn = map[string][]string{}
	}
	found := declared(rk.src.callsOf(d).text.lines, rk.tp.evidence.keys)
	rk.declaredIn[d.Path] = found
	return found
}

// declared are the keys the lines hold as a string literal, in order: in
// quotes, and for a flag, with its dashes or without ("--notes" or
// "notes", as option parsers take either). A code may stand namespaced:
// "E108" is declared by "admin.E108".
func declared(lines []string, keys []string) []string {
	var out []string
	for _, k := range keys {
		forms := []string{k}
		if bare, ok := strings.CutPrefix(k, "--"); ok {
			forms = append(forms, bare)
		}
		if holdsQuoted(lines, forms, codeKey().MatchString(k)) {
			out = append(out, k)
		}
	}
	return out
}

// holdsQuoted reports whether a line holds one of the forms as a whole
// string literal, or, with namespaced, as the last part of a dotted one.
func holdsQuoted(lines []string, forms []string, namespaced bool) bool {
	isQuote := func(c byte) bool { return c == '"' || c == '\'' || c == '`' }
	for _, l := range lines {
		for _, f := range forms {
			for i := strings.Index(l, f); i >= 0; {
				end := i + len(f)
				if i > 0 && end < len(l) && isQuote(l[end]) && (l[i-1] == l[end] || namespaced && l[i-1] == '.' && dottedIn(l[:i-1], l[end])) {
					return true
				}
				j := strings.Index(l[i+1:], f)
				if j < 0 {
					break
				}
				i += 1 + j
			}
		}
	}
	return false
}

// dottedIn reports whether before ends in an opening quote q and a dotted
// name's head: the "admin" of "admin.E108".
func dottedIn(before string, q byte) bool {
	j := len(before)
	for j > 0 && (before[j-1] == '_' || before[j-1] == '.' || before[j-1] >= 'a' && before[j-1] <= 'z' || before[j-1] >= 'A' && before[j-1] <= 'Z' || before[j-1] >= '0' && before[j-1] <= '9') {
		j--
	}
	return j < len(before) && j > 0 && before[j-1] == q
}
