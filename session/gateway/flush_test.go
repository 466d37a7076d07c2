package gateway

import (
	"bytes"
	"testing"
	"time"
)

// The answer must wait for progress that was sent but not yet written, and
// must not wait for ever when the writer never catches up.
func TestNotifyBarrierHoldsAnswerBehindProgress(t *testing.T) {
	b := newNotifyBarrier()
	var out bytes.Buffer
	w := b.watch(&out)
	b.noteSent()
	b.noteSent()

	released := make(chan time.Time, 1)
	go func() { b.wait(); released <- time.Now() }()

	var wrote time.Time
	time.Sleep(20 * time.Millisecond)
	if _, err := w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-released:
		t.Fatal("released after one of two progress lines")
	case <-time.After(20 * time.Millisecond):
	}
	wrote = time.Now()
	if _, err := w.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-released:
		if at.Before(wrote) {
			t.Fatal("released before the last progress line was written")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("not released after every progress line was written")
	}

	// A writer that never catches up costs at most progressFlushWait, once.
	b.noteSent()
	start := time.Now()
	b.wait()
	if d := time.Since(start); d > progressFlushWait+time.Second {
		t.Fatalf("waited %v for a stuck writer", d)
	}
	b.noteSent()
	start = time.Now()
	b.wait()
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Fatalf("waited %v again after giving up", d)
	}
}
