package gateway

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// passLists is the upstream's resources, templates and prompts as it last
// listed them; the gateway lists exactly these, in this order.
type passLists struct {
	mu        sync.RWMutex
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	prompts   []mcp.Prompt
}

// catchAll is the one resource template the gateway registers with mcp-go:
// it matches every URI, so a read of any URI (listed, made from an upstream
// template, or met in a tool result's resource link) goes to the upstream.
// It is never listed.
const catchAll = "{+uri}"

// syncLists fetches the upstream's resources, templates and prompts.
func (g *Gateway) syncLists(ctx context.Context) error {
	if err := g.syncResources(ctx, false); err != nil {
		return err
	}
	return g.syncPrompts(ctx)
}

func (g *Gateway) syncResources(ctx context.Context, notify bool) error {
	if g.up.Info().Capabilities.Resources == nil {
		return nil
	}
	gen := g.up.Info().Generation
	rs, err := g.up.Resources(ctx)
	if err != nil {
		return g.upstreamErr("resources/list", gen, err)
	}
	ts, err := g.up.ResourceTemplates(ctx)
	if err != nil {
		return g.upstreamErr("resources/templates/list", gen, err)
	}
	g.pass.mu.Lock()
	g.pass.resources, g.pass.templates = rs, ts
	g.pass.mu.Unlock()
	if notify {
		g.srv.SendNotificationToAllClients(string(mcp.MethodNotificationResourcesListChanged), nil)
	}
	return nil
}

func (g *Gateway) syncPrompts(ctx context.Context) error {
	if g.up.Info().Capabilities.Prompts == nil {
		return nil
	}
	gen := g.up.Info().Generation
	ps, err := g.up.Prompts(ctx)
	if err != nil {
		return g.upstreamErr("prompts/list", gen, err)
	}
	g.pass.mu.Lock()
	g.pass.prompts = ps
	g.pass.mu.Unlock()
	entries := make([]server.ServerPrompt, len(ps))
	for i, p := range ps {
		entries[i] = server.ServerPrompt{Prompt: p, Handler: g.getPrompt}
	}
	// SetPrompts tells the clients the list changed (the capability says
	// listChanged); before the first client there is nobody to tell.
	g.srv.SetPrompts(entries...)
	return nil
}

// listHooks make the gateway's list answers the upstream's lists, in the
// upstream's order (mcp-go would sort them by name) and without the
// catch-all template.
func (g *Gateway) listHooks(h *server.Hooks) {
	h.AddAfterListResources(func(_ context.Context, _ any, _ *mcp.ListResourcesRequest, res *mcp.ListResourcesResult) {
		if res == nil {
			return
		}
		g.pass.mu.RLock()
		res.Resources = append([]mcp.Resource{}, g.pass.resources...)
		g.pass.mu.RUnlock()
		res.NextCursor = ""
	})
	h.AddAfterListResourceTemplates(func(_ context.Context, _ any, _ *mcp.ListResourceTemplatesRequest, res *mcp.ListResourceTemplatesResult) {
		if res == nil {
			return
		}
		g.pass.mu.RLock()
		res.ResourceTemplates = append([]mcp.ResourceTemplate{}, g.pass.templates...)
		g.pass.mu.RUnlock()
		res.NextCursor = ""
	})
	h.AddAfterListPrompts(func(_ context.Context, _ any, _ *mcp.ListPromptsRequest, res *mcp.ListPromptsResult) {
		if res == nil {
			return
		}
		g.pass.mu.RLock()
		res.Prompts = append([]mcp.Prompt{}, g.pass.prompts...)
		g.pass.mu.RUnlock()
		res.NextCursor = ""
	})
}

// readResource forwards resources/read for any URI.
func (g *Gateway) readResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	ctx = upstreamCtx(ctx)
	if err := g.ensureUpstream(ctx); err != nil {
		return nil, err
	}
	gen := g.up.Info().Generation
	res, err := g.up.ReadResource(ctx, req.Params.URI)
	if err != nil {
		return nil, g.upstreamErr("resources/read", gen, err)
	}
	if res.Result == nil {
		return nil, fmt.Errorf("upstream %s: resources/read %s: no contents", g.serverName(), req.Params.URI)
	}
	return res.Result.Contents, nil
}

