package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/walk"
)

// MineOptions says which commits of a repository's history become
// benchmark instances.
type MineOptions struct {
	GitDir string // the repository's git directory
	Repo   string // the instances' repo name
	Rev    string // the newest commit to read (default HEAD)
	// N is how many instances to keep at most, drawn at random (by Seed)
	// from every commit that qualifies.
	N    int
	Seed uint64
	// Scan is how many commits to read, newest first (default 20,000).
	Scan int
	// MaxGold is the most files a fix may change (default 3): more is a
	// refactoring, not a place to find.
	MaxGold int
	// MinChars is the shortest message worth a task (default 80).
	MinChars int
	// Subject, when set, is what a commit's subject must match: fixes
	// alone, say.
	Subject *regexp.Regexp
	// KeepScope keeps a subject's "scope: " prefix, which names the
	// package the fix lies in, and so gives away much of the answer.
	KeepScope bool
}

// MineStats counts what Mine read and why it passed commits over.
type MineStats struct {
	Commits   int // read
	Qualified int // that could be instances
	Kept      int
	NoCode    int // changed no code file outside tests, docs, vendored and generated code
	NewFiles  int // added, deleted or renamed such a file: the fix's place did not exist before it
	TooBig    int // changed more than MaxGold code files
	Short     int // message under MinChars once trimmed
	Revert    int // reverts
	Subject   int // whose subject did not match
}

// Mine makes benchmark instances out of a repository's history: each is a
// commit that changed a few existing code files, with its message as the
// task, its parent as the base commit, and the code files it changed
// (tests, docs, examples, vendored and generated code left out) as the gold.
//
// A commit message is not an issue: it describes the fix rather than the
// symptom, often in a line or two, so figures on mined instances do not
// compare with figures on reported issues. They compare rankers on the
// same code, and show how a change to ranking does on a repository of
// one's own.
func Mine(ctx context.Context, opt MineOptions) ([]Instance, MineStats, error) {
	var st MineStats
	if opt.Rev == "" {
		opt.Rev = "HEAD"
	}
	if opt.Scan <= 0 {
		opt.Scan = 20000
	}
	if opt.MaxGold <= 0 {
		opt.MaxGold = 3
	}
	if opt.MinChars <= 0 {
		opt.MinChars = 80
	}
	if opt.Repo == "" {
		return nil, st, fmt.Errorf("mine: no repository name")
	}
	// Paths as they are (no octal escapes for non-ASCII names).
	history, err := gitOutput(ctx, opt.GitDir, "log", "--no-merges", "--no-renames",
		"-n", strconv.Itoa(opt.Scan), "--format=%x00%H%x01%P%x01%ct%x01%B%x02", "--name-status", opt.Rev, "--")
	if err != nil {
		return nil, st, fmt.Errorf("read the history of %s: %w", opt.GitDir, err)
	}
	type found struct {
		in   Instance
		time int64
	}
	var all []found
	for _, rec := range strings.Split(string(history), "\x00") {
		head, files, ok := strings.Cut(rec, "\x02")
		if !ok {
			continue
		}
		f := strings.SplitN(head, "\x01", 4)
		if len(f) != 4 {
			continue
		}
		st.Commits++
		hash, parents, msg := f[0], strings.Fields(f[1]), f[3]
		when, _ := strconv.ParseInt(f[2], 10, 64)
		if len(parents) != 1 {
			continue // a root commit has nothing to fix
		}
		gold := mineGold(files, opt.MaxGold, &st)
		if gold == nil {
			continue
		}
		if strings.HasPrefix(msg, "Revert ") {
			st.Revert++
			continue
		}
		// A commit message may hold a token or a password: the task is
		// written as every output is, redacted.
		task, _ := redact.String(mineTask(msg, opt.KeepScope))
		if len([]rune(task)) < opt.MinChars {
			st.Short++
			continue
		}
		if subject, _, _ := strings.Cut(msg, "\n"); opt.Subject != nil && !opt.Subject.MatchString(subject) {
			st.Subject++
			continue
		}
		st.Qualified++
		all = append(all, found{in: Instance{
			ID:         path.Base(opt.Repo) + "-" + hash[:min(len(hash), 10)],
			Repo:       opt.Repo,
			BaseCommit: parents[0],
			Problem:    task,
			Gold:       gold,
		}, time: when})
	}
	r := rand.New(rand.NewPCG(opt.Seed, 0x686f6e65))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if opt.N > 0 && len(all) > opt.N {
		all = all[:opt.N]
	}
	// Oldest first: a run then moves its checkout forward through time.
	sort.SliceStable(all, func(i, j int) bool { return all[i].time < all[j].time })
	out := make([]Instance, len(all))
	for i, f := range all {
		out[i] = f.in
	}
	st.Kept = len(out)
	return out, st, nil
}

