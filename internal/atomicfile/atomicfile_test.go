package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// A write replaces the file whole, private, and leaves nothing beside it;
// one that cannot be made says why and leaves the old file as it was.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pack")
	for _, tt := range []struct {
		data string
		sync bool
	}{{"first", false}, {"second, longer", true}, {"", false}} {
		if err := Write(p, []byte(tt.data), tt.sync); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != tt.data {
			t.Errorf("after writing %q: %q, %v", tt.data, got, err)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, %v; want 0600", fi.Mode().Perm(), err)
		}
		if left, _ := filepath.Glob(p + ".*"); len(left) != 0 {
			t.Errorf("left beside it: %v", left)
		}
	}
	if err := Write(filepath.Join(dir, "missing", "pack"), []byte("x"), false); err == nil {
		t.Error("a write into a missing folder succeeded")
	}
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "dir"), []byte("x"), false); err == nil {
		t.Error("a write over a folder succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "dir.*")); len(left) != 0 {
		t.Errorf("a failed write left %v", left)
	}
}
