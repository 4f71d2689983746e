//go:build unix

package main

import "syscall"

// detached makes a process outlive hone, in a session of its own, which
// the terminal's signals do not reach.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
