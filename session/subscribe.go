package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// EventResourceUpdated is a notifications/resources/updated: Text is the
// URI exactly as the server sent it (not sanitised), Source the method.
const EventResourceUpdated EventKind = "resource_updated"

// Bounds on subscriptions: how many URIs one session keeps subscribed
// (each is re-sent after a reconnect), and how long a URI may be (an
// event's text is cut at maxEventText, and the URI must survive whole).
const (
	MaxSubscriptions   = 256
	maxSubscriptionURI = 2048
)

// ErrNoSubscribe is SubscribeResource on a server that did not declare
// resources.subscribe: it would refuse, so nothing is sent.
var ErrNoSubscribe = errors.New("the server does not offer resource subscriptions (no resources.subscribe capability)")

// resourceSubs is the set of URIs the user subscribed to. It belongs to
// the session, not to a connection, so a Reconnect subscribes them again.
type resourceSubs struct {
	mu   sync.Mutex
	uris map[string]bool
	// listenCtx is the current connection's context, for reopening a
	// 2026-07-28 subscriptions/listen stream when the set changes.
	listenCtx context.Context
	// relistenMu orders the reopenings: each waits for the stream it
	// replaces to end (stopListen), so the last filter asked for is the
	// one in force.
	relistenMu sync.Mutex
	stopListen func()
}

// CanSubscribe reports whether the server declared resources.subscribe.
func (s *Session) CanSubscribe() bool {
	c, err := s.current()
	return err == nil && canSubscribe(c)
}

func canSubscribe(c *conn) bool {
	r := c.info.Capabilities.Resources
	return r != nil && r.Subscribe
}

// SubscribedResources lists the subscribed URIs, sorted.
func (s *Session) SubscribedResources() []string {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	out := make([]string, 0, len(s.subs.uris))
	for u := range s.subs.uris {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}

// IsSubscribed reports whether uri is in the subscribed set.
func (s *Session) IsSubscribed(uri string) bool {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	return s.subs.uris[uri]
}

// SubscribeResource asks the server for notifications/resources/updated
// about uri (resources/subscribe; on a 2026-07-28 connection, by reopening
// the subscriptions/listen stream with uri in its filter). The URI stays
// subscribed across reconnects until UnsubscribeResource. Subscribing a URI
// twice sends nothing the second time.
func (s *Session) SubscribeResource(ctx context.Context, uri string) error {
	c, err := s.current()
	if err != nil {
		return err
	}
	if !canSubscribe(c) {
		return ErrNoSubscribe
	}
	switch {
	case uri == "":
		return errors.New("resources/subscribe: no URI")
	case len(uri) > maxSubscriptionURI:
		return fmt.Errorf("resources/subscribe: the URI is %d bytes; mcpterm subscribes to URIs of at most %d", len(uri), maxSubscriptionURI)
	}
	s.subs.mu.Lock()
	if s.subs.uris[uri] {
		s.subs.mu.Unlock()
		return nil
	}
	if len(s.subs.uris) >= MaxSubscriptions {
		s.subs.mu.Unlock()
		return fmt.Errorf("resources/subscribe: already %d subscriptions, the most one session keeps", MaxSubscriptions)
	}
	if s.subs.uris == nil {
		s.subs.uris = map[string]bool{}
	}
	// In the set first: a 2026-07-28 stream's filter is made from it.
	s.subs.uris[uri] = true
	s.subs.mu.Unlock()
	if err := s.subscribeOn(ctx, c, uri); err != nil {
		s.subs.mu.Lock()
		delete(s.subs.uris, uri)
		s.subs.mu.Unlock()
		return err
	}
	return nil
}

// UnsubscribeResource ends a subscription. The URI leaves the set even
// when the server cannot be told (the error says so): updates for it are
// no longer wanted either way.
func (s *Session) UnsubscribeResource(ctx context.Context, uri string) error {
	s.subs.mu.Lock()
	had := s.subs.uris[uri]
	delete(s.subs.uris, uri)
	s.subs.mu.Unlock()
	if !had {
		return nil
	}
	c, err := s.current()
	if err != nil {
		return err
	}
	if !canSubscribe(c) {
		return nil
	}
	return s.sendSubscription(ctx, c, uri, false)
}

// subscribeOn sends one subscription on connection c; on a 2026-07-28
// connection it reopens the stream with the set (which holds uri).
func (s *Session) subscribeOn(ctx context.Context, c *conn, uri string) error {
	return s.sendSubscription(ctx, c, uri, true)
}

// sendSubscription sends resources/subscribe (or unsubscribe) for uri on
// connection c; on a 2026-07-28 connection it reopens the listen stream
// with the set instead, which already holds (or no longer holds) uri.
func (s *Session) sendSubscription(ctx context.Context, c *conn, uri string, on bool) error {
	if c.info.Modern {
		s.relisten(c)
		return nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, s.opts.CallTimeout, ErrTimeout)
	defer cancel()
	ctx, capt := withCapture(ctx)
	method := "resources/unsubscribe"
	var err error
	if on {
		method = "resources/subscribe"
		req := mcp.SubscribeRequest{}
		req.Params.URI = uri
		//lint:ignore SA1019 resources/subscribe is the protocol before 2026-07-28, which is what this connection speaks
		err = c.client.Subscribe(ctx, req)
	} else {
		req := mcp.UnsubscribeRequest{}
		req.Params.URI = uri
		//lint:ignore SA1019 resources/unsubscribe is the protocol before 2026-07-28, which is what this connection speaks
		err = c.client.Unsubscribe(ctx, req)
	}
	if err != nil {
		return s.classify(ctx, err, capt, method)
	}
	return nil
}

// relisten reopens a 2026-07-28 connection's subscriptions/listen stream
// with the resources now in the set, after ending the one it replaces.
// (mcp-go's own pending filter is not used: a replaced Listen that starts
// late writes its older filter over it.)
func (s *Session) relisten(c *conn) {
	s.subs.relistenMu.Lock()
	defer s.subs.relistenMu.Unlock()
	s.subs.mu.Lock()
	ctx := s.subs.listenCtx
	stop := s.subs.stopListen
	s.subs.stopListen = nil
	s.subs.mu.Unlock()
	if stop != nil {
		stop()
	}
	if ctx == nil || ctx.Err() != nil {
		return
	}
	var f mcp.SubscriptionFilter
	f.ResourceSubscriptions = s.SubscribedResources()
	caps := c.info.Capabilities
	f.ToolsListChanged = caps.Tools != nil && caps.Tools.ListChanged
	f.PromptsListChanged = caps.Prompts != nil && caps.Prompts.ListChanged
	f.ResourcesListChanged = caps.Resources != nil && caps.Resources.ListChanged
	if f.IsEmpty() {
		return
	}
	stop, err := c.client.ListenAsync(ctx, f, func(err error) {
		if errors.Is(err, context.Canceled) {
			return // replaced by the next listen, or the connection ended
		}
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Text: "subscriptions/listen ended: " + err.Error()})
	})
	if err != nil {
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Text: "subscriptions/listen: " + err.Error()})
		return
	}
	s.subs.mu.Lock()
	s.subs.stopListen = stop
	s.subs.mu.Unlock()
}

