package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWalkContentFilters(t *testing.T) {
	big := strings.Repeat("x", DefaultMaxFileSize)
	tests := []struct {
		name  string
		opts  Options
		files map[string]string
		want  []string
	}{
		{
			name: "binary files are skipped",
			files: map[string]string{
				"text.go":            "package main\n",
				"image.png":          "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
				"nul-late.txt":       strings.Repeat("a", 100) + "\x00",
				"utf16.txt":          "\xff\xfeh\x00i\x00",
				"utf8.txt":           "héllo, 世界\n",
				"nul-after-head.txt": strings.Repeat("a", HeadSize) + "\x00",
			},
			want: []string{"nul-after-head.txt", "text.go", "utf8.txt"},
		},
		{
			name: "empty files are kept",
			files: map[string]string{
				"empty.go":    "",
				"__init__.py": "",
			},
			want: []string{"__init__.py", "empty.go"},
		},
		{
			name: "default size limit",
			files: map[string]string{
				"limit.txt": big,
				"over.txt":  big + "x",
			},
			want: []string{"limit.txt"},
		},
		{
			name: "explicit size limit",
			opts: Options{MaxFileSize: 10},
			files: map[string]string{
				"ten.txt":    "0123456789",
				"eleven.txt": "0123456789a",
				"empty.txt":  "",
			},
			want: []string{"empty.txt", "ten.txt"},
		},
		{
			name: "no size limit",
			opts: Options{MaxFileSize: -1},
			files: map[string]string{
				"huge.txt": big + big,
			},
			want: []string{"huge.txt"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.files)
			if got := walkPaths(t, root, tt.opts); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWalkSymlinks(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeTree(t, root, map[string]string{
		"real.go":    "package real\n",
		"dir/in.go":  "package dir\n",
		".gitignore": "",
	})
	writeTree(t, outside, map[string]string{"secret/out.go": "package out\n"})
	symlink(t, "real.go", filepath.Join(root, "link.go"))
	symlink(t, "dir", filepath.Join(root, "linkdir"))
	symlink(t, filepath.Join(outside, "secret"), filepath.Join(root, "outside"))
	symlink(t, "missing", filepath.Join(root, "dangling"))
	symlink(t, ".", filepath.Join(root, "dir", "loop"))

	want := []string{".gitignore", "dir/in.go", "real.go"}
	if got := walkPaths(t, root, Options{}); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}

	// The root itself may be a symbolic link.
	linkRoot := filepath.Join(outside, "root-link")
	symlink(t, root, linkRoot)
	if got := walkPaths(t, linkRoot, Options{}); !slices.Equal(got, want) {
		t.Errorf("via symlinked root: got %q, want %q", got, want)
	}
}

func TestWalkSymlinkedIgnoreFileIsNotRead(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"patterns": "*.go\n", "a.go": ""})
	symlink(t, "patterns", filepath.Join(root, ".gitignore"))
	if got, want := walkPaths(t, root, Options{}), []string{"a.go", "patterns"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWalkOrder(t *testing.T) {
	root := t.TempDir()
	names := []string{
		"a", "a.go", "a-b/x", "a/b", "a/b.go", "a/b/c", "a0", "B.go", "_x",
		"b/a/z", "b/a.z", "b/a-z", "ab", "a b/x", "~", "Z/x", "z", "é",
	}
	files := map[string]string{}
	for _, n := range names {
		if n != "a" && n != "a/b" { // those are directories
			files[n] = ""
		}
	}
	writeTree(t, root, files)

	got := walkPaths(t, root, Options{})
	want := []string{
		"B.go", "Z/x", "_x", "a b/x", "a-b/x", "a.go", "a/b.go", "a/b/c",
		"a0", "ab", "b/a-z", "b/a.z", "b/a/z", "z", "~", "é",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if !slices.IsSorted(got) {
		t.Errorf("paths are not sorted: %q", got)
	}
}

func TestWalkFileFields(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"cmd/main.go":      "package main\n",
		"cmd/main_test.go": "package main\n",
		"vendor/x/x.go":    "package x\n",
		"README.md":        "# hi\n",
		".env":             "TOKEN=1\n",
	})
	mtime := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, "cmd", "main.go"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	files, err := Files(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		size int64
		kind Kind
	}{
		".env":             {8, Secret},
		"README.md":        {5, Docs},
		"cmd/main.go":      {13, 0},
		"cmd/main_test.go": {13, Test},
		"vendor/x/x.go":    {10, Vendor},
	}
	if len(files) != len(want) {
		t.Fatalf("got %d files (%v), want %d", len(files), files, len(want))
	}
	for _, f := range files {
		w, ok := want[f.Path]
		if !ok {
			t.Errorf("unexpected file %q", f.Path)
			continue
		}
		if f.Size != w.size || f.Kind != w.kind {
			t.Errorf("%s: size %d kind %q, want size %d kind %q", f.Path, f.Size, f.Kind, w.size, w.kind)
		}
		if f.ModTime.IsZero() {
			t.Errorf("%s: zero ModTime", f.Path)
		}
	}
	if f := files[2]; f.Path != "cmd/main.go" || !f.ModTime.Equal(mtime) {
		t.Errorf("%s: ModTime %v, want %v", f.Path, f.ModTime, mtime)
	}
}

func TestWalkGeneratedContent(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"gen.go":     "// Code " + "generated by stringer; DO NOT " + "EDIT.\n\npackage x\n",
		"hand.go":    "package x\n",
		"bundle.js":  strings.Repeat("var a=1;", 1000),
		"history.md": strings.Repeat("A long paragraph of prose on a single line. ", 100) + "\n",
	})
	files, err := Files(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Kind{}
	for _, f := range files {
		got[f.Path] = f.Kind
	}
	want := map[string]Kind{"bundle.js": Generated, "gen.go": Generated, "hand.go": 0, "history.md": Docs}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestWalkRootErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.go")
	writeTree(t, dir, map[string]string{"file.go": "package x\n"})
	tests := []struct {
		name string
		root string
		is   error
	}{
		{"missing", filepath.Join(dir, "missing"), fs.ErrNotExist},
		{"missing parent", filepath.Join(dir, "missing", "sub"), fs.ErrNotExist},
		{"file", file, ErrNotDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called := false
			err := Walk(context.Background(), tt.root, Options{}, func(File) error {
				called = true
				return nil
			})
			if !errors.Is(err, tt.is) {
				t.Fatalf("Walk(%s) = %v, want an error wrapping %v", tt.root, err, tt.is)
			}
			if prefix := "walk " + tt.root + ": "; !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
			if called {
				t.Error("fn was called")
			}
			if files, err := Files(context.Background(), tt.root, Options{}); err == nil || files != nil {
				t.Errorf("Files = %v, %v; want nil and an error", files, err)
			}
		})
	}
}

