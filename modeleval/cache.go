package modeleval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/hone-tools/hone"
	"github.com/hone-tools/hone/internal/atomicfile"
)

// promptVersion changes when the prompt does, so that no verdict made
// under another prompt is reused.
const promptVersion = "1"

// Cache keeps a model's verdicts on disk, one small file each, keyed by
// the model, the task, the file's path and its excerpt (so its content):
// a second run of the same task costs no call.
type Cache struct{ dir string }

// OpenCache opens the cache in dir, making it if need be.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

func cacheKey(model, task, path, excerpt string) string {
	h := sha256.New()
	for _, s := range []string{promptVersion, model, task, path, excerpt} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) file(key string) string { return filepath.Join(c.dir, key[:2], key+".json") }

func (c *Cache) get(key string) (hone.Evaluation, bool) {
	if c == nil {
		return hone.Evaluation{}, false
	}
	b, err := os.ReadFile(c.file(key))
	if err != nil {
		return hone.Evaluation{}, false
	}
	var ev hone.Evaluation
	if json.Unmarshal(b, &ev) != nil || ev.Score < 0 || ev.Score > 1 {
		return hone.Evaluation{}, false
	}
	return ev, true
}

// put keeps a verdict; a cache that cannot be written is only slower.
func (c *Cache) put(key string, ev hone.Evaluation) {
	if c == nil {
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return
	}
	f := c.file(key)
	if os.MkdirAll(filepath.Dir(f), 0o700) != nil {
		return
	}
	_ = atomicfile.Write(f, b, false)
}
