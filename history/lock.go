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
	unlockFile, waited, err := filelock.Lock(ctx, p, wait)
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
// cache: a slot each, which a goroutine takes for its read, kept while a
// goroutine holds or waits for it.
var inProcess struct {
	mu    sync.Mutex
	slots map[string]*slot
}

type slot struct {
	ch    chan struct{}
	users int // holding or waiting, under inProcess.mu
}

// lockInProcess takes this process's slot for the cache at p, waiting
// while another goroutine holds it; waited says it did.
func lockInProcess(ctx context.Context, p string) (release func(), waited bool, err error) {
	inProcess.mu.Lock()
	if inProcess.slots == nil {
		inProcess.slots = map[string]*slot{}
	}
	s := inProcess.slots[p]
	if s == nil {
		s = &slot{ch: make(chan struct{}, 1)}
		inProcess.slots[p] = s
	}
	s.users++
	inProcess.mu.Unlock()
	leave := func() {
		inProcess.mu.Lock()
		if s.users--; s.users == 0 {
			delete(inProcess.slots, p)
		}
		inProcess.mu.Unlock()
	}
	release = func() {
		<-s.ch
		leave()
	}
	select {
	case s.ch <- struct{}{}:
		return release, false, nil
	default:
	}
	select {
	case s.ch <- struct{}{}:
		return release, true, nil
	case <-ctx.Done():
		leave()
		return nil, false, ctx.Err()
	}
}
