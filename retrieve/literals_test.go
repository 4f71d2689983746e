package retrieve

import (
	"slices"
	"testing"
)

func TestDeclaredKeys(t *testing.T) {
	for _, tt := range []struct {
		task string
		want []string
	}{
		{"`--deep=y` ignores `skip-paths`", []string{"--deep", "skip-paths"}},
		{"pytest --collect-only -q shows nothing", []string{"--collect-only"}},
		{"forms.E214 is raised, and W0511 too; flake8 says E501", []string{"forms.E214", "W0511", "E501"}},
		{"too-many-locals fires in src/my-app/x.py, see https://github.com/lintkit-dev/lintkit", []string{"too-many-locals"}},
		{"plain words, utf-8 text and a 2023-05-10 date", nil},
		{"a--b and ---- rules", nil},
		{"(too-many-locals) (empty-comment), then --a-flag --b-flag.", []string{"too-many-locals", "--a-flag", "--b-flag"}},
		{"a built-in re-save of the `python-bits` key and \"dry-run\"", []string{"python-bits", "dry-run"}},
	} {
		if got := declaredKeys(tt.task); !slices.Equal(got, tt.want) {
			t.Errorf("declaredKeys(%q) = %q, want %q", tt.task, got, tt.want)
		}
	}
}

func TestDeclares(t *testing.T) {
	lines := []string{
		`    ("notes", {"default": ("FIXME", "XXX")}),`,
		`    parser.addoption("--collect-only", action="store_true")`,
		`        "W0511": ("%s", "fixme", "Used when a warning note is detected"),`,
		`    # ignore-paths is read elsewhere`,
		`            id="admin.E108",`,
		`    note = "see E116 in the docs"`,
	}
	for _, tt := range []struct {
		keys []string
		want float64
	}{
		{[]string{"--notes"}, 1},
		{[]string{"--collect-only", "W0511"}, 1},
		{[]string{"ignore-paths"}, 0}, // in a comment, not a literal
		{[]string{"--notes", "E501"}, 0.5},
		{[]string{"E108"}, 1},                  // namespaced, "admin.E108"
		{[]string{"E116"}, 0},                  // inside prose in a string
		{[]string{"min.E108", "in.E108"}, 0.0}, // a part of a literal is no key
		{nil, 0},
	} {
		got := 0.0
		if len(tt.keys) > 0 {
			got = float64(len(declared(lines, tt.keys))) / float64(len(tt.keys))
		}
		if got != tt.want {
			t.Errorf("share of %q declared = %v, want %v", tt.keys, got, tt.want)
		}
	}
}

func FuzzDeclaredKeys(f *testing.F) {
	f.Add("`--recursive=y` ignores `ignore-paths`, admin.E108, W0511")
	f.Fuzz(func(t *testing.T, task string) {
		keys := declaredKeys(task)
		if len(keys) > maxKeys {
			t.Fatalf("%d keys", len(keys))
		}
		declared([]string{task}, keys)
	})
}
