package retrieve

import (
	"github.com/hone-tools/hone/history"
	"testing"

	"github.com/hone-tools/hone/index"
)

// A reason says, for a person, what in the file matched which of the
// task's words.
func TestMatchText(t *testing.T) {
	for _, c := range []struct {
		m     match
		prose bool // the file is not code: docs, data
		want  string
	}{
		{match{label: "token", where: where{field: "name"}}, false, `named for "token"`},
		{match{label: "token", where: where{field: "name", as: "jwt"}}, false, `named for "jwt" (for "token")`},
		{match{label: "configured / set", where: where{field: "definitions", def: "make_default_options_response", as: "options"}}, false, `defines make_default_options_response ("options", for "configured")`},
		{match{label: "expiry", where: where{field: "definitions", def: "ACCESS_TOKEN_EXPIRY"}}, false, `defines ACCESS_TOKEN_EXPIRY ("expiry")`},
		{match{label: "expiry", where: where{field: "body", as: "ttl"}}, false, `"ttl" in its code (for "expiry")`},
		{match{label: "cookie", where: where{field: "comments"}}, false, `"cookie" in its comments`},
		{match{label: "auth", where: where{field: "path"}}, false, `in a folder named for "auth"`},
		{match{label: "src/a.py", where: where{field: "named"}}, false, `the task names it`},
		{match{label: "hang", where: where{field: "body"}}, true, `"hang" in its text`},
		{match{label: "expiry", where: where{field: "body", as: "ttl"}}, true, `"ttl" in its text (for "expiry")`},
		{match{label: "hang", where: where{field: "name"}}, true, `named for "hang"`},
	} {
		if got := c.m.text(!c.prose); got != c.want {
			t.Errorf("%+v: %s, want %s", c.m, got, c.want)
		}
	}
}

