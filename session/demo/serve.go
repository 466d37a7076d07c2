package demo

import (
	"context"
	"io"
	"log"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/internal/wire"
)

// ServeStdio serves srv, a server from New, over stdio until in ends (nil)
// or ctx ends (ctx's error), the way `mcpterm demo-server` does: a call's
// progress notifications are on out before its answer. mcp-go writes the
// two from different goroutines, and clients drop progress that arrives
// after the answer. errLog, when set, hears transport errors.
func ServeStdio(ctx context.Context, srv *server.MCPServer, in io.Reader, out io.Writer, errLog *log.Logger) error {
	return wire.ServeStdio(ctx, srv, in, out, errLog)
}

// HTTPHandler serves a demo server over streamable HTTP (Shutdown closes
// its sessions).
type HTTPHandler = wire.HTTPHandler

// NewHTTPHandler serves srv, a server from New, over streamable HTTP the
// way `mcpterm demo-server --listen` does: a call's progress notifications
// are flushed to the client before its answer.
func NewHTTPHandler(srv *server.MCPServer, opts ...server.StreamableHTTPOption) *HTTPHandler {
	return wire.NewHTTPHandler(srv, opts...)
}
