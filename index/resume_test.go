package index

import (
	"context"
	"errors"
	"testing"
)

// TestResume: an update killed midway keeps what it committed, every few
// hundred files, and the next update goes on from there rather than start
// over; the index it ends with is the one a single update makes.
func TestResume(t *testing.T) {
	noRacy(t)
	repo := t.TempDir()
	files := map[string]string{}
	const n = 3 * commitFiles
	for i := 0; i < n; i++ {
		files[pathN(i)] = bodyN(i, "token expiry refresh")
	}
	writeTree(t, repo, files)
	ctx := context.Background()
	for _, stop := range []int{commitFiles - 1, commitFiles + 10, 2*commitFiles + 1, n} {
		t.Run(itoa(stop), func(t *testing.T) {
			dir := t.TempDir()
			ix, err := Open(ctx, repo, Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			// Killed once stop files are read: a cancelled context ends
			// the update as a kill would, without its last batch.
			kctx, kill := context.WithCancel(ctx)
			_, err = ix.Update(kctx, func(p Progress) {
				if p.Done == stop && stop < n {
					kill()
				}
			})
			kill()
			if stop < n && !errors.Is(err, context.Canceled) {
				t.Fatalf("killed update: %v, want it cancelled", err)
			}
			ix.Close()
			ix, err = Open(ctx, repo, Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			kept := ix.N()
			if want := stop / commitFiles * commitFiles; stop < n && kept < want {
				t.Errorf("killed after %d files, the index kept %d, want at least %d", stop, kept, want)
			}
			st, err := ix.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if st.Complete != (stop == n) {
				t.Errorf("status after a kill at %d files: complete %v", stop, st.Complete)
			}
			us, err := ix.Update(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if us.Added != n-kept {
				t.Errorf("the update after the kill added %d files, want %d: it must go on from the %d kept", us.Added, n-kept, kept)
			}
			fresh := build(t, files)
			words := []string{"token", "expiry", "file42", "pkg3"}
			if got, want := snapshot(t, ix, words...), snapshot(t, fresh, words...); got != want {
				t.Errorf("a resumed index differs from a fresh one:\n%s\n---\n%s", got, want)
			}
			if got, want := pairCounts(t, ix), pairCounts(t, fresh); got != want {
				t.Errorf("a resumed thesaurus differs from a fresh one:\n%s\n---\n%s", got, want)
			}
			if st, err := ix.Status(ctx); err != nil || !st.Complete || st.Delta >= flushAt {
				t.Errorf("status after the resumed update: %+v, %v", st, err)
			}
		})
	}
}

// TestEmptyRepository: an index of a repository without a file is as
// complete as any: it has an update time, and the next update writes
// nothing.
func TestEmptyRepository(t *testing.T) {
	ctx := context.Background()
	ix, err := buildAt(ctx, t.TempDir(), Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Updated.IsZero() || !st.Complete || st.Files != 0 {
		t.Errorf("status of an indexed empty repository: %+v", st)
	}
	v := ix.loaded
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if ix.loaded != v {
		t.Errorf("an update with nothing to do wrote to the index: version %q, then %q", v, ix.loaded)
	}
}
