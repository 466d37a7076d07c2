package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpterm/mcpterm/session/hostile"
)

// The hostile-server suite (hostile_*_test.go) runs mcpterm as its own
// process against session/hostile's scripted servers. The test
// binary is both: "hostile-server SCENARIO" serves a scenario on
// stdin/stdout, and "mcpterm-main ARGS..." runs mcpterm's main. Both are
// chosen by argument, not environment, so they work whatever environment
// mcpterm passes to the servers it starts.
const (
	hostileArg = "hostile-server"
	mainArg    = "mcpterm-main"
	// peakEnv names the file an mcpterm process writes its peak RSS to as
	// it exits (see writePeakRSS).
	peakEnv = "MCPTERM_TEST_PEAK_FILE"
)

// hangLimit is how long any mcpterm run of the suite may take before it
// counts as a hang; nothing should come near it.
const hangLimit = 90 * time.Second

// writePeakRSS writes this process's peak resident set (VmHWM, in kB) to
// file. The rusage a parent reads is no good for this: os/exec starts
// children with vfork, and Linux then counts the parent's peak as the
// child's starting maxrss, so every child would seem at least as big as the
// test binary that started it. VmHWM belongs to the address space exec made.
func writePeakRSS(file string) {
	if file == "" {
		return
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			_ = os.WriteFile(file, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o600)
			return
		}
	}
}

func TestMain(m *testing.M) {
	if len(os.Args) >= 3 && os.Args[1] == hostileArg {
		if err := hostile.Serve(os.Args[2], os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(9)
		}
		os.Exit(0)
	}
	if len(os.Args) >= 2 && os.Args[1] == mainArg {
		os.Args = append([]string{"mcpterm"}, os.Args[2:]...)
		code := processCLI().run(os.Args[1:])
		writePeakRSS(os.Getenv(peakEnv))
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// hostileServer is the command line (for after "--") that runs scenario as
// a stdio server.
func hostileServer(t testing.TB, scenario string) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, hostileArg, scenario}
}

// procResult is how one mcpterm process ended.
type procResult struct {
	Code           int
	Stdout, Stderr string
	MaxRSS         int64 // peak resident set, bytes (of mcpterm alone where /proc tells, else rusage's)
	Elapsed        time.Duration
}

// proc is an mcpterm process started by startMcpterm.
type proc struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	start          time.Time
	peakFile       string
}

// startMcpterm starts mcpterm as its own process with args, in a state
// directory of its own (XDG_STATE_HOME) and the given extra environment.
func startMcpterm(t testing.TB, env []string, args ...string) *proc {
	t.Helper()
	cmd, peak := mcptermCommand(t, args...)
	p := &proc{cmd: cmd, peakFile: peak}
	p.cmd.Env = append(append(p.cmd.Env, "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1"), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	p.start = time.Now()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill() })
	return p
}

// wait waits for the process (killing it after limit, which fails the
// test) and reports how it ended.
func (p *proc) wait(t testing.TB, limit time.Duration) procResult {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		_ = p.cmd.Process.Kill()
		<-done
		t.Fatalf("mcpterm %v did not end within %v\nstderr: %s", p.cmd.Args[2:], limit, p.stderr.String())
	}
	r := procResult{Stdout: p.stdout.String(), Stderr: p.stderr.String(), Elapsed: time.Since(p.start)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.Code = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	r.MaxRSS = peakRSS(p.cmd, p.peakFile)
	return r
}

// mcptermCommand is the command that runs mcpterm with args as its own
// process, with this environment plus where to write its peak RSS (the
// file returned, for peakRSS). Callers add to its Env and Dir.
func mcptermCommand(t testing.TB, args ...string) (*exec.Cmd, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	peak := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(exe, append([]string{mainArg}, args...)...)
	cmd.Env = append(os.Environ(), peakEnv+"="+peak)
	return cmd, peak
}

// peakRSS is the peak resident set, in bytes, of an mcpterm process that
// has ended: what it wrote to peakFile, or, if it could not (killed, or no
// /proc), the rusage's figure, which may be the test binary's own.
func peakRSS(cmd *exec.Cmd, peakFile string) int64 {
	if b, err := os.ReadFile(peakFile); err == nil {
		if kb, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return kb * 1024
		}
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // kilobytes on Linux
	}
	return 0
}

// runMcpterm runs mcpterm to its end (at most limit).
func runMcpterm(t testing.TB, limit time.Duration, env []string, args ...string) procResult {
	t.Helper()
	return startMcpterm(t, env, args...).wait(t, limit)
}

// TestHostileHarness checks the harness itself: a scenario that does not
// exist makes the server say so, and mcpterm reports the connection
// failure with exit 3.
func TestHostileHarness(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, hostileServer(t, "nope/none")[0], hostileArg, "nope/none").CombinedOutput()
	if !bytes.Contains(out, []byte(`no scenario "nope/none"`)) || err == nil {
		t.Fatalf("server: %v %s", err, out)
	}
	r := runMcpterm(t, 30*time.Second, nil, append([]string{"tools", "--"}, hostileServer(t, "nope/none")...)...)
	if r.Code != exitConnect {
		t.Fatalf("exit %d, stderr %q", r.Code, r.Stderr)
	}
}
