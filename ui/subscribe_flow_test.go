package ui

import (
	"regexp"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/session"
)

// Explore's Resources tab with a subscribed resource the server updated:
// marked in the list, said in the detail and the status line.
func TestFlowResourceSubscription(t *testing.T) {
	s := newTripServer(true)
	e := serverEnv(t, session.Source{Kind: session.InProcess, Name: "trips", Server: s.srv})
	e.opts.Theme = mustTheme("mono")
	f := startFlow(t, New(e.opts), 160, 48)
	f.waitOutput("o200k")
	f.keys("3")
	f.waitOutput("notes://a", "s subscribes to its updates")
	f.keys("j", "s")
	f.waitOutput("subscribed to notes://b", "subscribed · s unsubscribes")
	s.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://b"})
	f.waitOutput("◉* notes://b", "updated: notes://b (u reads it again)")
	f.keys("k", "j") // the detail shows the update
	screen := f.waitOutput("updated at", "◉* notes://b")
	checkFrame(t, screen, 160, 48)
	golden.RequireEqual(t, feedCounts.ReplaceAllString(normalize(screen), "Log <n> Protocol <n>"))
	f.finish()
}

// feedCounts are the Log and Protocol tabs' counts, which depend on when
// an in-process server's notifications (delivered on goroutines of their
// own) arrive.
var feedCounts = regexp.MustCompile(`Log \d+ Protocol \d+`)
