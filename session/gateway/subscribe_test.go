package gateway

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// subUpstream is an in-process upstream with completions and
// resources.subscribe that records what it is asked.
type subUpstream struct {
	srv   *server.MCPServer
	mu    sync.Mutex
	log   []string
	added signal
}

func (u *subUpstream) note(s string) {
	u.mu.Lock()
	u.log = append(u.log, s)
	u.mu.Unlock()
	u.added.notify()
}

func (u *subUpstream) notes() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.log...)
}

func (u *subUpstream) CompletePromptArgument(_ context.Context, prompt string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{prompt + ":" + arg.Name + "=" + arg.Value + ":" + cc.Arguments["other"]}, Total: 7, HasMore: true}, nil
}

func (u *subUpstream) CompleteResourceArgument(_ context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{uri + " " + arg.Name + "=" + arg.Value}}, nil
}

func newSubUpstream(capable bool) *subUpstream {
	u := &subUpstream{}
	h := &server.Hooks{}
	h.AddAfterSubscribe(func(_ context.Context, _ any, r *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		u.note("sub " + r.Params.URI)
	})
	h.AddAfterUnsubscribe(func(_ context.Context, _ any, r *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		u.note("unsub " + r.Params.URI)
	})
	opts := []server.ServerOption{server.WithHooks(h), server.WithResourceCapabilities(capable, false), server.WithPromptCapabilities(false)}
	if capable {
		opts = append(opts, server.WithCompletions(), server.WithPromptCompletionProvider(u), server.WithResourceCompletionProvider(u))
	}
	u.srv = server.NewMCPServer("subs", "1", opts...)
	u.srv.AddResource(mcp.NewResource("notes://a", "a"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "notes://a", Text: "A"}}, nil
	})
	u.srv.AddPrompt(mcp.NewPrompt("p", mcp.WithArgument("x")), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	})
	return u
}

// subGateway is a gateway over u, the upstream speaking 2025-11-25 (so its
// subscriptions are resources/subscribe requests u records).
func subGateway(t *testing.T, u *subUpstream) *Gateway {
	up := openSession(t, session.Source{Kind: session.InProcess, Name: "subs", Server: u.srv}, session.Options{ProtocolVersion: "2025-11-25"})
	return newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t)})
}

// listeningClient is mcp-go's client over streamable HTTP with the GET
// stream open, where notifications outside of calls (resources/updated)
// arrive.
func listeningClient(t *testing.T, url string) (*client.Client, *notes) {
	t.Helper()
	//lint:ignore SA1019 the GET stream is how a 2025-11-25 client hears resources/updated
	c, err := client.NewStreamableHttpClient(url, transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	return c, connect(t, c, "2025-11-25")
}

func TestCompletionPassesThrough(t *testing.T) {
	g := subGateway(t, newSubUpstream(true))
	c, _ := httpClient(t, g, "2025-11-25")
	ctx := ctxT(t, 30*time.Second)
	if c.GetServerCapabilities().Completions == nil {
		t.Fatal("the gateway does not declare completions")
	}
	req := mcp.CompleteRequest{}
	req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: "p"}
	req.Params.Argument = mcp.CompleteArgument{Name: "x", Value: "ab"}
	req.Params.Context.Arguments = map[string]string{"other": "y"}
	res, err := c.Complete(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Completion.Values, []string{"p:x=ab:y"}) || res.Completion.Total != 7 || !res.Completion.HasMore {
		t.Errorf("prompt completion %+v", res.Completion)
	}
	req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: "notes://{id}"}
	req.Params.Argument = mcp.CompleteArgument{Name: "id", Value: "4"}
	res, err = c.Complete(ctx, req)
	if err != nil || !slices.Equal(res.Completion.Values, []string{"notes://{id} id=4"}) {
		t.Errorf("template completion %+v %v", res, err)
	}
}

