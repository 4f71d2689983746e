package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hone-tools/hone/structure"
)

// A process that keeps the index open between answers reads it again
// only when another wrote to it: Snapshot keeps the catalog and its
// caches while the index's version stands, and takes the other's writes
// when it moved.
func TestSnapshotKeepsWhatStands(t *testing.T) {
	ctx := context.Background()
	root, dir := t.TempDir(), t.TempDir()
	put := func(p, text string) {
		t.Helper()
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("a.go", "package a\n\nfunc Alpha() {}\n")
	put("sub/deep/b.go", "package b\n\nfunc Beta() {}\n")
	put("empty/.keep", "")
	ix, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if got, want := ix.Walked(), []string{".", "empty", "sub", "sub/deep"}; !slices.Equal(got, want) {
		t.Errorf("walked %v, want %v", got, want)
	}
	if len(ix.Run(Search{Terms: []QueryTerm{{Stem: "alpha", Weight: 1}}})) != 1 {
		t.Fatal("alpha not found")
	}
	cat := ix.cat
	ix.EndRead()
	if err := ix.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if !sameMap(ix.cat, cat) || !ix.ready {
		t.Error("Snapshot read the catalog again, or dropped its caches, though nothing wrote to the index")
	}

	// Another process updates the index.
	put("c.go", "package a\n\nfunc Gamma() {}\n")
	other, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
	ix.EndRead()
	if err := ix.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if ix.Entry("c.go") == nil || len(ix.Run(Search{Terms: []QueryTerm{{Stem: "gamma", Weight: 1}}})) != 1 {
		t.Error("Snapshot missed the other process's write")
	}
}

// sameMap reports whether two maps are one.
func sameMap(a, b map[string]*Entry) bool {
	if len(a) != len(b) {
		return false
	}
	const probe = "\x00probe"
	a[probe] = nil
	_, ok := b[probe]
	delete(a, probe)
	return ok
}

// The snapshot decodes to the entries it was made from: paths sharing
// prefixes or none, times before and after the last entry's, several
// languages.
func TestSnapshotRoundTrip(t *testing.T) {
	es := []*Entry{
		{ID: 7, Path: "src/a/b.go", Lang: "go", Kind: 1, Size: 10, ModTime: 1_700_000_000_000_000_000, ino: 99, ctime: 1_700_000_000_000_000_500, checked: 1_700_000_100_000_000_000, seg: 2, Len: [NumFields]int32{1, 2, 3, 4, 5}},
		{ID: 3, Path: "src/a/c.py", Lang: "python", Size: 0, ModTime: 5, ino: 3, ctime: 4, checked: 0, seg: 0},
		{ID: 4000, Path: "src/a/c.pyi", Lang: "python", Kind: 3, Size: 1 << 40, ModTime: -5, ino: 1 << 63, ctime: 1 << 62, checked: 9},
		{ID: 4001, Path: "zz", Lang: "", ModTime: 0},
		{ID: 4002, Path: "", Lang: "go"},
	}
	got, err := decodeEntries(encodeEntries(es))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(es) {
		t.Fatalf("%d entries, want %d", len(got), len(es))
	}
	for i, e := range es {
		g := *got[i]
		if g.ID != e.ID || g.Path != e.Path || g.Lang != e.Lang || g.Kind != e.Kind || g.Size != e.Size || g.ModTime != e.ModTime ||
			g.ino != e.ino || g.ctime != e.ctime || g.checked != e.checked || g.seg != e.seg || g.Len != e.Len {
			t.Errorf("entry %d: got %+v, want %+v", i, g, *e)
		}
	}
	// Damage is found, never a panic.
	b := encodeEntries(es)
	for n := range len(b) - 4 {
		if _, err := decodeEntries(seal(slices.Clone(b[:n]))); err == nil && n < len(b)-4 {
			t.Errorf("a snapshot cut at %d of %d decoded", n, len(b)-4)
		}
	}
}

// An index of the format before the compact snapshot is rebuilt by the
// next update, with a notice, and answers as a new one.
func TestSnapshotFormatRebuild(t *testing.T) {
	ctx := context.Background()
	root, dir := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n\nfunc Alpha() {}\n", "sub/b.py": "def beta():\n    pass\n"})
	ix, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// As the format 15 had it: the snapshot field by field.
	var old enc
	old.uint(1)
	old.uint(1)
	old.str("a.go")
	if _, err := ix.db.Exec(`UPDATE meta SET value = '15' WHERE key = 'schema'; UPDATE snapshot SET data = ?`, seal(old.b)); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	var notices []string
	ix, err = buildAt(ctx, root, Options{Dir: dir, Notice: func(s string) { notices = append(notices, s) }})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if len(notices) != 1 || !strings.Contains(notices[0], "format 15") {
		t.Errorf("notices %q, want one of the format rebuilt", notices)
	}
	if ix.N() != 2 || ix.Entry("sub/b.py") == nil || len(ix.Run(Search{Terms: []QueryTerm{{Stem: "alpha", Weight: 1}}})) != 1 {
		t.Error("the rebuilt index lacks the files")
	}
}

// A doc decodes to what was encoded: stems sharing prefixes, surfaces or
// none, frequencies in any fields, kinds of definition in the table and
// not, containers of every kind, lines out of order, an end line before
// the line.
func TestDocRoundTrip(t *testing.T) {
	d := &Doc{
		Terms: []TermFreq{
			{Stem: "brom", TF: [NumFields]uint16{1}},
			{Stem: "bromon", Surface: "Bromons", TF: [NumFields]uint16{0, 0, 0, 300, 65535}},
			{Stem: "x", TF: [NumFields]uint16{1, 1, 1, 1, 1}},
			{Stem: "xy"},
			{Stem: "xyz", Surface: "xyzzy", TF: [NumFields]uint16{0, 1}},
		},
		Defs: []structure.Def{
			{Name: "Bromon", Kind: "function", Line: 3, EndLine: 9},
			{Name: "k", Kind: "a kind of its own", Container: "Bromon", Line: 7, EndLine: 2},
			{Name: "m", Kind: "method", Container: "Bromon", Line: 8, EndLine: 8},
			{Name: "z", Kind: "method", Container: "Other.Thing", Line: 1, EndLine: 1},
			{Name: "q", Kind: "method", Container: "Other.Thing", Line: 200, EndLine: 300},
			{Name: "r", Kind: "function", Container: "m", Line: 2, EndLine: 3},
			{Name: "s", Kind: "function", Line: 0, EndLine: 0},
			{Name: "Bromon", Kind: "class", Container: "Bromon", Line: 9, EndLine: 9},
		},
		Imports: []string{"os", "os/exec"},
		Calls:   []string{"brom", "bromon", "x"},
		Pairs:   [][2]int32{{0, 1}, {1, 3}},
	}
	var got Doc
	if err := decodeDoc(encodeDoc(d), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Terms, d.Terms) || !reflect.DeepEqual(got.Defs, d.Defs) || !reflect.DeepEqual(got.Imports, d.Imports) ||
		!reflect.DeepEqual(got.Calls, d.Calls) || !reflect.DeepEqual(got.Pairs, d.Pairs) {
		t.Errorf("got %+v\nwant %+v", got, *d)
	}
	ps := []posting{{id: 1, tf: [NumFields]uint16{2}}, {id: 90000, tf: [NumFields]uint16{0, 0, 0, 0, 7}}, {id: 90001}}
	var back []posting
	if err := eachPosting(encodePostings(ps), func(p posting) { back = append(back, p) }); err != nil || !reflect.DeepEqual(back, ps) {
		t.Errorf("postings %v, %v, want %v", back, err, ps)
	}
}

// A container defined further back than the encoder looks is written out,
// and decodes as one near.
func TestContainersFarBack(t *testing.T) {
	defs := []structure.Def{{Name: "Outer", Kind: "class", Line: 1, EndLine: 900}}
	for i := range containerReach + 10 {
		c := "Outer"
		if i%2 == 0 {
			c = fmt.Sprintf("Inner%d", i)
		}
		defs = append(defs, structure.Def{Name: fmt.Sprintf("m%d", i), Kind: "method", Container: c, Line: 2 + i, EndLine: 2 + i})
	}
	var e enc
	e.defs(defs)
	d := dec{b: e.b}
	if got := d.defs(); d.err != nil || !reflect.DeepEqual(got, defs) {
		t.Errorf("decoded %v (%v), want the %d definitions encoded", len(got), d.err, len(defs))
	}
	// What each container is written as: Outer named one back, and as
	// far back as the encoder looks, then written out.
	for _, tt := range []struct {
		i       int
		tag     uint64
		written string
	}{
		{2, containerDef + 1, ""},
		{containerReach, containerDef + containerReach - 1, ""},
		{containerReach + 2, containerWritten, "Outer"},
		{1, containerWritten, "Inner0"},
	} {
		var e, want enc
		e.container(defs, tt.i)
		want.uint(tt.tag)
		if tt.written != "" {
			want.str(tt.written)
		}
		if !bytes.Equal(e.b, want.b) {
			t.Errorf("container of %s (%s): %q, want %q", defs[tt.i].Name, defs[tt.i].Container, e.b, want.b)
		}
	}
}

// A term's frequencies of one in each of its fields take the mask's byte
// alone; any other frequency writes them all.
func TestFrequencies(t *testing.T) {
	for _, tt := range []struct {
		tf    [NumFields]uint16
		extra bool
		bytes int
	}{
		{[NumFields]uint16{1}, false, 1},
		{[NumFields]uint16{1, 0, 1, 1, 0}, true, 1},
		{[NumFields]uint16{1, 1, 1, 1, 1}, false, 1},
		{[NumFields]uint16{0, 0, 2}, false, 2},
		{[NumFields]uint16{1, 0, 2}, true, 3},
		{[NumFields]uint16{0, 0, 0, 300, 1}, false, 4},
		{[NumFields]uint16{}, true, 1},
		{[NumFields]uint16{}, false, 1},
	} {
		var e enc
		e.tf(tt.tf, tt.extra)
		var got [NumFields]uint16
		d := dec{b: e.b}
		extra := d.tf(&got)
		if d.err != nil || got != tt.tf || extra != tt.extra || len(d.b) != 0 {
			t.Errorf("%v, %v: decoded %v, %v, %v", tt.tf, tt.extra, got, extra, d.err)
		}
		if len(e.b) != tt.bytes {
			t.Errorf("%v, %v: %d bytes, want %d", tt.tf, tt.extra, len(e.b), tt.bytes)
		}
	}
	// The bit of ones with no field is no encoding's.
	d := dec{b: []byte{tfOnes}}
	var got [NumFields]uint16
	if d.tf(&got); d.err == nil {
		t.Error("a mask of ones in no field decoded")
	}
}

// FuzzDecodeDoc decodes any bytes, sealed, as a doc blob: damage is an
// error, never a panic, and a doc that decodes encodes to a blob that
// decodes to it again.
func FuzzDecodeDoc(f *testing.F) {
	sealed := encodeDoc(&Doc{
		Terms: []TermFreq{{Stem: "brom", TF: [NumFields]uint16{1}}, {Stem: "bromon", Surface: "Bromons", TF: [NumFields]uint16{0, 2}}},
		Defs:  []structure.Def{{Name: "Bromon", Kind: "class", Line: 3, EndLine: 9}, {Name: "x", Kind: "method", Container: "Bromon", Line: 4, EndLine: 5}},
		Calls: []string{"brom", "bromon"},
		Pairs: [][2]int32{{0, 1}},
	})
	f.Add(sealed[:len(sealed)-4])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var d Doc
		if err := decodeDoc(seal(slices.Clone(b)), &d); err != nil {
			return
		}
		var again Doc
		if err := decodeDoc(encodeDoc(&d), &again); err != nil {
			t.Fatalf("a doc that decoded does not decode once encoded again: %v", err)
		}
		if !reflect.DeepEqual(again.Terms, d.Terms) || !reflect.DeepEqual(again.Calls, d.Calls) || !reflect.DeepEqual(again.Imports, d.Imports) ||
			!reflect.DeepEqual(again.Defs, d.Defs) {
			t.Errorf("encoded again, %+v, decodes to %+v", d, again)
		}
	})
}

