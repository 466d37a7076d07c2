//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The signals suite: Ctrl-C and SIGTERM on a call in flight, a server
// that will not go, and the exit codes of a handshake that never ends and
// an answer that is not MCP. Every wait is on an event — a line the
// server writes to a FIFO, mcpterm's exit — bounded only to catch a hang.

// notesFIFO makes a FIFO the scenario writes its notes to and returns its
// path and the lines as they come. The test holds it open for reading and
// writing, so the server's open never blocks and a server that dies does
// not end the stream.
func notesFIFO(t *testing.T) (string, <-chan string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notes")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	t.Cleanup(func() { f.Close() })
	return path, lines
}

// await returns the first note starting with prefix, failing the test on
// a hang.
func await(t *testing.T, lines <-chan string, prefix string) string {
	t.Helper()
	timeout := time.After(hangLimit)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("notes ended before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			t.Fatalf("no note %q within %v", prefix, hangLimit)
		}
	}
}

// records reads a JSON-lines file and returns its lines holding want.
func records(t *testing.T, path, want string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, want) {
			out = append(out, l)
		}
	}
	return out
}

// interruptCall runs a call against scenario, waits until the server has
// the call, sends sig and returns how mcpterm ended, the notes channel
// (for what the server saw next), the state directory and the audit file.
func interruptCall(t *testing.T, scenario string, sig os.Signal, before func(<-chan string)) (procResult, <-chan string, string, string) {
	t.Helper()
	fifo, lines := notesFIFO(t)
	state, audit := t.TempDir(), filepath.Join(t.TempDir(), "audit.jsonl")
	args := append([]string{"call", "--yes", "--audit", audit, "-e", `(wait :q "x")`, "--"}, hostileServer(t, scenario+"@"+fifo)...)
	p := startMcpterm(t, []string{"XDG_STATE_HOME=" + state}, args...)
	if before != nil {
		before(lines)
	}
	await(t, lines, "call started")
	sent := time.Now()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	r := p.wait(t, hangLimit)
	t.Logf("%s: mcpterm ended %v after %v", scenario, time.Since(sent).Round(time.Millisecond), sig)
	return r, lines, state, audit
}

// Ctrl-C on a call in flight: the server is told to cancel it, the call is
// answered as cancelled on stdout and recorded in the history and the
// audit log, one line says so, and mcpterm exits 130.
func TestHostileSignalsInterruptCall(t *testing.T) {
	t.Parallel() // each runs its own processes
	r, lines, state, audit := interruptCall(t, "signals/slow-call", os.Interrupt, nil)
	if r.Code != exitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", r.Code, exitInterrupted, r.Stderr)
	}
	if got := strings.TrimSpace(r.Stderr); got != "mcpterm call: interrupted: cancelled 1 call in flight" {
		t.Errorf("stderr %q, want the one line", r.Stderr)
	}
	if !strings.Contains(r.Stdout, "(err") || !strings.Contains(r.Stdout, "cancel") {
		t.Errorf("stdout %q: want the call's (err ...) saying it was cancelled", r.Stdout)
	}
	// mcpterm waits for the notification to be written before it closes
	// the server's stdin, so it is there already.
	if l := await(t, lines, "cancelled"); l == "cancelled null" || l == "cancelled " {
		t.Errorf("notifications/cancelled without the request id: %q", l)
	}
	if got := records(t, filepath.Join(state, "mcpterm", "history.jsonl"), `"outcome":"cancelled"`); len(got) != 1 {
		t.Errorf("history: %d cancelled entries, want 1", len(got))
	}
	if got := records(t, audit, `"outcome":"cancelled"`); len(got) != 1 {
		t.Errorf("audit: %d cancelled lines, want 1", len(got))
	}
}

// SIGTERM works as Ctrl-C, with exit 143; under --output json the line is
// a JSON error of kind "interrupted".
func TestHostileSignalsTerminateCallJSON(t *testing.T) {
	t.Parallel() // each runs its own processes
	fifo, lines := notesFIFO(t)
	args := append([]string{"call", "--yes", "--output", "json", "-e", `(wait)`, "--"}, hostileServer(t, "signals/slow-call@"+fifo)...)
	p := startMcpterm(t, nil, args...)
	await(t, lines, "call started")
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := p.wait(t, hangLimit)
	if r.Code != exitTerminated {
		t.Fatalf("exit %d, want %d; stderr %q", r.Code, exitTerminated, r.Stderr)
	}
	want := `{"error":{"kind":"interrupted","message":"interrupted: cancelled 1 call in flight","exit":143}}`
	if strings.TrimSpace(r.Stderr) != want {
		t.Errorf("stderr %q, want %s", r.Stderr, want)
	}
	await(t, lines, "cancelled")
}

