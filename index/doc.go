package index

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/hone-tools/hone/redact"
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
	// What git compares besides size and time, where the system has it.
	ino   uint64
	ctime int64 // status change time, nanoseconds since the epoch
	// checked is when the status was taken (nanoseconds since the epoch),
	// before the content was read; 0 when the file changed as it was
	// read, so that the next update reads it again.
	checked int64
}

// racySlack is how far before its status was taken a file may have
// changed and still be told apart from a change after it by its times:
// file times lag the clock by a tick, and some file systems keep whole
// seconds (FAT two). A variable for tests.
var racySlack = int64(3 * time.Second)

// clean reports whether the file f is known unchanged since e was
// recorded: the same status, compared as git compares it (size,
// modification and change times, inode), and not "racy" (git's word): a
// file that changed within racySlack of when its status was taken may
// change again without its times showing it, and must be read to be known.
func (e *Entry) clean(f walk.File) bool {
	return e.sameStat(f) && !e.racy()
}

func (e *Entry) sameStat(f walk.File) bool {
	return e.Size == f.Size && e.ModTime == nanos(f.ModTime) && e.ino == f.Inode && e.ctime == nanos(f.ChangeTime)
}

func (e *Entry) racy() bool {
	return e.checked == 0 || max(e.ModTime, e.ctime) >= e.checked-racySlack
}

// nanos is a time in nanoseconds since the epoch, 0 for the zero time.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// TermFreq is how often one term occurs in each field of a file.
type TermFreq struct {
	Stem string
	// Surface is the shortest word seen for the stem in this file;
	// empty where that word is the stem itself (Word).
	Surface string
	TF      [NumFields]uint16
}

// Word is the shortest word seen for the stem in the file: its Surface,
// or the stem itself.
func (t TermFreq) Word() string {
	if t.Surface == "" {
		return t.Stem
	}
	return t.Surface
}

// Doc is one indexed file with its terms and outline.
type Doc struct {
	Entry
	// hash is the content's, set on a doc made by an update: the
	// catalog's entries have none (Index.hashOf).
	hash    []byte
	Terms   []TermFreq // sorted by Stem
	Defs    []structure.Def
	Imports []string
	Calls   []string // names the file calls and does not define, each once, sorted
	// Pairs are the terms that stand together in one identifier, or near
	// each other in a comment, as indexes into Terms, sorted: what the
	// file adds to the repository's thesaurus.
	Pairs [][2]int32
}

// TF returns the term's frequency in each field of the file.
func (d *Doc) TF(stem string) [NumFields]uint16 {
	t, _ := d.Term(stem)
	return t.TF
}

// Term returns the file's term for a stem, and whether it has one.
func (d *Doc) Term(stem string) (TermFreq, bool) {
	i := sort.Search(len(d.Terms), func(i int) bool { return d.Terms[i].Stem >= stem })
	if i < len(d.Terms) && d.Terms[i].Stem == stem {
		return d.Terms[i], true
	}
	return TermFreq{}, false
}

// CallsOut returns the names the file calls that it does not define
// itself, sorted. Calls are read by a scan for name(, which holds each
// definition's own line: a file calls what it defines, and a name it
// defines leads nowhere else (another file's definition of it is a
// sibling, not a callee). An index's docs hold none of their own
// definitions among their calls (Calls); a doc made otherwise may.
func (d *Doc) CallsOut() []string {
	own := make(map[string]bool, len(d.Defs))
	for _, def := range d.Defs {
		own[def.Name] = true
	}
	var out []string
	for _, name := range d.Calls {
		if !own[name] {
			out = append(out, name)
		}
	}
	return out
}

// moduleIndex are the file names that stand for their folder's module.
var moduleIndex = map[string]bool{
	"index.ts": true, "index.tsx": true, "index.js": true, "index.jsx": true, "index.mjs": true,
	"__init__.py": true, "mod.rs": true, "lib.rs": true,
}

