package walk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// DefaultMaxFileSize is the size limit used when Options.MaxFileSize is 0.
const DefaultMaxFileSize = 1 << 20

// ErrNotDir is wrapped by the error Walk returns when root is not a directory.
var ErrNotDir = errors.New("not a directory")

// Options controls a walk. The zero value is usable.
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
	// read. When it answers ok, the file is known unchanged since it was
	// last classified (the caller compares size and time): its kind is
	// taken from kind, or it is skipped as binary when skip is true, and
	// its head is not read. This keeps a walk over an indexed repository
	// to stat calls.
	Seen func(path string, size int64, modTime time.Time) (kind Kind, skip, ok bool)

	// Binary, if not nil, is called for each file skipped as binary after
	// its head was read, so that a caller can answer Seen for it next time.
	Binary func(path string, size int64, modTime time.Time)
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
// ctx before reading each directory and returns ctx.Err() once it is done.
func Walk(ctx context.Context, root string, opts Options, fn func(File) error) error {
	fi, err := os.Stat(root)
	if err != nil {
		return fmt.Errorf("walk %s: %w", root, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("walk %s: %w", root, ErrNotDir)
	}
	w := &walker{
		ctx:     ctx,
		root:    root,
		opts:    opts,
		maxSize: opts.maxFileSize(),
		fn:      fn,
		buf:     make([]byte, HeadSize),
	}
	if err := w.loadExclude(); err != nil {
		return skipToNil(err)
	}
	return skipToNil(w.walkDir(root, "", nil))
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

type walker struct {
	ctx     context.Context
	root    string
	opts    Options
	maxSize int64
	fn      func(File) error

	// patterns holds the ignore patterns in force in the current directory,
	// in increasing priority: .git/info/exclude, then the ignore files of
	// each directory from the root down. It is used as a stack.
	patterns []gitignore.Pattern

	buf []byte // scratch space for file heads, HeadSize bytes
}

// report hands a non-fatal error to Options.OnError.
func (w *walker) report(rel string, err error) error {
	if w.opts.OnError == nil {
		return nil
	}
	return w.opts.OnError(rel, err)
}

// loadExclude loads the patterns of the repository's .git/info/exclude.
func (w *walker) loadExclude() error {
	dir := gitDir(w.root)
	if dir == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(dir, "info", "exclude"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return w.report(".git/info/exclude", err)
	}
	w.patterns = append(w.patterns, parseIgnore(data, nil)...)
	return nil
}

// walkDir walks the directory abs, whose slash path relative to the root is
// rel ("" for the root) and whose path elements are elems. It returns
// filepath.SkipDir if the caller should simply go on with the next entry.
func (w *walker) walkDir(abs, rel string, elems []string) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	entries, err := readDir(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("walk %s: %w", w.root, err)
		}
		if err := w.report(rel, err); err != nil {
			return err
		}
		// Go on with whatever part of the directory could be read.
	}

	// Push this directory's ignore patterns; pop them on the way out.
	depth := len(w.patterns)
	defer func() {
		clear(w.patterns[depth:])
		w.patterns = w.patterns[:depth]
	}()
	unreadable, err := w.loadIgnores(abs, rel, elems, entries)
	if err != nil {
		return err
	}
	var m gitignore.Matcher
	if len(w.patterns) > 0 {
		m = gitignore.NewMatcher(w.patterns)
	}

	slices.SortFunc(entries, compareEntries)
	for _, e := range entries {
		name := e.Name()
		if vcsDirs[name] || unreadable != 0 && unreadable.has(name) {
			continue
		}
		typ := e.Type()
		if !typ.IsDir() && !typ.IsRegular() {
			continue // symbolic link, device, pipe, socket, ...
		}
		path := append(elems, name)
		if m != nil && m.Match(path, typ.IsDir()) {
			continue
		}
		if typ.IsDir() {
			err = w.walkDir(join(abs, name), joinRel(rel, name), path)
		} else {
			err = w.visitFile(join(abs, name), joinRel(rel, name), e)
		}
		switch {
		case err == nil:
		case err == filepath.SkipDir && typ.IsDir():
			// The subdirectory was abandoned; go on with its siblings.
		case err == filepath.SkipDir:
			return nil // skip the rest of this directory
		default:
			return err
		}
	}
	return nil
}

// loadIgnores pushes the patterns of the ignore files among the entries of
// the directory abs. It returns the ignore files it could not read, which
// have been reported already and should not be visited.
func (w *walker) loadIgnores(abs, rel string, elems []string, entries []fs.DirEntry) (unreadable ignoreSet, err error) {
	var present [len(ignoreFiles)]bool
	for _, e := range entries {
		if name := e.Name(); len(name) > 0 && name[0] == '.' && e.Type().IsRegular() {
			for i, f := range ignoreFiles {
				if name == f {
					present[i] = true
				}
			}
		}
	}
	for i, name := range ignoreFiles {
		if !present[i] {
			continue
		}
		data, err := os.ReadFile(join(abs, name))
		if err != nil {
			if err := w.report(joinRel(rel, name), err); err != nil {
				return 0, err
			}
			unreadable |= 1 << i
			continue
		}
		w.patterns = append(w.patterns, parseIgnore(data, elems)...)
	}
	return unreadable, nil
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

// visitFile classifies the regular file abs and passes it to fn unless it is
// too large or binary.
func (w *walker) visitFile(abs, rel string, e fs.DirEntry) error {
	info, err := e.Info()
	if err != nil {
		return w.report(rel, err)
	}
	size := info.Size()
	if w.maxSize >= 0 && size > w.maxSize {
		return nil
	}
	if w.opts.Seen != nil {
		if kind, skip, ok := w.opts.Seen(rel, size, info.ModTime()); ok {
			if skip {
				return nil
			}
			return w.fn(File{Path: rel, Size: size, ModTime: info.ModTime(), Kind: kind})
		}
	}
	var head []byte
	if size > 0 {
		head, err = w.readHead(abs, size)
		if err != nil {
			return w.report(rel, err)
		}
		if IsBinary(head) {
			if w.opts.Binary != nil {
				w.opts.Binary(rel, size, info.ModTime())
			}
			return nil
		}
	}
	return w.fn(File{Path: rel, Size: size, ModTime: info.ModTime(), Kind: Classify(rel, head)})
}

// readHead reads the first min(size, HeadSize) bytes of the file abs into
// the walker's scratch buffer. A file that has shrunk yields what it has.
func (w *walker) readHead(abs string, size int64) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := io.ReadFull(f, w.buf[:min(size, HeadSize)])
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return w.buf[:n], err
}

// readDir returns the entries of directory dir, unsorted. On error it
// returns the entries read before the error.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// compareEntries orders the entries of one directory so that a depth-first
// walk yields paths in byte-wise lexical order: a directory sorts as its name
// followed by '/', so "a.go" < "a/" < "a0".
func compareEntries(a, b fs.DirEntry) int {
	an, bn := a.Name(), b.Name()
	n := min(len(an), len(bn))
	if c := strings.Compare(an[:n], bn[:n]); c != 0 || len(an) == len(bn) {
		return c
	}
	// One name is a proper prefix of the other.
	if len(an) < len(bn) {
		if !a.IsDir() || bn[n] > '/' {
			return -1
		}
		return 1
	}
	if !b.IsDir() || an[n] > '/' {
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
