// Package wire keeps a tool's answer behind the progress notifications the
// tool sent, on the transports where mcp-go sends the two separately.
//
// mcp-go's stdio server writes notifications from a goroutine of their own
// and a call's answer from the worker that ran the call; its streamable HTTP
// server forwards a request's notifications on another goroutine too, and
// drops one it still holds when the answer goes out; its in-process
// transport hands notifications to the client on a goroutine of its own and
// the answer straight back. Either way an answer can reach the client
// before the last progress of its call, and clients (the official
// TypeScript SDK among them) drop progress that comes after the answer.
// mcp-go offers no way to flush a notification, so a Ledger closes the gap
// from outside: a handler notes each progress notification before it hands
// it to mcp-go, the transport checks it off once it is written (ServeStdio,
// NewHTTPHandler) or delivered (NewInProcessTransport), and the handler
// waits for its own notifications before it returns its answer.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
)

// key names one progress notification: its token (as JSON) and its value.
// A call's values increase, so the pair is unique within the call.
type key struct {
	token    string
	progress float64
}

// Mark is one progress notification noted on a Ledger. The zero Mark is
// nothing to wait for.
type Mark struct {
	key   key
	ended uint64 // the ledger's ended streams when it was noted
	ok    bool
}

// Ledger tracks the progress notifications of one client connection (a
// stdio stream, the streams of one HTTP session, an in-process client) from
// the moment a handler hands them to mcp-go until they are written. It is safe for
// concurrent use. A nil *Ledger is a transport without one (in process, or
// served some other way): noting does nothing and Await returns at once.
type Ledger struct {
	mu      sync.Mutex
	owed    map[key]int   // noted and not yet written
	ended   uint64        // streams of this connection that have ended
	changed chan struct{} // closed, and replaced, whenever owed or ended changes
	// drain, when set (a stdio stream that can tell), waits until the
	// client has read what was written; see drainer.
	drain func(context.Context)
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger {
	return &Ledger{owed: map[key]int{}, changed: make(chan struct{})}
}

// Note records that the progress notification (token, progress) is about
// to be handed to mcp-go. Call it before sending, so that the write cannot
// happen first and be missed, and Unnote the mark if the send fails.
func (l *Ledger) Note(token any, progress float64) Mark {
	if l == nil {
		return Mark{}
	}
	k := key{canonical(token), progress}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.owed[k]++
	return Mark{key: k, ended: l.ended, ok: true}
}

// Unnote forgets a mark whose notification was never sent.
func (l *Ledger) Unnote(m Mark) {
	if l == nil || !m.ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pay(m.key)
}

// Await returns nil once every one of marks is written (and, on a stream
// that can tell, read by the client: see drainer), ctx's error if ctx
// ends first, and nil if EndStream has been called since the first of them
// was noted while some are still owed: the stream that ended may have taken
// one it will never write, and a notification that will never be written
// must not hold the answer for ever.
func (l *Ledger) Await(ctx context.Context, marks ...Mark) error {
	if l == nil {
		return nil
	}
	since := ^uint64(0)
	for _, m := range marks {
		if m.ok {
			since = min(since, m.ended)
		}
	}
	l.mu.Lock()
	for l.owes(marks) && l.ended <= since {
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		l.mu.Lock()
	}
	l.mu.Unlock()
	if l.drain != nil && since != ^uint64(0) {
		l.drain(ctx)
	}
	return nil
}

// EndStream records that a stream carrying this connection's notifications
// ended with some of them possibly taken and never written; the calls
// awaiting progress noted before it stop waiting.
func (l *Ledger) EndStream() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ended++
	l.signal()
}

// written checks off the progress notifications in a chunk that has
// reached the wire, or that never will (the write failed).
func (l *Ledger) written(keys []key) {
	if len(keys) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		l.pay(k)
	}
}

// pay settles one k, if it is owed. Progress nobody noted (sent by other
// code on the same connection) is not tracked. Callers hold mu.
func (l *Ledger) pay(k key) {
	n, ok := l.owed[k]
	if !ok {
		return
	}
	if n <= 1 {
		delete(l.owed, k)
	} else {
		l.owed[k] = n - 1
	}
	l.signal()
}

// owes reports whether any of marks is still unwritten. Callers hold mu.
func (l *Ledger) owes(marks []Mark) bool {
	for _, m := range marks {
		if m.ok && l.owed[m.key] > 0 {
			return true
		}
	}
	return false
}

// signal wakes every Await. Callers hold mu.
func (l *Ledger) signal() {
	close(l.changed)
	l.changed = make(chan struct{})
}

type ctxKey struct{}

// With returns ctx carrying l, for the handlers of the calls ctx serves.
func With(ctx context.Context, l *Ledger) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From is the ledger of the connection a call arrived on; nil when the
// transport has none.
func From(ctx context.Context) *Ledger {
	l, _ := ctx.Value(ctxKey{}).(*Ledger)
	return l
}

var progressMethod = []byte(`"notifications/progress"`)

// progressIn lists the progress notifications in p, a chunk of whole
// messages as mcp-go writes them: one JSON-RPC message per line on stdio,
// "data: " lines of server-sent events over HTTP.
func progressIn(p []byte) []key {
	if !bytes.Contains(p, progressMethod) {
		return nil
	}
	var keys []key
	for line := range bytes.SplitSeq(p, []byte{'\n'}) {
		line = bytes.TrimPrefix(line, []byte("data:"))
		if !bytes.Contains(line, progressMethod) {
			continue
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				ProgressToken any     `json:"progressToken"`
				Progress      float64 `json:"progress"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) != nil || m.Method != "notifications/progress" {
			continue
		}
		keys = append(keys, key{canonical(m.Params.ProgressToken), m.Params.Progress})
	}
	return keys
}

// keyOfParams is the key of a progress notification's params as a handler
// passed them (in process nothing is encoded: the value may be an int).
func keyOfParams(p map[string]any) (key, bool) {
	b, err := json.Marshal(p["progress"])
	if err != nil {
		return key{}, false
	}
	var progress float64
	if json.Unmarshal(b, &progress) != nil {
		return key{}, false
	}
	return key{canonical(p["progressToken"]), progress}, true
}

// CountProgress is how many progress notifications p holds, for callers
// that only count them (the gateway's stdio barrier).
func CountProgress(p []byte) int { return len(progressIn(p)) }

// canonical is a progress token as JSON, the same whether it came from a
// decoded request (a float64 or a string) or from the line on the wire.
func canonical(token any) string {
	b, err := json.Marshal(token)
	if err != nil {
		return ""
	}
	var v any
	if json.Unmarshal(b, &v) == nil {
		if c, err := json.Marshal(v); err == nil {
			return string(c)
		}
	}
	return string(b)
}
