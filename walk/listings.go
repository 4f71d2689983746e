package walk

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"maps"
	"slices"
	"sync"
	"time"
)

// Listings are the entries of the folders earlier walks read, each with
// the status its folder had then. A walk that finds a folder's status
// unchanged takes the folder's entries from its listing, one stat call,
// rather than open and read the folder: on a 5,300-file repository
// in 3,200 folders, that is most of the system calls of a walk that finds
// nothing changed. The statuses of the folder's files are still taken, and its
// ignore files still read, on every walk.
//
// A folder's status changes when an entry is added to it, removed from it
// or renamed in it: its modification and change times move, and a folder
// made anew has another inode. A folder whose times are within two
// seconds of a walk's start is racy, as git calls it: a change made
// in the same tick of the file system's clock would leave them as they
// are. Its listing is not kept, and the next walk reads it again.
//
// Walk updates it: after a walk it holds the listings of the folders that
// walk met. Its methods are safe for concurrent use, but it serves one
// walk at a time: two at once would each keep only part of what they met,
// which costs reads, never a change missed. Listings are kept only where
// the root's file system moves folders' times as their entries change
// (not on NFS, SMB, FUSE, 9p, Ceph, AFS or Coda). MarshalBinary and
// UnmarshalBinary keep it between processes.
type Listings struct {
	mu      sync.Mutex
	old     map[string]listing // what the walk started with
	now     map[string]listing // what it met
	fresh   int                // listings the walk read anew and kept
	reused  int                // listings it took from old
	racyAt  int64              // folders changed at or after this (ns) are racy
	started bool

	// oldTracked and nowTracked are what git's indexes answered the walks,
	// by the index file: the last walks' and this one's. learned: this
	// walk asked what they did not hold.
	oldTracked, nowTracked map[string]*trackedMemo
	learned                bool
}

// trackedMemo is what a git index answered, under the status its file
// had: whether it keeps each path asked ("f" and a file's path, "d" and a
// folder's), which the walk asks of an entry git's rules ignore. git
// writes an index anew and renames it: its inode, times and size move
// with any change.
type trackedMemo struct {
	stamp   dirStamp
	answers map[string]bool
}

// trackedAnswer returns what the index file said of key under stamp, as
// a walk before this one asked it.
func (l *Listings) trackedAnswer(file string, stamp dirStamp, key string) (kept, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.nowTracked[file]
	if m != nil && m.stamp == stamp {
		if kept, ok = m.answers[key]; ok {
			return kept, true
		}
	}
	if o := l.oldTracked[file]; o != nil && o.stamp == stamp {
		if kept, ok = o.answers[key]; ok {
			l.keepTracked(file, stamp, key, kept)
			return kept, true
		}
	}
	return false, false
}

// rememberTracked keeps what the index file said of key under stamp,
// unless stamp is racy.
func (l *Listings) rememberTracked(file string, stamp dirStamp, key string, kept bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if max(stamp.mtime, stamp.ctime) >= l.racyAt {
		return
	}
	l.keepTracked(file, stamp, key, kept)
	l.learned = true
}

func (l *Listings) keepTracked(file string, stamp dirStamp, key string, kept bool) {
	if l.nowTracked == nil {
		l.nowTracked = map[string]*trackedMemo{}
	}
	m := l.nowTracked[file]
	if m == nil || m.stamp != stamp {
		m = &trackedMemo{stamp: stamp, answers: map[string]bool{}}
		l.nowTracked[file] = m
	}
	m.answers[key] = kept
}

// listingSlack is how recent a folder's times may be, at a walk's start,
// for its listing to be kept: coarser than any file system's clock that
// hone meets.
var listingSlack = 2 * time.Second

// listing is a folder's entries, sorted, and the status they were read
// under. A listing decoded from a file keeps its entries encoded until a
// walk looks it up: a no-change update at 100,000 files took a
// tenth of its time decoding them all before its walk could start.
type listing struct {
	stamp   dirStamp
	entries []dirent
	// data[at:end] holds the n entries as encoded, when entries is nil:
	// data is one copy of the listings' file, which the names share.
	data    string
	at, end int
	n       int
}

