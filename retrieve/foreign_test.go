package retrieve

import (
	"context"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
)

// foreignRepo is a project that keeps a decimal library of another's
// under a folder with the library's licence, beside its own number code
// and a glue file of its own in that folder.
func foreignRepo(t *testing.T) *index.Index {
	t.Helper()
	repo := writeFiles(t, map[string]string{
		"LICENSE":                      "MIT\n",
		"src/number.c":                 "/* numbers */\nint num_make(double d) { return 0; }\n",
		"src/decimal/ICU-license.html": "<p>ICU License</p>\n",
		"src/decimal/decNumber.c":      "/* Copyright (c) IBM Corporation, 2000. */\n/* decimal numbers */\nint decNumberFromString(const char *s) { return 0; }\n",
		"src/decimal/glue.c":           "int decimal_glue(void) { return 0; }\n",
	})
	ix, err := buildIndex(repo, index.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// Another project's code kept with its own licence (index.Foreign) weighs
// as vendored code does, unless the task is about such code; the
// project's own file beside it, with no notice, weighs in full.
func TestPriorForeign(t *testing.T) {
	ix := foreignRepo(t)
	for _, tt := range []struct {
		task, path string
		want       float64
	}{
		{"large decimal numbers lose precision", "src/decimal/decNumber.c", priorVendored},
		{"large decimal numbers lose precision", "src/decimal/glue.c", 1},
		{"large decimal numbers lose precision", "src/number.c", 1},
		{"update the vendored decimal dependency", "src/decimal/decNumber.c", 1},
	} {
		tp := parseTask(tt.task, ix)
		if got := prior(ix, ix.Entry(tt.path), tp); got != tt.want {
			t.Errorf("prior(%s) for %q = %v, want %v", tt.path, tt.task, got, tt.want)
		}
	}
}

// The trace says why another project's code weighs less.
func TestReasonForeign(t *testing.T) {
	ix := foreignRepo(t)
	res, err := RetrieveIndex(context.Background(), ix, "decimal numbers lose precision", hone.Options{NoHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for _, c := range res.Cycles {
		for _, e := range c.Evaluated {
			if e.Path == "src/decimal/decNumber.c" {
				seen = true
				if !strings.Contains(e.Reason, "another project's code") {
					t.Errorf("reason for %s = %q, want it to say it is another project's code", e.Path, e.Reason)
				}
			}
		}
	}
	if !seen {
		t.Fatal("src/decimal/decNumber.c was not evaluated")
	}
}
