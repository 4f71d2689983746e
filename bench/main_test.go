package bench

import (
	"path/filepath"
	"testing"

	"github.com/hone-tools/hone/internal/testenv"
)

// TestMain keeps the developer's git configuration out of the tests (an
// excludes file would decide which files a walk finds), and cuts the
// fixtures off from the repository holding them.
func TestMain(m *testing.M) {
	testenv.Main(m, filepath.Join("..", "testdata", "repos"))
}