// NameTexts are the texts a file's name field is read from: its name
// without its extension (the whole name where that leaves nothing:
// .env), and for a module's index file (index.ts, __init__.py, mod.rs)
// its folder's name, for which the module is named ("" for other files).
func NameTexts(p string) (name, module string) {
	base := path.Base(p)
	name = strings.TrimSuffix(base, path.Ext(base))
	if name == "" {
		name = base
	}
	if moduleIndex[base] {
		module = path.Base(path.Dir(p))
	}
	return name, module
}

// analyze tokenizes one file's content into a Doc. src is nil for files whose
// contents must not be read (secrets) or could not be; it is the doc's from
// then on, the names of its outline parts of it: nothing may write to it.
func analyze(f walk.File, src []byte) *Doc { return analyzeWith(f, src, true) }

// analyzeWith is analyze, the thesaurus's pairs counted only when
// withPairs.
func analyzeWith(f walk.File, src []byte, withPairs bool) *Doc {
	d := &Doc{Entry: Entry{Path: f.Path, Kind: f.Kind, Lang: structure.Language(f.Path), Size: f.Size, ModTime: nanos(f.ModTime),
		ino: f.Inode, ctime: nanos(f.ChangeTime)}}
	ts := termSets.Get().(*termSet)
	// term places a stem among the file's terms, adding it uncounted if
	// new: the pairs place stems the text may not count, and a term
	// counted in no field is left out of the doc, its pairs with it.
	term := func(stem string) int32 {
		i, ok := ts.at[stem]
		if !ok {
			i = int32(len(ts.terms))
			ts.at[stem] = i
			ts.terms = append(ts.terms, TermFreq{Stem: stem})
		}
		return i
	}
	// add counts a token in a field, and returns where its term stands
	// among the file's terms, -1 for a stop word (see keepStop). A stop
	// word kept does not lengthen its field: every other term weighs in
	// it as it did before the index kept them.
	add := func(field Field, t tokenize.Token) int32 {
		if t.Stop && !keepStop(field, t.Text) {
			return -1
		}
		i := term(t.Stem)
		tf := &ts.terms[i]
		if tf.Surface == "" || shorter(t.Text, tf.Surface) {
			tf.Surface = t.Text
		}
		if tf.TF[field] < math.MaxUint16 {
			tf.TF[field]++
		}
		if !t.Stop {
			d.Len[field]++
		}
		return i
	}
	name, module := NameTexts(f.Path)
	tokenize.EachShort(name, func(t tokenize.Token) { add(Name, t) })
	if module != "" {
		tokenize.EachShort(module, func(t tokenize.Token) { add(Name, t) })
	}
	if dir := path.Dir(f.Path); dir != "." {
		tokenize.EachShort(dir, func(t tokenize.Token) { add(Dir, t) })
	}
	var pairs *pairer
	var strs [][2]int // the strings in code, help texts among them
	if src != nil {
		// Secrets' tokens never reach the index: their bytes become
		// spaces, offsets unchanged.
		src, _ = redact.Mask(f.Path, src)
		// The text read where it lies, not copied: src is this call's, and
		// nothing writes to it again. The doc's names are parts of it.
		text := unsafe.String(unsafe.SliceData(src), len(src))
		var spans [][2]int
		if !f.Kind.Has(walk.Generated) {
			// The fast extractor for every file; Index.Outline parses the
			// few files a retrieval looks at closely with tree-sitter.
			o := structure.ExtractFallbackDefs(f.Path, text)
			// A .h file's language is its text's: C's, or C++'s.
			d.Lang, d.Defs, d.Imports = o.Lang, o.Defs, o.Imports
			for _, def := range d.Defs {
				tokenize.EachShort(def.Name, func(t tokenize.Token) { add(Def, t) })
			}
			if structure.IsCode(o.Lang) {
				d.Calls = structure.CallNames(text, d.Defs)
			}
			spans, strs = structure.Spans(d.Lang, src)
		} else {
			d.Lang = structure.LanguageOf(f.Path, text)
		}
		// One pass over the text: a token inside a comment counts in both
		// the body and the comments.
		// A configuration file's keys are documented as definitions are.
		defs := slices.Concat(d.Defs, structure.ConfigKeys(d.Lang, src))
		// The pairs of generated, vendored and test files are not kept:
		// their words say what the code is, not what it is called.
		if withPairs && !f.Kind.Has(walk.Generated) && !f.Kind.Has(walk.Vendor) && !f.Kind.Has(walk.Test) {
			pairs = newPairer(defs, term)
			pairs.document(src, spans, defs)
		}
		span := 0
		// Prose documentation pairs its words as comments do.
		prose := f.Kind.Has(walk.Docs) && len(spans) == 0
		tokenize.Each(text, func(t tokenize.Token) {
			at := add(Body, t)
			for len(spans) > 0 && spans[0][1] <= t.Pos {
				spans = spans[1:]
				span++
			}
			inComment := len(spans) > 0 && spans[0][0] <= t.Pos
			if inComment {
				add(Comment, t)
			}
			switch {
			case pairs == nil:
			case inComment:
				pairs.token(t, at, span)
			case prose:
				pairs.token(t, at, 0)
			default:
				pairs.token(t, at, -1)
			}
		})
	}
	// The terms in the order of their stems, by a sort of their places:
	// rank says where each counted term went, which the pairs look up.
	// The pairs' help texts first: they may place stems of their own.
	if pairs != nil {
		pairs.helpTexts(src, strs)
	}
	n := len(ts.terms)
	ts.order = ts.order[:0]
	for i := range n {
		if ts.terms[i].TF != ([NumFields]uint16{}) { // counted, not only placed
			ts.order = append(ts.order, int32(i))
		}
	}
	slices.SortFunc(ts.order, func(a, b int32) int { return strings.Compare(ts.terms[a].Stem, ts.terms[b].Stem) })
	d.Terms = make([]TermFreq, len(ts.order))
	ts.rank = slices.Grow(ts.rank[:0], n)[:n]
	for i := range ts.rank {
		ts.rank[i] = -1
	}
	for i, k := range ts.order {
		d.Terms[i] = ts.terms[k]
		ts.rank[k] = int32(i)
		if tf := &d.Terms[i]; tf.Surface == tf.Stem {
			tf.Surface = ""
		}
	}
	if pairs != nil {
		d.Pairs = pairs.pairs(ts.rank)
		pairs.release()
	}
	clear(ts.at)
	clear(ts.terms) // no strings kept alive by the pool
	ts.terms = ts.terms[:0]
	termSets.Put(ts)
	return d
}

