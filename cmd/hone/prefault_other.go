//go:build !linux

package main

// prefault readies memory ahead on Linux alone (prefault_linux.go).
func prefault(huge, populate int) string { return "" }
