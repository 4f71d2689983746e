package retrieve

import (
	"regexp"
	"strings"

	"github.com/hone-tools/hone/index"
)

// Keys a task names that code declares as string literals: command-line
// flags (--collect-only), configuration and rule names in kebab case
// (ignore-paths, too-many-locals), and check and message codes
// (admin.E108, W0511, E501, TS2322). A file that holds one in quotes
// declares it: the option's parser, the rule's checker, the check's
// definition.
var (
	flagKey   = regexp.MustCompile(`^--[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)
	kebabKey  = regexp.MustCompile(`^[a-z][a-z0-9]*(?:-[a-z0-9]+){1,5}$`)
	dottedKey = regexp.MustCompile(`^[a-z_]+\.[A-Z]\d{3}$`)
	codeKey   = regexp.MustCompile(`^[A-Z]{1,4}\d{3,5}$`)
)

// maxKeys is how many keys a task is read for.
const maxKeys = 12

// declaredKeys are the keys the task names, each once, in order. The task
// is cut into words of letters, digits and the characters of paths and
// names; a word that is a path, a URL or a dotted name as a whole is no
// key.
func declaredKeys(task string) []string {
	var out []string
	seen := map[string]bool{}
	quoted := map[string]bool{}
	for _, m := range quotedSpan.FindAllStringSubmatch(task, -1) {
		for _, w := range keyWords(m[1] + m[2] + m[3]) {
			quoted[strings.TrimRight(w, ".-")] = true
		}
	}
	words := keyWords(task)
	for _, w := range words {
		if len(out) == maxKeys {
			break
		}
		w = strings.TrimRight(w, ".-")
		key := ""
		switch {
		case flagKey.MatchString(w), dottedKey.MatchString(w), codeKey.MatchString(w):
			key = w
		case len(w) >= 6 && kebabKey.MatchString(w) && (strings.Count(w, "-") >= 2 || quoted[w]):
			// Prose hyphenates words too (built-in, re-save): a key
			// of two parts counts only quoted, as code.
			key = w
		}
		if key != "" && !seen[key] {
			seen[key] = true
			out = append(out, key)
		}
	}
	return out
}

// quotedSpan is a stretch of one line in backticks or quotes.
var quotedSpan = regexp.MustCompile("`([^`\n]{1,100})`|\"([^\"\n]{1,100})\"|'([^'\n]{1,100})'")

// keyWords cuts text into words of letters, digits and the characters of
// paths and names.
func keyWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./\\", r))
	})
}

// declaredBy is what of the task's keys the file declares: read once a
// run, for the signal and for the reason.
func (rk *ranker) declaredBy(d *index.Doc) []string {
	if found, ok := rk.declaredIn[d.Path]; ok {
		return found
	}
	if rk.declaredIn == nil {
		rk.declaredIn = map[string][]string{}
	}
	found := declared(rk.src.callsOf(d).lines, rk.tp.evidence.keys)
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
		if holdsQuoted(lines, forms, codeKey.MatchString(k)) {
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
