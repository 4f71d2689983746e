package walk

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Git never ignores a file it tracks: a .gitignore that says build/ leaves
// build/config.h in the repository when it was added before the rule, or
// with git add -f (a project's vendored sources, its CMake modules). The
// walk keeps such files, as git ls-files lists them, by the paths of the
// work tree's index (.git/index); a rule of hone's own (.ignore,
// .honeignore) still ignores them.

// trackedPaths are the paths a git index holds, below the walk's root,
// relative to it and sorted; sparse directories end in a slash.
type trackedPaths struct {
	paths []string
}

// has reports whether the path rel is tracked: a file, or a submodule.
// A file on disk under a sparse directory entry ("dir/") is not: the
// entries below one are those not checked out.
func (t *trackedPaths) has(rel string) bool {
	i := sort.SearchStrings(t.paths, rel)
	return i < len(t.paths) && t.paths[i] == rel
}

// hasUnder reports whether a tracked path lies in the folder at the slash
// path rel.
func (t *trackedPaths) hasUnder(rel string) bool {
	prefix := rel + "/"
	i := sort.SearchStrings(t.paths, prefix)
	if i < len(t.paths) && strings.HasPrefix(t.paths[i], prefix) {
		return true
	}
	// In a sparse directory entry's folder.
	return i > 0 && strings.HasSuffix(t.paths[i-1], "/") && strings.HasPrefix(prefix, t.paths[i-1])
}

// trackedCache keeps the indexes read, by their file, while the file is
// unchanged: a long-running process walks again and again.
var trackedCache struct {
	mu    sync.Mutex
	byKey map[string]trackedEntry
}

type trackedEntry struct {
	stat  os.FileInfo
	paths []string // relative to the work tree's top
}

// maxTrackedCache bounds the indexes kept.
const maxTrackedCache = 8

// readTracked returns the tracked paths below the walk's root, of the
// index of the work tree wt; nil where there is none, or it cannot be
// read as an index this code knows: the walk then ignores what the rules
// say, tracked or not. nested marks a
// repository inside the walk's own (a submodule), which GIT_INDEX_FILE
// does not name.
func readTracked(wt workTree, nested bool) *trackedPaths {
	trackedReads.Add(1)
	file := indexFileOf(wt, nested)
	fi, err := os.Stat(file)
	if err != nil {
		return nil
	}
	all := cachedTracked(file, fi)
	if all == nil {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil
		}
		if all, err = parseGitIndexFrom(data, sharedIndexReader(wt.ownGitDir, file)); err != nil {
			return nil
		}
		keepTracked(file, fi, all)
	}
	prefix := ""
	if len(wt.below) > 0 {
		prefix = strings.Join(wt.below, "/") + "/"
	}
	lo := sort.SearchStrings(all, prefix)
	hi := lo
	for hi < len(all) && strings.HasPrefix(all[hi], prefix) {
		hi++
	}
	out := make([]string, 0, hi-lo)
	for _, p := range all[lo:hi] {
		out = append(out, p[len(prefix):])
	}
	return &trackedPaths{paths: out}
}

// trackedReads counts the indexes read for their tracked paths (for the
// tests).
var trackedReads atomic.Int64

// indexFileOf is the index file of the work tree wt.
func indexFileOf(wt workTree, nested bool) string {
	file := filepath.Join(wt.ownGitDir, "index")
	if env := os.Getenv("GIT_INDEX_FILE"); env != "" && !nested {
		// The index git is told to use, for the work tree it runs in (a
		// hook's); relative, from the work tree's top.
		file = env
		if !filepath.IsAbs(file) {
			file = filepath.Join(wt.top, file)
		}
	}
	return file
}

// sharedIndexReader reads the shared index a split index names
// (core.splitIndex): sharedindex.<name> in the work tree's git directory,
// else beside the index file, where git looks for it.
func sharedIndexReader(gitDir, file string) func(name string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		data, err := os.ReadFile(filepath.Join(gitDir, "sharedindex."+name))
		if errors.Is(err, fs.ErrNotExist) {
			data, err = os.ReadFile(filepath.Join(filepath.Dir(file), "sharedindex."+name))
		}
		return data, err
	}
}

