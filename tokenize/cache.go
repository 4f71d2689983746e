package tokenize

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kljensen/snowball/english"
)

// The cache maps the lower-cased text of a token to its owned text and its
// stem. It is sharded, and each shard keeps a read-only map that readers
// consult without locking plus a small locked map of recent additions that
// is merged into a fresh read-only map once it grows to a quarter of it
// (so merging costs amortised O(1) per entry). It is bounded: a shard that
// fills up is emptied.
const (
	shardCount = 64
	shardMax   = 1 << 12 // entries per shard; 256k in all
)

type entry struct {
	text, stem string
	stop       bool // IsStopWord(text)
}

type shard struct {
	ro    atomic.Pointer[map[string]entry]
	mu    sync.Mutex
	dirty map[string]entry
	_     [40]byte // keep shards on separate cache lines
}

var shards [shardCount]shard

// Stem returns the English Snowball stem of a lower-case word, e.g.
// "expired" -> "expir". Words containing anything but ASCII letters and
// digits are returned unchanged. Results are memoised; Stem is safe for
// concurrent use.
func Stem(word string) string {
	return lookupString(word, isASCIIWord(word)).stem
}

// isASCIIWord reports whether w has only ASCII letters and digits.
func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 0x80 || asciiClass[c] < clsUpper {
			return false
		}
	}
	return true
}

func stemOf(text string, ascii bool) string {
	if !ascii || len(text) <= 2 {
		return text
	}
	if s := english.Stem(text, true); s != text {
		return s
	}
	return text
}

// A near cache stands before the shards in each tokenization of a long
// text: a table of the entries met last, by a hash of their text, which
// a text's repeated words hit without probing a shard's large map. It
// holds what the shards hold, so it never answers otherwise.
const (
	nearSize = 1024 // entries; a power of two
	// nearFrom is the shortest text tokenized with a near cache.
	nearFrom = 512
)

type near struct{ slots [nearSize]entry }

var nearCaches = sync.Pool{New: func() any { return new(near) }}

// slot is where key's entry stands: FNV-1a of its bytes.
func nearSlot[K string | []byte](k K) int {
	h := uint32(2166136261)
	for i := 0; i < len(k); i++ {
		h = (h ^ uint32(k[i])) * 16777619
	}
	return int(h & (nearSize - 1))
}

// lookupBytes is the package's lookupBytes through the near cache c, if
// any.
func (c *near) lookupBytes(key []byte, stem bool) entry {
	if c == nil {
		return lookupBytes(key, stem)
	}
	s := &c.slots[nearSlot(key)]
	if s.text != "" && s.text == string(key) {
		return *s
	}
	e := lookupBytes(key, stem)
	*s = e
	return e
}

// lookupString is lookupBytes for a string key.
func (c *near) lookupString(key string, stem bool) entry {
	if c == nil || len(key) > MaxLen {
		return lookupString(key, stem)
	}
	s := &c.slots[nearSlot(key)]
	if s.text != "" && s.text == key {
		return *s
	}
	e := lookupString(key, stem)
	*s = e
	return e
}

// shardOf picks a shard from a cheap hash of a few bytes of the key; the
// shard's map hashes the whole key anyway.
func shardOf[K string | []byte](k K) *shard {
	n := len(k)
	if n == 0 {
		return &shards[0]
	}
	h := uint32(n)*0x9E3779B1 ^ uint32(k[0]) ^ uint32(k[n-1])<<8 ^ uint32(k[n/2])<<16
	h ^= h >> 15
	h *= 0x85EBCA6B
	h ^= h >> 13
	return &shards[h%shardCount]
}

// lookupBytes returns the cache entry for key, creating it if needed. When
// stem is false the stem is the text itself.
func lookupBytes(key []byte, stem bool) entry {
	sh := shardOf(key)
	if m := sh.ro.Load(); m != nil {
		if e, ok := (*m)[string(key)]; ok { // does not allocate
			return e
		}
	}
	return sh.slowBytes(key, stem)
}

// lookupString is lookupBytes for a string key. Keys longer than MaxLen
// are not cached.
func lookupString(key string, stem bool) entry {
	if len(key) > MaxLen {
		t := strings.Clone(key)
		return entry{t, stemOf(t, stem), IsStopWord(t)}
	}
	sh := shardOf(key)
	if m := sh.ro.Load(); m != nil {
		if e, ok := (*m)[key]; ok {
			return e
		}
	}
	return sh.slowString(key, stem)
}

// slowBytes looks key up under the shard's lock, adding it if missing.
func (sh *shard) slowBytes(key []byte, stem bool) entry {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if ro := sh.ro.Load(); ro != nil {
		if e, ok := (*ro)[string(key)]; ok {
			return e
		}
	}
	if e, ok := sh.dirty[string(key)]; ok {
		return e
	}
	return sh.addLocked(string(key), stem)
}

// slowString is slowBytes for a string key.
func (sh *shard) slowString(key string, stem bool) entry {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if ro := sh.ro.Load(); ro != nil {
		if e, ok := (*ro)[key]; ok {
			return e
		}
	}
	if e, ok := sh.dirty[key]; ok {
		return e
	}
	return sh.addLocked(strings.Clone(key), stem)
}

// addLocked adds a new entry for text, which must not share memory with
// the input, promoting or emptying the shard's maps as needed.
func (sh *shard) addLocked(text string, stem bool) entry {
	e := entry{text, stemOf(text, stem), IsStopWord(text)}
	nro := 0
	if ro := sh.ro.Load(); ro != nil {
		nro = len(*ro)
	}
	if nro+len(sh.dirty) >= shardMax {
		sh.ro.Store(nil)
		sh.dirty, nro = nil, 0
	}
	if sh.dirty == nil {
		// As big as it grows before it is merged.
		sh.dirty = make(map[string]entry, max(16, nro/4))
	}
	sh.dirty[text] = e
	if len(sh.dirty) >= max(16, nro/4) {
		var m map[string]entry
		if ro := sh.ro.Load(); ro != nil {
			m = maps.Clone(*ro) // far cheaper than adding each entry again
		} else {
			m = make(map[string]entry, len(sh.dirty))
		}
		for k, v := range sh.dirty {
			m[k] = v
		}
		sh.ro.Store(&m)
		sh.dirty = nil
	}
	return e
}
