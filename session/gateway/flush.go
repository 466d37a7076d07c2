package gateway

import (
	"context"
	"io"
	"sync"

	"github.com/mcpterm/mcpterm/session/internal/wire"
)

// notifyBarrier keeps a call's answer behind the progress it forwarded.
// mcp-go's stdio server writes notifications from a separate goroutine and
// answers from the worker that ran the call, so without a barrier the answer
// can overtake the last notifications, and clients drop progress that
// arrives after the answer. The barrier counts progress notifications handed
// to mcp-go and progress lines written (a failed write counts: it never
// will be), and a finishing call waits until the writes have caught up.
// Only a served stdio stream reports writes, so elsewhere nothing waits.
type notifyBarrier struct {
	mu      sync.Mutex
	sent    int64
	written int64
	active  bool          // a watched stream reports writes
	changed chan struct{} // closed, and replaced, whenever written grows
}

func newNotifyBarrier() *notifyBarrier {
	return &notifyBarrier{changed: make(chan struct{})}
}

func (b *notifyBarrier) noteSent() {
	b.mu.Lock()
	b.sent++
	b.mu.Unlock()
}

func (b *notifyBarrier) noteWritten(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.written += n
	close(b.changed)
	b.changed = make(chan struct{})
}

// waitContext returns once every progress notification sent so far is
// written, or when ctx ends. A call passes its request's context: mcp-go's
// stdio server cancels it when the stream ends, so a call never waits for
// progress that will not be written.
func (b *notifyBarrier) waitContext(ctx context.Context) {
	b.mu.Lock()
	target := b.sent
	for b.active && b.written < target {
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
		b.mu.Lock()
	}
	b.mu.Unlock()
}

// watch wraps a stdio stream so the barrier sees progress lines go out.
func (b *notifyBarrier) watch(w io.Writer) io.Writer {
	b.mu.Lock()
	b.active = true
	b.mu.Unlock()
	return &progressCountingWriter{w: w, b: b}
}

type progressCountingWriter struct {
	w io.Writer
	b *notifyBarrier
}

// Write sees whole messages: mcp-go writes each one, newline included, in a
// single call under its write lock.
func (p *progressCountingWriter) Write(data []byte) (int, error) {
	n, err := p.w.Write(data)
	if c := wire.CountProgress(data); c > 0 {
		p.b.noteWritten(int64(c))
	}
	return n, err
}
