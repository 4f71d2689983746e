//go:build !linux

package main

// prefault maps pages ahead on Linux alone (prefault_linux.go).
func prefault(int) {}
