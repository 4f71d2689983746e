package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"

	"github.com/hone-tools/hone/tokenize"
)

// A set of tasks in users' words must not name the code it is about: a
// task word of four or more letters that is a part of an identifier on
// the lines its commit changed makes the task one grep can answer.
// Common English words are allowed: code says "time" and "error" too.

// WordCheck is what the check found in one instance.
type WordCheck struct {
	ID string `json:"instance_id"`
	// Named are the task's words that are identifier parts on the
	// changed lines, and not common English.
	Named []string `json:"named,omitempty"`
	Error string   `json:"error,omitempty"`
}

// MinCheckedWord is the shortest task word the check reads.
const MinCheckedWord = 4

// CheckWords checks each instance: its commit's diff of its gold files
// against the task's words. An instance without a commit is an error of
// its own, not the run's.
func CheckWords(ctx context.Context, instances []Instance, repos Repos, common map[string]bool) []WordCheck {
	out := make([]WordCheck, 0, len(instances))
	for _, in := range instances {
		c := WordCheck{ID: in.ID}
		parts, err := changedIdentifierParts(ctx, in, repos)
		if err != nil {
			c.Error = err.Error()
		} else {
			c.Named = namedWords(in.Problem, parts, common)
		}
		out = append(out, c)
	}
	return out
}

// namedWords are the task's words, lower-cased, that are identifier parts
// and not common English: a word is common when it, or a word of the same
// stem, is in the list ("exits" as "exit").
func namedWords(task string, parts map[string]bool, common map[string]bool) []string {
	commonStems := map[string]bool{}
	for w := range common {
		commonStems[tokenize.Stem(w)] = true
	}
	var out []string
	tokenize.Each(task, func(t tokenize.Token) {
		w := strings.ToLower(t.Text)
		if t.Whole || len(w) < MinCheckedWord || common[w] || commonStems[t.Stem] || !(parts[w] || parts["\x00"+t.Stem]) || slices.Contains(out, w) {
			return
		}
		out = append(out, w)
	})
	sort.Strings(out)
	return out
}

// changedIdentifierParts are the parts, lower-cased, of the identifiers
// on the lines the instance's commit added or removed in its gold files
// (fooBar and foo_bar give foo, bar and the whole), and their stems,
// marked with a leading NUL.
func changedIdentifierParts(ctx context.Context, in Instance, repos Repos) (map[string]bool, error) {
	if in.Commit == "" || in.BaseCommit == "" {
		return nil, fmt.Errorf("%s: no commit and base commit to read the change from", in.ID)
	}
	gitDir, err := repos.GitDir(in.Repo)
	if err != nil {
		return nil, err
	}
	diff, err := gitOutput(ctx, gitDir, append([]string{"diff", "--no-color", "--unified=0", in.BaseCommit, in.Commit, "--"}, in.Gold...)...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.ID, err)
	}
	parts := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "+++") || strings.HasPrefix(line, "---") || !(strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-")) {
			continue
		}
		tokenize.Each(line[1:], func(t tokenize.Token) {
			parts[strings.ToLower(t.Text)] = true
			parts["\x00"+t.Stem] = true // "throttling" names "throttle" too
		})
	}
	return parts, sc.Err()
}

// ReadWordList reads a list of words, one a line; # starts a comment.
func ReadWordList(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if w := strings.TrimSpace(line); w != "" && !strings.HasPrefix(w, "#") {
			out[strings.ToLower(w)] = true
		}
	}
	return out, nil
}

// gitOutput runs git on a git directory and returns what it printed; an
// error carries git's own complaint.
func gitOutput(ctx context.Context, gitDir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotePath=false", "--git-dir", gitDir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
