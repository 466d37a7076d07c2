//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The first signal cancels the context with the signal as its cause; the
// next goes to again (main's exits at once); stop gives the signals back.
func TestWithSignals(t *testing.T) {
	// Under nohup SIGHUP is ignored, and withSignals rightly leaves it
	// so; the test then sends SIGTERM, which it always catches.
	send := syscall.Signal(syscall.SIGHUP)
	if signal.Ignored(syscall.SIGHUP) {
		send = syscall.SIGTERM
	}
	again := make(chan os.Signal, 1)
	ctx, stop := withSignals(context.Background(), func(s os.Signal) { again <- s })
	defer stop()
	if err := syscall.Kill(os.Getpid(), send); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("%v did not end the context", send)
	}
	sig, ok := interruption(ctx)
	if !ok || sig != send || !errors.Is(context.Cause(ctx), context.Canceled) {
		t.Fatalf("cause %v", context.Cause(ctx))
	}
	if err := syscall.Kill(os.Getpid(), send); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-again:
		if s != send {
			t.Errorf("again got %v", s)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the second %v did not reach again", send)
	}
}

// Exit codes after a signal are 128 + its number, and a JSON error says
// "interrupted".
func TestSignalExitCodes(t *testing.T) {
	for sig, want := range map[os.Signal]int{os.Interrupt: 130, syscall.SIGTERM: 143, syscall.SIGHUP: 129} {
		if got := signalExit(sig); got != want {
			t.Errorf("%v: exit %d, want %d", sig, got, want)
		}
	}
	if exitInterrupted != 130 || exitTerminated != 143 {
		t.Error("the documented codes")
	}
	for code, kind := range map[int]string{1: "tool", 2: "usage", 3: "connection", 4: "timeout", 130: "interrupted", 143: "interrupted"} {
		if got := errorKind(code); got != kind {
			t.Errorf("errorKind(%d) = %q, want %q", code, got, kind)
		}
	}
	if _, ok := interruption(context.Background()); ok {
		t.Error("a context no signal ended")
	}
}

// A signal while connecting ends every command that talks to a server in
// one line, with the signal's code, not as a connection failure.
func TestInterruptedWhileConnecting(t *testing.T) {
	interrupt := func(c *cli) {
		c.signals = func(func(os.Signal)) (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(&interrupted{sig: syscall.SIGTERM})
			return ctx, func() {}
		}
	}
	for _, args := range [][]string{
		{"tools"}, {"resources"}, {"prompts"}, {"tokens"}, {"convert"}, {"serve"},
		{"call", "-e", "(echo)"}, {"call", "--output", "json", "-e", "(echo)"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := testCLI(t, interrupt, append(append(args, "--"), hostileServer(t, "signals/silent-init")...)...)
			want := "mcpterm " + args[0] + ": interrupted: cancelled connecting to the server\n"
			if len(args) > 1 && args[1] == "--output" {
				want = `{"error":{"kind":"interrupted","message":"interrupted: cancelled connecting to the server","exit":143}}` + "\n"
			}
			if code != exitTerminated || stderr != want || stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want %d and %q", code, stderr, stdout, exitTerminated, want)
			}
		})
	}
}
