package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOpenUpdate checks that OpenUpdate, which reads the catalog while the
// walk takes the files' statuses, leaves the index Open and Update leave,
// for each kind of change, and says the same of it.
func TestOpenUpdate(t *testing.T) {
	noRacy(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name                   string
		change                 func(t *testing.T, repo string)
		added, changed, delete int
		// pending: the catalog is left as its snapshot, not made, until
		// the answers use it.
		pending bool
	}{
		{"nothing", func(*testing.T, string) {}, 0, 0, 0, true},
		{"added", func(t *testing.T, repo string) {
			writeTree(t, repo, map[string]string{pathN(100): bodyN(100, "the new throttle")})
		}, 1, 0, 0, false},
		{"changed", func(t *testing.T, repo string) {
			writeTree(t, repo, map[string]string{pathN(3): bodyN(3, "a changed limiter")})
		}, 0, 1, 0, false},
		{"deleted", func(t *testing.T, repo string) {
			if err := os.Remove(filepath.Join(repo, pathN(4))); err != nil {
				t.Fatal(err)
			}
		}, 0, 0, 1, false},
		// The walk asks about the file, reads its head and drops it: the
		// index drops it too.
		{"turned binary", func(t *testing.T, repo string) {
			writeTree(t, repo, map[string]string{pathN(5): "\x00\x01\x02 rate limiting\x00"})
		}, 0, 0, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			writeGenerated(t, repo, 40, "rate limiting")
			plain, lazy := t.TempDir(), t.TempDir()
			for _, dir := range []string{plain, lazy} {
				ix, err := buildAt(ctx, repo, Options{Dir: dir})
				if err != nil {
					t.Fatal(err)
				}
				ix.Close()
			}
			tc.change(t, repo)

			ix, err := Open(ctx, repo, Options{Dir: plain})
			if err != nil {
				t.Fatal(err)
			}
			wantSt, err := ix.Update(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, err := answer(ix)
			ix.Close()
			if err != nil {
				t.Fatal(err)
			}

			ix, st, err := OpenUpdate(ctx, repo, Options{Dir: lazy}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if st.Files != wantSt.Files || st.Added != tc.added || st.Changed != tc.changed || st.Deleted != tc.delete {
				t.Errorf("stats %+v, want %d files, %d added, %d changed, %d deleted", st, wantSt.Files, tc.added, tc.changed, tc.delete)
			}
			ix.mu.Lock()
			pending := ix.pending != nil
			ix.mu.Unlock()
			if pending != tc.pending {
				t.Errorf("catalog pending after the update: %v, want %v", pending, tc.pending)
			}
			if status, err := ix.Status(ctx); err != nil || status.Files != wantSt.Files || !status.Complete {
				t.Errorf("status %+v, %v; want %d files, complete", status, err, wantSt.Files)
			}
			got, err := answer(ix)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("OpenUpdate's index answers otherwise than Open and Update's:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestOpenUpdateCancelled checks that a cancelled OpenUpdate fails, with
// the context's error, and returns no index.
func TestOpenUpdateCancelled(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{pathN(1): bodyN(1, "x"), pathN(2): bodyN(2, "y")})
	dir := t.TempDir()
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ix, _, err = OpenUpdate(ctx, repo, Options{Dir: dir}, nil)
	if ix != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("OpenUpdate with a cancelled context = %v, %v; want no index and context.Canceled", ix, err)
	}
}

// TestSnapshotWalk checks an update that reads the catalog's snapshot
// along with its walk: with names whose byte order is not their order as
// names (a folder "a" against "a-d" and "a.c"), every file is found
// unchanged and the catalog is left to be made; a snapshot in another
// order, as an older build wrote it, is read whole instead; and either
// way the index answers as a new one.
func TestSnapshotWalk(t *testing.T) {
	noRacy(t)
	ctx := context.Background()
	files := map[string]string{
		"a/b.go": "package a\n\nfunc Throttle() {}\n", "a-d.go": "package x\n\nfunc Limit() {}\n",
		"a.c": "int rate(void) { return 1; }\n", "a0.py": "def throttle_rate():\n    pass\n",
		"a/b/c.go": "package b\n\nfunc Burst() {}\n", "A.md": "# Throttle\n",
	}
	for _, tc := range []struct {
		name     string
		shuffled bool // the snapshot's entries written in reverse
	}{{"walk order", false}, {"files' order", true}} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			writeTree(t, repo, files)
			dir := t.TempDir()
			ix, err := buildAt(ctx, repo, Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			// A file added later has the highest id and the first path:
			// the files' order is not the walk's.
			writeTree(t, repo, map[string]string{"0.go": "package zero\n\nfunc Throttle() {}\n"})
			if _, err := ix.Update(ctx, nil); err != nil {
				t.Fatal(err)
			}
			want, err := answer(ix)
			if err != nil {
				t.Fatal(err)
			}
			if tc.shuffled {
				es := ix.Entries()
				slices.SortFunc(es, func(a, b *Entry) int { return strings.Compare(b.Path, a.Path) })
				if _, err := ix.db.ExecContext(ctx, `UPDATE snapshot SET data = ?`, encodeEntries(es)); err != nil {
					t.Fatal(err)
				}
			}
			ix.Close()

			ix, st, err := OpenUpdate(ctx, repo, Options{Dir: dir}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if st.Files != len(files)+1 || st.Added+st.Changed+st.Deleted != 0 {
				t.Errorf("stats %+v, want %d files, none added, changed or deleted", st, len(files)+1)
			}
			ix.mu.Lock()
			pending := ix.pending != nil
			ix.mu.Unlock()
			if pending == tc.shuffled {
				t.Errorf("catalog pending: %v, want %v", pending, !tc.shuffled)
			}
			if n := ix.N(); n != len(files)+1 {
				t.Errorf("N() = %d, want %d", n, len(files)+1)
			}
			got, err := answer(ix)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("the index answers otherwise after a snapshot walk:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