func TestSubscriptionsPassThroughPerClient(t *testing.T) {
	u := newSubUpstream(true)
	g := subGateway(t, u)
	url := serveHTTP(t, g)
	a, an := listeningClient(t, url)
	b, bn := listeningClient(t, url)
	ctx := ctxT(t, 30*time.Second)
	if r := a.GetServerCapabilities().Resources; r == nil || !r.Subscribe {
		t.Fatalf("the gateway declares resources %+v", r)
	}
	sub := func(c *client.Client, uri string) error {
		req := mcp.SubscribeRequest{}
		req.Params.URI = uri
		//lint:ignore SA1019 the clients speak 2025-11-25
		return c.Subscribe(ctx, req)
	}
	if err := sub(a, "notes://a"); err != nil {
		t.Fatal(err)
	}
	if err := sub(b, "notes://a"); err != nil {
		t.Fatal(err)
	}
	if err := sub(a, "notes://a"); err != nil { // again: nothing new
		t.Fatal(err)
	}
	// Two clients, one upstream subscription.
	if got := u.notes(); !slices.Equal(got, []string{"sub notes://a"}) || g.subscribedClients("notes://a") != 2 {
		t.Fatalf("upstream saw %v; %d clients", got, g.subscribedClients("notes://a"))
	}
	updated := func(n *notes, uri string) int {
		k := 0
		for _, x := range n.of(mcp.MethodNotificationResourceUpdated) {
			if x.Params.AdditionalFields["uri"] == uri {
				k++
			}
		}
		return k
	}
	u.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://a"})
	an.await(t, "a's update", func() bool { return updated(an, "notes://a") == 1 })
	bn.await(t, "b's update", func() bool { return updated(bn, "notes://a") == 1 })

	// b leaves the URI: a alone gets the next update, and the upstream
	// stays subscribed.
	req := mcp.UnsubscribeRequest{}
	req.Params.URI = "notes://a"
	//lint:ignore SA1019 the clients speak 2025-11-25
	if err := b.Unsubscribe(ctx, req); err != nil {
		t.Fatal(err)
	}
	if g.subscribedClients("notes://a") != 1 || len(u.notes()) != 1 {
		t.Fatalf("after b unsubscribed: %d clients, upstream saw %v", g.subscribedClients("notes://a"), u.notes())
	}
	// An update of a URI nobody asked for goes nowhere; the second of a's
	// URI reaches a only. The gateway handles the upstream's events in
	// order, and a's stream carries what it is sent in order, so once a
	// has the second, it would have had the other.
	events := g.up.Subscribe(ctx)
	u.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://other"})
	for e := range events {
		if e.Kind == session.EventResourceUpdated && e.Text == "notes://other" {
			break
		}
	}
	u.srv.SendNotificationToAllClients(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": "notes://a"})
	an.await(t, "a's second update", func() bool { return updated(an, "notes://a") == 2 })
	if updated(an, "notes://other") != 0 || updated(bn, "notes://a") != 1 {
		t.Errorf("updates went astray: a other %d, b %d", updated(an, "notes://other"), updated(bn, "notes://a"))
	}

	// a goes away: the upstream is unsubscribed.
	a.Close()
	until(t, "the upstream unsubscribed", &u.added, func() bool { return slices.Contains(u.notes(), "unsub notes://a") })
	if g.subscribedClients("notes://a") != 0 {
		t.Errorf("%d clients left", g.subscribedClients("notes://a"))
	}

	// The upstream session's own refusal is the client's error.
	err := sub(b, "notes://"+strings.Repeat("x", 3000))
	if err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("long URI: %v", err)
	}
}

func TestNoCompletionsOrSubscribeWithoutUpstreamSupport(t *testing.T) {
	g := subGateway(t, newSubUpstream(false))
	c, _ := httpClient(t, g, "2025-11-25")
	ctx := ctxT(t, 30*time.Second)
	caps := c.GetServerCapabilities()
	if caps.Completions != nil || caps.Resources == nil || caps.Resources.Subscribe {
		t.Fatalf("capabilities %+v %+v", caps.Completions, caps.Resources)
	}
	req := mcp.SubscribeRequest{}
	req.Params.URI = "notes://a"
	//lint:ignore SA1019 the client speaks 2025-11-25
	if err := c.Subscribe(ctx, req); err == nil {
		t.Error("subscribe accepted")
	}
	creq := mcp.CompleteRequest{}
	creq.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: "p"}
	creq.Params.Argument = mcp.CompleteArgument{Name: "x"}
	if _, err := c.Complete(ctx, creq); err == nil {
		t.Error("complete accepted")
	}
}
