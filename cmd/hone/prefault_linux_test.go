package main

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// The memory prefault readies stays with the heap, free, for what the
// process allocates next; advised for huge pages, the heap's mappings say
// so; the collector's setting is as it was. It is measured in a process
// of its own, whose heap is as fresh as a command's (in this one, the
// tests before have left memory free that prefault's allocation takes
// first), and whose collector has no GOGC or GOMEMLIMIT of the caller's.
func TestPrefault(t *testing.T) {
	for _, way := range []string{"huge", "populated"} {
		t.Run(way, func(t *testing.T) {
			if os.Getenv("HONE_TEST_PREFAULT") == "" {
				cmd := exec.Command(os.Args[0], "-test.run=^TestPrefault$/^"+way+"$", "-test.v")
				for _, kv := range os.Environ() {
					if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
						cmd.Env = append(cmd.Env, kv)
					}
				}
				cmd.Env = append(cmd.Env, "HONE_TEST_PREFAULT=1")
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
			debug.SetGCPercent(1000)
			var before, after runtime.MemStats
			var advisedBefore int64
			if way == "huge" {
				// The runtime advises some of its own metadata so.
				advisedBefore = hugeAdvised(t)
			}
			runtime.ReadMemStats(&before)
			const n = 16 << 20
			var got string
			if way == "huge" {
				got = prefault(n, 0)
			} else {
				got = prefault(0, n)
			}
			runtime.ReadMemStats(&after)
			if gc := debug.SetGCPercent(1000); gc != 1000 {
				t.Errorf("the collector's percentage is %d after prefault, want 1000 as before", gc)
			}
			switch {
			case got == "" && way == "huge":
				t.Skip("the kernel gives this process no huge pages on request")
			case got == "":
				t.Skip("the kernel maps no pages ahead (MADV_POPULATE_WRITE came with Linux 5.14)")
			case got != way:
				t.Fatalf("prefault readied the memory %q, want %q", got, way)
			case after.NumGC == before.NumGC:
				t.Fatalf("prefault readied the memory %q and did not free it", got)
			}
			free := func(m runtime.MemStats) int64 { return int64(m.HeapIdle) - int64(m.HeapReleased) }
			// The runtime's own allocations since may have taken a little of it.
			if got := free(after) - free(before); got < n*3/4 {
				t.Errorf("the heap kept %d more bytes free and mapped, want about %d", got, n)
			}
			if after.HeapAlloc > before.HeapAlloc+n/4 {
				t.Errorf("heap in use %d after, %d before: the memory was not freed", after.HeapAlloc, before.HeapAlloc)
			}
			if way == "huge" {
				// All but the two partial huge pages at its ends.
				size := int64(hugePageSize())
				if advised := hugeAdvised(t) - advisedBefore; advised < n-2*size {
					t.Errorf("mappings advised to take huge pages: %d more bytes, want at least %d", advised, n-2*size)
				}
			}
		})
	}
}

// hugeAdvised is how many bytes of the process's mappings are advised to
// take huge pages ("hg" among their VmFlags in /proc/self/smaps). The test
// is skipped where the mappings cannot be read, or do not say.
func hugeAdvised(t *testing.T) int64 {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no mappings to read: %v", err)
	}
	defer f.Close()
	var total, size int64
	flagged := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 3 && fields[0] == "Size:":
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			size = kb << 10
		case len(fields) > 0 && fields[0] == "VmFlags:":
			flagged = true
			for _, fl := range fields[1:] {
				if fl == "hg" {
					total += size
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !flagged {
		t.Skip("the mappings say nothing of their flags (/proc/self/smaps has no VmFlags)")
	}
	return total
}

// godebug reads GODEBUG's settings as the runtime does: the last value
// of a key counts.
func TestGodebug(t *testing.T) {
	for _, c := range []struct{ env, want string }{
		{"", ""},
		{"disablethp=1", "1"},
		{"gctrace=1,disablethp=1", "1"},
		{"disablethp=1,disablethp=0", "0"},
		{"madvdontneed=1", ""},
		{"xdisablethp=1", ""},
	} {
		t.Setenv("GODEBUG", c.env)
		if got := godebug("disablethp"); got != c.want {
			t.Errorf("GODEBUG=%q: disablethp %q, want %q", c.env, got, c.want)
		}
	}
}

// Under a memory limit too low to hold it, nothing is readied: the
// collector would hand the memory back at once.
func TestPrefaultUnderLowLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(8 << 20))
	for _, c := range [][2]int{{16 << 20, 0}, {0, 16 << 20}, {64 << 20, 32 << 20}} {
		if got := prefault(c[0], c[1]); got != "" {
			t.Errorf("prefault(%d, %d) under an 8 MiB limit: %q, want nothing done", c[0], c[1], got)
		}
	}
}
