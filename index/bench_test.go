package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hone-tools/hone/walk"
)

// Benchmarks on a real checkout: HONE_BENCH_REPO=/path/to/repo go test -bench . ./index
// On a generated one of 100,000 small files:
// HONE_BENCH_FILES=100000 go test -bench NoChange -benchtime 5x ./index

func benchRepo(b *testing.B) string {
	if n, err := strconv.Atoi(os.Getenv("HONE_BENCH_FILES")); err == nil && n > 0 {
		return generatedRepo(b, n)
	}
	repo := os.Getenv("HONE_BENCH_REPO")
	if repo == "" {
		b.Skip("set HONE_BENCH_REPO to a repository to benchmark on, or HONE_BENCH_FILES to a number of small files to generate one")
	}
	return repo
}

// generatedRepo is a repository of n small Python files, a hundred to a
// folder, each defining a function named from a vocabulary of made-up
// words that calls another: the shape of issue 22's 100,000-file
// repository. It is made once, under the system's temporary folder, and
// kept for the next run.
func generatedRepo(b *testing.B, n int) string {
	root := filepath.Join(os.TempDir(), fmt.Sprintf("hone-bench-files-%d", n))
	done := root + ".complete"
	if _, err := os.Stat(done); err == nil {
		return root
	}
	os.RemoveAll(root)
	rng := rand.New(rand.NewPCG(7, 22))
	syllables := []string{"ka", "to", "ri", "mon", "sel", "var", "pex", "dor", "lin", "qua", "zen", "bro", "fli", "gat", "hum", "jor", "nex", "pol", "sut", "wim"}
	word := func() string {
		var w strings.Builder
		for range 2 + rng.IntN(3) {
			w.WriteString(syllables[rng.IntN(len(syllables))])
		}
		return w.String()
	}
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("pkg%d", i/10000), fmt.Sprintf("mod%d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
		}
		a, c, d := word(), word(), word()
		text := fmt.Sprintf("def %s_%s(x):\n    return %s(x)\n", a, c, d)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%d.py", a, i%100)), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkColdIndex reports, beside the time, the index's size for each
// byte of the files it indexed (issue 22 asks for 3 at most).
func BenchmarkColdIndex(b *testing.B) {
	repo := benchRepo(b)
	for i := 0; i < b.N; i++ {
		ix, err := buildAt(context.Background(), repo, Options{Dir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		if i == b.N-1 {
			st, err := ix.Status(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(st.Bytes)/float64(max(st.Source, 1)), "index-bytes/source-byte")
		}
		ix.Close()
	}
}

// indexedRepo is the benchmark repository and an index folder with its
// index built, the timer reset after.
func indexedRepo(b *testing.B) (repo, dir string) {
	repo, dir = benchRepo(b), b.TempDir()
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	ix.Close()
	b.ResetTimer()
	return repo, dir
}

func BenchmarkNoChangeUpdate(b *testing.B) {
	repo, dir := indexedRepo(b)
	for i := 0; i < b.N; i++ {
		ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkNoChangeOpenUpdate is hone index with nothing changed: the
// index opened and updated at once, its catalog read along with the walk
// from its snapshot and never made.
func BenchmarkNoChangeOpenUpdate(b *testing.B) {
	repo, dir := indexedRepo(b)
	for i := 0; i < b.N; i++ {
		ix, _, err := OpenUpdate(context.Background(), repo, Options{Dir: dir}, nil)
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkEditOpenUpdate is the update of a retrieve right after an
// edit: one file of the generated repository changed, the index opened
// and updated, its snapshot written again; and, as hone index does, the
// check after it, which reads nothing of what the update wrote.
func BenchmarkEditOpenUpdate(b *testing.B) {
	if os.Getenv("HONE_BENCH_FILES") == "" {
		b.Skip("set HONE_BENCH_FILES: the benchmark edits a file of the repository it generates, never one of HONE_BENCH_REPO")
	}
	repo, dir := indexedRepo(b)
	folder := filepath.Join(repo, "pkg0", "mod0")
	names, err := os.ReadDir(folder)
	if err != nil || len(names) == 0 {
		b.Fatalf("no file to edit in %s: %v", folder, err)
	}
	p := filepath.Join(folder, names[0].Name())
	orig, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(p, orig, 0o644)
	edits := 0 // each edit new, across the runs of both
	for _, check := range []bool{false, true} {
		name := "update"
		if check {
			name = "index"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				edits++
				if err := os.WriteFile(p, fmt.Appendf(slices.Clone(orig), "# edit %d\n", edits), 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				ix, st, err := OpenUpdate(context.Background(), repo, Options{Dir: dir}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if st.Changed != 1 {
					b.Fatalf("the update changed %d files, want the one edited", st.Changed)
				}
				if check {
					if err := ix.CheckChanged(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
				ix.Close()
			}
		})
	}
}

// repoTexts reads the text files of this repository (or of
// HONE_BENCH_REPO) as the walk classifies them, for the benchmarks of
// one stage.
func repoTexts(b *testing.B) ([]walk.File, [][]byte) {
	root := os.Getenv("HONE_BENCH_REPO")
	if root == "" {
		root = ".."
	}
	var files []walk.File
	var srcs [][]byte
	err := walk.Walk(context.Background(), root, walk.Options{}, func(f walk.File) error {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			return nil
		}
		files = append(files, f)
		srcs = append(srcs, src)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files, srcs
}

// BenchmarkAnalyze is the analysis of a cold index, file by file: masking
// secrets, outlining, tokenizing and pairing, on one core.
func BenchmarkAnalyze(b *testing.B) {
	files, srcs := repoTexts(b)
	total := 0
	for _, s := range srcs {
		total += len(s)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for i, f := range files {
			analyzeWith(f, srcs[i], true)
		}
	}
}

// BenchmarkThesaurusFlush is the writing of a cold index's pair counts:
// those of this repository's files (or HONE_BENCH_REPO's), counted,
// sorted and inserted.
func BenchmarkThesaurusFlush(b *testing.B) {
	files, srcs := repoTexts(b)
	docs := make([]*Doc, len(files))
	for i, f := range files {
		docs[i] = analyzeWith(f, srcs[i], true)
	}
	for b.Loop() {
		b.StopTimer()
		ix, err := Open(context.Background(), b.TempDir(), Options{Dir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		err = ix.write(context.Background(), "write", func(w *writer) { w.flushThesaurus(docs) })
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		ix.Close()
		b.StartTimer()
	}
}

// BenchmarkPostingBlocks is the gathering of a cold index's postings
// into blocks at its flush: those of this repository's files (or
// HONE_BENCH_REPO's), on every core.
func BenchmarkPostingBlocks(b *testing.B) {
	files, srcs := repoTexts(b)
	docs := make([]*Doc, len(files))
	for i, f := range files {
		docs[i] = analyzeWith(f, srcs[i], false)
		docs[i].ID = int64(i + 1)
	}
	for b.Loop() {
		postingBlocksIn(docs, max(1, min(runtime.GOMAXPROCS(0), 8)))
	}
}

// BenchmarkDecodeSnapshot is the decoding of the catalog's snapshot of
// 100,000 files shaped as generatedRepo's, which every open does; it
// reports the snapshot's bytes an entry.
func BenchmarkDecodeSnapshot(b *testing.B) {
	es := make([]*Entry, 100_000)
	t0 := int64(1_700_000_000_000_000_000)
	for i := range es {
		mt := t0 + int64(i)*37_000
		es[i] = &Entry{ID: int64(i + 1), Path: fmt.Sprintf("pkg%d/mod%d/bromonsutvar_%d.py", i/10000, i/100, i%100), Lang: "python",
			Size: 56, ModTime: mt, ino: uint64(1_000_000 + i), ctime: mt, checked: t0 + 60e9, seg: int64(1 + i/25000),
			Len: [NumFields]int32{2, 2, 1, 9, 0}}
	}
	data := encodeEntries(es)
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeEntries(data); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(data))/float64(len(es)), "B/entry")
	})
	// What a no-change update reads of it: a pass with nothing made.
	b.Run("summarize", func(b *testing.B) {
		for b.Loop() {
			if _, err := summarize(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCheckChanged is the check after a no-change update: the
// database unchanged since the last check passed is not read again.
func BenchmarkCheckChanged(b *testing.B) {
	repo := benchRepo(b)
	old := racySlack
	racySlack = 0
	b.Cleanup(func() { racySlack = old })
	dir := b.TempDir()
	ix, err := buildAt(context.Background(), repo, Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	// Closed, its WAL is folded into the file, which the check stamps.
	ix.Close()
	if ix, err = Open(context.Background(), repo, Options{Dir: dir}); err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if err := ix.CheckChanged(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := ix.CheckChanged(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// benchIndex builds the index of benchRepo in a temporary folder.
func benchIndex(b *testing.B) *Index {
	ix, err := buildAt(context.Background(), benchRepo(b), Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return ix
}

// benchDocs are the docs of the first n files of the index that call
// something, by path.
func benchDocs(b *testing.B, ix *Index, n int) []*Doc {
	entries := ix.Entries()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	var docs []*Doc
	for _, e := range entries {
		if d := ix.Doc(e.Path); d != nil && len(d.Calls) > 0 {
			if docs = append(docs, d); len(docs) == n {
				break
			}
		}
	}
	if err := ix.Err(); err != nil {
		b.Fatal(err)
	}
	return docs
}

// BenchmarkDefinersOf reads the definers of what 300 files call, each
// name once, as the graph of a retrieval does, not cached.
func BenchmarkDefinersOf(b *testing.B) {
	ix := benchIndex(b)
	seen := map[string]bool{}
	var names []string
	for _, d := range benchDocs(b, ix, 300) {
		for _, c := range d.Calls {
			if !seen[c] {
				seen[c] = true
				names = append(names, c)
			}
		}
	}
	for b.Loop() {
		ix.mu.Lock()
		ix.defs = map[string][]*Entry{}
		ix.mu.Unlock()
		ix.DefinersOf(names)
	}
	if err := ix.Err(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(names)), "names")
}

// BenchmarkRelatedAll reads the thesaurus's neighbours of 40 terms, as a
// retrieval's query asks.
func BenchmarkRelatedAll(b *testing.B) {
	ix := benchIndex(b)
	seen := map[string]bool{}
	var stems []string
	for _, d := range benchDocs(b, ix, 300) {
		for _, t := range d.Terms {
			if len(stems) < 40 && !seen[t.Stem] && len(t.Stem) > 3 {
				seen[t.Stem] = true
				stems = append(stems, t.Stem)
			}
		}
	}
	for b.Loop() {
		ix.RelatedAll(stems, 8)
	}
	if err := ix.Err(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCheck reads the whole index, as CheckChanged does for an index
// another program may have written, or one not found checked before
// this process wrote it.
func BenchmarkCheck(b *testing.B) {
	ix := benchIndex(b)
	for b.Loop() {
		if err := ix.Check(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeDoc decodes the doc blobs of 300 files, as a retrieval
// reads the docs of its candidates and of the delta.
func BenchmarkDecodeDoc(b *testing.B) {
	ix := benchIndex(b)
	var blobs [][]byte
	size := 0
	for _, d := range benchDocs(b, ix, 300) {
		blob := encodeDoc(d)
		blobs = append(blobs, blob)
		size += len(blob)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, blob := range blobs {
			var d Doc
			if err := decodeDoc(blob, &d); err != nil {
				b.Fatal(err)
			}
		}
	}
}
