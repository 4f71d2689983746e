package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hone-tools/hone/tokenize"
)

// noRacy makes every status taken before an update clean at once, so that
// a test can tell what an update reads; t's cleanup restores the slack.
func noRacy(t *testing.T) {
	t.Helper()
	old := racySlack
	racySlack = 0
	t.Cleanup(func() { racySlack = old })
}

// TestSameSizeAndTime: a file replaced by one of the same size with its
// modification time kept, as cp -p, rsync -a and tar x do, is indexed
// again: the index compares what git compares.
func TestSameSizeAndTime(t *testing.T) {
	noRacy(t)
	const old, replaced = "package a\n\nfunc Alpha() {}\n", "package a\n\nfunc Omega() {}\n"
	for _, tc := range []struct {
		name    string
		replace func(t *testing.T, p string, body []byte)
	}{
		{"cp -p", func(t *testing.T, p string, body []byte) {
			// Written in place, the time put back: the same inode, a new
			// change time.
			if err := os.WriteFile(p, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"rsync -a", func(t *testing.T, p string, body []byte) {
			// A temporary file renamed over the old one: a new inode.
			tmp := filepath.Join(filepath.Dir(p), ".a.go.XXXX")
			if err := os.WriteFile(tmp, body, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}},
		{"tar x", func(t *testing.T, p string, body []byte) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, body, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			writeTree(t, repo, map[string]string{"a.go": old, "b.go": "package a\n"})
			p := filepath.Join(repo, "a.go")
			past := time.Now().Add(-time.Hour).Truncate(time.Second)
			os.Chtimes(p, past, past)
			ctx := context.Background()
			ix, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			before, _ := os.Stat(p)
			tc.replace(t, p, []byte(replaced))
			os.Chtimes(p, past, past)
			after, _ := os.Stat(p)
			if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
				t.Fatalf("the replacement differs in size or time: %d %v, %d %v", after.Size(), after.ModTime(), before.Size(), before.ModTime())
			}
			st, err := ix.Update(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if st.Changed != 1 {
				t.Errorf("update: %+v, want the file changed", st)
			}
			if ix.DF(tokenize.Stem("omega")) != 1 || ix.DF(tokenize.Stem("alpha")) != 0 {
				t.Errorf("the index still holds the old content: omega in %d files, alpha in %d",
					ix.DF(tokenize.Stem("omega")), ix.DF(tokenize.Stem("alpha")))
			}
		})
	}
}

// TestRacyFile: a file whose status was taken in the same instant as it
// changed may change again with the same status; the index reads it again
// until its status is older than when it was taken, as git does.
func TestRacyFile(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Alpha() {}\n"})
	ctx := context.Background()
	ix, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// The file changes, same size, and the index's row says its status
	// now, as if taken in the same tick as the change.
	p := filepath.Join(repo, "a.go")
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Omega() {}\n"})
	fi, _ := os.Stat(p)
	ino, ctime := inodeOf(fi)
	for _, tc := range []struct {
		name    string
		checked int64 // when the row says the status was taken
		reread  bool
	}{
		{"checked long after the change", fi.ModTime().Add(time.Hour).UnixNano(), false},
		{"checked as it changed", fi.ModTime().UnixNano(), true},
		{"changed as it was read", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ix.db.Exec(`UPDATE files SET size = ?, mtime = ?, ino = ?, ctime_after = ?, checked = ?, hash = x'00'`,
				fi.Size(), fi.ModTime().UnixNano(), int64(ino), ctimeAfter(nanos(ctime), fi.ModTime().UnixNano()), tc.checked); err != nil {
				t.Fatal(err)
			}
			ix.db.Exec(`DELETE FROM snapshot`)
			ix.db.Exec(`UPDATE meta SET value = value || 'x' WHERE key = 'updated'`)
			st, err := ix.Update(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if reread := st.Bytes > 0; reread != tc.reread {
				t.Errorf("read again: %v, want %v (%+v)", reread, tc.reread, st)
			}
		})
	}
	if ix.DF(tokenize.Stem("omega")) != 1 {
		t.Error("the racy file's new content is not indexed")
	}
}

// TestChurn: files that change between the walk and their read are
// recorded with the status of the content read, so that the next update
// finds them unchanged instead of reading them again every time.
func TestChurn(t *testing.T) {
	noRacy(t)
	repo := t.TempDir()
	writeGenerated(t, repo, 40, "token")
	ctx := context.Background()
	ix, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	// Change every file, then, after the walk has taken their status and
	// before they are read, change half of them again to another size.
	for i := 0; i < 40; i++ {
		writeTree(t, repo, map[string]string{pathN(i): bodyN(i, "first change")})
	}
	testHookAfterWalk = func() {
		for i := 0; i < 40; i += 2 {
			writeTree(t, repo, map[string]string{pathN(i): bodyN(i, "second change, longer")})
		}
	}
	_, err = ix.Update(ctx, nil)
	testHookAfterWalk = nil
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		fi, err := os.Stat(filepath.Join(repo, filepath.FromSlash(pathN(i))))
		if err != nil {
			t.Fatal(err)
		}
		if e := ix.Entry(pathN(i)); e.Size != fi.Size() || e.ModTime != fi.ModTime().UnixNano() {
			t.Errorf("%s: the index says size %d, time %d; the file %d, %d", pathN(i), e.Size, e.ModTime, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	if ix.DF(tokenize.Stem("longer")) != 20 {
		t.Errorf("%d files hold the second change, want 20", ix.DF(tokenize.Stem("longer")))
	}
	// Nothing changed since: nothing read.
	st, err := ix.Update(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes != 0 || st.Touched+st.Changed+st.Added != 0 {
		t.Errorf("an update with nothing changed read %d bytes: %+v", st.Bytes, st)
	}

	// A row left with a wrong size by an older hone, its content right:
	// the update that reads the file again writes its whole status.
	if _, err := ix.db.Exec(`UPDATE files SET size = 1 WHERE path = ?`, pathN(3)); err != nil {
		t.Fatal(err)
	}
	ix.db.Exec(`UPDATE meta SET value = value || 'x' WHERE key = 'updated'`)
	for round, want := range []int64{1, 0} {
		st, err := ix.Update(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := int64(st.Touched); got != want {
			t.Errorf("update %d after the wrong size: %d touched, want %d (%+v)", round+1, got, want, st)
		}
	}
}

// TestFutureFile: a file dated in the future stays racy until then: each
// update reads it again, and finds a change, but writes nothing when
// there is none.
func TestFutureFile(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Alpha() {}\n", "b.go": "package b\n"})
	ctx := context.Background()
	ix, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	p := filepath.Join(repo, "a.go")
	future := time.Now().Add(time.Hour)
	os.Chtimes(p, future, future)
	if st, err := ix.Update(ctx, nil); err != nil || st.Touched != 1 {
		t.Fatalf("update after the time changed: %+v, %v", st, err)
	}
	v := ix.loaded
	for i := 0; i < 2; i++ {
		st, err := ix.Update(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Bytes == 0 {
			t.Error("a file dated in the future was not read again")
		}
		if ix.loaded != v {
			t.Errorf("update %d rewrote the index for a file that did not change", i+1)
		}
	}
	writeTree(t, repo, map[string]string{"a.go": "package a\n\nfunc Omega() {}\n"})
	os.Chtimes(p, future, future)
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if ix.DF(tokenize.Stem("omega")) != 1 {
		t.Error("the future-dated file's change was missed")
	}
}

// A file's change time is stored as what it adds to its modification time,
// and none (a system whose walk reads no change time) as NULL: each reads
// back as it was.
func TestChangeTimeStored(t *testing.T) {
	ix := build(t, map[string]string{"a.go": "package a\n"})
	ctx := context.Background()
	mtime := ix.Entry("a.go").ModTime
	for _, tt := range []struct {
		name  string
		ctime int64
		null  bool
	}{
		{"none", 0, true},
		{"at the modification", mtime, false},
		{"after it", mtime + 1_500_000_000, false},
		{"before it", mtime - 7, false},
	} {
		if _, err := ix.db.Exec(`UPDATE files SET ctime_after = ? WHERE path = 'a.go'`, ctimeAfter(tt.ctime, mtime)); err != nil {
			t.Fatal(err)
		}
		var null bool
		if err := ix.db.QueryRow(`SELECT ctime_after IS NULL FROM files WHERE path = 'a.go'`).Scan(&null); err != nil {
			t.Fatal(err)
		}
		es, err := readEntries(ctx, ix.db)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %d entries, %v", tt.name, len(es), err)
		}
		if es[0].ctime != tt.ctime || null != tt.null {
			t.Errorf("%s: read %d (NULL %v), want %d (NULL %v)", tt.name, es[0].ctime, null, tt.ctime, tt.null)
		}
	}
}
