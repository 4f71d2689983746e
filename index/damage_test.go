package index

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hone-tools/hone/tokenize"
)

// damageWords are the words of the repository damageRepo writes, and the
// queries answer asks.
var damageWords = strings.Fields(`session token refresh expiry auth middleware upload storage
	throttle rate limit invoice billing address report builder export render cache queue worker
	retry backoff schedule cron parser lexer syntax tree node graph edge vertex path route handler
	request response header cookie user account profile avatar image resize thumbnail bucket`)

// title upper-cases the first letter of a word of damageWords, all ASCII.
func title(w string) string { return strings.ToUpper(w[:1]) + w[1:] }

// damageRepo writes a repository of n Go files of random words, from a
// fixed seed.
func damageRepo(t *testing.T, n int) string {
	t.Helper()
	rng := rand.New(rand.NewSource(7))
	word := func() string { return damageWords[rng.Intn(len(damageWords))] }
	files := map[string]string{}
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package pkg%d\n\n", i%9)
		for f := 0; f < 6; f++ {
			a, c := word(), word()
			fmt.Fprintf(&b, "// %s%d checks the %s of the %s and the %s.\nfunc %s%s%d(%s string) string {\n\treturn %s%s(%s)\n}\n\n",
				title(a), f, c, word(), word(), title(a), title(c), i, word(), word(), title(word()), a)
		}
		files[fmt.Sprintf("pkg%d/%s_%s%d.go", i%9, word(), word(), i)] = b.String()
	}
	repo := t.TempDir()
	writeTree(t, repo, files)
	return repo
}

// answer is what a retrieval could read of an index: every file's terms
// and outline, each word's statistics and hits, the definers and the
// thesaurus; and the first error the reads met.
func answer(ix *Index) (string, error) {
	var b strings.Builder
	entries := ix.Entries()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	var names []string
	for i, e := range entries {
		d := ix.Doc(e.Path)
		if d == nil {
			fmt.Fprintf(&b, "%s: no doc\n", e.Path)
			continue
		}
		fmt.Fprintf(&b, "%s %v %d %d %v %v %v %v %v\n", e.Path, e.Kind, e.Size, e.Len, d.Terms, d.Defs, d.Imports, d.Calls, d.Pairs)
		for _, def := range d.Defs {
			names = append(names, def.Name)
		}
		if i%10 == 0 {
			o, err := ix.Outline(e)
			fmt.Fprintf(&b, "outline %v %v %v\n", o.Defs, o.Calls, err)
		}
	}
	var stems []string
	for _, w := range damageWords {
		st := tokenize.Stem(w)
		stems = append(stems, st)
		fmt.Fprintf(&b, "%s df=%d surface=%s:", w, ix.DF(st), ix.Surface(st))
		for _, h := range ix.Run(Search{Terms: []QueryTerm{{Stem: st, Weight: 1}}}) {
			fmt.Fprintf(&b, " %s=%.9g", h.Entry.Path, h.Score)
		}
		b.WriteString("\n")
	}
	defs := ix.DefinersOf(names)
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "def %s:", n)
		for _, e := range defs[n] {
			b.WriteString(" " + e.Path)
		}
		b.WriteString("\n")
	}
	rel := ix.RelatedAll(stems, 5)
	for _, st := range stems {
		fmt.Fprintf(&b, "related %s %v\n", st, rel[st])
	}
	return b.String(), ix.Err()
}

