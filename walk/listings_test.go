package walk

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// settle lets the file system's clock pass the changes just made, and
// counts a folder as racy only when it changed after the walk started, so
// that a test's walk can keep listings.
func settle(t *testing.T) {
	t.Helper()
	old := listingSlack
	listingSlack = 0
	t.Cleanup(func() { listingSlack = old })
	time.Sleep(30 * time.Millisecond)
}

// A walk with listings finds every change a walk without them finds:
// each edit below is followed by a walk of both kinds, and their files
// must be the same.
func TestListingsSeeEveryChange(t *testing.T) {
	root := t.TempDir()
	if !KeepsListings(root) {
		t.Skipf("no listings kept on the file system of %s", root)
	}
	writeTree(t, root, map[string]string{
		".gitignore":      "*.log\n",
		"a/one.go":        "package a\n",
		"a/two.go":        "package a\n",
		"a/b/three.go":    "package b\n",
		"c/four.py":       "x = 1\n",
		"c/d/e/five.py":   "y = 2\n",
		"keep/debug.log":  "log\n",
		"keep/notes.md":   "# notes\n",
		"gone/six.go":     "package gone\n",
		"renamed/sev.go":  "package renamed\n",
		"replaced/old.go": "package replaced\n",
		"top.go":          "package top\n",
		"f/z.go":          "package f\n",
		"p/q.go":          "package p\n",
		"lnk/r.go":        "package lnk\n",
		"sub/s/t.go":      "package s\n",
		"sub/u/v.go":      "package u\n",
		"tgt/w.go":        "package tgt\n",
		"x/one.go":        "package x\n",
		"y/two.go":        "package y\n",
	})
	for i := range openListedAt + 4 { // a folder its walk opens
		writeTree(t, root, map[string]string{fmt.Sprintf("many/f%02d.go", i): "package many\n"})
	}
	ls := NewListings()
	p := func(s string) string { return filepath.Join(root, filepath.FromSlash(s)) }
	for _, step := range []struct {
		name string
		edit func() error
	}{
		{"first walk", func() error { return nil }},
		{"no change", func() error { return nil }},
		{"a file added", func() error { return os.WriteFile(p("a/b/new.go"), []byte("package b\n"), 0o644) }},
		{"a file removed", func() error { return os.Remove(p("a/two.go")) }},
		{"a file renamed", func() error { return os.Rename(p("renamed/sev.go"), p("renamed/seven.go")) }},
		{"a folder added", func() error {
			if err := os.MkdirAll(p("c/d/f"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(p("c/d/f/g.py"), []byte("z = 3\n"), 0o644)
		}},
		{"a folder removed", func() error { return os.RemoveAll(p("gone")) }},
		{"a folder made anew", func() error {
			if err := os.RemoveAll(p("replaced")); err != nil {
				return err
			}
			if err := os.MkdirAll(p("replaced"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(p("replaced/new.go"), []byte("package replaced\n"), 0o644)
		}},
		{"an ignore file changed", func() error { return os.WriteFile(p(".gitignore"), []byte("*.md\n"), 0o644) }},
		{"a file's content changed", func() error { return os.WriteFile(p("c/four.py"), []byte("x = 10\n"), 0o644) }},
		{"a file added at the root", func() error { return os.WriteFile(p("added.go"), []byte("package top\n"), 0o644) }},
		{"a file removed at the root", func() error { return os.Remove(p("top.go")) }},
		{"a file replaced by a folder", func() error {
			if err := os.Remove(p("f/z.go")); err != nil {
				return err
			}
			if err := os.Mkdir(p("f/z.go"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(p("f/z.go/in.go"), []byte("package z\n"), 0o644)
		}},
		{"two folders swapped", func() error {
			if err := os.Rename(p("x"), p("tmp")); err != nil {
				return err
			}
			if err := os.Rename(p("y"), p("x")); err != nil {
				return err
			}
			return os.Rename(p("tmp"), p("y"))
		}},
		{"a file added, the folder's modification time put back", func() error {
			fi, err := os.Stat(p("p"))
			if err != nil {
				return err
			}
			if err := os.WriteFile(p("p/new.go"), []byte("package p\n"), 0o644); err != nil {
				return err
			}
			return os.Chtimes(p("p"), fi.ModTime(), fi.ModTime())
		}},
		{"a file replaced by a symbolic link", func() error {
			if err := os.Symlink("../tgt/w.go", p("lnk/tmp")); err != nil {
				return err
			}
			return os.Rename(p("lnk/tmp"), p("lnk/r.go"))
		}},
		{"a folder replaced by a symbolic link", func() error {
			if err := os.RemoveAll(p("sub/s")); err != nil {
				return err
			}
			return os.Symlink("../tgt", p("sub/s"))
		}},
		{"a nested ignore file added", func() error { return os.WriteFile(p("sub/.gitignore"), []byte("u/\n"), 0o644) }},
		{"a nested ignore file emptied", func() error { return os.WriteFile(p("sub/.gitignore"), []byte("\n"), 0o644) }},
		{"a file removed from a folder of many", func() error { return os.Remove(p("many/f03.go")) }},
		{"a file renamed in a folder of many", func() error { return os.Rename(p("many/f04.go"), p("many/g04.go")) }},
		{"git's exclude file added", func() error {
			if err := os.MkdirAll(p(".git/info"), 0o755); err != nil {
				return err
			}
			return os.WriteFile(p(".git/info/exclude"), []byte("y/\n"), 0o644)
		}},
		{"git's exclude file emptied", func() error { return os.WriteFile(p(".git/info/exclude"), nil, 0o644) }},
	} {
		if err := step.edit(); err != nil {
			t.Fatal(err)
		}
		settle(t)
		want, got := walkPaths(t, root, Options{}), walkPaths(t, root, Options{Listings: ls})
		if !slices.Equal(got, want) {
			t.Errorf("%s: with listings %q, without %q", step.name, got, want)
		}
		if ls.Len() == 0 {
			t.Errorf("%s: no folder listed", step.name)
		}
		if step.name == "no change" && ls.Changed() {
			t.Errorf("no change: the listings changed")
		}
	}
}

// A folder changed just before the walk is read, and its listing not
// kept: a change in the same tick of the clock would not show in its
// times.
func TestListingsRacyFolder(t *testing.T) {
	root := t.TempDir()
	if !KeepsListings(root) {
		t.Skipf("no listings kept on the file system of %s", root)
	}
	writeTree(t, root, map[string]string{"a/x.go": "package a\n"})
	ls := NewListings()
	walkPaths(t, root, Options{Listings: ls})
	if n := ls.Len(); n != 0 {
		t.Errorf("%d folders listed right after they changed, want 0", n)
	}
}

// Listings survive encoding; damaged data is refused whole.
func TestListingsEncoding(t *testing.T) {
	root := t.TempDir()
	if !KeepsListings(root) {
		t.Skipf("no listings kept on the file system of %s", root)
	}
	writeTree(t, root, map[string]string{"a/x.go": "package a\n", "a/b/y.go": "package b\n", "c/": ""})
	settle(t)
	ls := NewListings()
	want := walkPaths(t, root, Options{Listings: ls})
	data, err := ls.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back := NewListings()
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if back.Len() != ls.Len() || back.Len() != 4 {
		t.Errorf("decoded %d folders, encoded %d, want 4", back.Len(), ls.Len())
	}
	// Undecoded entries are written again as they were read.
	if again, err := back.MarshalBinary(); err != nil || !slices.Equal(again, data) {
		t.Errorf("listings read and written again: %v, %x; want %x", err, again, data)
	}
	if got := walkPaths(t, root, Options{Listings: back}); !slices.Equal(got, want) || back.Changed() {
		t.Errorf("a walk with decoded listings: %q (changed %v), want %q unchanged", got, back.Changed(), want)
	}
	for i := range data {
		bad := slices.Clone(data)
		bad[i] ^= 0x20
		if err := NewListings().UnmarshalBinary(bad); err == nil {
			t.Errorf("a byte changed at %d: decoded", i)
		}
	}
	for n := range len(data) {
		if err := NewListings().UnmarshalBinary(data[:n]); err == nil {
			t.Errorf("cut at %d: decoded", n)
		}
	}
}

func FuzzListings(f *testing.F) {
	ls := &Listings{old: map[string]listing{"a": {stamp: dirStamp{mtime: 1, ctime: 2, ino: 3, size: 4, nlink: 2}, entries: []dirent{{name: "x.go"}, {name: "b", typ: os.ModeDir}}}},
		oldTracked: map[string]*trackedMemo{"/r/.git/index": {stamp: dirStamp{mtime: 5, ino: 6, size: 7}, answers: map[string]bool{"ftests/.coveragerc": true, "dbuild": false}}}}
	data, _ := ls.MarshalBinary()
	f.Add(data)
	// Version 2, before the indexes' answers: the folders alone.
	v2 := []byte(listingsMagicV2)
	v2 = append(v2, 1, 1, 'a', 2, 4, 3, 8, 2, 1, 4)
	v2 = append(v2, "x.go"...)
	v2 = append(v2, encRegular)
	f.Add(binary.LittleEndian.AppendUint32(v2, crc32.ChecksumIEEE(v2)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var l Listings
		if l.UnmarshalBinary(data) != nil {
			return
		}
		// What UnmarshalBinary checked, decoded() trusts: it must not
		// panic, and must give the folder's count of entries.
		for _, ls := range l.old {
			if d := ls.decoded(); len(d.entries) != ls.n && ls.entries == nil {
				t.Fatalf("%d entries decoded, %d listed", len(d.entries), ls.n)
			}
		}
		again, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var m Listings
		if err := m.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded listings do not decode: %v", err)
		}
		if len(m.old) != len(l.old) || len(m.oldTracked) != len(l.oldTracked) {
			t.Fatalf("re-encoded: %d folders and %d indexes, from %d and %d", len(m.old), len(m.oldTracked), len(l.old), len(l.oldTracked))
		}
		for f, tm := range l.oldTracked {
			if n := m.oldTracked[f]; n == nil || n.stamp != tm.stamp || !maps.Equal(n.answers, tm.answers) {
				t.Fatalf("re-encoded: the answers of %q differ", f)
			}
		}
	})
}

// BenchmarkListingsDecode decodes the listings of 1,000 folders of 100
// files, as a no-change update at 100,000 files reads them.
func BenchmarkListingsDecode(b *testing.B) {
	ls := NewListings()
	ls.begin(time.Now())
	for d := range 1000 {
		entries := make([]dirent, 100)
		for i := range entries {
			entries[i] = dirent{name: fmt.Sprintf("file%03d.go", i)}
		}
		ls.record(fmt.Sprintf("pkg%d/mod%d", d/100, d%100), dirStamp{mtime: int64(d), ino: uint64(d)}, entries)
	}
	data, err := ls.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := NewListings().UnmarshalBinary(data); err != nil {
			b.Fatal(err)
		}
	}
}

// Listings written before the indexes' answers were kept (version 2)
// still decode: an upgrade reads no folder again.
func TestListingsVersion2(t *testing.T) {
	v2 := []byte(listingsMagicV2)
	v2 = append(v2, 1, 1, 'a', 2, 4, 3, 8, 2, 1, 4)
	v2 = append(v2, "x.go"...)
	v2 = append(v2, encRegular)
	var l Listings
	if err := l.UnmarshalBinary(binary.LittleEndian.AppendUint32(v2, crc32.ChecksumIEEE(v2))); err != nil || len(l.old) != 1 || l.oldTracked != nil {
		t.Fatalf("version 2: %v, %d folders, answers %v", err, len(l.old), l.oldTracked)
	}
}
