package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
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
// Where the kernel gives this process transparent huge pages on request,
// huge bytes are advised to take them (MADV_HUGEPAGE): a first touch
// maps a whole huge page (2 MiB on x86-64), one fault where there were
// 512, and a huge page never touched costs nothing. Where it does not, or
// the advice fails, populate bytes have their pages mapped in one call
// (MADV_POPULATE_WRITE, Linux 5.14 and later), each 4 KiB page all the
// same. Either way one collection frees the memory for what comes next.
// Nothing is done where a memory limit (GOMEMLIMIT) is too low to hold
// the memory: the collector would hand it back at once. It reports how:
// "huge", "populated" or "" (nothing done).
func prefault(huge, populate int) string {
	if limit := debug.SetMemoryLimit(-1); limit < 4*int64(max(huge, populate)) {
		return ""
	}
	// The allocation would start a collection of its own, the heap past
	// its goal, which marks it while it is still held: a wasted cycle of
	// some milliseconds. The one that frees it is made below.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	how := ""
	if size := hugePageSize(); huge > 0 && size > 0 && size <= huge/4 && adviseHuge(make([]byte, huge), size) {
		how = "huge"
	} else if populate > 0 && unix.Madvise(make([]byte, populate), unix.MADV_POPULATE_WRITE) == nil {
		how = "populated"
	}
	if how != "" {
		runtime.GC()
	}
	return how
}

// hugePageSize is the size of the transparent huge pages the kernel gives
// this process on request, 0 where it gives none: "always" or "madvise"
// (not "never", nor a kernel built without them), the process not kept
// off them (prctl PR_SET_THP_DISABLE, inherited from its parent), and Go's
// heap not kept off them (GODEBUG=disablethp). 2 MiB on x86-64; on arm64
// with 64 KiB pages, 512 MiB, more than a command allocates.
func hugePageSize() int {
	if v := godebug("disablethp"); v != "" && v != "0" {
		return 0
	}
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || bytes.Contains(b, []byte("[never]")) {
		return 0
	}
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(status)) {
			if v, ok := strings.CutPrefix(line, "THP_enabled:"); ok && strings.TrimSpace(v) == "0" {
				return 0
			}
		}
	}
	b, err = os.ReadFile("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
	if err != nil {
		return 0
	}
	size, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || size <= 0 || size&(size-1) != 0 {
		return 0
	}
	return size
}

// godebug is the last value GODEBUG gives the setting key, as the runtime
// reads it ("" where it gives none).
func godebug(key string) string {
	v := ""
	for _, kv := range strings.Split(os.Getenv("GODEBUG"), ",") {
		if k, val, ok := strings.Cut(kv, "="); ok && strings.TrimSpace(k) == key {
			v = val
		}
	}
	return v
}

// adviseHuge advises the middle of b that whole huge pages of size cover
// to take them.
func adviseHuge(b []byte, size int) bool {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	beg := (p + uintptr(size) - 1) &^ (uintptr(size) - 1)
	end := (p + uintptr(len(b))) &^ (uintptr(size) - 1)
	if beg >= end {
		return false
	}
	off := int(beg - p)
	return unix.Madvise(b[off:off+int(end-beg)], unix.MADV_HUGEPAGE) == nil
}
