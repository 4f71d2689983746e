package history

import (
	"regexp"
	"strings"
)

// A task that names a commit, "broken since d6aff369ad3", or an issue or
// pull request, "a regression of #32554", points at what that commit
// changed: for a regression, the code that broke.
var (
	// hexWord is a commit hash as git abbreviates it, seven digits or more.
	hexWord = regexp.MustCompile(`(?i)(?:^|[^0-9a-z_./-]|/commit/)([0-9a-f]{7,40})(?:$|[^0-9a-z_-])`)
	// numberRef is an issue or pull-request number: #1234, ticket 1234,
	// ticket:1234, issue 1234, PR 1234, or a URL's /issues/1234, /pull/1234.
	numberRef = regexp.MustCompile(`(?i)(?:(?:^|[^\w&#])#|\b(?:ticket|issue|pr|bug)[ :#]*|/(?:issues|pull|ticket)/)([0-9]{2,7})\b`)
)

// namedPerNumber is how many commits one issue number names at most: the
// newest that cite it. maxRefs is how many hashes, and how many numbers,
// a task is read for: a pasted log can hold thousands of hex words.
const (
	namedPerNumber = 5
	maxRefs        = 20
)

// Named finds the commits of the history the task names, in the order it
// names them: by hash (a prefix of seven digits or more that only one
// commit has, with a digit and a letter, so that no word is taken for
// one), and by the issue or pull-request numbers their subjects cite ("Fixed
// #1234 --", "Fix the parser (#1234)"). Only commits that changed files
// count. Each is a Match with score 1: a commit the task names is the past
// commit most like it.
func (l *Log) Named(task string) []Match {
	if l == nil || len(l.Commits) == 0 {
		return nil
	}
	var out []Match
	seen := map[*Commit]bool{}
	add := func(c *Commit) {
		if c != nil && !seen[c] && len(c.Files) > 0 {
			seen[c] = true
			out = append(out, Match{Commit: c, Score: 1})
		}
	}
	for _, m := range hexWord.FindAllStringSubmatch(task, maxRefs) {
		h := strings.ToLower(m[1])
		if !strings.ContainsAny(h, "0123456789") || !strings.ContainsAny(h, "abcdef") {
			continue
		}
		add(l.byPrefix(h))
	}
	numbers := map[string]bool{}
	for _, m := range numberRef.FindAllStringSubmatch(task, maxRefs) {
		n := strings.TrimLeft(m[1], "0")
		if n == "" || numbers[n] {
			continue
		}
		numbers[n] = true
		cite := regexp.MustCompile(`#0*` + n + `\b`)
		found := 0
		for _, c := range l.Commits {
			if found == namedPerNumber {
				break
			}
			if len(c.Files) > 0 && cite.MatchString(c.Subject) {
				add(c)
				found++
			}
		}
	}
	return out
}

// byPrefix is the only commit whose hash begins with prefix, or nil.
func (l *Log) byPrefix(prefix string) *Commit {
	var found *Commit
	for _, c := range l.Commits {
		if strings.HasPrefix(c.Hash, prefix) {
			if found != nil {
				return nil // ambiguous
			}
			found = c
		}
	}
	return found
}
