package retrieve

import (
	"context"
	"path"
	"strings"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/tokenize"
)

// IndexBackend serves a repository's embedded index through the Backend
// seam, as a cluster would: RetrieveFrom over it runs as over zoekt, with
// the index's BM25F in zoekt's place. Retrieve, which reads the index in
// place, stays the way to run over a repository; this one lets the tests
// hold a backend's run to the embedded one's.
type IndexBackend struct {
	Index *index.Index
	// Repo names the repository in the files it finds.
	Repo string
	// Whole: a repository of at most this many files is found whole, as
	// zoekt's client finds a small repository.
	Whole int
}

func (b *IndexBackend) Name() string { return "index of " + b.Repo }

// Find searches the index: each of the request's concepts, learned terms
// and gaps' names, or the task's words for a first search; or a folder's
// files. The globs keep what they keep.
func (b *IndexBackend) Find(ctx context.Context, req hone.FindRequest) ([]hone.FoundFile, error) {
	keep := func(e *index.Entry) bool { return globsKeep(e.Path, req.Include, req.Exclude) }
	var entries []*index.Entry
	seen := map[string]bool{}
	add := func(e *index.Entry) {
		if e != nil && !seen[e.Path] && keep(e) {
			seen[e.Path] = true
			entries = append(entries, e)
		}
	}
	switch {
	case len(req.Folders) > 0:
		for _, e := range b.Index.Entries() {
			for _, f := range req.Folders {
				if path.Dir(path.Join(b.Repo, e.Path)) == path.Clean(f) {
					add(e)
				}
			}
		}
	case req.First && b.Whole > 0 && b.Index.N() <= b.Whole:
		for _, e := range b.Index.Entries() {
			add(e)
		}
	default:
		var groups [][]string
		if req.Query != nil {
			by := map[string][]string{}
			var order []string
			for _, t := range req.Query.Terms {
				if _, ok := by[t.Concept]; !ok {
					order = append(order, t.Concept)
				}
				by[t.Concept] = append(by[t.Concept], t.Stems...)
			}
			for _, c := range order {
				groups = append(groups, by[c])
			}
			for _, g := range req.Query.Gaps {
				groups = append(groups, []string{tokenize.Stem(strings.ToLower(g.Name))})
			}
		} else {
			tokenize.Each(req.Task, func(t tokenize.Token) { groups = append(groups, []string{t.Stem}) })
		}
		var all []index.QueryTerm
		for _, g := range groups {
			for _, s := range g {
				all = append(all, index.QueryTerm{Stem: s, Weight: 1})
			}
		}
		for _, h := range b.Index.Run(index.Search{Terms: all, Keep: keep, Limit: req.Limit}) {
			add(h.Entry)
		}
		for _, g := range groups {
			var terms []index.QueryTerm
			for _, s := range g {
				terms = append(terms, index.QueryTerm{Stem: s, Weight: 1})
			}
			for _, h := range b.Index.Run(index.Search{Terms: terms, Keep: keep, Limit: max(5, req.Limit/4)}) {
				add(h.Entry)
			}
		}
	}
	out := make([]hone.FoundFile, 0, len(entries))
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		src, err := b.Index.Content(e)
		if err != nil {
			continue
		}
		out = append(out, hone.FoundFile{Repo: b.Repo, Path: e.Path, Content: src})
	}
	return out, b.Index.Err()
}

var _ hone.Backend = (*IndexBackend)(nil)
