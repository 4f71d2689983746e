package pack

import (
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/structure"
)

// A file's units cover each of its lines once: the imports, the innermost
// definitions, the lines between in short runs; and what the task is
// about is worth most.
func TestFileUnits(t *testing.T) {
	var b strings.Builder
	b.WriteString("import os\nimport sys\n\n")
	b.WriteString("class Session:\n    \"\"\"A session.\"\"\"\n\n")
	b.WriteString("    def save_cookie(self, response):\n        response.set_cookie(samesite=self.samesite)\n\n")
	b.WriteString("    def delete_cookie(self, response):\n        response.delete_cookie(self.name)\n\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "X%d = %d\n", i, i)
	}
	b.WriteString("\ndef unrelated():\n    return 1\n")
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	res := &hone.Result{Concepts: []hone.Concept{
		{Kind: "word", Weight: 1, Terms: []string{"samesit"}},
		{Kind: "word", Weight: 1, Terms: []string{"delet"}},
		{Kind: "word", Weight: 0.5, Terms: []string{"cooki"}},
	}}
	spans := []hone.Span{{Start: 10, End: 11, Symbol: "Session.delete_cookie", Why: "match"}}
	us := fileUnits(0, "sessions.py", structure.LanguageOfLines("sessions.py", lines), lines, spans, 0.9, taskConcepts(res), unitWeights)
	next := 1
	byName := map[string]*unit{}
	for _, u := range us {
		if u.from != next || u.to < u.from {
			t.Fatalf("unit %d-%d after line %d: the units must cover the lines in order", u.from, u.to, next-1)
		}
		if u.why == "lines" && u.to-u.from+1 > maxGap {
			t.Errorf("a run of %d free lines, over %d", u.to-u.from+1, maxGap)
		}
		next = u.to + 1
		byName[u.name("sessions.py")] = u
	}
	if next != len(lines)+1 {
		t.Fatalf("the units end at line %d of %d", next-1, len(lines))
	}
	for _, want := range []string{"sessions.py:1-2 imports", "sessions.py:7-8 Session.save_cookie", "sessions.py:10-11 Session.delete_cookie"} {
		if byName[want] == nil {
			t.Errorf("no unit %q among %v", want, keys(byName))
		}
	}
	// Per line, what the retrieval matched is worth most, then what holds
	// the task's words, then the rest but the imports, which the fixes
	// change more often, per line, than any definition (UnitWeights).
	perLine := func(u *unit) float64 { return u.worth / float64(u.to-u.from+1) }
	del, save := byName["sessions.py:10-11 Session.delete_cookie"], byName["sessions.py:7-8 Session.save_cookie"]
	if del == nil || save == nil {
		t.FailNow()
	}
	if !(perLine(del) > perLine(save)) {
		t.Errorf("the matched delete_cookie is worth %.3f a line, the other method %.3f: want more", perLine(del), perLine(save))
	}
	total := 0.0
	for _, u := range us {
		total += u.worth
		if u != del && u != save && u.why != "imports" && perLine(u) >= perLine(save) {
			t.Errorf("%s is worth %.3f a line, as much as a method that holds the task's words", u.name("sessions.py"), perLine(u))
		}
	}
	if imp, plain := byName["sessions.py:1-2 imports"], byName["sessions.py:114-115 unrelated"]; imp == nil || plain == nil || perLine(imp) <= perLine(plain) {
		t.Errorf("the imports should be worth more a line than a definition without the task's words")
	}
	// Blank lines alone are worth nothing.
	for _, u := range us {
		if strings.TrimSpace(strings.Join(lines[u.from-1:u.to], "")) == "" && u.worth != 0 {
			t.Errorf("blank lines %d-%d are worth %v, want 0", u.from, u.to, u.worth)
		}
	}
	// The chances add up to the file's relevance.
	if math.Abs(total-0.9) > 1e-9 {
		t.Errorf("the units are worth %v in all, want the file's relevance 0.9", total)
	}
	// A small file is one unit, the whole file.
	small := fileUnits(0, "a.py", structure.LanguageOfLines("a.py", lines[:20]), lines[:20], nil, 0.5, taskConcepts(res), unitWeights)
	if len(small) != 1 || !small[0].whole || small[0].name("a.py") != "a.py" {
		t.Errorf("a small file's units: %+v, want the whole file", small)
	}
}

func keys(m map[string]*unit) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// BenchmarkBuild builds the pack of a result whose file is long: the
// units are weighed, the chosen ones counted.
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	var src strings.Builder
	src.WriteString("import os\n\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&src, "def handler_%d(request):\n    \"\"\"Serve request %d.\"\"\"\n    return render(request, %d)\n\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "views.py"), []byte(src.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	res := &hone.Result{Task: "render the request", Files: []hone.File{{Path: "views.py", Relevance: 0.9, Role: hone.RoleTarget,
		Spans: []hone.Span{{Start: 3, End: 5, Symbol: "handler_0", Why: "match"}}}},
		Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"render"}}, {Kind: "word", Weight: 1, Terms: []string{"request"}}}}
	b.ResetTimer()
	for range b.N {
		if p := Build(res, dir, Options{Budget: 8000}); p.Tokens > 8000 {
			b.Fatal("over the budget")
		}
	}
}

