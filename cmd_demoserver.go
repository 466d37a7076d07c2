package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/demo"
)

// shutdownGrace bounds how long in-flight HTTP requests may take to finish
// once the server is told to stop.
const shutdownGrace = 5 * time.Second

func (c *cli) runDemoServer(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return c.serveDemo(ctx, args, nil)
}

// serveDemo serves the demo server until ctx ends (a signal) or, on stdio,
// until stdin is closed. ready, when set, learns the HTTP address once the
// listener is up; tests use it to find an ephemeral port.
// demoServerFlags builds demo-server's flag set.
func (c *cli) demoServerFlags() (*flag.FlagSet, *string) {
	fs := newFlagSet("demo-server",
		"usage: mcpterm demo-server [--listen ADDR]",
		"",
		"Serves the built-in demo server over stdio (default) or streamable HTTP, for any MCP client.",
		"Its state lives in memory and is shared by every client of this process. It takes no server",
		"selection: it is the server.")
	listen := fs.String("listen", "", "serve streamable HTTP on `ADDR` (e.g. 127.0.0.1:8080, path /mcp) instead of stdio")
	return fs, listen
}

func (c *cli) serveDemo(ctx context.Context, args []string, ready func(addr net.Addr)) int {
	fs, listen := c.demoServerFlags()
	pos, cmdline, code, ok := c.parseFlags(fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "mcpterm demo-server: unexpected argument %q (demo-server takes no server selection)\n", clipArg(pos[0]))
		return exitUsage
	}
	if len(cmdline) > 0 {
		fmt.Fprintln(c.stderr, "mcpterm demo-server: takes no server selection: it is the server (-- CMD ARGS is for the other commands)")
		return exitUsage
	}
	srv := demo.New(demo.Options{})
	if *listen == "" {
		return c.serveDemoStdio(ctx, srv)
	}
	return c.serveDemoHTTP(ctx, srv, *listen, ready)
}

func (c *cli) serveDemoStdio(ctx context.Context, srv *server.MCPServer) int {
	// It returns nil when stdin reaches EOF and the context's error when a
	// signal ends it; both are a normal shutdown.
	err := demo.ServeStdio(ctx, srv, c.stdin, c.stdout, log.New(c.stderr, "mcpterm demo-server: ", 0))
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(c.stderr, "mcpterm demo-server: %v\n", err)
		return exitConnect
	}
	return exitOK
}

func (c *cli) serveDemoHTTP(ctx context.Context, srv *server.MCPServer, addr string, ready func(net.Addr)) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm demo-server: cannot listen on %s: %v\n", addr, err)
		return exitConnect
	}
	mcpHandler := demo.NewHTTPHandler(srv)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpHandler)
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(c.stderr, "mcpterm demo-server: ", 0),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(c.stderr, "mcpterm demo-server: serving MCP over streamable HTTP at http://%s/mcp\n", ln.Addr())
	if ready != nil {
		ready(ln.Addr())
	}

	select {
	case err := <-served:
		fmt.Fprintf(c.stderr, "mcpterm demo-server: %v\n", err)
		return exitConnect
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	// Close the MCP sessions first so open SSE streams end, then the listener.
	_ = mcpHandler.Shutdown(sctx)
	if err := hs.Shutdown(sctx); err != nil {
		fmt.Fprintf(c.stderr, "mcpterm demo-server: shutdown: %v\n", err)
		hs.Close()
	}
	fmt.Fprintln(c.stderr, "mcpterm demo-server: stopped")
	return exitOK
}
