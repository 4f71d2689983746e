package history

import (
	"slices"
	"testing"
)

func namedLog() *Log {
	return &Log{Commits: []*Commit{
		{Hash: "5e0c7a91b2d4f6e8a0c2e4f6a8b0c2d4e6f8a0b2", Subject: "Fixed #28917 -- Dropped the If-Modified-Since parser's tolerance", Files: []string{"shop/views/static.py", "shop/utils/http.py"}},
		{Hash: "3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c", Subject: "Refs #47316 -- Made Filter objects deconstruct their children", Files: []string{"shop/db/models/query_utils.py"}},
		{Hash: "3f1a2b4c99999999999999999999999999999999", Subject: "Merge branch 'main'"},
		{Hash: "3f1a2b4d00000000000000000000000000000000", Subject: "Fixed #47316 -- Allowed pickling Filter objects", Files: []string{"shop/db/models/query_utils.py", "tests/filter_pickle/tests.py"}},
		{Hash: "aa11bb22cc33dd44ee55ff6677889900aabbccdd", Subject: "Fix the parser for empty headers (#812)", Files: []string{"src/parser.py"}},
		{Hash: "deadbee0000000000000000000000000000000aa", Subject: "Mentions #4731 only", Files: []string{"src/other.py"}},
	}}
}

func TestNamed(t *testing.T) {
	l := namedLog()
	for _, tc := range []struct {
		name, task string
		want       []string // subjects' first words, in order: hash prefixes
	}{
		{"a short hash", "It raises an exception since 5e0c7a91b2d.", []string{"5e0c7a91"}},
		{"a full hash in a commit URL", "Broken by https://github.com/o/r/commit/aa11bb22cc33dd44ee55ff6677889900aabbccdd today", []string{"aa11bb22"}},
		{"a ticket number", "Similar to what ticket:47316 describes.", []string{"3f1a2b4c", "3f1a2b4d"}},
		{"an issue number", "A regression of #812?", []string{"aa11bb22"}},
		{"a pull request URL", "See https://github.com/o/r/pull/812 for more", []string{"aa11bb22"}},
		{"a number other than cited", "since #473 and #47", nil},
		{"an ambiguous prefix", "since 3f1a2b4", nil},
		{"a merge has no files", "since 3f1a2b4c999", nil},
		{"an unknown hash", "since 0123456789abc", nil},
		{"a hex word without a digit", "a defaced deadbee table", nil},
		{"an object address", "<Foo object at 0x7f3a2c1b5e80>", nil},
		{"a longer hex run", "sha256:5e0c7a91b2d4f6e8a0c2e4f6a8b0c2d4e6f8a0b25e0c7a91b2d4d1e8bd6b5a1c3a7b0dd1", nil},
		{"an HTML entity", "&#812;", nil},
		{"named twice", "since 5e0c7a91b2d (5e0c7a91b2d4)", []string{"5e0c7a91"}},
		{"two hashes side by side", "5e0c7a91b2d aa11bb22cc3", []string{"5e0c7a91", "aa11bb22"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, m := range l.Named(tc.task) {
				if m.Score != 1 {
					t.Errorf("%s scores %v, want 1", m.Commit.Hash, m.Score)
				}
				got = append(got, m.Commit.Hash[:8])
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Named(%q) = %v, want %v", tc.task, got, tc.want)
			}
		})
	}
	if got := (*Log)(nil).Named("since 5e0c7a91b2d"); got != nil {
		t.Errorf("a nil log named %v", got)
	}
}

func FuzzNamed(f *testing.F) {
	f.Add("since 5e0c7a91b2d, see #47316 and ticket:812")
	f.Add("https://github.com/o/r/pull/812 /commit/aa11bb22cc33")
	l := namedLog()
	f.Fuzz(func(t *testing.T, task string) {
		for _, m := range l.Named(task) {
			if m.Commit == nil || len(m.Commit.Files) == 0 {
				t.Fatalf("Named(%q) gave a commit without files", task)
			}
		}
	})
}

// A merge commit that cites the number names what its branch changed: in
// a repository that merges pull requests, the number is only in the
// merge's subject.
func TestNamedMerge(t *testing.T) {
	r := newRepo(t)
	r.commit("Start", "README.md")
	r.git("checkout", "-q", "-b", "feature")
	r.commit("Parse empty headers", "src/parser.py")
	r.commit("Test empty headers", "tests/test_parser.py")
	r.git("checkout", "-q", "main")
	r.commit("Unrelated work on main", "src/server.py")
	r.git("merge", "-q", "--no-ff", "-m", "Merge pull request #77 from someone/feature", "feature")
	r.commit("Squashed fix of the cache (#78)", "src/cache.py")
	l, err := Read(t.Context(), r.dir, "", "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ms := l.Named("a regression of #77, and see #78")
	if len(ms) != 2 {
		t.Fatalf("named %d commits, want the merge and the squashed commit", len(ms))
	}
	if got, want := ms[0].Commit.Files, []string{"tests/test_parser.py", "src/parser.py"}; ms[0].Commit.Subject != "Merge pull request #77 from someone/feature" || !slices.Equal(got, want) {
		t.Errorf("the merge: %q with %v, want its branch's files %v", ms[0].Commit.Subject, got, want)
	}
	if got := ms[1].Commit.Files; !slices.Equal(got, []string{"src/cache.py"}) {
		t.Errorf("the squashed commit: %v", got)
	}
	// The merge itself stays as git gave it.
	for _, c := range l.Commits {
		if c.Subject == "Merge pull request #77 from someone/feature" && len(c.Files) != 0 {
			t.Errorf("the log's merge commit was given files: %v", c.Files)
		}
	}
}

// An octopus merge names what each of its branches changed.
func TestNamedOctopusMerge(t *testing.T) {
	r := newRepo(t)
	r.commit("Start", "README.md")
	for _, b := range []string{"a", "b", "c"} {
		r.git("checkout", "-q", "-b", b, "main")
		r.commit("Work on "+b, b+".txt")
	}
	r.git("checkout", "-q", "main")
	r.git("merge", "-q", "--no-ff", "-m", "Merge the octopus #201", "a", "b", "c")
	l, err := Read(t.Context(), r.dir, "", "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ms := l.Named("broken since #201")
	if len(ms) != 1 {
		t.Fatalf("named %d commits, want the merge", len(ms))
	}
	got := slices.Clone(ms[0].Commit.Files)
	slices.Sort(got)
	if want := []string{"a.txt", "b.txt", "c.txt"}; !slices.Equal(got, want) {
		t.Errorf("the octopus merge's files: %v, want %v", got, want)
	}
}