// The lines a stack trace in the task names make their units worth more,
// in the file the frame's path ends with.
func TestTraceFrames(t *testing.T) {
	task := "It crashes:\n" +
		"Traceback (most recent call last):\n" +
		"  File \"/usr/lib/python3/site-packages/app/models.py\", line 12, in save\n" +
		"panic: at src/lib.rs:7:5 and at Parser.parse (Parser.java:3)\n" +
		"see C:\\work\\app\\views.py:2\n" +
		"the link https://github.com/o/r/blob/4f7183d/lib/lzpack.c#L1443 and #L30-L34 of https://gitlab.com/o/r/-/blob/main/src/a.rs#L30-L34\n" +
		"At shop/db/sql/query.py in 745 line there is a snippet; see also conf/settings.py, lines 40-42, and line 9 of `web/urls.py`.\n"
	c := concepts{frames: traceFrames(task)}
	tests := []struct {
		path     string
		from, to int
		want     bool
	}{
		{"app/models.py", 10, 14, true},
		{"app/models.py", 1, 11, false},    // not the line
		{"other/models.py", 10, 14, false}, // not the file
		{"src/lib.rs", 7, 7, true},
		{"src/main/java/x/Parser.java", 1, 5, true}, // a bare name, as Java writes it
		{"app/views.py", 1, 3, true},                // a Windows path
		{"models.py", 12, 12, true},                 // the frame's path ends with /models.py
		{"lib/lzpack.c", 1400, 1450, true},          // a link's line
		{"lib/lzpack.c", 1444, 1450, false},
		{"src/a.rs", 34, 40, true}, // a link's lines, to their last
		{"src/a.rs", 35, 40, false},
		{"db/sql/query.py", 740, 760, true}, // prose: "in 745 line"
		{"conf/settings.py", 42, 50, true},  // "lines 40-42"
		{"conf/settings.py", 43, 50, false},
		{"web/urls.py", 1, 9, true}, // "line 9 of"
	}
	for _, tt := range tests {
		if got := c.framed(tt.path, tt.from, tt.to); got != tt.want {
			t.Errorf("framed(%s, %d-%d) = %v, want %v (frames %v)", tt.path, tt.from, tt.to, got, tt.want, c.frames)
		}
	}
	// A unit holding a framed line is worth more than its twin without.
	src := []string{"import os"} // so that line 12 is code, not a blank line
	for i := 0; i < 100; i++ {
		src = append(src, fmt.Sprintf("def f%d():", i), "    return 1", "")
	}
	us := fileUnits(0, "app/models.py", structure.LanguageOfLines("app/models.py", src), src, nil, 0.9, c, unitWeights)
	var framed, plain *unit
	for _, u := range us {
		switch {
		case u.from <= 12 && 12 <= u.to:
			framed = u
		case u.symbol == "f20":
			plain = u
		}
	}
	if framed == nil || plain == nil || !(framed.worth > plain.worth) {
		t.Errorf("the unit of line 12: %+v; another: %+v: want it worth more", framed, plain)
	}
	for task, want := range map[string][]frame{
		"see line 12 of a.py, line 40 of b.py":                          {{"a.py", 12, 12}, {"b.py", 40, 40}},
		"a.py line 12 in parse() is wrong":                              {{"a.py", 12, 12}},
		"Rewrite config.py in 2 lines; wrap setup.cfg in 80 line width": nil,
		"lines 5-3 of b.py":                                             {{"b.py", 3, 5}},
		"at App.F() in C:\\My Projects\\src\\My Lib\\F.cs:line 12":      {{"C:/My Projects/src/My Lib/F.cs", 12, 12}},
		"at App.G() in /home/me/app/G.cs:line 3":                        {{"/home/me/app/G.cs", 3, 3}},
		"https://github.com/o/r/blob/main/a.c#L12C3-L20C5":              {{"//github.com/o/r/blob/main/a.c", 12, 20}},
		"https://github.com/o/r/blob/main/README.md?plain=1#L5":         {{"//github.com/o/r/blob/main/README.md", 5, 5}},
	} {
		if got := traceFrames(task); !slices.Equal(got, want) {
			t.Errorf("traceFrames(%q) = %v, want %v", task, got, want)
		}
	}
	if fs := traceFrames("no trace here: version 3.10, at 10:30, in 2 lines, line 5 of 7, lines 3-9000 of a.py#L1-L9000"); len(fs) != 0 {
		t.Errorf("traceFrames found %v in a task with no trace, and a link to too many lines", fs)
	}
}

func FuzzTraceFrames(f *testing.F) {
	f.Add("File \"a/b.py\", line 3, in f\nsrc/x.rs:9:1")
	f.Add("C:\\w\\a.go:12 (Foo.java:0)")
	f.Fuzz(func(t *testing.T, task string) {
		fs := traceFrames(task)
		if len(fs) > maxFrames {
			t.Fatalf("%d frames, over %d", len(fs), maxFrames)
		}
		for _, fr := range fs {
			if fr.from < 1 || fr.to < fr.from || fr.path == "" {
				t.Fatalf("frame %+v", fr)
			}
		}
	})
}

