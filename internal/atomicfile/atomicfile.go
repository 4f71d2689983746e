// Package atomicfile writes a file whole or not at all: the data goes to a
// new private file (0600) beside it, which is renamed over it, so that a
// reader meets the old file or the new one, never a part. A process that
// dies midway leaves a file named path plus "." and a random suffix.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces the file path by one holding data. With sync, the data
// is on disk before the rename: after a crash, what the rename published
// is there.
func Write(path string, data []byte, sync bool) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
