package ui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/mcpterm/mcpterm/session"
)

// The prompt-argument form with the server's suggestions under the
// focused field: the country taken from one, the cities narrowed by it.
func TestFlowPromptCompletion(t *testing.T) {
	e := serverEnv(t, session.Source{Kind: session.InProcess, Name: "trips", Server: newTripServer(true).srv})
	e.opts.Theme = mustTheme("mono")
	f := startFlow(t, New(e.opts), 160, 48)
	f.waitOutput("o200k")
	f.keys("3")
	f.waitOutput("notes://a")
	f.keys("right", "right")
	f.waitOutput("prompt · arguments", "trip")
	f.keys("enter")
	f.waitOutput("Arguments for prompt trip", "FR", "DE", "tab takes it")
	f.typeText("F")
	f.keys("tab", "tab")
	screen := f.waitOutput("Paris", "Lyon", "Lille", "› FR")
	checkFrame(t, screen, 160, 48)
	golden.RequireEqual(t, feedCounts.ReplaceAllString(normalize(screen), "Log <n> Protocol <n>"))
	f.finish()
}