// keepStop reports whether a stop word counts in a field. A file's name
// and folders keep the stop words of two letters, which name a file there
// for a language (Italian's it.js, a locale/no folder; a task searches
// for one only as a language's code), and its name the name words
// (tokenize.IsNameWord: import, include, export), which a C project's
// include folder is not named for. Its definitions' names keep the name
// words (importLines), its text none. Only these: a longer stop word
// kept would meet the words that stem as it does (package.json, a task's
// "packages").
func keepStop(field Field, word string) bool {
	switch field {
	case Name:
		return len(word) == 2 || tokenize.IsNameWord(word)
	case Dir:
		return len(word) == 2
	case Def:
		return tokenize.IsNameWord(word)
	}
	return false
}

// termSets keeps the term sets of files analyzed, emptied, for the next
// ones: growing a map costs more than emptying one. A term is counted in
// place in the set's slice, not allocated alone.
var termSets = sync.Pool{New: func() any { return &termSet{at: map[string]int32{}} }}

// termSet is a file's terms as they are counted, and where each stands.
type termSet struct {
	at    map[string]int32
	terms []TermFreq
	// order and rank: the terms' places sorted by stem, and each term's
	// place in that order.
	order, rank []int32
}

// shorter prefers the shorter word, then the first in order: "middleware"
// over "middlewares".
func shorter(a, b string) bool {
	return len(a) < len(b) || len(a) == len(b) && a < b
}

