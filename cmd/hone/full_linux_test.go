package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tmpfs mounts a small tmpfs for the test, a disk that fills for real.
// It needs root, so the test runs only when asked: HONE_TEST_TMPFS=1.
// The index package's tests fill an index with SQLite's max_page_count.
func tmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Getenv("HONE_TEST_TMPFS") == "" {
		t.Skip("set HONE_TEST_TMPFS=1, as root, to fill a tmpfs")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file until the file system is full.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	for len(buf) > 1 { // the last bytes
		buf = buf[:len(buf)/2]
		for {
			if _, err := f.Write(buf); err != nil {
				break
			}
		}
	}
	return p
}

func freeBytes(t *testing.T, dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// TestFullDisk: with the disk full, status and retrieve answer from the
// index as it was, saying so; a cold index that fills the disk fails with
// one line, and leaves nothing behind to keep the disk full.
func TestFullDisk(t *testing.T) {
	disk := tmpfs(t, "4m")
	dir := filepath.Join(disk, "idx")
	fixture := filepath.Join("..", "..", "testdata", "repos", "auth-expiry")
	task := "fix the auth token expiry bug"
	if _, e, code := honeIn("index", "--no-history", "--repo", fixture, "--index-dir", dir); code != 0 {
		t.Fatalf("hone index: %d %s", code, e)
	}
	want, _, code := honeIn("retrieve", "--json", "--repo", fixture, "--index-dir", dir, task)
	if code != 0 {
		t.Fatal("retrieve")
	}
	filler := fill(t, disk)
	if _, e, code := honeIn("status", "--repo", fixture, "--index-dir", dir); code != 0 {
		t.Errorf("hone status on a full disk: exit %d: %s", code, e)
	}
	got, e, code := honeIn("retrieve", "--json", "--repo", fixture, "--index-dir", dir, task)
	if code != 0 || !strings.Contains(e, "the disk is full") || strings.Count(e, "\n") != 1 {
		t.Errorf("hone retrieve on a full disk: exit %d, stderr %q", code, e)
	}
	if a, b := parseFiles(t, got), parseFiles(t, want); a != b {
		t.Errorf("hone retrieve on a full disk answers %s, before %s", a, b)
	}

	// A cold index that fills the disk.
	os.Remove(filler)
	free := freeBytes(t, disk)
	repo := filepath.Join(t.TempDir(), "repo")
	newRepoGen(7).generate(t, repo, 1500)
	_, e, code = honeIn("index", "--no-history", "--repo", repo, "--index-dir", dir)
	if code == 0 || !strings.Contains(e, "the disk is full") || strings.Count(e, "\n") != 1 {
		t.Errorf("a cold index on a small disk: exit %d, stderr %q", code, e)
	}
	if now := freeBytes(t, disk); now < free {
		t.Errorf("the failed index left %d bytes taken", free-now)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "repo-*", "*"))
	if len(left) > 0 {
		t.Errorf("the failed index left %v", left)
	}
}

// parseFiles is the files of a retrieve's JSON, for a comparison.
func parseFiles(t *testing.T, out string) string {
	t.Helper()
	r, err := parseRetrieved(out)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var paths []string
	for _, f := range r.Files {
		paths = append(paths, f.Path)
	}
	return strings.Join(paths, ", ")
}