// overwrite writes random bytes over count 4 KB blocks of the middle of
// the file, chosen from seed; or, with span less than 4 KB, over count
// spans of that many bytes anywhere in the middle: damage SQLite's checks
// of its pages may not see.
func overwrite(t *testing.T, p string, seed int64, count int, span int64) []int64 {
	t.Helper()
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	const block = 4096
	blocks := fi.Size() / block
	if blocks < 10 {
		t.Fatalf("the index has only %d blocks", blocks)
	}
	rng := rand.New(rand.NewSource(seed))
	var at []int64
	for i := 0; i < count; i++ {
		// The middle: past the first tenth, before the last.
		n := blocks/10 + rng.Int63n(blocks*8/10)
		off := n * block
		if span < block {
			off += rng.Int63n(block - span)
		}
		buf := make([]byte, span)
		rng.Read(buf)
		if _, err := f.WriteAt(buf, off); err != nil {
			t.Fatal(err)
		}
		at = append(at, off)
	}
	return at
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDamage overwrites random 4 KB blocks in the middle of a built index.
// Whatever was hit, an update and the reads of a retrieval either answer
// as the undamaged index does, or meet the damage, and a rebuild, which
// always works, builds a new index with a notice; never a different answer.
func TestDamage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and damages many indexes")
	}
	noRacy(t)
	repo := damageRepo(t, 500)
	ctx := context.Background()
	pristine := t.TempDir()
	ix, err := buildAt(ctx, repo, Options{Dir: pristine})
	if err != nil {
		t.Fatal(err)
	}
	want, err := answer(ix)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(pristine, ix.Path)
	ix.Close()
	if _, err := os.Stat(filepath.Join(pristine, rel) + "-wal"); err == nil {
		t.Fatal("the closed index left a WAL: the copies would miss what it holds")
	}
	// Two retrievals on the undamaged copy answer alike, and, reopened,
	// with what the outlines stored.
	ix, err = buildAt(ctx, repo, Options{Dir: pristine})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := answer(ix); err != nil || got != want {
		t.Fatalf("the undamaged index answers differently once reopened (%v)", err)
	}
	ix.Close()

	var hit, noticed int
	for _, tc := range []struct {
		name         string
		span         int64
		count, seeds int
	}{
		{"4KB-blocks", 4096, 1, 6}, {"4KB-blocks", 4096, 3, 6}, {"16-byte-spans", 16, 8, 6},
		// Small damage inside a blob's numbers decodes into other numbers:
		// without checksums, 4 of these 20 answered differently.
		{"4-byte-spans", 4, 1, 20},
	} {
		for seed := int64(1); seed <= int64(tc.seeds); seed++ {
			t.Run(fmt.Sprintf("%s-%d-seed%d", tc.name, tc.count, seed), func(t *testing.T) {
				for _, mode := range []string{"update", "rebuild", "open-update"} {
					rebuild := mode == "rebuild"
					dir := t.TempDir()
					copyFile(t, filepath.Join(pristine, rel), filepath.Join(dir, rel))
					at := overwrite(t, filepath.Join(dir, rel), seed, tc.count, tc.span)
					var notices []string
					opts := Options{Dir: dir, Notice: func(s string) { notices = append(notices, s) }}
					what := fmt.Sprintf("%d bytes overwritten at %v", tc.span, at)
					var ix *Index
					var err error
					switch mode {
					case "open-update":
						// hone retrieve: the catalog read beside the walk.
						ix, _, err = OpenUpdate(ctx, repo, opts, nil)
					default:
						if ix, err = Open(ctx, repo, opts); err == nil {
							if rebuild {
								// hone index --rebuild, straight away.
								_, err = ix.Rebuild(ctx, nil)
							} else {
								_, err = ix.Update(ctx, nil)
							}
						}
					}
					if err != nil {
						t.Fatalf("%s, %s: %v", what, mode, err)
					}
					got, err := answer(ix)
					if err != nil {
						if !IsDamaged(err) {
							t.Fatalf("%s: the reads failed, and not for damage: %v", what, err)
						}
						// What a retrieval does when its reads meet damage.
						if _, err := ix.Rebuild(ctx, nil); err != nil {
							t.Fatalf("%s: rebuild after the reads met damage: %v", what, err)
						}
						if len(notices) == 0 {
							t.Errorf("%s: rebuilt after %v without a notice", what, err)
						}
						got, err = answer(ix)
					}
					ix.Close()
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					if got != want {
						t.Errorf("%s, %s: the index answers differently from the undamaged one, notices %q", what, mode, notices)
					}
					if len(notices) > 0 {
						noticed++
						if strings.Count(strings.Join(notices, "\n"), "\n") != 0 || !strings.Contains(notices[0], "damaged") {
							t.Errorf("%s: notices %q, want one line about the damage", what, notices)
						}
					}
					hit++
				}
			})
		}
	}
	t.Logf("%d damaged copies, %d rebuilt with a notice, the others answered as the undamaged index", hit, noticed)
}
