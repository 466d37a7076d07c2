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

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/internal/wire"
	"github.com/mcpterm/mcpterm/session/policy"
)

// upstreamCaller is the gateway's session.Caller, through which the runner
// sends every call: a broken link is reconnected first, the client's
// request is kept out of the upstream call's context, and a call that got
// no usable answer fails with the *UpstreamError the client reads (which
// also marks the link broken when the failure leaves it in doubt).
type upstreamCaller struct{ g *Gateway }

func (u upstreamCaller) Call(ctx context.Context, req session.CallRequest) *session.CallResult {
	g := u.g
	// The upstream may ask its client something while this call runs: the
	// client asked is the one that made the call (forward.go).
	defer g.peers.calling(ctx)()
	ctx = upstreamCtx(ctx)
	if req.Arguments == nil {
		req.Arguments = ojson.NewObject()
	}
	if err := g.ensureUpstream(ctx); err != nil {
		return &session.CallResult{ID: req.ID, Tool: req.Tool, Arguments: req.Arguments, Started: time.Now(), Err: err}
	}
	gen := g.up.Info().Generation
	r := g.up.Call(ctx, req)
	op := "tools/call " + req.Tool
	switch {
	case r.Err != nil:
		r.Err = g.upstreamErr(op, gen, r.Err)
	case session.OutcomeOf(r).Err != nil:
		// An answer that is not a CallToolResult leaves the link in doubt.
		r.Err = g.upstreamErr(op, gen, &session.ProtocolError{Op: op, Err: errors.New("no CallToolResult object")})
	}
	return r
}

// runPlan runs a plan read from a client's call with the state's runner,
// which checks the whole plan with the policy before anything runs. A
// single call's upstream progress goes to p as it comes; a batch reports
// "N of M <unit> done" as its calls finish. Refusals are worded for the
// model that made the call.
func (g *Gateway) runPlan(ctx context.Context, st *state, plan *calls.Plan, p *progress, unit string) []calls.Outcome {
	defer p.flush()
	var o session.RunOptions
	if !plan.Batch && len(plan.Items) == 1 {
		o.OnProgress = func(_ int, e session.Event) { p.upstream(e) }
	} else {
		total := 0
		for i := range plan.Items {
			if !plan.Items[i].IsLocal() {
				total++
			}
		}
		done := 0 // OnItem calls are serialised
		o.OnItem = func(_ int, r session.ItemResult) {
			if r.Call == nil {
				return // answered locally, refused or never started
			}
			done++
			p.send(float64(done), float64(total), fmt.Sprintf("%d of %d %s done", done, total, unit))
		}
	}
	// A destructive call is confirmed by asking the person through the
	// client whose call it is, when it can be asked (confirm.go).
	o.Confirm = g.confirmFor(ctx, plan)
	res := st.runner.Run(ctx, plan, o)
	outs := res.Outcomes()
	for i, it := range res.Items {
		if f := outs[i].Err; f != nil && (f.Kind == calls.FailRefused || f.Kind == calls.FailConfirm) {
			outs[i].Err = refusal(it.Decision)
		}
	}
	return outs
}

// refusal is the failure of a call the policy did not let through, in
// words for a model: nothing reached the upstream.
func refusal(d policy.Decision) *calls.Failure {
	if d.Verdict == policy.Confirm && d.Rule == ruleDeclined {
		// The person was asked through the client and did not agree.
		return &calls.Failure{Kind: calls.FailConfirm, Message: "refused: " + d.Reason +
			"; do not retry it unless the person asks for it again"}
	}
	if d.Verdict == policy.Confirm {
		// The policy's advice ("pass --yes") is for a command line; a
		// model cannot pass flags to the gateway.
		reason := strings.TrimSuffix(d.Reason, "; pass --yes to run it")
		return &calls.Failure{Kind: calls.FailConfirm, Message: "refused: " + reason +
			", and this gateway was started without --yes (or a --yes=PATTERN matching it), and the client cannot ask the person " +
			"(it declared no form-mode elicitation), so it refuses destructive tools; " +
			"only the person running `mcpterm serve` can allow them, by restarting it with --yes or --yes=TOOL"}
	}
	return &calls.Failure{Kind: calls.FailRefused, Message: "refused by the gateway's policy: " + d.Reason}
}

// progress forwards progress to the client that made a request, under the
// client's own token. Without a token the client did not ask for progress
// and gets none. It is safe for concurrent use and keeps the values it
// sends increasing, as the protocol requires.
type progress struct {
	ctx   context.Context
	srv   *server.MCPServer
	token mcp.ProgressToken
	// ledger is the client connection's (wire): served on stdio or
	// streamable HTTP, a call's answer waits until the progress it sent is
	// written, because mcp-go sends the two from different goroutines and
	// clients drop progress that arrives after the answer.
	ledger *wire.Ledger

	mu    sync.Mutex
	last  float64
	sent  bool
	marks []wire.Mark
}

func newProgress(ctx context.Context, req mcp.CallToolRequest) *progress {
	p := &progress{ctx: ctx, srv: server.ServerFromContext(ctx), ledger: wire.From(ctx)}
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
	// Noted before it is handed over, so the write cannot be missed.
	m := p.ledger.Note(p.token, value)
	if p.srv.SendNotificationToClient(p.ctx, string(mcp.MethodNotificationProgress), params) != nil {
		p.ledger.Unnote(m)
		return
	}
	p.marks = append(p.marks, m)
}

// flush holds the answer until the progress sent for it is on the wire, or
// the request ends (mcp-go cancels it when the client's stream ends, so a
// call never waits for progress that will not be written).
func (p *progress) flush() {
	p.mu.Lock()
	marks := p.marks
	p.mu.Unlock()
	_ = p.ledger.Await(p.ctx, marks...)
}

// upstream passes one call's upstream progress on unchanged.
func (p *progress) upstream(e session.Event) {
	if e.Kind == session.EventTask {
		p.task(e) // tasks.go
		return
	}
	p.send(e.Progress, e.Total, e.Text)
}

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
// headers, protocol revision and progress ledger from it, and answer that
// client directly.
type detached struct{ parent context.Context }

func (d detached) Deadline() (time.Time, bool) { return d.parent.Deadline() }
func (d detached) Done() <-chan struct{}       { return d.parent.Done() }
func (d detached) Err() error                  { return d.parent.Err() }
func (d detached) Value(any) any               { return nil }

// upstreamCtx is ctx for a request to the upstream.
func upstreamCtx(ctx context.Context) context.Context { return detached{ctx} }
