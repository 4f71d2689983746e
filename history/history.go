// Package history reads a repository's git history: which files each
// commit changed, and what its message says. Past commits whose messages
// are like a task point to the files such tasks change.
//
// Commits never change, so what git says of each is cached by hash in a
// SQLite database beside the indexes, and only commits not seen before
// are read from git. What a search sees is the history of one revision:
// its ancestors, never a commit made after it or on another branch.
package history

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/hone-tools/hone/index"
	"github.com/hone-tools/hone/internal/atomicfile"
	"github.com/hone-tools/hone/redact"
	"github.com/hone-tools/hone/tokenize"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// MaxCommits is how many of a revision's ancestors, newest first, a
// search reads.
const MaxCommits = 20000

// window is MaxCommits, smaller in tests.
var window = MaxCommits

const schema = `
CREATE TABLE IF NOT EXISTS heads(hash TEXT PRIMARY KEY, commits INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`

// schemaVersion changes when what a row holds is made differently; a cache
// of another version is emptied and read from git again. What each version
// changed, from the git history of this file (the commit in brackets):
//
//	1  a commits table, one row a commit; heads whose history is
//	   complete (297498e).
//	2  every commit in one pack blob (pack.go's packVersion 1), read in
//	   one go; the commits table dropped (b6d46c1).
//	3  subjects redacted, secrets' tokens kept out of the terms (5d757be).
//	4  heads hold how many commits their history has, so that a head
//	   read before is known without reading the pack.
//	5  the pack in a file of its own beside the database (packFile),
//	   read in one go: through SQLite, reading it took four copies of
//	   it, half of what a retrieve on a 5,000-file repository
//	   allocated.
//	6  paths past ASCII as they are, not quoted (core.quotePath=false).
//	7  each commit's committer time (pack version 2), so that a window
//	   is git's own order whatever the cache holds (cache.walk).
//	8  paths git quotes (a quote, a backslash, a control character) read
//	   back, not kept quoted; names that begin or end with a space kept
//	   whole; subjects cut at maxSubject bytes; a shallow clone's last
//	   commits have no files; messages read as UTF-8 whatever
//	   i18n.logOutputEncoding says.
//	9  a message that holds the byte ending messages in fetch's format
//	   names none of the commit's files (parseLog): a cache read before
//	   may hold files such a message made up, and terms it did not mask.
//	10 the tokenizer keeps IPv6 whole (the term ipv6, not pv6), as the
//	   index's format 62 does.
const schemaVersion = "10"

// Commit is one commit of the history, as a search reads it.
type Commit struct {
	Hash    string
	Subject string
	Files   []string // the files it changed, none for a merge
	parents []string
	time    int64 // committer time, in seconds since 1970
	// The stems of its message (eachTerm): as strings, for a commit read
	// from git; for one read from a pack, packed: read as a search asks
	// rather than kept as strings, for a history of 20,000 commits holds
	// some 190,000 of them.
	terms  []string
	packed packedTerms
}

// packedTerms are a commit's stems as a pack writes them: their numbers
// in the pack's table of strings, n of them; a nil table for a commit
// not read from a pack.
type packedTerms struct {
	ids   string
	n     int
	table *[]string
}

// termCount is how many stems its message has.
func (c *Commit) termCount() int {
	if c.packed.table != nil {
		return c.packed.n
	}
	return len(c.terms)
}

// eachTerm calls f with each stem of its message, in order.
func (c *Commit) eachTerm(f func(string)) {
	if c.packed.table == nil {
		for _, t := range c.terms {
			f(t)
		}
		return
	}
	table := *c.packed.table
	b := unsafe.Slice(unsafe.StringData(c.packed.ids), len(c.packed.ids))
	for len(b) > 0 {
		// The pack's decoding checked each number.
		id, n := binary.Uvarint(b)
		b = b[n:]
		f(table[id])
	}
}

// Log is the history of one revision: its commits, newest first.
type Log struct {
	Commits []*Commit

	// similar counts the calls of Similar; from the second, they search
	// the terms index made once (see terms).
	similar atomic.Int32
	terms   sync.Once
	ti      *termIndex
}

// ErrNoGit is returned when there is no git history to read: no git
// binary, or a directory outside any git repository.
var ErrNoGit = errors.New("no git history")

