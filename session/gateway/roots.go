package gateway

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// Roots, forwarded. The upstream session offers one set of roots
// (Options.Roots, shared with the session): behind the gateway they are
// the roots of the gateway's clients. When a client that declared roots
// initializes, and each time it sends notifications/roots/list_changed,
// the gateway asks it for roots/list; a client that leaves takes its roots
// with it. The upstream is offered the union of the roots of every
// connected client that offers any (in the order the clients connected,
// each URI once), so a server shared by several clients can reach what any
// of them works on; while no connected client offers roots, it is offered
// the set it held when the gateway was built (serve's --root, by default
// the current directory; nothing with --no-roots). A change is sent to the
// upstream as roots/list_changed (session.Roots.Set).
//
// A client's roots are checked before they count: at most maxClientRoots,
// each a file:// URI of at most maxRootURI bytes (what the protocol
// allows); the others are left out, with a note for the operator.

const (
	maxClientRoots = 256
	maxRoots       = 1024
	maxRootURI     = 4096
	// rootsFetchTimeout bounds asking a client for its roots (over
	// streamable HTTP the request waits for the client's GET stream).
	rootsFetchTimeout = 30 * time.Second
	// rootsAttempt bounds one roots/list; one that times out is sent
	// again until rootsFetchTimeout. Over streamable HTTP mcp-go hands a
	// server request to whichever of the session's streams takes it first,
	// and a stream that ends just then drops it: the client never sees it
	// (once on a loaded CI machine the upstream went 30 s without roots).
	// A client that was only slow answers twice; the second is dropped.
	rootsAttempt = 5 * time.Second
)

// rootsState is the gateway's side of the upstream's roots.
type rootsState struct {
	mu       sync.Mutex // serialises applying
	set      *session.Roots
	fallback []mcp.Root
	applied  []mcp.Root
}

// startClientSide wires the client side once the server exists: the
// forwarder learns the gateway, the roots their fallback, and the server
// hears the clients' initialized and roots/list_changed notifications.
func (g *Gateway) startClientSide() {
	if g.opts.Forward != nil {
		g.opts.Forward.bind(g)
	}
	if g.opts.Roots != nil {
		g.roots.set = g.opts.Roots
		g.roots.fallback = g.opts.Roots.List()
		g.roots.applied = g.roots.fallback
	}
	g.srv.AddNotificationHandler(string(mcp.MethodNotificationInitialized), g.onClientRoots)
	g.srv.AddNotificationHandler(mcp.MethodNotificationRootsListChanged, g.onClientRoots)
}

// clientHooks keep the record of clients (forward_peers.go).
func (g *Gateway) clientHooks(h *server.Hooks) {
	h.AddOnRegisterSession(func(_ context.Context, cs server.ClientSession) { g.peers.join(cs) })
	h.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		if g.peers.leave(cs.SessionID()) {
			// Not on mcp-go's goroutine: telling the upstream is I/O.
			go g.applyRoots()
		}
	})
	h.AddBeforeAny(func(ctx context.Context, _ any, _ mcp.MCPMethod, _ any) { g.peers.touch(ctx) })
}

// onClientRoots fetches a client's roots after its initialized or
// roots/list_changed notification. Not in the handler itself: on stdio the
// handler runs on the loop that would read the client's answer.
func (g *Gateway) onClientRoots(ctx context.Context, _ mcp.JSONRPCNotification) {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil || g.roots.set == nil {
		return
	}
	p := g.peers.join(cs)
	go g.fetchRoots(p)
}

func lacksRoots(c mcp.ClientCapabilities) string {
	if c.Roots == nil {
		return "did not declare roots"
	}
	return ""
}

