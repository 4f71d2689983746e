package history

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/hone-tools/hone"
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
// diffs, with no context. A pack weighs the code that changed for past
// tasks like the one at hand by them (pack.Options.PastLines). Commits
// past the first ten, files past the first forty, and a file's lines past
// its first 2,000 are left out; a commit that is not a hash is an error.
func Added(ctx context.Context, root, gitDir string, past []hone.PastCommit) (map[string][]string, error) {
	var commits, paths []string
	want := map[string]bool{}
	for _, c := range past[:min(len(past), maxAddedCommits)] {
		if !isHash(c.Hash) {
			return nil, fmt.Errorf("read past commits' changes: %q is not a commit hash", c.Hash)
		}
		commits = append(commits, c.Hash)
		for _, f := range c.Files {
			if !want[f] && len(paths) < maxAddedPaths {
				want[f] = true
				paths = append(paths, f)
			}
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	// Pathspecs are literal: a path's * or ? is its own.
	args := append([]string{"--literal-pathspecs", "show", "--no-color", "--no-ext-diff", "--no-renames", "--diff-merges=first-parent", "-U0", "--format=", "--diff-filter=AM"}, commits...)
	args = append(args, "--")
	args = append(args, paths...)
	out, err := git(ctx, root, gitDir, nil, args...)
	if err != nil {
		return nil, fmt.Errorf("read past commits' changes: %w", err)
	}
	return parseAdded(out, want), nil
}

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
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, header = "", true
		case header && strings.HasPrefix(line, "@@"):
			header = false
		case header && strings.HasPrefix(line, "+++ "):
			// A quoted path (one with unusual bytes) is left out.
			if p, ok := strings.CutPrefix(line, "+++ b/"); ok && want[p] {
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
