package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/hone-tools/hone/internal/lazyre"
	"github.com/hone-tools/hone/walk"
)

// hunkHeader is a unified diff's hunk header: its pre-image start and
// length (1 when left out).
var hunkHeader = lazyre.New(`^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@`)

// ParseHunks reads a unified diff (git diff -U3) and returns its hunks'
// pre-image line ranges, as the sets' gold_hunks give them: 1-based and
// inclusive; a hunk that only adds lines is the line it follows; a file
// the diff creates gives one hunk at 0.
func ParseHunks(diff []byte) []Hunk {
	var out []Hunk
	path, created := "", false
	sc := bufio.NewScanner(bytes.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			path, created = "", false
			if _, b, ok := strings.Cut(line, " b/"); ok {
				path = b
			}
		case strings.HasPrefix(line, "new file mode"):
			created = true
		case strings.HasPrefix(line, "+++ "):
			if p, ok := plusPath(line[len("+++ "):]); ok {
				path = p
			}
		case strings.HasPrefix(line, "@@ "):
			m := hunkHeader().FindStringSubmatch(line)
			if m == nil || path == "" {
				continue
			}
			if created {
				out = append(out, Hunk{Path: path})
				created = false // one hunk for a created file
				continue
			}
			start, _ := strconv.Atoi(m[1])
			n := 1
			if m[2] != "" {
				n, _ = strconv.Atoi(m[2])
			}
			out = append(out, Hunk{Path: path, Start: max(start, 1), End: max(start, 1) + max(n, 1) - 1})
		}
	}
	return out
}

// plusPath is the path of a diff's "+++ " line: b/ and the path, which
// git follows with a tab when it holds a space, and writes quoted, with
// C escapes, when it holds a quote or a byte past ASCII. /dev/null, a
// deleted file's, is none.
func plusPath(s string) (string, bool) {
	s = strings.TrimSuffix(s, "\t")
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", false
		}
		s = u
	}
	return strings.CutPrefix(s, "b/")
}

// AddHunks writes the instances of in to out, each given the gold_hunks
// of its change, from its repository's history: the diff from base_commit
// to commit, over its gold files. A line that has gold_hunks already is
// kept as it is.
func AddHunks(ctx context.Context, in io.Reader, out io.Writer, repos Repos) (added int, err error) {
	err = eachInstance(in, func(n int, line []byte) error {
		var r struct {
			Repo   string          `json:"repo"`
			Base   string          `json:"base_commit"`
			Commit string          `json:"commit"`
			Gold   []string        `json:"gold_files"`
			Hunks  json.RawMessage `json:"gold_hunks"`
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if r.Hunks == nil {
			if r.Commit == "" || r.Base == "" {
				return fmt.Errorf("line %d: no commit and base_commit to take the hunks from", n)
			}
			gd, err := repos.GitDir(r.Repo)
			if err != nil {
				return fmt.Errorf("line %d: %w", n, err)
			}
			args := append([]string{"--git-dir", gd, "diff", "-U3", "--no-color", "--no-ext-diff", "--no-renames", r.Base, r.Commit, "--"}, r.Gold...)
			diff, err := exec.CommandContext(ctx, "git", args...).Output()
			if err != nil {
				return fmt.Errorf("line %d: git diff %s %s: %w", n, r.Base, r.Commit, err)
			}
			hunks := ParseHunks(diff)
			if hunks == nil {
				hunks = []Hunk{}
			}
			b, err := json.Marshal(hunks)
			if err != nil {
				return err
			}
			line = append(append(bytes.Clone(bytes.TrimSuffix(line, []byte("}"))), []byte(`, "gold_hunks": `)...), append(b, '}')...)
			added++
		}
		_, err := out.Write(append(line, '\n'))
		return err
	})
	return added, err
}

// WholeChange writes the instances of in to out, each with gold_files made
// the whole of its change: every file the diff from base_commit to commit
// changes in place (none it adds, deletes or renames), in git's order,
// tests aside, as Multi-SWE-bench's gold is every file a fix changed but
// its tests. The instance's gold_hunks are dropped, for AddHunks to give
// anew; its other fields are kept.
func WholeChange(ctx context.Context, in io.Reader, out io.Writer, repos Repos) (changed int, err error) {
	err = eachInstance(in, func(n int, line []byte) error {
		var fields map[string]json.RawMessage
		var r struct {
			Repo   string   `json:"repo"`
			Base   string   `json:"base_commit"`
			Commit string   `json:"commit"`
			Gold   []string `json:"gold_files"`
		}
		if err := json.Unmarshal(line, &fields); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if r.Commit == "" || r.Base == "" {
			return fmt.Errorf("line %d: no commit and base_commit to take the change from", n)
		}
		gd, err := repos.GitDir(r.Repo)
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		names, err := exec.CommandContext(ctx, "git", "--git-dir", gd, "-c", "core.quotePath=false",
			"diff", "--name-status", "--no-renames", "--no-color", r.Base, r.Commit).Output()
		if err != nil {
			return fmt.Errorf("line %d: git diff %s %s: %w", n, r.Base, r.Commit, err)
		}
		gold := wholeGold(names)
		if !slices.Equal(gold, r.Gold) {
			changed++
		}
		b, err := json.Marshal(gold)
		if err != nil {
			return err
		}
		fields["gold_files"] = b
		delete(fields, "gold_hunks")
		b, err = json.Marshal(fields)
		if err != nil {
			return err
		}
		_, err = out.Write(append(b, '\n'))
		return err
	})
	return changed, err
}

// eachInstance calls f with each non-blank line of a JSON-lines set,
// trimmed, and its number, until f fails.
func eachInstance(in io.Reader, f func(n int, line []byte) error) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for n := 1; sc.Scan(); n++ {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			if err := f(n, line); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// wholeGold reads git diff --name-status: the paths changed in place (M),
// tests aside.
func wholeGold(nameStatus []byte) []string {
	gold := []string{}
	for _, l := range strings.Split(string(nameStatus), "\n") {
		status, p, ok := strings.Cut(l, "\t")
		if !ok || status != "M" || walk.Classify(p, nil).Has(walk.Test) {
			continue
		}
		gold = append(gold, p)
	}
	return gold
}
