package index

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPrivateFiles: an index's folder is 0700 and its files 0600, whatever
// the umask, and an index left readable by an older hone is made private.
func TestPrivateFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nconst Key = \"hunter2\"\n"})
	ctx := context.Background()
	check := func(t *testing.T, ix *Index, base string) {
		t.Helper()
		seen := 0
		for _, suffix := range []string{"", "-wal", "-shm"} {
			fi, err := os.Stat(ix.Path + suffix)
			if err != nil {
				continue
			}
			seen++
			if perm := fi.Mode().Perm(); perm != 0o600 {
				t.Errorf("%s: mode %o, want 600", filepath.Base(ix.Path+suffix), perm)
			}
		}
		if seen < 2 {
			t.Errorf("only %d of the database's files exist while it is open: the test checks nothing", seen)
		}
		for dir := filepath.Dir(ix.Path); ; dir = filepath.Dir(dir) {
			fi, err := os.Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if perm := fi.Mode().Perm(); perm != 0o700 {
				t.Errorf("folder %s: mode %o, want 700", dir, perm)
			}
			if dir == base {
				break
			}
		}
	}
	for _, tc := range []struct {
		name string
		prep func(t *testing.T, dir string) // before the index is opened
	}{
		{"new", nil},
		{"left readable", func(t *testing.T, dir string) {
			// As an older hone left it: 0755 folders, 0644 files.
			ix, err := buildAt(ctx, repo, Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			p := ix.Path
			ix.Close()
			if err := os.Chmod(p, 0o644); err != nil {
				t.Fatal(err)
			}
			for d := filepath.Dir(p); d != filepath.Dir(dir); d = filepath.Dir(d) {
				os.Chmod(d, 0o755)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A missing folder of indexes is made 0700 too.
			base := filepath.Join(t.TempDir(), "cache", "hone")
			if tc.prep != nil {
				tc.prep(t, base)
			}
			ix, err := buildAt(ctx, repo, Options{Dir: base})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			check(t, ix, filepath.Dir(ix.Path))
			if tc.prep == nil {
				check(t, ix, base)
			}
		})
	}
}