// ErrGitMissing is returned for a git repository when no git binary is
// on the PATH to read its history with.
var ErrGitMissing = errors.New("git is not on the PATH: install git, or put it on the PATH, for the history's evidence")

// ErrBusy is returned when another process is reading from git the
// history asked for: the cache has it once that read ends.
var ErrBusy = errors.New("another hone process is reading the git history; it is used once read")

// Read returns the history of rev (HEAD when empty) in the git directory
// gitDir, or, when gitDir is empty, of the repository enclosing root. The
// cache lives in the folder cacheDir, beside the indexes when empty. A
// history that another process is reading from git meanwhile is not
// waited for: Read returns ErrBusy.
func Read(ctx context.Context, root, gitDir, rev, cacheDir string) (*Log, error) {
	l, _, err := read(ctx, root, gitDir, rev, cacheDir, readLog)
	return l, err
}

// Warm makes sure the cache holds the history of rev, as Read does, and
// says how many commits it has. A head read before costs one lookup: the
// cache's commits are not loaded. A read under way in another process is
// waited for.
func Warm(ctx context.Context, root, gitDir, rev, cacheDir string) (int, error) {
	return WarmUpTo(ctx, root, gitDir, rev, cacheDir, -1)
}

// ErrLong is returned by WarmUpTo for a history with more commits to
// read from git than it may read.
var ErrLong = errors.New("more of the git history to read than asked for")

// WarmUpTo is Warm, for a history of which the cache lacks at most most
// commits (counted past the heads read before); for a longer one it
// reads nothing and returns ErrLong. A negative most is no limit.
func WarmUpTo(ctx context.Context, root, gitDir, rev, cacheDir string, most int) (int, error) {
	_, n, err := readLocking(ctx, root, gitDir, rev, cacheDir, warm, most, lockFile)
	return n, err
}

// mode is what a read wants.
type mode int

const (
	readLog mode = iota // the history
	warm                // the history cached, and its count
)

// read is Read, or Warm, as m says.
func read(ctx context.Context, root, gitDir, rev, cacheDir string, m mode) (*Log, int, error) {
	return readLocking(ctx, root, gitDir, rev, cacheDir, m, -1, lockFile)
}

