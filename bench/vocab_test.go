package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone/tokenize"
)

func stems(words ...string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = tokenize.Stem(w)
	}
	return out
}

// vocabRepo makes a small repository with documented Go and Python code
// and a history, and returns its git directory.
func vocabRepo(t *testing.T) string {
	t.Helper()
	dir, commit := scratchRepo(t)
	commit("Start the limiter", map[string]string{
		"limiter/limiter.go": `// Copyright 2024 The Authors. Licensed under the MIT licence.

package limiter

// Throttle slows down callers that exceed the rate limit.
func Throttle(n int) bool { return n > 10 }

// LoadShedder drops requests when the server is overloaded.
// See https://example.com/shedding for the design.
type LoadShedder struct {
	count int // not a doc comment of anything
}
`,
		"limiter/limiter_test.go": "package limiter\n\n// TestThrottle checks the throttle.\nfunc TestThrottle() {}\n",
		"README.md":               "# Limiter\n\nRate limits.\n",
	})
	commit("Add the upload checks", map[string]string{
		"upload.py": `import os


def max_content_length(app):
    """Reject uploads that are too big.

    Args:
        app: the application, never a word
    """
    return 10


# Retry the request after a failure.
@decorated
def retry_request(attempts):
    return attempts


class Uploader:
    '''Send files to the storage service.'''

    def close(self):
        x = 1  # Not a docstring: code comes first.
        """Nor is this one."""
`,
	})
	commit("Shed load when the server is overloaded\n\nThe `maxFail` setting of foo.bar() was ignored.\n\nSigned-off-by: A <a@a>\nSee https://example.com/x", map[string]string{
		"limiter/limiter.go": `// Copyright 2024 The Authors. Licensed under the MIT licence.

package limiter

// Throttle slows down callers that exceed the rate limit.
func Throttle(n int) bool { return n > 10 }

// LoadShedder drops requests when the server is overloaded.
// See https://example.com/shedding for the design.
type LoadShedder struct {
	count int // not a doc comment of anything
}

func ShedLoad(limit int) bool {
	// a comment line, whose words are no terms
	return limit > 0 && "quoted words" != ""
}
`,
		"limiter/limiter_test.go": "package limiter\n\nfunc TestShedLoad() {}\n",
	})
	commit("Merge-like commit touching only docs\n\nNothing to learn here.", map[string]string{"README.md": "# Limiter\n\nRate limits, shed.\n"})
	commit("Revert \"Shed load\"", map[string]string{"upload.py": "import os\n"})
	return filepath.Join(dir, ".git")
}

func TestVocabUnits(t *testing.T) {
	gitDir := vocabRepo(t)
	units, err := mineVocabUnits(context.Background(), gitDir, "HEAD~1", 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		commit bool
		terms  string
	}
	got := map[key][]string{}
	for _, u := range units {
		got[key{u.Commit, strings.Join(u.Terms, " ")}] = u.Words
	}
	tests := []struct {
		name   string
		commit bool
		terms  []string
		words  []string // nil: no such unit
	}{
		{"Go doc comment", false, stems("throttle"), stems("throttle", "slows", "callers", "exceed", "rate", "limit")},
		{"Go doc comment, URL and compound left out", false, stems("load", "shedder"), stems("drops", "requests", "server", "overloaded", "see", "design")},
		{"Python docstring, up to its Args", false, stems("max", "content", "length"), stems("reject", "uploads", "big")},
		{"Python comment before a decorator", false, stems("retry", "request"), stems("retry", "request", "failure")},
		{"Python class docstring", false, stems("uploader"), stems("send", "files", "storage", "service")},
		{"not a docstring after code", false, stems("close", "uploader"), nil},
		{"test file", false, stems("test", "throttle"), nil},
		{"commit: message prose, changed identifiers", true, []string{"bool", "int", "limit", "load", "shed"},
			stems("shed", "load", "server", "overloaded", "setting", "ignored")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			terms := slices.Clone(tt.terms)
			if tt.commit {
				slices.Sort(terms)
			}
			words, ok := got[key{tt.commit, strings.Join(terms, " ")}]
			if tt.words == nil {
				if ok {
					t.Errorf("unit %v: %v, want none", terms, words)
				}
				return
			}
			if !ok {
				t.Fatalf("no unit with terms %v; units: %v", terms, units)
			}
			if !slices.Equal(words, tt.words) {
				t.Errorf("unit %v: words %v, want %v", terms, words, tt.words)
			}
		})
	}
	// The root commit, the docs-only commit and the revert give none.
	commits := 0
	for _, u := range units {
		if u.Commit {
			commits++
		}
	}
	if commits != 2 { // upload checks, shed load; the root commit has no diff
		t.Errorf("%d commit units, want 2: %v", commits, units)
	}
}

