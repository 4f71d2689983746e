package retrieve

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
	"github.com/hone-tools/hone/index"
)

func TestLongOptions(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"add `--squeeze-blank` like cat -s", []string{"squeeze-blank"}},
		{"rg --files --hidden", []string{"files", "hidden"}},
		{"--no-ignore-vcs=false", []string{"no-ignore-vcs"}},
		{`.long("max-depth") // --max-depth`, []string{"max-depth"}},
		{"i-- and --i", []string{"i"}},     // a decrement's minus signs are not an option's
		{"a--b, x---y", nil},               // inside a word
		{"see docs/--help/x", nil},         // a path
		{"--Foo, --foo_bar, --foo/x", nil}, // not an option's spelling
		{"tool --exec echo\n--threads 4", []string{"exec", "threads"}},
		{"--", nil},
		{"--1", nil},
	} {
		got := slices.Sorted(maps.Keys(longOptions(tt.text)))
		if fmt.Sprint(got) != fmt.Sprint(tt.want) && !(len(got) == 0 && len(tt.want) == 0) {
			t.Errorf("longOptions(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestWritesOption(t *testing.T) {
	for _, tt := range []struct {
		task string
		want bool
	}{
		{"`--theme` completes the default theme wrongly", true},
		{"the -s / --squeeze-blank option of cat", true},
		{"crash when the output is a pipe", false},
		{"see https://example.com/search?q=x--y&--page for it", false},
		{"see https://example.com/a --page for it", true},
		{"为 --max-depth 选项添加测试", true},
	} {
		if got := writesOption(tt.task); got != tt.want {
			t.Errorf("writesOption(%q) = %v, want %v", tt.task, got, tt.want)
		}
	}
}

func TestOptionDoc(t *testing.T) {
	parser := `fn app() {
	arg("--hidden"); arg("--no-ignore"); arg("--max-depth");
	arg("--exec"); arg("--threads"); arg("--color");
}
`
	dir := writeFiles(t, map[string]string{
		"src/app.rs":         parser,
		"src/main.rs":        "fn main() { app(); }\n",
		"src/walk.rs":        "fn walk() {}\n",
		"doc/tool.1":         ".TP\n.B \\-\\-hidden\n.TP\n.B \\-\\-max-depth\n--hidden --no-ignore --max-depth --exec\n",
		"README.md":          "Use --hidden or --exec.\n",
		"CHANGELOG.md":       "- added --threads, --color, --exec, --hidden\n",
		"complete/tool.fish": "complete -l hidden\n",
		"tests/cli.rs":       "// --hidden --no-ignore --max-depth --exec\n",
		"Cargo.toml":         "[package]\n",
		"doc/short.txt":      "--hidden and --exec\n",
	})
	ix, err := buildIndex(dir, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	read := func(e *index.Entry) string {
		b, err := ix.Content(e)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	commit := func(files ...string) *history.Commit { return &history.Commit{Files: files} }
	log := &history.Log{Commits: []*history.Commit{
		commit("src/app.rs", "CHANGELOG.md", "tests/cli.rs", "Cargo.toml", "README.md"),
		commit("src/app.rs", "CHANGELOG.md", "tests/cli.rs", "Cargo.toml", "doc/tool.1"),
		commit("src/app.rs", "CHANGELOG.md", "tests/cli.rs", "Cargo.toml", "doc/tool.1", "README.md"),
		commit("src/app.rs", "src/walk.rs", "src/main.rs"),
		commit("src/app.rs", "src/walk.rs", "src/main.rs", "doc/tool.1"),
		commit("doc/tool.1"), // not with the parser: not counted
		commit("src/main.rs", "README.md"),
	}}
	for _, tt := range []struct {
		name  string
		log   *history.Log
		best  string
		doc   string
		share float64
	}{
		// The changelog, the tests, the code and Cargo.toml (no
		// options) aside, the man page: 3 of the parser's 5 changes.
		{"man page", log, "src/app.rs", "doc/tool.1", 3.0 / 6},
		{"no parser", log, "src/main.rs", "", 0},
		{"no history", nil, "src/app.rs", "", 0},
		{"not indexed", log, "src/gone.rs", "", 0},
		// README.md, written with it twice, writes four of its options:
		// a front page, no documentation of them; Cargo.toml none.
		{"a README", &history.Log{Commits: []*history.Commit{log.Commits[0], log.Commits[0]}}, "src/app.rs", "", 0},
		// Two of its options only.
		{"too few shared", &history.Log{Commits: []*history.Commit{commit("src/app.rs", "doc/short.txt"), commit("src/app.rs", "doc/short.txt")}}, "src/app.rs", "", 0},
		// The man page written with it once: too seldom to say.
		{"once", &history.Log{Commits: log.Commits[3:5]}, "src/app.rs", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, share := optionDoc(ix, tt.log, tt.best, read)
			if doc != tt.doc || fmt.Sprintf("%.3f", share) != fmt.Sprintf("%.3f", tt.share) {
				t.Errorf("optionDoc = %q, %.3f; want %q, %.3f", doc, share, tt.doc, tt.share)
			}
		})
	}
}

func TestWithOptionDoc(t *testing.T) {
	ranking := []hone.Ranked{{Path: "src/app.rs", Relevance: 0.8}, {Path: "src/main.rs", Relevance: 0.4}, {Path: "src/walk.rs", Relevance: 0.1}}
	got := withOptionDoc(slices.Clone(ranking), "doc/tool.1", 0.3)
	var paths []string
	for _, r := range got {
		paths = append(paths, fmt.Sprintf("%s %.2f", r.Path, r.Relevance))
	}
	want := "[src/app.rs 0.80 src/main.rs 0.40 doc/tool.1 0.30 src/walk.rs 0.10]"
	if fmt.Sprint(paths) != want {
		t.Errorf("got %v, want %s", paths, want)
	}
	if got := withOptionDoc(slices.Clone(ranking), "", 0); len(got) != len(ranking) {
		t.Errorf("with no documentation: %v", got)
	}
}