// readHashes reads the hashes of the ids asked, by id or in one pass,
// and hashOf the one of an entry, as the files table has them.
func TestReadHashes(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "c.go": "package c\n"})
	ix, err := buildAt(ctx, root, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	a, b := ix.Entry("a.go"), ix.Entry("b.go")
	want := map[int64][]byte{}
	for _, e := range []*Entry{a, b} {
		sum := sha256.Sum256([]byte("package " + strings.TrimSuffix(e.Path, ".go") + "\n"))
		want[e.ID] = sum[:hashSize]
		if h := ix.hashOf(e); !slices.Equal(h, sum[:hashSize]) {
			t.Errorf("hashOf(%s) %x, want %x", e.Path, h, sum[:hashSize])
		}
	}
	few := []int64{a.ID, b.ID, 1 << 40}
	many := append([]int64{}, few...)
	for i := range 5000 {
		many = append(many, 1<<41+int64(i))
	}
	for _, ids := range [][]int64{few, many} {
		got, err := readHashes(ctx, ix.db, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || !slices.Equal(got[a.ID], want[a.ID]) || !slices.Equal(got[b.ID], want[b.ID]) {
			t.Errorf("%d ids: hashes %x, want %x", len(ids), got, want)
		}
	}
}

// FuzzSnapshot decodes any bytes as a snapshot, both ways: damage is an
// error, never a panic, and the summary's figures are the entries'.
func FuzzSnapshot(f *testing.F) {
	f.Add(encodeEntries([]*Entry{
		{ID: 1, Path: "a/b.go", Lang: "go", Size: 10, seg: 1, Len: [NumFields]int32{1, 2, 3, 4, 5}},
		{ID: 2, Path: "a/c.go", Lang: "go", Size: 3},
	}))
	f.Add(encodeEntries(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, data := range [][]byte{b, seal(slices.Clone(b))} {
			es, err := decodeEntries(data)
			sum, serr := summarize(data)
			if (err == nil) != (serr == nil) {
				t.Fatalf("decodeEntries: %v, summarize: %v", err, serr)
			}
			if err != nil {
				continue
			}
			var source int64
			var total [NumFields]int64
			inDelta := 0
			sorted := true
			for i, e := range es {
				source += e.Size
				for f := range total {
					total[f] += int64(e.Len[f])
				}
				if e.seg == 0 {
					inDelta++
				}
				if i > 0 && es[i-1].Path >= e.Path {
					sorted = false
				}
			}
			if sum.files != len(es) || sum.source != source || sum.total != total || sum.inDelta != inDelta || sum.sorted != sorted {
				t.Fatalf("summary %+v of %d entries, %d bytes, tokens %v, %d in the delta, sorted %v", sum, len(es), source, total, inDelta, sorted)
			}
		}
	})
}

// The snapshot an update writes, and the catalog it leaves, are the files
// table, whether the update read the table whole or only the rows of the
// files it wrote: after a change, a touch, an addition, a deletion and a
// rename (the rows alone), after another process's write (whole), after
// a change that flushes the delta into a segment (whole), and after
// deletions that have a segment merged (whole).
func TestSnapshotAfterUpdateIsTheTable(t *testing.T) {
	// A process that keeps the index open has its catalog in a map; one
	// that opens it to update it reads the snapshot, in the order of the
	// paths.
	for _, reopen := range []bool{false, true} {
		t.Run(fmt.Sprintf("reopen=%v", reopen), func(t *testing.T) { testSnapshotAfterUpdate(t, reopen) })
	}
}

func testSnapshotAfterUpdate(t *testing.T, reopen bool) {
	ctx := context.Background()
	root, dir := t.TempDir(), t.TempDir()
	put := func(p, text string) { writeTree(t, root, map[string]string{p: text}) }
	put("a.go", "package a\n\nfunc Alpha() {}\n")
	put("sub/b.go", "package b\n\nfunc Beta() {}\n")
	put("sub/c.py", "def gamma():\n    return 1\n")
	put("d.md", "# Delta\n\nSome prose.\n")
	ix, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ix.Close() }()
	var whole []bool
	testHookSnapshot = func(w bool) { whole = append(whole, w) }
	defer func() { testHookSnapshot, testHookAfterWalk = nil, nil }()
	noRacy(t) // a file just written is not read again as racy

	steps := []struct {
		name      string
		do        func()
		wantWhole bool
	}{
		{"a change", func() { put("a.go", "package a\n\nfunc Alpha() { Beta() }\n") }, false},
		{"a touch", func() {
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(filepath.Join(root, "sub", "c.py"), later, later); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"an addition", func() { put("sub/e.go", "package b\n\nfunc Epsilon() {}\n") }, false},
		{"a deletion", func() { os.Remove(filepath.Join(root, "d.md")) }, false},
		{"a rename", func() { os.Rename(filepath.Join(root, "sub", "b.go"), filepath.Join(root, "b2.go")) }, false},
		{"another process's write", func() {
			put("a.go", "package a\n\nfunc Alpha() { Phi() }\n")
			// Made while this update runs, between its walk and its reads.
			testHookAfterWalk = func() {
				testHookAfterWalk = nil
				put("f.go", "package a\n\nfunc Phi() {}\n")
				buildUnlocked(t, ctx, root, dir)
			}
		}, true},
		{"a flush", func() {
			for i := range flushAt + 10 {
				put(fmt.Sprintf("many/m%d.go", i), fmt.Sprintf("package many\n\nfunc M%d() {}\n", i))
			}
		}, true},
		{"a change after the flush", func() { put("many/m3.go", "package many\n\nfunc M3() { M4() }\n") }, false},
		{"a merge", func() {
			// Most of the segment's files gone: it is merged.
			for i := range flushAt {
				os.Remove(filepath.Join(root, "many", fmt.Sprintf("m%d.go", i)))
			}
		}, true},
	}
	for _, s := range steps {
		whole = nil
		s.do()
		var st Stats
		if reopen {
			ix.Close()
			ix, st, err = OpenUpdate(ctx, root, Options{Dir: dir}, nil)
		} else {
			st, err = ix.Update(ctx, nil)
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if len(whole) == 0 {
			t.Fatalf("%s: no snapshot written", s.name)
		}
		if s.name == "a merge" && st.Merged == 0 {
			t.Errorf("%s: no segment merged", s.name)
		}
		if whole[len(whole)-1] != s.wantWhole {
			t.Errorf("%s: the table read whole %v, want %v", s.name, whole[len(whole)-1], s.wantWhole)
		}
		table, snap := tableAndSnapshot(t, ix)
		want := entriesByPath(table)
		if got := entriesByPath(snap); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the snapshot holds\n%+v\nwant the table's\n%+v", s.name, got, want)
		}
		var cat []*Entry
		for _, e := range ix.catalog() {
			cat = append(cat, e)
		}
		if got := entriesByPath(cat); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the catalog holds\n%+v\nwant the table's\n%+v", s.name, got, want)
		}
		ix.EndRead()
	}
}

