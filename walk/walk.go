package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultMaxFileSize is the size limit used when Options.MaxFileSize is 0.
const DefaultMaxFileSize = 1 << 20

// ErrNotDir is wrapped by the error Walk returns when root is not a directory.
var ErrNotDir = errors.New("not a directory")

// Options controls a walk. The zero value is usable.
//
// Walk calls the hooks OnError, Seen, Binary and Dir, like its fn, only from the
// goroutine that called it, one call at a time, in the order of the paths
// they are about, so they need no locking.
type Options struct {
	// MaxFileSize is the size in bytes above which files are skipped.
	// 0 means DefaultMaxFileSize; a negative value means no limit.
	MaxFileSize int64

	// OnError, if not nil, is called with the slash path (relative to the
	// root) and the error for each directory, file or ignore file below the
	// root that cannot be read, for example for lack of permission. If it
	// returns nil, the entry is skipped and the walk goes on, which is also
	// what happens when OnError is nil. If it returns filepath.SkipAll, the
	// walk stops and Walk returns nil; filepath.SkipDir skips the rest of the
	// directory concerned (the entry's own directory for a file); any other
	// error stops the walk and is returned by Walk.
	OnError func(path string, err error) error

	// Seen, if not nil, is asked about each regular file before its head is
	// read, with what its status says (f.Kind is not set). When it answers
	// ok, the file is known unchanged since it was last classified (the
	// caller compares its status, as git does: size, times, inode): its
	// kind is taken from kind, or it is skipped as binary when skip is
	// true, and its head is not read. This keeps a walk over an indexed
	// repository to stat calls.
	Seen func(f File) (kind Kind, skip, ok bool)

	// Binary, if not nil, is called for each file skipped as binary after
	// its head was read, so that a caller can answer Seen for it next time.
	Binary func(f File)

	// Dir, if not nil, is called with the slash path of each directory the
	// walk reads ("." for the root), before its entries: the directories a
	// change to the walk's files would show in, for a caller that watches
	// them.
	Dir func(path string)

	// WorkTree, if not nil, is called with the slash path of each folder
	// below the root that is the top of a git work tree of its own (a
	// submodule, or any nested repository), after Dir: git's files there
	// (its info/exclude, its index) decide what the walk takes in it, and
	// a caller that watches the repository watches them (WorkTreeRuleFiles).
	WorkTree func(path string)

	// Listings, if not nil, holds the entries of the directories earlier
	// walks read: a directory whose status is unchanged is not read
	// again (see Listings). The walk updates it.
	Listings *Listings
}

// maxFileSize returns the effective size limit, negative for none.
func (o Options) maxFileSize() int64 {
	if o.MaxFileSize == 0 {
		return DefaultMaxFileSize
	}
	return o.MaxFileSize
}

// File describes a file found by Walk.
type File struct {
	Path    string    // slash-separated, relative to the root
	Size    int64     // in bytes
	ModTime time.Time // modification time
	Kind    Kind      // as determined by Classify
	// Inode and ChangeTime are the file's inode number and status change
	// time (ctime), where the system has them (0 and the zero time where
	// not): a file replaced by another of the same size and modification
	// time (cp -p, rsync -a, tar x) has another of either.
	Inode      uint64
	ChangeTime time.Time
}

// Walk calls fn for every file of the repository rooted at root that is not
// ignored, in lexical order of File.Path (byte-wise, so "a.go" comes before
// "a/b.go"). See the package documentation for what is skipped.
//
// It reads only as much content as classification needs: at most the first
// HeadSize bytes of each file.
//
// If fn returns filepath.SkipAll, Walk stops and returns nil. If it returns
// filepath.SkipDir, the remaining files of the directory containing the file
// (and its remaining subdirectories) are skipped. Any other error stops the
// walk and is returned as is.
//
// A missing or unreadable root, or one that is not a directory, is an error
// of the form "walk ROOT: cause" that wraps the cause. Errors reading entries
// below the root go to Options.OnError and are skipped by default. Walk checks
// ctx before entering each directory and returns ctx.Err() once it is done.
//
// Walk reads directories (their entries, their ignore files and the status
// of their files) ahead of fn on up to GOMAXPROCS goroutines, and without a
// Seen hook it reads the heads of files there too. It calls fn and the hooks
// of Options only from the goroutine that called it, one call at a time and
// in the order of the paths they are about, as a sequential walk would. The
// goroutines it starts have ended when it returns.
func Walk(ctx context.Context, root string, opts Options, fn func(File) error) error {
	fi, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("walk %s: %w", root, ErrNotDir)
	}
	return newWalker(ctx, root, opts, fn).walk()
}

