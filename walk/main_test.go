package walk

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the user's git configuration out of the walk's tests: a
// global excludes file of the developer's (core.excludesFile) would
// otherwise decide the fixtures' files. Tests that want one write it
// under their own HOME.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "hone-walk-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("HOME", home)
	os.Setenv("XDG_CONFIG_HOME", home)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Unsetenv("GIT_CONFIG_GLOBAL")
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}
