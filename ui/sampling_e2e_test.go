package ui

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/peers"
)

// everythingAskEnv is the workbench on the reference server over stdio,
// with the AskBridge as its session's Asker, as cmd_tui.go wires it.
func everythingAskEnv(t *testing.T) *env {
	t.Helper()
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatal(err)
	}
	src := session.Source{Kind: session.Stdio, Name: "server-everything", Command: p.Node, Args: []string{p.Entry, "stdio"}}
	e := serverEnv(t, src)
	ask := NewAskBridge()
	e.opts.Ask = ask
	e.opts.Theme = mustTheme("mono")
	e.opts.Connect = func(ctx context.Context) (Session, error) {
		return session.Open(ctx, src, session.Options{ClientName: "mcpterm-test", Asker: ask})
	}
	return e
}

// The reference server's trigger-sampling-request, run from the composer:
// its request reaches the dialog through the AskBridge, the person's reply
// reaches the server, and the server's result shows it; a second run is
// declined and the server says so.
func TestSamplingEverythingWorkbench(t *testing.T) {
	e := everythingAskEnv(t)
	h := newHarness(t, e.opts, 160, 48)
	h.waitUntil("connected", func(m *Model) bool { return m.conn == connReady && m.cat != nil })
	h.key("2")
	h.typeText(`(trigger-sampling-request :prompt "weather in Porto" :maxTokens 30)`)
	h.key("ctrl+g")
	h.waitUntil("the sampling dialog", func(m *Model) bool { _, ok := m.modal.(*samplingDialog); return ok })
	screen := h.screen()
	for _, want := range []string{"Sampling request", "server-everything", "max tokens 30 · temperature 0.7", "You are a helpful test server.", "Resource trigger-sampling-request context: weather in Porto"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, screen)
		}
	}
	h.typeText("Sunny in Porto, 18°C.")
	h.key("ctrl+s")
	h.waitUntil("the result", func(m *Model) bool {
		return strings.Contains(ansiStripped(m), "LLM sampling result") && strings.Contains(ansiStripped(m), "Sunny in Porto, 18°C.")
	})
	if s := h.screen(); !strings.Contains(s, `"model": "human"`) || !strings.Contains(s, `"stopReason": "endTurn"`) {
		t.Errorf("result:\n%s", s)
	}

	h.key("ctrl+g") // the same call again, declined this time
	h.waitUntil("the second dialog", func(m *Model) bool { _, ok := m.modal.(*samplingDialog); return ok })
	h.key("esc")
	h.waitUntil("the declined result", func(m *Model) bool { return strings.Contains(ansiStripped(m), "declined by the user") })
}

func ansiStripped(m *Model) string { return ansi.Strip(m.render()) }
