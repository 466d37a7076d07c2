package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/session"
)

// clientSide is a gateway over server-everything with the client side
// wired as `mcpterm serve` wires it: the Forwarder is the upstream
// session's Asker, and the upstream's roots fall back to one directory.
type clientSide struct {
	g        *Gateway
	up       *session.Session
	fallback string // the fallback root's URI
	rem      *remarks
}

func newClientSide(t *testing.T) *clientSide {
	t.Helper()
	fwd := NewForwarder()
	roots, err := session.NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	up := openSession(t, everythingUpstream(t).source(), session.Options{ClientName: "mcpterm-gateway", Asker: fwd, Roots: roots})
	rem := &remarks{}
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t), Forward: fwd, Roots: roots, Notef: rem.notef})
	return &clientSide{g: g, up: up, fallback: roots.List()[0].URI, rem: rem}
}

// expr is the term-mode call of an upstream tool.
func (cs *clientSide) expr(t *testing.T, tool, args string) string {
	t.Helper()
	e, err := cs.g.st.Load().codec.Resolver().Format(call.Call{Tool: tool, Arguments: obj(t, args)})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// awaitUpstreamRoots waits until the gateway has answered the upstream's
// roots/list with a list holding want (and not the fallback, unless want
// is it).
func (cs *clientSide) awaitUpstreamRoots(t *testing.T, want string) {
	t.Helper()
	ch, stop := cs.up.Tap().Subscribe()
	defer stop()
	// Longer than hangGuard: the roots reach the gateway on its client's
	// GET stream, which mcp-go's client retries a second or more after a
	// failed open; under a loaded CI run 10 s was once not enough.
	timer := time.NewTimer(3 * hangGuard)
	defer timer.Stop()
	answered := func() bool {
		msgs := cs.up.Tap().Messages()
		for i := len(msgs) - 1; i >= 0; i-- {
			m := msgs[i]
			if m.Dir == session.Sent && m.Method == string(mcp.MethodListRoots) && m.Kind != session.KindRequest {
				return strings.Contains(m.Payload, want) && (want == cs.fallback || !strings.Contains(m.Payload, cs.fallback))
			}
		}
		return false
	}
	for !answered() {
		select {
		case <-ch:
		case <-timer.C:
			t.Fatalf("the upstream was never given the roots %s", want)
		}
	}
}

// serverRoots is what the upstream server itself reports through its
// get-roots-list tool once it shows want. The tap records the gateway's
// roots/list answer before the transport writes it, and the server takes
// the answer in asynchronously, so a call right after awaitUpstreamRoots
// may still see the old roots: each try is a real round trip, never a sleep.
func (cs *clientSide) serverRoots(t *testing.T, c *client.Client, want string) string {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		got := text(termCall(t, c, cs.expr(t, "get-roots-list", `{}`)))
		if strings.Contains(got, want) && (want == cs.fallback || !strings.Contains(got, cs.fallback)) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never reported the root %s:\n%s", want, got)
		}
	}
}

// fakeClient is the gateway's client's side: it answers sampling with a
// fixed reply, elicitation by accepting with fixed content, and roots/list
// with its roots, recording what it was asked.
type fakeClient struct {
	mu       sync.Mutex
	roots    []mcp.Root
	samples  []mcp.CreateMessageRequest
	elicits  []mcp.ElicitationRequest
	sampling func(mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
}

func (f *fakeClient) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	f.mu.Lock()
	f.samples = append(f.samples, req)
	answer := f.sampling
	f.mu.Unlock()
	if answer != nil {
		return answer(req)
	}
	return &mcp.CreateMessageResult{
		SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("a reply from the gateway's client")},
		Model:           "client-model", StopReason: "endTurn",
	}, nil
}

func (f *fakeClient) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	f.mu.Lock()
	f.elicits = append(f.elicits, req)
	f.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept,
		Content: map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7, "untitledMultipleSelectEnum": []string{"Piano"}}}}, nil
}

func (f *fakeClient) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &mcp.ListRootsResult{Roots: append([]mcp.Root{}, f.roots...)}, nil
}

func (f *fakeClient) setRoots(uris ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.roots = nil
	for _, u := range uris {
		f.roots = append(f.roots, mcp.Root{URI: u, Name: u[strings.LastIndex(u, "/")+1:]})
	}
}

