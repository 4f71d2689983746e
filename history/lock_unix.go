//go:build unix

package history

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes the lock of the file at p, which another process may
// hold: with wait it waits for it, else it returns ErrBusy. waited says
// whether another process held it first. The lock ends with unlock, or
// with the process.
func lockFile(p string, wait bool) (unlock func(), waited bool, err error) {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("lock the history's cache: %w", err)
	}
	fd := int(f.Fd())
	err = ignoringEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) })
	if errors.Is(err, unix.EWOULDBLOCK) {
		if !wait {
			f.Close()
			return nil, false, ErrBusy
		}
		waited = true
		err = ignoringEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX) })
	}
	if err != nil {
		f.Close()
		return nil, false, fmt.Errorf("lock the history's cache: %w", err)
	}
	return func() { f.Close() }, waited, nil
}

func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
