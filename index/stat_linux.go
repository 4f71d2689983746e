package index

import (
	"io/fs"
	"syscall"
	"time"
)

// inodeOf returns a file's inode number and status change time, as the
// walk reads them.
func inodeOf(fi fs.FileInfo) (uint64, time.Time) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, time.Time{}
	}
	return st.Ino, time.Unix(st.Ctim.Unix())
}