// tableAndSnapshot reads the index's files table, and its snapshot of
// the table's version, which must be there.
func tableAndSnapshot(t *testing.T, ix *Index) (table, snap []*Entry) {
	t.Helper()
	ctx := context.Background()
	table, err := readEntries(ctx, ix.reader())
	if err != nil {
		t.Fatal(err)
	}
	v, err := ix.version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	snap, err = readSnapshot(ctx, ix.reader(), v)
	if err != nil || snap == nil {
		t.Fatalf("no snapshot of version %s (%v)", v, err)
	}
	return table, snap
}

// entriesByPath is a copy of the entries, in the order of their paths.
func entriesByPath(es []*Entry) []Entry {
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = *e
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// A snapshot's base holds only along an unbroken chain of the update's
// own writes, from the catalog's version to the table's.
func TestSnapshotBaseHolds(t *testing.T) {
	cat := map[string]*Entry{"a": {Path: "a"}}
	for _, c := range []struct {
		name    string
		base    *snapshotBase
		version string
		want    bool
	}{
		{"none", nil, "v1", false},
		{"no catalog", &snapshotBase{version: "v0", steps: []versionStep{{"v0", "v1"}}}, "v1", false},
		{"no write", &snapshotBase{catalog: cat, version: "v0"}, "v0", false},
		{"one write", &snapshotBase{catalog: cat, version: "v0", steps: []versionStep{{"v0", "v1"}}}, "v1", true},
		{"two writes", &snapshotBase{catalog: cat, version: "v0", steps: []versionStep{{"v0", "v1"}, {"v1", "v2"}}}, "v2", true},
		{"a write before the first", &snapshotBase{catalog: cat, version: "v0", steps: []versionStep{{"x", "v1"}}}, "v1", false},
		{"a write between", &snapshotBase{catalog: cat, version: "v0", steps: []versionStep{{"v0", "v1"}, {"x", "v2"}}}, "v2", false},
		{"a write after the last", &snapshotBase{catalog: cat, version: "v0", steps: []versionStep{{"v0", "v1"}}}, "x", false},
	} {
		if got := c.base.holds(c.version); got != c.want {
			t.Errorf("%s: holds %v, want %v", c.name, got, c.want)
		}
	}
}

// Two processes updating one index at once, as files change, leave a
// snapshot that is the table, however their writes interleave: a stress
// test, whose interleavings are the scheduler's (each round logs how many
// snapshots took each path); TestSnapshotAfterUpdateIsTheTable puts
// another process's write between an update's walk and its writes.
func TestSnapshotUnderConcurrentUpdates(t *testing.T) {
	ctx := context.Background()
	root, dir := t.TempDir(), t.TempDir()
	put := func(p, text string) { writeTree(t, root, map[string]string{p: text}) }
	for i := range 40 {
		put(fmt.Sprintf("p%d/f%d.go", i%4, i), fmt.Sprintf("package p\n\nfunc F%d() {}\n", i))
	}
	first, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	noRacy(t) // a file just written is not read again as racy
	var mu sync.Mutex
	reads := map[bool]int{}
	testHookSnapshot = func(whole bool) {
		mu.Lock()
		reads[whole]++
		mu.Unlock()
	}
	defer func() { testHookSnapshot = nil }()
	for round := range 12 {
		for k := range 3 {
			i := (round*7 + k*13) % 40
			put(fmt.Sprintf("p%d/f%d.go", i%4, i), fmt.Sprintf("package p\n\nfunc F%d() { G%d() }\n", i, round))
		}
		if round%4 == 3 {
			os.Remove(filepath.Join(root, fmt.Sprintf("p%d/f%d.go", round%4, round)))
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ix, _, err := OpenUpdate(ctx, root, Options{Dir: dir}, nil)
				if err == nil {
					ix.Close()
				}
				errs[w] = err
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		ix, err := OpenExisting(ctx, root, Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		table, snap := tableAndSnapshot(t, ix)
		ix.Close()
		if got, want := entriesByPath(snap), entriesByPath(table); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: the snapshot is not the table:\n%+v\nwant\n%+v", round, got, want)
		}
	}
	t.Logf("snapshots from the rows written: %d; from the table whole: %d", reads[false], reads[true])
}

// FuzzDecodeOutline decodes any bytes, sealed, as an outline's blob:
// damage is an error, never a panic, and an outline that decodes encodes
// to a blob that decodes to it again.
func FuzzDecodeOutline(f *testing.F) {
	sealed := encodeOutline(&structure.Outline{
		Lang: "go", Parser: "tree-sitter",
		Defs: []structure.Def{
			{Name: "T", Kind: "type", Line: 3, EndLine: 9},
			{Name: "M", Kind: "method", Container: "T", Line: 5, EndLine: 7},
			{Name: "N", Kind: "method", Container: "T", Line: 8, EndLine: 8},
			{Name: "f", Kind: "function", Container: "x.Y", Line: 1, EndLine: 2},
		},
		Imports: []string{"fmt"},
		Calls:   []structure.Call{{Name: "Println", Line: 6}},
		Refs:    []structure.Ref{{Name: "T", Kind: "type", Line: 8}},
	})
	f.Add(sealed[:len(sealed)-4])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := decodeOutline(seal(slices.Clone(b)))
		if err != nil {
			return
		}
		again, err := decodeOutline(encodeOutline(o))
		if err != nil {
			t.Fatalf("an outline that decoded does not decode once encoded again: %v", err)
		}
		if !reflect.DeepEqual(again, o) {
			t.Errorf("encoded again, %+v, decodes to %+v", o, again)
		}
	})
}
