package history

import (
	"regexp"
	"strings"

	"github.com/hone-tools/hone/internal/lazyre"
)

// A task that names a commit, "broken since 3f1a2b4c5d6", or an issue or
// pull request, "a regression of #47316", points at what that commit
// changed: for a regression, the code that broke.
var (
	// numberRef is an issue or pull-request number: #1234, ticket 1234,
	// ticket:1234, issue 1234, PR 1234, or a URL's /issues/1234, /pull/1234.
	numberRef = lazyre.New(`(?i)(?:(?:^|[^\w&#])#|\b(?:ticket|issue|pr|bug)[ :#]*|/(?:issues|pull|ticket)/)([0-9]{2,7})\b`)
)

// namedPerNumber is how many commits one issue number names at most: the
// newest that cite it. maxRefs is how many hashes, and how many numbers,
// a task is read for: a pasted log can hold thousands of hex words.
// branchCommits is how many commits a merged branch holds at most for its
// files to count: past it, the walk has likely left the branch.
const (
	namedPerNumber = 5
	maxRefs        = 20
	branchCommits  = 50
)

// Named finds the commits of the history the task names, in the order it
// names them: by hash (a prefix of seven digits or more that only one
// commit has, with a digit and a letter, so that no word is taken for
// one), and by the issue or pull-request numbers their subjects cite ("Fixed
// #1234 --", "Fix the parser (#1234)"). Only commits that changed files
// count, and a merge counts with the files its branch changed ("Merge
// pull request #1234 from ..."). Each is a Match with score 1: a commit the
// task names is the past commit most like it.
func (l *Log) Named(task string) []Match {
	if l == nil || len(l.Commits) == 0 {
		return nil
	}
	var out []Match
	seen := map[*Commit]bool{}
	var merges *mergeReader
	add := func(c *Commit) {
		if c == nil || seen[c] {
			return
		}
		seen[c] = true
		if len(c.Files) == 0 && len(c.parents) >= 2 {
			// A merge: what its branch changed.
			if merges == nil {
				merges = newMergeReader(l)
			}
			c = merges.branch(c)
		}
		if c != nil && len(c.Files) > 0 {
			out = append(out, Match{Commit: c, Score: 1, Named: true})
		}
	}
	for _, h := range hexWords(task) {
		add(l.byPrefix(h))
	}
	numbers := map[string]bool{}
	for _, m := range numberRef().FindAllStringSubmatch(task, maxRefs) {
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
			if (len(c.Files) > 0 || len(c.parents) >= 2) && strings.Contains(c.Subject, "#") && cite.MatchString(c.Subject) {
				add(c)
				found++
			}
		}
	}
	return out
}

// hexWords are the task's words that may be commit hashes as git
// abbreviates them: seven to forty hex digits, with a digit and a letter,
// lower-cased; maxRefs at most. Words are cut at anything but letters and
// digits, so a hash in a URL (/commit/5e0c7a9) counts.
func hexWords(task string) []string {
	var out []string
	words := strings.FieldsFunc(task, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	})
	for _, w := range words {
		if len(out) == maxRefs {
			break
		}
		if len(w) < 7 || len(w) > 40 {
			continue
		}
		w = strings.ToLower(w)
		if strings.Trim(w, "0123456789abcdef") == "" && strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdef") {
			out = append(out, w)
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

// mergeReader finds what a merge brought in: the commits of its merged
// branch, those on the first-parent line of its second parent down to the
// line it was merged into.
type mergeReader struct {
	byHash map[string]*Commit
}

func newMergeReader(l *Log) *mergeReader {
	m := &mergeReader{byHash: make(map[string]*Commit, len(l.Commits))}
	for _, c := range l.Commits {
		m.byHash[c.Hash] = c
	}
	return m
}

// branch is the merge with the files its branch changed, in the order the
// branch's commits changed them, newest first; nil when the branch is not
// found, or is longer than branchCommits.
func (m *mergeReader) branch(merge *Commit) *Commit {
	// The line merged into: the first-parent line of the merge's first
	// parent.
	line := map[string]bool{}
	for c := m.byHash[merge.parents[0]]; c != nil && !line[c.Hash]; {
		line[c.Hash] = true
		if len(c.parents) == 0 {
			break
		}
		c = m.byHash[c.parents[0]]
	}
	var files []string
	have := map[string]bool{}
	// Each branch merged: one, or several in an octopus merge.
	n := 0
	for _, p := range merge.parents[1:] {
		c := m.byHash[p]
		for ; c != nil && !line[c.Hash]; n++ {
			if n == branchCommits {
				return nil
			}
			for _, f := range c.Files {
				if !have[f] {
					have[f] = true
					files = append(files, f)
				}
			}
			if len(c.parents) == 0 {
				break
			}
			c = m.byHash[c.parents[0]]
		}
	}
	if len(files) == 0 {
		return nil
	}
	return &Commit{Hash: merge.Hash, Subject: merge.Subject, Files: files, parents: merge.parents,
		terms: merge.terms, packed: merge.packed}
}
