// Package index holds what hone knows about a repository's files: their
// kinds, their outlines, and their terms by field, with the statistics that
// BM25-style scoring needs.
package index

import (
	"context"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// Field is a part of a file that terms are counted in separately.
type Field int

// The fields, from the most to the least telling.
const (
	Name Field = iota // the file name without its extension
	Dir               // the directories of the path
	Def               // names of the definitions the file makes
	Body              // the whole text
	NumFields
)

func (f Field) String() string {
	return [...]string{"name", "path", "definitions", "body"}[f]
}

// TermFreq is how often one term occurs in each field of a file.
type TermFreq struct {
	Term uint32
	TF   [NumFields]uint16
}

// Doc is one indexed file.
type Doc struct {
	ID      int
	Path    string
	Kind    walk.Kind
	Lang    string
	Size    int64
	Len     [NumFields]int32 // tokens per field
	Terms   []TermFreq       // sorted by Term
	Defs    []structure.Def
	Imports []string
}

// TF returns the term's frequency in each field of the file.
func (d *Doc) TF(term uint32) [NumFields]uint16 {
	i := sort.Search(len(d.Terms), func(i int) bool { return d.Terms[i].Term >= term })
	if i < len(d.Terms) && d.Terms[i].Term == term {
		return d.Terms[i].TF
	}
	return [NumFields]uint16{}
}

// Options controls Build.
type Options struct {
	MaxFileSize int64 // passed to the walk
}

// Index is an in-memory index of one repository.
type Index struct {
	Root string
	Docs []*Doc

	byPath  map[string]*Doc
	dirs    map[string]bool
	terms   map[string]uint32
	termStr []string
	surface []string // the shortest word seen for each term
	df      []int32
	post    [][]int32 // term -> ids of the docs holding it, ascending
	definer map[string][]int32
	avgLen  [NumFields]float64
}

// Build walks the repository at root and indexes every file the walk keeps.
func Build(ctx context.Context, root string, opts Options) (*Index, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	files, err := walk.Files(ctx, abs, walk.Options{MaxFileSize: opts.MaxFileSize})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	type parsed struct {
		doc   *Doc
		terms map[string]*termInfo
	}
	out := make([]parsed, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				d, terms := analyze(abs, files[i])
				out[i] = parsed{d, terms}
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	ix := &Index{
		Root:    abs,
		byPath:  make(map[string]*Doc, len(files)),
		dirs:    map[string]bool{},
		terms:   map[string]uint32{},
		definer: map[string][]int32{},
	}
	var total [NumFields]float64
	for _, p := range out {
		if p.doc == nil {
			continue
		}
		d := p.doc
		d.ID = len(ix.Docs)
		ix.Docs = append(ix.Docs, d)
		ix.byPath[d.Path] = d
		for dir := path.Dir(d.Path); dir != "." && dir != "/"; dir = path.Dir(dir) {
			ix.dirs[dir+"/"] = true
		}
		d.Terms = make([]TermFreq, 0, len(p.terms))
		for s, ti := range p.terms {
			id, ok := ix.terms[s]
			if !ok {
				id = uint32(len(ix.termStr))
				ix.terms[s] = id
				ix.termStr = append(ix.termStr, s)
				ix.surface = append(ix.surface, ti.surface)
				ix.df = append(ix.df, 0)
				ix.post = append(ix.post, nil)
			} else if shorter(ti.surface, ix.surface[id]) {
				ix.surface[id] = ti.surface
			}
			ix.df[id]++
			ix.post[id] = append(ix.post[id], int32(d.ID))
			d.Terms = append(d.Terms, TermFreq{Term: id, TF: ti.tf})
		}
		sort.Slice(d.Terms, func(i, j int) bool { return d.Terms[i].Term < d.Terms[j].Term })
		for f := range total {
			total[f] += float64(d.Len[f])
		}
		seen := map[string]bool{}
		for _, def := range d.Defs {
			if def.Kind == "section" || seen[def.Name] {
				continue
			}
			seen[def.Name] = true
			ix.definer[def.Name] = append(ix.definer[def.Name], int32(d.ID))
		}
	}
	if n := float64(len(ix.Docs)); n > 0 {
		for f := range total {
			ix.avgLen[f] = math.Max(1, total[f]/n)
		}
	}
	return ix, nil
}

// termInfo is one term's frequencies in a file, and the word it was seen as.
type termInfo struct {
	tf      [NumFields]uint16
	surface string
}

// shorter prefers the shorter word, then the first in order: "middleware"
// over "middlewares".
func shorter(a, b string) bool {
	return len(a) < len(b) || len(a) == len(b) && a < b
}

// analyze reads and tokenizes one file. A file that cannot be read is
// indexed by its name alone.
func analyze(root string, f walk.File) (*Doc, map[string]*termInfo) {
	d := &Doc{Path: f.Path, Kind: f.Kind, Lang: structure.Language(f.Path), Size: f.Size}
	terms := map[string]*termInfo{}
	add := func(field Field, t tokenize.Token) {
		if tokenize.IsStopWord(t.Text) {
			return
		}
		ti := terms[t.Stem]
		if ti == nil {
			ti = &termInfo{surface: t.Text}
			terms[t.Stem] = ti
		} else if shorter(t.Text, ti.surface) {
			ti.surface = t.Text
		}
		if ti.tf[field] < math.MaxUint16 {
			ti.tf[field]++
		}
		d.Len[field]++
	}
	base := path.Base(f.Path)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if stem == "" {
		stem = base
	}
	tokenize.Each(stem, func(t tokenize.Token) { add(Name, t) })
	if moduleIndex[base] {
		// index.ts, __init__.py, mod.rs: the module is named for its folder.
		tokenize.Each(path.Base(path.Dir(f.Path)), func(t tokenize.Token) { add(Name, t) })
	}
	if dir := path.Dir(f.Path); dir != "." {
		tokenize.Each(dir, func(t tokenize.Token) { add(Dir, t) })
	}
	if f.Kind.Has(walk.Secret) {
		return d, terms // names only: never the contents of a secret
	}
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
	if err != nil {
		return d, terms
	}
	if !f.Kind.Has(walk.Generated) {
		o := structure.Extract(f.Path, src)
		d.Defs, d.Imports = o.Defs, o.Imports
		for _, def := range d.Defs {
			tokenize.Each(def.Name, func(t tokenize.Token) { add(Def, t) })
		}
	}
	tokenize.Each(string(src), func(t tokenize.Token) { add(Body, t) })
	return d, terms
}

// moduleIndex are the file names that stand for their folder's module.
var moduleIndex = map[string]bool{
	"index.ts": true, "index.tsx": true, "index.js": true, "index.jsx": true, "index.mjs": true,
	"__init__.py": true, "mod.rs": true, "lib.rs": true,
}

// N is the number of indexed files.
func (ix *Index) N() int { return len(ix.Docs) }

// Doc returns the file at a slash path, or nil.
func (ix *Index) Doc(p string) *Doc { return ix.byPath[p] }

// Term returns the id of a stemmed term.
func (ix *Index) Term(stem string) (uint32, bool) {
	id, ok := ix.terms[stem]
	return id, ok
}

// TermString is the inverse of Term.
func (ix *Index) TermString(id uint32) string { return ix.termStr[id] }

// Surface is the shortest word seen for a term: "middleware" for the
// stem "middlewar".
func (ix *Index) Surface(id uint32) string { return ix.surface[id] }

// DF is the number of files holding the term.
func (ix *Index) DF(stem string) int {
	if id, ok := ix.terms[stem]; ok {
		return int(ix.df[id])
	}
	return 0
}

// DFID is DF by term id.
func (ix *Index) DFID(id uint32) int { return int(ix.df[id]) }

// IDF is the BM25 inverse document frequency of a term.
func (ix *Index) IDF(df int) float64 {
	n := float64(len(ix.Docs))
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// AvgLen is the mean number of tokens in a field.
func (ix *Index) AvgLen(f Field) float64 { return ix.avgLen[f] }

// Postings lists the ids of the files holding a term.
func (ix *Index) Postings(id uint32) []int32 { return ix.post[id] }

// Definers lists the files that define name (exact, case-sensitive).
func (ix *Index) Definers(name string) []*Doc {
	ids := ix.definer[name]
	out := make([]*Doc, len(ids))
	for i, id := range ids {
		out[i] = ix.Docs[id]
	}
	return out
}

// Exists reports whether p names an indexed file, or with a trailing slash a
// directory holding indexed files.
func (ix *Index) Exists(p string) bool {
	if strings.HasSuffix(p, "/") {
		return ix.dirs[p]
	}
	return ix.byPath[p] != nil
}

// Imports resolves the imports of d to indexed files.
func (ix *Index) Imports(d *Doc) []string {
	var out []string
	seen := map[string]bool{}
	for _, spec := range d.Imports {
		for _, p := range structure.Resolve(d.Lang, d.Path, spec, ix.Exists) {
			if strings.HasSuffix(p, "/") {
				// a package directory: every file directly inside it.
				for _, o := range ix.Docs {
					if path.Dir(o.Path)+"/" == p && o.Lang == d.Lang && !seen[o.Path] && o.Path != d.Path {
						seen[o.Path] = true
						out = append(out, o.Path)
					}
				}
				continue
			}
			if !seen[p] && p != d.Path {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// Content reads a file's text. Secret-bearing files are refused.
func (ix *Index) Content(d *Doc) ([]byte, error) {
	if d.Kind.Has(walk.Secret) {
		return nil, fmt.Errorf("read %s: secret-bearing file, contents are never read", d.Path)
	}
	b, err := os.ReadFile(filepath.Join(ix.Root, filepath.FromSlash(d.Path)))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.Path, err)
	}
	return b, nil
}
