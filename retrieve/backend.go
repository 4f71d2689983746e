package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/redact"
)

// How much a run fetches from a backend: the task's first search, then
// each search of the query the first pass came to.
const (
	backendFirst   = 40
	backendMore    = 20
	backendFolders = 5
	// backendPassCycles: the first pass's cycles.
	backendPassCycles = 2
)

// RetrieveFrom runs the loop over what a backend finds, rather than over a
// repository on disk. The files the task's first search finds are written
// under tree, as REPO/PATH, and indexed in indexDir (opts.IndexDir when it
// is empty, as for Retrieve); a first pass of the
// loop over them learns the task's concepts in the codebase's words and
// the definitions it misses; each of those makes another search of the
// backend, whose files join the others; and the loop runs again, for the
// result. The result's paths are REPO/PATH, under tree, where a pack reads
// them; when the first search finds files of one repository only, they
// are its paths, and the result's Repo names it. What the embedded index learns of a whole repository (its
// thesaurus, its graph of imports and calls, its history) it learns here
// of the files fetched alone, and the history not at all.
func RetrieveFrom(ctx context.Context, be hone.Backend, tree, indexDir, task string, opts hone.Options) (*hone.Result, error) {
	start := time.Now()
	task, opts, err := prepare(task, opts)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(tree, 0o700); err != nil {
		return nil, fmt.Errorf("make the working folder: %w", err)
	}
	clean, _ := redact.String(task)
	include, exclude := opts.Include, opts.Exclude
	ix, err := index.Open(ctx, tree, index.Options{Dir: cmp.Or(indexDir, opts.IndexDir), MaxFileSize: opts.MaxFileSize, Notice: opts.Notice, NoThesaurus: true})
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	if _, err := ix.Update(ctx, nil); err != nil {
		return nil, err
	}
	// The first searches: the task's concepts, as the task and the
	// glossary say them (nothing fetched yet tells which synonyms the
	// codebase uses).
	w := &working{tree: tree, include: include, exclude: exclude, done: map[string]bool{}}
	first := firstQuery(parseTask(task, ix), opts).trace()
	req := hone.FindRequest{Task: clean, Query: &first, First: true, Include: include, Exclude: exclude, Limit: backendFirst}
	if len(first.Terms) == 0 {
		req.Query = nil
	}
	found, err := be.Find(ctx, req)
	if err != nil {
		return nil, err
	}
	// Files of one repository are named by their paths in it: its name
	// as a folder above them all would be a word in every file's path.
	w.single = oneRepo(found)
	if err := w.write(found); err != nil {
		return nil, err
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		return nil, err
	}
	// The globs were applied to the fetched files, on their paths in their
	// repositories; the history is the cluster's, not here.
	opts.Include, opts.Exclude, opts.NoHistory = nil, nil, true
	// The first pass needs what the first cycles learn, not a ranking.
	popts := opts
	popts.MaxCycles = min(opts.MaxCycles, backendPassCycles)
	pass, err := runRepaired(ctx, ix, task, popts, nil, start)
	if err != nil {
		return nil, err
	}
	// The second searches: what the first pass came to say.
	var q hone.Query
	for _, c := range pass.Cycles {
		q.Terms = append(q.Terms, c.Query.Terms...)
		q.Gaps = append(q.Gaps, c.Query.Gaps...)
		q.Gaps = append(q.Gaps, c.Gaps...)
	}
	var more []hone.FoundFile
	if len(q.Terms) > 0 || len(q.Gaps) > 0 {
		if more, err = be.Find(ctx, hone.FindRequest{Task: clean, Query: &q, Include: include, Exclude: exclude, Limit: backendMore}); err != nil {
			return nil, err
		}
	}
	// And the neighbours of the best files: their folders' files, as the
	// embedded search has them at hand.
	var folders []string
	for _, r := range pass.Ranking {
		if len(folders) == backendFolders {
			break
		}
		dir := path.Dir(r.Path)
		if w.single != "" {
			dir = path.Join(w.single, dir)
		}
		if !slices.Contains(folders, dir) {
			folders = append(folders, dir)
		}
	}
	if len(folders) > 0 {
		near, err := be.Find(ctx, hone.FindRequest{Task: clean, Folders: folders, Include: include, Exclude: exclude, Limit: backendMore})
		if err != nil {
			return nil, err
		}
		more = append(more, near...)
	}
	before := len(w.done)
	if err := w.write(more); err != nil {
		return nil, err
	}
	if len(w.done) == before && popts.MaxCycles == opts.MaxCycles {
		// Nothing new, and the pass was a whole run: it is the result.
		pass.Repo = be.Name()
		if w.single != "" {
			pass.Repo += ": " + w.single
		}
		pass.ElapsedMS = time.Since(start).Milliseconds()
		return pass, nil
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		return nil, err
	}
	res, err := runRepaired(ctx, ix, task, opts, nil, start)
	if err != nil {
		return nil, err
	}
	res.Repo = be.Name()
	if w.single != "" {
		res.Repo += ": " + w.single
	}
	res.ElapsedMS = time.Since(start).Milliseconds()
	return res, nil
}

// working is the folder the fetched files are written to.
type working struct {
	tree             string
	include, exclude []string
	// single is the repository, when the files are all of one: they are
	// written at their paths in it, and those of others are left out.
	single string
	done   map[string]bool
}

// oneRepo is the repository of the files, if they are all of one.
func oneRepo(files []hone.FoundFile) string {
	repo := ""
	for _, f := range files {
		if repo != "" && f.Repo != repo {
			return ""
		}
		repo = f.Repo
	}
	return repo
}

// write writes the files a backend found, as REPO/PATH, or PATH when they
// are of a single repository: those the globs keep, none twice; a path
// that would leave the tree is refused.
func (w *working) write(files []hone.FoundFile) error {
	for _, f := range files {
		rel := path.Clean(strings.TrimPrefix(f.Path, "/"))
		repo := path.Clean(strings.Trim(f.Repo, "/"))
		if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(repo, "..") {
			continue
		}
		if !globsKeep(rel, w.include, w.exclude) {
			continue
		}
		p := path.Join(repo, rel)
		switch {
		case w.single != "" && f.Repo != w.single:
			continue
		case w.single != "" || repo == "." || repo == "":
			p = rel
		}
		if w.done[p] {
			continue
		}
		w.done[p] = true
		dst := filepath.Join(w.tree, filepath.FromSlash(p))
		if !strings.HasPrefix(dst, filepath.Clean(w.tree)+string(filepath.Separator)) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return fmt.Errorf("write the fetched files: %w", err)
		}
		if err := os.WriteFile(dst, f.Content, 0o600); err != nil {
			return fmt.Errorf("write the fetched files: %w", err)
		}
	}
	return nil
}

// globsKeep applies include and exclude globs to a path in its
// repository, as the embedded search does.
func globsKeep(p string, include, exclude []string) bool {
	return !matchAny(exclude, p) && (len(include) == 0 || matchAny(include, p))
}
