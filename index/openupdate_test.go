package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
	}{
		{"nothing", func(*testing.T, string) {}, 0, 0, 0},
		{"added", func(t *testing.T, repo string) {
			writeTree(t, repo, map[string]string{pathN(100): bodyN(100, "the new throttle")})
		}, 1, 0, 0},
		{"changed", func(t *testing.T, repo string) {
			writeTree(t, repo, map[string]string{pathN(3): bodyN(3, "a changed limiter")})
		}, 0, 1, 0},
		{"deleted", func(t *testing.T, repo string) {
			if err := os.Remove(filepath.Join(repo, pathN(4))); err != nil {
				t.Fatal(err)
			}
		}, 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for i := 0; i < 40; i++ {
				files[pathN(i)] = bodyN(i, "rate limiting")
			}
			repo := t.TempDir()
			writeTree(t, repo, files)
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
