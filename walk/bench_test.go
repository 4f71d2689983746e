package walk

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// seenTree creates a tree of about 6,000 files in about 600 directories
// under root, shaped like a Python project, with a few nested ignore files.
// It returns how many files Walk lists there.
func seenTree(t testing.TB, root string) int {
	t.Helper()
	files := map[string]string{
		".gitignore":           "*.pyc\n__pycache__/\n/build/\n*.log\ndocs/_build/\n*.egg-info\n",
		"README.md":            "# project\n",
		"build/lib/x.py":       "",
		"docs/_build/index.md": "",
		"docs/index.md":        "# docs\n",
		"x.egg-info/PKG-INFO":  "",
	}
	want := 4 // .gitignore, README.md, docs/index.md, and p0/.gitignore below
	files["p0/.gitignore"] = "!keep.log\n/m00/s00/\n"
	for p := range 4 {
		for m := range 12 {
			if p == 1 && m == 3 {
				files[fmt.Sprintf("p%d/m%02d/.gitignore", p, m)] = "*.tmp\ngen/\n!s01/x.tmp\n"
				want++
			}
			for s := range 12 {
				dir := fmt.Sprintf("p%d/m%02d/s%02d/", p, m, s)
				for f := range 8 {
					files[fmt.Sprintf("%sfile%d.py", dir, f)] = "x = 1\n"
				}
				files[dir+"README.md"] = "# readme\n"
				files[dir+"keep.log"] = "log\n"
				files[dir+"file0.pyc"] = "\x00"
				files[dir+"__pycache__/file0.pyc"] = "\x00"
				files[dir+"x.tmp"] = ""
				n := 8 + 1 + 1 // *.py, README.md, x.tmp
				if p == 0 {
					n++ // keep.log
				}
				switch {
				case p == 0 && m == 0 && s == 0:
					n = 0
				case p == 1 && m == 3:
					if s != 1 {
						n-- // x.tmp
					}
				}
				want += n
			}
		}
	}
	writeTree(t, root, files)
	return want
}

// seenOK is a Seen hook for a repository whose every file is known.
func seenOK(File) (Kind, bool, bool) { return 0, false, true }

// BenchmarkWalkSeen walks a tree of about 6,000 files in about 600
// directories with a Seen hook that knows every file, as when updating an
// index: the walk is directory reads and stat calls.
func BenchmarkWalkSeen(b *testing.B) {
	benchmarkWalkSeen(b, Options{Seen: seenOK})
}

// BenchmarkWalkListed is BenchmarkWalkSeen with the folders' listings
// kept: a walk that finds nothing changed reads no folder.
func BenchmarkWalkListed(b *testing.B) {
	old := listingSlack
	listingSlack = -time.Minute // the tree was just written
	defer func() { listingSlack = old }()
	benchmarkWalkSeen(b, Options{Seen: seenOK, Listings: NewListings()})
}

func benchmarkWalkSeen(b *testing.B, opts Options) {
	root := b.TempDir()
	want := seenTree(b, root)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := Walk(ctx, root, opts, func(File) error { n++; return nil })
		if err != nil {
			b.Fatal(err)
		}
		if n != want {
			b.Fatalf("walked %d files, want %d", n, want)
		}
	}
}
