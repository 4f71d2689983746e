package index

import (
	"context"
	"fmt"
	"testing"
)

// A build that flushes a segment while it runs leaves no delta behind,
// however its batches fell in time: the thesaurus's associations read the
// segments' counts, and a delta left after the flush would make them
// depend on where it fell.
func TestLargeBuildLeavesNoDelta(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes over segmentFiles files")
	}
	repo := t.TempDir()
	files := map[string]string{}
	// Batches of commitFiles: the flush comes at the first batch past
	// segmentFiles, and a few files are left after it.
	n := (segmentFiles/commitFiles+1)*commitFiles + 4
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("pkg%d/f%d.py", i%40, i)] = fmt.Sprintf("def throttle_rate%d(value):\n    return value\n", i)
	}
	writeTree(t, repo, files)
	ctx := context.Background()
	ix, err := buildAt(ctx, repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != n || st.Delta != 0 {
		t.Errorf("a build of %d files: %d indexed, %d left in the delta; want all indexed, none in the delta", n, st.Files, st.Delta)
	}
}