func TestProseWords(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"Fix the retry loop", stems("fix", "retry", "loop")},
		{"Use `maxFail` in foo.bar() and get_user", stems("use")},
		{"see https://x.y/z and a@b.c, or src/a/b.go", stems("see")},
		{"parseHTTPRequest handles --verbose flags=3", stems("handles")},
		{"The cache's size (in bytes) is bounded.", stems("cache", "size", "bytes", "bounded")},
		{"x y z ab if else", nil},
		{"naïve café 速率限制", nil},
		{"std::vector and Foo::bar", nil},
	}
	for _, tt := range tests {
		if got := proseWords(tt.line, nil, 30); !slices.Equal(got, tt.want) {
			t.Errorf("proseWords(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
	if got := proseWords("one two three four five", nil, 2); len(got) != 2 {
		t.Errorf("limit 2 gave %v", got)
	}
}

func TestCodeOf(t *testing.T) {
	tests := []struct {
		line, want string
		ok         bool
	}{
		{`x := parse("some words here") // trailing words`, `x := parse("               ")`, true},
		{"// a comment", "", false},
		{"# a comment", "", false},
		{"#include <stdio.h>", "#include <stdio.h>", true},
		{"The value to parse, when it is given", "", false},
		{"Timeout time.Duration", "Timeout time.Duration", true},
		{"fn f<'a>(x: &'a str) -> &'a str {", "fn f<'a>(x: &'a str) -> &'a str {", true},
		{"See :class:`Foo` for more", "", false},
	}
	for _, tt := range tests {
		lang := "go"
		if strings.HasPrefix(tt.line, "fn ") {
			lang = "rust"
		}
		if got, ok := codeOf(lang, tt.line); got != tt.want || ok != tt.ok {
			t.Errorf("codeOf(%q) = %q, %v; want %q, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

// vocabCorpusDir makes the small repository, a list of n names for it
// and an excluded list, and returns the options to mine them.
func vocabCorpusDir(t *testing.T, n int, extra ...string) VocabOptions {
	t.Helper()
	dir := t.TempDir()
	mapping := map[string]string{}
	var list strings.Builder
	list.WriteString("# repo\tcommit\tlicence\tlanguage\n")
	gitDir := vocabRepo(t) // one repository under n names
	for i := range n {
		name := fmt.Sprintf("me/repo%d", i)
		mapping[name] = gitDir
		head, err := gitOutput(context.Background(), gitDir, "rev-parse", "HEAD")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&list, "%s\t%s\tMIT\tGo\n", name, strings.TrimSpace(string(head)))
	}
	for _, e := range extra {
		list.WriteString(e + "\n")
	}
	must(t, os.WriteFile(filepath.Join(dir, "repos.tsv"), []byte(list.String()), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "excluded.txt"), []byte("# benchmark\nacme/widgets\nacme/gadgets\n"), 0o644))
	return VocabOptions{Repos: Repos{Dir: dir, Mapping: mapping}, List: filepath.Join(dir, "repos.tsv"),
		MinWordUnits: 1, MinPairUnits: 1, Command: "hone bench vocab --test"}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// vocabTable parses a vocabulary file's lines.
func vocabTable(t *testing.T, data []byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	prev := ""
	for line := range strings.SplitSeq(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		word, rest, ok := strings.Cut(line, "\t")
		if !ok || word <= prev {
			t.Fatalf("bad or unsorted line %q after %q", line, prev)
		}
		prev = word
		f := strings.Fields(rest)
		for i := 0; i+1 < len(f); i += 2 {
			out[word] = append(out[word], f[i])
		}
	}
	return out
}

func TestBuildVocab(t *testing.T) {
	opt := vocabCorpusDir(t, 3)
	for _, method := range []string{VocabPMI, VocabIBM1} {
		t.Run(method, func(t *testing.T) {
			o := opt
			o.Method = method
			data, st, err := BuildVocab(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if st.Mined != 3 || st.DocUnits == 0 || st.CommitUnits == 0 || st.Words == 0 {
				t.Errorf("stats %+v", st)
			}
			for _, h := range []string{"# Built by: hone bench vocab --test\n", "# Corpus: ", "repos.tsv, 4 lines, 3 repositories listed, 3 mined", "# Method: " + method} {
				if !bytes.Contains(data, []byte(h)) {
					t.Errorf("header lacks %q:\n%s", h, data)
				}
			}
			table := vocabTable(t, data)
			for w, terms := range table {
				if slices.Contains(terms, w) {
					t.Errorf("%q is paired with itself: %v", w, terms)
				}
			}
			if len(table) == 0 {
				t.Fatalf("an empty table:\n%s", data)
			}
			// IBM Model 1 keeps only terms a word makes much likelier
			// than they are overall: in so small a corpus, few.
			if got := table[tokenize.Stem("overloaded")]; method == VocabPMI && !slices.Contains(got, "shed") && !slices.Contains(got, tokenize.Stem("shedder")) {
				t.Errorf("overloaded -> %v, want shed or shedder among them", got)
			}
			// IBM Model 1 leaves out a term the unit's words name: it
			// explains itself.
			if got := table["shed"]; method == VocabPMI && !slices.Contains(got, "load") {
				t.Errorf("shed -> %v, want load", got)
			}
			// Same input, same bytes, however many jobs.
			o.Jobs = 1
			again, _, err := BuildVocab(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, again) {
				t.Errorf("two runs differ:\n%s\n---\n%s", data, again)
			}
		})
	}
}

func TestBuildVocabCache(t *testing.T) {
	opt := vocabCorpusDir(t, 3)
	opt.Cache = t.TempDir()
	first, _, err := BuildVocab(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	cached, _ := filepath.Glob(filepath.Join(opt.Cache, "*.units"))
	if len(cached) != 3 {
		t.Errorf("cache holds %v, want 3 files", cached)
	}
	second, _, err := BuildVocab(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Error("a run from the cache differs from the first")
	}
}

func TestBuildVocabRefuses(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		extra string
		want  string
	}{
		{"a benchmark repository", "acme/widgets\tabc123\tBSD-3-Clause\tPython", "acme/widgets is a benchmark repository"},
		{"in another case", "Acme/Gadgets\tabc123\tBSD-3-Clause\tPython", "is a benchmark repository"},
		{"in a mirror's form", "swe-bench/acme__gadgets\tabc123\tBSD-3-Clause\tPython", "is a benchmark repository"},
		{"a repository that is not there", "me/absent\tabc123\tMIT\tGo", "no git directory for me/absent"},
		{"no commit", "me/nocommit", "has no commit"},
		{"not owner/name", "justaname\tabc", "is not owner/name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := vocabCorpusDir(t, 1, tt.extra)
			_, _, err := BuildVocab(ctx, opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("no excluded list", func(t *testing.T) {
		opt := vocabCorpusDir(t, 1)
		opt.Excluded = filepath.Join(t.TempDir(), "none.txt")
		if _, _, err := BuildVocab(ctx, opt); err == nil || !strings.Contains(err.Error(), "excluded") {
			t.Errorf("err = %v, want a complaint about the excluded list", err)
		}
	})
	t.Run("skip missing", func(t *testing.T) {
		opt := vocabCorpusDir(t, 3, "me/absent\tabc123\tMIT\tGo")
		opt.SkipMissing = true
		data, st, err := BuildVocab(ctx, opt)
		if err != nil || st.Mined != 3 || !slices.Equal(st.Missing, []string{"me/absent"}) {
			t.Fatalf("err %v, stats %+v", err, st)
		}
		if !bytes.Contains(data, []byte("1 not there and passed over")) {
			t.Errorf("the header does not say a repository was passed over")
		}
	})
	t.Run("bad method", func(t *testing.T) {
		opt := vocabCorpusDir(t, 1)
		opt.Method = "lda"
		if _, _, err := BuildVocab(ctx, opt); err == nil {
			t.Error("no error for an unknown method")
		}
	})
}

func TestEvalVocab(t *testing.T) {
	opt := vocabCorpusDir(t, 5)
	res, st, err := EvalVocab(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mined != 5 || len(res) != 12 {
		t.Errorf("stats %+v, %d results", st, len(res))
	}
	for _, e := range res {
		if e.Hit10 < 0 || e.Hit10 > 1 || e.Rec10 < 0 || e.Rec10 > 1 || e.MRR < 0 || e.MRR > 1 {
			t.Errorf("%+v out of range", e)
		}
	}
}

// A repository is excluded by its name, in a mirror's forms, or as one of
// an excluded project's organisation.
func TestExcludedRepo(t *testing.T) {
	excluded := map[string]bool{"spindle-rs/spindle": true, "vuejs/core": true, "quillize/quill": true, "kqlang/kq": true,
		"bigco/gparse": true, "lanterns/kiln": true, "bazaar/bazaar": true}
	for _, tt := range []struct {
		repo string
		want bool
	}{
		{"spindle-rs/spindle", true},
		{"Spindle-RS/Spindle", true},
		{"swe-bench/bazaar__bazaar", true},
		{"spindle-rs/buffers", true},   // the organisation is named for spindle
		{"Quillize/rich", true},        // for quill
		{"kqlang/kq-website", true},    // for kq
		{"vuejs/vue", true},            // named for this one, vue
		{"vuejs/router", false},        // neither: vuejs names vue, not router
		{"bigco/ginject", false},       // bigco names neither gparse nor ginject
		{"lanterns/glaze", false},      // lanterns names neither
		{"tsf/black", false},           // no excluded one of tsf
		{"bazaar-extensions/x", false}, // another organisation
	} {
		if got := excludedRepo(tt.repo, excluded); got != tt.want {
			t.Errorf("excludedRepo(%q) = %v, want %v", tt.repo, got, tt.want)
		}
	}
}

// The corpus list that built lexicon/vocab_data.txt holds no benchmark
// repository.
func TestVocabListExcludesBenchmarks(t *testing.T) {
	list, _, err := ReadVocabList(filepath.Join("vocab", "repos.tsv"))
	if os.IsNotExist(errors.Unwrap(err)) {
		t.Skip("no corpus list")
	}
	if err != nil {
		t.Fatal(err)
	}
	excluded, err := ReadExcluded(filepath.Join("vocab", "excluded.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if excludedRepo(r.Repo, excluded) {
			t.Errorf("%s is a benchmark repository", r.Repo)
		}
		if r.Licence == "" {
			t.Errorf("%s has no licence", r.Repo)
		}
	}
}
