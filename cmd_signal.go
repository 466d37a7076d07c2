package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Signals. The commands that talk to a server (call, tools, resources,
// prompts, tokens, convert with a server, serve) and the workbench run
// under a context that the first SIGINT, SIGTERM or SIGHUP cancels, with
// an *interrupted cause. Cancelling it cancels the requests in flight,
// which sends the server notifications/cancelled for each; the runner
// records each cancelled call in the history and the audit log
// ("cancelled"); the command prints one line on stderr ("mcpterm call:
// interrupted: cancelled 1 call in flight") and closes the server
// (stdin closed, then SIGTERM and SIGKILL to its process group, a grace
// period apart: session/stdio.go). The exit code is 128 + the signal's
// number, as a shell reports a process killed by it: 130 for SIGINT,
// 143 for SIGTERM, 129 for SIGHUP. serve is the exception: a signal is
// how a gateway is told to stop, so its graceful shutdown exits 0.
//
// A second signal exits at once with the same code, without waiting for
// the server to be closed: the server then has its closed stdin and
// nothing more (it is in its own process group, so the terminal's Ctrl-C
// does not reach it either).
//
// A signal that was ignored when mcpterm started (nohup's SIGHUP, a
// background job's SIGINT) stays ignored.

// interrupted is the cause of a context a signal cancelled.
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string { return "interrupted by " + signalName(e.sig) }

// Unwrap makes an interruption a cancellation for errors.Is.
func (e *interrupted) Unwrap() error { return context.Canceled }

// signalName is SIGINT, SIGTERM, SIGHUP or the signal's own words.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// signalExit is the exit code after sig: 128 + its number.
func signalExit(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + 2
}

// watchedSignals are the signals a run's context ends on.
var watchedSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// withSignals returns a context the first of the watched signals cancels
// with an *interrupted cause; each later one goes to again. stop releases
// the signals (their default action is back) and cancels the context.
func withSignals(parent context.Context, again func(os.Signal)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	var sigs []os.Signal
	for _, s := range watchedSignals {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		first := true
		for {
			select {
			case s := <-ch:
				if first {
					first = false
					cancel(&interrupted{sig: s})
					continue
				}
				again(s)
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// exitAtOnce is what a second signal does to a command: a line on stderr
// and exit with the signal's code, not waiting for the server to close.
func exitAtOnce(stderr io.Writer, exit func(int)) func(os.Signal) {
	return func(s os.Signal) {
		fmt.Fprintf(stderr, "mcpterm: %s again: exiting at once\n", signalName(s))
		exit(signalExit(s))
	}
}

// runContext is the context a command runs under: one the signals cancel
// when c.signals is set (main sets it), else one that never ends.
func (c *cli) runContext() (context.Context, func()) {
	return c.signalContext(nil)
}

// signalContext is runContext with the face's own answer to a second
// signal (the workbench kills its program, so the terminal is restored).
func (c *cli) signalContext(again func(os.Signal)) (context.Context, func()) {
	if c.signals == nil {
		return context.Background(), func() {}
	}
	return c.signals(again)
}

// interruption is the signal that ended ctx, if one did.
func interruption(ctx context.Context) (os.Signal, bool) {
	var in *interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in.sig, true
	}
	return nil, false
}

// interrupted reports a command a signal cut short: when ctx ended by a
// signal, it prints "mcpterm CMD: interrupted: cancelled WHAT" and returns
// the signal's exit code and true; otherwise nothing and false. Commands
// ask it before reporting a failure, so an interruption is said in one
// line instead of as the context errors it caused.
func (c *cli) interrupted(ctx context.Context, cmd, what string) (int, bool) {
	sig, ok := interruption(ctx)
	if !ok {
		return 0, false
	}
	fmt.Fprintf(c.stderr, "mcpterm %s: interrupted: cancelled %s\n", cmd, what)
	return signalExit(sig), true
}

// plural is "1 call" or "n calls".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
