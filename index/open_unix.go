//go:build unix

package index

import (
	"errors"
	"syscall"
)

// openFlags open a file to index: a link put in its place since the walk
// is not followed (the walk skips links: the file they lead to may lie
// outside the repository), and a FIFO does not block the open.
const openFlags = syscall.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// isLink reports whether an open with openFlags failed because the path
// is a link (ELOOP; FreeBSD says EMLINK).
func isLink(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
