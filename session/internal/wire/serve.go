package wire

import (
	"context"
	"io"
	"log"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Writer wraps a stdio stream so that each progress notification written
// through it is checked off l. mcp-go writes each message, newline
// included, in one Write call under its write lock, so a Write holds whole
// messages. A failed write checks its notifications off too: they will
// never arrive, and the answer behind them must not wait for them.
func (l *Ledger) Writer(w io.Writer) io.Writer { return &stdioWriter{w: w, l: l} }

type stdioWriter struct {
	w io.Writer
	l *Ledger
}

func (s *stdioWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.l.written(progressIn(p))
	return n, err
}

// ServeStdio serves srv with mcp-go's stdio server on in/out until in ends
// (nil) or ctx ends (ctx's error). The calls find the stream's ledger in
// their context, so a handler that awaits its progress answers only once
// that progress is written. errLog, when set, hears transport errors.
func ServeStdio(ctx context.Context, srv *server.MCPServer, in io.Reader, out io.Writer, errLog *log.Logger) error {
	l := NewLedger()
	l.drain = drainer(out)
	s := server.NewStdioServer(srv)
	if errLog != nil {
		s.SetErrorLogger(errLog)
	}
	// Listen cancels the calls' contexts when in ends, which releases a
	// handler still awaiting progress the stream will no longer write.
	s.SetContextFunc(func(ctx context.Context) context.Context { return With(ctx, l) })
	return s.Listen(ctx, in, l.Writer(out))
}

// HTTPHandler is mcp-go's streamable HTTP server with a ledger per client.
//
// Before 2026-07-28 a session's notifications go out on whichever of its
// streams (a POST's, the GET stream) takes them first, so the requests of a
// session (Mcp-Session-Id) share one ledger while any of them is in flight;
// a request without a session id (2026-07-28 requests are each their own
// session) has its own. Such a session's streams also need mcp-go's event
// store: without one, the forwarder of a request that has just answered
// can still take a later call's notification off the session and drop it,
// and that progress would never be written at all. With one, mcp-go waits
// for a request's forwarder before it answers and records what a finished
// stream takes, so nothing is lost, and clients may resume a broken stream
// (Last-Event-ID). The store keeps a session's events until the session is
// deleted or, with server.WithSessionIdleTTL, idles out.
type HTTPHandler struct {
	mcp *server.StreamableHTTPServer

	mu       sync.Mutex
	sessions map[string]*shared
}

type shared struct {
	l     *Ledger
	users int // requests in flight
}

// NewHTTPHandler wraps server.NewStreamableHTTPServer(srv, opts...), with
// an in-memory event store unless opts name another.
func NewHTTPHandler(srv *server.MCPServer, opts ...server.StreamableHTTPOption) *HTTPHandler {
	opts = append([]server.StreamableHTTPOption{server.WithEventStore(server.NewInMemoryEventStore())}, opts...)
	return &HTTPHandler{mcp: server.NewStreamableHTTPServer(srv, opts...), sessions: map[string]*shared{}}
}

// Shutdown closes the MCP sessions, so open streams end.
func (h *HTTPHandler) Shutdown(ctx context.Context) error { return h.mcp.Shutdown(ctx) }

func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, ok := w.(http.Flusher); !ok {
		// mcp-go cannot stream to w, so it drops the notifications a call
		// sends: there is nothing to wait for.
		h.mcp.ServeHTTP(w, r)
		return
	}
	l, release := h.acquire(r.Header.Get(server.HeaderKeySessionID))
	rw := &responseWriter{ResponseWriter: w, l: l}
	defer func() {
		// What is still buffered goes out, behind everything before it,
		// when the handler returns.
		rw.flushed()
		// A stream that ends without its client (gone, or the GET stream
		// closed) may have taken notifications it only recorded for a
		// resume: they will not be written, so no call waits for them. A
		// POST that answered had mcp-go wait for its forwarder, which wrote
		// all it took.
		if r.Method == http.MethodGet || r.Context().Err() != nil {
			l.EndStream()
		}
		release()
	}()
	h.mcp.ServeHTTP(rw, r.WithContext(With(r.Context(), l)))
}

// acquire is the ledger for a request of session id, and the func that
// says the request is over.
func (h *HTTPHandler) acquire(id string) (*Ledger, func()) {
	if id == "" {
		return NewLedger(), func() {}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.sessions[id]
	if s == nil {
		s = &shared{l: NewLedger()}
		h.sessions[id] = s
	}
	s.users++
	return s.l, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		// With no request in flight nobody awaits anything: the ledger goes,
		// so ended sessions leave nothing behind.
		if s.users--; s.users == 0 {
			delete(h.sessions, id)
		}
	}
}

// responseWriter checks progress off when it is flushed to the client, not
// when it is written into net/http's buffer.
type responseWriter struct {
	http.ResponseWriter
	l *Ledger

	mu      sync.Mutex
	pending []key // written, not yet flushed
}

func (w *responseWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	keys := progressIn(p)
	if err != nil {
		w.l.written(keys) // they will never arrive
		return n, err
	}
	if len(keys) > 0 {
		w.mu.Lock()
		w.pending = append(w.pending, keys...)
		w.mu.Unlock()
	}
	return n, nil
}

// Flush sends what is buffered and checks it off.
func (w *responseWriter) Flush() {
	w.ResponseWriter.(http.Flusher).Flush()
	w.flushed()
}

func (w *responseWriter) flushed() {
	w.mu.Lock()
	keys := w.pending
	w.pending = nil
	w.mu.Unlock()
	w.l.written(keys)
}

// Unwrap lets http.ResponseController reach the connection (mcp-go sets
// write deadlines through it).
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// InProcessTransport is mcp-go's in-process transport with a ledger. In
// process there is no wire: mcp-go hands a call's notifications to the
// client's handler on a goroutine of its own and returns the answer
// straight to the caller, so the answer usually comes first. Here a call's
// progress counts as written once the client's handler has returned from
// it, so a handler that awaits its progress answers after the client has
// seen all of it.
type InProcessTransport struct {
	*transport.InProcessTransport
	l *Ledger

	mu      sync.RWMutex
	handler func(mcp.JSONRPCNotification)
}

// NewInProcessTransport is transport.NewInProcessTransport(srv) with a
// ledger.
func NewInProcessTransport(srv *server.MCPServer, opts ...transport.InProcessOption) *InProcessTransport {
	t := &InProcessTransport{InProcessTransport: transport.NewInProcessTransportWithOptions(srv, opts...), l: NewLedger()}
	t.InProcessTransport.SetNotificationHandler(t.deliver)
	return t
}

// SetNotificationHandler sets the client's handler.
func (t *InProcessTransport) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	t.mu.Lock()
	t.handler = h
	t.mu.Unlock()
}

// SendRequest serves the request with the ledger in its context.
func (t *InProcessTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	return t.InProcessTransport.SendRequest(With(ctx, t.l), req)
}

// deliver hands n to the client's handler, then checks it off.
func (t *InProcessTransport) deliver(n mcp.JSONRPCNotification) {
	t.mu.RLock()
	h := t.handler
	t.mu.RUnlock()
	if h != nil {
		h(n)
	}
	if n.Method == string(mcp.MethodNotificationProgress) {
		if k, ok := keyOfParams(n.Params.AdditionalFields); ok {
			t.l.written([]key{k})
		}
	}
}