// mineGold reads a commit's --name-status lines: the code files it
// modified, or nil, with the reason counted in st.
func mineGold(files string, maxGold int, st *MineStats) []string {
	var gold []string
	for _, line := range strings.Split(files, "\n") {
		status, p, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if !ok || status == "" {
			continue
		}
		if !structure.IsCode(structure.Language(p)) ||
			walk.Classify(p, nil)&(walk.Test|walk.Vendor|walk.Generated|walk.Docs|walk.Example) != 0 {
			continue
		}
		if status != "M" {
			st.NewFiles++
			return nil
		}
		gold = append(gold, p)
	}
	switch {
	case len(gold) == 0:
		st.NoCode++
		return nil
	case len(gold) > maxGold:
		st.TooBig++
		return nil
	}
	sort.Strings(gold)
	return gold
}

// conventionalScope is a Conventional Commits type and scope: "fix(parser)".
const conventionalScope = `\w+\([\w.*{}/, -]+\)`

var (
	// A trailer line: Signed-off-by: ..., Change-Id: ...
	trailer = lazyre.New(`(?i)^(?:signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|cc|change-id|reviewed-on|pr-url|git-svn-id):`)
	// A line that only points elsewhere: "Fixes #123", "Closes: https://...".
	refLine = lazyre.New(`(?i)^(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see(?: also)?|related(?: to)?|part of|follow-?up (?:to|of))\b[: ]*(?:(?:[\w.-]+/[\w.-]+)?#\d+|https?://\S+|[0-9a-f]{7,40})[\s,.]*$`)
	// A pull request's number at a subject's end: "(#1234)".
	prNumber = lazyre.New(`\s*\(#\d+\)`)
	// A subject's scope: "promql: ", "net/http: ", "fix(parser): ".
	scope = lazyre.New(`^(?:[\w.*{}/-]+(?:, ?[\w.*{}/-]+)*|` + conventionalScope + `)!?: +`)
	// The scope of a squashed commit's subject, in the body's list of
	// them: "* fix(yaml): ". Only the type(scope) form, which prose does
	// not take.
	bulletScope = lazyre.New(`^(\s*[*-]\s+)` + conventionalScope + `!?: +`)
)

// mineTask turns a commit message into a task: trailers, bare references
// and pull request numbers out, and, unless keepScope, the subject's scope
// and those of the squashed commits the body lists.
func mineTask(msg string, keepScope bool) string {
	var lines []string
	for i, line := range strings.Split(strings.TrimSpace(msg), "\n") {
		t := strings.TrimSpace(line)
		if trailer().MatchString(t) || refLine().MatchString(t) {
			continue
		}
		line = prNumber().ReplaceAllString(line, "")
		if !keepScope {
			if i == 0 {
				line = scope().ReplaceAllString(line, "")
			}
			line = bulletScope().ReplaceAllString(line, "$1")
		}
		lines = append(lines, strings.TrimRight(line, " \t\r"))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
