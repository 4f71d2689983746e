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
		"CHANGELOG.md":       "# Changes\n",
		"src/a.go":           "package a\n",
		"docs/guide.md":      "A guide\n",
		"tokio/CHANGELOG.md": "# Changes\n",
		"tokio/src/b.rs":     "fn b() {}\n",
		"deep/er/NEWS.md":    "news\n", // two folders down: no changelog of the project's
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
		{Files: []string{"tokio/src/b.rs", "tokio/CHANGELOG.md"}},
		{Files: []string{"tokio/src/b.rs"}},
		{Files: []string{"tokio/src/b.rs"}},
		{Files: []string{"tokio/src/b.rs", "tokio/CHANGELOG.md"}},
		{}, // a merge: no files
	}}
	got := changelogShares(ix, log)
	// The root's counts every change to code: 1 of its 6; tokio's the
	// changes under tokio/, 2 of 4.
	want := map[string]float64{"CHANGELOG.md": 1.0 / 6, "tokio/CHANGELOG.md": 0.5}
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
		{"the best file's folder's", ranked("tokio/src/b.rs", 0.8, "tokio/src/c.rs", 0.5),
			map[string]float64{"CHANGELOG.md": 0.6, "tokio/CHANGELOG.md": 0.3},
			"[{tokio/src/b.rs 0.8} {tokio/src/c.rs 0.5} {tokio/CHANGELOG.md 0.3}]"},
		{"else the root's", ranked("tokio-util/src/b.rs", 0.8, "tokio-util/src/c.rs", 0.5),
			map[string]float64{"CHANGELOG.md": 0.6, "tokio/CHANGELOG.md": 0.3},
			"[{tokio-util/src/b.rs 0.8} {CHANGELOG.md 0.6} {tokio-util/src/c.rs 0.5}]"},
		{"none for another folder", ranked("tokio-util/src/b.rs", 0.8),
			map[string]float64{"tokio/CHANGELOG.md": 0.3},
			"[{tokio-util/src/b.rs 0.8}]"},
		{"of two in one folder, the one written more", ranked("src/main.c", 0.8, "src/jv.c", 0.05),
			map[string]float64{"ChangeLog": 0.01, "NEWS.md": 0.2, "NEWS": 0.2},
			"[{src/main.c 0.8} {NEWS 0.2} {src/jv.c 0.05}]"},
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
