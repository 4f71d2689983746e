package retrieve

import (
	"reflect"
	"testing"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/history"
)

// The commits a result shows carry their best file's relevance: a commit
// like the task in words that changed nothing relevant is not shown,
// unless the task names it. Their scores are relative to the best shown,
// 1 for it, to two places, whatever the best of those searched was; a
// named commit's is 1.
func TestShownCommits(t *testing.T) {
	c := func(hash string, files ...string) *history.Commit {
		return &history.Commit{Hash: hash, Subject: "s " + hash, Files: files}
	}
	ms := []history.Match{
		{Commit: c("named", "web/views.py"), Score: 1, Named: true},
		{Commit: c("makefile", "Makefile"), Score: 1},
		{Commit: c("docs", "README.md", "billing/tax.py"), Score: 0.5719339039980212},
		{Commit: c("invoice", "billing/util.py", "billing/invoice.py"), Score: 0.5597},
		{Commit: c("none"), Score: 0.4},
	}
	ranking := []hone.Ranked{
		{Path: "billing/invoice.py", Relevance: 0.9},
		{Path: "billing/tax.py", Relevance: 0.3},
		{Path: "billing/util.py", Relevance: 0.1},
		{Path: "Makefile", Relevance: 0.01},
	}
	type shown struct {
		hash  string
		files []string
		rel   float64
		score float64
		named bool
	}
	var got []shown
	for _, pc := range shownCommitsOf(ms, ranking) {
		got = append(got, shown{pc.Hash, pc.Files, pc.Relevance, pc.Score, pc.Named})
	}
	want := []shown{
		{"named", []string{"web/views.py"}, 0, 1, true},
		{"invoice", []string{"billing/invoice.py", "billing/util.py"}, 0.9, 0.98, false},
		{"docs", []string{"billing/tax.py", "README.md"}, 0.3, 1, false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("shown commits\n%+v\nwant\n%+v", got, want)
	}
}