// A unit's string literal counts as quoted by the task when a part of it
// between its placeholders, of two words or more or an option's name, is
// in the task as it is written.
func TestLiteral(t *testing.T) {
	task := "Fitting gives `ValueError: Input contains NaN, infinity or a value too large for dtype('float64').` " +
		"and the --dry-run option is ignored; it's the same with 'max_iter'."
	c := taskConcepts(&hone.Result{Task: task})
	for _, tc := range []struct {
		code string
		want bool
	}{
		{`raise ValueError("Input contains NaN, infinity or a value too large for %r." % X.dtype)`, true},
		{`msg = 'Input contains {} values'.format(n)`, true},
		{`raise ValueError(f"Input contains NaN, infinity or a value too large for {X.dtype!r}")`, true},
		{`parser.add_argument("--dry-run", action="store_true")`, true},
		{`params.get('max_iter')`, true},                  // a code word, as the task quotes it
		{`raise ValueError("input contains nan")`, false}, // not as the task writes it
		{`log("the same with")`, true},                    // two words of the task, verbatim
		{`log("value")`, false},                           // one plain word: too little to tell
		{`x = "nothing the task says"`, false},
		{`# Input contains NaN, in a comment`, false},
	} {
		if got := c.literal(tc.code); got != tc.want {
			t.Errorf("literal(%s) = %v, want %v", tc.code, got, tc.want)
		}
	}
	if (concepts{}).literal(`raise ValueError("Input contains NaN")`) {
		t.Error("a task with no text quotes nothing")
	}
}

// padded ends a test's source with 90 constants, past the length of a
// file that goes in whole, and returns its lines.
func padded(b *strings.Builder) []string {
	for i := 0; i < 90; i++ {
		fmt.Fprintf(b, "X%d = %d\n", i, i)
	}
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}

// unitWorths is the worth of each unit of the file, by its symbol.
func unitWorths(path string, lines []string, c concepts) map[string]float64 {
	worth := map[string]float64{}
	for _, u := range fileUnits(0, path, structure.LanguageOfLines(path, lines), lines, nil, 1, c, unitWeights) {
		worth[u.symbol] = u.worth
	}
	return worth
}

// Of two methods alike but for the error message the task quotes, the
// one that raises it is worth more: the literal feature's weight.
func TestLiteralWorth(t *testing.T) {
	var b strings.Builder
	b.WriteString("import numbers\n\n")
	b.WriteString("def check_size(n):\n    if n < 0:\n        raise ValueError(\"size must be positive, got %d\" % n)\n    return n\n\n")
	b.WriteString("def check_count(n):\n    if n < 0:\n        raise ValueError(\"count cannot be below zero: %d\" % n)\n    return n\n\n")
	lines := padded(&b)
	res := &hone.Result{Task: "I get ValueError: count cannot be below zero: -1 when I pass a negative number",
		Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"neg"}}, {Kind: "word", Weight: 1, Terms: []string{"number"}}}}
	worth := unitWorths("checks.py", lines, taskConcepts(res))
	size, okSize := worth["check_size"]
	count, okCount := worth["check_count"]
	if !okSize || !okCount {
		t.Fatal("the outline lacks check_size or check_count")
	}
	if !(count > 1.5*size) {
		t.Errorf("check_count, which raises the message the task quotes, is worth %.4f, check_size %.4f: want it well above", count, size)
	}
}

// What a task quotes: backticks, double and single quotes (not an
// apostrophe's), and options; each once.
func TestTaskQuoted(t *testing.T) {
	for _, tc := range []struct {
		task string
		want []string
	}{
		{"`Model.save()` fails with \"database is locked\"", []string{"Model.save()", "database is locked"}},
		{"it's broken, isn't it; set 'auto' mode", []string{"auto"}},
		{"run with --no-cache or -rxs and --no-cache again", []string{"--no-cache", "-rxs"}},
		{"`ab` is too short to tell", nil},
		{"no quotes at all", nil},
		{"Error E108 does not cover some cases; W0511 neither (E1, ABCDE123 and E123456 are no codes)", []string{"E108", "W0511"}},
		{"`--fix` reports E501 twice: E501", []string{"--fix", "E501"}},
	} {
		if got := taskQuoted(tc.task); !slices.Equal(got, tc.want) {
			t.Errorf("taskQuoted(%q) = %q, want %q", tc.task, got, tc.want)
		}
	}
}

// A long span around definitions (a class the task names) gives way to
// them: each method is a unit of the span's kind, and the method the task
// is about can go in without the rest of the class. A short span stays
// whole, the definitions inside it too.
func TestSplitSpan(t *testing.T) {
	var b strings.Builder
	b.WriteString("class Session:\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "    def method_%d(self):\n        return %d\n\n", i, i)
	}
	b.WriteString("    def delete_cookie(self, response):\n        response.delete_cookie(self.name)\n\n\n")
	b.WriteString("def outer(response):\n    def inner():\n        return response\n    return inner\n")
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	res := &hone.Result{Concepts: []hone.Concept{
		{Kind: "word", Weight: 1, Terms: []string{"delet"}},
		{Kind: "word", Weight: 1, Terms: []string{"cooki"}},
	}}
	n := len(lines)
	spans := []hone.Span{
		{Start: 1, End: 93, Symbol: "Session", Why: "match"},
		{Start: n - 3, End: n, Symbol: "outer", Why: "caller"},
	}
	us := fileUnits(0, "sessions.py", structure.LanguageOfLines("sessions.py", lines), lines, spans, 0.9, taskConcepts(res), unitWeights)
	byName := map[string]*unit{}
	var best *unit
	for _, u := range us {
		byName[u.name("sessions.py")] = u
		if best == nil || u.worth > best.worth {
			best = u
		}
	}
	del := byName["sessions.py:92-93 Session.delete_cookie"]
	if del == nil {
		t.Fatalf("no unit of the method delete_cookie among %v", keys(byName))
	}
	if del.why != "match" || byName["sessions.py:2-3 Session.method_0"] == nil || byName["sessions.py:2-3 Session.method_0"].why != "match" {
		t.Errorf("the class's methods should be units of the span's kind, match")
	}
	if best != del {
		t.Errorf("the best unit is %s, want the method the task is about", best.name("sessions.py"))
	}
	if byName[fmt.Sprintf("sessions.py:%d-%d outer", n-3, n)] == nil {
		t.Errorf("the short span outer should stay one unit, its inner definition with it: %v", keys(byName))
	}
}