// A server that ignores its closed stdin and SIGTERM, and has a child
// that does too: after SIGTERM mcpterm still cancels the call, exits 143,
// and leaves nothing of the server's process group behind.
func TestHostileSignalsServerIgnoresEOF(t *testing.T) {
	t.Parallel() // each runs its own processes
	becomeSubreaper(t)
	var server, child int
	r, lines, _, _ := interruptCall(t, "signals/ignore-eof", syscall.SIGTERM, func(lines <-chan string) {
		if _, err := fmt.Sscanf(await(t, lines, "pids "), "pids %d %d", &server, &child); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = syscall.Kill(-server, syscall.SIGKILL)
			_ = syscall.Kill(child, syscall.SIGKILL)
		})
	})
	if r.Code != exitTerminated {
		t.Fatalf("exit %d, want %d; stderr %q", r.Code, exitTerminated, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "interrupted: cancelled 1 call in flight") {
		t.Errorf("stderr %q", r.Stderr)
	}
	await(t, lines, "cancelled")
	// The child was orphaned when the server died and is this process's
	// now (becomeSubreaper): it must have been killed.
	if ws := reap(t, child); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("the server's child ended with %v, want killed by SIGKILL", ws)
	}
	if err := syscall.Kill(-server, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill(-%d, 0) = %v: the server's process group is still there", server, err)
	}
	if err := syscall.Kill(server, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the server %d is still there: %v", server, err)
	}
}

// A server that exits when its stdin closes but leaves a child behind
// (one that ignores SIGTERM): closing the server ends the child too.
func TestHostileSignalsOrphanedChild(t *testing.T) {
	t.Parallel() // each runs its own processes
	becomeSubreaper(t)
	fifo, lines := notesFIFO(t)
	p := startMcpterm(t, nil, append([]string{"tools", "--"}, hostileServer(t, "signals/orphan@"+fifo)...)...)
	var server, child int
	if _, err := fmt.Sscanf(await(t, lines, "pids "), "pids %d %d", &server, &child); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) })
	if r := p.wait(t, hangLimit); r.Code != exitOK || !strings.Contains(r.Stdout, "wait") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if ws := reap(t, child); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("the orphaned child ended with %v, want killed by SIGKILL (it ignores SIGTERM)", ws)
	}
	if err := syscall.Kill(-server, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill(-%d, 0) = %v: the server's process group is still there", server, err)
	}
}

// becomeSubreaper makes this test process adopt orphaned descendants, so
// a test can reap (and so see the end of) a server's child whatever the
// machine's init does with zombies.
func becomeSubreaper(t *testing.T) {
	t.Helper()
	const prSetChildSubreaper = 36
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		t.Skipf("prctl(PR_SET_CHILD_SUBREAPER): %v", e)
	}
}

// reap waits for pid, this process's child, to end (bounded by hangLimit).
func reap(t *testing.T, pid int) syscall.WaitStatus {
	t.Helper()
	type result struct {
		ws  syscall.WaitStatus
		err error
	}
	done := make(chan result, 1)
	go func() {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		done <- result{ws, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("wait4(%d): %v", pid, r.err)
		}
		return r.ws
	case <-time.After(hangLimit):
		t.Fatalf("process %d still running after %v", pid, hangLimit)
	}
	return 0
}

