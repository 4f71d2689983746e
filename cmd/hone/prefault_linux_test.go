package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// The memory prefault maps stays with the heap, free, for what the
// process allocates next.
func TestPrefault(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 16 << 20
	prefault(n)
	runtime.ReadMemStats(&after)
	if after.NumGC == before.NumGC {
		t.Skip("the kernel maps no pages ahead (MADV_POPULATE_WRITE came with Linux 5.14)")
	}
	free := func(m runtime.MemStats) int64 { return int64(m.HeapIdle) - int64(m.HeapReleased) }
	// Other goroutines of the test binary may have taken some of it.
	if got := free(after) - free(before); got < n/2 {
		t.Errorf("the heap kept %d more bytes free and mapped, want about %d", got, n)
	}
	if after.HeapAlloc > before.HeapAlloc+n/4 {
		t.Errorf("heap in use %d after, %d before: the memory was not freed", after.HeapAlloc, before.HeapAlloc)
	}
}