func TestMatchesText(t *testing.T) {
	def := func(label, name, as string) match {
		return match{label: label, where: where{field: "definitions", def: name, as: as}}
	}
	name := func(label string) match { return match{label: label, where: where{field: "name"}} }
	for _, c := range []struct {
		name    string
		matched []match
		want    string
	}{
		{"one each", []match{name("token"), def("expiry", "EXPIRY", "")}, `named for "token"; defines EXPIRY ("expiry")`},
		{"one definition, two words", []match{def("token", "TOKEN_EXPIRY", ""), name("auth"), def("expiry", "TOKEN_EXPIRY", "")},
			`defines TOKEN_EXPIRY ("token", "expiry"); named for "auth"`},
		{"said its own way", []match{def("token", "JWT_TTL", "jwt"), def("expiry", "JWT_TTL", "ttl")},
			`defines JWT_TTL ("jwt", for "token"; "ttl", for "expiry")`},
		{"the rest counted", []match{name("a"), name("b"), name("c"), name("d"), name("e")},
			`named for "a"; named for "b"; named for "c"; 2 more of the task's words`},
		{"a word past the first few joins its definition", []match{def("a", "F", ""), name("b"), name("c"), name("d"), def("e", "F", "")},
			`defines F ("a", "e"); named for "b"; named for "c"; 1 more of the task's words`},
	} {
		if got := matchesText(c.matched, 3, true); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// A reason says where a file of prose or data holds the task's words in
// its text, not its code, and counts the links it leaves out in words that
// agree with the number.
func TestReason(t *testing.T) {
	body := []match{{label: "hang", where: where{field: "body"}}}
	for _, c := range []struct {
		name  string
		path  string
		lang  string
		edges []string
		want  string
	}{
		{"code", "src/run.py", "python", nil, `"hang" in its code`},
		{"docs", "docs/faq.md", "markdown", nil, `"hang" in its text`},
		{"data", "config/app.yaml", "yaml", nil, `"hang" in its text`},
		{"one more link", "src/run.py", "python", []string{"calls a", "calls b", "calls c"},
			`"hang" in its code; calls a; calls b; 1 more link`},
		{"more links", "src/run.py", "python", []string{"calls a", "calls b", "calls c", "calls d"},
			`"hang" in its code; calls a; calls b; 2 more links`},
	} {
		d := &index.Doc{Entry: index.Entry{Path: c.path, Lang: c.lang}}
		if got := reason(d, false, body, nil, c.edges); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// A reason names the file's own word where the stemmer took another word
// of the task for it: a file named container.go matched "containing",
// and its reason says so; a plural or a longer form of the task's word
// is the word itself.
func TestReasonNamesTheFilesWord(t *testing.T) {
	doc := &index.Doc{
		Entry: index.Entry{Path: "engine/container/container.go"},
		Terms: []index.TermFreq{{Stem: "contain", Surface: "contains"}, {Stem: "expir", Surface: "expires"}, {Stem: "token", Surface: "tokens"}},
	}
	for _, c := range []struct {
		at   where
		stem string
		task string
		want string
	}{
		{where{field: "name"}, "contain", "containing", "container"},
		{where{field: "name"}, "contain", "Container", ""},
		{where{field: "path"}, "contain", "containing", "container"},
		{where{field: "definitions", def: "ContainerStart"}, "contain", "containing", "container"},
		{where{field: "body"}, "contain", "containing", ""}, // contains, as inflected
		{where{field: "body"}, "expir", "expiry", "expires"},
		{where{field: "body"}, "token", "token", ""},
		{where{field: "body"}, "token", "tokens", ""},
		{where{field: "body"}, "absent", "absent", ""},
	} {
		if got := otherWord(surfaceOf(doc, c.at, c.stem), c.task); got != c.want {
			t.Errorf("%+v %s for %q: %q, want %q", c.at, c.stem, c.task, got, c.want)
		}
	}
	m := match{label: "containing", where: where{field: "name", as: otherWord(surfaceOf(doc, where{field: "name"}, "contain"), "containing")}}
	if got, want := m.text(true), `named for "container" (for "containing")`; got != want {
		t.Errorf("reason %s, want %s", got, want)
	}
}

// The task's word and the file's are the same word where only their
// inflection differs.
func TestOtherWord(t *testing.T) {
	for _, c := range []struct{ file, task, want string }{
		{"container", "containing", "container"},
		{"caching", "cache", ""},
		{"policies", "policy", ""},
		{"retried", "retry", ""},
		{"classes", "class", ""},
		{"statuses", "status", ""},
		{"Tokens", "token", ""},
		{"expires", "expiry", "expires"},
		{"logger", "log", "logger"},
		{"strings", "string", ""},
		{"settings", "setting", ""},
		{"running", "run", ""},
		{"stopped", "stop", ""},
		{"committed", "commit", ""},
		{"cookies", "cookie", ""},
		{"apis", "api", ""},
		{"ids", "id", ""},
		{"mapping", "maps", ""},
		{"", "log", ""},
	} {
		if got := otherWord(c.file, c.task); got != c.want {
			t.Errorf("otherWord(%q, %q) = %q, want %q", c.file, c.task, got, c.want)
		}
	}
}

// conceptEvidence names the file's word where it matched the task's
// another way: the reason a ranking shows comes from it.
func TestConceptEvidenceNamesTheFilesWord(t *testing.T) {
	ix, err := buildIndex(writeFiles(t, map[string]string{
		"engine/container.go": "package engine\n\nfunc Start() {}\n",
		"engine/tokens.go":    "package engine\n\nfunc Sign() {}\n",
	}), index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, c := range []struct{ path, word, stem, want string }{
		{"engine/container.go", "containing", "contain", "container"},
		{"engine/tokens.go", "token", "token", ""},
	} {
		cpt := &concept{label: c.word, kind: prose, alts: []alt{{stems: []string{c.stem}, label: c.word, discount: 1, source: "task"}}}
		e, _, at := conceptEvidence(ix, ix.Doc(c.path), cpt)
		if e == 0 || at.field != "name" || at.as != c.want {
			t.Errorf("%s for %q: evidence %.2f in %q as %q, want the name as %q", c.path, c.word, e, at.field, at.as, c.want)
		}
	}
}

// A reason names only the past commits the result shows: one that changed
// the file, like the task or named in it, but that the result leaves out
// (its files' relevance under the floor, or past the commits shown) goes
// unnamed, so that no reason cites what the reader cannot look up.
func TestReasonCitesShownCommits(t *testing.T) {
	commit := func(hash string, files ...string) history.Match {
		return history.Match{Commit: &history.Commit{Hash: hash, Files: files}, Score: 1}
	}
	rk := &ranker{tp: &taskParse{}, commits: []history.Match{
		commit("aaaaaaaaaaaa1", "a.go"),
		commit("bbbbbbbbbbbb2", "a.go", "b.go"),
		commit("cccccccccccc3", "a.go"),
	}, shown: map[string]bool{"bbbbbbbbbbbb2": true, "cccccccccccc3": true}}
	got := rk.rankedReason("a.go", "defines Total")
	if want := "defines Total; changed by past commits like the task: bbbbbbbbbb, cccccccccc"; got != want {
		t.Errorf("reason %q, want %q", got, want)
	}
	if got := rk.rankedReason("c.go", "defines C"); got != "defines C" {
		t.Errorf("a file no commit changed: %q", got)
	}
}
