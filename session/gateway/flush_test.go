package gateway

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

const (
	progressLine = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}` + "\n"
	messageLine  = `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n"
)

// released reports whether done is closed, once every goroutine of the
// bubble has gone as far as it can.
func released(done <-chan struct{}) bool {
	synctest.Wait()
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// The answer waits for progress that was sent but not yet written, and for
// nothing else.
func TestNotifyBarrierHoldsAnswerBehindProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newNotifyBarrier()
		var out bytes.Buffer
		w := b.watch(&out)
		b.noteSent()
		b.noteSent()

		done := make(chan struct{})
		go func() { b.waitContext(context.Background()); close(done) }()
		if released(done) {
			t.Fatal("released before any progress was written")
		}
		if _, err := w.Write([]byte(progressLine)); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(messageLine)); err != nil {
			t.Fatal(err)
		}
		if released(done) {
			t.Fatal("released after one of two progress lines")
		}
		if _, err := w.Write([]byte(progressLine)); err != nil {
			t.Fatal(err)
		}
		if !released(done) {
			t.Fatal("not released after every progress line was written")
		}
		if out.String() != progressLine+messageLine+progressLine {
			t.Errorf("the stream got %q", out.String())
		}
		// Caught up: the next wait returns at once.
		b.waitContext(context.Background())
	})
}

// A write that fails counts: that progress will never arrive, and the answer
// must not wait for it.
func TestNotifyBarrierFailedWriteReleases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newNotifyBarrier()
		w := b.watch(failingWriter{})
		b.noteSent()
		done := make(chan struct{})
		go func() { b.waitContext(context.Background()); close(done) }()
		if released(done) {
			t.Fatal("released before the write")
		}
		if _, err := w.Write([]byte(progressLine)); err == nil {
			t.Fatal("the failing writer did not fail")
		}
		if !released(done) {
			t.Fatal("a failed progress write still holds the answer")
		}
	})
}

// When the stream is torn down with progress still queued, the call's
// context ends the wait (mcp-go's stdio server cancels it when the stream
// ends).
func TestNotifyBarrierStuckWriter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newNotifyBarrier()
		b.watch(&bytes.Buffer{})
		b.noteSent()

		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { b.waitContext(ctx); close(done) }()
		if released(done) {
			t.Fatal("released with the progress unwritten")
		}
		cancel()
		if !released(done) {
			t.Fatal("the call's context ended but the wait did not")
		}
	})
}

// A stream nobody watches (HTTP, in process) never holds an answer.
func TestNotifyBarrierUnwatched(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newNotifyBarrier()
		b.noteSent()
		start := time.Now()
		b.waitContext(context.Background())
		if d := time.Since(start); d != 0 {
			t.Errorf("an unwatched barrier waited %v", d)
		}
	})
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }
