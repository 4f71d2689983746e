//go:build !cgo

package structure

// wantParser is what Parser must say in this build.
const wantParser = "line patterns"
