package main

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// The memory prefault maps stays with the heap, free, for what the
// process allocates next. It is measured in a process of its own, whose
// heap is as fresh as a command's: in this one, the tests before have
// left memory free that prefault's allocation takes first.
func TestPrefault(t *testing.T) {
	if os.Getenv("HONE_TEST_PREFAULT") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPrefault$", "-test.v")
		cmd.Env = append(os.Environ(), "HONE_TEST_PREFAULT=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if strings.Contains(string(out), "--- SKIP") {
			t.Skipf("%s", out)
		}
		return
	}
	debug.SetGCPercent(-1)
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
	// The runtime's own allocations since may have taken a little of it.
	if got := free(after) - free(before); got < n*3/4 {
		t.Errorf("the heap kept %d more bytes free and mapped, want about %d", got, n)
	}
	if after.HeapAlloc > before.HeapAlloc+n/4 {
		t.Errorf("heap in use %d after, %d before: the memory was not freed", after.HeapAlloc, before.HeapAlloc)
	}
}
