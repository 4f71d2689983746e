package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Without a C compiler hone still builds: CGO_ENABLED=0 gives a binary
// whose outlines come from the line patterns, which says so and
// retrieves. A program of the API and packs alone builds so too.
func TestBuildsWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hone without cgo")
	}
	noCgo := []string{"CGO_ENABLED=0"}
	bin := buildHone(t, noCgo...)
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "outlines:     line patterns") {
		t.Fatalf("hone version: %v\n%s", err, out)
	}
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "repos", "auth-expiry"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "retrieve", "--json", "--repo", fixture, "fix the auth token expiry bug")
	cmd.Env = append(cmd.Environ(), "HONE_INDEX_DIR="+t.TempDir())
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"path": "src/auth/tokens.ts"`) {
		t.Fatalf("hone retrieve without cgo: %v\n%s", err, out)
	}
	cmd = exec.Command(bin, "status", "--json", "--repo", fixture)
	cmd.Env = append(cmd.Environ(), "HONE_INDEX_DIR="+t.TempDir())
	if out, err = cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), `"parser": "line patterns"`) {
		t.Fatalf("hone status without cgo: %v\n%s", err, out)
	}
	goBuild(t, noCgo, "github.com/hone-tools/hone", "github.com/hone-tools/hone/pack")
}
