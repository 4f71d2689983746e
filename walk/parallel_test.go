package walk

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// withWorkers runs f with GOMAXPROCS set to each of a few values, with the
// read-ahead budget at its default and at its minimum, so that the walk runs
// with no workers, with a few and with more workers than CPUs, and with
// workers held back by the budget.
func withWorkers(t *testing.T, f func(t *testing.T)) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer func(n int) { maxBuffered = n }(maxBuffered)
	for _, procs := range []int{1, 2, 8} {
		for _, budget := range []int{maxBuffered, 1} {
			t.Run(fmt.Sprintf("procs=%d,budget=%d", procs, budget), func(t *testing.T) {
				runtime.GOMAXPROCS(procs)
				maxBuffered = budget
				f(t)
			})
		}
	}
}

// walkAll walks root with a fresh walker and checks that the walk released
// all it read ahead when it ran to the end.
func walkAll(t *testing.T, root string, opts Options, fn func(File) error) error {
	t.Helper()
	w := newWalker(context.Background(), root, opts, fn)
	err := w.walk()
	if err == nil && w.buffered != 0 {
		t.Errorf("%d entries still buffered after the walk", w.buffered)
	}
	return err
}

func TestWalkParallelIgnore(t *testing.T) {
	roots := make([]string, len(ignoreCases))
	for i, tc := range ignoreCases {
		roots[i] = t.TempDir()
		writeTree(t, roots[i], tc.files)
	}
	withWorkers(t, func(t *testing.T) {
		for i, tc := range ignoreCases {
			var got []string
			err := walkAll(t, roots[i], Options{}, func(f File) error {
				got = append(got, f.Path)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: got %q\nwant %q", tc.name, got, tc.want)
			}
		}
	})
}

// hookTree creates a tree of 40 directories, each with text files, a binary
// file and two levels of subdirectories, and returns its text files.
func hookTree(t *testing.T) (root string, text []string) {
	root = t.TempDir()
	files := map[string]string{}
	for d := range 40 {
		for _, f := range []string{"a.go", "b.go", "s/c.go", "s/t/d.go", "z.go"} {
			p := fmt.Sprintf("d%02d/%s", d, f)
			files[p] = "package p\n"
			text = append(text, p)
		}
		files[fmt.Sprintf("d%02d/bin.dat", d)] = "\x00"
	}
	writeTree(t, root, files)
	slices.Sort(text)
	return root, text
}

// TestWalkHooksInOrder checks that fn and the hooks are called one at a
// time, from the walking goroutine, in path order: they share variables
// without locks, which the race detector would catch.
func TestWalkHooksInOrder(t *testing.T) {
	root, text := hookTree(t)
	withWorkers(t, func(t *testing.T) {
		for _, seen := range []bool{false, true} {
			var events []string
			last := ""
			ordered := func(kind, p string) {
				if p <= last {
					t.Errorf("%s %s after %s", kind, p, last)
				}
				last = p
				events = append(events, kind+" "+p)
			}
			var opts Options
			opts.Binary = func(f File) { ordered("binary", f.Path) }
			if seen {
				opts.Seen = func(f File) (Kind, bool, bool) {
					events = append(events, "seen "+f.Path)
					return 0, false, strings.HasPrefix(f.Path, "d1")
				}
			}
			var got []string
			err := walkAll(t, root, opts, func(f File) error {
				ordered("file", f.Path)
				got = append(got, f.Path)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := text
			if seen {
				// Binary files Seen knows are listed.
				want = nil
				for _, p := range append(text[:len(text):len(text)], binaries(40)...) {
					if !strings.HasSuffix(p, ".dat") || strings.HasPrefix(p, "d1") {
						want = append(want, p)
					}
				}
				slices.Sort(want)
			}
			if !slices.Equal(got, want) {
				t.Errorf("seen=%v: got %q\nwant %q", seen, got, want)
			}
			if n := len(events); seen && n != len(text)+40+len(want)+40-10 {
				t.Errorf("seen=%v: %d events", seen, n)
			}
		}
	})
}

func binaries(n int) []string {
	var ps []string
	for d := range n {
		ps = append(ps, fmt.Sprintf("d%02d/bin.dat", d))
	}
	return ps
}

// TestWalkParallelSkipDir skips the rest of many directories, whose
// subdirectories the workers may have read already.
func TestWalkParallelSkipDir(t *testing.T) {
	root, text := hookTree(t)
	var want []string
	for _, p := range text {
		// SkipDir at dNN/b.go for even NN skips dNN/s/... and dNN/z.go.
		var d int
		fmt.Sscanf(p, "d%d/", &d)
		rest := p[4:]
		if d%2 == 0 && rest > "b.go" {
			continue
		}
		want = append(want, p)
	}
	withWorkers(t, func(t *testing.T) {
		var got []string
		err := walkAll(t, root, Options{}, func(f File) error {
			got = append(got, f.Path)
			var d int
			fmt.Sscanf(f.Path, "d%d/", &d)
			if d%2 == 0 && strings.HasSuffix(f.Path, "/b.go") {
				return filepath.SkipDir
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
}

// TestWalkParallelStop stops the walk early in several ways; Walk must
// return only once its workers are done, which the race detector and the
// removal of the temporary directory check.
func TestWalkParallelStop(t *testing.T) {
	root, _ := hookTree(t)
	boom := errors.New("boom")
	withWorkers(t, func(t *testing.T) {
		for _, ret := range []error{filepath.SkipAll, boom} {
			n := 0
			err := Walk(context.Background(), root, Options{}, func(f File) error {
				n++
				if f.Path == "d03/a.go" {
					return ret
				}
				return nil
			})
			if err != skipToNil(ret) || n != 16 {
				t.Errorf("%v: err %v after %d files", ret, err, n)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		err := Walk(ctx, root, Options{}, func(f File) error {
			if f.Path == "d03/a.go" {
				cancel()
			}
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
	})
}
