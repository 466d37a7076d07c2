package gateway

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// fakeSession is a client session as the gateway's records see it.
type fakeSession struct {
	id, name, version string
	caps              mcp.ClientCapabilities
}

func (f *fakeSession) Initialize()                                         {}
func (f *fakeSession) Initialized() bool                                   { return true }
func (f *fakeSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return nil }
func (f *fakeSession) SessionID() string                                   { return f.id }
func (f *fakeSession) GetClientInfo() mcp.Implementation                   { return mcp.Implementation{Name: f.name} }
func (f *fakeSession) SetClientInfo(mcp.Implementation)                    {}
func (f *fakeSession) GetClientCapabilities() mcp.ClientCapabilities       { return f.caps }
func (f *fakeSession) SetClientCapabilities(mcp.ClientCapabilities)        {}
func (f *fakeSession) ProtocolVersion() string                             { return f.version }

func lacksSampling(c mcp.ClientCapabilities) string {
	if c.Sampling == nil {
		return "did not declare sampling"
	}
	return ""
}

// TestAskTarget: a request goes to the client of the most recent call in
// flight, or declines saying why; with none in flight, to the most
// recently active client that can answer it.
func TestAskTarget(t *testing.T) {
	srv := server.NewMCPServer("t", "0")
	var ps peerSet
	if _, why := ps.target(srv, lacksSampling); why != noClient {
		t.Errorf("no clients: %q", why)
	}
	a := &fakeSession{id: "a", name: "alpha", version: "2025-11-25", caps: mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}}}
	b := &fakeSession{id: "b", name: "beta", version: "2025-11-25"}
	m := &fakeSession{id: "m", name: "modern", version: mcp.LATEST_PROTOCOL_VERSION, caps: a.caps}
	ps.join(a)
	ps.join(b)
	ps.touch(srv.WithContext(context.Background(), b))
	if tg, why := ps.target(srv, lacksSampling); tg == nil || tg.cs != a {
		t.Errorf("nothing in flight: %v %q, want alpha, the active one that can answer", tg, why)
	}
	endA := ps.calling(srv.WithContext(context.Background(), a))
	endB := ps.calling(srv.WithContext(context.Background(), b))
	if tg, why := ps.target(srv, lacksSampling); tg != nil || !strings.Contains(why, "client beta, whose call is in flight on the upstream, did not declare sampling") {
		t.Errorf("beta's call is the latest: %v %q", tg, why)
	}
	endB()
	if tg, _ := ps.target(srv, lacksSampling); tg == nil || tg.cs != a || tg.values == nil {
		t.Errorf("alpha's call in flight: %+v", tg)
	}
	endA()
	ps.join(m)
	ps.touch(srv.WithContext(context.Background(), m))
	ps.leave("a")
	if tg, why := ps.target(srv, lacksSampling); tg != nil || !strings.Contains(why, "client modern speaks protocol "+mcp.LATEST_PROTOCOL_VERSION) {
		t.Errorf("modern is the most active: %v %q", tg, why)
	}
	end := ps.calling(srv.WithContext(context.Background(), a))
	defer end()
	if tg, why := ps.target(srv, lacksSampling); tg != nil || !strings.Contains(why, "has disconnected") {
		t.Errorf("a call of a client that left: %v %q", tg, why)
	}
}
