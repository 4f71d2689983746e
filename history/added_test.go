package history

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
)

// Added gives the lines each listed commit wrote in the files it lists,
// and nothing of a file no commit lists, nor of the commits before.
func TestAdded(t *testing.T) {
	r := newRepo(t)
	// A user's diff.noprefix changes nothing.
	r.git("config", "diff.noprefix", "true")
	c1 := r.commit("first line of each", "a.py", "b.py", "x*.py", "xy.py", "sub/d.py", "with space.py", ".env")
	c2 := r.commit("the second commit's line", "a.py", "b.py", "x*.py", "xy.py", "sub/d.py", "with space.py", ".env")
	r.git("checkout", "-q", "-b", "topic")
	r.commit("a line on a branch", "c.py")
	r.git("checkout", "-q", "main")
	r.commit("a line on main", "a.py")
	r.git("merge", "-q", "--no-ff", "-m", "merge the topic", "topic")
	merge := r.git("rev-parse", "HEAD")

	for _, tc := range []struct {
		name string
		past []hone.PastCommit
		want map[string][]string
	}{
		{"the listed files alone", []hone.PastCommit{{Hash: c2, Files: []string{"a.py"}}},
			map[string][]string{"a.py": {"the second commit's line"}}},
		// A pathspec is literal: x*.py is that file, not xy.py too.
		{"a path with a star", []hone.PastCommit{{Hash: c2, Files: []string{"x*.py"}}},
			map[string][]string{"x*.py": {"the second commit's line"}}},
		// A merge is read against its first parent: what the branch
		// brought.
		{"a merge", []hone.PastCommit{{Hash: merge, Files: []string{"c.py"}}},
			map[string][]string{"c.py": {"a line on a branch"}}},
		{"a path with a space", []hone.PastCommit{{Hash: c2, Files: []string{"with space.py"}}},
			map[string][]string{"with space.py": {"the second commit's line"}}},
		// An initial commit writes whole files: it tells nothing.
		{"a commit with no parent", []hone.PastCommit{{Hash: c1, Files: []string{"a.py"}}}, nil},
		// A secret-bearing file is never read.
		{"a secret file", []hone.PastCommit{{Hash: c2, Files: []string{".env", "a.py"}}},
			map[string][]string{"a.py": {"the second commit's line"}}},
		// A commit the repository lacks (pruned, or past a shallow
		// clone) is passed over.
		{"a missing commit", []hone.PastCommit{{Hash: strings.Repeat("ab", 20), Files: []string{"a.py"}}, {Hash: c2, Files: []string{"a.py"}}},
			map[string][]string{"a.py": {"the second commit's line"}}},
		{"no commit", nil, nil},
		{"a commit with no file", []hone.PastCommit{{Hash: c2}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Added(context.Background(), r.dir, "", tc.past)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Added = %q, want %q", got, tc.want)
			}
		})
	}

	// A secret a past commit wrote is redacted, as the file's text is.
	secret := "GITHUB_TOKEN = 'ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36] + "'"
	c3 := r.commit(secret, "settings.py")
	got, err := Added(context.Background(), r.dir, "", []hone.PastCommit{{Hash: c3, Files: []string{"settings.py"}}})
	if err != nil || len(got["settings.py"]) != 1 || strings.Contains(got["settings.py"][0], "ghp_") || !strings.Contains(got["settings.py"][0], "redacted") {
		t.Errorf("a past commit's secret: Added = %q, %v, want it redacted", got, err)
	}
	// hone run on a folder of the repository: the paths are the folder's,
	// as the history's are.
	got, err = Added(context.Background(), filepath.Join(r.dir, "sub"), "", []hone.PastCommit{{Hash: c2, Files: []string{"d.py"}}})
	if want := map[string][]string{"d.py": {"the second commit's line"}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("in a folder: Added = %q, %v, want %q", got, err, want)
	}
	if _, err := Added(context.Background(), r.dir, "", []hone.PastCommit{{Hash: "--output=/tmp/x", Files: []string{"a.py"}}}); err == nil || !strings.Contains(err.Error(), "not a commit hash") {
		t.Errorf("an option for a hash: err %v, want that it is not a commit hash", err)
	}
	if _, err := Added(context.Background(), t.TempDir(), "", []hone.PastCommit{{Hash: c2, Files: []string{"a.py"}}}); err == nil {
		t.Error("no error outside a repository")
	}
}

func TestParseAdded(t *testing.T) {
	diff := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,0 +2 @@\n+new line\n-old line\n" +
		"diff --git a/b.py b/b.py\n+++ b/b.py\n+not wanted\n" +
		"diff --git \"a/q\\tx.py\" \"b/q\\tx.py\"\n+++ \"b/q\\tx.py\"\n+quoted path\n" +
		"diff --git a/a.py b/a.py\n+++ b/a.py\n@@ -5,0 +6,2 @@\n+++ a line that began with two pluses\n+again\n"
	got := parseAdded([]byte(diff), map[string]bool{"a.py": true, "q\tx.py": true})
	want := map[string][]string{"a.py": {"new line", "++ a line that began with two pluses", "again"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseAdded = %q, want %q", got, want)
	}
}

func FuzzParseAdded(f *testing.F) {
	f.Add([]byte("diff --git a/a.py b/a.py\n+++ b/a.py\n@@ -1 +1 @@\n+x\n"))
	f.Add([]byte("+++ b/a.py\n+\n+++ \n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for p, ls := range parseAdded(b, map[string]bool{"a.py": true}) {
			if p != "a.py" || len(ls) > maxAddedLines {
				t.Errorf("parseAdded gave %d lines of %q", len(ls), p)
			}
		}
	})
}

func TestSubcommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--git-dir", "/x/.git", "log", "--stdin"}, "log"},
		{[]string{"--literal-pathspecs", "show", "-U0"}, "show"},
		{[]string{"-C", "dir", "-c", "a=b", "rev-parse"}, "rev-parse"},
		{[]string{"--version"}, "(no command)"},
	} {
		if got := subcommand(tc.args); got != tc.want {
			t.Errorf("subcommand(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
