package gateway

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// progressFlushWait bounds how long an answer waits for its progress
// notifications to reach the wire.
const progressFlushWait = 250 * time.Millisecond

// notifyBarrier keeps a call's answer behind the progress it forwarded.
// mcp-go's stdio server writes notifications from a separate goroutine and
// answers from the worker that ran the call, so without a barrier the answer
// can overtake the last notifications, and clients drop progress that
// arrives after the answer. The barrier counts progress notifications handed
// to mcp-go and progress lines actually written, and a finishing call waits
// (bounded) until the writes have caught up.
type notifyBarrier struct {
	mu      sync.Mutex
	changed *sync.Cond
	sent    int64
	written int64
	active  bool // only a served stdio stream reports writes
}

func newNotifyBarrier() *notifyBarrier {
	b := &notifyBarrier{}
	b.changed = sync.NewCond(&b.mu)
	return b
}

func (b *notifyBarrier) noteSent() {
	b.mu.Lock()
	b.sent++
	b.mu.Unlock()
}

func (b *notifyBarrier) noteWritten(n int64) {
	b.mu.Lock()
	b.written += n
	b.changed.Broadcast()
	b.mu.Unlock()
}

// wait returns once every progress notification sent so far is written, or
// after progressFlushWait.
func (b *notifyBarrier) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.active || b.written >= b.sent {
		return
	}
	timer := time.AfterFunc(progressFlushWait, func() {
		b.mu.Lock()
		b.active = false // give up for good: the writer is stuck or gone
		b.changed.Broadcast()
		b.mu.Unlock()
	})
	defer timer.Stop()
	target := b.sent
	for b.active && b.written < target {
		b.changed.Wait()
	}
}

// watch wraps a stdio stream so the barrier sees progress lines go out.
func (b *notifyBarrier) watch(w io.Writer) io.Writer {
	b.mu.Lock()
	b.active = true
	b.mu.Unlock()
	return &progressCountingWriter{w: w, b: b}
}

var progressMethod = []byte(`"method":"notifications/progress"`)

type progressCountingWriter struct {
	w io.Writer
	b *notifyBarrier
}

// Write sees whole messages: mcp-go writes each one, newline included, in a
// single call under its write lock.
func (p *progressCountingWriter) Write(data []byte) (int, error) {
	n, err := p.w.Write(data)
	if err == nil && bytes.Contains(data, progressMethod) {
		p.b.noteWritten(int64(bytes.Count(data, progressMethod)))
	}
	return n, err
}
