package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hone-tools/hone/tokenize"
	"github.com/hone-tools/hone/walk"
)

// pairCounts dumps the thesaurus's pair counts as a retrieval reads them,
// the delta's pairs added and the dropped files' taken back, sorted.
func pairCounts(t *testing.T, ix *Index) string {
	t.Helper()
	rows, err := ix.reader().QueryContext(context.Background(), `SELECT a, pairs FROM cooc`)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[[2]string]int{}
	for rows.Next() {
		var x string
		var blob []byte
		if err := rows.Scan(&x, &blob); err != nil {
			t.Fatal(err)
		}
		key, _, list, err := decodePairs(blob)
		if err != nil || key != x {
			rows.Close() // a read left open holds the index's Close
			t.Fatalf("the counts of %q: %q, %v", x, key, err)
		}
		for _, nb := range list {
			counts[[2]string{x, nb.Stem}] += nb.Files
		}
	}
	rows.Close()
	out, err := readPairsOut(context.Background(), ix.reader())
	if err != nil {
		t.Fatal(err)
	}
	ix.mu.Lock()
	ix.prepare()
	for _, d := range ix.delta {
		if e := ix.entryByID(d.ID); e != nil && e.seg == 0 {
			for _, p := range d.pairStems() {
				counts[p]++
				counts[[2]string{p[1], p[0]}]++
			}
		}
	}
	for p, n := range out {
		counts[p] -= n
		counts[[2]string{p[1], p[0]}] -= n
	}
	ix.mu.Unlock()
	var lines []string
	for k, n := range counts {
		if n != 0 {
			lines = append(lines, fmt.Sprintf("%s %s %d", k[0], k[1], n))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestPairs(t *testing.T) {
	ix := build(t, map[string]string{
		"a.py":           "# Throttle requests that exceed the rate.\ndef get_throttle_rate(): pass\n",
		"README.md":      "The throttle keeps the request rate low.\n",
		"b.go":           "package b\n\n// Overloaded machines reject\n// incoming calls.\n\n// AdaptiveShedder drops work.\nfunc AdaptiveShedder() {}\n\n// Nothing follows this note.\n\nvar x = 1\n\nfunc Serve() {\n\tcall() // answer quickly\n}\n",
		"c.py":           "def upload_limit():\n    \"\"\"Refuse bodies that are too big.\"\"\"\n",
		"docs/run.md":    "Sessions end early. The `max_fail` option stops the session after a number of failures, and keeps\nthe report short. One two three four five six seven eight nine ten eleven twelve.\n",
		"config.yaml":    "server:\n  # Refuse request bodies larger than this many bytes.\n  max_body_size: 1048576\n  read_timeout: 30s # give up on clients that stall\n  # The pool's size.\n  workers: 4\n",
		"setup.cfg":      "[tool:pytest]\n; stop after this many failures\nmaxfail = 3\n",
		"app.properties": "! Seconds before an idle connection closes.\nhttp.idle.timeout=60\n",
		"flags.go":       "package main\n\nvar verbose = flag.Bool(\"verbose\", false, \"print every step taken\")\n\nvar maxFail = flag.Int(\n\t\"max-fail\",\n\t0,\n\t\"stop the session after N failures\")\n\nfunc main() { log.Printf(\"%s: %d\", \"a b\", 1) }\n",
	})
	stems := func(p string) map[string]bool {
		m := map[string]bool{}
		for _, pr := range ix.Doc(p).pairStems() {
			m[pr[0]+"+"+pr[1]] = true
		}
		return m
	}
	key := func(a, b string) string {
		a, b = tokenize.Stem(a), tokenize.Stem(b)
		if b < a {
			a, b = b, a
		}
		return a + "+" + b
	}
	tests := []struct {
		path, a, b string
		want       bool
	}{
		{"a.py", "throttle", "rate", true},     // one identifier
		{"a.py", "throttle", "requests", true}, // next to each other in a comment
		{"a.py", "requests", "exceed", true},   // within the window
		{"a.py", "throttle", "exceed", true},   // two words apart: the stop word "that" does not count
		{"a.py", "throttle", "the", false},     // stop words never pair
		{"a.py", "requests", "get", true},      // a doc comment's words pair with the name it documents
		{"b.go", "drops", "shedder", true},     // a block of line comments documents the func under it
		{"b.go", "work", "adaptive", true},
		{"b.go", "overloaded", "shedder", false}, // a blank line ends the block: this one documents nothing
		{"b.go", "follows", "serve", false},      // a comment two lines above a var documents no func
		{"b.go", "quickly", "serve", false},      // a comment inside a body, past its first lines, documents nothing
		{"c.py", "big", "upload", true},          // a docstring documents its function
		{"c.py", "refuse", "limit", true},
		{"README.md", "throttle", "keeps", true}, // prose documentation pairs as comments do
		{"README.md", "request", "rate", true},
		{"README.md", "throttle", "low", false},
		{"docs/run.md", "max", "session", true},   // a compound identifier in prose pairs with the words around it
		{"docs/run.md", "fail", "option", true},   // before it
		{"docs/run.md", "fail", "failures", true}, // and after it, within mentionWindow words
		{"docs/run.md", "fail", "short", false},   // but no farther
		{"docs/run.md", "max", "twelve", false},
		{"docs/run.md", "sessions", "early", true},
		{"flags.go", "step", "verbose", true}, // a help text pairs with its flag's name
		{"flags.go", "session", "fail", true}, // on the lines above it
		{"flags.go", "failures", "max", true},
		{"flags.go", "stop", "flag", true},
		{"flags.go", "failures", "verbose", false}, // not past a blank line or the string before
		{"flags.go", "step", "fail", false},
		{"flags.go", "printf", "log", false},   // "%s: %d" is no prose
		{"config.yaml", "bodies", "max", true}, // a comment above a configuration key documents it
		{"config.yaml", "larger", "body", true},
		{"config.yaml", "stall", "timeout", true}, // and one after it on its line
		{"config.yaml", "pool", "workers", true},
		{"config.yaml", "pool", "timeout", false}, // a comment after a key starts no block for the lines under it
		{"config.yaml", "stall", "workers", false},
		{"config.yaml", "bodies", "server", false},
		{"setup.cfg", "failures", "maxfail", true}, // INI comments start with ;
		{"app.properties", "closes", "http", true}, // and properties comments with !
		{"app.properties", "connection", "timeout", true},
	}
	for _, tt := range tests {
		if got := stems(tt.path)[key(tt.a, tt.b)]; got != tt.want {
			t.Errorf("%s: %s with %s paired = %v, want %v (pairs %v)", tt.path, tt.a, tt.b, got, tt.want, stems(tt.path))
		}
	}
}

func TestRelated(t *testing.T) {
	files := map[string]string{}
	// throttle and rate stand together in five files; limit stands with
	// rate in three; everything holds "value", with nothing in particular.
	for i := 0; i < 5; i++ {
		files[fmt.Sprintf("svc/api%d.py", i)] = "def throttle_rate(value):\n    return value\n"
	}
	for i := 0; i < 3; i++ {
		files[fmt.Sprintf("svc/quota%d.py", i)] = "def rate_limit(value):\n    return value\n"
	}
	for i := 0; i < 2; i++ {
		files[fmt.Sprintf("svc/rare%d.py", i)] = "def rate_bucket(value):\n    return value\n"
	}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("other/f%d.py", i)] = fmt.Sprintf("def handler%d(value):\n    return value\n", i)
	}
	ix := build(t, files)
	got := related(ix, tokenize.Stem("rate"), 5)
	var names []string
	for _, nb := range got {
		names = append(names, nb.Surface)
		if nb.Assoc <= 0 || nb.Assoc > 1 {
			t.Errorf("%s: association %v, want in (0, 1]", nb.Surface, nb.Assoc)
		}
	}
	if strings.Join(names, " ") != "throttle limit" {
		t.Errorf("related to rate: %v, want throttle then limit (bucket pairs in too few files)", names)
	}
	if got[0].Files != 5 {
		t.Errorf("throttle pairs with rate in %d files, want 5", got[0].Files)
	}
	if nb := related(ix, "nosuchterm", 5); len(nb) != 0 {
		t.Errorf("an unknown term has neighbors: %v", nb)
	}
	all := ix.RelatedAll([]string{tokenize.Stem("throttle"), tokenize.Stem("limit")}, 1)
	if len(all) != 2 || all[tokenize.Stem("throttle")][0].Surface != "rate" || all[tokenize.Stem("limit")][0].Surface != "rate" {
		t.Errorf("RelatedAll: %v, want rate for both", all)
	}
}

// Counts stay exact between flushes: a dropped file's pairs are taken back
// at once, although the table keeps them until the next flush.
func TestRelatedAfterDrop(t *testing.T) {
	repo := t.TempDir()
	files := throttleTree()
	ix := mustBuild(t, repo, files)
	ctx := context.Background()
	var stored int
	ix.reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM cooc`).Scan(&stored)
	if stored == 0 {
		t.Fatalf("a build of %d files flushed no pairs into the table", len(files))
	}
	rate := tokenize.Stem("rate")
	if nb := related(ix, rate, 3); len(nb) != 1 || nb[0].Files != 4 {
		t.Fatalf("before the drop: %v, want throttle in 4 files", nb)
	}
	os.Remove(filepath.Join(repo, "svc", "api0.py"))
	os.Remove(filepath.Join(repo, "svc", "api1.py"))
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if nb := related(ix, rate, 3); len(nb) != 0 {
		t.Errorf("after dropping two of the four files: %v, want nothing (paired in 2 files, fewer than 3)", nb)
	}
	writeTree(t, repo, map[string]string{"svc/new.py": "def throttle_rate(v):\n    return v\n"})
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if nb := related(ix, rate, 3); len(nb) != 1 || nb[0].Files != 3 {
		t.Errorf("after adding one back: %v, want throttle in 3 files", nb)
	}
}

// TestRelatedTopAsItStands: a term's most frequent pairs are chosen from
// its counts as they stand, the delta's added and the dropped files' taken
// back, not from the counts stored before them. Of "hub"'s 80 neighbours,
// the first 20 drop out of its 60 most frequent and the last 20 come in;
// the incremental index answers as a rebuild of the same files does.
func TestRelatedTopAsItStands(t *testing.T) {
	// Consonants, which the stemmer leaves as they are.
	word := func(i int) string { const c = "bcdfghjklmnpqrstvwxz"; return "Z" + c[i/20:i/20+1] + c[i%20:i%20+1] }
	file := func(i, j int) string { return fmt.Sprintf("w%d/f%d.go", i, j) }
	body := func(i, j int) string {
		return fmt.Sprintf("package w%d\n\nfunc Hub%s() {}\n\nvar _ = %d\n", i, word(i), j)
	}
	repo := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 80; i++ {
		n := 5 // the first 60 in five files each, the last 20 in four
		if i >= 60 {
			n = 4
		}
		for j := 0; j < n; j++ {
			files[file(i, j)] = body(i, j)
		}
	}
	for j := 0; j < 400; j++ { // "hub" in half the files, not all
		files[fmt.Sprintf("other/f%d.go", j)] = fmt.Sprintf("package other\n\nfunc Other%d() {}\n", j)
	}
	ix := mustBuild(t, repo, files)
	ctx := context.Background()
	hub := tokenize.Stem("hub")
	if nb := related(ix, hub, 1000); len(nb) != relatedScan {
		t.Fatalf("before: %d neighbours, want the %d most frequent", len(nb), relatedScan)
	}
	for i := 0; i < 20; i++ {
		os.Remove(filepath.Join(repo, filepath.FromSlash(file(i, 0))))
		os.Remove(filepath.Join(repo, filepath.FromSlash(file(i, 1))))
	}
	for i := 60; i < 80; i++ {
		writeTree(t, repo, map[string]string{file(i, 4): body(i, 4)})
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		t.Fatal(err)
	}
	ix.mu.Lock()
	adjusted := len(ix.pairAdjusts([]string{hub})[hub])
	ix.mu.Unlock()
	if adjusted == 0 {
		t.Fatal("the update flushed its changes into the thesaurus: nothing is adjusted as it stands")
	}
	fresh, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	got, want := neighbours(t, ix, "hub"), neighbours(t, fresh, "hub")
	if got != want {
		t.Errorf("incremental neighbours differ from a rebuild's:\n%s\n---\n%s", got, want)
	}
	for _, nb := range related(ix, hub, 1000) {
		if nb.Files != 5 {
			t.Errorf("%s paired in %d files, want 5: the 20 dropped to 3 are not among the most frequent", nb.Stem, nb.Files)
		}
	}
}

// TestAdjustTop: where adjustTop tells a term's most frequent pairs from
// its stored most frequent alone, they are those of all its pairs with the
// same changes made.
func TestAdjustTop(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	told := 0
	for round := 0; round < 3000; round++ {
		var all []Neighbor
		for i := range 40 + rng.IntN(60) {
			all = append(all, Neighbor{Stem: fmt.Sprintf("t%03d", i), Files: 1 + rng.IntN(8)})
		}
		adj := map[string]int{}
		for range rng.IntN(6) {
			b := fmt.Sprintf("t%03d", rng.IntN(len(all)+5)) // some new to the term
			adj[b] += rng.IntN(5) - 2
		}
		top := adjusted(all, nil) // as stored: the most frequent, in their order
		want := adjusted(all, adj)
		got, ok := adjustTop(top, adj)
		if !ok {
			continue
		}
		told++
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: from the top %v\nwith %v:\n%v\nwant\n%v", round, top, adj, got, want)
		}
	}
	if told < 300 || told > 2700 {
		t.Errorf("told from the top alone in %d rounds of 3000: the cases are not both tested", told)
	}
}

// Whatever a file holds, its pairs point into its terms and survive the
// round trip through the index's encoding.
func FuzzPairs(f *testing.F) {
	f.Add("a.py", "# Throttle requests that exceed the rate.\ndef get_throttle_rate(): pass\n")
	f.Add("README.md", "The throttle keeps the request rate low.\n")
	f.Add("x.go", "// 限流 rateLimit\nfunc RateLimitHTTPRequests() {}\n")
	f.Add("b.go", "// Overloaded machines reject\n// incoming calls.\n\n// AdaptiveShedder drops work.\nfunc AdaptiveShedder() {}\nx() // trailing\n")
	f.Add("c.py", "def upload_limit():\n    \"\"\"Refuse bodies that are too big.\"\"\"\n    x = 1\n    \"\"\"unterminated")
	f.Add("d.c", "/* block */ int f(void);\n/** doc\n * more\n */\nint g(void) { return 0; }\n/* open")
	f.Fuzz(func(t *testing.T, name, body string) {
		if name == "" || strings.ContainsAny(name, "/\\\x00") {
			return
		}
		d := analyze(walk.File{Path: name, Size: int64(len(body))}, []byte(body))
		for _, p := range d.Pairs {
			if p[0] < 0 || p[1] < 0 || int(p[0]) >= len(d.Terms) || int(p[1]) >= len(d.Terms) || p[0] == p[1] {
				t.Fatalf("pair %v out of %d terms", p, len(d.Terms))
			}
		}
		back := &Doc{}
		if err := decodeDoc(encodeDoc(d), back); err != nil {
			t.Fatalf("decode: %v", err)
		}
		if len(back.Pairs) != len(d.Pairs) {
			t.Fatalf("%d pairs decoded, %d encoded", len(back.Pairs), len(d.Pairs))
		}
		for i := range d.Pairs {
			if back.Pairs[i] != d.Pairs[i] {
				t.Fatalf("pair %d: %v decoded, %v encoded", i, back.Pairs[i], d.Pairs[i])
			}
		}
		ps, err := decodePairStems(encodePairStems(d.pairStems()))
		if err != nil || len(ps) != len(d.Pairs) {
			t.Fatalf("pair stems: %d decoded (%v), %d encoded", len(ps), err, len(d.Pairs))
		}
	})
}

// TestRelatedRepeatable: the same index answers the same, whatever was
// read before: a neighbour's count does not depend on whether its term
// was looked up already.
func TestRelatedRepeatable(t *testing.T) {
	repo := damageRepo(t, 200)
	ix, err := buildAt(context.Background(), repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var stems []string
	for _, w := range damageWords {
		stems = append(stems, tokenize.Stem(w))
	}
	first := fmt.Sprint(ix.RelatedAll(stems, 5))
	// Every term of the index looked up, as a long session would.
	for _, e := range ix.Entries() {
		for _, tf := range ix.Doc(e.Path).Terms {
			ix.DF(tf.Stem)
		}
	}
	if again := fmt.Sprint(ix.RelatedAll(stems, 5)); again != first {
		t.Errorf("related terms differ once the terms were read:\n%s\n---\n%s", again, first)
	}
}

// The postings gathered in parts are those gathered in one.
func TestPostingBlocksInParts(t *testing.T) {
	var docs []*Doc
	err := walk.Walk(context.Background(), "..", walk.Options{}, func(f walk.File) error {
		src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(f.Path)))
		if err == nil && len(docs) < 300 {
			d := analyzeWith(f, src, false)
			d.ID = int64(len(docs) + 1)
			docs = append(docs, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	one := postingBlocksIn(docs, 1)
	for _, parts := range []int{2, 3, 8} {
		got := postingBlocksIn(docs, parts)
		if len(got) != len(one) {
			t.Fatalf("%d parts: %d blocks, want %d", parts, len(got), len(one))
		}
		for b, es := range one {
			sortEntries := func(es []blockEntry) []blockEntry {
				es = slices.Clone(es)
				slices.SortFunc(es, func(x, y blockEntry) int { return strings.Compare(x.stem, y.stem) })
				return es
			}
			if !reflect.DeepEqual(sortEntries(got[b]), sortEntries(es)) {
				t.Errorf("%d parts: block %d differs", parts, b)
			}
		}
	}
}

// A term's pair counts read back from their blob as written: the term,
// its part, then the pairs counted above 0 in order; a blob whose order
// or counts damage changed, or that does not match its checksum, is
// damage.
func TestPairsBlob(t *testing.T) {
	blobs := encodePairs("throttl", []Neighbor{{Stem: "gone"}, {Stem: "limit", Files: 1}, {Stem: "neg", Files: -2}, {Stem: "rate", Files: 3}})
	if len(blobs) != 1 {
		t.Fatalf("%d parts, want 1", len(blobs))
	}
	blob := blobs[0]
	key, part, list, err := decodePairs(blob)
	if err != nil || key != "throttl" || part != 0 || fmt.Sprint(list) != fmt.Sprint([]Neighbor{{Stem: "limit", Files: 1}, {Stem: "rate", Files: 3}}) {
		t.Errorf("read back %q %d %v %v", key, part, list, err)
	}
	if encodePairs("throttl", []Neighbor{{Stem: "gone"}}) != nil {
		t.Error("a term with no pair counted above 0 has a blob")
	}
	// A part's number is no length: it may pass the bytes after it.
	if key, part, list, err := decodePairs(pairPart("throttl", 5000, []Neighbor{{Stem: "rate", Files: 2}})); err != nil || key != "throttl" || part != 5000 || len(list) != 1 {
		t.Errorf("part 5000 read back as %q %d %v %v", key, part, list, err)
	}
	pair := func(e *enc, last, s string, n uint64) {
		e.prefixed(s, last)
		e.uint(n)
	}
	for name, b := range map[string][]byte{
		"out of order": sealed(func(e *enc) {
			e.str("a")
			e.uint(0)
			e.uint(2)
			pair(e, "", "z", 1)
			pair(e, "z", "b", 1)
		}),
		"twice": sealed(func(e *enc) {
			e.str("a")
			e.uint(0)
			e.uint(2)
			pair(e, "", "b", 1)
			pair(e, "b", "b", 1)
		}),
		"counted 0": sealed(func(e *enc) { e.str("a"); e.uint(0); e.uint(1); pair(e, "", "b", 0) }),
		"cut":       sealed(func(e *enc) { e.str("a"); e.uint(0); e.uint(3); pair(e, "", "b", 1) }),
		"a prefix too long": sealed(func(e *enc) {
			e.str("a")
			e.uint(0)
			e.uint(1)
			e.uint(2)
			e.str("b")
			e.uint(1)
		}),
		"unsealed": blob[:len(blob)-1],
	} {
		if _, _, _, err := decodePairs(b); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

// A term of many pairs: part 0 holds its relatedScan most frequent, as a
// retrieval weighs them, and the parts after it the rest, in order, each
// small enough to lie in its page.
func TestPairsParts(t *testing.T) {
	var list []Neighbor
	for i := range 2000 {
		list = append(list, Neighbor{Stem: fmt.Sprintf("stem%05d", i), Files: 1 + i%97})
	}
	blobs := encodePairs("throttl", list)
	if len(blobs) < 3 {
		t.Fatalf("%d parts of 2,000 pairs", len(blobs))
	}
	var all []Neighbor
	for i, b := range blobs {
		if len(b) > partBytes+200 {
			t.Errorf("part %d: %d bytes, over %d", i, len(b), partBytes)
		}
		key, part, got, err := decodePairs(b)
		if err != nil || key != "throttl" || part != i {
			t.Fatalf("part %d read as %q %d, %v", i, key, part, err)
		}
		if i == 0 {
			want := slices.Clone(list)
			sort.SliceStable(want, func(i, j int) bool { return want[i].Files > want[j].Files })
			want = want[:relatedScan]
			slices.SortFunc(want, func(x, y Neighbor) int { return strings.Compare(x.Stem, y.Stem) })
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("part 0 %v, want the most frequent %v", got, want)
			}
		}
		all = append(all, got...)
	}
	slices.SortFunc(all, func(x, y Neighbor) int { return strings.Compare(x.Stem, y.Stem) })
	if fmt.Sprint(all) != fmt.Sprint(list) {
		t.Error("the parts together are not the pairs written")
	}
}

// sealed is the sealed blob that write writes.
func sealed(write func(e *enc)) []byte {
	var e enc
	write(&e)
	return seal(e.b)
}

// Any payload, sealed, reads as damage or as a term and pairs that write
// back to a blob that reads the same.
func FuzzDecodePairs(f *testing.F) {
	valid, _ := unseal(encodePairs("throttl", []Neighbor{{Stem: "limit", Files: 1}, {Stem: "rate", Files: 3}})[0])
	f.Add(valid)
	f.Add([]byte{})
	f.Add([]byte{1, 'a', 0, 1, 0, 1, 'b', 1, 0})
	f.Fuzz(func(t *testing.T, payload []byte) {
		key, part, list, err := decodePairs(seal(payload))
		if err != nil {
			return
		}
		for i, nb := range list {
			if nb.Files <= 0 || i > 0 && nb.Stem <= list[i-1].Stem {
				t.Fatalf("%q read as %v", payload, list)
			}
		}
		if len(list) == 0 {
			return
		}
		again := pairPart(key, part, list)
		key2, part2, list2, err := decodePairs(again)
		if err != nil || key2 != key || part2 != part || fmt.Sprint(list2) != fmt.Sprint(list) {
			t.Fatalf("%q read as %q %d %v, written back and read as %q %d %v, %v", payload, key, part, list, key2, part2, list2, err)
		}
	})
}
