package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mark3labs/mcp-go/mcp"
)

// selectResource moves the Resources tab's cursor to uri.
func (h *harness) selectResource(uri string) {
	h.t.Helper()
	for h.m.explore.tab != tabResources {
		h.key("right")
	}
	h.key("home")
	for i := 0; h.m.explore.resources[h.m.explore.nav[tabResources].Cursor].URI != uri; i++ {
		if i > len(h.m.explore.resources) {
			h.t.Fatalf("no %s in %v", uri, h.m.explore.resources)
		}
		h.key("j")
	}
}

func TestExploreSubscribesMarksUpdatesAndRereads(t *testing.T) {
	s := newTripServer(true)
	h := tripHarness(t, s)
	h.selectResource("notes://b")
	if !h.m.keys.Subscribe.Enabled() || !strings.Contains(h.screen(), "s subscribes to its updates") {
		t.Fatalf("the subscribe key is not offered:\n%s", h.screen())
	}
	h.key("s")
	h.waitFor("subscribed", msgIs[subscribedMsg])
	if !h.m.explore.subs.on["notes://b"] || !strings.Contains(h.m.flash, "subscribed to notes://b") {
		t.Fatalf("not subscribed: %v %q", h.m.explore.subs.on, h.m.flash)
	}
	if sc := h.screen(); !strings.Contains(sc, "◉  notes://b") || strings.Contains(sc, "◉  notes://a") {
		t.Errorf("the list does not mark notes://b alone:\n%s", sc)
	}

	// An update of another resource marks nothing; of notes://b, marks it
	// and says so.
	s.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://a"})
	s.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://b"})
	h.waitUntil("the update marked", func(m *Model) bool { _, ok := m.explore.subs.changed["notes://b"]; return ok })
	if _, ok := h.m.explore.subs.changed["notes://b"]; !ok || len(h.m.explore.subs.changed) != 1 {
		t.Fatalf("changed %v", h.m.explore.subs.changed)
	}
	if sc := h.screen(); !strings.Contains(sc, "◉* notes://b") || !strings.Contains(sc, "updated: notes://b (u reads it again)") {
		t.Errorf("the update is not shown:\n%s", sc)
	}

	// u reads it again and clears the mark.
	h.key("u")
	h.waitFor("the read", msgIs[detailMsg])
	if sc := h.screen(); !strings.Contains(sc, "contents of notes://b") || strings.Contains(sc, "◉* notes://b") {
		t.Errorf("not read again:\n%s", sc)
	}

	h.key("s")
	h.waitFor("unsubscribed", msgIs[subscribedMsg])
	if len(h.m.explore.subs.on) != 0 || !strings.Contains(h.m.flash, "unsubscribed from notes://b") {
		t.Errorf("still subscribed: %v %q", h.m.explore.subs.on, h.m.flash)
	}
}

// A server without resources.subscribe is not offered the key.
func TestExploreNoSubscribeWithoutCapability(t *testing.T) {
	h := tripHarness(t, newTripServer(false))
	h.selectResource("notes://a")
	if h.m.keys.Subscribe.Enabled() || strings.Contains(h.screen(), "subscribe") {
		t.Errorf("subscribe offered:\n%s", h.screen())
	}
	h.key("s")
	if len(h.m.explore.subs.on) != 0 {
		t.Errorf("subscribed %v", h.m.explore.subs.on)
	}
}

// The workbench reconnects with a new session; what was subscribed on the
// old one is subscribed on the new one.
func TestExploreSubscriptionsSurviveReconnect(t *testing.T) {
	h := tripHarness(t, newTripServer(true))
	h.selectResource("notes://b")
	h.key("s")
	h.waitFor("subscribed", msgIs[subscribedMsg])
	old := h.m.sess
	h.m.conn = connLost // as a call that lost the connection leaves it
	h.m.syncKeys()
	h.key("r")
	h.waitFor("subscribed again", func(msg tea.Msg) bool { s, ok := msg.(subscribedMsg); return ok && s.uri == "" })
	if h.m.sess == old {
		t.Fatal("no new session")
	}
	got := h.m.sess.(resourceSubscriber).SubscribedResources()
	if len(got) != 1 || got[0] != "notes://b" || !h.m.explore.subs.on["notes://b"] {
		t.Errorf("the new session has %v; the pane %v", got, h.m.explore.subs.on)
	}
}
