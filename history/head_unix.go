//go:build unix

package history

import (
	"os"
	"syscall"
)

// sameOwnerAndDevice reports whether the folders are the user's own (git
// refuses a repository of another's, safe.directory aside) and on root's
// file system (git looks no further, GIT_DISCOVERY_ACROSS_FILESYSTEM
// aside).
func sameOwnerAndDevice(root string, dirs ...string) bool {
	var st syscall.Stat_t
	if syscall.Stat(root, &st) != nil {
		return false
	}
	dev, uid := st.Dev, uint32(os.Geteuid())
	for i, d := range dirs {
		if syscall.Stat(d, &st) != nil || st.Uid != uid || i == 0 && st.Dev != dev {
			return false
		}
	}
	return true
}
