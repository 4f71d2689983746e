// Package testenv prepares the environment that hone's tests run in, and
// what they run: the fixture repositories cut off from the repository
// that holds them, and the developer's own git configuration kept out.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Setup sets the environment of the test process. repos, when not "", is
// the folder of fixture repositories: git looks for no repository above
// it (GIT_CEILING_DIRECTORIES), so that a fixture has no history,
// whatever commit of hone is checked out. The git configuration of the
// system and the user is read from nowhere (GIT_CONFIG_NOSYSTEM,
// GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME), so that a developer's excludes file
// (core.excludesFile, ~/.config/git/ignore) decides nothing of what the
// walk of a fixture finds. HOME stays, for the go command's caches.
func Setup(repos string) {
	if repos != "" {
		if abs, err := filepath.Abs(repos); err == nil {
			os.Setenv("GIT_CEILING_DIRECTORIES", abs)
		}
	}
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	// A folder that cannot exist: a path through the null device.
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(os.DevNull, "no-config"))
}

// Main is a package's TestMain: Setup, then the tests, exiting with their
// status.
func Main(m *testing.M, repos string) {
	Setup(repos)
	os.Exit(m.Run())
}
