package index

import (
	"context"
	"fmt"
	"strconv"
	"testing"
)

func fmtInt(n int) string   { return strconv.Itoa(n) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', 12, 64) }
func pathN(i int) string    { return fmt.Sprintf("pkg%d/file%d.go", i%7, i) }
func bodyN(i int, extra string) string {
	return fmt.Sprintf("package pkg%d\n\n// File%d handles %s.\nfunc File%d() string { return %q }\n", i%7, i, extra, i, extra)
}

// writeGenerated writes n generated Go files (pathN, bodyN) that each
// mention extra into dir.
func writeGenerated(t testing.TB, dir string, n int, extra string) {
	t.Helper()
	files := make(map[string]string, n)
	for i := range n {
		files[pathN(i)] = bodyN(i, extra)
	}
	writeTree(t, dir, files)
}

// buildAt opens the index of root and brings it up to date.
func buildAt(ctx context.Context, root string, opts Options) (*Index, error) {
	ix, err := Open(ctx, root, opts)
	if err != nil {
		return nil, err
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// throttleTree is four files that define throttle_rate, beside others
// enough that a build flushes the thesaurus's pairs into the table.
func throttleTree() map[string]string {
	files := map[string]string{}
	for i := range 4 {
		files[fmt.Sprintf("svc/api%d.py", i)] = "def throttle_rate(value):\n    return value\n"
	}
	for i := range flushAt + 20 {
		files[fmt.Sprintf("other/f%d.py", i)] = fmt.Sprintf("def handler%d(value):\n    return value\n", i)
	}
	return files
}

// buildUnlocked indexes root into dir as another process that takes no
// update lock does (an older build, or a rebuild), and closes it.
func buildUnlocked(t *testing.T, ctx context.Context, root, dir string) {
	t.Helper()
	testHookNoUpdateLock = true
	defer func() { testHookNoUpdateLock = false }()
	other, err := buildAt(ctx, root, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
}

// mustBuild writes files into repo and builds its index in a folder of
// the test's, closed when the test ends.
func mustBuild(t *testing.T, repo string, files map[string]string) *Index {
	t.Helper()
	writeTree(t, repo, files)
	ix, err := buildAt(context.Background(), repo, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// related is RelatedAll for one stem.
func related(ix *Index, stem string, k int) []Neighbor {
	return ix.RelatedAll([]string{stem}, k)[stem]
}