// readLocking is read, reading at most most commits from git unless most
// is negative, with lock taking the lock of a read from git.
func readLocking(ctx context.Context, root, gitDir, rev, cacheDir string, m mode, most int,
	lock func(ctx context.Context, p string, wait bool) (unlock func(), waited bool, err error)) (*Log, int, error) {
	// A relative root is the caller's working directory's: git runs in
	// it, and the paths its answers hold are joined to it, so it is made
	// absolute once, here.
	if root != "" {
		abs, err := filepath.Abs(root)
		if err != nil {
			return nil, 0, fmt.Errorf("read history of %s: %w", root, err)
		}
		root = abs
	}
	if _, err := exec.LookPath("git"); err != nil {
		if _, serr := os.Stat(filepath.Join(root, ".git")); serr == nil {
			// A repository, and no git to read its history with.
			return nil, 0, ErrGitMissing
		}
		return nil, 0, ErrNoGit
	}
	if cacheDir == "" {
		d, err := index.DefaultDir()
		if err != nil {
			return nil, 0, err
		}
		cacheDir = d
	}
	if rev == "" {
		rev = "HEAD"
	}
	q, ok := headQuery{}, false
	if gitDir == "" && rev == "HEAD" {
		q, ok = fastHead(root)
	}
	if !ok {
		args := []string{"rev-parse", "--absolute-git-dir", "--show-prefix", "--git-path", "shallow", rev + "^{commit}"}
		out, err := git(ctx, root, gitDir, nil, args...)
		if err != nil {
			if gitDir != "" || rev != "HEAD" {
				// Asked for: what git said of it (an unknown revision,
				// a folder that is no git directory) is the caller's to
				// act on.
				return nil, 0, fmt.Errorf("%w: %v", ErrNoGit, err)
			}
			return nil, 0, ErrNoGit
		}
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(lines) != 4 {
			return nil, 0, ErrNoGit
		}
		q = headQuery{gitDir: lines[0], prefix: lines[1], shallow: lines[2], head: lines[3]}
	}
	// In a folder of a larger repository, files are named from the
	// folder, as the index names them.
	absGitDir, prefix, shallowPath, head := q.gitDir, q.prefix, q.shallow, q.head
	key := absGitDir + "\x00" + prefix
	// A shallow clone's history ends at commits whose parents it lacks:
	// its cache is its own, for a fetch that deepens it makes another
	// history of the same head.
	if !filepath.IsAbs(shallowPath) {
		shallowPath = filepath.Join(root, shallowPath)
	}
	bounds, boundsID := shallowBounds(shallowPath)
	if boundsID != "" {
		key += "\x00shallow " + boundsID
	}
	dbPath := cacheFile(cacheDir, key)
	// A process that read this head's history before, from the pack as
	// it is now, has it still (a long-running one: hone serve, hone mcp).
	packID := statPack(dbPath)
	if m == readLog && packID != nil {
		if l := kept.get(dbPath, head, packID); l != nil {
			return l, len(l.Commits), nil
		}
	}
	db, err := openCache(dbPath)
	if err != nil {
		return nil, 0, err
	}
	defer db.Close()
	if m != readLog {
		// A head read before, whose pack is there: a pack lost or cut
		// since is found by the read below.
		var n int
		err := db.QueryRowContext(ctx, `SELECT commits FROM heads WHERE hash = ?`, head).Scan(&n)
		if fi, serr := os.Stat(packFile(dbPath)); err == nil && serr == nil && fi.Size() > 0 {
			return nil, n, nil
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, 0, fmt.Errorf("read history: %w", err)
		}
	}
	c := &cache{db: db, pack: packFile(dbPath), commits: map[string]*Commit{}, heads: map[string]int{}, bounds: bounds}
	if most >= 0 {
		if err := c.loadHeads(ctx); err != nil {
			return nil, 0, err
		}
		if n, err := c.lacks(ctx, root, gitDir, head, most+1); err != nil || n > most {
			return nil, 0, cmp.Or(err, ErrLong)
		}
	}
	// A head read before has all git gave of its history; another is read
	// from git unless the cache knows all of its history already: first
	// what is new since the heads read before, then, for a head older than
	// they are, the history past where their windows ended.
	cached := func() (*Log, []string, bool, error) {
		if err := c.load(ctx); err != nil {
			return nil, nil, false, err
		}
		if l := c.logged(head); l != nil {
			return l, nil, true, nil
		}
		l, missing := c.log(head)
		if n, ok := c.heads[head]; ok {
			if len(l.Commits) >= n {
				return l, nil, true, nil
			}
			// The pack lacks commits the head had when it was read (a
			// pack replaced by an older one, as a lost rename leaves
			// it): read them again.
			delete(c.heads, head)
		}
		return l, missing, false, nil
	}
	l, missing, ok, err := cached()
	if err != nil {
		return nil, 0, err
	}
	if ok && c.loaded.head == "" && len(c.loaded.commits) > 0 {
		// A pack of version 2 names no head: written again once, for
		// this one, the next read of it takes its history as it is. The
		// history is read all the same should the write fail.
		if c.save(ctx, head, nil) == nil {
			packID = statPack(dbPath)
		}
	}
	if ok {
		if packID != nil {
			kept.put(dbPath, head, packID, l)
		}
		return l, len(l.Commits), nil
	}
	if len(missing) > 0 {
		// One process reads from git at a time; a Warm waits for it, and
		// then finds what it read.
		unlock, waited, err := lock(ctx, dbPath+".lock", m == warm)
		if err != nil {
			return nil, 0, err
		}
		defer unlock()
		if waited {
			if l, missing, ok, err = cached(); err != nil {
				return nil, 0, err
			}
			if ok {
				return l, len(l.Commits), nil
			}
		}
	}
	if len(missing) > 0 {
		if err := c.fetch(ctx, root, gitDir, prefix, head, []string{head}, true, window); err != nil {
			return nil, 0, err
		}
		for round := 0; ; round++ {
			l, missing = c.log(head)
			if len(missing) == 0 || len(l.Commits) >= window || round == 3 {
				break
			}
			if err := c.fetch(ctx, root, gitDir, prefix, head, missing, false, window-len(l.Commits)); err != nil {
				return nil, 0, err
			}
		}
	}
	if _, err := db.ExecContext(ctx, `INSERT OR REPLACE INTO heads(hash, commits) VALUES(?, ?)`, head, len(l.Commits)); err != nil {
		return nil, 0, fmt.Errorf("write history: %w", err)
	}
	if id := statPack(dbPath); id != nil && m == readLog {
		// The pack as written, or a later one, which holds it.
		kept.put(dbPath, head, id, l)
	}
	return l, len(l.Commits), nil
}

