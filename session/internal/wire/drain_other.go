//go:build !linux

package wire

import "syscall"

// unreadFunc cannot ask this platform how much of a stream is unread, so
// answers go out without waiting for the client to read their progress.
func unreadFunc(syscall.RawConn) func() (int, bool) { return nil }
