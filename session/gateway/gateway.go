package gateway

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// Mode is how the gateway shows the upstream tools.
type Mode string

const (
	ModeTerm        Mode = "term"         // one mcp_term tool taking MCP-Term calls
	ModeAQLSingle   Mode = "aql-single"   // one mcp_aql tool
	ModeAQLSemantic Mode = "aql-semantic" // mcp_aql_create|read|update|delete|execute
)

// Modes lists the modes in the order the command line documents them
// (ModeTermLazy is in lazymode.go).
// ModePass, which saves nothing, is not among them.
func Modes() []Mode { return []Mode{ModeTerm, ModeTermLazy, ModeAQLSingle, ModeAQLSemantic} }

// ParseMode reads a --mode value.
func ParseMode(s string) (Mode, error) {
	for _, m := range append(Modes(), ModePass) {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown mode %q (want term, term-lazy, aql-single, aql-semantic or passthrough)", s)
}

// DefaultTermTool is the name of the term mode's one tool.
const DefaultTermTool = "mcp_term"

// Options configure a gateway. Only Mode is required.
type Options struct {
	Mode Mode
	// Lean renders the MCP-Term declarations with first-sentence tool
	// descriptions and no field descriptions (term mode only).
	Lean bool
	// Policy decides every upstream call; nil allows everything (the rules
	// of --yes alone), unlike session.Runner, whose nil is the default
	// rules. Tools it denies outright are also left out of what the gateway
	// lists. It sees a client's whole call before any of it runs, so a
	// batch with one refused call runs none.
	Policy *policy.Policy
	// Audit, when set, gets one record per upstream call and per refusal.
	Audit *policy.Audit
	// Overrides correct the AQL classification: the AQL modes' operations,
	// and in every mode the category the policy sees.
	Overrides aql.Overrides
	// TermTool names the term mode's tool; default DefaultTermTool.
	TermTool string
	// ReconnectTimeout bounds reconnecting a failed upstream and fetching
	// its lists again after a change; default 30 s.
	ReconnectTimeout time.Duration
	// Notef, when set, hears the gateway's own remarks for its operator
	// (reconnects, rebuilt tools, hidden tools); they never go to clients.
	Notef func(format string, args ...any)
	// Forward, when set, is the upstream session's Asker
	// (session.Options.Asker): New binds it, so the upstream's sampling and
	// elicitation requests go to the gateway's clients (forward.go).
	Forward *Forwarder
	// Roots, when set, is the upstream session's roots
	// (session.Options.Roots): the gateway offers the upstream its
	// clients' roots through it, and what it holds at New while no client
	// offers any (roots.go).
	Roots *session.Roots
}

// Gateway is an MCP server in front of one upstream session. It is safe for
// concurrent use by any number of clients (HTTP serves many).
type Gateway struct {
	up     session.Client
	opts   Options
	policy *policy.Policy // opts.Policy, or one allowing everything
	srv    *server.MCPServer

	ctx  context.Context // ends at Close
	stop context.CancelFunc
	done chan struct{} // closed when the event loop has ended

	st   atomic.Pointer[state]
	pass passLists
	// rebuildMu serialises rebuilds so two list_changed refreshes cannot
	// install their results out of order.
	rebuildMu sync.Mutex
	resync    chan struct{} // after a reconnect: fetch every list again

	peers peerSet    // the clients, for the client side (forward_peers.go)
	roots rootsState // the upstream's roots (roots.go)

	link     link
	clients  sync.Map // client session id -> server.ClientSession
	inflight inflight
	subs     subscriptions // the clients' resource subscriptions (subscribe.go)
}

// link is the gateway's view of the upstream connection: after a failure
// that leaves it in doubt, the next call reconnects first.
type link struct {
	mu     sync.Mutex
	broken bool
	why    error // the failure, for the error text of later calls
}

// New builds a gateway over an open upstream session: it lists the upstream
// tools, resources and prompts, builds the gateway's tools for opts.Mode and
// starts following the upstream's notifications until Close.
func New(ctx context.Context, up session.Client, opts Options) (*Gateway, error) {
	if up == nil {
		return nil, errors.New("gateway: no upstream session")
	}
	if up.IsOffline() {
		return nil, errors.New("gateway: the upstream is a saved tool list (--tools); serving needs a live server")
	}
	if _, err := ParseMode(string(opts.Mode)); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	if opts.TermTool == "" {
		opts.TermTool = DefaultTermTool
	}
	if opts.ReconnectTimeout <= 0 {
		opts.ReconnectTimeout = 30 * time.Second
	}
	g := &Gateway{up: up, opts: opts, policy: opts.Policy, done: make(chan struct{}), resync: make(chan struct{}, 1)}
	if g.policy == nil {
		// Rules without patterns cannot fail to compile.
		g.policy, _ = policy.New(policy.Rules{Yes: true})
	}
	g.ctx, g.stop = context.WithCancel(context.Background())

	set, err := up.Tools(ctx)
	if err != nil {
		g.stop()
		return nil, fmt.Errorf("gateway: listing the upstream tools: %w", err)
	}
	st, err := g.build(set)
	if err != nil {
		g.stop()
		return nil, err
	}
	g.st.Store(st)
	g.srv = g.newServer()
	g.startClientSide()
	g.srv.SetTools(st.tools...)
	if up.Info().Capabilities.Resources != nil {
		g.srv.AddResourceTemplate(mcp.NewResourceTemplate(catchAll, "upstream"), g.readResource)
	}
	// Tools are what the gateway is for; an upstream whose resources or
	// prompts cannot be listed is still served, with those lists empty
	// until a list_changed or a reconnect fetches them again.
	if err := g.syncLists(ctx); err != nil {
		g.notef("listing the upstream's resources and prompts: %v", err)
	}
	// Subscribe before returning so no list_changed published from now on
	// is missed.
	events := up.Subscribe(g.ctx)
	go g.loop(events)
	g.notef("serving %s as %s: %s", up.Info().Source, opts.Mode, st.summary())
	return g, nil
}

// Server is the gateway as an mcp-go server, for any mcp-go transport
// (stdio, streamable HTTP, in-process).
func (g *Gateway) Server() *server.MCPServer { return g.srv }

// Mode is the mode the gateway was built for.
func (g *Gateway) Mode() Mode { return g.opts.Mode }

// Close stops following the upstream. It does not close the upstream
// session, which belongs to the caller.
func (g *Gateway) Close() error {
	g.stop()
	<-g.done
	return nil
}

func (g *Gateway) newServer() *server.MCPServer {
	info := g.up.Info()
	name := label(info.Name)
	if name == "" {
		name = "mcpterm-gateway"
	}
	hooks := &server.Hooks{}
	g.clientHooks(hooks)
	hooks.AddOnRegisterSession(func(_ context.Context, cs server.ClientSession) {
		g.clients.Store(cs.SessionID(), cs)
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, cs server.ClientSession) {
		g.clients.Delete(cs.SessionID())
	})
	g.listHooks(hooks)
	g.subscribeHooks(hooks)
	opts := []server.ServerOption{
		server.WithTitle(titleOf(info, g.opts.Mode)),
		server.WithToolCapabilities(true),
		server.WithLogging(),
		server.WithRecovery(),
		server.WithHooks(hooks),
	}
	if info.Instructions != "" {
		opts = append(opts, server.WithInstructions(safe.Text(info.Instructions)))
	}
	if info.Capabilities.Resources != nil {
		_, subscribe := g.upstreamSubscribe()
		opts = append(opts, server.WithResourceCapabilities(subscribe, true))
	}
	opts = append(opts, g.completionOptions()...)
	if info.Capabilities.Prompts != nil {
		opts = append(opts, server.WithPromptCapabilities(true))
	}
	return server.NewMCPServer(name, info.Version, opts...)
}

func titleOf(info session.Info, m Mode) string {
	name := info.Title
	if name == "" {
		name = info.Name
	}
	if name == "" {
		name = "MCP server"
	}
	return fmt.Sprintf("%s via mcpterm (%s)", label(name), m)
}

func (g *Gateway) notef(format string, args ...any) {
	if g.opts.Notef != nil {
		g.opts.Notef(format, args...)
	}
}

// loop follows the upstream's events until Close: list changes rebuild what
// the gateway lists, log messages go to the clients.
func (g *Gateway) loop(events <-chan session.Event) {
	defer close(g.done)
	for {
		select {
		case <-g.ctx.Done():
			return
		case <-g.resync:
			g.refreshAll()
		case e, ok := <-events:
			if !ok {
				return
			}
			switch e.Kind {
			case session.EventListChanged:
				g.onListChanged(e.Source)
			case session.EventLog:
				g.forwardLog(e)
			case session.EventResourceUpdated:
				g.forwardUpdated(e.Text)
			case session.EventStderr, session.EventGarbage:
				// For the operator: a stdio server's complaints are often
				// the only clue to why it misbehaves.
				g.notef("upstream %s: %s", e.Kind, e.Text)
			case session.EventNotice:
				g.notef("upstream: %s", e.Text)
			}
		}
	}
}

func (g *Gateway) onListChanged(which string) {
	ctx, cancel := context.WithTimeout(g.ctx, g.opts.ReconnectTimeout)
	defer cancel()
	var err error
	switch which {
	case "tools":
		err = g.refreshTools(ctx)
	case "resources":
		err = g.syncResources(ctx, true)
	case "prompts":
		err = g.syncPrompts(ctx)
	}
	if err != nil && g.ctx.Err() == nil {
		g.notef("refreshing %s after the upstream's list_changed: %v", which, err)
	}
}

func (g *Gateway) refreshAll() {
	ctx, cancel := context.WithTimeout(g.ctx, g.opts.ReconnectTimeout)
	defer cancel()
	if err := g.refreshTools(ctx); err != nil && g.ctx.Err() == nil {
		g.notef("refreshing tools after reconnecting: %v", err)
	}
	if err := g.syncLists(ctx); err != nil && g.ctx.Err() == nil {
		g.notef("refreshing resources and prompts after reconnecting: %v", err)
	}
}

// refreshTools rebuilds the gateway's tools from the upstream's current list
// and installs them when they differ, which sends the clients
// notifications/tools/list_changed.
func (g *Gateway) refreshTools(ctx context.Context) error {
	set, err := g.up.Tools(ctx)
	if err != nil {
		return err
	}
	g.rebuildMu.Lock()
	defer g.rebuildMu.Unlock()
	st, err := g.build(set)
	if err != nil {
		return err
	}
	old := g.st.Load()
	g.st.Store(st)
	if old != nil && old.fingerprint == st.fingerprint {
		return nil
	}
	g.srv.SetTools(st.tools...)
	g.notef("upstream tools changed: %s", st.summary())
	return nil
}

// ensureUpstream reconnects a link marked broken. Calls wait for one
// reconnect instead of each starting their own.
func (g *Gateway) ensureUpstream(ctx context.Context) error {
	g.link.mu.Lock()
	defer g.link.mu.Unlock()
	if !g.link.broken {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, g.opts.ReconnectTimeout)
	defer cancel()
	if err := g.up.Reconnect(rctx); err != nil {
		g.notef("reconnecting the upstream: %v", err)
		return &UpstreamError{Server: g.serverName(), Op: "reconnect", Err: err, Before: g.link.why}
	}
	g.link.broken = false
	g.link.why = nil
	g.notef("reconnected the upstream (%s)", g.up.Info().Source)
	select {
	case g.resync <- struct{}{}:
	default:
	}
	return nil
}

// markBroken records a failure of connection generation gen that leaves the
// upstream in doubt. A failure of a connection already replaced is ignored.
func (g *Gateway) markBroken(gen int, err error) {
	g.link.mu.Lock()
	defer g.link.mu.Unlock()
	if g.up.Info().Generation != gen {
		return
	}
	g.link.broken = true
	g.link.why = err
}

func (g *Gateway) serverName() string {
	if st := g.st.Load(); st != nil && st.visible.Server != "" {
		return st.visible.Server
	}
	if n := label(g.up.Info().Name); n != "" {
		return n
	}
	return "the upstream server"
}

// UpstreamError is a call that got no usable answer from the upstream. Its
// text is what the client reads, so it says what happened and what the
// gateway does about it.
type UpstreamError struct {
	Server string
	Op     string // "tools/call NAME", "reconnect", "resources/read", ...
	Err    error
	// Reconnect is set when the gateway will reconnect before the next call.
	Reconnect bool
	// Before is the failure that made a reconnect necessary.
	Before error
}

func (e *UpstreamError) Error() string {
	var b strings.Builder
	switch {
	case e.Op == "reconnect":
		fmt.Fprintf(&b, "upstream %s is unavailable: reconnecting failed: %v", e.Server, e.Err)
		if e.Before != nil {
			fmt.Fprintf(&b, " (after: %v)", e.Before)
		}
		b.WriteString("; the gateway tries again on the next call")
		return b.String()
	case errors.Is(e.Err, session.ErrTimeout):
		fmt.Fprintf(&b, "upstream %s did not answer: %v", e.Server, e.Err)
	default:
		var perr *session.ProtocolError
		if errors.As(e.Err, &perr) {
			fmt.Fprintf(&b, "upstream %s sent an answer that is not valid MCP: %v", e.Server, e.Err)
		} else {
			fmt.Fprintf(&b, "upstream %s failed: %v", e.Server, e.Err)
		}
	}
	if e.Reconnect {
		b.WriteString("; the gateway reconnects to it on the next call")
	}
	return b.String()
}

func (e *UpstreamError) Unwrap() error { return e.Err }

// leavesInDoubt reports failures after which the connection cannot be
// trusted: it broke, timed out, or carried something that is not MCP. A
// JSON-RPC error or a cancellation by the client leaves it fine.
func leavesInDoubt(err error) bool {
	var perr *session.ProtocolError
	if errors.As(err, &perr) {
		return true
	}
	switch session.Classify(err) {
	case session.ClassConnection, session.ClassTimeout:
		return true
	}
	return false
}

// upstreamErr wraps a failed upstream operation and marks the link broken
// when the failure calls for it.
func (g *Gateway) upstreamErr(op string, gen int, err error) error {
	if err == nil {
		return nil
	}
	ue := &UpstreamError{Server: g.serverName(), Op: op, Err: err}
	// An upstream of many (session/fleet) names itself and is restarted
	// by the fleet: the link to the others is not in doubt.
	var named interface{ UpstreamName() string }
	if errors.As(err, &named) {
		ue.Server = label(named.UpstreamName())
		return ue
	}
	if leavesInDoubt(err) {
		g.markBroken(gen, err)
		ue.Reconnect = true
	}
	return ue
}
