package walk

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The paths read from the index are git ls-files', for each index
// version and object format, with a conflict's stages once.
func TestParseGitIndexAsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	for _, tc := range []struct {
		name    string
		format  string
		version string
		split   bool
	}{
		{"sha1 v2", "sha1", "2", false},
		{"sha1 v3", "sha1", "3", false},
		{"sha1 v4", "sha1", "4", false},
		{"sha256 v2", "sha256", "2", false},
		{"sha256 v4", "sha256", "4", false},
		{"split sha1 v2", "sha1", "2", true},
		{"split sha1 v4", "sha1", "4", true},
		{"split sha256 v3", "sha256", "3", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{
				"a.go": "a\n", "b/c.go": "c\n", "b/c/d.go": "d\n", "b/cd.go": "e\n",
				"long/name-x/y/z/deep/file_with_a_long_name.py": "f\n",
				"été/ünï.txt": "g\n", "b-c/x": "h\n",
			}
			writeTree(t, root, files)
			run := func(args ...string) []byte {
				t.Helper()
				out, err := gitAt(git, root, root, args...).CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
				return out
			}
			run("init", "-q", "--object-format="+tc.format)
			run("add", "-A")
			run("add", "-N", "--", "b/c.go") // already added: no change
			if tc.version == "3" {
				// An intent-to-add entry sets the extended flags.
				writeTree(t, root, map[string]string{"new.go": "n\n"})
				run("add", "-N", "new.go")
			}
			run("update-index", "--index-version", tc.version)
			if tc.split {
				// A split index over the shared one: entries added (one
				// sorting first, one last), removed, and changed (which
				// the split index replaces), none of it folded into the
				// shared index.
				run("-c", "splitIndex.maxPercentChange=100", "update-index", "--split-index")
				writeTree(t, root, map[string]string{"0first.go": "0\n", "zz/last.go": "z\n", "b/c.go": "changed\n"})
				run("-c", "splitIndex.maxPercentChange=100", "add", "0first.go", "zz/last.go", "b/c.go")
				run("-c", "splitIndex.maxPercentChange=100", "rm", "-q", "--cached", "b/cd.go", "b-c/x")
			}
			data, err := os.ReadFile(filepath.Join(root, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseGitIndexFrom(data, sharedIndexReader(filepath.Join(root, ".git"), filepath.Join(root, ".git", "index")))
			if err != nil {
				t.Fatalf("parseGitIndex: %v", err)
			}
			if _, err := parseGitIndex(data); tc.split && err == nil {
				t.Error("a split index read without its shared index")
			}
			want := splitNUL(run("-c", "core.quotePath=false", "ls-files", "-z", "--cached"))
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("paths %q, git ls-files %q", got, want)
			}
		})
	}
}

func TestTrackedPaths(t *testing.T) {
	tp := &trackedPaths{paths: []string{"a/b.go", "a/bc/d.go", "build/x.h", "sparse/", "z"}}
	for _, tc := range []struct {
		rel        string
		has, under bool
	}{
		{"a/b.go", true, false},
		{"a", false, true},
		{"a/bc", false, true},
		{"a/b", false, false},
		{"build", false, true},
		{"build/y.h", false, false},
		{"sparse/deep/file.go", false, true}, // not checked out: a file there is not the tracked one
		{"sparse", false, true},
		{"z", true, false},
		{"zz", false, false},
	} {
		if got := tp.has(tc.rel); got != tc.has {
			t.Errorf("has(%q) = %v, want %v", tc.rel, got, tc.has)
		}
		if got := tp.hasUnder(tc.rel); got != tc.under {
			t.Errorf("hasUnder(%q) = %v, want %v", tc.rel, got, tc.under)
		}
	}
}

func FuzzParseGitIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + string(make([]byte, 20))))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01"))
	// A split index's shared index, which every input's link reads.
	shared := syntheticIndex(200)
	if git, err := exec.LookPath("git"); err == nil {
		root := f.TempDir()
		writeTree(f, root, map[string]string{"a.go": "a\n", "b/c.go": "c\n"})
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"update-index", "--index-version", "4"}} {
			if err := gitAt(git, root, root, args...).Run(); err != nil {
				f.Fatal(err)
			}
		}
		if data, err := os.ReadFile(filepath.Join(root, ".git", "index")); err == nil {
			f.Add(data)
		}
		writeTree(f, root, map[string]string{"a.go": "changed\n", "d.go": "d\n"})
		for _, args := range [][]string{{"update-index", "--split-index"}, {"add", "-A"}, {"rm", "-q", "--cached", "b/c.go"}} {
			if err := gitAt(git, root, root, append([]string{"-c", "splitIndex.maxPercentChange=100"}, args...)...).Run(); err != nil {
				f.Fatal(err)
			}
		}
		if data, err := os.ReadFile(filepath.Join(root, ".git", "index")); err == nil {
			f.Add(data)
		}
		if matches, _ := filepath.Glob(filepath.Join(root, ".git", "sharedindex.*")); len(matches) == 1 {
			if data, err := os.ReadFile(matches[0]); err == nil {
				shared = data
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(paths []string) {
			if !slices.IsSorted(paths) {
				t.Errorf("paths not sorted: %q", paths)
			}
			for i, p := range paths {
				if p == "" || i > 0 && paths[i-1] == p {
					t.Errorf("path %d is %q", i, p)
				}
			}
		}
		if paths, err := parseGitIndex(data); err == nil {
			check(paths)
		}
		if paths, err := parseGitIndexFrom(data, func(string) ([]byte, error) { return shared, nil }); err == nil {
			check(paths)
		}
	})
}

// syntheticIndex is a version 2 index of n paths, as git writes one.
func syntheticIndex(n int) []byte {
	paths := make([]string, n)
	for i := range paths {
		paths[i] = fmt.Sprintf("pkg%03d/sub%02d/file_%06d.go", i/1000, i/100%10, i)
	}
	slices.Sort(paths)
	var b []byte
	b = append(b, "DIRC"...)
	b = binary.BigEndian.AppendUint32(b, 2)
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	for _, p := range paths {
		start := len(b)
		b = append(b, make([]byte, 40+20)...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(p)))
		b = append(b, p...)
		pad := (len(b)-start+8)&^7 - (len(b) - start)
		b = append(b, make([]byte, pad)...)
	}
	return append(b, make([]byte, 20)...)
}

func TestSyntheticIndex(t *testing.T) {
	paths, err := parseGitIndex(syntheticIndex(1000))
	if err != nil || len(paths) != 1000 {
		t.Fatalf("%d paths, %v", len(paths), err)
	}
}

// BenchmarkParseGitIndex reads the index of a repository of 100,000
// files: what a walk that meets an ignored entry pays once, where the
// index changed since the process last read it.
func BenchmarkParseGitIndex(b *testing.B) {
	data := syntheticIndex(100_000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := parseGitIndex(data); err != nil {
			b.Fatal(err)
		}
	}
}

