package retrieve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/retrieve"
)

// The same task on the same files gives the same result, byte for byte,
// run after run, from a fresh index or one reused, and from an index kept
// open that answered other tasks before: the trace's learned terms,
// probes and gaps, the ranking and its signals, which hold every score
// unrounded.
func TestSameTaskSameResult(t *testing.T) {
	ctx := context.Background()
	shared := map[string]*index.Index{}
	defer func() {
		for _, ix := range shared {
			ix.Close()
		}
	}()
	cases := []struct{ repo, task string }{
		{"auth-expiry", "fix the auth token expiry bug"},
		{"auth-expiry", "session refresh fails when the jwt expires"},
		{"throttle-api", "add rate limiting to the API endpoints"},
		{"login-throttle", "throttle failed login attempts per user"},
	}
	const runs = 6
	for _, c := range cases {
		repo := filepath.Join("..", "testdata", "repos", c.repo)
		// The first run builds the index that the next two reuse; the
		// next two build their own; the last runs on the repository's
		// index kept open, which the earlier cases' tasks read.
		reused := t.TempDir()
		var first []byte
		for i := range runs {
			opts := hone.Options{IndexDir: reused, Signals: true}
			if i == 3 || i == 4 {
				opts.IndexDir = t.TempDir()
			}
			var res *hone.Result
			var err error
			if i < runs-1 {
				res, err = retrieve.Retrieve(ctx, repo, c.task, opts)
			} else {
				ix := shared[c.repo]
				if ix == nil {
					if ix, err = index.Open(ctx, repo, index.Options{Dir: t.TempDir()}); err != nil {
						t.Fatal(err)
					}
					shared[c.repo] = ix
					if _, err := ix.Update(ctx, nil); err != nil {
						t.Fatal(err)
					}
				}
				res, err = retrieve.RetrieveIndex(ctx, ix, c.task, opts)
			}
			if err != nil {
				t.Fatalf("%s, %q, run %d: %v", c.repo, c.task, i+1, err)
			}
			res.ElapsedMS, res.Timings = 0, hone.Timings{} // times differ run by run
			b, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = b
				continue
			}
			if string(b) != string(first) {
				t.Errorf("%s, %q: run %d differs from run 1:\n%s", c.repo, c.task, i+1, firstDiff(first, b))
				break
			}
		}
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: %s\nagainst: %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines against %d", len(la), len(lb))
}
