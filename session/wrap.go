package session

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// tapped wraps a transport so that every message crossing it is recorded in
// the session's Tap, raw responses can be captured by the caller (mcp-go's
// typed results drop unknown keys and reorder schema properties), and a
// request whose context ends returns at once even if the transport below
// would keep waiting (the in-process transport runs handlers synchronously).
type tapped struct {
	inner transport.Interface
	tap   *Tap

	mu     sync.RWMutex
	notify func(mcp.JSONRPCNotification)

	// cancels are the requests whose context ended before their answer,
	// by id, until their notifications/cancelled has been written: mcp-go
	// sends it from a goroutine after the request returns, and Close
	// waits for it, so an interrupted command's server still hears which
	// call to stop before its stdin closes.
	cmu     sync.Mutex
	cancels map[string]chan struct{}
}

// Mirrors of the optional interfaces mcp-go's client type-asserts on, so that
// wrapping never changes how the client treats the transport.
type tappedBidir struct{ *tapped }
type tappedHTTP struct{ *tapped }
type tappedBidirHTTP struct{ *tapped }

func (t tappedBidir) SetRequestHandler(h transport.RequestHandler) { t.setRequestHandler(h) }
func (t tappedBidirHTTP) SetRequestHandler(h transport.RequestHandler) {
	t.setRequestHandler(h)
}
func (t tappedHTTP) SetProtocolVersion(v string) {
	t.inner.(transport.HTTPConnection).SetProtocolVersion(v)
}
func (t tappedBidirHTTP) SetProtocolVersion(v string) {
	t.inner.(transport.HTTPConnection).SetProtocolVersion(v)
}

func wrapTransport(inner transport.Interface, tap *Tap) (transport.Interface, *tapped) {
	t := &tapped{inner: inner, tap: tap}
	inner.SetNotificationHandler(t.onNotification)
	_, bidir := inner.(transport.BidirectionalInterface)
	_, isHTTP := inner.(transport.HTTPConnection)
	switch {
	case bidir && isHTTP:
		return tappedBidirHTTP{t}, t
	case bidir:
		return tappedBidir{t}, t
	case isHTTP:
		return tappedHTTP{t}, t
	}
	return t, t
}

// RequiresLegacyProtocol forwards mcp-go's optional transport hint.
func (t *tapped) RequiresLegacyProtocol() bool {
	l, ok := t.inner.(interface{ RequiresLegacyProtocol() bool })
	return ok && l.RequiresLegacyProtocol()
}

func (t *tapped) Start(ctx context.Context) error { return t.inner.Start(ctx) }
func (t *tapped) Close() error {
	t.awaitCancels(cancelWait)
	return t.inner.Close()
}
func (t *tapped) GetSessionId() string { return t.inner.GetSessionId() }

func (t *tapped) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	t.mu.Lock()
	t.notify = h
	t.mu.Unlock()
}

func (t *tapped) onNotification(n mcp.JSONRPCNotification) {
	body, _ := json.Marshal(n)
	t.tap.record(Received, KindNotification, "", n.Method, body, "")
	t.mu.RLock()
	h := t.notify
	t.mu.RUnlock()
	if h != nil {
		h(n)
	}
}

func (t *tapped) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	body, _ := json.Marshal(n)
	t.tap.record(Sent, KindNotification, "", n.Method, body, "")
	err := t.inner.SendNotification(ctx, n)
	if n.Method == string(mcp.MethodNotificationCancelled) {
		if id, err := json.Marshal(n.Params.AdditionalFields["requestId"]); err == nil {
			t.cancelSent(string(id))
		}
	}
	return err
}

// cancelWait bounds how long Close waits for the notifications/cancelled
// of the requests that just ended.
const cancelWait = time.Second

// expectCancel notes that mcp-go will send notifications/cancelled for the
// request id, whose context ended: it does for every request but the
// handshake, except over HTTP, where the session sends its own when
// needed (cancelOverHTTP) and nothing waits for it.
func (t *tapped) expectCancel(id, method string) {
	if _, isHTTP := t.inner.(transport.HTTPConnection); isHTTP || id == "" ||
		method == string(mcp.MethodInitialize) || method == "server/discover" {
		return
	}
	t.cmu.Lock()
	defer t.cmu.Unlock()
	if t.cancels == nil {
		t.cancels = map[string]chan struct{}{}
	}
	if _, ok := t.cancels[id]; !ok {
		t.cancels[id] = make(chan struct{})
	}
}

