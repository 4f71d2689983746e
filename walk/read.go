package walk

import (
	"errors"
	"io"
	"os"
)

// Errors of ReadRegular.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("larger than the size limit")
)

// ReadRegular reads a regular file of at most limit bytes. Anything else (a
// folder, a device such as /dev/zero, a FIFO, even one swapped in for the
// file after a check) is refused with ErrNotRegular and never blocks; a
// larger file, or one that grows past the limit while read, with
// ErrTooLarge.
func ReadRegular(name string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(name, nonBlocking, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	if fi.Size() > limit {
		return nil, ErrTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, ErrTooLarge
	}
	return b, nil
}
