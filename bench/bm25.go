package bench

import (
	"context"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/walk"
)

// BM25 ranks a repository's files for a task with plain BM25F over the
// task's words, on the same index, over the code alone: no tests, docs,
// examples, vendored, generated or secret files, which the loop ranks low
// too (a changelog repeats every fix's words). No concepts, no synonyms, no
// structure, one pass. Its ranking is the baseline the loop must beat.
// bm25Files is how many of its best files the baseline returns;
// bm25Tests how many tests to run, as many as hone lists at most.
const (
	bm25Files = 5
	bm25Tests = 5
)

func BM25(ctx context.Context, repo, task string, opts hone.Options) (*hone.Result, error) {
	start := time.Now()
	ix, err := index.Open(ctx, repo, index.Options{Dir: opts.IndexDir})
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, nil); err != nil {
		return nil, err
	}
	terms := index.Words(task)
	skip := walk.Test | walk.Docs | walk.Example | walk.Vendor | walk.Generated | walk.Secret
	hits := ix.Run(index.Search{Terms: terms, Limit: 50, Keep: func(e *index.Entry) bool { return e.Kind&skip == 0 }})
	res := &hone.Result{Version: hone.Version, JSONVersion: hone.JSONVersion, Task: task, Repo: ix.Root, Files: []hone.File{}, Ranking: []hone.Ranked{}, StopReason: hone.StopMaxCycles}
	for i, h := range hits {
		res.Ranking = append(res.Ranking, hone.Ranked{Path: h.Entry.Path, Relevance: h.Score / hits[0].Score})
		// A search has no set: its files are the first bm25Files, what
		// an agent reading a search's results would open.
		if i < bm25Files {
			res.Files = append(res.Files, hone.File{Path: h.Entry.Path, Relevance: h.Score / hits[0].Score, Role: hone.RoleTarget})
		}
	}
	// Its tests to run are the tests that best match the task's words.
	res.RelatedTests = []hone.RelatedTest{}
	for _, h := range ix.Run(index.Search{Terms: terms, Limit: bm25Tests, Keep: func(e *index.Entry) bool { return e.Kind.Has(walk.Test) }}) {
		res.RelatedTests = append(res.RelatedTests, hone.RelatedTest{Path: h.Entry.Path, For: []string{}, Reason: "matches the task"})
	}
	res.ElapsedMS = time.Since(start).Milliseconds()
	return res, ix.Err()
}
