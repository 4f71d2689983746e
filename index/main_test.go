package index

import (
	"testing"

	"github.com/hone-tools/hone/internal/testenv"
)

// TestMain keeps the developer's git configuration out of the tests (an
// excludes file would decide which files a walk finds).
func TestMain(m *testing.M) {
	testenv.Main(m, "")
}