// bigTree creates dirs directories of filesPerDir files each under root.
func bigTree(t testing.TB, root string, dirs, filesPerDir int) {
	t.Helper()
	files := map[string]string{}
	for d := range dirs {
		for f := range filesPerDir {
			files[fmt.Sprintf("d%03d/f%03d.go", d, f)] = "package p\n"
		}
	}
	writeTree(t, root, files)
}

func TestWalkCancel(t *testing.T) {
	root := t.TempDir()
	bigTree(t, root, 20, 5)

	t.Run("before start", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		n := 0
		err := Walk(ctx, root, Options{}, func(File) error { n++; return nil })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if n != 0 {
			t.Errorf("fn called %d times", n)
		}
	})

	t.Run("during walk", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		n := 0
		err := Walk(ctx, root, Options{}, func(f File) error {
			n++
			if f.Path == "d002/f000.go" {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		// Cancellation is noticed at the next directory.
		if n != 15 {
			t.Errorf("fn called %d times, want 15", n)
		}
	})

	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		defer cancel()
		if _, err := Files(ctx, root, Options{}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
	})
}

func TestWalkCallbackControl(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a/1": "", "a/2": "", "a/b/3": "", "a/c": "", "b/4": "", "c": "",
	})
	boom := errors.New("boom")
	tests := []struct {
		name    string
		stopAt  string
		ret     error
		wantErr error
		want    []string
	}{
		{"SkipAll", "a/2", filepath.SkipAll, nil, []string{"a/1", "a/2"}},
		{"SkipDir skips the rest of the directory", "a/1", filepath.SkipDir, nil, []string{"a/1", "b/4", "c"}},
		{"SkipDir in a subdirectory", "a/b/3", filepath.SkipDir, nil, []string{"a/1", "a/2", "a/b/3", "a/c", "b/4", "c"}},
		{"SkipDir at the root", "c", filepath.SkipDir, nil, []string{"a/1", "a/2", "a/b/3", "a/c", "b/4", "c"}},
		{"error", "a/b/3", boom, boom, []string{"a/1", "a/2", "a/b/3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := Walk(context.Background(), root, Options{}, func(f File) error {
				got = append(got, f.Path)
				if f.Path == tt.stopAt {
					return tt.ret
				}
				return nil
			})
			if err != tt.wantErr {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("visited %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWalkEmptyRoot(t *testing.T) {
	if got := walkPaths(t, t.TempDir(), Options{}); len(got) != 0 {
		t.Errorf("got %q, want nothing", got)
	}
}

func TestOptionsMaxFileSize(t *testing.T) {
	for _, tt := range []struct{ in, want int64 }{{0, DefaultMaxFileSize}, {1, 1}, {-1, -1}, {5 << 20, 5 << 20}} {
		if got := (Options{MaxFileSize: tt.in}).maxFileSize(); got != tt.want {
			t.Errorf("maxFileSize(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// BenchmarkWalk walks a generated tree of about 5000 files in 100
// directories, with nested ignore files and an ignored node_modules.
func BenchmarkWalk(b *testing.B) {
	root := b.TempDir()
	bigTree(b, root, 100, 50)
	files := map[string]string{
		".gitignore":      "node_modules/\n*.log\n",
		"d010/.gitignore": "!keep.log\nf00*.go\n",
		"d010/keep.log":   "log\n",
	}
	for i := range 1000 {
		files[fmt.Sprintf("node_modules/pkg%d/index.js", i)] = "module.exports = 1\n"
	}
	writeTree(b, root, files)
	want := 100*50 - 10 + 3 // 10 ignored, plus 2 .gitignore files and keep.log
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := Walk(ctx, root, Options{}, func(File) error { n++; return nil })
		if err != nil {
			b.Fatal(err)
		}
		if n != want {
			b.Fatalf("walked %d files, want %d", n, want)
		}
	}
}
