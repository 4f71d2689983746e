package retrieve

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
)

func TestCommonCall(t *testing.T) {
	for name, want := range map[string]bool{
		"str": true, "len": true, "values": true, "Errorf": true, "Write": true, "info": true,
		"refreshSession": false, "expire_token": false, "signJwt": false,
	} {
		if got := commonCall(name); got != want {
			t.Errorf("commonCall(%q) = %v, want %v", name, got, want)
		}
	}
}

// A relevant file's calls on the task's lines are gaps, unless the name
// is one every program calls, the task's words are only in the message
// the line logs, or two of the files it imports define the name.
func TestCallGaps(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"app/session.py": `from app.store import values, save_expiry
from app.logs import log_event
from app.a import purge
from app.b import purge

def expire_session(session):
    """Expire the session when its token expiry passes."""
    token = values(session.expiry)
    save_expiry(session.token)
    log_event("session token expired")
    purge(session.token)
    return str(session.token)
`,
		"app/store.py": `def values(x):
    return x

def save_expiry(token):
    return token
`,
		"app/logs.py": `def log_event(msg):
    print(msg)
`,
		"app/a.py": "def purge(x):\n    return x\n",
		"app/b.py": "def purge(x):\n    return x\n",
	})
	var gaps []string
	for _, g := range firstCycleGaps(t, repo) {
		if g.Kind == "call" {
			gaps = append(gaps, g.Name)
		}
	}
	if !slices.Contains(gaps, "save_expiry") {
		t.Errorf("call gaps %v, want save_expiry", gaps)
	}
	for _, not := range []string{"values", "str", "log_event", "purge"} {
		if slices.Contains(gaps, not) {
			t.Errorf("call gaps %v hold %s", gaps, not)
		}
	}
}

// A Go package imported whole lists each of its files: the import gaps
// are those that define what the file calls, not the package's every
// file in the order of their names when it calls none (it uses a type).
func TestImportGapsOfAPackage(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.22\n",
		"session/expire.go": `package session

import (
	"example.com/app/model"
	"example.com/app/store"
)

// ExpireSession expires the session when its token expiry passes.
func ExpireSession(row model.Row, token string) {
	store.SaveExpiry(token)
}
`,
		"store/doc.go":     "// Package store keeps things.\npackage store\n",
		"store/save.go":    "package store\n\nfunc SaveExpiry(token string) {}\n",
		"model/a_doc.go":   "// Package model holds the rows.\npackage model\n",
		"model/b_row.go":   "package model\n\ntype Row struct{ ID int }\n",
		"model/c_col.go":   "package model\n\ntype Col struct{ Name string }\n",
		"model/d_other.go": "package model\n\nfunc Other() {}\n",
	})
	var gaps []string
	for _, g := range firstCycleGaps(t, repo) {
		if g.From == "session/expire.go" {
			gaps = append(gaps, g.Where)
		}
	}
	if !slices.Contains(gaps, "store/save.go") {
		t.Errorf("gaps of session/expire.go %q, want store/save.go", gaps)
	}
	for _, g := range gaps {
		if strings.HasPrefix(g, "model/") || g == "store/doc.go" {
			t.Errorf("gaps of session/expire.go %q hold %s", gaps, g)
		}
	}
}

// A package's files that define the same names under different build
// tags are its variants: the package is a gap once, by its file of the
// shortest name; a name only one of its files defines is a call's gap.
func TestImportGapsOfVariants(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"go.mod": "module example.com/app\n\ngo 1.22\n",
		"session/expire.go": `package session

import "example.com/app/codec"

// ExpireSession expires the session when its token expiry passes.
func ExpireSession(token string) {
	codec.Marshal(token)
	codec.Seal(token)
}
`,
		"codec/go_json.go": "//go:build go_json\n\npackage codec\n\nfunc Marshal(v any) []byte { return nil }\n",
		"codec/json.go":    "//go:build !go_json && !sonic\n\npackage codec\n\nfunc Marshal(v any) []byte { return nil }\n",
		"codec/sonic.go":   "//go:build sonic\n\npackage codec\n\nfunc Marshal(v any) []byte { return nil }\n",
		"codec/seal.go":    "package codec\n\nfunc Seal(v any) {}\n",
		"codec/unused.go":  "package codec\n\nfunc Unused() {}\n",
	})
	var gaps []string
	for _, g := range firstCycleGaps(t, repo) {
		if g.From == "session/expire.go" {
			gaps = append(gaps, g.Kind+" "+g.Where)
		}
	}
	slices.Sort(gaps)
	if want := []string{"call codec/seal.go", "import codec/json.go"}; !slices.Equal(gaps, want) {
		t.Errorf("import gaps of session/expire.go %q, want %q", gaps, want)
	}
}

// Two files of one folder that a Python file imports by name are no
// package imported whole: the gap to each stays.
func TestImportGapsOfSiblings(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"app/session.py": `from app.config import MAX_AGE
from app.errors import Gone

def expire_session(session):
    """Expire the session when its token expiry passes."""
    if session.age > MAX_AGE:
        raise Gone(session.token)
`,
		"app/config.py": "MAX_AGE = 3600\n",
		"app/errors.py": "class Gone(Exception):\n    pass\n",
	})
	var gaps []string
	for _, g := range firstCycleGaps(t, repo) {
		if g.From == "app/session.py" {
			gaps = append(gaps, g.Where)
		}
	}
	if !slices.Contains(gaps, "app/config.py") {
		t.Errorf("gaps of app/session.py %q, want app/config.py", gaps)
	}
}

