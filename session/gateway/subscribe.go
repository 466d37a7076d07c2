package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// upstreamSubscriber is what resources/subscribe needs of the upstream;
// *session.Session has it (session/subscribe.go), and keeps its
// subscriptions across reconnects, so the gateway never sends them again.
type upstreamSubscriber interface {
	SubscribeResource(ctx context.Context, uri string) error
	UnsubscribeResource(ctx context.Context, uri string) error
}

// subscriptions are the clients' resource subscriptions: which client
// sessions asked for which URI. The upstream is subscribed to a URI while
// any client is, and its notifications/resources/updated go to those
// clients only.
type subscriptions struct {
	// change orders subscribes and unsubscribes, and is held across the
	// upstream's answer, so two clients subscribing to one URI at once
	// send it upstream once.
	change sync.Mutex
	mu     sync.RWMutex
	byURI  map[string]map[string]bool // uri -> client session ids
}

// maxClientSubscriptions bounds how many URIs one client may subscribe to
// through the gateway (the upstream session has its own, larger bound).
const maxClientSubscriptions = 64

// upstreamSubscribe says whether the gateway offers resources/subscribe:
// when the upstream does.
func (g *Gateway) upstreamSubscribe() (upstreamSubscriber, bool) {
	up, ok := g.up.(upstreamSubscriber)
	r := g.up.Info().Capabilities.Resources
	return up, ok && r != nil && r.Subscribe
}

// subscribeHooks forward the clients' subscribe and unsubscribe to the
// upstream and forget a client's subscriptions when it goes.
//
// mcp-go answers resources/subscribe itself with an empty result and
// offers no handler that could fail it, so the upstream is asked in the
// request-initialization hook, which runs before mcp-go's own handling and
// may refuse the request: an upstream that refuses is the client's error.
// The hook repeats mcp-go's checks (a 2026-07-28 request has no
// resources/subscribe; a URI is required) so that nothing mcp-go would
// refuse reaches the upstream.
func (g *Gateway) subscribeHooks(h *server.Hooks) {
	if _, ok := g.upstreamSubscribe(); !ok {
		return
	}
	h.AddOnRequestInitialization(func(ctx context.Context, _ any, message any) error {
		raw, ok := message.(json.RawMessage)
		if !ok {
			return nil
		}
		var req struct {
			Method mcp.MCPMethod `json:"method"`
			Params struct {
				URI  string    `json:"uri"`
				Meta *mcp.Meta `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(raw, &req) != nil || req.Params.URI == "" || mcp.IsModernProtocol(req.Params.Meta.ProtocolVersion()) {
			return nil
		}
		cs := server.ClientSessionFromContext(ctx)
		if cs == nil {
			return nil
		}
		switch req.Method {
		case mcp.MethodResourcesSubscribe:
			return g.clientSubscribe(ctx, cs.SessionID(), req.Params.URI)
		case mcp.MethodResourcesUnsubscribe:
			g.clientUnsubscribe(ctx, cs.SessionID(), req.Params.URI)
		}
		return nil
	})
	h.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		id := cs.SessionID()
		// Not on the session's own goroutine: telling the upstream may take
		// up to its timeout, and a closing client should not wait for it.
		go func() {
			ctx, cancel := context.WithTimeout(g.ctx, g.opts.ReconnectTimeout)
			defer cancel()
			g.dropClient(ctx, id)
		}()
	})
}

// clientSubscribe records client id's subscription to uri, subscribing the
// upstream first if no client was.
func (g *Gateway) clientSubscribe(ctx context.Context, id, uri string) error {
	up, _ := g.upstreamSubscribe()
	s := &g.subs
	s.change.Lock()
	defer s.change.Unlock()
	s.mu.RLock()
	clients := s.byURI[uri]
	already := clients[id]
	n := 0
	for _, ids := range s.byURI {
		if ids[id] {
			n++
		}
	}
	s.mu.RUnlock()
	if already {
		return nil
	}
	if n >= maxClientSubscriptions {
		return fmt.Errorf("resources/subscribe: this client already has %d subscriptions, the most the gateway keeps for one", maxClientSubscriptions)
	}
	if len(clients) == 0 {
		ctx = upstreamCtx(ctx)
		if err := g.ensureUpstream(ctx); err != nil {
			return err
		}
		gen := g.up.Info().Generation
		if err := up.SubscribeResource(ctx, uri); err != nil {
			return g.upstreamErr("resources/subscribe", gen, err)
		}
	}
	s.mu.Lock()
	if s.byURI == nil {
		s.byURI = map[string]map[string]bool{}
	}
	if s.byURI[uri] == nil {
		s.byURI[uri] = map[string]bool{}
	}
	s.byURI[uri][id] = true
	s.mu.Unlock()
	return nil
}

// clientUnsubscribe ends client id's subscription; the last client's takes
// the upstream's with it. The client is unsubscribed whatever the upstream
// says (it gets no more updates either way); a failure is the operator's
// to hear.
func (g *Gateway) clientUnsubscribe(ctx context.Context, id, uri string) {
	s := &g.subs
	s.change.Lock()
	defer s.change.Unlock()
	if g.forget(id, uri) {
		g.unsubscribeUpstream(upstreamCtx(ctx), uri)
	}
}

// forget removes one subscription and reports whether it was the URI's last.
func (g *Gateway) forget(id, uri string) bool {
	s := &g.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.byURI[uri]
	if !ids[id] {
		return false
	}
	delete(ids, id)
	if len(ids) > 0 {
		return false
	}
	delete(s.byURI, uri)
	return true
}

// dropClient forgets every subscription of a client that has gone.
func (g *Gateway) dropClient(ctx context.Context, id string) {
	s := &g.subs
	s.change.Lock()
	defer s.change.Unlock()
	s.mu.RLock()
	var uris []string
	for uri, ids := range s.byURI {
		if ids[id] {
			uris = append(uris, uri)
		}
	}
	s.mu.RUnlock()
	for _, uri := range uris {
		if g.forget(id, uri) {
			g.unsubscribeUpstream(ctx, uri)
		}
	}
}

func (g *Gateway) unsubscribeUpstream(ctx context.Context, uri string) {
	up, ok := g.upstreamSubscribe()
	if !ok {
		return
	}
	if err := up.UnsubscribeResource(ctx, uri); err != nil && g.ctx.Err() == nil {
		g.notef("unsubscribing the upstream from %s: %v", label(uri), err)
	}
}

// forwardUpdated sends an upstream notifications/resources/updated to the
// clients subscribed to its URI, and to no one else.
func (g *Gateway) forwardUpdated(uri string) {
	s := &g.subs
	s.mu.RLock()
	var ids []string
	for id := range s.byURI[uri] {
		ids = append(ids, id)
	}
	s.mu.RUnlock()
	for _, id := range ids {
		if err := g.srv.SendNotificationToSpecificClient(id, mcp.MethodNotificationResourceUpdated, map[string]any{"uri": uri}); err != nil {
			g.notef("forwarding resources/updated %s: %v", label(uri), err)
		}
	}
}

// subscribedClients is how many clients are subscribed to uri (for tests).
func (g *Gateway) subscribedClients(uri string) int {
	g.subs.mu.RLock()
	defer g.subs.mu.RUnlock()
	return len(g.subs.byURI[uri])
}
