package structure_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/structure"
)

var update = flag.Bool("update", false, "rewrite testdata/patterns.golden with the line patterns' outlines and the index's format")

// TestPatternsNeedFormat: an index keeps the definitions the line patterns
// made when it read each file, so a change to what the patterns make must
// come with a new index format, or an index of the old one answers from
// the old definitions until its files change. The golden file holds the
// outlines of testdata's files and the format they were made under: when
// the outlines change and the format has not, the test fails.
func TestPatternsNeedFormat(t *testing.T) {
	var files []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "fuzz" {
			return filepath.SkipDir
		}
		if !d.IsDir() && !strings.HasSuffix(p, ".golden") {
			files = append(files, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	var b strings.Builder
	for _, p := range files {
		src, err := os.ReadFile(filepath.FromSlash(p))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s\n", p)
		for _, d := range structure.ExtractFallback(p, src).Defs {
			fmt.Fprintf(&b, "  %d-%d %s %s %s\n", d.Line, d.EndLine, d.Kind, d.Container, d.Name)
		}
	}
	got := b.String()
	const golden = "testdata/patterns.golden"
	data, err := os.ReadFile(golden)
	if err != nil && !(*update && os.IsNotExist(err)) {
		t.Fatalf("%v: run go test ./structure -run TestPatternsNeedFormat -update", err)
	}
	head, want, _ := strings.Cut(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	format := strings.TrimPrefix(head, "index format ")
	raise := fmt.Sprintf("the line patterns' outlines changed under index format %s: raise schemaVersion in index/store.go, then run go test ./structure -run TestPatternsNeedFormat -update", format)
	switch {
	case got != want && format == index.SchemaVersion:
		// -update too: a new golden under the same format would let
		// the indexes of that format keep their old definitions.
		t.Fatalf("%s\n%s", raise, lineDiff(want, got))
	case *update:
		if err := os.WriteFile(golden, []byte("index format "+index.SchemaVersion+"\n"+got), 0o644); err != nil {
			t.Fatal(err)
		}
	case format != index.SchemaVersion:
		t.Fatalf("the golden's outlines were made under index format %s, the index's is %s: run go test ./structure -run TestPatternsNeedFormat -update", format, index.SchemaVersion)
	}
}

// lineDiff lists the lines of want that got lacks (-) and of got that want
// lacks (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
