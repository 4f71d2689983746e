//go:build unix

package index

import "syscall"

// openFlags open a file to index: a link put in its place since the walk
// is not followed (the walk skips links: the file they lead to may lie
// outside the repository), and a FIFO does not block the open.
const openFlags = syscall.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
