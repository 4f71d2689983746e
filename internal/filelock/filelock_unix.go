//go:build unix

// Package filelock takes a process's exclusive lock of a file (flock): one
// process at a time does what the lock guards, and a lock ends with its
// process, however it ends.
package filelock

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Lock takes the lock of the file at p, made if it is not there (0600):
// with wait it waits while another process holds it, until ctx ends (its
// error then), else it returns ErrHeld. waited says whether another held
// it first. The lock ends with unlock, or with the process. The file
// stays: removed, a process waiting on it would hold a lock no other sees.
func Lock(ctx context.Context, p string, wait bool) (unlock func(), waited bool, err error) {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	fd := int(f.Fd())
	try := func() error { return ignoringEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) }) }
	err = try()
	if errors.Is(err, unix.EWOULDBLOCK) && !wait {
		f.Close()
		return nil, false, ErrHeld
	}
	// The wait is a poll, not a blocking flock, so that a caller whose
	// context ends (a command given up, a deadline) is not held by a
	// process that never lets go (one stopped, a server stuck).
	for delay := time.Millisecond; errors.Is(err, unix.EWOULDBLOCK); delay = min(2*delay, 50*time.Millisecond) {
		waited = true
		select {
		case <-ctx.Done():
			f.Close()
			return nil, true, ctx.Err()
		case <-time.After(delay):
		}
		err = try()
	}
	if err != nil {
		f.Close()
		return nil, false, err
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