// The words a task writes as code, and none of its prose.
func TestTaskIdents(t *testing.T) {
	for _, tc := range []struct {
		task string
		want []string
	}{
		{"Axis.set_ticks() ignores kwargs", []string{"Axis", "set_ticks"}},
		{"RenameIndex() crashes when moving backward", []string{"RenameIndex"}},
		{"the __init__ of QuerySet, and getUserName", []string{"__init__", "QuerySet", "getUserName"}},
		{"calling parse(x) on obj.value", []string{"parse", "obj", "value"}},
		{"see setup.py, or v1.2.", []string{"setup"}},
		{"foo.令牌 and bar.baz", []string{"bar", "baz"}},
		{"update the docs. Then fix it", nil},
		{"JWT令牌过期后 refresh_token 没有返回401", []string{"refresh_token"}},
		{"ab() and x_ are too short", nil},
	} {
		got := slices.Sorted(maps.Keys(taskIdents(tc.task)))
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("taskIdents(%q) = %q, want %q", tc.task, got, want)
		}
	}
}

// Of three methods alike, the one whose name the task writes as code is
// worth the most, and a method of the class the task names comes next:
// the named and owner features' weights.
func TestNamedWorth(t *testing.T) {
	var b strings.Builder
	b.WriteString("import os\n\n")
	for _, cls := range []string{"Reader", "Writer"} {
		fmt.Fprintf(&b, "class %s:\n", cls)
		for _, m := range []string{"open_stream", "close_stream"} {
			fmt.Fprintf(&b, "    def %s(self, path):\n        f = os.open(path)\n        return f\n\n", m)
		}
	}
	lines := padded(&b)
	res := &hone.Result{Task: "Writer.close_stream() leaks the file handle",
		Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"leak"}}, {Kind: "word", Weight: 1, Terms: []string{"file"}}}}
	worth := unitWorths("streams.py", lines, taskConcepts(res))
	named, owned, other := worth["Writer.close_stream"], worth["Writer.open_stream"], worth["Reader.open_stream"]
	if named == 0 || owned == 0 || other == 0 {
		t.Fatalf("the outline lacks a method: %v", worth)
	}
	if !(named > 1.5*owned && owned > 1.5*other) {
		t.Errorf("worth: Writer.close_stream %.4f, Writer.open_stream %.4f, Reader.open_stream %.4f: want each well above the next", named, owned, other)
	}
	if !(worth["Reader.close_stream"] > 1.5*other) {
		t.Errorf("Reader.close_stream, named as the task writes it, is worth %.4f, Reader.open_stream %.4f", worth["Reader.close_stream"], other)
	}
}

// Of two functions alike, the one that still holds a line a past commit
// like the task wrote is worth more: the past feature's weight. A short
// line, or one with no letter, tells nothing, and is not kept.
func TestPastWorth(t *testing.T) {
	var b strings.Builder
	b.WriteString("import os\n\n")
	b.WriteString("def load_config(path):\n    data = os.read(path)\n    return parse_config_text(data)\n\n")
	b.WriteString("def load_cache(path):\n    data = os.read(path)\n    return parse_cache_text(data)\n\n")
	lines := padded(&b)
	res := &hone.Result{Task: "loading fails on a missing file",
		Concepts: []hone.Concept{{Kind: "word", Weight: 1, Terms: []string{"load"}}, {Kind: "word", Weight: 1, Terms: []string{"file"}}}}
	worth := func(past []string) (config, cache float64) {
		c := taskConcepts(res)
		c.past = pastSet(past)
		w := unitWorths("load.py", lines, c)
		return w["load_config"], w["load_cache"]
	}
	if config, cache := worth(nil); config == 0 || config != cache {
		t.Fatalf("without past lines: load_config %.4f, load_cache %.4f, want them equal and above 0", config, cache)
	}
	if config, cache := worth([]string{"return parse_cache_text(data)", "  )", "12345678 + 1"}); !(cache > 1.5*config) {
		t.Errorf("load_cache holds a past commit's line: worth %.4f, load_config %.4f: want it well above", cache, config)
	}
	if got := slices.Sorted(maps.Keys(pastSet([]string{"  return  ", "\t}) + 1;\t", "0000000000", "  data = os.read(path)"}))); !slices.Equal(got, []string{"data = os.read(path)"}) {
		t.Errorf("pastSet keeps %q, want the line of eight characters or more with a letter, trimmed", got)
	}
}

// paddedUnits are the units of a file of src, padded with blank lines
// past smallFile so that it is not taken whole.
func paddedUnits(path, src string) []*unit {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	for len(lines) <= smallFile {
		lines = append(lines, "")
	}
	return fileUnits(0, path, structure.LanguageOfLines(path, lines), lines, nil, 0.9, taskConcepts(&hone.Result{}), unitWeights)
}

