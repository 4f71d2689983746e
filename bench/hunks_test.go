package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseHunks(t *testing.T) {
	diff := `diff --git a/src/app.go b/src/app.go
index 1111111..2222222 100644
--- a/src/app.go
+++ b/src/app.go
@@ -10,7 +10,8 @@ func main() {
 a
@@ -40 +41,2 @@ func other() {
-x
@@ -55,0 +57,3 @@
+added
diff --git a/docs/new.md b/docs/new.md
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/docs/new.md
@@ -0,0 +1,4 @@
+# New
diff --git a/b.c b/b.c
--- a/b.c
+++ b/b.c
@@ -1,3 +1,2 @@
 int x;
diff --git a/Parsable Properties/Option.swift b/Parsable Properties/Option.swift
--- a/Parsable Properties/Option.swift	
+++ b/Parsable Properties/Option.swift	
@@ -5,6 +5,7 @@
diff --git "a/\303\251t\303\251.txt" "b/\303\251t\303\251.txt"
--- "a/\303\251t\303\251.txt"
+++ "b/\303\251t\303\251.txt"
@@ -2,3 +2,3 @@
diff --git "a/say \"hi\".md" "b/say \"hi\".md"
--- "a/say \"hi\".md"
+++ "b/say \"hi\".md"
@@ -1 +1 @@
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
`
	want := []Hunk{
		{"src/app.go", 10, 16},
		{"src/app.go", 40, 40},
		{"src/app.go", 55, 55}, // only adds: the line it follows
		{"docs/new.md", 0, 0},  // created
		{"b.c", 1, 3},
		{"Parsable Properties/Option.swift", 5, 10}, // git ends a path with a space with a tab
		{"été.txt", 2, 4},                           // quoted, with C escapes
		{`say "hi".md`, 1, 1},
		{"gone.txt", 1, 2}, // deleted: the diff --git line's path
	}
	if got := ParseHunks([]byte(diff)); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseHunks =\n%+v\nwant\n%+v", got, want)
	}
	if got := ParseHunks([]byte("not a diff\n@@ -1,2 +1,2 @@\n")); got != nil {
		t.Errorf("ParseHunks of no diff = %+v", got)
	}
}

func TestAddHunks(t *testing.T) {
	dir, commit := scratchRepo(t)
	lines := func(n int, change int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if i == change {
				b.WriteString("changed\n")
			} else {
				fmt.Fprintf(&b, "line %d\n", i)
			}
		}
		return b.String()
	}
	base := commit("Start", map[string]string{"a.txt": lines(30, 0), "other.txt": "x\n"})
	head := commit("Change", map[string]string{"a.txt": lines(30, 20), "other.txt": "y\n", "new.txt": "n\n"})
	in := fmt.Sprintf(`{"instance_id": "x-1", "repo": "o/r", "base_commit": %q, "commit": %q, "gold_files": ["a.txt", "new.txt"]}
{"instance_id": "x-2", "repo": "o/r", "gold_files": ["a.txt"], "gold_hunks": []}
`, base, head)
	var out bytes.Buffer
	n, err := AddHunks(context.Background(), strings.NewReader(in), &out, Repos{Mapping: map[string]string{"o/r": filepath.Join(dir, ".git")}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("added %d, want 1", n)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != 2 || !strings.HasSuffix(got[0], `"gold_files": ["a.txt", "new.txt"], "gold_hunks": [{"path":"a.txt","start":17,"end":23},{"path":"new.txt","start":0,"end":0}]}`) {
		t.Errorf("AddHunks wrote:\n%s", out.String())
	}
	if len(got) == 2 && got[1] != strings.Split(in, "\n")[1] {
		t.Errorf("a line with gold_hunks changed: %s", got[1])
	}
	if _, err := AddHunks(context.Background(), strings.NewReader(`{"repo": "o/r", "gold_files": ["a.txt"]}`), &out, Repos{}); err == nil {
		t.Error("a line with no commit was given hunks")
	}
}

func TestWholeChange(t *testing.T) {
	dir, commit := scratchRepo(t)
	base := commit("Start", map[string]string{
		"src/a.go": "package a\n", "CHANGELOG.md": "# Changes\n", "docs/a.md": "A\n",
		"src/a_test.go": "package a\n", "gone.txt": "x\n",
	})
	head := commit("Change", map[string]string{
		"src/a.go": "package a\n\nfunc A() {}\n", "CHANGELOG.md": "# Changes\n\n- A\n", "docs/a.md": "A, now\n",
		"src/a_test.go": "package a\n\n// tested\n", "src/new.go": "package a\n",
	}, "gone.txt")
	in := fmt.Sprintf(`{"instance_id": "x-1", "repo": "o/r", "base_commit": %q, "commit": %q, "problem_statement": "add A", "gold_files": ["src/a.go"], "gold_hunks": [{"path": "src/a.go", "start": 1, "end": 1}]}
`, base, head)
	var out bytes.Buffer
	n, err := WholeChange(context.Background(), strings.NewReader(in), &out, Repos{Mapping: map[string]string{"o/r": filepath.Join(dir, ".git")}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("changed %d, want 1", n)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("WholeChange wrote %s: %v", out.String(), err)
	}
	// Modified in place, tests aside: the file added (src/new.go) and
	// the one deleted (gone.txt) are no gold, as in the set's own making.
	if g := fmt.Sprint(got["gold_files"]); g != "[CHANGELOG.md docs/a.md src/a.go]" {
		t.Errorf("gold_files %s, want [CHANGELOG.md docs/a.md src/a.go]", g)
	}
	if _, ok := got["gold_hunks"]; ok {
		t.Error("gold_hunks kept: AddHunks gives them anew")
	}
	if got["problem_statement"] != "add A" || got["instance_id"] != "x-1" {
		t.Errorf("the instance's other fields changed: %v", got)
	}
	if _, err := WholeChange(context.Background(), strings.NewReader(`{"repo": "o/r", "gold_files": ["a.txt"]}`), &out, Repos{}); err == nil {
		t.Error("a line with no commit was given a whole change")
	}
}

func TestInstanceCreated(t *testing.T) {
	tests := []struct {
		name  string
		gold  []string
		hunks []Hunk
		want  []string
	}{
		{"no hunks", []string{"a.go"}, nil, nil},
		{"changed", []string{"a.go"}, []Hunk{{"a.go", 3, 9}}, nil},
		{"created", []string{"a.go", "b.go"}, []Hunk{{"a.go", 3, 9}, {"b.go", 0, 0}}, []string{"b.go"}},
		// A file with a hunk at 0 and one at a line was there before.
		{"both", []string{"a.go"}, []Hunk{{"a.go", 0, 0}, {"a.go", 5, 6}}, nil},
		{"no hunk of its own", []string{"a.go", "c.go"}, []Hunk{{"a.go", 0, 0}}, []string{"a.go"}},
	}
	for _, tt := range tests {
		in := Instance{Gold: tt.gold, GoldHunks: tt.hunks}
		if got := in.created(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: created %q, want %q", tt.name, got, tt.want)
		}
	}
}
