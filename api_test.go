package hone_test

import (
	"errors"
	"math"

	"os/exec"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
)

// The root package is the API alone: it imports the standard library and
// nothing else, so that a program reading results needs no cgo, no
// SQLite and no parser.
func TestAPIImportsTheStandardLibraryAlone(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{len .CgoFiles}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		if f[0] == "github.com/hone-tools/hone" {
			continue
		}
		if f[1] != "true" || f[2] != "0" {
			t.Errorf("the root package depends on %s (standard %s, cgo files %s)", f[0], f[1], f[2])
		}
	}
}

func TestOptionsCheck(t *testing.T) {
	ok := hone.Options{MaxCycles: 3, Threshold: 0.7, Candidates: 25, MaxFiles: 10}
	for _, tt := range []struct {
		name string
		edit func(*hone.Options)
		err  string
		// option is the field OptionError names
		option string
	}{
		{"the defaults", func(*hone.Options) {}, "", ""},
		{"no cycles", func(o *hone.Options) { o.MaxCycles = 0 }, "max cycles must be between 1 and 10, not 0", "MaxCycles"},
		{"too many cycles", func(o *hone.Options) { o.MaxCycles = 11 }, "max cycles", "MaxCycles"},
		{"threshold NaN", func(o *hone.Options) { o.Threshold = math.NaN() }, "threshold must be in (0, 1], not NaN", "Threshold"},
		{"threshold over 1", func(o *hone.Options) { o.Threshold = 1.5 }, "threshold", "Threshold"},
		{"no files", func(o *hone.Options) { o.MaxFiles = 0 }, "max files must be at least 1", "MaxFiles"},
		{"no candidates", func(o *hone.Options) { o.Candidates = 0 }, "candidates must be between 1 and 10000, not 0", "Candidates"},
		{"candidates past any search", func(o *hone.Options) { o.Candidates = 230584300921369396 }, "candidates must be between 1 and 10000", "Candidates"},
		{"a bad glob", func(o *hone.Options) { o.Include = []string{"src/[a"} }, `bad glob "src/[a"`, "Include"},
		{"an unbalanced brace", func(o *hone.Options) { o.Exclude = []string{"{a,b"} }, "bad glob", "Exclude"},
		{"an empty glob", func(o *hone.Options) { o.Include = []string{"src/**", ""} }, "an empty glob matches no file: leave it out", "Include"},
	} {
		o := ok
		tt.edit(&o)
		err := o.Check()
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
		}
		var oe *hone.OptionError
		if err != nil && !errors.As(err, &oe) {
			t.Errorf("%s: %T is no OptionError", tt.name, err)
		}
		if oe != nil && oe.Option != tt.option {
			t.Errorf("%s: the error names option %q, want %q", tt.name, oe.Option, tt.option)
		}
	}
	if _, err := (hone.Options{}).WithDefaults(); err != nil {
		t.Errorf("the zero options: %v", err)
	}
}

func TestTaskText(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		err      error
	}{
		{"fix the token expiry", "fix the token expiry", nil},
		{"fix \xff\xfe token expiry", "fix \uFFFD token expiry", nil},
		{"token\xc3", "token\uFFFD", nil},
		{"\xff\xfe", "\uFFFD", hone.ErrNotText},
		{" \xff\n\xfe ", " \uFFFD\n\uFFFD ", hone.ErrNotText},
		{"\uFFFD\uFFFD", "\uFFFD\uFFFD", hone.ErrNotText},
		{"", "", nil},
		{"  ", "  ", nil},
	} {
		got, err := hone.TaskText(tt.in)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("TaskText(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// A threshold is written to two places, or with all of its own where it
// has more, so that no file shown at 0.66 seems to reach a threshold of
// 0.664.
func TestThresholdText(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want string
	}{
		{0.7, "0.70"}, {0.05, "0.05"}, {1, "1.00"}, {0.664, "0.664"}, {0.1234, "0.1234"}, {0.29, "0.29"},
	} {
		if got := hone.ThresholdText(tt.in); got != tt.want {
			t.Errorf("ThresholdText(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