// A short definition that holds others is one unit with them: a class
// of one short method, a Go group of constants with its parentheses. A
// longer one gives way to its definitions.
func TestSmallContainers(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		symbol    string
		from, to  int
	}{
		{"log.py", "import logging\n\n\nclass QuietFilter(logging.Filter):\n    def filter(self, record):\n        return not DEBUG\n", "QuietFilter", 4, 6},
		{"pull.go", "package pull\n\nimport \"time\"\n\nconst (\n\tbackoff  = 250 * time.Millisecond\n\tattempts = 5\n)\n", "backoff and 1 more", 5, 8},
		{"ipc.go", "package ipc\n\ntype Mode string\n\n// The modes.\nconst (\n\tNone Mode = \"none\"\n\tHost Mode = \"host\"\n\tPrivate Mode = \"private\"\n\tShareable Mode = \"shareable\"\n\tContainer Mode = \"container\"\n)\n", "None and 4 more", 5, 12},
		{"notes.txt", "use with the built-in gettext support\nimport the strings first\n\nThe command writes them out.\n", "", 0, 0},
		{"long.py", "import os\n\n\nclass Long:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n\n    def c(self):\n        return 3\n", "Long.b", 8, 9},
	} {
		us := paddedUnits(tc.path, tc.src)
		var got []string
		found := false
		for _, u := range us {
			if u.symbol != "" {
				got = append(got, fmt.Sprintf("%s %d-%d", u.symbol, u.from, u.to))
			}
			found = found || u.symbol == tc.symbol && u.from == tc.from && u.to == tc.to
		}
		if tc.symbol == "" {
			// Prose: no unit of imports.
			for _, u := range us {
				if u.why == "imports" {
					t.Errorf("%s: prose taken for imports, lines %d-%d", tc.path, u.from, u.to)
				}
			}
			continue
		}
		if !found {
			t.Errorf("%s: units %q, want %s %d-%d", tc.path, got, tc.symbol, tc.from, tc.to)
		}
	}
}

// A run of lines between definitions ends where its brackets close: a
// tuple over the run's bound is not cut in its middle.
func TestRunsCloseTheirBrackets(t *testing.T) {
	src := "import os\n\n\nclass AccountAdmin:\n"
	for i := range 30 {
		src += fmt.Sprintf("    field_%d = %d\n", i, i)
	}
	src += "    fieldsets = (\n"
	for i := range 20 {
		src += fmt.Sprintf("        (\"part %d\", {\"fields\": (\"f%d\",)}),\n", i, i)
	}
	src += "    )\n    ordering = (\"username\",)\n"
	for i := range 30 {
		src += fmt.Sprintf("    other_%d = %d\n", i, i)
	}
	src += "\n    def get_urls(self):\n        return []\n"
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	us := fileUnits(0, "admin.py", "python", lines, nil, 0.9, taskConcepts(&hone.Result{}), unitWeights)
	for _, u := range us {
		depth := 0
		for _, l := range lines[u.from-1 : u.to] {
			depth += brackets(structure.LineCode(l, false))
		}
		if depth != 0 {
			t.Errorf("unit %d-%d (%s%s) leaves %d brackets open: it ends on %q", u.from, u.to, u.symbol, u.within, depth, lines[u.to-1])
		}
	}
}

// A definition's decorators, attributes and doc comment go in with it:
// the lines just above it, with no blank line between, that the language
// writes for it.
func TestPreamble(t *testing.T) {
	// Two methods: the second's Javadoc and annotation are its own, not
	// the end of the first.
	const javaTwo = "package a;\n\nimport java.util.List;\n\nclass A {\n    public int open() {\n        return 0;\n    }\n    /**\n     * Reads.\n     */\n    @Override\n    public int read() {\n        return 1;\n    }\n}\n"
	for _, tc := range []struct {
		path, src string
		symbol    string
		from, to  int // the definition's unit
	}{
		{"a.py", "import os\n\nX = 1\n\nclass A:\n    def other(self):\n        return 1\n\n    # the query, made once\n    @property\n    def query(self):\n        return self._query\n", "A.query", 9, 12},
		{"a.py", "import os\n\nX = 1\n\n# a note, not the function's\n\ndef run():\n    return 1\n", "run", 7, 8},
		{"a.go", "package a\n\nimport \"os\"\n\n// Run runs.\n//\n// It never fails.\nfunc Run() {\n\tos.Exit(0)\n}\n", "Run", 5, 10},
		{"a.rs", "use std::io;\n\nconst X: u32 = 1;\n\n/// Reads a line.\n#[inline]\n#[must_use]\npub fn read() -> u32 {\n    1\n}\n", "read", 5, 10},
		{"A.java", javaTwo, "A.read", 9, 15},
		// A doc comment over the bound is left whole above, not cut in
		// its middle; the attribute under it goes with the definition.
		{"a.rs", "use std::io;\n\nconst X: u32 = 1;\n\n" + strings.Repeat("/// Ignores what the files say.\n", 46) + "#[derive(Debug)]\npub struct Ignore {\n    a: u8,\n}\n", "Ignore", 51, 54},
		{"A.java", javaTwo, "A.open", 6, 8},
		{"a.py", "import os\n\nX = 1\n\ndef a():\n    x = 1\n    # the body's, not b's\ndef b():\n    return 2\n", "b", 8, 9},
		{"a.go", "package a\n\nimport \"os\"\n\n/*\nRun runs,\nand never fails.\n*/\nfunc Run() {\n\tos.Exit(0)\n}\n", "Run", 5, 11},
		{"a.c", "#include <stdio.h>\n\nint x;\n\nint a(void) {\n    return 0;\n}\n/* not\nthis */ int y;\n/* Reads. */\nint read(void) {\n    return 1;\n}\n", "read", 10, 13},
		{"a.c", "#include <stdio.h>\n\nint x;\n\n#define N 3\n/* Reads a line. */\nint read(void) {\n    return N;\n}\n", "read", 6, 9},
		{"a.php", "<?php\n\nuse A\\B;\n\n/** Reads. */\n#[Pure]\nfunction read() {\n    return 1;\n}\n", "read", 5, 9},
		{"a.cpp", "#include <vector>\n\nint x;\n\n// Sums.\ntemplate <typename T>\nT sum(T a, T b) {\n    return a + b;\n}\n", "sum", 5, 9},
	} {
		us := paddedUnits(tc.path, tc.src)
		var got *unit
		for _, u := range us {
			if u.symbol == tc.symbol {
				got = u
			}
		}
		if got == nil {
			t.Errorf("%s: no unit for %s", tc.path, tc.symbol)
			continue
		}
		if got.from != tc.from || got.to != tc.to {
			t.Errorf("%s: %s is lines %d-%d, want %d-%d", tc.path, tc.symbol, got.from, got.to, tc.from, tc.to)
		}
	}
}

