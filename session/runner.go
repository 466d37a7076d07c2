package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
)

// Caller runs one tools/call and always returns a result. *Session is one;
// the gateway passes its own, which reconnects a broken upstream first.
type Caller interface {
	Call(ctx context.Context, req CallRequest) *CallResult
}

// RunnerOptions are the rules and records of a Runner.
type RunnerOptions struct {
	// Policy decides which calls may run; nil means the default rules
	// (policy.Rules{}: everything allowed, destructive tools confirmed).
	Policy *policy.Policy
	// History, when set, gets one entry per call sent.
	History *history.Log
	// Audit, when set, gets one line per call sent and per refusal.
	Audit *policy.Audit
	// Server names the server in history entries and audit lines
	// (Info.RecordName).
	Server string
	// RecordError hears a history or audit line that could not be written;
	// the call itself is unaffected. nil ignores them.
	RecordError func(error)
	// Redactor is the session's (Target.Redactor). Before a plan runs it
	// learns the values of the plan's secret-named arguments, so they are
	// hidden in every record and output of the session, not only in the
	// arguments. nil uses the History's.
	Redactor *safe.Redactor
}

// Runner runs calls.Plans against one server's tool list, the same way for
// every face: the policy sees the whole plan before anything runs, the
// items are scheduled (in order, or several at once, stopping on error if
// asked), local AQL answers need no server, and every call sent leaves one
// history entry and one audit line. It is safe for concurrent use; build
// one per tool list, with that list's codec.
type Runner struct {
	caller Caller
	codec  *calls.Codec
	opts   RunnerOptions
	pol    *policy.Policy
}

// NewRunner prepares a runner that sends calls through c. The codec (the
// one the plans were read with) gives the tools' annotations and their AQL
// categories, so a tool the classification or --aql-map calls a delete is
// destructive for every face; nil knows no tool, and every tool is then
// destructive, as MCP's defaults say.
func NewRunner(c Caller, codec *calls.Codec, o RunnerOptions) *Runner {
	pol := o.Policy
	if pol == nil {
		// Rules without patterns cannot fail to compile.
		pol, _ = policy.New(policy.Rules{})
	}
	return &Runner{caller: c, codec: codec, opts: o, pol: pol}
}

// RunOptions are one run's extras.
type RunOptions struct {
	// Confirmed says the user has already agreed to the calls the policy
	// wants confirmed (a UI that asked before running).
	Confirmed bool
	// Confirm, when set and not Confirmed, is asked once before anything
	// runs if some item needs confirmation. It gets the decisions in plan
	// order (Verdict Confirm marks those asking) and says whether to go on.
	// It may reword the Reason and Rule of those it did not confirm (the
	// gateway says who was asked and what they answered); the refusals
	// are rendered and audited with them.
	Confirm func(ctx context.Context, decisions []policy.Decision) bool
	// Timeout bounds each call's wait for an answer or progress; 0 is the
	// caller's own.
	Timeout time.Duration
	// MaxTime is each call's overall deadline, which progress does not
	// extend; 0 is the caller's own.
	MaxTime time.Duration
	// OnProgress sees each call's progress notifications with the index of
	// its item. Calls running at once report concurrently.
	OnProgress func(item int, e Event)
	// OnItem sees each item as it is settled: answered, failed, refused or
	// skipped. Calls to it are serialised.
	OnItem func(item int, r ItemResult)
	// HoldAudit keeps the audit lines of the calls sent until WriteAudit,
	// so a face that prints the answers after the run can record how much
	// it printed and how much a cap left out (the command line's
	// --max-output). Refusals are written at once: nothing is printed.
	HoldAudit bool
	// AsTask runs calls of tools whose taskSupport is "optional" as tasks
	// (CallRequest.AsTask); "required" ones always are.
	AsTask bool
}

// ItemResult is what became of one item of a plan.
type ItemResult struct {
	Decision policy.Decision
	// Call is the call as sent; nil for items answered locally, refused,
	// or never started (skipped, cancelled).
	Call *CallResult
	// Outcome is what every face renders with convert/calls. A local item's
	// is empty: the codec answers it from the item's Local.
	Outcome calls.Outcome
}

// RunResult is one run of a plan.
type RunResult struct {
	Items []ItemResult // one per plan item, in plan order
	// Refused is set when the policy stopped the plan (a Deny, or a
	// confirmation not given): nothing was sent.
	Refused  bool
	Started  time.Time
	Duration time.Duration

	held *heldAudit // HoldAudit: the lines WriteAudit writes
}

// Outcomes lists the items' outcomes in plan order.
func (r *RunResult) Outcomes() []calls.Outcome {
	out := make([]calls.Outcome, len(r.Items))
	for i, it := range r.Items {
		out[i] = it.Outcome
	}
	return out
}

