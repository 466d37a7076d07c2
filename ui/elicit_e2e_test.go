package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestElicitEverything: server-everything's trigger-elicitation-request,
// called from the composer, reaches the dialog through the AskBridge over
// a real stdio subprocess; the answer typed there comes back in the tool's
// result.
func TestElicitEverything(t *testing.T) {
	e := everythingAskEnv(t) // sampling_e2e_test.go
	h := newHarness(t, e.opts, 160, 48)
	h.ready()
	h.key("2")
	h.typeText("(trigger-elicitation-request)")
	h.key("ctrl+g")
	h.waitUntil("the elicitation dialog", func(m *Model) bool { _, ok := m.modal.(*elicitDialog); return ok })
	d := h.m.modal.(*elicitDialog)
	for d.rows[d.cur].f.Name != "name" {
		h.key("tab")
	}
	h.typeText("Grace Hopper")
	h.key("ctrl+s")
	h.waitUntil("the tool's result", func(m *Model) bool {
		return strings.Contains(ansi.Strip(m.render()), "Name: Grace Hopper")
	})
	if s := h.screen(); !strings.Contains(s, "Favorite Integer: 42") {
		t.Errorf("the defaults were not sent:\n%s", s)
	}
}