// Files returns the files Walk would visit, in the same order.
func Files(ctx context.Context, root string, opts Options) ([]File, error) {
	var files []File
	err := Walk(ctx, root, opts, func(f File) error {
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// skipToNil maps the sentinel errors that end a walk early to nil.
func skipToNil(err error) error {
	if err == filepath.SkipAll || err == filepath.SkipDir {
		return nil
	}
	return err
}

// maxBuffered bounds how many directory entries the workers read ahead of
// the walk. It is a variable for tests.
var maxBuffered = 1 << 16

// A walker walks one tree. The goroutine that called Walk, the walking
// goroutine, visits the directories depth-first in lexical order, calling
// fn and the hooks. The workers read directories ahead of it: a read
// directory's subdirectories are pushed on a stack, whose top is the next
// directory the walk will need, and a worker pops them from there. The
// walking goroutine reads a directory itself when it needs one no worker
// has taken yet.
type walker struct {
	ctx     context.Context
	root    string
	opts    Options
	maxSize int64
	fn      func(File) error
	scratch scratch // the walking goroutine's

	workers int // how many worker goroutines to start, 0 for none

	// listings are Options.Listings where the root's file system keeps
	// folders' times as listings need (KeepsListings); nil elsewhere.
	listings *Listings

	// tree is the git work tree the root is in, nil where none is: its
	// index's tracked paths are read once, when an ignored entry asks.
	tree *workIndex

	mu       sync.Mutex
	cond     sync.Cond // signals a push, a release or a stop, with mu
	stack    []*dirJob // directories to read, the most urgent last
	buffered int       // entries read and not yet walked
	started  bool      // whether the workers have been started
	stopped  bool      // whether the walk is over
	idle     int       // workers waiting on cond
	wg       sync.WaitGroup
}

// scratch is one goroutine's scratch space.
type scratch struct {
	head []byte   // for file heads, HeadSize bytes
	dir  []byte   // for directory entries
	path []string // for the path of a directory entry
}

// A dirJob is a directory to read and walk. The fields up to rules are set
// when it is made; the results are written by the goroutine that reads it
// before it marks it done, and are not changed after.
type dirJob struct {
	abs   string   // the OS path
	rel   string   // the slash path relative to the root, "" for the root
	elems []string // the path elements of rel, made on demand by pathElems
	rules *ruleSet // the rule set of the parent directory
	// ignored: git's rules ignore the directory, which is walked for the
	// files in it that git tracks, and only for them.
	ignored bool
	// tree is the work tree whose index says what is tracked in the
	// directory: the root's, or a nested repository's (a submodule).
	tree *workIndex
	// top: the directory is the top of a nested work tree, tree's own.
	top   bool
	state atomic.Uint32
	done  sync.WaitGroup // done when read

	readErr    error       // from reading the directory
	ignoreErrs []pathError // from reading its ignore files
	entries    []entry     // the entries to visit, in walk order
}

// dirJob states.
const (
	jobPending uint32 = iota // not taken by any goroutine
	jobTaken                 // being read or read, or dropped
)

func newDirJob(abs, rel string, rules *ruleSet) *dirJob {
	j := &dirJob{abs: abs, rel: rel, rules: rules}
	j.done.Add(1)
	return j
}

// pathElems returns the path elements of the directory of j. Only the
// goroutine reading the directory calls it.
func (j *dirJob) pathElems() []string {
	if j.elems == nil && j.rel != "" {
		j.elems = strings.Split(j.rel, "/")
	}
	return j.elems
}

// pathError is an error about a path to report to OnError.
type pathError struct {
	rel string
	err error
}

// An entry is a file or subdirectory of a read directory that is not
// ignored.
type entry struct {
	rel   string   // the slash path relative to the root
	sub   *dirJob  // for a directory, nil for a file
	st    fileStat // for a file, its status
	err   error    // why stating or reading the file failed
	kind  Kind     // with state fileText, the file's kind
	state fileState
}

// fileState is how much is known about a file.
type fileState uint8

const (
	fileStatFailed fileState = iota // err says why
	fileStated                      // its head has not been read
	fileText                        // its head was read: kind is its Kind
	fileBinary                      // its head was read: it is binary
	fileReadFailed                  // reading its head failed: err says why
)

func newWalker(ctx context.Context, root string, opts Options, fn func(File) error) *walker {
	w := &walker{
		ctx:     ctx,
		root:    root,
		opts:    opts,
		maxSize: opts.maxFileSize(),
		fn:      fn,
		workers: runtime.GOMAXPROCS(0),
	}
	w.cond.L = &w.mu
	if w.workers == 1 {
		w.workers = 0 // the walking goroutine reads every directory itself
	}
	return w
}

// walk walks the tree.
func (w *walker) walk() error {
	if w.opts.Listings != nil && KeepsListings(w.root) {
		w.listings = w.opts.Listings
		w.listings.begin(time.Now())
	}
	rules, err := w.loadExclude()
	if err != nil {
		return skipToNil(err)
	}
	top := newDirJob(w.root, "", &ruleSet{rules: rules[:len(rules):len(rules)]})
	top.tree = w.tree
	err = w.walkDir(top)
	w.stop()
	return skipToNil(err)
}

// report hands a non-fatal error to Options.OnError.
func (w *walker) report(rel string, err error) error {
	if w.opts.OnError == nil {
		return nil
	}
	return w.opts.OnError(rel, err)
}

// loadExclude loads the patterns in force at the root before its own
// ignore files: the user's excludes file and the repository's
// .git/info/exclude, and, when the root is a folder inside a repository's
// work tree rather than its top, the ignore files of the folders from the
// top down to the root's parent, as git reads them for the root's entries
// (a monorepo's node_modules/, written once at its top, holds in
// packages/web too). The folders are gone down as a walk from the top
// would: where git would ignore one of them, or the root itself, the root
// is what the caller asked for all the same, and is walked with no rules
// from above (a dotfiles repository at the home folder whose .gitignore
// says "*" leaves the projects below it alone).
func (w *walker) loadExclude() ([]*rule, error) {
	wt, ok := findWorkTree(w.root)
	if !ok {
		return nil, nil
	}
	w.tree = &workIndex{wt: wt, memo: w.listings}
	below := wt.below
	rules, err := excludeRules(wt, nil, ".git/info/exclude", w.report)
	if err != nil {
		return nil, err
	}
	var scratch []string
	for i, dir := range wt.above() {
		for _, name := range ignoreFiles {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				continue // none, or unreadable: an ignore file above the root is git's concern
			}
			rules = append(rules, parseIgnoreOf(data, below[:i:i], name != ".gitignore")...)
		}
		rs := compile(rules, below[:i:i])
		if rs.ignored(below[i], true, below[:i:i], &scratch) {
			return nil, nil
		}
		rules = rs.rules
	}
	// The rules as they match below the root.
	out := make([]*rule, 0, len(rules))
	for _, r := range rules {
		if r := r.below(below[r.depth:]); r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// RuleFiles returns the files outside a walk of root whose content
// decides what it ignores: the ignore files of the folders above root in
// its git work tree, the repository's info/exclude, the user's excludes
// file and the git configuration files read to find it, and the index
// of the files git tracks (which no rule of git's ignores); and the same
// git files of each nested work tree the walk met, trees, slash paths
// below root as Options.WorkTree names them (a submodule's live in the
// superproject's .git/modules). Some may not exist: made, they would
// count. Nil where root is in no work tree. A process that watches root
// for changes watches these too.
func RuleFiles(root string, trees []string) []string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	wt, ok := findWorkTree(root)
	if !ok {
		return nil
	}
	out := wt.gitRuleFiles()
	for _, dir := range wt.above() {
		for _, name := range ignoreFiles {
			out = append(out, filepath.Join(dir, name))
		}
	}
	for _, rel := range trees {
		out = append(out, WorkTreeRuleFiles(filepath.Join(root, filepath.FromSlash(rel)))...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// WorkTreeRuleFiles are the files of git's own that decide what the walk
// takes in the nested work tree whose top is dir (see Options.WorkTree):
// its info/exclude, its excludes file and the configuration naming it,
// and its index. Nil when dir is no work tree's top.
func WorkTreeRuleFiles(dir string) []string {
	own, common := gitDirs(dir)
	if common == "" {
		return nil
	}
	return workTree{top: dir, gitDir: common, ownGitDir: own}.gitRuleFiles()
}

// gitRuleFiles are the files of git's own that decide what the work tree
// ignores: the user's excludes file and the configuration naming it,
// info/exclude, and the index (a file git's rules ignore is kept while git
// tracks it).
func (wt workTree) gitRuleFiles() []string {
	file, configs := excludesFileRead(wt.gitDir, wt.ownGitDir)
	out := append(configs, wt.infoExclude(), filepath.Join(wt.ownGitDir, "index"))
	if file != "" {
		out = append(out, file)
	}
	return out
}

// workTree is the git work tree that holds a walk's root.
type workTree struct {
	top       string   // its top folder
	gitDir    string   // the common git directory: its config, info/
	ownGitDir string   // the work tree's own (a linked worktree's .git/worktrees/NAME), which includeIf's gitdir: matches
	below     []string // the path elements from the top down to the root; none when the root is the top
}

// infoExclude is the repository's info/exclude file.
func (wt workTree) infoExclude() string { return filepath.Join(wt.gitDir, "info", "exclude") }

// above returns the folders from the top down to the root's parent, each
// the folder whose ignore files rule below[i].
func (wt workTree) above() []string {
	dirs := make([]string, len(wt.below))
	dir := wt.top
	for i, e := range wt.below {
		dirs[i] = dir
		dir = filepath.Join(dir, e)
	}
	return dirs
}

// findWorkTree finds the git work tree that holds root, as git finds it
// (GIT_CEILING_DIRECTORIES included); false when root is in none.
func findWorkTree(root string) (workTree, bool) {
	// From the folder a link leads to, as git finds it from its working
	// directory, which the kernel gives with links resolved.
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	var ceilings []string
	for _, c := range filepath.SplitList(os.Getenv("GIT_CEILING_DIRECTORIES")) {
		if c != "" {
			ceilings = append(ceilings, filepath.Clean(c))
		}
	}
	var below []string
	for dir := root; ; {
		if own, common := gitDirs(dir); common != "" {
			return workTree{top: dir, gitDir: common, ownGitDir: own, below: below}, true
		}
		parent := filepath.Dir(dir)
		// git looks no higher than GIT_CEILING_DIRECTORIES.
		if parent == dir || slices.Contains(ceilings, parent) {
			return workTree{}, false
		}
		below = append([]string{filepath.Base(dir)}, below...)
		dir = parent
	}
}

// openListedAt is how many entries a listed folder has, more than which
// it is opened to take its files' statuses by name: on a tree of 100
// files a folder, a path lookup from the root for each file cost more
// than the folder's read that the listing spared.
const openListedAt = 8

// walkDir walks the directory of j. It returns nil or filepath.SkipDir
// once it is done with j (filepath.SkipDir if the caller should simply go
// on with the next entry), and any other error to end the walk.
func (w *walker) walkDir(j *dirJob) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	w.await(j)
	if j.readErr != nil {
		if j.rel == "" {
			return fmt.Errorf("walk %s: %w", w.root, j.readErr)
		}
		if err := w.report(j.rel, j.readErr); err != nil {
			return w.abandon(j, err)
		}
		// Go on with whatever part of the directory could be read.
	}
	for _, pe := range j.ignoreErrs {
		if err := w.report(pe.rel, pe.err); err != nil {
			return w.abandon(j, err)
		}
	}
	if w.opts.Dir != nil && j.readErr == nil {
		rel := j.rel
		if rel == "" {
			rel = "."
		}
		w.opts.Dir(rel)
	}
	if w.opts.WorkTree != nil && j.top {
		w.opts.WorkTree(j.rel)
	}
	for i := range j.entries {
		e := &j.entries[i]
		var err error
		isDir := e.sub != nil
		if isDir {
			err = w.walkDir(e.sub)
			e.sub = nil // let the garbage collector have it
		} else {
			err = w.visitFile(j, e)
		}
		switch {
		case err == nil:
		case err == filepath.SkipDir && isDir:
			// The subdirectory was abandoned; go on with its siblings.
		case err == filepath.SkipDir:
			// Skip the rest of this directory.
			for _, e := range j.entries[i+1:] {
				if e.sub != nil {
					w.drop(e.sub)
				}
			}
			w.release(j)
			return nil
		default:
			return err
		}
	}
	w.release(j)
	return nil
}

// abandon returns err, which OnError returned for the directory of j,
// after dropping the directory if the walk goes on without it.
func (w *walker) abandon(j *dirJob, err error) error {
	if err == filepath.SkipDir {
		w.drop(j)
	}
	return err
}

// await makes sure the directory of j has been read: it reads it unless a
// worker has taken it, in which case it waits for the worker.
func (w *walker) await(j *dirJob) {
	if j.state.CompareAndSwap(jobPending, jobTaken) {
		w.read(j, &w.scratch)
		if !w.started && w.workers > 0 && len(w.stack) > 0 {
			w.start()
		}
		return
	}
	j.done.Wait()
}

// drop gives up the directory of j and its subdirectories, which will not
// be walked, releasing what they hold.
func (w *walker) drop(j *dirJob) {
	if j.state.CompareAndSwap(jobPending, jobTaken) {
		return // never read: it holds nothing
	}
	j.done.Wait()
	for i := range j.entries {
		if sub := j.entries[i].sub; sub != nil {
			w.drop(sub)
		}
	}
	w.release(j)
}

// release returns what the read directory of j counts against maxBuffered.
func (w *walker) release(j *dirJob) {
	if w.workers == 0 {
		return
	}
	w.mu.Lock()
	full := w.buffered >= maxBuffered
	w.buffered -= len(j.entries) + 1
	if full && w.buffered < maxBuffered && w.idle > 0 {
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

// start starts the workers.
func (w *walker) start() {
	w.started = true
	w.wg.Add(w.workers)
	for range w.workers {
		go w.work()
	}
}

// stop ends the walk: it stops the workers and waits for them.
func (w *walker) stop() {
	if !w.started {
		return
	}
	w.mu.Lock()
	w.stopped = true
	w.cond.Broadcast()
	w.mu.Unlock()
	w.wg.Wait()
}

// work is a worker: it reads the directories pushed on the stack until the
// walk is over.
func (w *walker) work() {
	defer w.wg.Done()
	s := &scratch{}
	for {
		j := w.next()
		if j == nil {
			return
		}
		w.read(j, s)
	}
}

// next returns the next directory for a worker to read, or nil when the
// walk is over.
func (w *walker) next() *dirJob {
	w.mu.Lock()
	defer w.mu.Unlock()
	for !w.stopped {
		if w.buffered < maxBuffered {
			for len(w.stack) > 0 {
				j := w.stack[len(w.stack)-1]
				w.stack[len(w.stack)-1] = nil
				w.stack = w.stack[:len(w.stack)-1]
				if j.state.CompareAndSwap(jobPending, jobTaken) {
					return j
				}
			}
		}
		w.idle++
		w.cond.Wait()
		w.idle--
	}
	return nil
}

// read reads the directory of j, its ignore files and the status of its
// files (and, without a Seen hook, their heads), and pushes its
// subdirectories for the workers. s is the calling goroutine's scratch
// space.
func (w *walker) read(j *dirJob, s *scratch) {
	defer j.done.Done()
	dir := unopened(j.abs)
	var entries []dirent
	var err error
	// The folder's status first: a listing read under the same status
	// stands for its entries.
	ls := w.listings
	var stamp dirStamp
	stamped, listed := false, false
	if ls != nil {
		if stamp, stamped = statDir(j.abs); stamped {
			entries, listed = ls.lookup(j.rel, stamp)
		}
	}
	// A listed folder of few entries is not opened: its files' statuses
	// are taken by path. Any other is, and its files' statuses taken by
	// name in it (a path is resolved from the root for each otherwise).
	if !listed || len(entries) > openListedAt {
		d, oerr := openDir(j.abs)
		switch {
		case oerr == nil:
			dir = d
			defer dir.close()
			if ls != nil {
				// The stamp kept with a listing is the open folder's
				// own, taken before its entries are read: a change made
				// meanwhile moves its times past it. A listed folder
				// swapped since its status was taken is read.
				var st dirStamp
				st, stamped = dir.stamp()
				listed = listed && stamped && st == stamp
				stamp = st
			}
			if !listed {
				entries, err = dir.entries(&s.dir)
			}
		case !listed:
			err = oerr
		}
	}
	j.readErr = err
	if err != nil && j.rel == "" {
		return // fatal
	}
	if j.rel != "" {
		// A nested repository (a submodule) says what it tracks itself,
		// and what it ignores: git's rules from the folders above stop at
		// its top, as git reads them; hone's own hold on.
		for _, e := range entries {
			if e.name == ".git" {
				if own, common := gitDirs(j.abs); common != "" {
					wt := workTree{top: j.abs, gitDir: common, ownGitDir: own}
					j.tree = &workIndex{wt: wt, prefix: j.rel + "/", memo: w.listings}
					j.rules = w.nestedRules(j, wt)
					j.top = true
				}
				break
			}
		}
	}
	rules, unreadable := w.loadIgnores(j, entries)

	var elems []string
	if rules.generic {
		elems = j.pathElems()
	}
	if !listed { // a listing is sorted already, and not to be changed
		slices.SortFunc(entries, compareEntries)
		if stamped && err == nil {
			ls.record(j.rel, stamp, entries)
		}
	}
	j.entries = make([]entry, 0, len(entries))
	nsub := 0
	for _, e := range entries {
		name := e.name
		if vcsDirs[name] || unreadable != 0 && unreadable.has(name) {
			continue
		}
		typ := e.typ
		if !typ.IsDir() && !typ.IsRegular() {
			continue // symbolic link, device, pipe, socket, ...
		}
		ignored, own := rules.decide(name, typ.IsDir(), elems, &s.path)
		if ignored && own {
			continue // hone's own rules hold for tracked files too
		}
		rel := joinRel(j.rel, name)
		ignored = ignored || j.ignored
		if ignored && !j.tree.keeps(rel, typ.IsDir()) {
			continue
		}
		if typ.IsDir() {
			sub := newDirJob(join(j.abs, name), rel, rules)
			sub.ignored, sub.tree = ignored, j.tree
			j.entries = append(j.entries, entry{rel: rel, sub: sub})
			nsub++
			continue
		}
		st, err := dir.stat(name)
		if err != nil {
			j.entries = append(j.entries, entry{rel: rel, err: err, state: fileStatFailed})
			continue
		}
		if w.maxSize >= 0 && st.size > w.maxSize {
			continue
		}
		f := entry{rel: rel, st: st, state: fileStated}
		if w.opts.Seen == nil {
			// Nothing can spare the read: do it here.
			f.kind, f.state, f.err = classify(join(j.abs, name), rel, st.size, s)
		}
		j.entries = append(j.entries, f)
	}
	if w.workers == 0 {
		return
	}
	w.mu.Lock()
	w.buffered += len(j.entries) + 1
	for i := len(j.entries) - 1; i >= 0 && nsub > 0; i-- {
		if sub := j.entries[i].sub; sub != nil {
			w.stack = append(w.stack, sub)
			nsub--
		}
	}
	if w.idle > 0 {
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

// workIndex is a work tree's index, read for the paths it tracks when an
// ignored entry first asks; prefix is the work tree's top below the walk's
// root ("" for the root's own work tree).
type workIndex struct {
	wt     workTree
	prefix string
	once   sync.Once
	paths  *trackedPaths
	// memo, where folders' listings are kept, holds what the index said to
	// the walks before, while its file is unchanged: a walk that meets
	// the ignored entries the last one met reads no index (django's is
	// 850 KB, a tenth of the walk's time; a monorepo's, megabytes).
	memo      *Listings
	stampOnce sync.Once
	file      string
	stamp     dirStamp
	stamped   bool
}

// keeps reports whether an entry git's rules ignore, at the slash path rel
// below the walk's root, is kept all the same: a file git tracks, a
// folder holding one, or a submodule. Nothing is kept outside a work tree.
func (wi *workIndex) keeps(rel string, isDir bool) bool {
	if wi == nil {
		return false
	}
	rel = strings.TrimPrefix(rel, wi.prefix)
	// Asked by its path from the work tree's top, which the index holds:
	// a walk of a folder below the top asks for paths below the folder.
	top := rel
	if len(wi.wt.below) > 0 {
		top = strings.Join(wi.wt.below, "/") + "/" + rel
	}
	key := "f" + top
	if isDir {
		key = "d" + top
	}
	if wi.memo != nil {
		wi.stampOnce.Do(func() {
			wi.file = indexFileOf(wi.wt, wi.prefix != "")
			wi.stamp, wi.stamped = statFileStamp(wi.file)
		})
		if wi.stamped {
			if kept, ok := wi.memo.trackedAnswer(wi.file, wi.stamp, key); ok {
				return kept
			}
		}
	}
	wi.once.Do(func() { wi.paths = readTracked(wi.wt, wi.prefix != "") })
	t := wi.paths
	kept := false
	if t != nil {
		if isDir {
			kept = t.hasUnder(rel) || t.has(rel) // a submodule is a path of its index
		} else {
			kept = t.has(rel)
		}
	}
	if wi.memo != nil && wi.stamped && t != nil {
		wi.memo.rememberTracked(wi.file, wi.stamp, key, kept)
	}
	return kept
}

// loadIgnores reads the ignore files among the entries of the directory of
// j and returns the rule set of the directory. It records the errors
// reading them in j and returns the ignore files it could not read, which
// should not be visited.
func (w *walker) loadIgnores(j *dirJob, entries []dirent) (*ruleSet, ignoreSet) {
	var present [len(ignoreFiles)]bool
	for _, e := range entries {
		if name := e.name; len(name) > 0 && name[0] == '.' && e.typ.IsRegular() {
			for i, f := range ignoreFiles {
				if name == f {
					present[i] = true
				}
			}
		}
	}
	var here []*rule
	var unreadable ignoreSet
	for i, name := range ignoreFiles {
		if !present[i] {
			continue
		}
		data, err := os.ReadFile(join(j.abs, name))
		if err != nil {
			j.ignoreErrs = append(j.ignoreErrs, pathError{joinRel(j.rel, name), err})
			unreadable |= 1 << i
			continue
		}
		here = append(here, parseIgnoreOf(data, j.pathElems(), name != ".gitignore")...)
	}
	if len(here) == 0 && j.rules.uniform { // never so for the root
		return j.rules, unreadable
	}
	return compile(append(j.rules.rules, here...), j.pathElems()), unreadable
}

// excludeRules reads the rules git takes in the work tree wt before any
// ignore file: the user's excludes file, then info/exclude, matching from
// the folder whose path elements are domain. A file that cannot be read
// goes to failed, by a name the user knows (infoName for info/exclude);
// an error of failed's ends the read.
func excludeRules(wt workTree, domain []string, infoName string, failed func(rel string, err error) error) ([]*rule, error) {
	excludes, _ := excludesFileRead(wt.gitDir, wt.ownGitDir)
	var rules []*rule
	for _, f := range []struct{ path, rel string }{
		{excludes, "the global excludes file (core.excludesFile)"},
		{wt.infoExclude(), infoName},
	} {
		if f.path == "" {
			continue
		}
		data, err := os.ReadFile(f.path)
		switch {
		case err == nil:
			rules = append(rules, parseIgnore(data, domain)...)
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			// A file below a file (HOME a file) is none, as git reads
			// it (access_error_is_ok), not one it cannot read.
			if err := failed(f.rel, err); err != nil {
				return nil, err
			}
		}
	}
	return rules, nil
}

// nestedRules are the rules in force at the top of a nested repository
// (a submodule) at j, before its own ignore files: the repository's
// excludes file and info/exclude, as git reads them there, then hone's
// own rules from above.
func (w *walker) nestedRules(j *dirJob, wt workTree) *ruleSet {
	rules, _ := excludeRules(wt, j.pathElems(), wt.infoExclude(), func(rel string, err error) error {
		j.ignoreErrs = append(j.ignoreErrs, pathError{rel, err})
		return nil
	})
	// hone's own rules come after git's, as at the root: they hold
	// whatever git's say.
	for _, r := range j.rules.rules {
		if r.own {
			rules = append(rules, r)
		}
	}
	return compile(rules, j.pathElems())
}

// ignoreSet is a set of ignoreFiles, by index.
type ignoreSet uint8

// has reports whether the set contains the ignore file called name.
func (s ignoreSet) has(name string) bool {
	for i, f := range ignoreFiles {
		if s&(1<<i) != 0 && name == f {
			return true
		}
	}
	return false
}

// visitFile passes the file of e, in the directory of j, to fn unless it is
// binary.
func (w *walker) visitFile(j *dirJob, e *entry) error {
	if e.state == fileStatFailed {
		return w.report(e.rel, e.err)
	}
	f := e.st.file(e.rel)
	if w.opts.Seen != nil {
		if kind, skip, ok := w.opts.Seen(f); ok {
			if skip {
				return nil
			}
			f.Kind = kind
			return w.fn(f)
		}
	}
	kind, state, err := e.kind, e.state, e.err
	if state == fileStated {
		kind, state, err = classify(join(j.abs, path.Base(e.rel)), e.rel, e.st.size, &w.scratch)
	}
	switch state {
	case fileReadFailed:
		return w.report(e.rel, err)
	case fileBinary:
		if w.opts.Binary != nil {
			w.opts.Binary(f)
		}
		return nil
	}
	f.Kind = kind
	return w.fn(f)
}

// fileStat is what Walk keeps of a file's status.
type fileStat struct {
	size         int64
	mtime, ctime time.Time
	ino          uint64
}

// file is the File of a stated file, without its kind.
func (st fileStat) file(rel string) File {
	return File{Path: rel, Size: st.size, ModTime: st.mtime, Inode: st.ino, ChangeTime: st.ctime}
}

// classify reads the head of the file abs, of the given size, and returns
// its kind and state: fileText, fileBinary or fileReadFailed with the
// error.
func classify(abs, rel string, size int64, s *scratch) (Kind, fileState, error) {
	if size == 0 {
		return Classify(rel, nil), fileText, nil
	}
	head, err := readHead(abs, s.headBuf()[:min(size, HeadSize)])
	if err != nil {
		return 0, fileReadFailed, err
	}
	if IsBinary(head) {
		return 0, fileBinary, nil
	}
	return Classify(rel, head), fileText, nil
}

// headBuf returns the scratch buffer for file heads, HeadSize bytes.
func (s *scratch) headBuf() []byte {
	if s.head == nil {
		s.head = make([]byte, HeadSize)
	}
	return s.head
}

// A dirent is a directory entry.
type dirent struct {
	name string
	typ  fs.FileMode // the type bits of the mode
}

// compareEntries orders the entries of one directory so that a depth-first
// walk yields paths in byte-wise lexical order: a directory sorts as its name
// followed by '/', so "a.go" < "a/" < "a0".
func compareEntries(a, b dirent) int {
	an, bn := a.name, b.name
	n := min(len(an), len(bn))
	if c := strings.Compare(an[:n], bn[:n]); c != 0 || len(an) == len(bn) {
		return c
	}
	// One name is a proper prefix of the other.
	if len(an) < len(bn) {
		if !a.typ.IsDir() || bn[n] > '/' {
			return -1
		}
		return 1
	}
	if !b.typ.IsDir() || an[n] > '/' {
		return 1
	}
	return -1
}

// join joins a directory and a file name with the OS path separator.
func join(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// joinRel joins a slash path relative to the root and a file name.
func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}
