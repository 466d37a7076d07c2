package ui

import (
	"context"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/mark3labs/mcp-go/mcp"
)

// The elicitation dialog in the real program (teatest), mono theme, at
// both sizes: a form with a live error and a required mark, and a URL.
func TestFlowElicitForm(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			e := demoEnv(t)
			e.opts.Theme = mustTheme("mono")
			f := startFlow(t, New(e.opts), sz[0], sz[1])
			// Everything behind the dialog settled: the counts and the
			// side-by-side pane are in.
			f.waitOutput("o200k", "file_read", "%", "left out")
			f.tm.Send(askMsg{req: askFor(t, context.Background(), mcp.ElicitationParams{Message: "Tell us about you, so the server can set up your account.", RequestedSchema: everyKind})})
			f.waitOutput("Tell us", "Name *")
			f.typeText("A")
			f.keys("tab", "space", "tab", "tab", "right")
			screen := f.waitOutput("at least 2 characters", "[x] yes", "Cat")
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, normalize(screen))
			f.finish()
		})
	}
}

func TestFlowElicitURL(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			e := demoEnv(t)
			e.opts.Theme = mustTheme("mono")
			e.opts.OpenURL = func(context.Context, string) error { return nil }
			f := startFlow(t, New(e.opts), sz[0], sz[1])
			// Everything behind the dialog settled: the counts and the
			// side-by-side pane are in.
			f.waitOutput("o200k", "file_read", "%", "left out")
			f.tm.Send(askMsg{req: askFor(t, context.Background(), mcp.ElicitationParams{Mode: "url", Message: "Authorise access to your calendar.", URL: "https://auth.example.com/consent?client=mcpterm&state=abc123", ElicitationID: "e1"})})
			f.waitOutput("visit a page", "auth.example.com")
			f.keys("o")
			screen := f.waitOutput("opened in the browser")
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, normalize(screen))
			f.finish()
		})
	}
}
