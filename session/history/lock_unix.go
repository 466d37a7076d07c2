//go:build unix

package history

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, so that the torn-line check
// and the append of one writer cannot interleave with another's — another
// handle in this process or another mcpterm process sharing the file.
func lockFile(f *os.File) func() {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return func() {}
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
}
