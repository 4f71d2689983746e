package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// deepFile makes a file below root whose path is longer than the system
// allows (PATH_MAX, 4096 bytes), with the *at calls, which take one name
// at a time. It returns the first folder whose path is too long.
func deepFile(t *testing.T, root string) string {
	t.Helper()
	fd, err := syscall.Open(root, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("d", 200)
	rel, first := "", ""
	for i := 0; len(root)+len(rel) < 4200; i++ {
		if err := syscall.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatalf("mkdirat at depth %d: %v", i, err)
		}
		next, err := syscall.Openat(fd, name, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		syscall.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
		rel = filepath.Join(rel, name)
		if first == "" && len(root)+1+len(rel) >= 4096 {
			first = rel
		}
	}
	f, err := syscall.Openat(fd, "deep.go", syscall.O_CREAT|syscall.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	syscall.Write(f, []byte("package deep\n"))
	syscall.Close(f)
	syscall.Close(fd)
	return filepath.ToSlash(first)
}

// TestSkipped: unreadable files and paths over the system's limit are
// counted, with an example, by the update and in the status, which keeps
// them in the index; the counts go when the files do.
func TestSkipped(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.go": "package a\n", "keys/prod.go": "package keys\n"})
	deepFile(t, repo)
	wantUnreadable := 0
	if os.Geteuid() != 0 {
		// Permissions do not stop the superuser.
		p := filepath.Join(repo, "keys", "prod.go")
		os.Chmod(p, 0)
		t.Cleanup(func() { os.Chmod(p, 0o644) })
		wantUnreadable = 1
	}
	ctx := context.Background()
	dir := t.TempDir()
	var notices []string
	notice := func(n string) { notices = append(notices, n) }
	ix, err := Open(ctx, repo, Options{Dir: dir, Notice: notice})
	if err != nil {
		t.Fatal(err)
	}
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Said once, when it changes: not again on an update that skips the
	// same.
	if len(notices) != 1 || !strings.HasPrefix(notices[0], "left out ") || !strings.Contains(notices[0], "length limit") {
		t.Errorf("notices %q: want one that says what was left out", notices)
	}
	if _, err := ix.Update(ctx, nil); err != nil || len(notices) != 1 {
		t.Errorf("a second update (%v): notices %q, want the first alone", err, notices)
	}
	if st.Skipped.TooLong != 1 || st.Skipped.Unreadable != wantUnreadable {
		t.Errorf("update skipped %+v, want 1 path too long and %d unreadable", st.Skipped, wantUnreadable)
	}
	if s := st.Skipped.String(); !strings.Contains(s, "1 path over the system's length limit") || !strings.Contains(s, "(e.g. ") || len(s) > 300 {
		t.Errorf("skipped, said: %q", s)
	}
	ix.Close()
	ix, err = Open(ctx, repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	status, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if status.Skipped != st.Skipped {
		t.Errorf("status says %+v skipped, the update %+v", status.Skipped, st.Skipped)
	}
	// Gone: nothing skipped.
	if err := os.RemoveAll(filepath.Join(repo, strings.Repeat("d", 200))); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(repo, "keys", "prod.go"), 0o644)
	if st, err = ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if status, err = ix.Status(ctx); err != nil {
		t.Fatal(err)
	}
	if st.Skipped.Any() || status.Skipped.Any() {
		t.Errorf("after the files went: update skipped %+v, status %+v", st.Skipped, status.Skipped)
	}
}

func TestSkippedString(t *testing.T) {
	for _, tc := range []struct {
		s    Skipped
		want string
	}{
		{Skipped{}, "nothing"},
		{Skipped{Unreadable: 1, Example: "a: permission denied"}, "1 unreadable file or folder (e.g. a: permission denied)"},
		{Skipped{Unreadable: 3, TooLong: 2, Example: "x"}, "3 unreadable files or folders, 2 paths over the system's length limit (e.g. x)"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
	long := strings.Repeat("é", 100)
	if got := shortPath(long); len(got) > 90 || !strings.Contains(got, "…") || !strings.HasPrefix(got, "é") || !utf8.ValidString(got) {
		t.Errorf("shortPath: %q", got)
	}
}

// TestReplacedAfterWalk: a file replaced, between the walk and its read,
// by a link or a FIFO is taken out, as one removed is: the link is not
// followed out of the repository, the FIFO does not block the update,
// and neither keeps the entry of the file it replaced.
func TestReplacedAfterWalk(t *testing.T) {
	noRacy(t)
	repo := t.TempDir()
	outside := filepath.Join(t.TempDir(), "id_rsa.txt")
	writeTree(t, repo, map[string]string{"a.go": "package a\n", "link.go": "package b\n", "fifo.go": "package c\n"})
	if err := os.WriteFile(outside, []byte("outsidesecretword\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ix, err := Open(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// Indexed first, then changed, so that the update reads them again.
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if ix.Doc("link.go") == nil || ix.Doc("fifo.go") == nil {
		t.Fatal("link.go and fifo.go are not indexed")
	}
	writeTree(t, repo, map[string]string{"link.go": "package bb\n\nfunc F() {}\n", "fifo.go": "package cc\n\nfunc G() {}\n"})
	testHookAfterWalk = func() {
		os.Remove(filepath.Join(repo, "link.go"))
		if err := os.Symlink(outside, filepath.Join(repo, "link.go")); err != nil {
			t.Error(err)
		}
		os.Remove(filepath.Join(repo, "fifo.go"))
		if err := syscall.Mkfifo(filepath.Join(repo, "fifo.go"), 0o644); err != nil {
			t.Error(err)
		}
	}
	defer func() { testHookAfterWalk = nil }()
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ix.DF("outsidesecretword") != 0 {
		t.Error("the update followed a link out of the repository")
	}
	if st.Skipped.Unreadable != 0 {
		t.Errorf("skipped %+v, want the link and the FIFO taken out, not skipped", st.Skipped)
	}
	for _, p := range []string{"link.go", "fifo.go"} {
		if ix.Doc(p) != nil {
			t.Errorf("%s keeps the entry of the file it replaced", p)
		}
	}
	if ix.Doc("a.go") == nil {
		t.Error("a.go is not indexed")
	}
}