// Reading is a read of the history under way, beside other work (the
// index's update): git and the databases work at the same time.
type Reading struct {
	cancel context.CancelFunc
	done   chan struct{}
	log    *Log
	took   time.Duration
	err    error
}

// Start starts Read in the background. A nil Reading reads nothing: its
// Wait returns no history, and its Stop does nothing.
func Start(ctx context.Context, root, gitDir, rev, cacheDir string) *Reading {
	ctx, cancel := context.WithCancel(ctx)
	r := &Reading{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		begin := time.Now()
		r.log, r.err = Read(ctx, root, gitDir, rev, cacheDir)
		r.took = time.Since(begin)
	}()
	return r
}

// Wait waits for the read to end, and returns Read's history and error,
// and how long it took.
func (r *Reading) Wait() (*Log, time.Duration, error) {
	if r == nil {
		return nil, 0, nil
	}
	<-r.done
	r.cancel()
	return r.log, r.took, r.err
}

// Stop stops the read and waits for it to end: whoever gives up before
// asking for the history leaves nothing running.
func (r *Reading) Stop() {
	if r == nil {
		return
	}
	r.cancel()
	<-r.done
}

// repoVars are git's environment variables that say which repository,
// work tree or objects git works on (git rev-parse --local-env-vars).
var repoVars = map[string]bool{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_CONFIG": true, "GIT_CONFIG_PARAMETERS": true,
	"GIT_CONFIG_COUNT": true, "GIT_OBJECT_DIRECTORY": true, "GIT_DIR": true, "GIT_WORK_TREE": true,
	"GIT_IMPLICIT_WORK_TREE": true, "GIT_GRAFT_FILE": true, "GIT_INDEX_FILE": true,
	"GIT_NO_REPLACE_OBJECTS": true, "GIT_REPLACE_REF_BASE": true, "GIT_PREFIX": true,
	"GIT_SHALLOW_FILE": true, "GIT_COMMON_DIR": true, "GIT_INTERNAL_SUPER_PREFIX": true,
}

// gitFreeEnv is the environment without repoVars.
func gitFreeEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !repoVars[k] && !strings.HasPrefix(k, "GIT_CONFIG_KEY_") && !strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			out = append(out, kv)
		}
	}
	return out
}

func git(ctx context.Context, root, gitDir string, stdin []byte, args ...string) ([]byte, error) {
	return gitEnv(ctx, root, gitDir, nil, stdin, args...)
}

// gitEnv runs git as git does, with env added to the environment. Paths
// come as they are, not quoted for their bytes past ASCII: a file named
// in Chinese is its own name in the history (core.quotePath). A path with
// a control character, a quote or a backslash is still quoted, and read
// back where paths are read (gitPath).
func gitEnv(ctx context.Context, root, gitDir string, env []string, stdin []byte, args ...string) ([]byte, error) {
	if gitDir != "" {
		args = append([]string{"--git-dir", gitDir}, args...)
	}
	args = append([]string{"-c", "core.quotePath=false"}, args...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = root
	// git's variables that name a repository (GIT_DIR, GIT_WORK_TREE,
	// ...) are the caller's shell's, not the repository's hone reads: a
	// GIT_DIR set for another would read that one's history.
	cmd.Env = append(gitFreeEnv(), env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", subcommand(args), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// subcommand is the git command that args run: the first that is not an
// option, nor an option's value.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--git-dir" || a == "-C" || a == "-c" || a == "--work-tree":
			i++
		case !strings.HasPrefix(a, "-"):
			return a
		}
	}
	return "(no command)"
}

// openMu makes a process's opens of the history's caches one at a time.
// A new cache is made by its first open (its journal set to WAL, its
// tables created), and SQLite answers a second connection that makes it
// at the same time SQLITE_BUSY at once, not after its busy timeout: six
// goroutines of one process reading one new history lost one read in
// about twenty runs (TestReadsInOneProcess). An open of a cache that is
// made takes well under a millisecond.
var openMu sync.Mutex