// fetchRoots asks a client for its roots and, when they changed what the
// upstream is offered, tells the upstream.
func (g *Gateway) fetchRoots(p *peer) {
	if canAsk(p.cs, lacksRoots) != "" {
		return
	}
	seq := g.peers.startFetch(p)
	ctx, cancel := context.WithTimeout(g.ctx, rootsFetchTimeout)
	defer cancel()
	defer context.AfterFunc(p.life, cancel)()
	var res *mcp.ListRootsResult
	var err error
	for {
		actx, acancel := context.WithTimeout(ctx, rootsAttempt)
		res, err = g.srv.RequestRoots(g.srv.WithContext(actx, p.cs), mcp.ListRootsRequest{Request: mcp.Request{Method: string(mcp.MethodListRoots)}})
		acancel()
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			break
		}
	}
	if err != nil {
		if p.life.Err() == nil && g.ctx.Err() == nil {
			g.notef("asking %s for its roots: %v", clientName(p.cs), err)
		}
		return
	}
	if res == nil {
		res = &mcp.ListRootsResult{}
	}
	roots, dropped := cleanRoots(res.Roots)
	if len(dropped) > 0 {
		g.notef("left out %d of the roots of %s: %s", len(dropped), clientName(p.cs), strings.Join(dropped, "; "))
	}
	if g.peers.storeRoots(p, seq, roots) {
		g.applyRoots()
	}
}

// cleanRoots keeps the roots the protocol allows, saying why of the others.
func cleanRoots(in []mcp.Root) (out []mcp.Root, dropped []string) {
	for i, r := range in {
		if len(out) == maxClientRoots {
			dropped = append(dropped, fmt.Sprintf("%d beyond the first %d", len(in)-i, maxClientRoots))
			break
		}
		if len(r.URI) > maxRootURI {
			dropped = append(dropped, fmt.Sprintf("root %d: a URI of %d bytes", i+1, len(r.URI)))
			continue
		}
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" {
			dropped = append(dropped, fmt.Sprintf("root %d: %q is not a file:// URI", i+1, clipText(label(r.URI))))
			continue
		}
		out = append(out, r)
	}
	return out, dropped
}

// startFetch numbers a fetch of p's roots.
func (ps *peerSet) startFetch(p *peer) uint64 {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p.rootsFetch = ps.next()
	return p.rootsFetch
}

// storeRoots records the roots fetch seq got, unless a later fetch has
// started or p has left; it reports whether they were recorded.
func (ps *peerSet) storeRoots(p *peer, seq uint64, roots []mcp.Root) bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p.rootsFetch != seq || ps.byID[p.cs.SessionID()] != p {
		return false
	}
	p.roots, p.rootsKnown = roots, true
	return true
}

// union is the roots of the clients that offer any, in the order they
// connected, each URI once; ok is false when no client offers roots.
func (ps *peerSet) union() (roots []mcp.Root, clients int, ok bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	list := make([]*peer, 0, len(ps.byID))
	for _, p := range ps.byID {
		if p.rootsKnown {
			list = append(list, p)
		}
	}
	slices.SortFunc(list, func(a, b *peer) int { return cmp.Compare(a.joined, b.joined) })
	seen := map[string]bool{}
	for _, p := range list {
		for _, r := range p.roots {
			if seen[r.URI] || len(roots) == maxRoots {
				continue
			}
			seen[r.URI] = true
			roots = append(roots, r)
		}
	}
	return roots, len(list), len(list) > 0
}

// applyRoots offers the upstream what its roots should be now.
func (g *Gateway) applyRoots() {
	if g.roots.set == nil || g.ctx.Err() != nil {
		return // nothing to tell, or the gateway is closing
	}
	g.roots.mu.Lock()
	defer g.roots.mu.Unlock()
	roots, n, ok := g.peers.union()
	from := fmt.Sprintf("from %d client(s)", n)
	if !ok {
		roots, from = g.roots.fallback, "the gateway's own (no client offers roots)"
	}
	if sameRoots(roots, g.roots.applied) {
		return
	}
	g.roots.applied = roots
	g.roots.set.Set(roots)
	var uris []string
	for i, r := range roots {
		if i == 8 {
			uris = append(uris, "...")
			break
		}
		uris = append(uris, label(r.URI))
	}
	g.notef("upstream roots now %s: %d root(s) %s", from, len(roots), strings.Join(uris, ", "))
}

// sameRoots compares root lists by value (Meta included).
func sameRoots(a, b []mcp.Root) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].URI != b[i].URI || a[i].Name != b[i].Name {
			return false
		}
		ma, _ := json.Marshal(a[i].Meta)
		mb, _ := json.Marshal(b[i].Meta)
		if string(ma) != string(mb) {
			return false
		}
	}
	return true
}
