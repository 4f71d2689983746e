package walk

import (
	"os"
	"path/filepath"
	"runtime"
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
	if runtime.GOOS != "linux" {
		t.Skip("listings are kept on Linux only")
	}
	root := t.TempDir()
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
	})
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
	if runtime.GOOS != "linux" {
		t.Skip("listings are kept on Linux only")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a/x.go": "package a\n"})
	ls := NewListings()
	walkPaths(t, root, Options{Listings: ls})
	if n := ls.Len(); n != 0 {
		t.Errorf("%d folders listed right after they changed, want 0", n)
	}
}

// Listings survive encoding; damaged data is refused whole.
func TestListingsEncoding(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("listings are kept on Linux only")
	}
	root := t.TempDir()
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
	ls := &Listings{old: map[string]listing{"a": {stamp: dirStamp{1, 2, 3}, entries: []dirent{{name: "x.go"}, {name: "b", typ: os.ModeDir}}}}}
	data, _ := ls.MarshalBinary()
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		var l Listings
		if l.UnmarshalBinary(data) != nil {
			return
		}
		again, err := l.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var m Listings
		if err := m.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoded listings do not decode: %v", err)
		}
	})
}
