package history

import (
	"errors"
	"fmt"

	"github.com/hone-tools/hone/internal/filelock"
)

// lockFile takes the lock of the file at p, which another process may
// hold: with wait it waits for it, else it returns ErrBusy. waited says
// whether another process held it first. The lock ends with unlock, or
// with the process.
func lockFile(p string, wait bool) (unlock func(), waited bool, err error) {
	unlock, waited, err = filelock.Lock(p, wait)
	switch {
	case errors.Is(err, filelock.ErrHeld):
		return nil, false, ErrBusy
	case err != nil:
		return nil, false, fmt.Errorf("lock the history's cache: %w", err)
	}
	return unlock, waited, nil
}
