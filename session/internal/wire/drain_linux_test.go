package wire

import (
	"context"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
)

// TestUnreadCountsWhatTheReaderHasNotTaken: on a pipe and on a stream
// socketpair (what node gives a child's stdio) the drain's probe sees the
// bytes written and not yet read, and none once they are read; on a file
// there is no probe, so answers never wait.
func TestUnreadCountsWhatTheReaderHasNotTaken(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	sw, sr := os.NewFile(uintptr(fds[0]), "w"), os.NewFile(uintptr(fds[1]), "r")
	defer sw.Close()
	defer sr.Close()
	for _, c := range []struct {
		name string
		w    *os.File
		r    io.Reader
	}{{"pipe", pw, pr}, {"socketpair", sw, sr}} {
		t.Run(c.name, func(t *testing.T) {
			rc, err := c.w.SyscallConn()
			if err != nil {
				t.Fatal(err)
			}
			unread := unreadFunc(rc)
			if unread == nil {
				t.Fatal("no probe")
			}
			if n, ok := unread(); !ok || n != 0 {
				t.Fatalf("before writing: %d, %v", n, ok)
			}
			msg := []byte(`{"jsonrpc":"2.0","method":"notifications/progress"}` + "\n")
			if _, err := c.w.Write(msg); err != nil {
				t.Fatal(err)
			}
			if n, ok := unread(); !ok || n == 0 {
				t.Fatalf("after writing %d bytes: %d unread, %v", len(msg), n, ok)
			}
			if _, err := io.ReadFull(c.r, make([]byte, len(msg))); err != nil {
				t.Fatal(err)
			}
			if n, ok := unread(); !ok || n != 0 {
				t.Fatalf("after reading: %d unread, %v", n, ok)
			}
			// Nobody reads this one: the wait ends with its context.
			if _, err := c.w.Write(msg); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			drainer(c.w)(ctx)
			io.ReadFull(c.r, make([]byte, len(msg)))
		})
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if drainer(f) != nil {
		t.Error("a file has a drain")
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if drainer(a) != nil {
		t.Error("an in-memory pipe has a drain")
	}
}