func cachedTracked(file string, fi os.FileInfo) []string {
	trackedCache.mu.Lock()
	defer trackedCache.mu.Unlock()
	e, ok := trackedCache.byKey[file]
	if !ok || !os.SameFile(e.stat, fi) || e.stat.Size() != fi.Size() || !e.stat.ModTime().Equal(fi.ModTime()) {
		return nil
	}
	return e.paths
}

func keepTracked(file string, fi os.FileInfo, paths []string) {
	trackedCache.mu.Lock()
	defer trackedCache.mu.Unlock()
	if trackedCache.byKey == nil || len(trackedCache.byKey) >= maxTrackedCache {
		trackedCache.byKey = map[string]trackedEntry{}
	}
	trackedCache.byKey[file] = trackedEntry{stat: fi, paths: paths}
}

// errIndexFormat: the file is no git index this code reads.
var errIndexFormat = errors.New("not a git index of version 2, 3 or 4")

// parseGitIndex returns the paths of a git index file (gitformat-index),
// sorted, each once: versions 2 to 4, SHA-1 or SHA-256 object names. A
// split index ("link" extension), whose entries are a delta on a shared
// index, is refused: parseGitIndexFrom reads one.
func parseGitIndex(data []byte) ([]string, error) {
	return parseGitIndexFrom(data, nil)
}

// parseGitIndexFrom is parseGitIndex, with a split index read too: shared
// reads the shared index of the given name (its object name in hex).
func parseGitIndexFrom(data []byte, shared func(name string) ([]byte, error)) ([]string, error) {
	ix, err := readGitIndex(data, shared != nil)
	if err != nil {
		return nil, err
	}
	if ix.link == nil {
		return ix.paths()
	}
	base, err := shared(hex.EncodeToString(ix.link.base))
	if err != nil {
		return nil, fmt.Errorf("a split index's shared index: %w", err)
	}
	bx, err := readGitIndex(base, false)
	if err != nil {
		return nil, fmt.Errorf("a split index's shared index: %w", err)
	}
	return ix.mergedWith(bx)
}

// gitIndex is an index file's entries, as read: each entry's path, once
// per stage, in the file's order; and a split index's link to its
// shared index.
type gitIndex struct {
	names [][]byte
	link  *gitIndexLink
}

// gitIndexLink is a split index's "link" extension: the shared index's
// object name; and two bitmaps (EWAH) over the shared index's entries:
// those removed, and those whose replacements lead this file's entries.
type gitIndexLink struct {
	base             []byte
	deleted, replace []byte
}

// readGitIndex reads an index file; split allows a "link" extension, whose
// entries may then have empty paths (a shared entry's replacement).
func readGitIndex(data []byte, split bool) (*gitIndex, error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, errIndexFormat
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, errIndexFormat
	}
	n := int(binary.BigEndian.Uint32(data[8:12]))
	// The object names' size is not written: SHA-1's is tried first, then
	// SHA-256's, and the one whose entries end where the extensions and
	// the checksum fill the rest of the file is it.
	var last error
	for _, hashSize := range []int{20, 32} {
		names, end, err := gitIndexEntries(data, version, n, hashSize)
		var link *gitIndexLink
		if err == nil {
			link, err = gitIndexTail(data[end:], hashSize, split)
		}
		if err == nil {
			return &gitIndex{names: names, link: link}, nil
		}
		last = err
	}
	return nil, last
}

// paths are the index's paths, sorted, each once; it fails on an index
// whose entries are not in git's order, or have no path.
func (ix *gitIndex) paths() ([]string, error) {
	size := 0
	for i, name := range ix.names {
		if len(name) == 0 || i > 0 && bytes.Compare(ix.names[i-1], name) > 0 {
			return nil, errIndexFormat
		}
		size += len(name)
	}
	return joinPaths(ix.names, size), nil
}

