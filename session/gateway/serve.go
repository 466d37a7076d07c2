package gateway

import (
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/internal/wire"
)

// HTTPPath is where the streamable HTTP endpoint is served.
const HTTPPath = "/mcp"

// shutdownGrace bounds how long in-flight HTTP requests may take to finish
// once the gateway is told to stop.
const shutdownGrace = 5 * time.Second

// ServeStdio serves one client on in/out until in reaches EOF (nil) or ctx
// ends (ctx's error). errLog, when set, hears transport errors. A call's
// answer goes out after the progress it forwarded (wire.ServeStdio).
func (g *Gateway) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, errLog *log.Logger) error {
	return wire.ServeStdio(ctx, g.srv, in, out, errLog)
}

// ServeStreamable is ServeStreamableWith with the default HTTPOptions: no
// token, browsers only from the gateway's own loopback origin, the default
// bounds.
func (g *Gateway) ServeStreamable(ctx context.Context, ln net.Listener, errLog *log.Logger) error {
	return g.ServeStreamableWith(ctx, ln, HTTPOptions{}, errLog)
}

// ServeStreamableWith serves streamable HTTP at HTTPPath on ln until ctx
// ends, then closes the clients' sessions and the listener. It returns nil
// after a shutdown, the server's error if serving failed, and an error
// before serving when o cannot be used, among them a listener off loopback
// without a token (CheckListener). Every request passes o's checks
// (Origin, bearer token, body size and time, the session cap; see
// HTTPOptions) before mcp-go reads it, and the server bounds headers and
// idle connections; mcp-go's own check that a request on a loopback
// connection names a loopback Host stays on.
//
// As on stdio, a call's answer goes out after the progress it forwarded
// (wire.NewHTTPHandler, which keeps each session's stream events in memory
// until the session ends, so a client can resume a broken stream).
func (g *Gateway) ServeStreamableWith(ctx context.Context, ln net.Listener, o HTTPOptions, errLog *log.Logger) error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	if err := o.CheckListener(ln.Addr()); err != nil {
		return err
	}
	st := g.httpStack(o, ln.Addr(), errLog)
	hs, h := st.server, st.mcp
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	// The MCP sessions first, so open SSE streams end; then the listener.
	_ = h.Shutdown(sctx)
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	return nil
}

// httpStack is the gateway's HTTP server for one listener, in layers: the
// net/http server (header bound and timeouts), the guard, mcp-go's
// streamable HTTP behind wire's handler, and the session record they share.
type httpStack struct {
	server   *http.Server
	mcp      *wire.HTTPHandler
	sessions *sessions
}

// httpStack builds the layers for o (as withDefaults gives it) and a
// listener at addr; errLog, when set, hears net/http's and mcp-go's
// warnings and errors (mcp-go's routine notes, such as each expired
// session, are left out).
func (g *Gateway) httpStack(o HTTPOptions, addr net.Addr, errLog *log.Logger) *httpStack {
	st := &httpStack{sessions: newSessions(o.MaxSessions)}
	var w io.Writer = io.Discard
	if errLog != nil {
		w = errLog.Writer()
	}
	logger := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))
	opts := append(streamableOptions(o, st.sessions), server.WithStreamableHTTPLogger(logger))
	st.mcp = wire.NewHTTPHandler(g.srv, opts...)
	st.sessions.evict = func(id string) { deleteSession(st.mcp, id) }
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, newGuard(st.mcp, o, addr, st.sessions))
	st.server = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: o.HeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
		ErrorLog:          errLog,
		// No ReadTimeout or WriteTimeout: net/http applies them to the
		// whole exchange, so they would cut SSE streams and long calls
		// (a ReadTimeout also cancels the request's context when it
		// fires). The guard bounds reading the body instead.
	}
	return st
}

// deleteSession ends session id in h as the client's DELETE would: mcp-go
// terminates it (sessions.Terminate) and drops its state. The request never
// crosses the network, so nothing of the guard applies to it.
func deleteSession(h http.Handler, id string) {
	req, err := http.NewRequest(http.MethodDelete, HTTPPath, nil)
	if err != nil {
		return
	}
	req.Header.Set(server.HeaderKeySessionID, id)
	h.ServeHTTP(discardWriter{header: http.Header{}}, req)
}

// discardWriter is the response writer of deleteSession: the answer has
// no reader.
type discardWriter struct{ header http.Header }

func (d discardWriter) Header() http.Header         { return d.header }
func (d discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d discardWriter) WriteHeader(int)             {}
