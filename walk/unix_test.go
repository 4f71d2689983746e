//go:build unix

package walk

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

func TestWalkSkipsNonRegularFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Opening the FIFO would block, so reaching the end proves it was skipped.
	if got, want := walkPaths(t, root, Options{}), []string{"a.go"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// skipIfPrivileged skips tests that rely on permission checks, which do not
// apply to the superuser.
func skipIfPrivileged(t *testing.T) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("permission checks do not apply to root")
	}
}

// chmod changes a mode and restores it when the test ends, so that
// t.TempDir can clean up.
func chmod(t *testing.T, path string, mode fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(path, fi.Mode().Perm()) })
}

func TestWalkPermissionErrors(t *testing.T) {
	skipIfPrivileged(t)
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.go":            "",
		"locked/b.go":     "",
		"open/c.go":       "",
		"open/secret.go":  "x",
		"open/.gitignore": "c.go\n",
		"sub/.gitignore":  "*.go\n",
		"sub/.ignore":     "*.txt\n",
		"sub/d.go":        "",
		"sub/e.txt":       "",
	})
	chmod(t, filepath.Join(root, "locked"), 0)
	chmod(t, filepath.Join(root, "open", "secret.go"), 0)
	chmod(t, filepath.Join(root, "sub", ".gitignore"), 0)
	chmod(t, filepath.Join(root, "sub", ".ignore"), 0)

	t.Run("skipped by default", func(t *testing.T) {
		want := []string{"a.go", "open/.gitignore", "sub/d.go", "sub/e.txt"}
		if got := walkPaths(t, root, Options{}); !slices.Equal(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	})

	t.Run("reported to OnError", func(t *testing.T) {
		var reported []string
		opts := Options{OnError: func(path string, err error) error {
			if !errors.Is(err, fs.ErrPermission) {
				t.Errorf("%s: error %v is not a permission error", path, err)
			}
			reported = append(reported, path)
			return nil
		}}
		walkPaths(t, root, opts)
		want := []string{"locked", "open/secret.go", "sub/.gitignore", "sub/.ignore"}
		if !slices.Equal(reported, want) {
			t.Errorf("reported %q, want %q", reported, want)
		}
	})

	t.Run("OnError stops the walk", func(t *testing.T) {
		boom := errors.New("boom")
		var got []string
		err := Walk(context.Background(), root, Options{OnError: func(string, error) error { return boom }},
			func(f File) error { got = append(got, f.Path); return nil })
		if err != boom {
			t.Errorf("err = %v, want %v", err, boom)
		}
		if want := []string{"a.go"}; !slices.Equal(got, want) {
			t.Errorf("visited %q, want %q", got, want)
		}
	})

	t.Run("OnError returns SkipAll", func(t *testing.T) {
		err := Walk(context.Background(), root, Options{OnError: func(string, error) error { return filepath.SkipAll }},
			func(File) error { return nil })
		if err != nil {
			t.Errorf("err = %v, want nil", err)
		}
	})

	t.Run("OnError returns SkipDir", func(t *testing.T) {
		opts := Options{OnError: func(string, error) error { return filepath.SkipDir }}
		// The unreadable secret.go skips the rest of open/, the unreadable
		// sub/.gitignore all of sub/.
		want := []string{"a.go", "open/.gitignore"}
		if got := walkPaths(t, root, opts); !slices.Equal(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	})
}

func TestWalkUnreadableRoot(t *testing.T) {
	skipIfPrivileged(t)
	root := t.TempDir()
	chmod(t, root, 0)
	err := Walk(context.Background(), root, Options{}, func(File) error { return nil })
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("err = %v, want a permission error", err)
	}
}

// TestFileStatus: a walked file carries what git compares besides size and
// time, its inode and change time, in the hooks and to fn alike; a file
// replaced by a copy of the same size and time (cp -p, rsync -a) differs in
// them.
func TestFileStatus(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n", "b.bin": "\x00"})
	walkOne := func() (File, File, File) {
		t.Helper()
		var seen, bin File
		files, err := Files(context.Background(), root, Options{
			Seen: func(f File) (Kind, bool, bool) {
				if f.Path == "a.go" {
					seen = f
				}
				return 0, false, false
			},
			Binary: func(f File) { bin = f },
		})
		if err != nil || len(files) != 1 {
			t.Fatalf("files %v, %v", files, err)
		}
		return files[0], seen, bin
	}
	f, seen, bin := walkOne()
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(root, "a.go"), &st); err != nil {
		t.Fatal(err)
	}
	if f.Inode != st.Ino || f.Inode == 0 || f.ChangeTime.IsZero() {
		t.Errorf("a.go: inode %d, change time %v; stat says inode %d", f.Inode, f.ChangeTime, st.Ino)
	}
	if seen.Inode != f.Inode || !seen.ChangeTime.Equal(f.ChangeTime) || seen.Size != f.Size || !seen.ModTime.Equal(f.ModTime) {
		t.Errorf("Seen was told %+v, fn %+v", seen, f)
	}
	if bin.Path != "b.bin" || bin.Inode == 0 {
		t.Errorf("Binary was told %+v", bin)
	}
	// Replace a.go by a file of the same size and time, as rsync -a does.
	tmp := filepath.Join(root, ".a.go.tmp")
	if err := os.WriteFile(tmp, []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(tmp, f.ModTime, f.ModTime)
	if err := os.Rename(tmp, filepath.Join(root, "a.go")); err != nil {
		t.Fatal(err)
	}
	g, _, _ := walkOne()
	if g.Size != f.Size || !g.ModTime.Equal(f.ModTime) {
		t.Fatalf("the copy's size or time differ: %+v, %+v", g, f)
	}
	if g.Inode == f.Inode {
		t.Errorf("a replaced file has the inode of the one it replaced")
	}
}
