package watch

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// oldCookieAge is how long a cookie folder of an older build's naming,
// which does not say its process, must be untouched to be swept.
const oldCookieAge = 24 * time.Hour

// sweepStale removes the cookie folders, in tmp, of watchers whose
// process has gone without closing them (a kill): each would stay there
// for good. A folder of a process still running, of another user, or of a
// name no build made is left alone; one of an older build's naming, with
// no process in it, is swept when untouched for a day.
func sweepStale(tmp string) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), cookiePrefix)
		if !ok || !e.IsDir() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		if !ok {
			// A folder of a build before names held the process
			// (hone-watch-NNN): gone when untouched for a day, for a
			// watcher writes a cookie in its folder at every check.
			if _, err := strconv.ParseUint(rest, 10, 64); err == nil && time.Since(fi.ModTime()) > oldCookieAge {
				os.RemoveAll(filepath.Join(tmp, e.Name()))
			}
			continue
		}
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			continue // running (or another user's: EPERM)
		}
		os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}
