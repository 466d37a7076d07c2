package session

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// listeningHTTP is a streamable HTTP transport that opens the standalone
// GET stream, which carries what a server asks outside a request's own
// stream (an elicitation or a sampling request from a handler not tied to
// the call, roots/list): without it such a request is never answered. On a
// connection that negotiates 2026-07-28, which removed that stream, the
// transport does not open it; so this type tells mcp-go's client that the
// stateless core is still possible (server/discover first), where the bare
// option would rule it out.
//
// It also lets a person take longer than 30 seconds: mcp-go gives a
// server's request over HTTP that long, then cancels it and cannot send the
// answer. Here the request runs on (bounded by Options.AskTimeout in
// askHandler, and by the session) and a late answer is posted by this type.
type listeningHTTP struct {
	*transport.StreamableHTTP
	url     string
	hc      *http.Client
	life    context.Context // the session's
	events  *eventLog
	version atomic.Value // string: the negotiated protocol version
}

// RequiresLegacyProtocol is false: see listeningHTTP.
func (*listeningHTTP) RequiresLegacyProtocol() bool { return false }

func newListeningHTTP(life context.Context, u string, hc *http.Client, events *eventLog) (transport.Interface, error) {
	t, err := transport.NewStreamableHTTP(u, transport.WithHTTPBasicClient(hc), streamableListening(), transport.WithHTTPLogger(noticeLogger(events)))
	if err != nil {
		return nil, err
	}
	return &listeningHTTP{StreamableHTTP: t, url: u, hc: hc, life: life, events: events}, nil
}

// SetProtocolVersion keeps the version for a late answer's header.
func (l *listeningHTTP) SetProtocolVersion(v string) {
	l.version.Store(v)
	l.StreamableHTTP.SetProtocolVersion(v)
}

// SetRequestHandler runs each of the server's requests past mcp-go's
// deadline: when that passes (a plain deadline, not the call's own end),
// the handler goes on detached and its answer is posted when it comes.
func (l *listeningHTTP) SetRequestHandler(h transport.RequestHandler) {
	if h == nil {
		l.StreamableHTTP.SetRequestHandler(nil)
		return
	}
	l.StreamableHTTP.SetRequestHandler(func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		type answer struct {
			resp *transport.JSONRPCResponse
			err  error
		}
		hctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
		defer cancel(nil)
		stop := context.AfterFunc(l.life, func() { cancel(context.Cause(l.life)) })
		defer stop()
		done := make(chan answer, 1)
		go func() {
			resp, err := h(hctx, req)
			done <- answer{resp, err}
		}()
		select {
		case a := <-done:
			return a.resp, a.err
		case <-ctx.Done():
		}
		if context.Cause(ctx) != context.DeadlineExceeded {
			// The call this request belongs to ended, or the transport
			// closed: so does the request.
			cancel(context.Cause(ctx))
			a := <-done
			return a.resp, a.err
		}
		a := <-done
		resp := a.resp
		if a.err != nil {
			resp = transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, a.err.Error(), nil)
		}
		if resp != nil {
			l.postLate(resp)
		}
		// mcp-go's own send of this fails at once: its context has ended.
		return nil, context.Cause(ctx)
	})
}

// postLate sends an answer mcp-go can no longer send, as mcp-go would.
func (l *listeningHTTP) postLate(resp *transport.JSONRPCResponse) {
	body, err := json.Marshal(resp)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(l.life, 30*time.Second)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, l.url, bytes.NewReader(body))
	if err != nil {
		return
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	v, _ := l.version.Load().(string)
	if id := l.GetSessionId(); id != "" && !mcp.IsModernProtocol(v) {
		r.Header.Set(transport.HeaderKeySessionID, id)
	}
	if v != "" {
		r.Header.Set(transport.HeaderKeyProtocolVersion, v)
	}
	res, err := l.hc.Do(r)
	if err != nil {
		l.events.publish(Event{Kind: EventNotice, Level: "warning", Source: "transport", Text: "sending a late answer to the server: " + err.Error()})
		return
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusAccepted {
		l.events.publish(Event{Kind: EventNotice, Level: "warning", Source: "transport", Text: "the server refused a late answer: " + res.Status})
	}
}
