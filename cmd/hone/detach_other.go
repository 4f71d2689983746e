//go:build !unix

package main

import "syscall"

// detached is nil where hone does not start processes that outlive it:
// the history is read in the process.
func detached() *syscall.SysProcAttr { return nil }
