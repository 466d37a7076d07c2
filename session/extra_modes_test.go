package session

import (
	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/session/demo"
)

// serveExtraMode serves the stdio modes built on other packages (the demo
// server); false when mode is not one of them.
func serveExtraMode(mode string) bool {
	if mode != "demo" {
		return false
	}
	_ = server.ServeStdio(demo.New(demo.Options{}))
	return true
}
