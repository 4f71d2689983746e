package filelock

import "errors"

// ErrHeld is Lock's error, without wait, for a lock another process holds.
var ErrHeld = errors.New("another process holds the lock")
