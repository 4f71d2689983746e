package retrieve

import (
	"context"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
)

func TestMirrors(t *testing.T) {
	for _, c := range []struct {
		test, src string
		want      bool
	}{
		{"tests", "requests", true},
		{"sympy/core/tests", "sympy/core", true},
		{"src/test/java/com/acme", "src/main/java/com/acme", true},
		{"test/com/acme", "src/main/java/com/acme/web", true},
		{"internal/xds/clients/internal", "internal", false},
		{"tests/web", "app/api", false},
	} {
		if got := mirrors(c.test, c.src); got != c.want {
			t.Errorf("mirrors(%q, %q) = %v, want %v", c.test, c.src, got, c.want)
		}
	}
	for p, want := range map[string]bool{"testdata/x509/create.sh": true, "tests/fixtures/a_test.py": true, "tests/test_a.py": false} {
		if got := dataPath(p); got != want {
			t.Errorf("dataPath(%q) = %v, want %v", p, got, want)
		}
	}
	for lang, want := range map[string]bool{"python": true, "shell": true, "": true, "html": false, "json": false, "text": false, "yaml": false} {
		if got := runnable(lang); got != want {
			t.Errorf("runnable(%q) = %v, want %v", lang, got, want)
		}
	}
}

// A test belongs to the code it sits beside, mirrors or imports; one of
// the same name in another package, a script among test data, or a
// template or data file among the tests, is not a test to run.
func TestRelatedTestsBelong(t *testing.T) {
	repo := writeFiles(t, map[string]string{
		"internal/internal.go":                  "package internal\n\n// ExpireTokens drops expired tokens.\nfunc ExpireTokens() {}\n",
		"internal/internal_test.go":             "package internal\n\nimport \"testing\"\n\nfunc TestExpireTokens(t *testing.T) { ExpireTokens() }\n",
		"xds/clients/internal/internal.go":      "package internal\n\nfunc Other() {}\n",
		"xds/clients/internal/internal_test.go": "package internal\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) { Other() }\n",
		"testdata/x509/internal_test.sh":        "#!/bin/sh\n# expire tokens\necho ExpireTokens\n",
		"tests/templates/internal.html":         "<p>{{ ExpireTokens }}</p>\n",
		"tests/expected/internal.json":          "{\"ExpireTokens\": true}\n",
	})
	res, err := Retrieve(context.Background(), repo, "expire tokens", hone.Options{IndexDir: t.TempDir(), MaxCycles: 1, Threshold: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, rt := range res.RelatedTests {
		got = append(got, rt.Path)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "internal/internal.go" {
		t.Fatalf("files %v: want internal/internal.go first", res.Files)
	}
	if !slices.Contains(got, "internal/internal_test.go") {
		t.Errorf("related tests %v lack internal/internal_test.go", got)
	}
	// A template or a data file among the tests is read by them, not run.
	for _, not := range []string{"xds/clients/internal/internal_test.go", "testdata/x509/internal_test.sh", "tests/templates/internal.html", "tests/expected/internal.json"} {
		if slices.Contains(got, not) {
			t.Errorf("related tests %v hold %s", got, not)
		}
	}
}

// Of the tests that import a result file, the one that matches the task
// comes first, and says so, though others use more of the file's first
// definitions.
func TestRelatedTestsMatchTheTask(t *testing.T) {
	files := map[string]string{
		"app/options.py": "def parse_args(a):\n    return a\n\n\ndef parse_value(v):\n    return v\n\n\ndef parse_flags(f):\n    return f\n\n\n" +
			"def parse_environ(e):\n    return e\n\n\ndef show_default(option):\n    \"\"\"The default shown in an option's help text.\"\"\"\n    return option.default\n",
		"tests/test_help.py": "from app.options import show_default\n\n\ndef test_callable_default_in_help():\n    # the help text shows a callable default's value\n    assert show_default(None) is None\n",
	}
	for _, name := range []string{"args", "value", "flags", "environ"} {
		files["tests/test_parse_"+name+".py"] = "from app.options import parse_args, parse_value, parse_flags, parse_environ\n\n\ndef test_parse():\n    assert parse_args(parse_value(parse_flags(parse_environ(1)))) == 1\n"
	}
	res, err := Retrieve(context.Background(), writeFiles(t, files), "the help text shows the wrong default when the default is a callable", hone.Options{IndexDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) == 0 || res.Files[0].Path != "app/options.py" {
		t.Fatalf("files %+v, want app/options.py first", res.Files)
	}
	if len(res.RelatedTests) == 0 || res.RelatedTests[0].Path != "tests/test_help.py" || res.RelatedTests[0].Reason != "matches the task, imports it" {
		t.Errorf("related tests %+v, want tests/test_help.py first, matching the task", res.RelatedTests)
	}
}
