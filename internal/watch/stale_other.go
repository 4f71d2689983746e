//go:build !linux

package watch

// sweepStale has nothing to sweep where no watcher runs.
func sweepStale(tmp string) {}
