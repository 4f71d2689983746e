//go:build unix

package index

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
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
