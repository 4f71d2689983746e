package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hone-tools/hone"
)

// repo is a scratch git repository.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes the files and commits them with the message; it returns
// the commit's hash.
func (r *repo) commit(msg string, files ...string) string {
	r.t.Helper()
	for _, f := range files {
		p := filepath.Join(r.dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		old, _ := os.ReadFile(p)
		if err := os.WriteFile(p, append(old, []byte(msg+"\n")...), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// subjectsOf lists the subjects of a history's commits, in its order.
func subjectsOf(l *Log) []string {
	var out []string
	for _, c := range l.Commits {
		out = append(out, c.Subject)
	}
	return out
}

func similarFiles(t *testing.T, l *Log, task string) []string {
	t.Helper()
	scores := FileScores(l.Similar(task, 3))
	var out []string
	for f := range scores {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b string) int {
		if scores[a] != scores[b] {
			if scores[a] > scores[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return out
}

func TestSimilarCommits(t *testing.T) {
	r := newRepo(t)
	r.commit("Initial layout", "README.md", "src/server.go")
	r.commit("Throttle requests per client in the rate limiter", "src/middleware/throttle.go")
	r.commit("Render the orders page faster", "src/routes/orders.go")
	r.commit("Log each request's path and status", "src/middleware/logger.go")
	l, err := Read(context.Background(), r.dir, "", "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Commits) != 4 {
		t.Fatalf("%d commits, want 4", len(l.Commits))
	}
	got := similarFiles(t, l, "The rate limiter lets a client through after throttling it\nIt should keep throttling.")
	if len(got) == 0 || got[0] != "src/middleware/throttle.go" {
		t.Errorf("files of the commits like the task: %v, want src/middleware/throttle.go first", got)
	}
	if got := l.Similar("nothing the history says", 3); len(got) != 0 {
		t.Errorf("a task like no commit matched %d", len(got))
	}
}

// The history of a revision is its ancestors: not what came after it, nor
// another branch; and a cache filled at one revision serves the others.
func TestHistoryOfARevision(t *testing.T) {
	r := newRepo(t)
	cache := t.TempDir()
	old := r.commit("Parse the config file", "config.go")
	r.git("checkout", "-q", "-b", "side")
	r.commit("Cache the parsed templates", "templates.go")
	r.git("checkout", "-q", "main")
	r.commit("Retry failed uploads with backoff", "upload.go")

	read := func(rev string) []string {
		t.Helper()
		l, err := Read(context.Background(), r.dir, "", rev, cache)
		if err != nil {
			t.Fatal(err)
		}
		subjects := subjectsOf(l)
		slices.Sort(subjects)
		return subjects
	}
	if got, want := read(""), []string{"Parse the config file", "Retry failed uploads with backoff"}; !slices.Equal(got, want) {
		t.Errorf("HEAD: %q, want %q", got, want)
	}
	if got, want := read(old), []string{"Parse the config file"}; !slices.Equal(got, want) {
		t.Errorf("the first commit: %q, want %q", got, want)
	}
	if got, want := read("side"), []string{"Cache the parsed templates", "Parse the config file"}; !slices.Equal(got, want) {
		t.Errorf("the side branch: %q, want %q", got, want)
	}
	// New commits are read; the cached ones are kept.
	r.git("merge", "-q", "--no-edit", "side")
	r.commit("Stream large uploads", "upload.go")
	got := read("")
	want := []string{"Cache the parsed templates", "Merge branch 'side'", "Parse the config file", "Retry failed uploads with backoff", "Stream large uploads"}
	if !slices.Equal(got, want) {
		t.Errorf("after a merge: %q, want %q", got, want)
	}
}

// A revision or a git directory asked for that git cannot read is
// ErrNoGit, with what git said of it; a folder with no git at all, not
// asked for, is ErrNoGit alone.
func TestAskedForAndMissing(t *testing.T) {
	r := newRepo(t)
	r.commit("Parse the config file", "config.go")
	for _, tc := range []struct{ gitDir, rev, says string }{
		{"", "nosuchrev", "nosuchrev"},
		{filepath.Join(t.TempDir(), "none"), "", "git"},
	} {
		_, err := Read(context.Background(), r.dir, tc.gitDir, tc.rev, t.TempDir())
		if !errors.Is(err, ErrNoGit) || err == ErrNoGit || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("git dir %q, revision %q: %v; want ErrNoGit with git's words", tc.gitDir, tc.rev, err)
		}
	}
	if _, err := Read(context.Background(), t.TempDir(), "", "", t.TempDir()); err != ErrNoGit {
		t.Errorf("a folder without git: %v, want ErrNoGit", err)
	}
}

// A bare mirror's history is read through its git directory, at a
// revision: as a benchmark's checkouts are.
func TestBareMirror(t *testing.T) {
	r := newRepo(t)
	first := r.commit("Add the exporter", "export.go")
	r.commit("Export to CSV", "csv.go")
	mirror := filepath.Join(t.TempDir(), "mirror.git")
	r.git("clone", "-q", "--bare", r.dir, mirror)
	l, err := Read(context.Background(), t.TempDir(), mirror, first, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Commits) != 1 || l.Commits[0].Subject != "Add the exporter" || !slices.Equal(l.Commits[0].Files, []string{"export.go"}) {
		t.Errorf("commits %+v, want the first alone, with its file", l.Commits)
	}
}

func TestNoGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	_, err := Read(context.Background(), dir, "", "", t.TempDir())
	if !errors.Is(err, ErrNoGit) {
		t.Errorf("outside a repository: %v, want ErrNoGit", err)
	}
}

// A repository with no git on the PATH says so: the history is left out
// for a reason the user can mend. A folder that is no repository says
// nothing.
func TestGitMissing(t *testing.T) {
	r := newRepo(t)
	r.commit("Parse the config file", "config.go")
	t.Setenv("PATH", t.TempDir())
	if _, err := Read(t.Context(), r.dir, "", "", t.TempDir()); !errors.Is(err, ErrGitMissing) {
		t.Errorf("a repository without git: %v, want ErrGitMissing", err)
	}
	if _, err := Read(t.Context(), t.TempDir(), "", "", t.TempDir()); !errors.Is(err, ErrNoGit) {
		t.Errorf("a folder without git: %v, want ErrNoGit", err)
	}
}

func TestParseLog(t *testing.T) {
	out := []byte("\x00aaa 1700000000 bbb ccc\x01Fix the parser\n\nIt dropped `foo_bar`.\n\x02\nsrc/a.py\nsrc/b.py\n" +
		"\x00bbb -5\x01Merge branch 'x'\n\n\x02\n\x00bad record\n\x00ccc yesterday ddd\x01A time that is none\n\x02\n")
	cs := parseLog(out)
	if len(cs) != 2 {
		t.Fatalf("%d commits, want 2", len(cs))
	}
	if cs[0].Hash != "aaa" || cs[0].time != 1700000000 || !slices.Equal(cs[0].parents, []string{"bbb", "ccc"}) || cs[0].Subject != "Fix the parser" ||
		!slices.Equal(cs[0].Files, []string{"src/a.py", "src/b.py"}) || !slices.Contains(termsOf(cs[0]), "parser") || !slices.Contains(termsOf(cs[0]), "foo") {
		t.Errorf("first commit %+v", cs[0])
	}
	if len(cs[1].Files) != 0 || len(cs[1].parents) != 0 || cs[1].time != -5 {
		t.Errorf("merge %+v, want no files and no parents", cs[1])
	}
}

// A message that holds the byte ending messages (git allows any but NUL)
// names no file of the commit's: the files are those after the last.
func TestParseLogMessageWithItsEnd(t *testing.T) {
	out := []byte("\x00aaa 1700000000 bbb\x01Fix invoice total tax computation\n\nbody\x02\nbilling/invoice.py\nbilling/forged.py\n\x02\ndocs/notes.txt\n")
	cs := parseLog(out)
	if len(cs) != 1 || !slices.Equal(cs[0].Files, []string{"docs/notes.txt"}) {
		t.Fatalf("commits %+v, want one that changed docs/notes.txt alone", cs)
	}
}

func FuzzParseLog(f *testing.F) {
	f.Add([]byte("\x00aaa 1700000000 bbb\x01subject\n\nbody\x02\nfile.go\n"))
	f.Add([]byte("\x00\x01\x02"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, c := range parseLog(b) {
			if c.Hash == "" {
				t.Errorf("a commit without a hash from %q", b)
			}
		}
	})
}

// hone run on a folder of a larger repository names files from the
// folder, and so must the history.
func TestFolderOfARepository(t *testing.T) {
	r := newRepo(t)
	r.commit("Tune the scheduler's queue", "svc/sched/queue.go", "docs/sched.md")
	l, err := Read(context.Background(), filepath.Join(r.dir, "svc"), "", "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Commits) != 1 || !slices.Equal(l.Commits[0].Files, []string{"sched/queue.go"}) {
		t.Errorf("commits %d, files %q, want one that changed sched/queue.go", len(l.Commits), l.Commits[0].Files)
	}
}

// A root given relative to the working directory reads the history as
// its absolute path does: git runs in it, from wherever the caller is;
// and below GIT_CEILING_DIRECTORIES it has none, as git has it, where a
// relative path passed the ceiling and git's refusal came back as an
// error.
func TestRelativeRoot(t *testing.T) {
	r := newRepo(t)
	r.commit("Tune the scheduler's queue", "svc/sched/queue.go", "web/page.go", "testdata/repos/one/a.go")
	t.Chdir(filepath.Join(r.dir, "web"))
	for _, root := range []string{"..", "../svc", "../svc/sched", "../testdata/repos/one"} {
		l, err := Read(context.Background(), root, "", "", t.TempDir())
		if err != nil || len(l.Commits) != 1 {
			t.Errorf("%s: %v, %+v; want one commit", root, err, l)
		}
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Join(r.dir, "svc"))
	if _, err := Read(context.Background(), "../svc/sched", "", "", t.TempDir()); err != ErrNoGit {
		t.Errorf("below the ceiling: %v, want ErrNoGit", err)
	}
}

func TestPackRoundTrip(t *testing.T) {
	cs := []*Commit{
		{Hash: "aaa", time: 1700000000, parents: []string{"bbb", "ccc"}, Subject: "Fix the parser", terms: []string{"fix", "parser"}, Files: []string{"src/a.py", "src/b.py"}},
		{Hash: "bbb", time: -1, Subject: "Merge"},
		{Hash: "ccc", parents: []string{"ddd"}, Subject: "Speed up the parser", terms: []string{"speed", "parser"}, Files: []string{"src/a.py"}},
	}
	pk, err := decodePack(encodePack(pack{commits: cs, head: "aaa", n: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if pk.head != "aaa" || pk.n != 2 {
		t.Errorf("head %q of %d commits, want aaa of 2", pk.head, pk.n)
	}
	got := pk.commits
	if len(got) != len(cs) {
		t.Fatalf("%d commits back, want %d", len(got), len(cs))
	}
	for i, c := range cs {
		g := got[i]
		if g.Hash != c.Hash || g.time != c.time || g.Subject != c.Subject || !slices.Equal(g.parents, c.parents) ||
			!slices.Equal(termsOf(g), termsOf(c)) || !slices.Equal(g.Files, c.Files) {
			t.Errorf("commit %d: %+v, want %+v", i, g, c)
		}
	}
}

func FuzzDecodePack(f *testing.F) {
	f.Add(encodePack(pack{commits: []*Commit{{Hash: "aaa", parents: []string{"bbb"}, Subject: "s", terms: []string{"t"}, Files: []string{"f"}}}, head: "aaa", n: 1}))
	f.Add([]byte{packVersion, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		pk, err := decodePack(b)
		if err != nil {
			return
		}
		if pk.n > len(pk.commits) {
			t.Fatalf("a history of %d commits in a pack of %d", pk.n, len(pk.commits))
		}
		// What decodes encodes back to the same commits.
		again, err := decodePack(encodePack(pk))
		if err != nil || len(again.commits) != len(pk.commits) || again.head != pk.head || again.n != pk.n {
			t.Fatalf("round trip of %d commits: %d, %v", len(pk.commits), len(again.commits), err)
		}
	})
}

// A damaged cache is read from git again.
func TestDamagedCache(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the scheduler", "sched.go")
	r.commit("Tune the scheduler", "sched.go")
	cache := t.TempDir()
	if _, err := Read(context.Background(), r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	packPath := onlyPack(t, cache)
	if err := os.WriteFile(packPath, []byte{packVersion, 0xff, 0xff, 0xff, 0xff, 0x0f}, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Read(context.Background(), r.dir, "", "", cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Commits) != 2 {
		t.Errorf("%d commits after the damage, want 2", len(l.Commits))
	}
	// A pack lost while the database says its head was read.
	if err := os.Remove(packPath); err != nil {
		t.Fatal(err)
	}
	if l, err = Read(context.Background(), r.dir, "", "", cache); err != nil || len(l.Commits) != 2 {
		t.Errorf("after the pack was lost: %v, %v; want 2 commits", l, err)
	}
	// A database that is no database is a cache made anew.
	dbs, _ := filepath.Glob(filepath.Join(cache, "history-*.db"))
	if len(dbs) != 1 {
		t.Fatalf("databases %v, want one", dbs)
	}
	if err := os.WriteFile(dbs[0], []byte(strings.Repeat("not a database ", 512)), 0o600); err != nil {
		t.Fatal(err)
	}
	kept = logMemo{} // as a new process finds it
	if l, err = Read(context.Background(), r.dir, "", "", cache); err != nil || len(l.Commits) != 2 {
		t.Errorf("after the database was overwritten: %v, %v; want 2 commits", l, err)
	}
}

// Opening a cache: a new file is made one, one of another version is
// emptied, and one that cannot be read says so rather than go on.
func TestOpenCache(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "history.db")
	db, err := openCacheFile(p)
	if err != nil {
		t.Fatalf("a new cache: %v", err)
	}
	if _, err := db.Exec(`INSERT INTO heads(hash, commits) VALUES('abc', 1); UPDATE meta SET value = 'old' WHERE key = 'schema'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := writePack(packFile(p), pack{commits: synthetic(3)}); err != nil {
		t.Fatal(err)
	}
	db, err = openCacheFile(p)
	if err != nil {
		t.Fatalf("a cache of another version: %v", err)
	}
	var heads int
	var v string
	if err := db.QueryRow(`SELECT COUNT(*), (SELECT value FROM meta WHERE key = 'schema') FROM heads`).Scan(&heads, &v); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(packFile(p)); heads != 0 || v != schemaVersion || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cache of another version kept %d heads, version %q, its pack (%v)", heads, v, err)
	}
	bad := filepath.Join(dir, "bad.db")
	if err := os.WriteFile(bad, []byte(strings.Repeat("not a database ", 512)), 0o600); err != nil {
		t.Fatal(err)
	}
	if db, err := openCacheFile(bad); err == nil {
		db.Close()
		t.Fatal("a file that is no database opened as a cache")
	} else if !strings.Contains(err.Error(), "delete the file") {
		t.Errorf("error %q does not say what to do", err)
	}
}

// A cache of this version is opened for reading without a write: every
// retrieve opens it, and a write costs a transaction and its fsyncs.
func TestOpenCacheWritesNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "history.db")
	db, err := openCacheFile(p)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	db, err = openCacheFile(p)
	if err != nil {
		t.Fatalf("a cache of this version: %v", err)
	}
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM heads`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	db.Close()
	after, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Errorf("opening a current cache wrote it: %v %d bytes, then %v %d bytes", before.ModTime(), before.Size(), after.ModTime(), after.Size())
	}
	// A cache whose heads table is lost has it made again.
	db, err = openCacheFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP TABLE heads`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = openCacheFile(p)
	if err != nil {
		t.Fatalf("a cache without its heads: %v", err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT COUNT(*) FROM heads`).Scan(&n); err != nil {
		t.Errorf("the heads table was not made again: %v", err)
	}
}

// A revision older than the one read first has its own window of
// history, not the end of the newer one's.
func TestOlderRevisionWindow(t *testing.T) {
	defer func(w int) { window = w }(window)
	window = 3
	r := newRepo(t)
	var hashes []string
	for i := 1; i <= 8; i++ {
		hashes = append(hashes, r.commit(fmt.Sprintf("Change %d", i), fmt.Sprintf("f%d.go", i)))
	}
	cache := t.TempDir()
	subjects := func(rev string) []string {
		t.Helper()
		l, err := Read(context.Background(), r.dir, "", rev, cache)
		if err != nil {
			t.Fatal(err)
		}
		return subjectsOf(l)
	}
	for _, tt := range []struct {
		rev  string
		want []string
	}{
		{"", []string{"Change 8", "Change 7", "Change 6"}},
		{hashes[6], []string{"Change 7", "Change 6", "Change 5"}}, // read, but its window runs past the cache
		{hashes[3], []string{"Change 4", "Change 3", "Change 2"}}, // never read
	} {
		if got := subjects(tt.rev); !slices.Equal(got, tt.want) {
			t.Errorf("history of %q: %q, want %q", tt.rev, got, tt.want)
		}
	}
}

// TestPrivateCache: commit subjects may hold secrets; the cache is kept
// as ssh keeps its state, a 0700 folder of 0600 files.
func TestPrivateCache(t *testing.T) {
	r := newRepo(t)
	r.commit("Rotate the key", "sched.go")
	cache := filepath.Join(t.TempDir(), "hone")
	if _, err := Read(context.Background(), r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "history-*"))
	if len(files) == 0 {
		t.Fatal("no cache written")
	}
	for _, p := range append(files, cache) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want := os.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %o, want %o", filepath.Base(p), fi.Mode().Perm(), want)
		}
	}
}

// A read started in the background ends with Read's answer, and one
// stopped leaves nothing running; a nil Reading reads nothing.
func TestStart(t *testing.T) {
	dir := t.TempDir() // no repository
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	r := Start(context.Background(), dir, "", "", t.TempDir())
	if l, _, err := r.Wait(); l != nil || !errors.Is(err, ErrNoGit) {
		t.Errorf("outside git: %v, %v; want no history and ErrNoGit", l, err)
	}
	if l, _, err := r.Wait(); l != nil || !errors.Is(err, ErrNoGit) {
		t.Errorf("a second Wait: %v, %v", l, err)
	}
	Start(context.Background(), dir, "", "", t.TempDir()).Stop()
	var none *Reading
	none.Stop()
	if l, took, err := none.Wait(); l != nil || took != 0 || err != nil {
		t.Errorf("a nil Reading: %v, %v, %v", l, took, err)
	}
}

// Warm reads a head's history as Read does, once; a head read before is
// counted from the cache without reading its pack, even a damaged one;
// one whose pack is lost, and a new commit, are read from git.
func TestWarm(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the scheduler", "sched.go")
	r.commit("Tune the scheduler", "sched.go")
	cache := t.TempDir()
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		before func()
		want   int
	}{
		{"a head never read", func() {}, 2},
		{"the head read before, its pack damaged", func() {
			packs, _ := filepath.Glob(filepath.Join(cache, "history-*.pack"))
			if err := os.WriteFile(packs[0], []byte{packVersion, 0xff}, 0o600); err != nil {
				t.Fatal(err)
			}
		}, 2},
		{"the head read before, its pack lost", func() {
			packs, _ := filepath.Glob(filepath.Join(cache, "history-*.pack"))
			if err := os.Remove(packs[0]); err != nil {
				t.Fatal(err)
			}
		}, 2},
		{"a new commit", func() { r.commit("Drop the scheduler's lock", "lock.go") }, 3},
	} {
		tt.before()
		n, err := Warm(ctx, r.dir, "", "", cache)
		if err != nil || n != tt.want {
			t.Errorf("%s: %d commits, %v; want %d", tt.name, n, err, tt.want)
		}
	}
	l, err := Read(ctx, r.dir, "", "", cache)
	if err != nil || len(l.Commits) != 3 {
		t.Fatalf("Read after Warm: %v, %v", l, err)
	}
	var none *Reading
	if l, took, err := none.Wait(); l != nil || took != 0 || err != nil {
		t.Errorf("a nil Reading: %v, %v, %v", l, took, err)
	}
}

// A pack older than the heads (a crash that lost its rename, a reset by
// another process): a head whose pack holds fewer commits than it had is
// read from git again, never answered short.
func TestStalePack(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the scheduler", "sched.go")
	cache := t.TempDir()
	ctx := context.Background()
	if _, err := Read(ctx, r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	packPath := onlyPack(t, cache)
	old, err := os.ReadFile(packPath)
	if err != nil {
		t.Fatal(err)
	}
	r.commit("Tune the scheduler", "sched.go")
	if l, err := Read(ctx, r.dir, "", "", cache); err != nil || len(l.Commits) != 2 {
		t.Fatalf("after a new commit: %v, %v", l, err)
	}
	if err := os.WriteFile(packPath, old, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if l, err := Read(ctx, r.dir, "", "", cache); err != nil || len(l.Commits) != 2 {
			t.Errorf("read %d beside the older pack: %v, %v; want 2 commits", i, l, err)
		}
	}
}

// A head read before that git has since lost (a commit amended, then
// pruned) is no matter: the next read reads what is new.
func TestLostHead(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the parser", "a.go")
	r.commit("Fix the parser", "a.go")
	cache := t.TempDir()
	ctx := context.Background()
	if n, err := Warm(ctx, r.dir, "", "", cache); err != nil || n != 2 {
		t.Fatalf("Warm: %d, %v", n, err)
	}
	r.git("commit", "-q", "--amend", "-m", "Fix the parser again")
	r.git("reflog", "expire", "--expire=now", "--all")
	r.git("gc", "-q", "--prune=now")
	r.commit("Add the printer", "b.go")
	n, err := Warm(ctx, r.dir, "", "", cache)
	if err != nil || n != 3 {
		t.Fatalf("Warm after the head read before was lost: %d, %v; want 3", n, err)
	}
	l, err := Read(ctx, r.dir, "", "", cache)
	if err != nil || !slices.Equal(subjectsOf(l), []string{"Add the printer", "Fix the parser again", "Add the parser"}) {
		t.Fatalf("Read: %v, %v", subjectsOf(l), err)
	}
}

// A process that reads a head's history again has it from memory, while
// the pack on disk is the one it was read from; a new commit, or a pack
// replaced, is read anew.
func TestKeptLog(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the scheduler", "sched.go")
	cache := t.TempDir()
	ctx := context.Background()
	first, err := Read(ctx, r.dir, "", "", cache)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Read(ctx, r.dir, "", "", cache)
	if err != nil || again != first {
		t.Fatalf("a second read of the same head: %p, %v; want the history kept (%p)", again, err, first)
	}
	r.commit("Tune the scheduler", "sched.go")
	l, err := Read(ctx, r.dir, "", "", cache)
	if err != nil || len(l.Commits) != 2 {
		t.Fatalf("after a new commit: %v, %v; want 2 commits", subjectsOf(l), err)
	}
	packPath := onlyPack(t, cache)
	if err := os.Remove(packPath); err != nil {
		t.Fatal(err)
	}
	l2, err := Read(ctx, r.dir, "", "", cache)
	if err != nil || l2 == l || len(l2.Commits) != 2 {
		t.Fatalf("with the pack gone: %p (kept %p), %v, %v; want it read again", l2, l, subjectsOf(l2), err)
	}
}

// A path past ASCII is its own name in the history, and past commits'
// lines are read from it, whatever the user's core.quotePath.
func TestNonASCIIPaths(t *testing.T) {
	r := newRepo(t)
	r.git("config", "core.quotePath", "true")
	r.commit("初始化文档", "文档/说明.md", "src/main.go")
	c := r.commit("限流器在令牌过期后返回401", "文档/说明.md", "src/main.go")
	l, err := Read(context.Background(), r.dir, "", "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, cm := range l.Commits {
		if cm.Hash == c {
			files = cm.Files
		}
	}
	if !slices.Contains(files, "文档/说明.md") {
		t.Errorf("the commit's files: %q, want 文档/说明.md among them", files)
	}
	added, err := Added(context.Background(), r.dir, "", []hone.PastCommit{{Hash: c, Files: []string{"文档/说明.md"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := added["文档/说明.md"]; !slices.Equal(got, []string{"限流器在令牌过期后返回401"}) {
		t.Errorf("lines added to 文档/说明.md: %q", got)
	}
}

// A revision's window is git's own: its newest ancestors by commit date,
// window at most, in git log's order, whether the cache is cold or holds
// what other revisions' reads brought in, and in whatever order those
// reads came. Two branches of different pace, merged twice, make a
// breadth-first walk and git's date order part.
func TestWindowIsGitsOrder(t *testing.T) {
	defer func(w int) { window = w }(window)
	window = 7
	r := newRepo(t)
	at := 1_700_000_000
	tick := func(step int) {
		at += step
		t.Setenv("GIT_COMMITTER_DATE", fmt.Sprintf("%d +0000", at))
		t.Setenv("GIT_AUTHOR_DATE", fmt.Sprintf("%d +0000", at))
	}
	var heads []string
	// n commits on branch (the one checked out when ""), step seconds
	// apart.
	commits := func(branch, name string, n, step int) {
		if branch != "" {
			r.git("checkout", "-q", branch)
		}
		for i := range n {
			tick(step)
			msg := fmt.Sprintf("%s%d", name, i)
			heads = append(heads, r.commit(msg, msg+".go"))
		}
	}
	// side merged into main.
	merge := func(msg string, step int) {
		r.git("checkout", "-q", "main")
		tick(step)
		r.git("merge", "-q", "--no-ff", "-m", msg, "side")
		heads = append(heads, r.git("rev-parse", "HEAD"))
	}
	commits("", "base", 4, 60)
	r.git("branch", "side")
	commits("side", "side", 9, 10)
	commits("main", "main", 3, 45)
	merge("merge1", 60)
	commits("side", "late", 3, 5)
	commits("main", "after", 5, 30)
	merge("merge2", 30)

	hashes := func(l *Log) []string {
		var out []string
		for _, c := range l.Commits {
			out = append(out, c.Hash)
		}
		return out
	}
	newest := slices.Clone(heads)
	slices.Reverse(newest)
	for name, order := range map[string][]string{"oldest first": heads, "newest first": newest} {
		cache := t.TempDir()
		for _, h := range order {
			want := strings.Fields(r.git("log", "--format=%H", "-n", fmt.Sprint(window), h))
			l, err := Read(context.Background(), r.dir, "", h, cache)
			if err != nil {
				t.Fatal(err)
			}
			if got := hashes(l); !slices.Equal(got, want) {
				t.Errorf("%s, %s: window %q, want git's %q", name, r.git("log", "-1", "--format=%s", h), subjectsOf(l), strings.Fields(r.git("log", "--format=%s", "-n", fmt.Sprint(window), h)))
			}
		}
	}
}

// The pack holds the history of the head it was written for first, in
// its order: a later read of that head, in another process, takes it as
// it is, while a read of another head walks the commits' parents.
func TestPackHoldsItsHeadsHistory(t *testing.T) {
	defer func(w int) { window = w }(window)
	window = 5
	r := newRepo(t)
	for i := range 3 {
		r.commit(fmt.Sprintf("base%d", i), fmt.Sprintf("base%d.go", i))
	}
	r.git("checkout", "-q", "-b", "side")
	r.commit("side0", "side0.go")
	r.git("checkout", "-q", "main")
	r.commit("main0", "main0.go")
	r.git("merge", "-q", "--no-ff", "-m", "merge", "side")
	r.commit("main1", "main1.go")
	head := r.git("rev-parse", "HEAD")
	older := r.git("rev-parse", "HEAD~2")

	cache := t.TempDir()
	ctx := context.Background()
	gitOrder := func(rev string) []string {
		return strings.Fields(r.git("log", "--format=%H", "-n", fmt.Sprint(window), rev))
	}
	hashes := func(cs []*Commit) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Hash)
		}
		return out
	}
	read := func(rev string) []string {
		t.Helper()
		kept = logMemo{} // as a new process finds it
		l, err := Read(ctx, r.dir, "", rev, cache)
		if err != nil {
			t.Fatal(err)
		}
		return hashes(l.Commits)
	}
	if got, want := read(""), gitOrder(head); !slices.Equal(got, want) {
		t.Fatalf("first read: %q, want git's %q", got, want)
	}
	packPath := onlyPack(t, cache)
	pk, err := readPack(packPath)
	if err != nil {
		t.Fatal(err)
	}
	if pk.head != head || pk.n != window || !slices.Equal(hashes(pk.commits[:pk.n]), gitOrder(head)) {
		t.Fatalf("the pack holds %q's %d commits first (%q), want %q's history first", pk.head, pk.n, hashes(pk.commits), head)
	}
	// Read again, the head's history is the pack's first commits: a pack
	// whose commits lost their parents reads the same for its head, and
	// another head is walked through the parents it has.
	for _, c := range pk.commits {
		c.parents = nil
	}
	if err := writePack(packPath, pk); err != nil {
		t.Fatal(err)
	}
	if got, want := read(""), gitOrder(head); !slices.Equal(got, want) {
		t.Errorf("the pack's head again: %q, want %q", got, want)
	}
	if got := read(older); !slices.Equal(got, []string{older}) {
		t.Errorf("another head, in a pack without parents: %q, want it alone", got)
	}
	// A new commit is read from git, and the pack holds its history first.
	pk.commits = nil
	if err := os.Remove(packPath); err != nil {
		t.Fatal(err)
	}
	r.commit("main2", "main2.go")
	head = r.git("rev-parse", "HEAD")
	if got, want := read(""), gitOrder(head); !slices.Equal(got, want) {
		t.Errorf("after a new commit: %q, want %q", got, want)
	}
	if pk, err = readPack(packPath); err != nil || pk.head != head || !slices.Equal(hashes(pk.commits[:pk.n]), gitOrder(head)) {
		t.Errorf("the pack: head %q, %v; want %q's history first", pk.head, err, head)
	}
	if got, want := read(older), gitOrder(older); !slices.Equal(got, want) {
		t.Errorf("an older head after it: %q, want %q", got, want)
	}
	if got, want := read(""), gitOrder(head); !slices.Equal(got, want) {
		t.Errorf("the head again: %q, want %q", got, want)
	}
}

// A pack of version 2, written before packs named their head, reads as a
// pack of no head.
func TestPackVersion2(t *testing.T) {
	cs := synthetic(4)
	v3 := encodePack(pack{commits: cs})
	// Version 3 adds an empty head and its length, two zero bytes.
	if v3[0] != 3 || v3[1] != 0 || v3[2] != 0 {
		t.Fatalf("version 3 starts %v", v3[:3])
	}
	v2 := append([]byte{2}, v3[3:]...)
	pk, err := decodePack(v2)
	if err != nil {
		t.Fatal(err)
	}
	if pk.head != "" || pk.n != 0 || len(pk.commits) != len(cs) || pk.commits[3].Hash != cs[3].Hash || !slices.Equal(termsOf(pk.commits[2]), termsOf(cs[2])) {
		t.Errorf("version 2: head %q of %d, %d commits; want no head and the %d commits", pk.head, pk.n, len(pk.commits), len(cs))
	}
}

// A pack of version 2 is written again once, for the head read, so that
// the next read of that head takes its history as the pack holds it.
func TestPackVersion2Upgraded(t *testing.T) {
	r := newRepo(t)
	r.commit("Add the scheduler", "sched.go")
	r.commit("Tune the scheduler", "sched.go")
	head := r.git("rev-parse", "HEAD")
	cache := t.TempDir()
	ctx := context.Background()
	if _, err := Read(ctx, r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	packPath := onlyPack(t, cache)
	pk, err := readPack(packPath)
	if err != nil {
		t.Fatal(err)
	}
	v3 := encodePack(pack{commits: pk.commits})
	if err := os.WriteFile(packPath, append([]byte{2}, v3[3:]...), 0o600); err != nil {
		t.Fatal(err)
	}
	kept = logMemo{}
	l, err := Read(ctx, r.dir, "", "", cache)
	if err != nil || len(l.Commits) != 2 {
		t.Fatalf("beside a pack of version 2: %v, %v; want 2 commits", l, err)
	}
	if pk, err = readPack(packPath); err != nil || pk.head != head || pk.n != 2 {
		t.Errorf("the pack after: head %q of %d, %v; want %s of 2", pk.head, pk.n, err, head)
	}
}

// onlyPack is the one pack in the cache folder, after a read.
func onlyPack(t *testing.T, cache string) string {
	t.Helper()
	packs, _ := filepath.Glob(filepath.Join(cache, "history-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %v, want one", packs)
	}
	return packs[0]
}

// termsOf is a commit's terms, as eachTerm gives them.
func termsOf(c *Commit) []string {
	var out []string
	c.eachTerm(func(t string) { out = append(out, t) })
	return out
}

// A shallow clone's history ends at commits whose parents it lacks: none
// of them is taken to have changed every file, and a fetch that deepens
// the clone gives the whole history, not the cached shallow one.
func TestShallowClone(t *testing.T) {
	src := newRepo(t)
	for _, f := range []string{"a.go", "b.go", "c.go", "d.go", "e.go"} {
		src.commit("Change "+f, f)
	}
	dst := &repo{t: t, dir: t.TempDir()}
	dst.git("clone", "-q", "--depth", "2", "file://"+src.dir, ".")
	cache := t.TempDir()
	l, err := Read(t.Context(), dst.dir, "", "", cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Commits) != 2 {
		t.Fatalf("shallow: %q, want the two commits it has", subjectsOf(l))
	}
	for _, c := range l.Commits {
		if c.Subject == "Change d.go" && len(c.Files) != 0 {
			t.Errorf("the clone's last commit is given files: %v", c.Files)
		}
		if c.Subject == "Change e.go" && !slices.Equal(c.Files, []string{"e.go"}) {
			t.Errorf("the newest commit's files: %v", c.Files)
		}
	}
	dst.git("fetch", "-q", "--unshallow")
	l, err = Read(t.Context(), dst.dir, "", "", cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Commits) != 5 {
		t.Errorf("deepened: %q, want all five", subjectsOf(l))
	}
	for _, c := range l.Commits {
		if c.Subject == "Change d.go" && !slices.Equal(c.Files, []string{"d.go"}) {
			t.Errorf("deepened, the commit's files: %v", c.Files)
		}
	}
}

// git's variables that name a repository, set in the environment for
// another, do not make hone read that one's history.
func TestGitEnvironmentIgnored(t *testing.T) {
	a, b := newRepo(t), newRepo(t)
	a.commit("Parse the config file", "config.go")
	b.commit("Shard the database pool", "pool.go")
	t.Setenv("GIT_DIR", filepath.Join(b.dir, ".git"))
	t.Setenv("GIT_WORK_TREE", b.dir)
	l, err := Read(t.Context(), a.dir, "", "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got := subjectsOf(l); !slices.Equal(got, []string{"Parse the config file"}) {
		t.Errorf("history %q, want the repository's own", got)
	}
}

// Files whose names git quotes (a quote, a backslash, a line end) or that
// begin or end with a space are read as they are named; a subject past
// maxSubject bytes is cut.
func TestPathsAsNamed(t *testing.T) {
	r := newRepo(t)
	names := []string{`quo"te.go`, `back\slash.go`, "new\nline.go", " lead.go", "trail.go ", "plain.go"}
	r.commit("Add the odd files", names...)
	long := strings.Repeat("word ", 1000)
	r.commit(long, "plain.go")
	cache := t.TempDir()
	if _, err := Read(t.Context(), r.dir, "", "", cache); err != nil {
		t.Fatal(err)
	}
	kept = logMemo{}                                  // as a new process finds it
	l, err := Read(t.Context(), r.dir, "", "", cache) // from the cache's pack
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range l.Commits {
		switch {
		case c.Subject == "Add the odd files":
			got, want := slices.Clone(c.Files), slices.Clone(names)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("files %q, want %q", got, want)
			}
		case len(c.Subject) > maxSubject+len("…"):
			t.Errorf("a subject of %d bytes", len(c.Subject))
		}
	}
}
