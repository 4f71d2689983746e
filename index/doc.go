package index

import (
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hone-tools/hone/structure"
	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// Field is a part of a file that terms are counted in separately.
type Field int

// The fields, from the most to the least telling.
const (
	Name    Field = iota // the file name without its extension
	Dir                  // the directories of the path
	Def                  // names of the definitions the file makes
	Body                 // the whole text
	Comment              // comments and docstrings (also counted in Body)
	NumFields
)

func (f Field) String() string {
	return [...]string{"name", "path", "definitions", "body", "comments"}[f]
}

// Entry is what the catalog keeps of every file: enough to filter and stat
// it without loading its terms.
type Entry struct {
	ID      int64
	Path    string
	Kind    walk.Kind
	Lang    string
	Size    int64
	ModTime int64            // nanoseconds since the epoch
	Len     [NumFields]int32 // tokens per field
	seg     int64            // the segment holding its postings; 0 while in the delta
	hash    []byte
}

// TermFreq is how often one term occurs in each field of a file.
type TermFreq struct {
	Stem    string
	Surface string // the shortest word seen for the stem in this file
	TF      [NumFields]uint16
}

// Doc is one indexed file with its terms and outline.
type Doc struct {
	Entry
	Terms   []TermFreq // sorted by Stem
	Defs    []structure.Def
	Imports []string
	Calls   []string // names the file calls, each once, sorted
	// Pairs are the terms that stand together in one identifier, or near
	// each other in a comment, as indexes into Terms, sorted: what the
	// file adds to the repository's thesaurus.
	Pairs [][2]int32
}

// TF returns the term's frequency in each field of the file.
func (d *Doc) TF(stem string) [NumFields]uint16 {
	i := sort.Search(len(d.Terms), func(i int) bool { return d.Terms[i].Stem >= stem })
	if i < len(d.Terms) && d.Terms[i].Stem == stem {
		return d.Terms[i].TF
	}
	return [NumFields]uint16{}
}

// moduleIndex are the file names that stand for their folder's module.
var moduleIndex = map[string]bool{
	"index.ts": true, "index.tsx": true, "index.js": true, "index.jsx": true, "index.mjs": true,
	"__init__.py": true, "mod.rs": true, "lib.rs": true,
}

// analyze tokenizes one file's content into a Doc. src is nil for files whose
// contents must not be read (secrets) or could not be.
func analyze(f walk.File, src []byte) *Doc {
	d := &Doc{Entry: Entry{Path: f.Path, Kind: f.Kind, Lang: structure.Language(f.Path), Size: f.Size, ModTime: f.ModTime.UnixNano()}}
	terms := map[string]*TermFreq{}
	add := func(field Field, t tokenize.Token) {
		if tokenize.IsStopWord(t.Text) {
			return
		}
		tf := terms[t.Stem]
		if tf == nil {
			tf = &TermFreq{Stem: t.Stem, Surface: t.Text}
			terms[t.Stem] = tf
		} else if shorter(t.Text, tf.Surface) {
			tf.Surface = t.Text
		}
		if tf.TF[field] < math.MaxUint16 {
			tf.TF[field]++
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
	var pairs *pairer
	if src != nil {
		var spans [][2]int
		if !f.Kind.Has(walk.Generated) {
			// The fast extractor for every file; Index.Outline parses the
			// few files a retrieval looks at closely with tree-sitter.
			o := structure.ExtractFallback(f.Path, src)
			d.Defs, d.Imports = o.Defs, o.Imports
			for _, def := range d.Defs {
				tokenize.Each(def.Name, func(t tokenize.Token) { add(Def, t) })
			}
			seen := map[string]bool{}
			for _, c := range o.Calls {
				if !seen[c.Name] {
					seen[c.Name] = true
					d.Calls = append(d.Calls, c.Name)
				}
			}
			sort.Strings(d.Calls)
			spans = structure.CommentSpans(d.Lang, src)
		}
		// One pass over the text: a token inside a comment counts in both
		// the body and the comments.
		pairs = newPairer(d.Defs)
		span := 0
		// Prose documentation pairs its words as comments do.
		prose := f.Kind.Has(walk.Docs) && len(spans) == 0
		tokenize.Each(string(src), func(t tokenize.Token) {
			add(Body, t)
			for len(spans) > 0 && spans[0][1] <= t.Pos {
				spans = spans[1:]
				span++
			}
			if len(spans) > 0 && spans[0][0] <= t.Pos {
				add(Comment, t)
				pairs.token(t, span)
			} else if prose {
				pairs.token(t, 0)
			} else {
				pairs.token(t, -1)
			}
		})
	}
	d.Terms = make([]TermFreq, 0, len(terms))
	for _, tf := range terms {
		if tf.Surface == tf.Stem {
			tf.Surface = ""
		}
		d.Terms = append(d.Terms, *tf)
	}
	sort.Slice(d.Terms, func(i, j int) bool { return d.Terms[i].Stem < d.Terms[j].Stem })
	if pairs != nil && !f.Kind.Has(walk.Generated) && !f.Kind.Has(walk.Vendor) && !f.Kind.Has(walk.Test) {
		d.Pairs = pairs.pairs(d.Terms)
	}
	return d
}

// shorter prefers the shorter word, then the first in order: "middleware"
// over "middlewares".
func shorter(a, b string) bool {
	return len(a) < len(b) || len(a) == len(b) && a < b
}

// readFile reads a walked file for indexing: nil for secret-bearing files,
// whose contents are never read, and for files that vanished or turned
// binary since the walk.
func readFile(root string, f walk.File) []byte {
	if f.Kind.Has(walk.Secret) {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
	if err != nil || walk.IsBinary(b[:min(len(b), walk.HeadSize)]) {
		return nil
	}
	return b
}
