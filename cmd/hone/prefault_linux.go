package main

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// prefault gives the heap n bytes of memory whose pages the kernel maps
// in one call (MADV_POPULATE_WRITE, Linux 5.14 and later), then frees them
// with one collection for what the process allocates next. A retrieve
// allocates some 35 MB in a fraction of a second; a page met for the
// first time is a page fault, each costing microseconds on a virtual
// machine: on a 5,000-file repository, 12,000 of them were a fifth of a retrieve's CPU.
// Mapped ahead in one call they cost a fraction of that. On a kernel
// without the call, the pages come as they are touched, as ever.
func prefault(n int) {
	if populated(n) {
		runtime.GC()
	}
}

// populated allocates n bytes and has the kernel map their pages; the
// memory is garbage once it returns.
func populated(n int) bool {
	return unix.Madvise(make([]byte, n), unix.MADV_POPULATE_WRITE) == nil
}
