package wire

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// unreadFunc reports the bytes written to rc that its reader has not yet
// consumed: FIONREAD on a pipe (either end sees the pipe's buffer), the
// send queue (SIOCOUTQ) on a stream socket, where the kernel charges a
// written buffer to the writer until the reader has taken it. Node gives a
// child's stdio socketpairs, a shell pipes. Other kinds (files, terminals)
// have nobody to wait for: nil.
func unreadFunc(rc syscall.RawConn) func() (int, bool) {
	var req uint
	var ctlErr error
	err := rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		if ctlErr = unix.Fstat(int(fd), &st); ctlErr != nil {
			return
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFIFO:
			req = unix.TIOCINQ // FIONREAD
		case unix.S_IFSOCK:
			if typ, err := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TYPE); err == nil && typ == unix.SOCK_STREAM {
				req = unix.SIOCOUTQ
			}
		}
	})
	if err != nil || ctlErr != nil || req == 0 {
		return nil
	}
	return func() (int, bool) {
		n, ok := 0, false
		err := rc.Control(func(fd uintptr) {
			v, err := unix.IoctlGetInt(int(fd), req)
			n, ok = v, err == nil
		})
		return n, ok && err == nil
	}
}
