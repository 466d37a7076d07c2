//go:build !unix

package history

import "os"

// lockFile is a no-op where flock is not available; writers in one process
// still serialise on the Lines mutex.
func lockFile(*os.File) func() { return func() {} }