// decoded returns ls with its entries decoded. UnmarshalBinary checked
// them: nothing can fail.
func (ls listing) decoded() listing {
	if ls.entries != nil || ls.n == 0 {
		return ls
	}
	entries := make([]dirent, ls.n)
	at := ls.at
	for i := range entries {
		n, k := uvarint(ls.data[at:ls.end])
		name := at + k
		at = name + int(n)
		entries[i].name = ls.data[name:at]
		switch ls.data[at] {
		case encDir:
			entries[i].typ = fs.ModeDir
		case encSymlink:
			entries[i].typ = fs.ModeSymlink
		case encOther:
			entries[i].typ = fs.ModeIrregular
		}
		at++
	}
	ls.entries, ls.data = entries, ""
	return ls
}

// dirStamp is what a folder's status says of its entries: its times,
// and its inode; its size and link count too, which on many file systems
// move with its entries and its subfolders.
type dirStamp struct {
	mtime, ctime int64 // nanoseconds
	ino          uint64
	size         int64
	nlink        uint64
}

// uvarint is binary.Uvarint of a string that holds a whole one.
func uvarint(s string) (uint64, int) {
	var v uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// NewListings returns an empty Listings.
func NewListings() *Listings { return &Listings{} }

// begin starts a walk that starts at start: what the last walk met is what
// this one starts with.
func (l *Listings) begin(start time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started {
		l.old = l.now
		l.oldTracked = l.nowTracked
	}
	l.nowTracked, l.learned = nil, false
	l.started = true
	// Made at about its final size: a walk meets the folders it met last.
	l.now = make(map[string]listing, len(l.old))
	l.fresh, l.reused = 0, 0
	l.racyAt = start.Add(-listingSlack).UnixNano()
}

// lookup returns the entries of the folder rel, sorted, when its listing
// was read under stamp. They are the listing's own: the caller must not
// change them.
func (l *Listings) lookup(rel string, stamp dirStamp) ([]dirent, bool) {
	l.mu.Lock()
	ls, ok := l.old[rel]
	l.mu.Unlock()
	if !ok || ls.stamp != stamp {
		return nil, false
	}
	ls = ls.decoded() // by the walk's workers, in parallel
	l.mu.Lock()
	l.now[rel] = ls
	l.reused++
	l.mu.Unlock()
	return ls.entries, true
}

// record keeps the entries of the folder rel, sorted, read under stamp,
// unless stamp is racy.
func (l *Listings) record(rel string, stamp dirStamp, entries []dirent) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if max(stamp.mtime, stamp.ctime) >= l.racyAt {
		return
	}
	l.now[rel] = listing{stamp: stamp, entries: slices.Clone(entries)}
	l.fresh++
}

// Changed reports whether the last walk changed the listings: it kept a
// listing read anew, or met fewer folders than were listed.
func (l *Listings) Changed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fresh > 0 || l.reused != len(l.old) || l.learned
}

// Len is how many folders are listed.
func (l *Listings) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started {
		return len(l.now)
	}
	return len(l.old)
}

// listingsMagic starts the encoding; its last byte is the version: 3
// adds the indexes' answers after the folders, which 2 has not.
const (
	listingsMagic   = "hone listings\x03"
	listingsMagicV2 = "hone listings\x02"
)

// errListings is the error of listings that cannot be decoded.
var errListings = errors.New("walk: damaged folder listings")

// Entry types as encoded.
const (
	encRegular byte = iota
	encDir
	encSymlink
	encOther
)

