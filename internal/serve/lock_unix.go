//go:build unix

package serve

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// errLocked: another server holds the folder's lock.
var errLocked = errors.New("locked")

// lockServer takes the lock of the file at p for as long as the server
// runs, or returns errLocked; the lock goes with unlock, or the process.
func lockServer(p string) (unlock func(), err error) {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock the index folder for hone serve: %w", err)
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if errors.Is(err, unix.EWOULDBLOCK) {
		f.Close()
		return nil, errLocked
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock the index folder for hone serve: %w", err)
	}
	return func() { f.Close() }, nil
}

// listenPrivate listens on a socket that is its user's alone from the
// moment it exists.
func listenPrivate(path string) (net.Listener, error) {
	old := syscall.Umask(0o077)
	l, err := net.Listen("unix", path)
	syscall.Umask(old)
	return l, err
}