// A definition's own imports (a function's require, a local import) stay
// in its unit: the file's imports end before the first definition, and
// a file with none at its top has no imports unit.
func TestLocalImportsStayInTheirDefinition(t *testing.T) {
	helpers := func(b *strings.Builder, format string) {
		for i := range 40 {
			fmt.Fprintf(b, format, i)
		}
	}
	var js strings.Builder
	js.WriteString("const fs = require('fs');\n\nfunction loadConfig(file) {\n  const path = require('path');\n  return JSON.parse(fs.readFileSync(path.resolve(file), 'utf8'));\n}\n\n")
	helpers(&js, "function helper%d(x) {\n  return x + 1;\n}\n\n")
	var py strings.Builder
	py.WriteString("\"\"\"Command line.\"\"\"\nVERSION = \"1.0\"\n\n\ndef parse_timeout(value):\n    \"\"\"Parse a timeout.\"\"\"\n    import re\n    return re.match(r\"\\d+\", value)\n\n")
	helpers(&py, "def helper%d(x):\n    return x + 1\n\n")
	for _, tt := range []struct {
		path, src string
		want      []string
		absent    string
	}{
		{"src/config.js", js.String(), []string{"src/config.js:1-1 imports", "src/config.js:3-6 loadConfig"}, ""},
		{"app/cli.py", py.String(), []string{"app/cli.py:5-8 parse_timeout"}, "imports"},
	} {
		lines := strings.Split(strings.TrimRight(tt.src, "\n"), "\n")
		var names []string
		for _, u := range fileUnits(0, tt.path, structure.LanguageOfLines(tt.path, lines), lines, nil, 0.9, concepts{}, unitWeights) {
			names = append(names, u.name(tt.path))
		}
		for _, w := range tt.want {
			if !slices.Contains(names, w) {
				t.Errorf("%s: no unit %q among %v", tt.path, w, names[:min(len(names), 6)])
			}
		}
		if tt.absent != "" && slices.ContainsFunc(names, func(n string) bool { return strings.HasSuffix(n, " "+tt.absent) }) {
			t.Errorf("%s: a unit of %s among %v", tt.path, tt.absent, names[:min(len(names), 6)])
		}
	}
}

// TestNestedDefinitionsName: a function whose nested functions are units
// of their own is cut into runs of its other lines; each run is named as
// part of it, in the block's title and in the lists, not left nameless (a
// review saw an HTTP client's request function shown as "http.js (lines
// 373-412)").
func TestNestedDefinitionsName(t *testing.T) {
	var b strings.Builder
	b.WriteString("const fetchy = require('fetchy');\n\n")
	b.WriteString("function sendHttpRequest(config) {\n")
	for i := range 50 {
		fmt.Fprintf(&b, "  const v%d = config.value%d;\n", i, i)
	}
	b.WriteString("  function onTimeout() {\n    reject(new Error('timeout'));\n  }\n")
	for i := range 50 {
		fmt.Fprintf(&b, "  const w%d = config.other%d;\n", i, i)
	}
	b.WriteString("}\n\nfunction after() {\n  return 1;\n}\n")
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	us := fileUnits(0, "lib/http.js", structure.LanguageOfLines("lib/http.js", lines), lines, nil, 0.9, concepts{}, unitWeights)
	parts := 0
	for _, u := range us {
		inOuter := u.why == "lines" && u.to >= 3 && u.from <= 107 // the function's own lines: 3-107
		switch {
		case u.symbol == "onTimeout":
			if u.within != "" {
				t.Errorf("the nested function's own unit says within %q", u.within)
			}
		case inOuter:
			parts++
			if u.within != "sendHttpRequest" {
				t.Errorf("lines %d-%d of sendHttpRequest say within %q", u.from, u.to, u.within)
			}
			if name := u.name("lib/http.js"); !strings.HasSuffix(name, " part of sendHttpRequest") {
				t.Errorf("lines %d-%d listed as %q", u.from, u.to, name)
			}
		case u.symbol == "after" || u.why == "imports":
		default:
			if u.within != "" {
				t.Errorf("lines %d-%d (%s %q) say within %q", u.from, u.to, u.why, u.symbol, u.within)
			}
		}
	}
	if parts < 2 {
		t.Fatalf("%d runs of sendHttpRequest's own lines: the test tests nothing", parts)
	}
	// Two runs of it in one block name it once.
	for _, u := range us {
		u.chosen = u.why == "lines" && u.to <= 53
	}
	blocks := layout([]hone.File{{Path: "lib/http.js"}}, [][]string{lines}, langsOf([]hone.File{{Path: "lib/http.js"}}, [][]string{lines}), us)
	if len(blocks) == 0 || !strings.Contains(blocks[0].text, ": part of sendHttpRequest (lines") {
		t.Errorf("block title: %.120q", blocks[0].text)
	}
}

