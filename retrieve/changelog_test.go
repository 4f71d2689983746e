package retrieve

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
)

func TestChangelogShares(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"CHANGELOG.md":      "# Changes\n",
		"src/a.go":          "package a\n",
		"docs/guide.md":     "A guide\n",
		"core/CHANGELOG.md": "# Changes\n",
		"core/src/b.rs":     "fn b() {}\n",
		"deep/er/NEWS.md":   "news\n", // two folders down: no changelog of the project's
		// A folder of release notes: its notes are the root's.
		"release-notes/VERSION-5.x": "2.1: fixed\n",
		"release-notes/README.md":   "How to write a note\n",
		"release-notes/make.py":     "print(1)\n",
	})
	ix, err := buildIndex(dir, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	log := &history.Log{Commits: []*history.Commit{
		{Files: []string{"src/a.go", "CHANGELOG.md"}},
		{Files: []string{"src/a.go"}},
		{Files: []string{"docs/guide.md", "CHANGELOG.md"}}, // no code: not counted
		{Files: []string{"CHANGELOG.md"}},                  // nor this
		{Files: []string{"core/src/b.rs", "core/CHANGELOG.md"}},
		{Files: []string{"core/src/b.rs"}},
		{Files: []string{"core/src/b.rs"}},
		{Files: []string{"core/src/b.rs", "core/CHANGELOG.md"}},
		{}, // a merge: no files
		{Files: []string{"src/a.go", "release-notes/VERSION-5.x"}},
		{Files: []string{"release-notes/make.py", "release-notes/README.md"}},
	}}
	got := changelogShares(ix, log)
	// The root's counts every change to code: 1 of its 8 (make.py is
	// code under the root); core's the changes under core/, 2 of 4; the
	// release notes are the root's, 1 of 8; their README and script are
	// no changelog.
	want := map[string]float64{"CHANGELOG.md": 1.0 / 8, "release-notes/VERSION-5.x": 1.0 / 8, "core/CHANGELOG.md": 0.5}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("shares %v, want %v", got, want)
	}
	if got := changelogShares(ix, nil); got != nil {
		t.Errorf("with no history: %v, want none", got)
	}
}

func TestWithChangelog(t *testing.T) {
	ranked := func(pairs ...any) []hone.Ranked {
		var out []hone.Ranked
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, hone.Ranked{Path: pairs[i].(string), Relevance: pairs[i+1].(float64)})
		}
		return out
	}
	for _, tt := range []struct {
		name    string
		ranking []hone.Ranked
		shares  map[string]float64
		want    string
	}{
		{"no changelog", ranked("src/a.go", 0.8, "src/b.go", 0.5), nil,
			"[{src/a.go 0.8} {src/b.go 0.5}]"},
		{"placed by its share", ranked("src/a.go", 0.8, "src/b.go", 0.5, "src/c.go", 0.2, "src/d.go", 0.1),
			map[string]float64{"CHANGELOG.md": 0.3},
			"[{src/a.go 0.8} {src/b.go 0.5} {CHANGELOG.md 0.3} {src/c.go 0.2} {src/d.go 0.1}]"},
		{"second at the highest, at the relevance before it", ranked("src/a.go", 0.5, "src/b.go", 0.4),
			map[string]float64{"CHANGELOG.md": 0.9},
			"[{src/a.go 0.5} {CHANGELOG.md 0.5} {src/b.go 0.4}]"},
		{"last when every file is likelier", ranked("src/a.go", 0.5, "src/b.go", 0.4),
			map[string]float64{"CHANGELOG.md": 0.1},
			"[{src/a.go 0.5} {src/b.go 0.4} {CHANGELOG.md 0.1}]"},
		{"already above its place", ranked("src/a.go", 0.8, "CHANGELOG.md", 0.6, "src/b.go", 0.5),
			map[string]float64{"CHANGELOG.md": 0.1},
			"[{src/a.go 0.8} {CHANGELOG.md 0.6} {src/b.go 0.5}]"},
		{"moved up from below", ranked("src/a.go", 0.8, "src/b.go", 0.5, "src/c.go", 0.2, "CHANGELOG.md", 0.01),
			map[string]float64{"CHANGELOG.md": 0.3},
			"[{src/a.go 0.8} {src/b.go 0.5} {CHANGELOG.md 0.3} {src/c.go 0.2}]"},
		{"the best file's folder's", ranked("core/src/b.rs", 0.8, "core/src/c.rs", 0.5),
			map[string]float64{"CHANGELOG.md": 0.6, "core/CHANGELOG.md": 0.3},
			"[{core/src/b.rs 0.8} {core/src/c.rs 0.5} {core/CHANGELOG.md 0.3}]"},
		{"else the root's", ranked("core-util/src/b.rs", 0.8, "core-util/src/c.rs", 0.5),
			map[string]float64{"CHANGELOG.md": 0.6, "core/CHANGELOG.md": 0.3},
			"[{core-util/src/b.rs 0.8} {CHANGELOG.md 0.6} {core-util/src/c.rs 0.5}]"},
		{"none for another folder", ranked("core-util/src/b.rs", 0.8),
			map[string]float64{"core/CHANGELOG.md": 0.3},
			"[{core-util/src/b.rs 0.8}]"},
		{"of two in one folder, the one written more", ranked("src/main.c", 0.8, "src/val.c", 0.05),
			map[string]float64{"ChangeLog": 0.01, "NEWS.md": 0.2, "NEWS": 0.2},
			"[{src/main.c 0.8} {NEWS 0.2} {src/val.c 0.05}]"},
		{"release notes are the root's", ranked("src/main/Mapper.java", 0.8, "src/main/Reader.java", 0.3),
			map[string]float64{"release-notes/VERSION-5.x": 0.5, "release-notes/CONTRIBUTORS-5.x": 0.1},
			"[{src/main/Mapper.java 0.8} {release-notes/VERSION-5.x 0.5} {src/main/Reader.java 0.3}]"},
		{"a folder's own notes before the root's", ranked("sub/src/a.rs", 0.8, "sub/src/b.rs", 0.5),
			map[string]float64{"CHANGELOG.md": 0.6, "sub/changes/notes.md": 0.3},
			"[{sub/src/a.rs 0.8} {sub/src/b.rs 0.5} {sub/changes/notes.md 0.3}]"},
		{"the changelog first stays first", ranked("CHANGELOG.md", 0.4, "src/a.go", 0.3),
			map[string]float64{"CHANGELOG.md": 0.2},
			"[{CHANGELOG.md 0.4} {src/a.go 0.3}]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for range 20 { // the same whatever order the shares' map gives
				got := withChangelog(slices.Clone(tt.ranking), tt.shares)
				var s []string
				for _, r := range got {
					s = append(s, fmt.Sprintf("{%s %v}", r.Path, r.Relevance))
				}
				if fmt.Sprint(s) != tt.want {
					t.Fatalf("got %v, want %s", s, tt.want)
				}
			}
		})
	}
}