// firstCycleGaps are the gaps of one cycle of a retrieve in repo for a task
// about a session's token expiry.
func firstCycleGaps(t *testing.T, repo string) []hone.Gap {
	t.Helper()
	res, err := Retrieve(context.Background(), repo, "expire the session token expiry", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1})
	if err != nil {
		t.Fatal(err)
	}
	var gaps []hone.Gap
	for _, c := range res.Cycles {
		gaps = append(gaps, c.Gaps...)
	}
	return gaps
}

// A bare name reaches the definitions its caller's language can call: a
// stylesheet's var() on a line about the task is no gap into the Python
// file that defines var, where a Python caller's is.
func TestCallGapsKeepToTheLanguage(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"static/widget.css": ".color-picker { background-color: var(--picker-color); }\n" +
			".color-picker .swatch { border-color: var(--picker-border); }\n",
		"db/backend.py": "def var(name):\n    return name\n",
		"ui/picker.py":  "from db.backend import var\n\ndef picker_color(widget):\n    \"\"\"The color picker's color.\"\"\"\n    return var(widget.picker_color)\n",
	})
	ix, tp, opts := taskOn(t, repo, "picker color")
	rf := newRefiner(ix, tp, newSources(ix), opts.Threshold)
	rec := newRecord()
	evaluated := []verdict{
		newVerdict(hone.Evaluation{Path: "static/widget.css", Score: 0.95}, 1),
		newVerdict(hone.Evaluation{Path: "ui/picker.py", Score: 0.9}, 1),
	}
	rec.add(1, evaluated, opts.Threshold)
	var cyc hone.Cycle
	next, _ := rf.refine(1, firstQuery(tp, opts), evaluated, rec, &cyc)
	from := map[string]bool{}
	for _, g := range next.aims {
		if g.Kind == "call" && g.Name == "var" {
			from[g.From] = true
		}
	}
	if from["static/widget.css"] {
		t.Errorf("a call gap from the stylesheet to db/backend.py's var: %+v", next.aims)
	}
	if !from["ui/picker.py"] {
		t.Errorf("no call gap from ui/picker.py, which imports var: %+v (the fixture tests nothing unless Python's call is one)", next.aims)
	}
}

func TestCallable(t *testing.T) {
	py, c, h, ts, css := &index.Entry{Path: "a.py", Lang: "python"}, &index.Entry{Path: "b.c", Lang: "c"},
		&index.Entry{Path: "b.hpp", Lang: "cpp"}, &index.Entry{Path: "c.ts", Lang: "typescript"}, &index.Entry{Path: "d.scss", Lang: "css"}
	all := []*index.Entry{py, c, h, ts, css}
	for _, tt := range []struct {
		lang string
		want []*index.Entry
	}{
		{"python", []*index.Entry{py}},
		{"c", []*index.Entry{c, h}},
		{"javascript", []*index.Entry{ts}},
		{"css", []*index.Entry{css}},
		{"markdown", all},
		{"html", all},
		{"", all},
	} {
		if got := callable(tt.lang, all); !slices.Equal(got, tt.want) {
			t.Errorf("callable(%q): %v, want %v", tt.lang, entryPaths(got), entryPaths(tt.want))
		}
	}
}

func entryPaths(es []*index.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Path)
	}
	return out
}

// A file's neighbours, which the next cycle searches around it, take in
// the files defining what it calls, in its own language: a JavaScript
// file's pickerColor() leads to no Python file that defines the name.
func TestNeighboursKeepToTheLanguage(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"web/picker.js": "function showPicker(widget) {\n  return pickerColor(widget)\n}\n",
		"db/backend.py": "def pickerColor(name):\n    return name\n",
		"ui/picker.py":  "def show_picker(widget):\n    return pickerColor(widget)\n",
	})
	ix, tp, opts := taskOn(t, repo, "picker color")
	for _, c := range []struct {
		from string
		want bool
	}{
		{"web/picker.js", false},
		{"ui/picker.py", true},
	} {
		q := firstQuery(tp, opts).next()
		q.expand = []string{c.from}
		got := slices.Contains(entryPaths(newDispatcher(ix, tp, opts).neighbours(q)), "db/backend.py")
		if got != c.want {
			t.Errorf("db/backend.py a neighbour of %s: %v, want %v", c.from, got, c.want)
		}
	}
}

// taskOn indexes the repository at repo and reads the task in it, for a
// stage's test; the index is closed when the test ends.
func taskOn(t *testing.T, repo, task string) (*index.Index, *taskParse, hone.Options) {
	t.Helper()
	ix, err := buildIndex(repo, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	opts, _ := hone.Options{}.WithDefaults()
	return ix, parseTask(task, ix), opts
}

// A definition is a caller of a file in hand when what it calls is
// defined there in a language it can call: a JavaScript function calling
// pickerColor() calls no Python file's pickerColor.
func TestSpanCallersKeepToTheLanguage(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"web/render.js": "function renderWidget(widget) {\n  return pickerColor(widget)\n}\n",
		"db/backend.py": "def pickerColor(name):\n    return name\n",
		"ui/render.py":  "def render_widget(widget):\n    return pickerColor(widget)\n",
	})
	ix, tp, opts := taskOn(t, repo, "swatch")
	rk := &ranker{ix: ix, tp: tp, q: firstQuery(tp, opts), src: newSources(ix), opts: opts}
	inHand := map[string]bool{"db/backend.py": true}
	for _, c := range []struct {
		path string
		want bool
	}{
		{"web/render.js", false},
		{"ui/render.py", true},
	} {
		got := false
		for _, s := range rk.spans(ix.Doc(c.path), inHand, false) {
			got = got || s.Why == "caller"
		}
		if got != c.want {
			t.Errorf("%s: a caller's span %v, want %v", c.path, got, c.want)
		}
	}
}