// localDecision is the verdict on an item answered without the server.
func localDecision() policy.Decision {
	return policy.Decision{Verdict: policy.Allow, Rule: "local", Reason: "answered locally; nothing is sent to the server"}
}

// RecordName is how history entries and audit lines name the server: its
// own name, else the description of the source (never a secret).
func (in Info) RecordName() string {
	if in.Name != "" {
		return in.Name
	}
	return in.Source
}

// Check returns the policy's decision on every item of p, in plan order,
// without running anything.
func (r *Runner) Check(p *calls.Plan) []policy.Decision {
	if p == nil {
		return nil
	}
	out := make([]policy.Decision, len(p.Items))
	for i := range p.Items {
		it := &p.Items[i]
		if it.IsLocal() {
			out[i] = localDecision()
			continue
		}
		// The tool by its identity: every name that reaches it through
		// this codec is matched, not only the one the call used.
		out[i] = r.pol.Check(policy.CallFor(r.codec, it.Tool))
	}
	return out
}

// Run checks p and runs it. If any item is denied, or some need
// confirmation that neither o.Confirmed nor o.Confirm gives, nothing is
// sent: those items fail as FailRefused or FailConfirm (and are audited),
// the rest as FailSkipped. Otherwise the items run: an AQL plan one after
// another in order, any other plan with p.Concurrency in flight; with
// p.StopOnError a failure skips the items not yet started; a cancelled ctx
// leaves them FailCancelled. Local items are answered without the server,
// whatever else happens. p.Source goes to the history: on a single call's
// entry, and as the batch on every entry of a batch. The result is never
// nil.
func (r *Runner) Run(ctx context.Context, p *calls.Plan, o RunOptions) *RunResult {
	res := &RunResult{Started: time.Now()}
	if o.HoldAudit {
		res.held = &heldAudit{}
	}
	defer func() { res.Duration = time.Since(res.Started) }()
	if p == nil {
		return res
	}
	r.learnPlan(p)
	decs := r.Check(p)
	res.Items = make([]ItemResult, len(p.Items))
	for i := range res.Items {
		res.Items[i].Decision = decs[i]
	}
	var mu sync.Mutex // serialises OnItem
	settle := func(i int, call *CallResult, out calls.Outcome) {
		mu.Lock()
		defer mu.Unlock()
		res.Items[i].Call, res.Items[i].Outcome = call, out
		if o.OnItem != nil {
			o.OnItem(i, res.Items[i])
		}
	}

	denied, asking := false, false
	for _, d := range decs {
		denied = denied || d.Verdict == policy.Deny
		asking = asking || d.Verdict == policy.Confirm
	}
	confirmed := false
	if asking && !denied {
		confirmed = o.Confirmed || (o.Confirm != nil && o.Confirm(ctx, decs))
		// Confirm may have reworded the decisions it asked about (who was
		// asked, what they answered): the items and the records say that.
		for i := range res.Items {
			res.Items[i].Decision = decs[i]
		}
	}
	if denied || (asking && !confirmed) {
		res.Refused = true
		r.refuse(p, decs, denied, settle)
		return res
	}

	batch := ""
	if p.Batch {
		batch = p.Source // clipped per entry, after redaction
	}
	conc := p.Concurrency
	if p.Syntax == calls.AQL {
		conc = 1
	}
	local := func(i int) bool {
		it := &p.Items[i]
		if !it.IsLocal() {
			return false
		}
		settle(i, nil, calls.Outcome{})
		return true
	}
	run := func(i int) (failed bool) {
		it := &p.Items[i]
		req := CallRequest{ID: it.ID, Tool: it.Tool, Arguments: it.Arguments, Timeout: o.Timeout, MaxTime: o.MaxTime, AsTask: o.AsTask}
		if o.OnProgress != nil {
			req.OnProgress = func(e Event) { o.OnProgress(i, e) }
		}
		cr := r.call(ctx, req)
		out := OutcomeOf(cr)
		if out.Result != nil && out.Result == cr.Raw {
			// Every face renders a run's items from Outcome (the result as
			// sent); mcp-go's typed view of the same result would be a
			// second copy of it for as long as the run is kept.
			cr.Result = nil
		}
		r.recordHistory(cr, p.Source, batch)
		if res.held != nil {
			res.held.add(i, r.auditRecord(cr, out, decs[i]))
		} else {
			r.auditRun(cr, out, decs[i])
		}
		settle(i, cr, out)
		return !cr.OK() || out.Err != nil
	}
	skip := func(i int, why error) { settle(i, nil, calls.Outcome{Err: FailureOf(why)}) }
	schedule(ctx, len(p.Items), conc, p.StopOnError, local, run, skip)
	return res
}

