//go:build unix

package session

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that closing the
// server can signal everything it started (a wrapper script's node, a
// child it forked) and not only the process mcpterm knows, and so that a
// Ctrl-C at the terminal reaches mcpterm alone: mcpterm then cancels the
// calls in flight and shuts the server down itself, in order.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// signalGroup sends sig to p's process group (whose id is p's pid, see
// ownGroup); if the group is gone it tries p itself.
func signalGroup(p *os.Process, sig syscall.Signal) {
	if err := syscall.Kill(-p.Pid, sig); errors.Is(err, syscall.ESRCH) {
		_ = p.Signal(sig)
	}
}

// groupAlive reports whether any process is left in the group pgid.
// Processes that are not ours to signal (EPERM) are not waited for.
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

// killGroup sends sig to every process in the group pgid.
func killGroup(pgid int, sig syscall.Signal) error { return syscall.Kill(-pgid, sig) }
