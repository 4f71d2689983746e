// Package lazyre holds regular expressions compiled when first used, not
// when a package starts: every hone process runs every package's start-up,
// and most need few of the patterns. Compiling them all at start-up cost
// each process about 25 ms.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns expr compiled on its first call, once; a bad expr panics
// there, as regexp.MustCompile does.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
