package bench

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

func TestCheckWords(t *testing.T) {
	dir, commit := scratchRepo(t)
	base := commit("Start", map[string]string{"run/main.go": "package run\n\nfunc run() {}\n"})
	fix := commit("Stop early", map[string]string{"run/main.go": "package run\n\nvar maxFail int\n\nfunc throttleTime() {}\n\nfunc run() {}\n"})
	repos := Repos{Mapping: map[string]string{"o/r": filepath.Join(dir, ".git")}}
	common := map[string]bool{"time": true}
	in := func(id, task string) Instance {
		return Instance{ID: id, Repo: "o/r", BaseCommit: base, Commit: fix, Problem: task, Gold: []string{"run/main.go"}}
	}
	for _, tt := range []struct {
		in    Instance
		named []string
		err   bool
	}{
		{in: in("plain", "stop the run after a few failures"), named: nil},
		{in: in("named", "add a maxfail option to stop early"), named: []string{"maxfail"}},
		{in: in("part", "the fail count is ignored"), named: []string{"fail"}},
		{in: in("stem", "throttling requests takes too much time"), named: []string{"throttling"}}, // time is common English
		{in: in("chinese", "失败几次后停止运行"), named: nil},
		{in: Instance{ID: "no-commit", Repo: "o/r", BaseCommit: base, Problem: "x"}, err: true},
		{in: Instance{ID: "no-repo", Repo: "x/y", BaseCommit: base, Commit: fix, Problem: "x"}, err: true},
	} {
		got := CheckWords(context.Background(), []Instance{tt.in}, repos, common)[0]
		if (got.Error != "") != tt.err {
			t.Errorf("%s: error %q", tt.in.ID, got.Error)
		}
		if !slices.Equal(got.Named, tt.named) {
			t.Errorf("%s: named %v, want %v", tt.in.ID, got.Named, tt.named)
		}
	}
}