// openCache opens the cache whose database is the file p (cacheFile).
func openCache(p string) (*sql.DB, error) {
	openMu.Lock()
	defer openMu.Unlock()
	// Commit subjects may hold what no one else should read.
	if err := index.PrivateDB(p); err != nil {
		return nil, fmt.Errorf("make the history's cache: %w", err)
	}
	db, err := openCacheWaiting(p)
	if err != nil && damagedDB(err) {
		// It is a cache: one that is no database, or a damaged one, is
		// made anew, its history read from git again.
		for _, f := range []string{p, p + "-wal", p + "-shm", packFile(p)} {
			if rerr := os.Remove(f); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				return nil, err
			}
		}
		if err := index.PrivateDB(p); err != nil {
			return nil, fmt.Errorf("make the history's cache: %w", err)
		}
		return openCacheWaiting(p)
	}
	return db, err
}

// openCacheWaiting opens the cache p, and opens it again while SQLite
// answers SQLITE_BUSY at once: two processes (openMu keeps a process's
// own opens apart) that make one new cache at the same time, as hone
// index's background read of the history and a first retrieve can, meet
// it without the busy timeout's wait. It tries for about a second.
func openCacheWaiting(p string) (*sql.DB, error) {
	for wait := 5 * time.Millisecond; ; wait *= 2 {
		db, err := openCacheFile(p)
		if err == nil || !isBusy(err) || wait > 640*time.Millisecond {
			return db, err
		}
		time.Sleep(wait)
	}
}

// isBusy reports SQLite's SQLITE_BUSY, of any extended kind.
func isBusy(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == 5
}

// damagedDB reports SQLite's errors for a file that is no database, or a
// damaged one.
func damagedDB(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "file is not a database") || strings.Contains(msg, "database disk image is malformed")
}

// cacheFile is the database of the cache of a git directory, seen from a
// folder of its work tree (key holds both), in the folder dir.
func cacheFile(dir, key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(dir, "history-"+hex.EncodeToString(sum[:8])+".db")
}

// packFile is the file of the pack of the cache whose database is db.
func packFile(db string) string {
	return strings.TrimSuffix(db, ".db") + ".pack"
}

