package index

import (
	"fmt"
	"strconv"
)

func fmtInt(n int) string   { return strconv.Itoa(n) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', 12, 64) }
func pathN(i int) string    { return fmt.Sprintf("pkg%d/file%d.go", i%7, i) }
func bodyN(i int, extra string) string {
	return fmt.Sprintf("package pkg%d\n\n// File%d handles %s.\nfunc File%d() string { return %q }\n", i%7, i, extra, i, extra)
}