// The lines between definitions go in runs that end at a blank line or a
// comment's edge, never in a comment's middle: a comment that a run's
// cut would split starts the next run, and one longer than a run (a
// doc comment too long for its definition's preamble) goes whole.
func TestGapRunsKeepComments(t *testing.T) {
	comment := func(prefix string, n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%s line %d of the comment\n", prefix, i)
		}
		return b.String()
	}
	vars := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "var v%d = %d\n", i, i)
		}
		return b.String()
	}
	tests := []struct {
		name, path, src string
		from, to        int // the comment's lines
	}{
		{"a long doc comment", "a.go", "package a\n\n" + vars(3) + "\n" + comment("//", 46) + "func F() {\n\treturn\n}\n" + vars(90), 7, 52},
		{"a comment the cut would split", "a.go", "package a\n\n" + vars(30) + comment("//", 20) + vars(90), 33, 52},
		{"a block comment", "a.c", "int a;\n" + vars(30) + "/*\n" + comment(" ", 20) + "*/\n" + vars(90), 32, 53},
		{"Python's comments", "a.py", "X = 1\n" + strings.ReplaceAll(vars(30), "var ", "") + comment("#", 60) + strings.ReplaceAll(vars(90), "var ", ""), 32, 91},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := strings.Split(strings.TrimRight(tt.src, "\n"), "\n")
			for _, l := range []int{tt.from, tt.to} {
				if !strings.Contains(lines[l-1], "comment") && strings.Trim(lines[l-1], "/*\" ") != "" {
					t.Fatalf("line %d is %q, not the comment's", l, lines[l-1])
				}
			}
			for _, u := range fileUnits(0, tt.path, structure.LanguageOfLines(tt.path, lines), lines, nil, 1, concepts{}, unitWeights) {
				if u.from > tt.from && u.from <= tt.to {
					t.Errorf("unit %d-%d (%s %s) starts in the comment's lines %d-%d", u.from, u.to, u.why, u.symbol, tt.from, tt.to)
				}
				if u.why == "lines" && u.to-u.from+1 > maxComment {
					t.Errorf("unit %d-%d is longer than %d lines", u.from, u.to, maxComment)
				}
			}
		})
	}
}

// A type that holds values or fields only is one unit while short; a long
// one (a C enum of many parameters, a Go struct of many fields) is cut
// into runs of lines, so that the value a change needs goes in without
// the rest, each run named as part of the type.
func TestLongDataTypeIsCut(t *testing.T) {
	enum := func(n int) string {
		var b strings.Builder
		b.WriteString("typedef enum {\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "    /* parameter %d */\n    param_%d = %d,\n", i, i, i)
		}
		b.WriteString("} params_t;\n")
		return b.String()
	}
	fields := func(n int) string {
		var b strings.Builder
		b.WriteString("type Engine struct {\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\tField%d int\n", i)
		}
		b.WriteString("}\n")
		return b.String()
	}
	fn := "\nint use(void)\n{\n    return 0;\n}\n" + strings.Repeat("int pad;\n", 80)
	tests := []struct {
		name, path, src string
		symbol          string // the type's name
		whole           bool   // whether the type is one unit
	}{
		{"a short C enum", "p.h", enum(10) + fn, "params_t", true},
		{"a long C enum", "p.h", enum(60) + fn, "params_t", false},
		{"a short Go struct", "e.go", "package e\n\n" + fields(20) + strings.Repeat("var pad int\n", 80), "Engine", true},
		{"a long Go struct", "e.go", "package e\n\n" + fields(100) + strings.Repeat("var pad int\n", 80), "Engine", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := strings.Split(strings.TrimRight(tt.src, "\n"), "\n")
			whole, longest, parts := false, 0, 0
			for _, u := range fileUnits(0, tt.path, structure.LanguageOfLines(tt.path, lines), lines, nil, 1, concepts{}, unitWeights) {
				if u.symbol == tt.symbol {
					whole = true
				}
				if u.within == tt.symbol {
					parts++
				}
				longest = max(longest, u.to-u.from+1)
			}
			if !tt.whole && parts < 2 {
				t.Errorf("%d runs named as part of %s, want the type's runs", parts, tt.symbol)
			}
			if whole != tt.whole {
				t.Errorf("%s a unit: %v, want %v", tt.symbol, whole, tt.whole)
			}
			if !tt.whole && longest > maxGap {
				t.Errorf("a unit of %d lines, want runs of %d at most", longest, maxGap)
			}
		})
	}
}

