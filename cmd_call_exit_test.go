package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpterm/mcpterm/session/peers"
)

// TestCallLeavesNoServerProcess: once `mcpterm call` on the reference
// server has its answer, the command closes the server's stdin, gives it a
// short grace, ends it if it lingers, and returns with nothing of the
// server left running: its process and process group are gone.
func TestCallLeavesNoServerProcess(t *testing.T) {
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	// The shell becomes the server (exec), so its pid is the server's.
	wrapper := `echo $$ > "$0"; exec "$@"`
	code, out, errOut := sessCLI(t, nil, "", "call", `{"name":"echo","arguments":{"message":"hi"}}`,
		"--", "sh", "-c", wrapper, pidFile, p.Node, p.Entry, "stdio")
	if code != exitOK || !strings.Contains(out, "hi") {
		t.Fatalf("call: exit %d %s %s", code, out, errOut)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("pid file %q: %v", b, err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the server %d is still there after the call returned: kill(0) = %v", pid, err)
	}
	if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the server's process group %d is still there: %v", pid, err)
	}
}