// Exit codes, per command: 0 and 1 from a server that behaves, 2 for a
// call it cannot take, and for the failures a server causes: a handshake
// that never ends is a timeout (4), an answer that is not MCP a
// connection failure (3), never a tool error (1). 130 and 143 are the
// tests above.
func TestHostileSignalsExitCodes(t *testing.T) {
	t.Parallel() // each runs its own processes
	for _, tc := range []struct {
		scenario string
		args     []string
		code     int
		stderr   string
	}{
		{"signals/answers", []string{"tools"}, exitOK, ""},
		{"signals/answers", []string{"call", "--yes", "-e", `(echo :q "hi")`}, exitOK, ""},
		{"signals/answers", []string{"call", "--yes", "-e", `(echo :q "fail")`}, exitToolError, ""},
		{"signals/answers", []string{"call", "--yes", "--output", "json", "-e", `(echo :q "fail")`}, exitToolError, `"kind":"tool"`},
		{"signals/answers", []string{"call", "-e", `(nope)`}, exitUsage, "unknown tool"},
		{"signals/answers", []string{"call", "-e", `(echo :q "x")`}, exitUsage, "refused"},
		{"signals/answers", []string{"tools", "--format", "nope"}, exitUsage, "nope"},
		{"signals/silent-init", []string{"tools", "--timeout", "1s"}, exitTimeout, "timed out"},
		{"signals/silent-init", []string{"call", "--timeout", "1s", "-e", "(echo)"}, exitTimeout, "timed out"},
		{"signals/silent-init", []string{"resources", "--timeout", "1s"}, exitTimeout, "timed out"},
		{"signals/silent-init", []string{"prompts", "--timeout", "1s"}, exitTimeout, "timed out"},
		{"signals/silent-init", []string{"tokens", "--timeout", "1s"}, exitTimeout, "timed out"},
		{"signals/silent-init", []string{"convert", "--timeout", "1s"}, exitTimeout, "timed out"},
		{"signals/silent-init", []string{"serve", "--timeout", "1s"}, exitTimeout, "timed out"},
		{"signals/silent-init", []string{"tools", "--timeout", "1s", "--format", "json"}, exitTimeout, `"kind":"timeout"`},
		{"signals/malformed-answer", []string{"call", "--yes", "-e", `(echo :q "x")`}, exitConnect, ""},
		{"signals/malformed-answer", []string{"call", "--yes", "--output", "json", "-e", `(echo :q "x")`}, exitConnect, `"kind":"connection"`},
		{"signals/malformed-list", []string{"tools"}, exitConnect, "tools/list"},
		{"signals/malformed-list", []string{"call", "-e", "(echo)"}, exitConnect, "tools/list"},
		{"signals/malformed-list", []string{"tokens"}, exitConnect, "tools/list"},
		{"signals/malformed-list", []string{"convert"}, exitConnect, "tools/list"},
		{"signals/malformed-list", []string{"tools", "--format", "json"}, exitConnect, `"kind":"connection"`},
	} {
		t.Run(tc.scenario+" "+strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			args := append(append(tc.args, "--"), hostileServer(t, tc.scenario)...)
			r := runMcpterm(t, hangLimit, nil, args...)
			if r.Code != tc.code || !strings.Contains(r.Stderr, tc.stderr) {
				t.Fatalf("exit %d, want %d; stderr %q (want %q); stdout %q", r.Code, tc.code, r.Stderr, tc.stderr, r.Stdout)
			}
		})
	}
}

// A second signal exits at once: here while mcpterm waits for a server
// that ignores its closed stdin (the note "stdin closed" says it is in
// that wait, which lasts two grace periods before the group is killed),
// so the exit is the second signal's, 130, not the first's, 143. The
// server is left to the test's cleanup: that is the price of "at once".
func TestHostileSignalsSecondSignalExitsAtOnce(t *testing.T) {
	t.Parallel() // each runs its own processes
	var server, child int
	fifo, lines := notesFIFO(t)
	args := append([]string{"call", "--yes", "-e", `(wait)`, "--"}, hostileServer(t, "signals/ignore-eof@"+fifo)...)
	p := startMcpterm(t, nil, args...)
	if _, err := fmt.Sscanf(await(t, lines, "pids "), "pids %d %d", &server, &child); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-server, syscall.SIGKILL)
		_ = syscall.Kill(child, syscall.SIGKILL)
	})
	await(t, lines, "call started")
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	await(t, lines, "stdin closed")
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	r := p.wait(t, hangLimit)
	if r.Code != exitInterrupted || !strings.Contains(r.Stderr, "mcpterm: SIGINT again: exiting at once") {
		t.Fatalf("exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// serve stops on SIGTERM as a service does: the upstream call in flight is
// cancelled (the server hears notifications/cancelled), the gateway and
// the server are closed, and the exit is 0. Its stdin stays open, so it is
// the signal that ends it, not EOF.
func TestHostileSignalsServeShutsDown(t *testing.T) {
	t.Parallel() // each runs its own processes
	fifo, lines := notesFIFO(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{mainArg, "serve", "--yes", "--"}, hostileServer(t, "signals/slow-call@"+fifo)...)...)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mcp_term","arguments":{"expr":"(wait)"}}}`,
	} {
		if _, err := io.WriteString(stdin, m+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	await(t, lines, "call started")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	await(t, lines, "cancelled")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve ended with %v; stderr %q", err, stderr.String())
		}
	case <-time.After(hangLimit):
		t.Fatalf("serve did not stop within %v; stderr %q", hangLimit, stderr.String())
	}
	stdin.Close()
}