// cancelSent marks the cancellation of id written.
func (t *tapped) cancelSent(id string) {
	t.cmu.Lock()
	defer t.cmu.Unlock()
	if ch, ok := t.cancels[id]; ok {
		close(ch)
		delete(t.cancels, id)
	}
}

// awaitCancels waits, at most d in all, for the cancellations expected.
func (t *tapped) awaitCancels(d time.Duration) {
	t.cmu.Lock()
	var chs []chan struct{}
	for _, ch := range t.cancels {
		chs = append(chs, ch)
	}
	t.cmu.Unlock()
	if len(chs) == 0 {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	for _, ch := range chs {
		select {
		case <-ch:
		case <-timer.C:
			return
		}
	}
}

func (t *tapped) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	body, _ := json.Marshal(req)
	id := idText(req.ID)
	t.tap.record(Sent, KindRequest, id, req.Method, body, "")
	c := captureFrom(ctx)
	if c != nil {
		c.mu.Lock()
		c.id, c.method = req.ID, req.Method
		c.mu.Unlock()
	}

	type outcome struct {
		resp *transport.JSONRPCResponse
		err  error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := t.inner.SendRequest(ctx, req)
		done <- outcome{r, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-ctx.Done():
		o.err = ctx.Err()
	}
	if o.err == nil && o.resp == nil {
		o.err = errors.New("transport returned no response")
	}
	if o.err != nil {
		if ctx.Err() != nil {
			t.expectCancel(id, req.Method)
		}
		t.tap.record(Sent, KindFailed, id, req.Method, nil, o.err.Error())
		return nil, o.err
	}
	kind := KindResponse
	if o.resp.Error != nil {
		kind = KindError
	}
	t.tap.record(Received, kind, id, req.Method, responseBytes(o.resp), "")
	if c != nil {
		c.mu.Lock()
		c.raw, c.rpcErr, c.done = o.resp.Result, o.resp.Error, true
		c.mu.Unlock()
	}
	return o.resp, nil
}

func (t *tapped) setRequestHandler(h transport.RequestHandler) {
	bidir := t.inner.(transport.BidirectionalInterface)
	if h == nil {
		bidir.SetRequestHandler(nil)
		return
	}
	bidir.SetRequestHandler(func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		body, _ := json.Marshal(req)
		id := idText(req.ID)
		t.tap.record(Received, KindRequest, id, req.Method, body, "")
		resp, err := h(ctx, req)
		switch {
		case err != nil:
			// The transport turns err into a JSON-RPC error response.
			e := transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil)
			t.tap.record(Sent, KindError, id, req.Method, responseBytes(e), "")
		case resp != nil:
			kind := KindResponse
			if resp.Error != nil {
				kind = KindError
			}
			t.tap.record(Sent, kind, id, req.Method, responseBytes(resp), "")
		}
		return resp, err
	})
}

// responseBytes renders a response as JSON without re-encoding a large
// result: the envelope is marshalled alone and the raw result spliced in.
func responseBytes(r *transport.JSONRPCResponse) []byte {
	if r.Error != nil || r.Result == nil {
		b, _ := json.Marshal(r)
		return b
	}
	head, _ := json.Marshal(struct {
		JSONRPC string        `json:"jsonrpc"`
		ID      mcp.RequestId `json:"id"`
	}{r.JSONRPC, r.ID})
	out := make([]byte, 0, len(head)+len(r.Result)+12)
	out = append(out, head[:len(head)-1]...)
	out = append(out, `,"result":`...)
	out = append(out, r.Result...)
	return append(out, '}')
}

// idText renders a JSON-RPC id as JSON text: 7 or "abc".
func idText(id mcp.RequestId) string {
	if id.IsNil() {
		return ""
	}
	b, err := json.Marshal(id)
	if err != nil {
		return ""
	}
	return string(b)
}

// capture receives the raw outcome of the (last) request sent with its
// context, so callers of mcp-go's typed methods also get the exact JSON.
type capture struct {
	mu     sync.Mutex
	id     mcp.RequestId
	method string
	raw    json.RawMessage
	rpcErr *mcp.JSONRPCErrorDetails
	done   bool
}

type captureKey struct{}

func withCapture(ctx context.Context) (context.Context, *capture) {
	c := &capture{}
	return context.WithValue(ctx, captureKey{}, c), c
}

func captureFrom(ctx context.Context) *capture {
	c, _ := ctx.Value(captureKey{}).(*capture)
	return c
}

func (c *capture) result() (raw json.RawMessage, rpcErr *mcp.JSONRPCErrorDetails, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.raw, c.rpcErr, c.done
}

func (c *capture) requestID() (mcp.RequestId, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id, c.method
}