// resubscribe runs as a connection is made (connCtx is its lifetime): it
// subscribes the set again, so a Reconnect keeps what the user asked for.
// A URI the server no longer accepts leaves the set, with a notice.
func (s *Session) resubscribe(ctx, connCtx context.Context, c *conn) {
	s.subs.mu.Lock()
	s.subs.listenCtx = connCtx
	s.subs.stopListen = nil // the old connection's stream ended with it
	uris := make([]string, 0, len(s.subs.uris))
	for u := range s.subs.uris {
		uris = append(uris, u)
	}
	s.subs.mu.Unlock()
	if len(uris) == 0 {
		return
	}
	sort.Strings(uris)
	if !canSubscribe(c) {
		s.subs.mu.Lock()
		s.subs.uris = nil
		s.subs.mu.Unlock()
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: string(mcp.MethodResourcesSubscribe),
			Text: fmt.Sprintf("the server no longer offers subscriptions; %d dropped", len(uris))})
		return
	}
	if c.info.Modern {
		s.relisten(c)
		return
	}
	var dropped []string
	for _, u := range uris {
		if err := s.subscribeOn(ctx, c, u); err != nil {
			dropped = append(dropped, u)
			s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: string(mcp.MethodResourcesSubscribe),
				Text: fmt.Sprintf("subscribing again to %s after reconnecting: %v", clipText(u, 200), err)})
		}
	}
	if len(dropped) > 0 {
		s.subs.mu.Lock()
		for u := range s.subs.uris {
			if slices.Contains(dropped, u) {
				delete(s.subs.uris, u)
			}
		}
		s.subs.mu.Unlock()
	}
}

// resourceUpdated publishes a notifications/resources/updated. One without
// a URI is a server's mistake, shown as such.
func (s *Session) resourceUpdated(method string, p map[string]any) {
	uri, _ := p["uri"].(string)
	if uri == "" {
		s.events.publish(Event{Kind: EventNotice, Level: "warning", Source: method, Text: "the server sent " + method + " without a uri: " + compactJSON(p)})
		return
	}
	s.events.publish(Event{Kind: EventResourceUpdated, Level: "info", Source: method, Text: uri})
}
