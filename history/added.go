package history

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/walk"
)

// Bounds on what Added reads: the commits, the files, and the lines kept
// of each file.
const (
	maxAddedCommits = 10
	maxAddedPaths   = 40
	maxAddedLines   = 2000
)

// Added returns, for each file that the past commits changed (as their
// Files list them), the lines they wrote in it: the new side of their
// diffs against their first parents, with no context, redacted as the
// file would be. A pack weighs the code that changed for past tasks like
// the one at hand by them (pack.Options.PastLines); nothing of them is
// printed. Commits past the first ten, files past the first forty, a
// file's lines past its first 2,000, secret-bearing files, commits with no
// parent (an initial import, a shallow clone's boundary) and commits the
// repository lacks are left out; a commit that is not a hash is an error.
// git gets addedTimeout at most, and never asks for a password or fetches
// what a partial clone lacks.
func Added(ctx context.Context, root, gitDir string, past []hone.PastCommit) (map[string][]string, error) {
	var commits, paths []string
	want := map[string]bool{}
	for _, c := range past[:min(len(past), maxAddedCommits)] {
		if !isHash(c.Hash) {
			return nil, fmt.Errorf("read past commits' changes: %q is not a commit hash", c.Hash)
		}
		commits = append(commits, c.Hash)
		for _, f := range c.Files {
			if !want[f] && len(paths) < maxAddedPaths && walk.Classify(f, nil)&walk.Secret == 0 {
				want[f] = true
				paths = append(paths, f)
			}
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, addedTimeout)
	defer cancel()
	// Pathspecs are literal: a path's * or ? is its own. The prefixes are
	// set, whatever the user's diff.noprefix; a root below the top of the
	// repository gets paths relative to it, as the history's are.
	args := []string{"--literal-pathspecs", "show", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames",
		"-m", "--first-parent", "--min-parents=1", "--ignore-missing", "--src-prefix=a/", "--dst-prefix=b/",
		"-U0", "--format=", "--diff-filter=AM"}
	if root != "" {
		args = append(args, "--relative")
	}
	args = append(args, commits...)
	args = append(args, "--")
	args = append(args, paths...)
	out, err := gitEnv(ctx, root, gitDir, []string{"GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1"}, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("read past commits' changes: %w", err)
	}
	m := parseAdded(out, want)
	for p, lines := range m {
		text, _ := redact.File(p, strings.Join(lines, "\n"))
		m[p] = strings.Split(text, "\n")
	}
	return m, nil
}

// addedTimeout bounds Added's git.
const addedTimeout = 5 * time.Second

// parseAdded reads the added lines of a diff, by the path of the file
// they are in; only the files in want are kept.
func parseAdded(diff []byte, want map[string]bool) map[string][]string {
	out := map[string][]string{}
	cur := ""
	// A file's header runs from its "diff --git" to its first hunk: a
	// "+++ " there names the file, one in a hunk is a line that began
	// with "++".
	header := false
	sc := bufio.NewScanner(bytes.NewReader(diff))
	// A line over 1 MiB ends the reading: what came before it is kept.
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, header = "", true
		case header && strings.HasPrefix(line, "@@"):
			header = false
		case header && strings.HasPrefix(line, "+++ "):
			// A quoted path (one with a control character, a quote or a
			// backslash) is left out; one with a space ends with a tab.
			if p, ok := strings.CutPrefix(strings.TrimSuffix(line, "\t"), "+++ b/"); ok && want[p] {
				cur = p
			}
		case !header && cur != "" && strings.HasPrefix(line, "+"):
			if len(out[cur]) < maxAddedLines {
				out[cur] = append(out[cur], line[1:])
			}
		}
	}
	return out
}

func isHash(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}