// getPrompt forwards prompts/get.
func (g *Gateway) getPrompt(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	ctx = upstreamCtx(ctx)
	if err := g.ensureUpstream(ctx); err != nil {
		return nil, err
	}
	gen := g.up.Info().Generation
	res, err := g.up.GetPrompt(ctx, req.Params.Name, req.Params.Arguments)
	if err != nil {
		return nil, g.upstreamErr("prompts/get", gen, err)
	}
	if res.Result == nil {
		return nil, fmt.Errorf("upstream %s: prompts/get %s: no result", g.serverName(), req.Params.Name)
	}
	out := *res.Result
	out.Meta = ownMeta(out.Meta)
	if out.ResultType == mcp.ResultTypeComplete {
		// The 2026-07-28 stamp of the upstream's answer; mcp-go stamps
		// the gateway's own for clients of that revision.
		out.ResultType = ""
	}
	return &out, nil
}

// ownMeta drops the protocol's own _meta keys (io.modelcontextprotocol/...,
// such as the serverInfo a 2026-07-28 server attaches to every result):
// they describe the upstream's connection to the gateway, not the answer,
// and the gateway's clients have their own.
func ownMeta(m *mcp.Meta) *mcp.Meta {
	if m == nil {
		return nil
	}
	out := *m
	out.AdditionalFields = nil
	for k, v := range m.AdditionalFields {
		if strings.HasPrefix(k, "io.modelcontextprotocol/") {
			continue
		}
		if out.AdditionalFields == nil {
			out.AdditionalFields = map[string]any{}
		}
		out.AdditionalFields[k] = v
	}
	if out.ProgressToken == nil && len(out.AdditionalFields) == 0 {
		return nil
	}
	return &out
}

// forwardLog sends an upstream log message to the clients, each at the
// level it asked for. A client with a call in flight gets it on that call
// (a 2026-07-28 client sets its level per request, and over streamable HTTP
// the call's stream is where it is read); other clients of the older
// revisions get it at the level they set with logging/setLevel; a
// 2026-07-28 client with nothing in flight asked for nothing and gets
// nothing.
func (g *Gateway) forwardLog(e session.Event) {
	level := mcp.LoggingLevel(e.Level)
	switch level {
	case mcp.LoggingLevelDebug, mcp.LoggingLevelInfo, mcp.LoggingLevelNotice, mcp.LoggingLevelWarning,
		mcp.LoggingLevelError, mcp.LoggingLevelCritical, mcp.LoggingLevelAlert, mcp.LoggingLevelEmergency:
	default:
		level = mcp.LoggingLevelInfo
	}
	n := mcp.NewLoggingMessageNotification(level, e.Source, e.Text)
	g.clients.Range(func(k, v any) bool {
		id := k.(string)
		if ctx := g.inflight.latest(id); ctx != nil {
			_ = g.srv.SendLogMessageToClient(ctx, n)
			return true
		}
		if vs, ok := v.(server.SessionWithProtocolVersion); ok {
			if pv := vs.ProtocolVersion(); pv != "" && !mcp.IsModernProtocol(pv) {
				_ = g.srv.SendLogMessageToSpecificClient(id, n)
			}
		}
		return true
	})
}

// inflight tracks the calls each client has running, so side-channel
// messages can travel with one of them. A call stays on the list for
// linger after it ends: the upstream's log messages reach the gateway
// asynchronously, and those of a call may arrive just after its answer.
// No event marks the last of them. An upstream on stdio or HTTP has
// published them before its answer, but the event loop forwards them on
// its own time (and also runs list refreshes, which a call should not wait
// for); an in-process upstream (the built-in demo) has mcp-go deliver them
// on a goroutine of their own, after the answer, with nothing to wait on.
type inflight struct {
	mu    sync.Mutex
	calls map[string][]context.Context // client session id -> contexts, oldest first
}

// enter records a call; the returned func ends it.
func (f *inflight) enter(ctx context.Context) func() {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil {
		return func() {}
	}
	id := cs.SessionID()
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string][]context.Context{}
	}
	f.calls[id] = append(f.calls[id], ctx)
	f.mu.Unlock()
	return func() { time.AfterFunc(linger, func() { f.leave(id, ctx) }) }
}

// linger is how long an ended call still carries its client's log messages.
const linger = 250 * time.Millisecond

func (f *inflight) leave(id string, ctx context.Context) {
	f.mu.Lock()
	defer f.mu.Unlock()
	list := f.calls[id]
	for i, c := range list {
		if c == ctx {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(f.calls, id)
	} else {
		f.calls[id] = list
	}
}

func (f *inflight) latest(id string) context.Context {
	f.mu.Lock()
	defer f.mu.Unlock()
	if list := f.calls[id]; len(list) > 0 {
		return list[len(list)-1]
	}
	return nil
}