// httpClientSide connects mcp-go's streamable HTTP client to g with the
// GET stream open (where mcp-go's server sends its own requests) and,
// with f, every client capability answered by f.
func httpClientSide(t *testing.T, url string, f *fakeClient) *client.Client {
	t.Helper()
	//lint:ignore SA1019 the gateway's clients before 2026-07-28 take its requests on the GET stream
	tr, err := transport.NewStreamableHTTP(url, transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if f != nil {
		opts = append(opts, client.WithSamplingHandler(f), client.WithElicitationHandler(f), client.WithRootsHandler(f))
	}
	c := client.NewClient(tr, opts...)
	connect(t, c, mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	return c
}

// TestForwardEverythingHTTP: behind the gateway, server-everything's
// sampling, elicitation and roots tools reach the gateway's client (mcp-go's,
// over streamable HTTP): its roots replace the fallback, its roots change
// reaches the upstream, and its answers come back unchanged.
func TestForwardEverythingHTTP(t *testing.T) {
	t.Parallel()
	cs := newClientSide(t)
	f := &fakeClient{}
	f.setRoots("file:///projects/project-a")
	c := httpClientSide(t, serveHTTP(t, cs.g), f)

	cs.awaitUpstreamRoots(t, "file:///projects/project-a")
	cs.serverRoots(t, c, "file:///projects/project-a") // and not the fallback

	f.setRoots("file:///projects/project-a", "file:///projects/project-b")
	if err := c.RootListChanges(ctxT(t, hangGuard)); err != nil {
		t.Fatal(err)
	}
	cs.awaitUpstreamRoots(t, "file:///projects/project-b")
	contains(t, cs.serverRoots(t, c, "file:///projects/project-b"), "file:///projects/project-a")

	res := termCall(t, c, cs.expr(t, "trigger-sampling-request", `{"prompt":"say hi","maxTokens":20}`))
	contains(t, text(res), "a reply from the gateway's client", "client-model")
	f.mu.Lock()
	if len(f.samples) != 1 || !strings.Contains(mustString(f.samples[0].Messages), "say hi") {
		t.Errorf("the client was asked %d times: %+v", len(f.samples), f.samples)
	}
	f.mu.Unlock()

	res = termCall(t, c, cs.expr(t, "trigger-elicitation-request", `{}`))
	contains(t, text(res), "Ada Lovelace")
	f.mu.Lock()
	if len(f.elicits) != 1 || f.elicits[0].Params.RequestedSchema == nil {
		t.Errorf("the client was asked %d times: %+v", len(f.elicits), f.elicits)
	}
	f.mu.Unlock()
	if !cs.rem.has("forwarding the upstream's sampling request to client gateway-test") {
		t.Errorf("no note of the forwarding: %q", cs.rem.lines)
	}
}

// TestForwardDeclinedWithoutCapabilities: a client that declared nothing
// gets the upstream's sampling declined with words saying why, its
// elicitation declined, and the upstream keeps the fallback roots.
func TestForwardDeclinedWithoutCapabilities(t *testing.T) {
	t.Parallel()
	cs := newClientSide(t)
	c := httpClientSide(t, serveHTTP(t, cs.g), nil)

	res := termCall(t, c, cs.expr(t, "trigger-sampling-request", `{"prompt":"say hi","maxTokens":20}`))
	t.Logf("sampling, declined: %s", text(res))
	contains(t, text(res), "declined", "client gateway-test, whose call is in flight on the upstream, did not declare sampling")
	res = termCall(t, c, cs.expr(t, "trigger-elicitation-request", `{}`))
	contains(t, strings.ToLower(text(res)), "decline")
	contains(t, text(termCall(t, c, cs.expr(t, "get-roots-list", `{}`))), cs.fallback)
	if !cs.rem.has("declined the upstream's elicitation: client gateway-test, whose call is in flight on the upstream, did not declare elicitation") {
		t.Errorf("no note of the decline: %q", cs.rem.lines)
	}
}

// TestForwardRootsOfManyClients: the upstream is offered the union of the
// connected clients' roots, in the order they connected; when they leave,
// the fallback again.
func TestForwardRootsOfManyClients(t *testing.T) {
	t.Parallel()
	cs := newClientSide(t)
	url := serveHTTP(t, cs.g)
	a, b := &fakeClient{}, &fakeClient{}
	a.setRoots("file:///projects/a", "file:///projects/shared")
	b.setRoots("file:///projects/shared", "file:///projects/b", "https://example.com/not-a-root")
	ca := httpClientSide(t, url, a)
	cs.awaitUpstreamRoots(t, "file:///projects/a")
	cb := httpClientSide(t, url, b)
	cs.awaitUpstreamRoots(t, "file:///projects/b")
	got := cs.serverRoots(t, ca, "file:///projects/b")
	if i, j, k := strings.Index(got, "file:///projects/a"), strings.Index(got, "file:///projects/shared"), strings.Index(got, "file:///projects/b"); i < 0 || j < i || k < j ||
		strings.Count(got, "file:///projects/shared") != 1 || strings.Contains(got, "example.com") {
		t.Errorf("want a, shared, b once each, in order:\n%s", got)
	}
	cs.rem.await(t, "left out 1 of the roots of client gateway-test")

	cb.Close()
	ca.Close()
	cs.awaitUpstreamRoots(t, cs.fallback)
	cs.rem.await(t, "upstream roots now the gateway's own")
}

func mustString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