func (r *Runner) call(ctx context.Context, req CallRequest) *CallResult {
	if r.caller == nil {
		return &CallResult{ID: req.ID, Tool: req.Tool, Arguments: req.Arguments, Started: time.Now(),
			Err: &ConnectionError{Op: "tools/call " + req.Tool, Err: errors.New("no server to call")}}
	}
	return r.caller.Call(ctx, req)
}

// refuse settles every item of a plan the policy stopped, auditing each
// refusal.
func (r *Runner) refuse(p *calls.Plan, decs []policy.Decision, denied bool, settle func(int, *CallResult, calls.Outcome)) {
	why := "not run: another call of the plan needs confirmation"
	if denied {
		why = "not run: another call of the plan was refused"
	}
	for i := range p.Items {
		it, d := &p.Items[i], decs[i]
		var f *calls.Failure
		switch d.Verdict {
		case policy.Deny:
			f = &calls.Failure{Kind: calls.FailRefused, Message: d.Reason}
		case policy.Confirm:
			f = &calls.Failure{Kind: calls.FailConfirm, Message: d.Reason}
		default:
			f = &calls.Failure{Kind: calls.FailSkipped, Message: why}
		}
		if d.Verdict != policy.Allow {
			rec := policy.AuditRecord{Server: r.opts.Server, Tool: it.Tool, Decision: d.Verdict, Reason: d.Reason}
			if it.Arguments != nil {
				rec.Arguments = json.RawMessage(it.Arguments.Compact())
			}
			r.audit(rec)
		}
		settle(i, nil, calls.Outcome{Err: f})
	}
}

// recordHistory appends a call that was sent to the history, whatever its
// outcome: a single call keeps its source, a batch call the batch and its
// id.
func (r *Runner) recordHistory(cr *CallResult, src, batch string) {
	if r.opts.History == nil {
		return
	}
	e := history.Entry{
		Time: cr.Started, Server: r.opts.Server, Tool: cr.Tool, Duration: cr.Duration,
		Outcome: history.OK, Summary: r.opts.History.Summary(firstText(cr.Raw)), Batch: r.clipSource(batch), BatchID: cr.ID,
	}
	if batch == "" {
		e.Source = r.clipSource(src)
	}
	if cr.Arguments != nil {
		e.Arguments = json.RawMessage(cr.Arguments.Compact())
	}
	switch {
	case cr.Err != nil && Classify(cr.Err) == ClassCancelled:
		e.Outcome, e.Error = history.Cancelled, cr.Err.Error()
	case cr.Err != nil:
		e.Outcome, e.Error = history.Failed, cr.Err.Error()
	case cr.IsError:
		e.Outcome = history.ToolError
	case cr.SchemaErr != nil:
		e.Outcome, e.Error = history.ToolError, cr.SchemaErr.Error()
	}
	if err := r.opts.History.Append(e); err != nil && r.opts.RecordError != nil {
		r.opts.RecordError(fmt.Errorf("history: %w", err))
	}
}

// firstText is the first text of a result, whole: the history shortens it
// after redacting it (history.Log.Summary). A result that is not an
// object, or has no content list, has none (and must not panic: the
// history records whatever a hostile server answered).
func firstText(raw *ojson.Value) string {
	content := raw.Get("content")
	if content == nil {
		return ""
	}
	for _, it := range content.Items {
		if t := it.Get("text"); t != nil && t.Kind == ojson.String {
			return t.Str
		}
	}
	return ""
}

// auditRun writes the audit line of a call that was sent. A call the user
// confirmed is recorded as allowed, with the reason saying so.
func (r *Runner) auditRun(cr *CallResult, out calls.Outcome, d policy.Decision) {
	if r.opts.Audit == nil {
		return
	}
	r.audit(r.auditRecord(cr, out, d))
}

// auditRecord is the audit line of a call that was sent.
func (r *Runner) auditRecord(cr *CallResult, out calls.Outcome, d policy.Decision) policy.AuditRecord {
	rec := policy.AuditRecord{Time: cr.Started, Server: r.opts.Server, Tool: cr.Tool, Decision: d.Verdict, Reason: d.Reason,
		Duration: cr.Duration, Outcome: "ok"}
	if d.Verdict == policy.Confirm {
		rec.Decision = policy.Allow
		rec.Reason = strings.TrimSuffix(d.Reason, "; pass --yes to run it") + ", and the user confirmed it"
	}
	if cr.Arguments != nil {
		rec.Arguments = json.RawMessage(cr.Arguments.Compact())
	}
	if out.Result != nil {
		rec.Bytes = len(out.Result.Compact())
	}
	switch {
	case out.Err != nil && out.Err.Kind == calls.FailTimeout:
		rec.Outcome, rec.Error = "timeout", errText(cr.Err, out.Err)
	case out.Err != nil && out.Err.Kind == calls.FailCancelled:
		rec.Outcome, rec.Error = "cancelled", errText(cr.Err, out.Err)
	case out.Err != nil:
		rec.Outcome, rec.Error = "error", errText(cr.Err, out.Err)
	case cr.IsError:
		rec.Outcome = "tool_error"
	case cr.SchemaErr != nil:
		rec.Outcome, rec.Error = "tool_error", cr.SchemaErr.Error()
	}
	return rec
}

