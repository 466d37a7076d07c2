//go:build !unix

package session

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup does nothing where there are no process groups: Close reaches
// the server process alone.
func ownGroup(*exec.Cmd) {}

// signalGroup signals p alone; a signal the system cannot send is a kill.
func signalGroup(p *os.Process, sig syscall.Signal) {
	if sig == syscall.SIGKILL || p.Signal(sig) != nil {
		_ = p.Kill()
	}
}

// groupAlive is false: there is no group to wait for.
func groupAlive(int) bool { return false }

// killGroup does nothing: there is no group.
func killGroup(int, syscall.Signal) error { return nil }
