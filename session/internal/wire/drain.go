package wire

import (
	"context"
	"io"
	"syscall"
	"time"
)

// drainBound is the longest an answer waits for the client to read the
// progress written before it. Waiting costs a reading client nothing: it
// could not read the answer before the progress ahead of it anyway. So the
// bound only matters for a client that has stopped reading, and must be
// long enough for one starved of CPU: 50 ms lost progress on a loaded
// 2-core machine. The answer then goes out as it would have without the
// wait.
const drainBound = 2 * time.Second

// drainPoll is how often the wait looks at the stream first; it backs off
// to drainPollMax, so a slow client costs few system calls.
const (
	drainPoll    = 100 * time.Microsecond
	drainPollMax = 5 * time.Millisecond
)

// drainer returns a function that waits, up to drainBound or ctx's end,
// until the client has read everything written to out, or nil when out
// cannot tell (not a pipe or socket, or not on a platform we can ask).
//
// Why wait at all: the official TypeScript SDK hands a progress
// notification to its onprogress callback a microtask after the read that
// carried it, and forgets the callback as soon as the answer of its call
// is settled. When a progress notification and the answer arrive in one
// read, the callback never sees the progress, however well the server
// ordered them on the wire (44 of 60 calls to the demo server lost some).
// An answer written only after the client has read the progress before it
// arrives in a later read, after the callback has run.
func drainer(out io.Writer) func(context.Context) {
	sc, ok := out.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	unread := unreadFunc(rc)
	if unread == nil {
		return nil
	}
	return func(ctx context.Context) {
		deadline := time.Now().Add(drainBound)
		wait := drainPoll
		t := time.NewTimer(wait)
		defer t.Stop()
		for {
			n, ok := unread()
			if !ok || n == 0 || time.Now().After(deadline) {
				return
			}
			t.Reset(wait)
			wait = min(2*wait, drainPollMax)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}
}
