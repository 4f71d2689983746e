//go:build !unix

package structure

import "time"

// cpuTime: the process's CPU time is read on Unix only; elsewhere the
// benchmark reports no cpu-s/op.
func cpuTime() (d time.Duration, ok bool) { return 0, false }