// joinPaths makes sorted names into strings, each once, sharing one.
func joinPaths(names [][]byte, size int) []string {
	arena := make([]byte, 0, size)
	ends := make([]int, 0, len(names))
	for i, name := range names {
		if i > 0 && bytes.Equal(names[i-1], name) {
			continue // the stages of a conflict: the path once
		}
		arena = append(arena, name...)
		ends = append(ends, len(arena))
	}
	all := string(arena)
	paths := make([]string, len(ends))
	from := 0
	for i, end := range ends {
		paths[i] = all[from:end]
		from = end
	}
	return paths
}

// mergedWith is a split index's paths over its shared index base, as git
// merges them (split-index.c): the shared entries less those deleted
// (a replaced one keeps its path), then this file's entries past the
// replacements, which are new.
func (ix *gitIndex) mergedWith(base *gitIndex) ([]string, error) {
	if base.link != nil {
		return nil, errIndexFormat
	}
	gone := make([]bool, len(base.names))
	replaced := 0
	if ix.link.deleted != nil { // a link may have no bitmaps
		if _, err := ewahEach(ix.link.deleted, len(gone), func(pos int) { gone[pos] = true }); err != nil {
			return nil, err
		}
		if _, err := ewahEach(ix.link.replace, len(gone), func(int) { replaced++ }); err != nil {
			return nil, err
		}
	}
	if replaced > len(ix.names) {
		return nil, errIndexFormat
	}
	added := ix.names[replaced:]
	names := make([][]byte, 0, len(base.names)+len(added))
	size := 0
	for i, name := range base.names {
		if len(name) == 0 {
			return nil, errIndexFormat
		}
		if !gone[i] {
			names = append(names, name)
			size += len(name)
		}
	}
	for _, name := range added {
		if len(name) == 0 {
			return nil, errIndexFormat
		}
		names = append(names, name)
		size += len(name)
	}
	slices.SortFunc(names, bytes.Compare)
	return joinPaths(names, size), nil
}

// gitIndexEntries reads n entries from offset 12, returning their paths,
// in order and with a conflict's stages each, and where the entries end.
// Paths of versions 2 and 3 are cut from data.
func gitIndexEntries(data []byte, version uint32, n, hashSize int) ([][]byte, int, error) {
	if n > len(data)/(40+hashSize+2) {
		return nil, 0, errIndexFormat // more entries than the file can hold
	}
	names := make([][]byte, 0, n)
	at := 12
	var prev []byte
	for range n {
		start := at
		at += 40 + hashSize
		if at+2 > len(data) {
			return nil, 0, errIndexFormat
		}
		flags := binary.BigEndian.Uint16(data[at:])
		at += 2
		if flags&0x4000 != 0 { // extended flags
			if version < 3 {
				return nil, 0, errIndexFormat
			}
			at += 2
		}
		if at > len(data) {
			return nil, 0, errIndexFormat
		}
		var name []byte
		if version == 4 {
			strip, k := gitVarint(data[at:])
			if k == 0 || strip > uint64(len(prev)) {
				return nil, 0, errIndexFormat
			}
			at += k
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, 0, errIndexFormat
			}
			name = append(prev[:len(prev)-int(strip):len(prev)-int(strip)], data[at:at+end]...)
			at += end + 1
		} else {
			end := bytes.IndexByte(data[at:], 0)
			if end < 0 {
				return nil, 0, errIndexFormat
			}
			name = data[at : at+end : at+end]
			// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
			at = start + (at+end-start+8)&^7
			if at > len(data) {
				return nil, 0, errIndexFormat
			}
		}
		names = append(names, name)
		prev = name
	}
	return names, at, nil
}

