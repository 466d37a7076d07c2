package session

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// subServer is an in-process server with resources.subscribe that records
// every subscribe and unsubscribe, by client session.
type subServer struct {
	srv *server.MCPServer
	mu  sync.Mutex
	log []string // "sub URI", "unsub URI", "listen URI..."
}

func newSubServer(subscribe bool) *subServer {
	ss := &subServer{}
	h := &server.Hooks{}
	h.AddAfterSubscribe(func(_ context.Context, _ any, r *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		ss.note("sub " + r.Params.URI)
	})
	h.AddBeforeSubscriptionsListen(func(_ context.Context, _ any, r *mcp.SubscriptionsListenRequest) {
		if uris := r.Params.Notifications.ResourceSubscriptions; len(uris) > 0 {
			ss.note("listen " + strings.Join(uris, " "))
		}
	})
	h.AddAfterUnsubscribe(func(_ context.Context, _ any, r *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		ss.note("unsub " + r.Params.URI)
	})
	ss.srv = server.NewMCPServer("subs", "1", server.WithResourceCapabilities(subscribe, false), server.WithHooks(h))
	ss.srv.AddResource(mcp.NewResource("notes://a", "a"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "notes://a", Text: "A"}}, nil
	})
	return ss
}

func (ss *subServer) note(s string) {
	ss.mu.Lock()
	ss.log = append(ss.log, s)
	ss.mu.Unlock()
	activity.notify()
}

func (ss *subServer) notes() []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([]string(nil), ss.log...)
}

func (ss *subServer) source() Source { return Source{Kind: InProcess, Name: "subs", Server: ss.srv} }

func updates(s *Session) []string {
	var out []string
	for _, e := range s.Events() {
		if e.Kind == EventResourceUpdated {
			out = append(out, e.Text)
		}
	}
	return out
}

// TestSubscribeUpdatesAndReconnect subscribes with resources/subscribe
// (2025-11-25) and through subscriptions/listen (2026-07-28).
func TestSubscribeUpdatesAndReconnect(t *testing.T) {
	for _, pv := range []string{"2025-11-25", ""} {
		t.Run("protocol "+pv, func(t *testing.T) { testSubscribe(t, pv) })
	}
}

func testSubscribe(t *testing.T, pv string) {
	ss := newSubServer(true)
	s := open(t, ss.source(), Options{ProtocolVersion: pv})
	modern := s.Info().Modern
	if modern == (pv != "") {
		t.Fatalf("protocol %s", s.Info().ProtocolVersion)
	}
	ctx := ctxT(t, 20*time.Second)
	if !s.CanSubscribe() {
		t.Fatal("the server declares resources.subscribe")
	}
	if err := s.SubscribeResource(ctx, "notes://a"); err != nil {
		t.Fatal(err)
	}
	if err := s.SubscribeResource(ctx, "notes://a"); err != nil { // twice: sent once
		t.Fatal(err)
	}
	if err := s.SubscribeResource(ctx, "notes://b"); err != nil {
		t.Fatal(err)
	}
	if got := s.SubscribedResources(); !slices.Equal(got, []string{"notes://a", "notes://b"}) || !s.IsSubscribed("notes://a") {
		t.Fatalf("subscribed %v", got)
	}
	ss.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://a"})
	waitFor(t, 10*time.Second, "the update event", func() bool { return len(updates(s)) == 1 })
	if u := updates(s); u[0] != "notes://a" {
		t.Errorf("update %v", u)
	}

	// A reconnect subscribes the set again.
	mark := len(ss.notes())
	if err := s.Reconnect(ctx); err != nil {
		t.Fatal(err)
	}
	if modern {
		// Each subscription reopens the stream with the whole filter; a
		// stream replaced before it reached the server never shows.
		waitFor(t, 10*time.Second, "the stream opened again", func() bool {
			n := ss.notes()
			return len(n) > mark && n[len(n)-1] == "listen notes://a notes://b"
		})
	} else {
		waitFor(t, 10*time.Second, "the subscriptions sent again", func() bool { return len(ss.notes()) == 4 })
		if got := ss.notes(); !slices.Equal(got, []string{"sub notes://a", "sub notes://b", "sub notes://a", "sub notes://b"}) {
			t.Errorf("server saw %v", got)
		}
	}
	ss.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://b"})
	waitFor(t, 10*time.Second, "the update after reconnecting", func() bool { return len(updates(s)) == 2 })

	if err := s.UnsubscribeResource(ctx, "notes://a"); err != nil {
		t.Fatal(err)
	}
	if err := s.UnsubscribeResource(ctx, "never"); err != nil { // not subscribed: nothing sent
		t.Fatal(err)
	}
	last := "unsub notes://a"
	if modern {
		last = "listen notes://b"
	}
	waitFor(t, 10*time.Second, "the unsubscription", func() bool { n := ss.notes(); return len(n) > 0 && n[len(n)-1] == last })
	if got := s.SubscribedResources(); !slices.Equal(got, []string{"notes://b"}) {
		t.Errorf("subscribed %v", got)
	}

	// An update without a URI is the server's mistake, said so.
	ss.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"url": "x"})
	waitFor(t, 10*time.Second, "the notice", func() bool {
		for _, e := range s.Events() {
			if e.Kind == EventNotice && strings.Contains(e.Text, "without a uri") {
				return true
			}
		}
		return false
	})
}

func TestSubscribeWithoutCapabilitySendsNothing(t *testing.T) {
	ss := newSubServer(false)
	s := open(t, ss.source(), Options{})
	before := len(s.Tap().Messages())
	err := s.SubscribeResource(ctxT(t, 10*time.Second), "notes://a")
	if !errors.Is(err, ErrNoSubscribe) || s.CanSubscribe() || len(s.SubscribedResources()) != 0 {
		t.Fatalf("err %v", err)
	}
	if n := len(s.Tap().Messages()); n != before {
		t.Errorf("%d messages sent", n-before)
	}
}

func TestSubscribeBounds(t *testing.T) {
	s := open(t, newSubServer(true).source(), Options{})
	ctx := ctxT(t, 20*time.Second)
	if err := s.SubscribeResource(ctx, ""); err == nil {
		t.Error("empty URI")
	}
	if err := s.SubscribeResource(ctx, "x://"+strings.Repeat("a", 3000)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("long URI: %v", err)
	}
}

// TestSubscribeEverything subscribes to a resource of server-everything
// and has its toggle-subscriber-updates tool send the update.
func TestSubscribeEverything(t *testing.T) {
	s := open(t, everything(t), Options{})
	ctx := ctxT(t, 60*time.Second)
	const uri = "demo://resource/static/document/architecture.md"
	if !s.CanSubscribe() {
		t.Fatal("server-everything declares resources.subscribe")
	}
	if err := s.SubscribeResource(ctx, uri); err != nil {
		t.Fatal(err)
	}
	r := s.Call(ctx, CallRequest{Tool: "toggle-subscriber-updates"})
	if !r.OK() {
		t.Fatalf("toggle: %v", r.Err)
	}
	t.Cleanup(func() { s.Call(context.Background(), CallRequest{Tool: "toggle-subscriber-updates"}) })
	waitFor(t, 30*time.Second, "the update", func() bool { return slices.Contains(updates(s), uri) })
	if err := s.UnsubscribeResource(ctx, uri); err != nil {
		t.Fatal(err)
	}
}