// readFile reads a walked file for indexing. It returns the content, nil
// for secret-bearing files, whose contents are never read; and f with the status of the content read, taken
// from the open file before and after reading it, so that the index never
// records a status with a content it does not belong to. checked is when
// that status was taken (nanoseconds since the epoch; for a file not read,
// the walk's status is kept and checked is walked, when the walk began),
// 0 when the file kept changing as it was read: the content is then the
// last read. err says why a file could not be read: an fs.ErrNotExist for
// one that vanished since the walk met it, is no longer a regular file (a
// folder, a FIFO, or a link where the open does not follow links: Linux,
// macOS and the BSDs but NetBSD, whose EFTYPE counts it unreadable), or
// turned binary or grew past maxSize (negative for no limit).
func readFile(root string, f walk.File, walked, maxSize int64) (src []byte, read walk.File, checked int64, err error) {
	if f.Kind.Has(walk.Secret) {
		return nil, f, walked, nil
	}
	if maxSize < 0 {
		maxSize = math.MaxInt64 - 1
	}
	fh, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(f.Path)), openFlags, 0)
	if err != nil {
		// A file gone since the walk met it (an ErrNotExist) is the
		// caller's to take out of the index, not a file of no content;
		// so is one that a link took the place of, which the walk
		// would pass by now.
		if isLink(err) {
			return nil, f, walked, fmt.Errorf("%s is now a link: %w", f.Path, fs.ErrNotExist)
		}
		return nil, f, walked, err
	}
	defer fh.Close()
	withStat := func(fi fs.FileInfo) walk.File {
		g := f
		g.Size, g.ModTime = fi.Size(), fi.ModTime()
		g.Inode, g.ChangeTime = inodeOf(fi)
		return g
	}
	read = f
	for try := 0; try < 3; try++ {
		if try > 0 {
			if _, err := fh.Seek(0, io.SeekStart); err != nil {
				return nil, f, walked, err
			}
		}
		checked = time.Now().UnixNano()
		before, err := fh.Stat()
		if err != nil {
			return nil, f, walked, err
		}
		if !before.Mode().IsRegular() {
			// A folder or a FIFO now where the walk met a file: the file
			// is gone, as one removed is.
			return nil, f, walked, fmt.Errorf("%s is no longer a regular file: %w", f.Path, fs.ErrNotExist)
		}
		b, err := readAll(fh, before.Size(), maxSize)
		if err != nil {
			return nil, f, walked, err
		}
		after, err := fh.Stat()
		if err != nil {
			return nil, f, walked, err
		}
		read = withStat(after)
		if int64(len(b)) > maxSize || walk.IsBinary(b[:min(len(b), walk.HeadSize)]) {
			src = nil
		} else {
			src = b
		}
		if sameStatus(read, withStat(before)) && (int64(len(b)) == after.Size() || src == nil) {
			if src == nil {
				return nil, f, walked, errNotText
			}
			return src, read, checked, nil
		}
		// Written to as it was read: read it again.
	}
	if src == nil {
		return nil, f, walked, errNotText
	}
	return src, read, 0, nil
}

// errNotText is readFile's error for a file that turned binary, or grew
// past the size limit, since the walk met it: the walk would pass it by
// now, and the index holds it no more than a file removed (an
// fs.ErrNotExist).
var errNotText = fmt.Errorf("no longer a text file of the size the index takes: %w", fs.ErrNotExist)

// sameStatus reports whether two statuses of a file are the same.
func sameStatus(a, b walk.File) bool {
	return a.Size == b.Size && a.ModTime.Equal(b.ModTime) && a.Inode == b.Inode && a.ChangeTime.Equal(b.ChangeTime)
}

// readAll reads r to its end, or to one byte past max, into a buffer made
// for size bytes, as os.ReadFile does.
func readAll(r io.Reader, size, max int64) ([]byte, error) {
	b := make([]byte, 0, min(size, max)+1)
	for int64(len(b)) <= max {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):min(int64(cap(b)), max+1)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}
