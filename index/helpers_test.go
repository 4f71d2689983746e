package index

import (
	"context"
	"fmt"
	"strconv"
)

func fmtInt(n int) string   { return strconv.Itoa(n) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', 12, 64) }
func pathN(i int) string    { return fmt.Sprintf("pkg%d/file%d.go", i%7, i) }
func bodyN(i int, extra string) string {
	return fmt.Sprintf("package pkg%d\n\n// File%d handles %s.\nfunc File%d() string { return %q }\n", i%7, i, extra, i, extra)
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

// related is RelatedAll for one stem.
func related(ix *Index, stem string, k int) []Neighbor {
	return ix.RelatedAll([]string{stem}, k)[stem]
}