func TestLongDocstringIsCut(t *testing.T) {
	// doc is a docstring of n lines, its quotes on lines of their own,
	// indented by ind, a blank line every tenth.
	doc := func(ind string, n int) string {
		var b strings.Builder
		b.WriteString(ind + `"""Summary of the function.` + "\n")
		for i := 2; i < n; i++ {
			if i%10 == 0 {
				b.WriteString("\n")
				continue
			}
			fmt.Fprintf(&b, "%s    param_%d : int, what it sets\n", ind, i)
		}
		b.WriteString(ind + `"""` + "\n")
		return b.String()
	}
	pad := strings.Repeat("\ndef pad():\n    return 0\n", 30)
	type part struct {
		from, to int
		body     bool // the definition's own unit, else a run within it
	}
	tests := []struct {
		name, path, src string
		symbol          string
		want            []part // the units of the definition, in order
		spans           []hone.Span
	}{
		{"a long docstring: signature, docstring, body", "m.py",
			"import os\n\ndef load(path):\n" + doc("    ", 30) + "    x = os.path.join(path)\n    return x\n" + pad,
			"load", []part{{3, 3, true}, {4, 33, false}, {34, 35, true}}, nil},
		{"decorators and a signature over lines, a '#' in a default", "m.py",
			"import os\n\n@cache\n@other(1)\ndef load(path,\n         sep='#',  # the separator\n         ):\n" + doc("    ", 25) + "    return sep\n" + pad,
			"load", []part{{3, 7, true}, {8, 32, false}, {33, 33, true}}, nil},
		{"a method's docstring in a class", "m.py",
			"import os\n\nclass Loader:\n    def load(self):\n" + doc("        ", 22) + "        return 1\n\n    def other(self):\n        return 2\n" + pad,
			"Loader.load", []part{{4, 4, true}, {5, 26, false}, {27, 27, true}}, nil},
		{"a docstring longer than a run goes in runs", "m.py",
			"import os\n\ndef load(path):\n" + doc("    ", 70) + "    return path\n" + pad,
			"load", []part{{3, 3, true}, {4, 43, false}, {44, 73, false}, {74, 74, true}}, nil},
		{"a short docstring stays", "m.py",
			"import os\n\ndef load(path):\n" + doc("    ", 10) + "    return path\n" + strings.Repeat("    path += 1\n", 20) + pad,
			"load", []part{{3, 34, true}}, nil},
		{"a docstring with no code after it stays", "m.py",
			"import os\n\ndef load(path):\n" + doc("    ", 30) + pad,
			"load", []part{{3, 33, true}}, nil},
		{"a string that is no docstring stays", "m.py",
			"import os\n\ndef load(path):\n    x = 1\n" + strings.Replace(doc("    ", 30), `"""Summary`, `y = """Summary`, 1) + "    return x\n" + pad,
			"load", []part{{3, 35, true}}, nil},
		{"a one-line docstring stays", "m.py",
			"import os\n\ndef load(path):\n    \"\"\"Load it.\"\"\"\n" + strings.Repeat("    path += 1\n", 30) + pad,
			"load", []part{{3, 34, true}}, nil},
		{"a comment after a quoted default, brackets in a string", "m.py",
			"import os\n\ndef load(path, mode=\"r\", sep=\"(\"):  # noqa: D401\n" + doc("    ", 25) + "    return sep\n" + pad,
			"load", []part{{3, 3, true}, {4, 28, false}, {29, 29, true}}, nil},
		{"a decorator and a comment above the definition", "m.py",
			"import os\n\n@cache\n# Load it.\ndef load(path):\n" + doc("    ", 25) + "    return path\n" + pad,
			"load", []part{{3, 5, true}, {6, 30, false}, {31, 31, true}}, nil},
		{"a span from the blank line above a method", "m.py",
			"import os\n\nclass Loader:\n    x = 1\n\n    def load(self):\n" + doc("        ", 25) + "        return 1\n" + pad,
			"load", []part{{5, 6, true}, {7, 31, false}, {32, 32, true}}, []hone.Span{{Start: 5, End: 32, Symbol: "load", Why: "match"}}},
		{"a span from a statement in a body stays", "m.py",
			"import os\n\ndef outer():\n    y = 2\n    def load(self):\n" + doc("        ", 25) + "        return 1\n    return y\n" + pad,
			"inner", []part{{4, 32, true}}, []hone.Span{{Start: 4, End: 32, Symbol: "inner", Why: "match"}}},
		{"not Python: a JavaScript doc comment stays", "m.js",
			"import os from 'os';\n\nfunction load(path) {\n" + strings.Repeat("  // a comment line\n", 30) + "  return path;\n}\n" + strings.Repeat("\nfunction pad() {\n  return 0;\n}\n", 30),
			"load", []part{{3, 35, true}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := strings.Split(strings.TrimRight(tt.src, "\n"), "\n")
			var got []part
			for _, u := range fileUnits(0, tt.path, structure.LanguageOfLines(tt.path, lines), lines, tt.spans, 1, concepts{}, unitWeights) {
				switch {
				case u.symbol == tt.symbol:
					got = append(got, part{u.from, u.to, true})
				case u.within == tt.symbol:
					got = append(got, part{u.from, u.to, false})
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units of %s: %v, want %v", tt.symbol, got, tt.want)
			}
		})
	}
}
