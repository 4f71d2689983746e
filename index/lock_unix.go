//go:build unix

package index

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockUpdate takes the lock of an index's updates, the file at p, waiting
// while another process holds it; waited says whether one did. The lock
// ends with unlock, or with the process.
func lockUpdate(p string) (unlock func(), waited bool, err error) {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("lock the index's updates: %w", err)
	}
	fd := int(f.Fd())
	err = retryEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) })
	if errors.Is(err, unix.EWOULDBLOCK) {
		waited = true
		err = retryEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX) })
	}
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("lock the index's updates: %w", err)
	}
	return func() { f.Close() }, waited, nil
}

func retryEINTR(fn func() error) error {
	for {
		if err := fn(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