// gitIndexTail checks what follows the entries: extensions, each a
// four-byte signature and a length, then the checksum, hashSize bytes. It
// returns a split index's link, refused unless split.
func gitIndexTail(rest []byte, hashSize int, split bool) (*gitIndexLink, error) {
	var link *gitIndexLink
	for len(rest) > hashSize {
		if len(rest) < 8+hashSize {
			return nil, errIndexFormat
		}
		sig := string(rest[:4])
		size := int(binary.BigEndian.Uint32(rest[4:8]))
		if size < 0 || size > len(rest)-8-hashSize {
			return nil, errIndexFormat
		}
		if sig == "link" {
			if !split {
				return nil, fmt.Errorf("a split index: %w", errIndexFormat)
			}
			var err error
			if link, err = readLink(rest[8:8+size], hashSize); err != nil {
				return nil, err
			}
		}
		rest = rest[8+size:]
	}
	if len(rest) != hashSize {
		return nil, errIndexFormat
	}
	return link, nil
}

// readLink reads a "link" extension: the shared index's object name, then,
// unless the extension ends there, the deletions' and the replacements'
// bitmaps. A link to no shared index (a null name) is no split index.
func readLink(ext []byte, hashSize int) (*gitIndexLink, error) {
	if len(ext) < hashSize {
		return nil, errIndexFormat
	}
	link := &gitIndexLink{base: ext[:hashSize]}
	if !slices.ContainsFunc(link.base, func(b byte) bool { return b != 0 }) {
		return nil, nil
	}
	ext = ext[hashSize:]
	if len(ext) == 0 {
		return link, nil
	}
	k, err := ewahEach(ext, -1, nil)
	if err != nil {
		return nil, err
	}
	link.deleted, ext = ext[:k], ext[k:]
	if k, err = ewahEach(ext, -1, nil); err != nil {
		return nil, err
	}
	if k != len(ext) {
		return nil, errIndexFormat
	}
	link.replace = ext
	return link, nil
}

// ewahEach reads a git EWAH bitmap (ewah/ewah_io.c) at the start of b, and
// returns the bytes it takes: the bit count and the count of 64-bit words,
// both 32 bits; the words, a marker word (a run of 64-bit words all one
// bit, then how many literal words follow) before each stretch of literal
// words; the last marker's position. With set, it calls set for each set
// bit's position, ascending, and refuses a bitmap of more than limit
// bits, or with a bit set past its bit count.
func ewahEach(b []byte, limit int, set func(pos int)) (int, error) {
	if len(b) < 12 {
		return 0, errIndexFormat
	}
	bitCount := int(binary.BigEndian.Uint32(b[0:4]))
	words := int(binary.BigEndian.Uint32(b[4:8]))
	if words > (len(b)-12)/8 || set != nil && bitCount > limit {
		return 0, errIndexFormat
	}
	word := func(i int) uint64 { return binary.BigEndian.Uint64(b[8+8*i:]) }
	pos := 0
	for i := 0; i < words; {
		marker := word(i)
		i++
		run := int(marker >> 1 & 0xffffffff)
		literals := int(marker >> 33)
		if literals > words-i || run > (bitCount-pos+63)/64 {
			return 0, errIndexFormat
		}
		if marker&1 != 0 && set != nil {
			if pos+64*run > bitCount {
				return 0, errIndexFormat
			}
			for k := range 64 * run {
				set(pos + k)
			}
		}
		pos += 64 * run
		for ; literals > 0; literals-- {
			if set != nil {
				for w := word(i); w != 0; w &= w - 1 {
					at := pos + bits.TrailingZeros64(w)
					if at >= bitCount {
						return 0, errIndexFormat
					}
					set(at)
				}
			}
			i++
			pos += 64
		}
	}
	return 8 + 8*words + 4, nil
}

// gitVarint decodes the offset encoding of version 4's path prefixes (as
// OFS_DELTA's in a pack): the value and the bytes read, 0 when it runs
// off the end or overflows.
func gitVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 0x7f)
	k := 1
	for c&0x80 != 0 {
		if k >= len(b) || v > 1<<56 {
			return 0, 0
		}
		c = b[k]
		k++
		v = (v+1)<<7 | uint64(c&0x7f)
	}
	return v, k
}
