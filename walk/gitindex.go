package walk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
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
// read as an index this code knows (a split index among them): the walk
// then ignores what the rules say, tracked or not. nested marks a
// repository inside the walk's own (a submodule), which GIT_INDEX_FILE
// does not name.
func readTracked(wt workTree, nested bool) *trackedPaths {
	file := filepath.Join(wt.ownGitDir, "index")
	if env := os.Getenv("GIT_INDEX_FILE"); env != "" && !nested {
		// The index git is told to use, for the work tree it runs in (a
		// hook's); relative, from the work tree's top.
		file = env
		if !filepath.IsAbs(file) {
			file = filepath.Join(wt.top, file)
		}
	}
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
		if all, err = parseGitIndex(data); err != nil {
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
// split index ("link" extension), whose entries are a delta, is refused.
func parseGitIndex(data []byte) ([]string, error) {
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
		paths, end, err := gitIndexEntries(data, version, n, hashSize)
		if err == nil {
			err = gitIndexTail(data[end:], hashSize)
		}
		if err == nil {
			return paths, nil
		}
		last = err
	}
	return nil, last
}

// gitIndexEntries reads n entries from offset 12, returning their paths
// and where the entries end. The paths share one string.
func gitIndexEntries(data []byte, version uint32, n, hashSize int) ([]string, int, error) {
	if n > len(data)/(40+hashSize+2) {
		return nil, 0, errIndexFormat // more entries than the file can hold
	}
	// The names take what the fixed fields leave (version 4's compressed
	// ones may grow past it).
	arena := make([]byte, 0, max(0, len(data)-12-n*(40+hashSize+2)))
	ends := make([]int, 0, n) // where each path ends in arena
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
			name = data[at : at+end]
			// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
			at = start + (at+end-start+8)&^7
			if at > len(data) {
				return nil, 0, errIndexFormat
			}
		}
		if len(name) == 0 {
			return nil, 0, errIndexFormat
		}
		last := 0
		if len(ends) > 0 {
			last = ends[len(ends)-1]
		}
		switch c := bytes.Compare(arena[prevStart(ends):last], name); {
		case len(ends) > 0 && c == 0:
			// The stages of a conflict: the path once.
		case len(ends) > 0 && c > 0:
			return nil, 0, errIndexFormat // not sorted
		default:
			arena = append(arena, name...)
			ends = append(ends, len(arena))
		}
		prev = name
	}
	all := string(arena)
	paths := make([]string, len(ends))
	from := 0
	for i, end := range ends {
		paths[i] = all[from:end]
		from = end
	}
	return paths, at, nil
}

// prevStart is where the last path in the arena starts.
func prevStart(ends []int) int {
	if len(ends) < 2 {
		return 0
	}
	return ends[len(ends)-2]
}

// gitIndexTail checks what follows the entries: extensions, each a
// four-byte signature and a length, then the checksum, hashSize bytes.
func gitIndexTail(rest []byte, hashSize int) error {
	for len(rest) > hashSize {
		if len(rest) < 8+hashSize {
			return errIndexFormat
		}
		sig := string(rest[:4])
		size := int(binary.BigEndian.Uint32(rest[4:8]))
		if size < 0 || size > len(rest)-8-hashSize {
			return errIndexFormat
		}
		if sig == "link" {
			return fmt.Errorf("a split index: %w", errIndexFormat)
		}
		rest = rest[8+size:]
	}
	if len(rest) != hashSize {
		return errIndexFormat
	}
	return nil
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
