package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// honeIn runs hone in this process.
func honeIn(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &o, &e)
	return o.String(), e.String(), code
}

// damageBlocks writes random bytes over count 4 KB blocks in the middle of
// the file, chosen from seed.
func damageBlocks(t *testing.T, p string, seed int64, count int) []int64 {
	t.Helper()
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	blocks := fi.Size() / 4096
	rng := rand.New(rand.NewSource(seed))
	var at []int64
	for i := 0; i < count; i++ {
		n := blocks/10 + rng.Int63n(blocks*8/10)
		buf := make([]byte, 4096)
		rng.Read(buf)
		if _, err := f.WriteAt(buf, n*4096); err != nil {
			t.Fatal(err)
		}
		at = append(at, n)
	}
	return at
}

// TestDamagedIndex overwrites random 4 KB blocks in the middle of a built
// index, several seeds. Every command then either answers as on the
// undamaged index or builds a new index with a one-line notice, and
// "hone index --rebuild" always succeeds.
func TestDamagedIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and damages several indexes")
	}
	repo := filepath.Join(t.TempDir(), "repo")
	newRepoGen(20240611).generate(t, repo, 400)
	pristine := t.TempDir()
	if _, e, code := honeIn("index", "--no-history", "--repo", repo, "--index-dir", pristine); code != 0 {
		t.Fatalf("hone index: exit %d\n%s", code, e)
	}
	retrieveAll := func(dir string) ([]retrieved, string, error) {
		var out []retrieved
		var notices []string
		for _, task := range crashTasks {
			o, e, code := honeIn("retrieve", "--json", "--repo", repo, "--index-dir", dir, task)
			if code != 0 {
				return nil, e, fmt.Errorf("hone retrieve %q: exit %d: %s", task, code, e)
			}
			if e != "" {
				notices = append(notices, e)
			}
			r, err := parseRetrieved(o)
			if err != nil {
				return nil, e, err
			}
			out = append(out, r)
		}
		return out, strings.Join(notices, ""), nil
	}
	want, notices, err := retrieveAll(pristine)
	if err != nil || notices != "" {
		t.Fatalf("the undamaged index: %v, %q", err, notices)
	}
	dbs, _ := filepath.Glob(filepath.Join(pristine, "*", "index.db"))
	if len(dbs) != 1 {
		t.Fatalf("index files %v", dbs)
	}
	rel, _ := filepath.Rel(pristine, dbs[0])
	// checkNotices: nothing, or one line per rebuild saying the index was
	// damaged.
	checkNotices := func(t *testing.T, what, stderr string) bool {
		t.Helper()
		if stderr == "" {
			return false
		}
		for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if !strings.HasPrefix(line, "hone: the index at ") || !strings.Contains(line, "damaged") {
				t.Errorf("%s: stderr %q, want nothing or a notice of the damage", what, stderr)
				return true
			}
		}
		return true
	}
	damaged := func(t *testing.T, seed int64) (string, string) {
		dir := t.TempDir()
		copyDir(t, pristine, dir)
		at := damageBlocks(t, filepath.Join(dir, rel), seed, 1+int(seed%3))
		return dir, fmt.Sprintf("blocks %v overwritten", at)
	}
	rebuilt := 0
	for seed := int64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			// Retrieves, then status and index, on one damaged copy.
			dir, what := damaged(t, seed)
			got, notices, err := retrieveAll(dir)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if checkNotices(t, what+": retrieve", notices) {
				t.Logf("%s: %s", what, strings.TrimSpace(notices))
				rebuilt++
			}
			compareRetrieved(t, what, got, want)
			for _, args := range [][]string{{"status"}, {"index", "--no-history"}, {"status", "--json"}} {
				_, e, code := honeIn(append(args, "--repo", repo, "--index-dir", dir)...)
				if code != 0 {
					t.Errorf("%s: hone %s: exit %d: %s", what, strings.Join(args, " "), code, e)
				}
				checkNotices(t, what+": hone "+strings.Join(args, " "), e)
			}
			// The status and the index commands first, on another copy.
			dir, _ = damaged(t, seed)
			for _, args := range [][]string{{"status"}, {"index", "--no-history"}} {
				_, e, code := honeIn(append(args, "--repo", repo, "--index-dir", dir)...)
				if code != 0 {
					t.Errorf("%s: hone %s first: exit %d: %s", what, strings.Join(args, " "), code, e)
				}
				checkNotices(t, what+": hone "+strings.Join(args, " "), e)
			}
			if got, _, err := retrieveAll(dir); err != nil {
				t.Errorf("%s: after status and index: %v", what, err)
			} else {
				compareRetrieved(t, what+", after status and index", got, want)
			}
			// A rebuild always works.
			dir, _ = damaged(t, seed)
			if _, e, code := honeIn("index", "--rebuild", "--no-history", "--repo", repo, "--index-dir", dir); code != 0 {
				t.Errorf("%s: hone index --rebuild: exit %d: %s", what, code, e)
			}
		})
	}
	t.Logf("%d of 6 damaged copies were rebuilt by a retrieve; the others answered as the undamaged index", rebuilt)
}
