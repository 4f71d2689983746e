//go:build unix

package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Content reads regular files only: a file swapped since it was indexed
// for a link to a file outside the repository, or for a FIFO, is refused,
// and the read never blocks.
func TestContentRefusesWhatIsNoLongerAFile(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "b.go"), []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := buildAt(context.Background(), repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if b, err := ix.Content(ix.Entry("a.go")); err != nil || string(b) != "package a\n" {
		t.Fatalf("a.go: %q, %v", b, err)
	}
	outside := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(repo, "a.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(repo, "a.go")); err != nil {
		t.Skip("no symbolic links here")
	}
	if b, err := ix.Content(ix.Entry("a.go")); err == nil {
		t.Errorf("a link swapped in was followed: %q", b)
	}
	if err := os.Remove(filepath.Join(repo, "b.go")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(repo, "b.go"), 0o644); err != nil {
		t.Skip("no FIFOs here")
	}
	if _, err := ix.Content(ix.Entry("b.go")); err == nil {
		t.Error("a FIFO swapped in was read")
	}
}

// An index path that is a FIFO (or anything but a file) is refused with
// what to do, and the open never blocks on it (a review's finding: a
// retrieve hung).
func TestIndexPathNotAFile(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p, err := PathOf(repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		ix, err := Open(context.Background(), repo, Options{Dir: dir})
		if err == nil {
			ix.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "is not a file") || !strings.Contains(err.Error(), "remove it") {
			t.Errorf("Open over a FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open blocked on a FIFO")
	}
}
