package hone_test

import (
	"os/exec"
	"strings"
	"testing"
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