// MarshalBinary encodes the listings, those the last walk met (before any
// walk, those decoded), with a checksum.
func (l *Listings) MarshalBinary() ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, tracked := l.old, l.oldTracked
	if l.started {
		m, tracked = l.now, l.nowTracked
	}
	rels := make([]string, 0, len(m))
	for rel := range m {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	b := []byte(listingsMagic)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(len(rels)))
	for _, rel := range rels {
		ls := m[rel]
		str(rel)
		b = appendStamp(b, ls.stamp)
		if ls.entries == nil {
			b = binary.AppendUvarint(b, uint64(ls.n))
			b = append(b, ls.data[ls.at:ls.end]...)
			continue
		}
		b = binary.AppendUvarint(b, uint64(len(ls.entries)))
		for _, e := range ls.entries {
			str(e.name)
			switch {
			case e.typ.IsRegular():
				b = append(b, encRegular)
			case e.typ.IsDir():
				b = append(b, encDir)
			case e.typ&fs.ModeSymlink != 0:
				b = append(b, encSymlink)
			default:
				b = append(b, encOther)
			}
		}
	}
	files := slices.Sorted(maps.Keys(tracked))
	b = binary.AppendUvarint(b, uint64(len(files)))
	for _, f := range files {
		t := tracked[f]
		str(f)
		b = appendStamp(b, t.stamp)
		keys := slices.Sorted(maps.Keys(t.answers))
		b = binary.AppendUvarint(b, uint64(len(keys)))
		for _, k := range keys {
			str(k)
			if t.answers[k] {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// appendStamp encodes a status, as UnmarshalBinary's stamp reads it.
func appendStamp(b []byte, st dirStamp) []byte {
	b = binary.AppendVarint(b, st.mtime)
	b = binary.AppendVarint(b, st.ctime)
	b = binary.AppendUvarint(b, st.ino)
	b = binary.AppendVarint(b, st.size)
	return binary.AppendUvarint(b, st.nlink)
}

// UnmarshalBinary replaces the listings by those of data. Damaged data is
// an error, and leaves the listings as they were.
func (l *Listings) UnmarshalBinary(data []byte) error {
	if len(data) < len(listingsMagic)+4 {
		return errListings
	}
	v2 := string(data[:len(listingsMagic)]) == listingsMagicV2
	if !v2 && string(data[:len(listingsMagic)]) != listingsMagic {
		return errListings
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(body):]) {
		return errListings
	}
	b := body[len(listingsMagic):]
	bad := false
	num := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return v
	}
	snum := func() int64 {
		v, n := binary.Varint(b)
		if n <= 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return v
	}
	stamp := func() dirStamp {
		return dirStamp{mtime: snum(), ctime: snum(), ino: num(), size: snum(), nlink: num()}
	}
	// The names share one copy of the data, rather than one allocation a
	// name (BenchmarkListingsDecode).
	whole := string(body)
	str := func() string {
		n := num()
		if bad || n > uint64(len(b)) {
			bad = true
			return ""
		}
		at := len(body) - len(b)
		s := whole[at : at+int(n)]
		b = b[n:]
		return s
	}
	count := num()
	if bad || count > uint64(len(b)) {
		return errListings
	}
	m := make(map[string]listing, count)
	for range count {
		rel := str()
		ls := listing{stamp: stamp()}
		n := num()
		if bad || n > uint64(len(b)) {
			return errListings
		}
		// The entries are checked now, and decoded when looked up.
		start := len(body) - len(b)
		for range n {
			k := num()
			if bad || k >= uint64(len(b)) || b[k] > encOther {
				return errListings
			}
			b = b[k+1:]
		}
		ls.data, ls.at, ls.end, ls.n = whole, start, len(body)-len(b), int(n)
		if bad {
			return errListings
		}
		m[rel] = ls
	}
	var tracked map[string]*trackedMemo
	if !v2 {
		files := num()
		if bad || files > uint64(len(b)) {
			return errListings
		}
		tracked = make(map[string]*trackedMemo, files)
		for range files {
			f := str()
			t := &trackedMemo{stamp: stamp()}
			n := num()
			if bad || n > uint64(len(b)) {
				return errListings
			}
			t.answers = make(map[string]bool, n)
			for range n {
				k := str()
				if bad || len(b) == 0 || b[0] > 1 {
					return errListings
				}
				t.answers[k] = b[0] == 1
				b = b[1:]
			}
			tracked[f] = t
		}
	}
	if len(b) != 0 {
		return errListings
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.oldTracked, l.nowTracked, l.learned = tracked, nil, false
	l.old, l.now, l.started = m, nil, false
	l.fresh, l.reused = 0, 0
	return nil
}
