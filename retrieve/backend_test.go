package retrieve_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/retrieve"
)

// A run over a backend that finds a small repository whole ranks as the
// run over its index does: the seam adds nothing and loses nothing. Over
// one that finds by search, it ranks what it fetched.
func TestBackendMatchesTheIndex(t *testing.T) {
	for _, tt := range []struct {
		repo, task string
		want       []string
	}{
		{"auth-expiry", "fix the auth token expiry bug", []string{"src/auth/tokens.ts", "src/auth/auth.ts"}},
		{"throttle-api", "add rate limiting to the API endpoints", []string{"src/middleware/throttle.ts"}},
	} {
		t.Run(tt.repo, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", "repos", tt.repo)
			ix, err := index.Open(context.Background(), dir, index.Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			if _, err := ix.Update(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			direct, err := retrieve.RetrieveIndex(context.Background(), ix, tt.task, hone.Options{NoHistory: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, whole := range []int{1000, 0} {
				work := t.TempDir()
				be := &retrieve.IndexBackend{Index: ix, Repo: tt.repo, Whole: whole}
				res, err := retrieve.RetrieveFrom(context.Background(), be, filepath.Join(work, "tree"), filepath.Join(work, "index"), tt.task, hone.Options{})
				if err != nil {
					t.Fatal(err)
				}
				top := paths(res.Ranking, 3)
				if whole == 0 {
					// Found by search: the files fetched are the task's,
					// and their statistics with them; the run ranks them.
					for _, r := range res.Ranking {
						if ix.Entry(r.Path) == nil {
							t.Errorf("ranked %s, which the repository lacks", r.Path)
						}
					}
					if len(res.Ranking) == 0 {
						t.Error("nothing ranked")
					}
					continue
				}
				for _, p := range tt.want {
					if !slices.Contains(top, p) {
						t.Errorf("the top 3 %v lack %s", top, p)
					}
				}
				if !slices.Equal(top, paths(direct.Ranking, 3)) {
					t.Errorf("found whole: the top 3 %v, the index's own %v", top, paths(direct.Ranking, 3))
				}
			}
		})
	}
}

func paths(rs []hone.Ranked, n int) []string {
	var out []string
	for i, r := range rs {
		if i == n {
			break
		}
		out = append(out, r.Path)
	}
	return out
}