func openCacheFile(p string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", "file:"+p+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", p, err)
	}
	// A new cache has no meta table, or no version in it yet; one of
	// another version is emptied.
	var v string
	var heads int
	err = db.QueryRow(`SELECT value, (SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'heads') FROM meta WHERE key = 'schema'`).Scan(&v, &heads)
	switch {
	case err == nil && v != schemaVersion:
		if _, err := db.Exec(`DROP TABLE IF EXISTS commits; DROP TABLE IF EXISTS pack; DROP TABLE IF EXISTS heads; DROP TABLE IF EXISTS meta`); err != nil {
			db.Close()
			return nil, fmt.Errorf("reset history %s: %w", p, err)
		}
		if err := os.Remove(packFile(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			db.Close()
			return nil, fmt.Errorf("reset history %s: %w", p, err)
		}
		// The pages of what was dropped go back to the disk, when they
		// can: a cache that keeps them works as well.
		_, _ = db.Exec(`VACUUM`)
	case err == nil && heads == 1:
		// A cache of this version is read, not written: a retrieve
		// that finds its history cached writes nothing (an INSERT here
		// had cost every retrieve a write transaction and its fsyncs).
		return db, nil
	case err == nil, errors.Is(err, sql.ErrNoRows), isMissingTable(err):
	default:
		db.Close()
		return nil, fmt.Errorf("open history %s: %w; delete the file to start it anew", p, err)
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open history %s: %w; delete the file to start it anew", p, err)
	}
	if _, err := db.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES('schema', ?)`, schemaVersion); err != nil {
		db.Close()
		return nil, fmt.Errorf("open history %s: %w", p, err)
	}
	return db, nil
}

// isMissingTable reports SQLite's error for a table that does not exist.
func isMissingTable(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no such table")
}

// cache is the commits known, and the heads whose history is complete:
// every ancestor git gave, MaxCommits at most, is known.
type cache struct {
	db      *sql.DB
	pack    string // the pack's file
	commits map[string]*Commit
	order   []*Commit      // as they were read
	heads   map[string]int // their commit counts
	// loaded is the pack as load read it; its commits join commits and
	// order when a walk or a fetch first needs them (known).
	loaded pack
	known  bool
	// bounds are a shallow clone's last commits, whose parents it lacks:
	// git lists every file of theirs as changed, so none is taken.
	bounds map[string]bool
}

// shallowBounds reads a shallow clone's file of its last commits: the
// commits, and an id of the file's content; none where it is no shallow
// clone.
func shallowBounds(p string) (map[string]bool, string) {
	data, err := os.ReadFile(p)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return nil, ""
	}
	out := map[string]bool{}
	for _, h := range strings.Fields(string(data)) {
		out[h] = true
	}
	sum := sha256.Sum256(data)
	return out, hex.EncodeToString(sum[:8])
}

// readPack reads the pack in the file p; no file is no commits.
func readPack(p string) (pack, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return pack{}, nil
	}
	if err != nil {
		return pack{}, fmt.Errorf("read history: %w", err)
	}
	// The commits' strings are cut from the file's bytes, which nothing
	// writes to again: no copy of them is made.
	pk, err := decodeString(unsafe.String(unsafe.SliceData(data), len(data)))
	if err != nil {
		return pack{}, errDamaged
	}
	return pk, nil
}

// writePack replaces the pack in the file p by pk, whole (atomicfile), on
// disk before it is renamed: after a crash, the heads the database then
// records have their commits in the pack.
func writePack(p string, pk pack) error {
	if err := atomicfile.Write(p, encodePack(pk), true); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// errDamaged: the pack cannot be read, and the history is read from git
// again.
var errDamaged = errors.New("damaged history cache")

func (c *cache) add(cs []*Commit) {
	if len(c.commits) == 0 && len(cs) > 0 {
		// Made to size at once: grown by doubling, the map of a
		// history's 20,000 commits cost a fifth of reading it.
		c.commits = make(map[string]*Commit, len(cs))
		c.order = make([]*Commit, 0, len(cs))
	}
	for _, cm := range cs {
		if c.commits[cm.Hash] == nil {
			c.commits[cm.Hash] = cm
			c.order = append(c.order, cm)
		}
	}
}

// load reads the heads, then the pack: a writer replaces the pack before
// it adds a head, and a pack only grows, so every head read has its
// commits in the pack read after it.
func (c *cache) load(ctx context.Context) error {
	if err := c.loadHeads(ctx); err != nil {
		return err
	}
	pk, err := readPack(c.pack)
	if err == nil && len(pk.commits) == 0 && len(c.heads) > 0 {
		err = errDamaged // heads whose commits are lost
	}
	if errors.Is(err, errDamaged) {
		// No head is complete any more: the next read starts afresh.
		if _, err := c.db.ExecContext(ctx, `DELETE FROM heads`); err != nil {
			return fmt.Errorf("reset history: %w", err)
		}
		if err := os.Remove(c.pack); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reset history: %w", err)
		}
		clear(c.heads)
		return nil
	}
	if err != nil {
		return err
	}
	c.loaded, c.known = pk, false
	return nil
}

// know makes the commits of the pack load read known by hash, for a walk
// of their parents or a fetch.
func (c *cache) know() {
	if !c.known {
		c.add(c.loaded.commits)
		c.known = true
	}
}

// logged is head's history as the pack holds it, written for that head
// (see pack), if the database records it so: nil otherwise.
func (c *cache) logged(head string) *Log {
	n, ok := c.heads[head]
	if !ok || c.loaded.head != head || c.loaded.n != n {
		return nil
	}
	return &Log{Commits: c.loaded.commits[:n:n]}
}

// lacks counts the commits of head's history, up to most, that no head
// read before has in its own.
func (c *cache) lacks(ctx context.Context, root, gitDir, head string, most int) (int, error) {
	heads, err := c.liveHeads(ctx, root, gitDir)
	if err != nil {
		return 0, err
	}
	var revs strings.Builder
	revs.WriteString(head + "\n")
	for _, h := range heads {
		revs.WriteString("^" + h + "\n")
	}
	out, err := git(ctx, root, gitDir, []byte(revs.String()), "rev-list", "--count", fmt.Sprintf("--max-count=%d", most), "--stdin")
	if err != nil {
		return 0, fmt.Errorf("count the commits to read: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("count the commits to read: %w", err)
	}
	return n, nil
}

func (c *cache) loadHeads(ctx context.Context) error {
	hr, err := c.db.QueryContext(ctx, `SELECT hash, commits FROM heads`)
	if err != nil {
		return fmt.Errorf("read history: %w", err)
	}
	defer hr.Close()
	for hr.Next() {
		var h string
		var n int
		if err := hr.Scan(&h, &n); err != nil {
			return fmt.Errorf("read history: %w", err)
		}
		c.heads[h] = n
	}
	return hr.Err()
}

// walk visits head and its ancestors the cache knows, window at most, in
// git log's own order: newest first by committer time, a commit met first
// before one of the same time met later (git's revision walk). A cold
// read takes git's first commits in that order, so the window is the same
// whether the cache is cold or holds what other heads' reads brought in.
// It returns the ancestors it met and did not know: their time is not
// known, and a read from git fetches them (see readLocking).
func (c *cache) walk(head string, visit func(*Commit)) (missing []string) {
	seen := make(map[string]bool, min(len(c.commits), window)+1)
	seen[head] = true
	var q queue
	push := func(h string) {
		if cm := c.commits[h]; cm != nil {
			q.push(cm)
		} else {
			// Past the commits git gave (a long history's oldest), or
			// not read yet.
			missing = append(missing, h)
		}
	}
	push(head)
	for n := 0; len(q.items) > 0 && n < window; n++ {
		cm := q.pop()
		if visit != nil {
			visit(cm)
		}
		for _, p := range cm.parents {
			if !seen[p] {
				seen[p] = true
				push(p)
			}
		}
	}
	return missing
}

// queue is walk's queue, a binary heap: the newest commit first, and of
// those of one time, the one met first. It is written out, not
// container/heap's: with each commit boxed in an interface, the walk
// took 6.4 ms against 3.4 ms (BenchmarkWalk).
type queue struct {
	items []queued
	met   int
}

type queued struct {
	c   *Commit
	met int // when the walk met it
}

func (q *queue) before(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if a.c.time != b.c.time {
		return a.c.time > b.c.time
	}
	return a.met < b.met
}

func (q *queue) push(c *Commit) {
	q.items = append(q.items, queued{c, q.met})
	q.met++
	for i := len(q.items) - 1; i > 0; {
		up := (i - 1) / 2
		if !q.before(i, up) {
			break
		}
		q.items[i], q.items[up] = q.items[up], q.items[i]
		i = up
	}
}

func (q *queue) pop() *Commit {
	top := q.items[0].c
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	for i := 0; ; {
		m, l, r := i, 2*i+1, 2*i+2
		if l < last && q.before(l, m) {
			m = l
		}
		if r < last && q.before(r, m) {
			m = r
		}
		if m == i {
			break
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
	return top
}

// log is head's history, and the ancestors it met and did not know.
func (c *cache) log(head string) (*Log, []string) {
	c.know()
	l := &Log{}
	missing := c.walk(head, func(cm *Commit) { l.Commits = append(l.Commits, cm) })
	return l, missing
}

// fetch reads from git the history of tips, limit commits at most; with
// exclude, only the commits not reachable from a head already read. The
// pack it writes holds the history of head, as it is known then, first.
func (c *cache) fetch(ctx context.Context, root, gitDir, prefix, head string, tips []string, exclude bool, limit int) error {
	var stdin bytes.Buffer
	for _, t := range tips {
		stdin.WriteString(t + "\n")
	}
	if exclude {
		heads, err := c.liveHeads(ctx, root, gitDir)
		if err != nil {
			return err
		}
		for _, h := range heads {
			stdin.WriteString("^" + h + "\n")
		}
	}
	args := []string{"log", "--stdin", "--encoding=UTF-8", "--format=%x00%H %ct %P%x01%s%n%n%b%x02", "--name-only", "--no-renames", "-n", fmt.Sprint(limit)}
	if prefix != "" {
		args = append(args, "--relative")
	}
	out, err := git(ctx, root, gitDir, stdin.Bytes(), args...)
	if err != nil {
		return fmt.Errorf("read the git history: %w", err)
	}
	fresh := parseLog(out)
	for _, cm := range fresh {
		if c.bounds[cm.Hash] {
			cm.Files = nil
		}
	}
	return c.save(ctx, head, fresh)
}

// save adds the commits fresh to the cache, and writes its pack, head's
// history first.
func (c *cache) save(ctx context.Context, head string, fresh []*Commit) error {
	// Writers take the database's write lock first, and hold it while
	// they replace the pack: another process may have added commits
	// since the cache was loaded, and they are kept.
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('schema', ?)`, schemaVersion); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	pk, err := readPack(c.pack)
	if err != nil && !errors.Is(err, errDamaged) {
		return err
	}
	c.know()
	c.add(pk.commits)
	c.add(fresh)
	if err := writePack(c.pack, c.packFor(head)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

// packFor is the pack of the commits known, head's history first.
func (c *cache) packFor(head string) pack {
	l, _ := c.log(head)
	in := make(map[*Commit]bool, len(l.Commits))
	order := make([]*Commit, 0, len(c.order))
	for _, cm := range l.Commits {
		in[cm] = true
		order = append(order, cm)
	}
	for _, cm := range c.order {
		if !in[cm] {
			order = append(order, cm)
		}
	}
	return pack{commits: order, head: head, n: len(l.Commits)}
}

// liveHeads returns the heads read before that git still has. A head
// it lost (a commit amended or rebased, then pruned) cannot be named to
// git: it fails on it, even with --ignore-missing.
func (c *cache) liveHeads(ctx context.Context, root, gitDir string) ([]string, error) {
	if len(c.heads) == 0 {
		return nil, nil
	}
	var in strings.Builder
	for h := range c.heads {
		in.WriteString(h + "\n")
	}
	out, err := git(ctx, root, gitDir, []byte(in.String()), "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return nil, fmt.Errorf("read the git history: %w", err)
	}
	var live []string
	for _, line := range strings.Split(string(out), "\n") {
		if h, typ, ok := strings.Cut(line, " "); ok && typ == "commit" {
			live = append(live, h)
		}
	}
	return live, nil
}

// parseLog reads git log's output in fetch's format.
func parseLog(out []byte) []*Commit {
	var cs []*Commit
	for _, rec := range bytes.Split(out, []byte{0})[1:] {
		head, rest, ok := bytes.Cut(rec, []byte{1})
		if !ok {
			continue
		}
		// The message may hold the byte that ends it (git allows any but
		// NUL); the file list after it never does (git quotes a name's
		// control characters): the last one ends the message.
		end := bytes.LastIndexByte(rest, 2)
		if end < 0 {
			continue
		}
		msg, files := rest[:end], rest[end+1:]
		// The hash, the committer time, the parents.
		ids := strings.Fields(string(head))
		if len(ids) < 2 {
			continue
		}
		at, err := strconv.ParseInt(ids[1], 10, 64)
		if err != nil {
			continue
		}
		// A message may hold a secret: the subject keeps a placeholder
		// for it, and its tokens never reach the cache's terms.
		subject, _, _ := strings.Cut(string(msg), "\n")
		subject, _ = redact.String(subject)
		subject = redact.Cut(strings.TrimSpace(subject), maxSubject)
		masked, _ := redact.Mask("", msg)
		cm := &Commit{Hash: ids[0], time: at, parents: ids[2:], Subject: strings.TrimSpace(subject), terms: messageTerms(string(masked))}
		sc := bufio.NewScanner(bytes.NewReader(files))
		for sc.Scan() {
			if f := gitPath(sc.Text()); f != "" {
				cm.Files = append(cm.Files, f)
			}
		}
		cs = append(cs, cm)
	}
	return cs
}

// gitPath is a path as git log writes it on a line of its own: as it is,
// or, where it holds a quote, a backslash or a control character, in
// git's quoted form, which is Go's but for its octal escapes of bytes
// past ASCII (core.quotePath is off, so there are none); "" for a blank
// line or a quoted form that does not read.
func gitPath(line string) string {
	if strings.TrimSpace(line) == "" {
		return ""
	}
	if len(line) >= 2 && line[0] == '"' && line[len(line)-1] == '"' {
		p, err := strconv.Unquote(line)
		if err != nil {
			return ""
		}
		return p
	}
	return line
}

// maxSubject bounds a commit's subject as it is kept and shown, in bytes.
const maxSubject = 300

// messageTerms are the stems of a message's words and identifiers' parts,
// each once, as a task's are read: no stop words.
func messageTerms(msg string) []string {
	seen := map[string]bool{}
	var out []string
	tokenize.Each(msg, func(t tokenize.Token) {
		if t.Whole || tokenize.IsStopWord(t.Text) || seen[t.Stem] {
			return
		}
		seen[t.Stem] = true
		out = append(out, t.Stem)
	})
	return out
}
