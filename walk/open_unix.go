//go:build unix

package walk

import "syscall"

// nonBlocking opens without waiting on a FIFO's writer.
const nonBlocking = syscall.O_RDONLY | syscall.O_NONBLOCK
