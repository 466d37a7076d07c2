package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/themes"
)

// The Server tab shows the negotiated revision and both sides'
// capabilities, the client's as the session declared them.
func TestFlowServerTab(t *testing.T) {
	e := demoEnv(t)
	roots, err := session.NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := session.Source{Kind: session.InProcess, Name: "demo", Server: demo.New(demo.Options{Seed: 7, Now: func() time.Time { return demoClock }})}
	e.opts.Connect = func(ctx context.Context) (Session, error) {
		return session.Open(ctx, src, session.Options{ClientName: "mcpterm-test", ProtocolVersion: "2025-11-25",
			Roots: roots, Asker: session.Pair{}})
	}
	e.opts.Theme = mustTheme("mono")
	f := startFlow(t, New(e.opts), 160, 48)
	f.waitOutput("o200k")
	f.keys("3")
	f.waitOutput("README.md")
	f.keys("right", "right", "right")
	f.waitOutput("Client capabilities", "elicitation")
	screen := f.finish()
	checkFrame(t, screen, 160, 48)
	for _, want := range []string{"2025-11-25 · initialize handshake", "roots", "listChanged", "form, url", "sampling"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the Server tab lacks %q:\n%s", want, screen)
		}
	}
	golden.RequireEqual(t, normalize(screen))
}

// The tab at model level: a modern connection says so, capabilities with
// nested features read as dotted paths, a client that declared nothing
// says none, and a server's escapes in capability names never reach the
// screen.
func TestServerTabCapabilities(t *testing.T) {
	st := NewStyles(themes.Mono())
	keys := DefaultKeyMap()
	p := newExplorePane(&st, &keys, Options{}.withDefaults().Sanitize)
	p.SetSize(120, 40)
	p.tab = tabServer
	var caps mcp.ServerCapabilities
	caps.Tools = &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{ListChanged: true}
	caps.Resources = &struct {
		Subscribe   bool `json:"subscribe,omitempty"`
		ListChanged bool `json:"listChanged,omitempty"`
	}{Subscribe: true}
	caps.Logging = &struct{}{}
	caps.Experimental = map[string]any{"evil\x1b]52;c;AAAA\x07cap": map[string]any{"deep": map[string]any{"on": true, "off": false}}}
	p.setInfo(session.Info{Name: "srv", ProtocolVersion: "2026-07-28", Modern: true, Capabilities: caps}, "")
	p.showSelection()
	view := p.View()
	plain := ansi.Strip(view)
	for _, want := range []string{
		"2026-07-28 · stateless", "Server capabilities", "tools", "listChanged", "resources", "subscribe",
		"logging", "experimental", "evilcap.deep.on", "Client capabilities", "none",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("view lacks %q:\n%s", want, plain)
		}
	}
	if strings.Contains(plain, "deep.off") {
		t.Errorf("a feature set to false shows:\n%s", plain)
	}
	if strings.Contains(view, "\x1b]52") || strings.Contains(view, "\x07") {
		t.Errorf("a server's escape reached the screen: %q", view)
	}
	// Tools comes before resources, resources before logging (the spec's order).
	if i, j, k := strings.Index(plain, "tools"), strings.Index(plain, "resources"), strings.Index(plain, "logging"); !(i < j && j < k) {
		t.Errorf("capabilities out of order:\n%s", plain)
	}
}

// A server can declare any amount of experimental capabilities; the tab
// shows a bounded number of features per capability.
func TestServerTabCapabilitiesBounded(t *testing.T) {
	st := NewStyles(themes.Mono())
	exp := map[string]any{}
	for i := range 200 {
		exp[strings.Repeat("k", i%7+1)+string(rune('a'+i%26))+strings.Repeat("z", i/26)] = true
	}
	var caps mcp.ServerCapabilities
	caps.Experimental = map[string]any{"big": exp}
	out := ansi.Strip(capabilityLines(st, func(s string) string { return s }, caps))
	if n := strings.Count(out, ","); n > capMaxFeatures {
		t.Errorf("%d features shown, want at most %d", n+1, capMaxFeatures+1)
	}
	if !strings.Contains(out, "…") {
		t.Errorf("no sign of the features left out: %s", out)
	}
}
