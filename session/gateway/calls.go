package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// RefusedError is a call the policy did not let through; nothing reached
// the upstream.
type RefusedError struct {
	Decision policy.Decision
}

func (e *RefusedError) Error() string {
	if e.Decision.Verdict == policy.Confirm {
		// The policy's advice ("pass --yes") is for a command line; a
		// model cannot pass flags to the gateway.
		reason := strings.TrimSuffix(e.Decision.Reason, "; pass --yes to run it")
		return "refused: " + reason + ", and this gateway was started without --yes, so it refuses destructive tools; " +
			"only the person running `mcpterm serve` can allow them, by restarting it with --yes"
	}
	return "refused by the gateway's policy: " + e.Decision.Reason
}

// upstreamCall is one tools/call to run upstream on behalf of a client.
type upstreamCall struct {
	Tool      string
	Arguments *ojson.Value
	// OnProgress, when set, sees the upstream's progress for this call.
	OnProgress func(session.Event)
}

// call runs one upstream tools/call: the policy decides, a broken link is
// reconnected first, the outcome is audited. It returns the CallToolResult
// as the upstream sent it, or why there is none (*RefusedError,
// *UpstreamError, or the upstream's JSON-RPC error inside an
// *UpstreamError).
func (g *Gateway) call(ctx context.Context, st *state, c upstreamCall) (*ojson.Value, error) {
	ctx = upstreamCtx(ctx)
	args := c.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	rec := policy.AuditRecord{Server: st.set.Server, Tool: c.Tool, Arguments: json.RawMessage(args.Compact())}
	dec := policy.Decision{Verdict: policy.Allow, Reason: "no policy"}
	if g.opts.Policy != nil {
		dec = g.opts.Policy.Check(policy.CallOf(c.Tool, st.set.Find(c.Tool), st.category[c.Tool]))
	}
	rec.Decision, rec.Reason = dec.Verdict, dec.Reason
	if !dec.Allowed() {
		g.audit(rec)
		return nil, &RefusedError{Decision: dec}
	}
	if err := g.ensureUpstream(ctx); err != nil {
		rec.Outcome, rec.Error = "error", err.Error()
		g.audit(rec)
		return nil, err
	}
	gen := g.up.Info().Generation
	r := g.up.Call(ctx, session.CallRequest{Tool: c.Tool, Arguments: args, OnProgress: c.OnProgress})
	rec.Duration = r.Duration
	if r.Err != nil {
		err := g.upstreamErr("tools/call "+c.Tool, gen, r.Err)
		rec.Outcome, rec.Error = "error", r.Err.Error()
		if session.Classify(r.Err) == session.ClassTimeout {
			rec.Outcome = "timeout"
		}
		g.audit(rec)
		return nil, err
	}
	raw := r.Raw
	if raw == nil && r.Result != nil {
		// The session had no raw copy (cannot happen over the wire); the
		// typed result is the next best thing.
		if b, err := json.Marshal(r.Result); err == nil {
			raw, _ = ojson.Parse(b)
		}
	}
	if raw == nil || raw.Kind != ojson.Object {
		err := g.upstreamErr("tools/call "+c.Tool, gen, &session.ProtocolError{Op: "tools/call " + c.Tool, Err: errors.New("no CallToolResult object")})
		rec.Outcome, rec.Error = "error", err.Error()
		g.audit(rec)
		return nil, err
	}
	rec.Outcome = "ok"
	if r.IsError {
		rec.Outcome = "tool_error"
	}
	rec.Bytes = len(raw.Compact())
	g.audit(rec)
	return raw, nil
}

func (g *Gateway) audit(rec policy.AuditRecord) {
	if g.opts.Audit == nil {
		return
	}
	if err := g.opts.Audit.Record(rec); err != nil {
		g.notef("audit log: %v", err)
	}
}

// progress forwards progress to the client that made a request, under the
// client's own token. Without a token the client did not ask for progress
// and gets none. The returned func is safe for concurrent use and keeps the
// values it sends increasing, as the protocol requires.
type progress struct {
	ctx     context.Context
	srv     *server.MCPServer
	token   mcp.ProgressToken
	barrier *notifyBarrier

	mu   sync.Mutex
	last float64
	sent bool
}

func (g *Gateway) newProgress(ctx context.Context, req mcp.CallToolRequest) *progress {
	p := &progress{ctx: ctx, srv: server.ServerFromContext(ctx), barrier: g.barrier}
	if req.Params.Meta != nil {
		p.token = req.Params.Meta.ProgressToken
	}
	return p
}

// send reports value (of total, when total > 0) with a message.
func (p *progress) send(value, total float64, message string) {
	if p == nil || p.token == nil || p.srv == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sent && value <= p.last {
		return
	}
	p.last, p.sent = value, true
	params := map[string]any{"progressToken": p.token, "progress": value}
	if total > 0 {
		params["total"] = total
	}
	if message != "" {
		params["message"] = message
	}
	if p.srv.SendNotificationToClient(p.ctx, string(mcp.MethodNotificationProgress), params) == nil && p.barrier != nil {
		p.barrier.noteSent()
	}
}

// flush holds the answer until the progress sent for it is on the wire, or
// the request ends (mcp-go's stdio server cancels it when the stream ends,
// so a call never waits for progress that will not be written).
func (p *progress) flush() {
	if p == nil || p.barrier == nil {
		return
	}
	p.mu.Lock()
	sent := p.sent
	p.mu.Unlock()
	if sent {
		p.barrier.waitContext(p.ctx)
	}
}

// upstream passes one call's upstream progress on unchanged.
func (p *progress) upstream(e session.Event) { p.send(e.Progress, e.Total, e.Text) }

// rawArguments reads a tools/call's arguments keeping key order and exact
// numbers when the transport kept the raw JSON.
func rawArguments(req mcp.CallToolRequest) (*ojson.Value, error) {
	var data []byte
	switch a := req.GetRawArguments().(type) {
	case json.RawMessage:
		data = a
	case nil:
		return ojson.NewObject(), nil
	default:
		b, err := json.Marshal(a)
		if err != nil {
			return nil, fmt.Errorf("arguments: %w", err)
		}
		data = b
	}
	if len(data) == 0 || string(data) == "null" {
		return ojson.NewObject(), nil
	}
	return ojson.Parse(data)
}

// detached is a request's context stripped of its values: it ends when the
// request ends, but carries nothing of it upstream. An in-process upstream
// (the demo server) would otherwise read the gateway client's session, HTTP
// headers and protocol revision from it, and answer that client directly.
type detached struct{ parent context.Context }

func (d detached) Deadline() (time.Time, bool) { return d.parent.Deadline() }
func (d detached) Done() <-chan struct{}       { return d.parent.Done() }
func (d detached) Err() error                  { return d.parent.Err() }
func (d detached) Value(any) any               { return nil }

// upstreamCtx is ctx for a request to the upstream.
func upstreamCtx(ctx context.Context) context.Context { return detached{ctx} }