// errText is the session's own error text when there is one (it names the
// method and the server's words), else the failure's.
func errText(err error, f *calls.Failure) string {
	if err != nil {
		return err.Error()
	}
	return f.Message
}

func (r *Runner) audit(rec policy.AuditRecord) {
	if r.opts.Audit == nil {
		return
	}
	if err := r.opts.Audit.Record(rec); err != nil && r.opts.RecordError != nil {
		r.opts.RecordError(err)
	}
}

// OutcomeOf is what a call's result means for rendering: the result as the
// server sent it, or the Failure saying why there is none. A result that
// reports isError or breaks its outputSchema is still a result.
func OutcomeOf(cr *CallResult) calls.Outcome {
	if cr == nil {
		return calls.Outcome{Err: &calls.Failure{Kind: calls.FailOther, Message: "no result"}}
	}
	if cr.Err != nil {
		return calls.Outcome{Err: FailureOf(cr.Err)}
	}
	raw := cr.Raw
	if raw == nil && cr.Result != nil {
		// No raw copy (cannot happen over the wire): the typed result is
		// the next best thing.
		if b, err := json.Marshal(cr.Result); err == nil {
			raw, _ = ojson.Parse(b)
		}
	}
	if raw == nil || raw.Kind != ojson.Object {
		err := &ProtocolError{Op: "tools/call " + cr.Tool, Err: errors.New("no CallToolResult object")}
		return calls.Outcome{Err: FailureOf(err)}
	}
	return calls.Outcome{Result: raw}
}

// FailureOf classifies a session error for rendering: a JSON-RPC error
// keeps its code, message and data; the rest get the kind of their Classify
// bucket and the error's text. nil gives nil.
func FailureOf(err error) *calls.Failure {
	if err == nil {
		return nil
	}
	var (
		f    *calls.Failure
		rpc  *RPCError
		perr *ProtocolError
	)
	switch {
	case errors.As(err, &f):
		return f
	case errors.As(err, &rpc):
		out := &calls.Failure{Kind: calls.FailRPC, Code: int64(rpc.Code), Message: rpc.Message}
		if len(rpc.Data) > 0 {
			out.Data, _ = ojson.Parse(rpc.Data)
		}
		return out
	case errors.Is(err, ErrSkipped):
		return &calls.Failure{Kind: calls.FailSkipped, Message: err.Error()}
	case errors.As(err, &perr):
		return &calls.Failure{Kind: calls.FailBadAnswer, Message: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return &calls.Failure{Kind: calls.FailTimeout, Message: err.Error()}
	}
	kind := calls.FailOther
	switch Classify(err) {
	case ClassTimeout:
		kind = calls.FailTimeout
	case ClassCancelled:
		kind = calls.FailCancelled
	case ClassConnection:
		kind = calls.FailConnection
	case ClassUsage:
		kind = calls.FailUsage
	}
	return &calls.Failure{Kind: kind, Message: err.Error()}
}

// schedule is the one batch scheduler: it starts the items 0..n-1 in
// order, at most conc (at least 1) at once. local(i), when set, answers an
// item in place (it still waits its turn, so a sequential run stays in
// order, but it is never skipped). run(i) runs an item and reports whether
// it failed. Once one failed under stopOnError, or ctx has ended, the items
// not yet started go to skip(i, why) instead, why being ErrSkipped or "not
// run: " and ctx's cause. It returns when every item is settled.
func schedule(ctx context.Context, n, conc int, stopOnError bool, local func(int) bool, run func(int) bool, skip func(int, error)) {
	conc = max(conc, 1)
	var (
		mu      sync.Mutex
		stopped bool
		wg      sync.WaitGroup
	)
	sem := make(chan struct{}, conc)
	for i := range n {
		sem <- struct{}{}
		if local != nil && local(i) {
			<-sem
			continue
		}
		mu.Lock()
		skipped := stopped
		mu.Unlock()
		if skipped || ctx.Err() != nil {
			<-sem
			why := ErrSkipped
			if !skipped {
				why = fmt.Errorf("not run: %w", context.Cause(ctx))
			}
			skip(i, why)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if run(i) && stopOnError {
				mu.Lock()
				stopped = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}