// The tracked files git's rules ignore are kept as git keeps them: a
// hook's relative GIT_INDEX_FILE, a submodule's own index (and a
// submodule in an ignored folder), a root reached through a link, and a
// sparse index, under whose directory entries a file on disk is not the
// tracked one.
func TestTrackedAsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	run := gitRunner(t, git)
	listed := func(dir string) []string {
		t.Helper()
		out := run(dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		paths := splitNUL(out)
		slices.Sort(paths)
		return slices.Compact(paths)
	}

	// A submodule with a tracked file its .gitignore ignores, beside one
	// in a folder the superproject ignores.
	sub := filepath.Join(t.TempDir(), "sub")
	writeTree(t, sub, map[string]string{".gitignore": "build/\n", "lib.go": "package lib\n", "build/keep.go": "package build\n", "build/drop.go": "package build\n"})
	run(sub, "init", "-q")
	run(sub, "add", "-f", ".gitignore", "lib.go", "build/keep.go")
	run(sub, "commit", "-qm", "sub")
	root := t.TempDir()
	writeTree(t, root, map[string]string{".gitignore": "vendor/\ngen/\n", "main.go": "package main\n", "gen/t.go": "package gen\n"})
	run(root, "init", "-q")
	run(root, "add", "-f", ".gitignore", "main.go", "gen/t.go")
	run(root, "submodule", "add", "-q", sub, "sub2")
	run(root, "submodule", "add", "-q", "-f", sub, "vendor/lib")
	run(root, "commit", "-qm", "root")

	want := listed(root)
	for _, s := range []string{"sub2", "vendor/lib"} {
		for _, p := range listed(filepath.Join(root, filepath.FromSlash(s))) {
			want = append(want, s+"/"+p)
		}
		want = slices.DeleteFunc(want, func(p string) bool { return p == s }) // the gitlink itself
	}
	slices.Sort(want)
	got := walkPaths(t, root, Options{})
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("with submodules: walk %q, git %q", got, want)
	}

	// Reached through a link, the root is the work tree it leads to.
	link := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(root, link); err == nil {
		if got := walkPaths(t, link, Options{}); !slices.Contains(got, "gen/t.go") {
			t.Errorf("through a link, the tracked gen/t.go is not walked: %q", got)
		}
	}

	// A hook's index, named from the work tree's top.
	t.Setenv("GIT_INDEX_FILE", ".git/index")
	if got := walkPaths(t, root, Options{}); !slices.Contains(got, "gen/t.go") || !slices.Contains(got, "sub2/build/keep.go") {
		t.Errorf("with GIT_INDEX_FILE=.git/index: %q", got)
	}
	os.Unsetenv("GIT_INDEX_FILE") // t.Setenv puts it back as it was

	// A sparse index: a file made under a directory not checked out, in a
	// folder the rules ignore, is not tracked.
	sp := t.TempDir()
	writeTree(t, sp, map[string]string{".gitignore": "gen/\n", "x/a.go": "package x\n", "z/a.go": "package z\n"})
	run(sp, "init", "-q")
	run(sp, "add", ".")
	run(sp, "commit", "-qm", "sparse")
	run(sp, "config", "index.sparse", "true")
	run(sp, "sparse-checkout", "set", "--cone", "x")
	writeTree(t, sp, map[string]string{"z/gen/out.go": "package gen\n"})
	if got := walkPaths(t, sp, Options{}); slices.Contains(got, "z/gen/out.go") {
		t.Errorf("a sparse index: the ignored, untracked z/gen/out.go is walked: %q", got)
	}

	// A split index (core.splitIndex): the tracked files the rules ignore,
	// in the shared index and in the split one, are walked as git lists
	// them.
	si := t.TempDir()
	writeTree(t, si, map[string]string{".gitignore": "gen/\n", "a.go": "package a\n", "gen/old.go": "package gen\n"})
	run(si, "init", "-q")
	run(si, "config", "core.splitIndex", "true")
	run(si, "config", "splitIndex.maxPercentChange", "100")
	run(si, "add", "-f", ".gitignore", "a.go", "gen/old.go")
	run(si, "commit", "-qm", "split")
	writeTree(t, si, map[string]string{"gen/new.go": "package gen\n", "gen/loose.go": "package gen\n"})
	run(si, "add", "-f", "gen/new.go")
	if matches, _ := filepath.Glob(filepath.Join(si, ".git", "sharedindex.*")); len(matches) == 0 {
		t.Fatal("git made no shared index")
	}
	if got, want := walkPaths(t, si, Options{}), listed(si); !slices.Equal(sorted(got), want) {
		t.Errorf("a split index: walk %q, git %q", got, want)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Inside a submodule, git's rules are the submodule's own: a pattern of
// the superproject's .gitignore does not reach into it, the submodule's
// info/exclude does; hone's own .ignore holds on both sides.
func TestSubmoduleOwnRules(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	run := gitRunner(t, git)
	listed := func(dir string) []string {
		out := run(dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
		return sorted(splitNUL(out))
	}
	sub := filepath.Join(t.TempDir(), "sub")
	writeTree(t, sub, map[string]string{".gitignore": "*.o\n", "lib.go": "package lib\n"})
	run(sub, "init", "-q")
	run(sub, "add", ".")
	run(sub, "commit", "-qm", "sub")
	root := t.TempDir()
	writeTree(t, root, map[string]string{".gitignore": "*.gen.go\n", ".ignore": "*.tmp\n", "main.go": "package main\n", "main.gen.go": "package main\n"})
	run(root, "init", "-q")
	run(root, "add", ".gitignore", ".ignore", "main.go")
	run(root, "submodule", "add", "-q", sub, "third/sub")
	run(root, "commit", "-qm", "root")
	sm := filepath.Join(root, "third", "sub")
	writeTree(t, sm, map[string]string{"api.gen.go": "package lib\n", "x.o": "o\n", "notes.txt": "n\n", "scratch.tmp": "t\n"})
	infoDir := filepath.Join(root, ".git", "modules", "third", "sub", "info")
	if err := os.MkdirAll(infoDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A negation of git's in the submodule does not undo hone's own rule.
	writeTree(t, sm, map[string]string{"keep.tmp": "k\n"})
	if err := os.WriteFile(filepath.Join(infoDir, "exclude"), []byte("notes.txt\n!keep.tmp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := slices.DeleteFunc(listed(root), func(p string) bool { return p == "third/sub" })
	for _, p := range listed(sm) {
		want = append(want, "third/sub/"+p)
	}
	// The files that decide what the submodule ignores are watched: the
	// walk names it among the work trees it met.
	var trees []string
	if _, err := Files(context.Background(), root, Options{WorkTree: func(p string) { trees = append(trees, p) }}); err != nil {
		t.Fatal(err)
	}
	rules := RuleFiles(root, trees)
	for _, f := range []string{filepath.Join(infoDir, "exclude"), filepath.Join(filepath.Dir(infoDir), "index")} {
		if !slices.Contains(rules, f) {
			t.Errorf("RuleFiles lacks %s: %q", f, rules)
		}
	}
	// hone's own .ignore, not git's, leaves out *.tmp on both sides.
	want = sorted(slices.DeleteFunc(want, func(p string) bool { return strings.HasSuffix(p, ".tmp") }))
	if got := sorted(walkPaths(t, root, Options{})); !slices.Equal(got, want) {
		t.Errorf("walk %q, want %q", got, want)
	}
}

// A walk that meets the ignored entries the last one met, with the git
// index unchanged, answers them from its listings, as decoded by the next
// process, and reads no index; once git's index changes, it reads it.
func TestTrackedAnswersKept(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	root := t.TempDir()
	if !KeepsListings(root) {
		t.Skipf("no listings kept on the file system of %s", root)
	}
	home := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if out, err := gitAt(git, home, root, args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	writeTree(t, root, map[string]string{".gitignore": "*.rc\nbuild/\n", "a.go": "package a\n", "tests/.coveragerc": "x\n", "build/keep.h": "h\n", "build/drop.h": "h\n", "cache/x.rc": "y\n"})
	run("init", "-q")
	run("add", "-f", ".gitignore", "a.go", "tests/.coveragerc", "build/keep.h")
	settle(t)
	want := []string{".gitignore", "a.go", "build/keep.h", "tests/.coveragerc"}
	ls := NewListings()
	// walk is a process's: listings decoded from the last one's.
	walk := func(step string) int64 {
		t.Helper()
		data, err := ls.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		ls = NewListings()
		if err := ls.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		trackedCache.mu.Lock()
		trackedCache.byKey = nil // a new process has none read
		trackedCache.mu.Unlock()
		before := trackedReads.Load()
		if got := sorted(walkPaths(t, root, Options{Listings: ls})); !slices.Equal(got, want) {
			t.Errorf("%s: walk %q, want %q", step, got, want)
		}
		return trackedReads.Load() - before
	}
	if n := walk("first walk"); n != 1 {
		t.Errorf("the first walk read the index %d times, want 1", n)
	}
	if n := walk("nothing changed"); n != 0 {
		t.Errorf("a walk with nothing changed read the index %d times, want 0", n)
	}
	run("rm", "-q", "--cached", "build/keep.h")
	settle(t)
	want = []string{".gitignore", "a.go", "tests/.coveragerc"}
	if n := walk("build/keep.h untracked"); n != 1 {
		t.Errorf("a walk after the index changed read it %d times, want 1", n)
	}
	if n := walk("nothing changed again"); n != 0 {
		t.Errorf("a walk with nothing changed read the index %d times, want 0", n)
	}
}

// gitRunner runs git in a folder with a home of its own, failing the test
// on an error, and returns its output.
func gitRunner(t *testing.T, git string) func(dir string, args ...string) []byte {
	home := t.TempDir()
	return func(dir string, args ...string) []byte {
		t.Helper()
		out, err := gitAt(git, home, dir, append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "protocol.file.allow=always"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return out
	}
}
