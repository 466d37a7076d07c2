package gateway

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// peerSet is the gateway's record of its clients for the client side: when
// each connected and was last active, the upstream calls each has in
// flight, and the roots each offers (roots.go). Stdio has one client; HTTP
// any number.
type peerSet struct {
	mu    sync.Mutex
	seq   uint64 // orders joins, activity and calls
	byID  map[string]*peer
	calls []*upCall // upstream calls in flight, oldest first
}

// peer is one connected client.
type peer struct {
	cs     server.ClientSession
	joined uint64
	active uint64
	// life ends when the client's session does, so a request forwarded to
	// it stops waiting.
	life context.Context
	end  context.CancelFunc

	roots      []mcp.Root // as last fetched, valid when rootsKnown
	rootsKnown bool
	rootsFetch uint64 // the latest fetch started; an older one's answer is stale
}

// upCall is a client's call running on the upstream.
type upCall struct {
	ctx context.Context // the client request's, carrying its session
	cs  server.ClientSession
	seq uint64
}

func (ps *peerSet) next() uint64 {
	ps.seq++
	return ps.seq
}

// join records a client session; a second join of the same id is a no-op.
func (ps *peerSet) join(cs server.ClientSession) *peer {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.byID == nil {
		ps.byID = map[string]*peer{}
	}
	if p := ps.byID[cs.SessionID()]; p != nil {
		return p
	}
	life, end := context.WithCancel(context.Background())
	n := ps.next()
	p := &peer{cs: cs, joined: n, active: n, life: life, end: end}
	ps.byID[cs.SessionID()] = p
	return p
}

// leave forgets a client session and reports whether it offered roots.
func (ps *peerSet) leave(id string) (hadRoots bool) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	p := ps.byID[id]
	if p == nil {
		return false
	}
	p.end()
	delete(ps.byID, id)
	return p.rootsKnown
}

// touch marks the request's client as active now.
func (ps *peerSet) touch(ctx context.Context) {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil {
		return
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p := ps.byID[cs.SessionID()]; p != nil && p.cs == cs {
		p.active = ps.next()
	}
}

// calling records an upstream call made for the client request in ctx;
// the returned func ends it.
func (ps *peerSet) calling(ctx context.Context) func() {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil {
		return func() {}
	}
	ps.mu.Lock()
	c := &upCall{ctx: ctx, cs: cs, seq: ps.next()}
	ps.calls = append(ps.calls, c)
	if p := ps.byID[cs.SessionID()]; p != nil && p.cs == cs {
		p.active = c.seq
	}
	ps.mu.Unlock()
	return func() {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		if i := slices.Index(ps.calls, c); i >= 0 {
			ps.calls = slices.Delete(ps.calls, i, i+1)
		}
	}
}

// askTarget is the client a forwarded request goes to.
type askTarget struct {
	name   string
	cs     server.ClientSession
	values context.Context // the in-flight call's context, or nil
	life   context.Context // the client session's
	srv    *server.MCPServer
	stop   func()
}

// ctx is the context to send the request to the client with: it lasts as
// long as the upstream's request (ask) and the client's session, and
// carries the client session, and for a request made during one of the
// client's calls, that call's values too (over streamable HTTP an
// elicitation then travels on the call's own stream).
func (t *askTarget) ctx(ask context.Context) context.Context {
	var base context.Context = valuesOf{Context: ask, values: t.values}
	if t.values == nil {
		base = t.srv.WithContext(ask, t.cs)
	}
	ctx, cancel := context.WithCancel(base)
	stop := context.AfterFunc(t.life, cancel)
	t.stop = func() { stop(); cancel() }
	return ctx
}

func (t *askTarget) release() {
	if t.stop != nil {
		t.stop()
	}
}

func (t *askTarget) gone() bool { return t.life.Err() != nil }

// valuesOf is ask's lifetime with values' values.
type valuesOf struct {
	context.Context
	values context.Context
}

func (v valuesOf) Value(key any) any { return v.values.Value(key) }

// target picks the client to forward a request to (see forward.go) and
// checks it can answer: lacks says what a client's capabilities lack for
// the request ("" if nothing). Without a target, the reason is returned.
func (ps *peerSet) target(srv *server.MCPServer, lacks func(mcp.ClientCapabilities) string) (*askTarget, string) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if n := len(ps.calls); n > 0 {
		c := ps.calls[n-1]
		name := clientName(c.cs)
		if why := canAsk(c.cs, lacks); why != "" {
			return nil, fmt.Sprintf("%s, whose call is in flight on the upstream, %s", name, why)
		}
		p := ps.byID[c.cs.SessionID()]
		if p == nil || p.cs != c.cs {
			// Its session has ended: nothing would read the request.
			return nil, name + ", whose call is in flight on the upstream, has disconnected"
		}
		return &askTarget{name: name, cs: c.cs, values: c.ctx, life: p.life, srv: srv}, ""
	}
	if len(ps.byID) == 0 {
		return nil, noClient
	}
	list := make([]*peer, 0, len(ps.byID))
	for _, p := range ps.byID {
		list = append(list, p)
	}
	slices.SortFunc(list, func(a, b *peer) int { return cmp.Compare(b.active, a.active) })
	for _, p := range list {
		if canAsk(p.cs, lacks) == "" {
			return &askTarget{name: clientName(p.cs), cs: p.cs, life: p.life, srv: srv}, ""
		}
	}
	p := list[0]
	return nil, fmt.Sprintf("no client of the gateway can answer it (%s %s)", clientName(p.cs), canAsk(p.cs, lacks))
}

// canAsk says why cs cannot be sent a request ("" if it can).
func canAsk(cs server.ClientSession, lacks func(mcp.ClientCapabilities) string) string {
	if vs, ok := cs.(server.SessionWithProtocolVersion); ok && mcp.IsModernProtocol(vs.ProtocolVersion()) {
		return "speaks protocol " + vs.ProtocolVersion() + ", which has no server-initiated requests"
	}
	ci, ok := cs.(server.SessionWithClientInfo)
	if !ok {
		return "declared no capabilities"
	}
	return lacks(ci.GetClientCapabilities())
}

// clientName names a client session for notes and errors: its name from
// initialize, sanitised to a label.
func clientName(cs server.ClientSession) string {
	name := ""
	if ci, ok := cs.(server.SessionWithClientInfo); ok {
		name = label(ci.GetClientInfo().Name)
	}
	if name == "" {
		return "the client"
	}
	return "client " + name
}
