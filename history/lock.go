package history

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hone-tools/hone/internal/filelock"
)

// lockFile takes the lock of the file at p, which another process may
// hold: with wait it waits for it, else it returns ErrBusy. waited says
// whether another read held it first. The lock ends with unlock, or with
// the process. The goroutines of this process wait for one another
// whatever wait says: the lock's file is not theirs to share, and a read
// that found it held would go without the history.
func lockFile(ctx context.Context, p string, wait bool) (unlock func(), waited bool, err error) {
	release, waitedHere, err := lockInProcess(ctx, p)
	if err != nil {
		return nil, false, err
	}
	unlockFile, waited, err := filelock.Lock(p, wait)
	switch {
	case errors.Is(err, filelock.ErrHeld):
		release()
		return nil, false, ErrBusy
	case err != nil:
		release()
		return nil, false, fmt.Errorf("lock the history's cache: %w", err)
	}
	return func() { unlockFile(); release() }, waited || waitedHere, nil
}

// inProcess are the reads from git under way in this process, by their
// cache: a slot each, which a goroutine takes for its read.
var inProcess struct {
	mu    sync.Mutex
	slots map[string]chan struct{}
}

// lockInProcess takes this process's slot for the cache at p, waiting
// while another goroutine holds it; waited says it did.
func lockInProcess(ctx context.Context, p string) (release func(), waited bool, err error) {
	inProcess.mu.Lock()
	if inProcess.slots == nil {
		inProcess.slots = map[string]chan struct{}{}
	}
	slot := inProcess.slots[p]
	if slot == nil {
		slot = make(chan struct{}, 1)
		inProcess.slots[p] = slot
	}
	inProcess.mu.Unlock()
	release = func() { <-slot }
	select {
	case slot <- struct{}{}:
		return release, false, nil
	default:
	}
	select {
	case slot <- struct{}{}:
		return release, true, nil
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}
