package zoekt

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/retrieve"
)

// The seed's stories, told over zoekt: the fixture repositories' shards
// served by a zoekt-webserver (recorded; see -record), each story's files
// among the ranking's first three, as they are over the embedded index.
func TestSeedStories(t *testing.T) {
	srv := replay(t)
	for _, tt := range []struct {
		repo, task string
		want       []string
	}{
		{"auth-expiry", "fix the auth token expiry bug", []string{"src/auth/tokens.ts", "src/auth/auth.ts"}},
		{"throttle-api", "add rate limiting to the API endpoints", []string{"src/middleware/throttle.ts"}},
		{"auth-expiry", "修复身份验证令牌过期错误", []string{"src/auth/auth.ts", "src/auth/tokens.ts"}},
		{"throttle-api", "为API端点添加速率限制", []string{"src/middleware/throttle.ts"}},
	} {
		t.Run(tt.repo+" "+tt.task, func(t *testing.T) {
			work := t.TempDir()
			c := client(t, srv.URL, tt.repo)
			res, err := retrieve.RetrieveFrom(context.Background(), c, filepath.Join(work, "tree"), filepath.Join(work, "index"), tt.task, hone.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var top []string
			for i, r := range res.Ranking {
				if i == 3 {
					break
				}
				top = append(top, r.Path)
			}
			for _, p := range tt.want {
				if !slices.Contains(top, p) {
					t.Errorf("the ranking's top 3 %v lack %s", top, p)
				}
			}
			if len(res.Files) == 0 || res.Repo != c.Name()+": "+tt.repo {
				t.Errorf("files %v, repo %q", res.Files, res.Repo)
			}
		})
	}
}

// Include and exclude hold over zoekt as over the embedded index, on the
// paths in the repositories.
func TestGlobsOverZoekt(t *testing.T) {
	work := t.TempDir()
	c := client(t, replay(t).URL, "auth-expiry")
	res, err := retrieve.RetrieveFrom(context.Background(), c, filepath.Join(work, "tree"), filepath.Join(work, "index"), "fix the auth token expiry bug",
		hone.Options{Include: []string{"src/**"}, Exclude: []string{"src/session"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Ranking) == 0 {
		t.Fatal("nothing ranked")
	}
	for _, r := range res.Ranking {
		if !strings.HasPrefix(r.Path, "src/") || strings.HasPrefix(r.Path, "src/session/") {
			t.Errorf("%s is outside the globs", r.Path)
		}
	}
}

// A server that is down fails the retrieve with its one line.
func TestServerDown(t *testing.T) {
	c := client(t, "http://127.0.0.1:1")
	c.Retries = 0
	work := t.TempDir()
	_, err := retrieve.RetrieveFrom(context.Background(), c, filepath.Join(work, "tree"), filepath.Join(work, "index"), "fix the auth token expiry bug", hone.Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot reach zoekt at http://127.0.0.1:1") {
		t.Errorf("error %v", err)
	}
}
