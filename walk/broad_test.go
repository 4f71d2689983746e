package walk

import (
	"os"
	"path/filepath"
	"testing"
)

// The file system's root and the user's home are too broad however they
// are written: "/tmp/..", "//", "/.", a link to either; a folder in them
// is not.
func TestTooBroad(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	tmp := t.TempDir()
	toRoot, toHome := filepath.Join(tmp, "root"), filepath.Join(tmp, "home")
	if err := os.Symlink("/", toRoot); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Symlink(home, toHome); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(home, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{
		"/": true, "//": true, "/.": true, "/tmp/..": true, toRoot: true,
		home: true, home + "/": true, home + "/src/..": true, toHome: true,
		home + "/src": false, tmp: false, "/tmp": false,
	} {
		if got := TooBroad(dir); got != want {
			t.Errorf("TooBroad(%q) = %v, want %v", dir, got, want)
		}
	}
}
