package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// prefault readies heap memory for what the process allocates next: a
// retrieve allocates some 35 MB in a fraction of a second, and a page met
// for the first time is a page fault, each costing microseconds on a
// virtual machine (6–13 µs on the one the figures come from: on a
// 5,000-file repository, 7,000 of them were a third of a retrieve's CPU).
//
// Where the kernel gives transparent huge pages on request, huge bytes
// are advised to take them (MADV_HUGEPAGE): a first touch maps 2 MiB at
// once, one fault where there were 512, and a page never touched costs
// nothing. Where it does not, populate bytes have their pages mapped in
// one call (MADV_POPULATE_WRITE, Linux 5.14 and later), each 4 KiB page
// all the same. Either way one collection frees the memory for what comes
// next. It reports how: "huge", "populated" or "" (nothing done).
func prefault(huge, populate int) string {
	// The allocation would start a collection of its own, the heap past
	// its goal, which marks it while it is still held: a wasted cycle of
	// some milliseconds. The one that frees it is made below.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	how := ""
	switch {
	case huge > 0 && hugePagesOnRequest():
		if adviseHuge(make([]byte, huge)) {
			how = "huge"
		}
	case populate > 0:
		if unix.Madvise(make([]byte, populate), unix.MADV_POPULATE_WRITE) == nil {
			how = "populated"
		}
	}
	if how != "" {
		runtime.GC()
	}
	return how
}

// hugePageSize is the size of a transparent huge page on x86-64 and, with
// 4 KiB base pages, arm64; the kernel ignores the advice on a range it
// cannot cover with its own size.
const hugePageSize = 2 << 20

// hugePagesOnRequest reports whether the kernel gives transparent huge
// pages to memory advised to take them: "always" or "madvise", not
// "never" (or no such setting, a kernel built without them). A
// GODEBUG=disablethp=1, which keeps Go's heap off them, is heeded.
func hugePagesOnRequest() bool {
	if strings.Contains(","+os.Getenv("GODEBUG")+",", ",disablethp=1,") {
		return false
	}
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && !bytes.Contains(b, []byte("[never]"))
}

// adviseHuge advises the huge-page-aligned middle of b to take huge pages.
func adviseHuge(b []byte) bool {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + hugePageSize - 1) &^ (hugePageSize - 1)
	end := (p + uintptr(len(b))) &^ (hugePageSize - 1)
	if beg >= end {
		return false
	}
	off := int(beg - p)
	return unix.Madvise(b[off:off+int(end-beg)], unix.MADV_HUGEPAGE) == nil
}
