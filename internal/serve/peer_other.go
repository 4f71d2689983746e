//go:build !linux

package serve

import "net"

// peerAllowed: elsewhere the socket's mode (the user's alone, in the
// user's folder) is the check.
func peerAllowed(net.Conn) error { return nil }
