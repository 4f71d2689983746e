//go:build !unix

package history

// lockFile takes no lock where the system has no advisory locks: two
// processes may then read the same history from git, each whole.
func lockFile(p string, wait bool) (unlock func(), waited bool, err error) {
	return func() {}, false, nil
}
