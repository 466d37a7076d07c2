package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/history"
	"github.com/mcpterm/mcpterm/session/policy"
)

// rnRig is a runner over a live session with its history and audit files
// in a temporary directory.
type rnRig struct {
	t         *testing.T
	s         *Session
	set       *toolset.Set
	hist      *history.Log
	auditPath string
	audit     *policy.Audit
	recErrs   []error
}

func newRnRig(t *testing.T, src Source) *rnRig {
	t.Helper()
	s := open(t, src, Options{})
	set, err := s.Tools(ctxT(t, 20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	hist, err := history.Open(filepath.Join(dir, "history.jsonl"), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rg := &rnRig{t: t, s: s, set: set, hist: hist, auditPath: filepath.Join(dir, "audit.jsonl")}
	if rg.audit, err = policy.OpenAudit(rg.auditPath, nil); err != nil {
		t.Fatal(err)
	}
	return rg
}

func rnDemoRig(t *testing.T) *rnRig {
	return newRnRig(t, Source{Kind: InProcess, Name: "demo", Server: demo.New(demo.Options{})})
}

func (rg *rnRig) runner(o RunnerOptions) *Runner {
	o.History, o.Audit, o.Server = rg.hist, rg.audit, "demo-server"
	o.RecordError = func(err error) { rg.recErrs = append(rg.recErrs, err) }
	return NewRunner(rg.s, rg.codec(calls.Options{}), o)
}

func (rg *rnRig) codec(o calls.Options) *calls.Codec { return calls.New(rg.set, o) }

// entries is the history, oldest first.
func (rg *rnRig) entries() []history.Entry {
	rg.t.Helper()
	es, err := rg.hist.Recent(0)
	if err != nil {
		rg.t.Fatal(err)
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

func (rg *rnRig) auditRecords() []policy.AuditRecord {
	rg.t.Helper()
	data, err := os.ReadFile(rg.auditPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		rg.t.Fatal(err)
	}
	var out []policy.AuditRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r policy.AuditRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			rg.t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// sentCalls counts the tools/call requests that reached the transport.
func (rg *rnRig) sentCalls() int {
	n := 0
	for _, m := range rg.s.Tap().Messages() {
		if m.Dir == Sent && m.Kind == KindRequest && m.Method == "tools/call" {
			n++
		}
	}
	return n
}

func rnItem(t *testing.T, id, tool, args string) calls.Item {
	it := calls.Item{ID: id, Tool: tool}
	if args != "" {
		it.Arguments = obj(t, args)
	}
	return it
}

func rnBatch(conc int, stop bool, items ...calls.Item) *calls.Plan {
	return &calls.Plan{Syntax: calls.SExpr, Batch: true, Concurrency: conc, StopOnError: stop, Items: items}
}

func rnFailKind(it ItemResult) calls.FailureKind {
	if it.Outcome.Err == nil {
		return ""
	}
	return it.Outcome.Err.Kind
}

func TestRunnerSingleCallHistoryAndAudit(t *testing.T) {
	rg := rnDemoRig(t)
	src := `(file_read "/docs/README.md" :limit 5)`
	plan := &calls.Plan{Syntax: calls.SExpr, Source: src, Items: []calls.Item{rnItem(t, "", "file_read", `{"path":"/docs/README.md","limit":5}`)}}
	res := rg.runner(RunnerOptions{}).Run(ctxT(t, 20*time.Second), plan, RunOptions{})
	it := res.Items[0]
	if res.Refused || it.Outcome.Err != nil || it.Outcome.Result == nil || it.Call == nil || !it.Call.OK() || it.Decision.Verdict != policy.Allow {
		t.Fatalf("run: %+v", it)
	}
	if it.Outcome.Result != it.Call.Raw {
		t.Error("outcome is not the raw result")
	}
	if it.Call.Result != nil {
		t.Error("the run keeps mcp-go's typed copy of the result beside the raw one")
	}
	es := rg.entries()
	if len(es) != 1 {
		t.Fatalf("%d history entries", len(es))
	}
	e := es[0]
	if e.Source != src || e.Batch != "" || e.Tool != "file_read" || e.Server != "demo-server" || e.Outcome != history.OK ||
		!strings.Contains(e.Summary, "# mcp") || string(e.Arguments) != `{"path":"/docs/README.md","limit":5}` {
		t.Errorf("history entry %+v", e)
	}
	recs := rg.auditRecords()
	if len(recs) != 1 || recs[0].Tool != "file_read" || recs[0].Decision != policy.Allow || recs[0].Outcome != "ok" ||
		recs[0].Bytes != len(it.Call.Raw.Compact()) || recs[0].Server != "demo-server" || recs[0].Reason == "" {
		t.Errorf("audit %+v", recs)
	}
	if len(rg.recErrs) > 0 {
		t.Errorf("record errors: %v", rg.recErrs)
	}
}

func TestRunnerBatchHistory(t *testing.T) {
	rg := rnDemoRig(t)
	src := `(batch (a (file_read "/docs/README.md")) (b (file_read "/no/such")))`
	plan := rnBatch(0, false, rnItem(t, "a", "file_read", `{"path":"/docs/README.md"}`), rnItem(t, "b", "file_read", `{"path":"/no/such"}`))
	plan.Source = src
	var order []int
	res := rg.runner(RunnerOptions{}).Run(ctxT(t, 20*time.Second), plan, RunOptions{
		OnItem: func(i int, r ItemResult) { order = append(order, i) }})
	if len(order) != 2 || order[0] != 0 || order[1] != 1 {
		t.Errorf("items settled in order %v", order)
	}
	if !res.Items[0].Call.OK() || !res.Items[1].Call.IsError || res.Items[1].Outcome.Err != nil {
		t.Fatalf("outcomes %+v %+v", res.Items[0], res.Items[1])
	}
	es := rg.entries()
	if len(es) != 2 {
		t.Fatalf("%d history entries", len(es))
	}
	for i, e := range es {
		if e.Source != "" || e.Batch != src || e.BatchID != plan.Items[i].ID {
			t.Errorf("entry %d: source %q batch %q id %q", i, e.Source, e.Batch, e.BatchID)
		}
	}
	if es[0].Outcome != history.OK || es[1].Outcome != history.ToolError {
		t.Errorf("outcomes %s %s", es[0].Outcome, es[1].Outcome)
	}
	recs := rg.auditRecords()
	if len(recs) != 2 || recs[0].Outcome != "ok" || recs[1].Outcome != "tool_error" {
		t.Errorf("audit %+v", recs)
	}
}

// TestRunnerRefusalRunsNothing: one denied item stops the whole plan
// before anything is sent; only the refusal is audited.
func TestRunnerRefusalRunsNothing(t *testing.T) {
	rg := rnDemoRig(t)
	pol, err := policy.New(policy.Rules{Deny: []string{"file_*"}})
	if err != nil {
		t.Fatal(err)
	}
	before := rg.sentCalls()
	plan := rnBatch(2, false, rnItem(t, "1", "list_todos", ""), rnItem(t, "2", "file_read", `{"path":"/docs/README.md"}`),
		calls.Item{ID: "3", Local: obj(t, `{"success":true,"data":null}`)})
	settled := 0
	res := rg.runner(RunnerOptions{Policy: pol}).Run(ctxT(t, 20*time.Second), plan, RunOptions{OnItem: func(int, ItemResult) { settled++ }})
	if !res.Refused || settled != 3 {
		t.Fatalf("refused %v, %d settled", res.Refused, settled)
	}
	if rnFailKind(res.Items[0]) != calls.FailSkipped || rnFailKind(res.Items[1]) != calls.FailRefused || rnFailKind(res.Items[2]) != calls.FailSkipped {
		t.Errorf("kinds %s %s %s", rnFailKind(res.Items[0]), rnFailKind(res.Items[1]), rnFailKind(res.Items[2]))
	}
	if !strings.Contains(res.Items[1].Outcome.Err.Message, `--deny "file_*"`) {
		t.Errorf("refusal says %q", res.Items[1].Outcome.Err.Message)
	}
	for i, it := range res.Items {
		if it.Call != nil {
			t.Errorf("item %d has a call", i)
		}
	}
	if rg.sentCalls() != before || len(rg.entries()) != 0 {
		t.Errorf("something ran: %d calls sent, %d history entries", rg.sentCalls()-before, len(rg.entries()))
	}
	recs := rg.auditRecords()
	if len(recs) != 1 || recs[0].Tool != "file_read" || recs[0].Decision != policy.Deny || recs[0].Outcome != "" ||
		string(recs[0].Arguments) != `{"path":"/docs/README.md"}` {
		t.Errorf("audit %+v", recs)
	}
}

// TestRunnerConfirmation: a destructive call waits for a confirmation the
// hook or the caller gives; without one nothing is sent.
func TestRunnerConfirmation(t *testing.T) {
	rg := rnDemoRig(t)
	r := rg.runner(RunnerOptions{})
	ctx := ctxT(t, 20*time.Second)
	plan := rnBatch(1, false, rnItem(t, "1", "list_todos", ""), rnItem(t, "2", "clear_completed", ""))

	decs := r.Check(plan)
	if decs[0].Verdict != policy.Allow || decs[1].Verdict != policy.Confirm || !decs[1].Destructive {
		t.Fatalf("decisions %+v", decs)
	}
	res := r.Run(ctx, plan, RunOptions{})
	if !res.Refused || rnFailKind(res.Items[0]) != calls.FailSkipped || rnFailKind(res.Items[1]) != calls.FailConfirm || rg.sentCalls() != 0 {
		t.Fatalf("no hook: refused %v, %s %s, %d sent", res.Refused, rnFailKind(res.Items[0]), rnFailKind(res.Items[1]), rg.sentCalls())
	}
	var asked [][]policy.Decision
	res = r.Run(ctx, plan, RunOptions{Confirm: func(_ context.Context, d []policy.Decision) bool { asked = append(asked, d); return false }})
	if !res.Refused || len(asked) != 1 || len(asked[0]) != 2 || asked[0][1].Verdict != policy.Confirm || rg.sentCalls() != 0 {
		t.Fatalf("declined: refused %v, asked %v, %d sent", res.Refused, asked, rg.sentCalls())
	}
	res = r.Run(ctx, plan, RunOptions{Confirm: func(context.Context, []policy.Decision) bool { asked = append(asked, nil); return true }})
	if res.Refused || len(asked) != 2 || !res.Items[0].Call.OK() || !res.Items[1].Call.OK() {
		t.Fatalf("confirmed by the hook: %+v", res.Items)
	}
	res = r.Run(ctx, plan, RunOptions{Confirmed: true, Confirm: func(context.Context, []policy.Decision) bool { t.Error("asked again"); return false }})
	if res.Refused || !res.Items[1].Call.OK() {
		t.Fatalf("already confirmed: %+v", res.Items)
	}
	recs := rg.auditRecords()
	var got []string
	for _, rec := range recs {
		got = append(got, rec.Tool+" "+string(rec.Decision)+" "+rec.Outcome)
	}
	want := "clear_completed confirm |clear_completed confirm |list_todos allow ok|clear_completed allow ok|list_todos allow ok|clear_completed allow ok"
	if strings.Join(got, "|") != want {
		t.Errorf("audit\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	if !strings.Contains(recs[3].Reason, "confirmed") {
		t.Errorf("confirmed run's reason %q", recs[3].Reason)
	}
}

// TestRunnerDeleteCategory: the codec's AQL category (here corrected by
// an --aql-map entry) makes a read-only tool a delete, which needs
// confirmation, and --read-only refuses it, whatever the plan's syntax.
func TestRunnerDeleteCategory(t *testing.T) {
	rg := rnDemoRig(t)
	plan := &calls.Plan{Syntax: calls.SExpr, Items: []calls.Item{rnItem(t, "", "list_todos", "")}}
	if d := rg.runner(RunnerOptions{}).Check(plan)[0]; d.Verdict != policy.Allow {
		t.Errorf("as classified: %+v", d)
	}
	del := rg.codec(calls.Options{Overrides: aql.Overrides{"list_todos": {Category: aql.Delete}}})
	if d := NewRunner(rg.s, del, RunnerOptions{}).Check(plan)[0]; d.Verdict != policy.Confirm || !d.Destructive {
		t.Errorf("as a delete: %+v", d)
	}
	ro, _ := policy.New(policy.Rules{ReadOnly: true, Yes: true})
	if d := NewRunner(rg.s, del, RunnerOptions{Policy: ro}).Check(plan)[0]; d.Verdict != policy.Deny {
		t.Errorf("as a delete, --read-only: %+v", d)
	}
	if d := NewRunner(rg.s, nil, RunnerOptions{}).Check(plan)[0]; d.Verdict != policy.Confirm {
		t.Errorf("without a codec no tool is known: %+v", d)
	}
}

// TestRunnerAQLThroughCodec reads an AQL batch with the codec, runs it and
// answers it with the codec: the introspect is answered locally, the
// operation by the server, and the batch answer counts both.
func TestRunnerAQLThroughCodec(t *testing.T) {
	rg := rnDemoRig(t)
	codec := rg.codec(calls.Options{})
	plan, err := codec.Read(`{"operations": [{"operation": "introspect", "params": {"query": "operations"}}, {"operation": "list_todos"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Items) != 2 || !plan.Items[0].IsLocal() || plan.Items[1].Tool != "list_todos" {
		t.Fatalf("plan %+v", plan.Items)
	}
	res := NewRunner(rg.s, codec, RunnerOptions{}).Run(ctxT(t, 20*time.Second), plan, RunOptions{})
	if res.Items[0].Call != nil || res.Items[0].Outcome != (calls.Outcome{}) || !res.Items[1].Call.OK() || rg.sentCalls() != 1 {
		t.Fatalf("run %+v, %d sent", res.Items, rg.sentCalls())
	}
	answer := codec.Answer(plan, res.Outcomes())
	if got := answer.Get("summary").Compact(); got != `{"total":2,"succeeded":2,"failed":0}` {
		t.Errorf("summary %s in %s", got, answer.Compact())
	}
}

// TestRunnerRPCError: an unknown tool (unlisted, so confirmed first) comes
// back as a JSON-RPC error with its code.
func TestRunnerRPCError(t *testing.T) {
	rg := rnDemoRig(t)
	plan := &calls.Plan{Syntax: calls.JSON, Items: []calls.Item{rnItem(t, "", "no_such_tool", `{}`)}}
	res := rg.runner(RunnerOptions{}).Run(ctxT(t, 20*time.Second), plan, RunOptions{Confirmed: true})
	f := res.Items[0].Outcome.Err
	if f == nil || f.Kind != calls.FailRPC || f.Code == 0 || f.Message == "" {
		t.Fatalf("failure %+v", f)
	}
	if recs := rg.auditRecords(); len(recs) != 1 || recs[0].Outcome != "error" || recs[0].Error == "" {
		t.Errorf("audit %+v", recs)
	}
	if es := rg.entries(); len(es) != 1 || es[0].Outcome != history.Failed {
		t.Errorf("history %+v", es)
	}
}

// rnCaller is a caller of the gateway's kind: it answers in place of a
// session (here: the upstream is gone).
type rnCaller struct{ n atomic.Int32 }

func (c *rnCaller) Call(_ context.Context, req CallRequest) *CallResult {
	c.n.Add(1)
	return &CallResult{ID: req.ID, Tool: req.Tool, Arguments: req.Arguments, Started: time.Now(),
		Err: &ConnectionError{Op: "tools/call " + req.Tool, Err: errors.New("upstream gone")}}
}

func TestRunnerOwnCaller(t *testing.T) {
	c := &rnCaller{}
	dir := t.TempDir()
	audit, err := policy.OpenAudit(filepath.Join(dir, "audit.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	set, err := toolset.Parse([]byte(`[{"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(c, calls.New(set, calls.Options{}), RunnerOptions{Audit: audit})
	res := r.Run(ctxT(t, 10*time.Second), rnBatch(3, true, rnItem(t, "1", "t", ""), rnItem(t, "2", "t", "")), RunOptions{})
	if c.n.Load() < 1 || rnFailKind(res.Items[0]) != calls.FailConnection {
		t.Errorf("%d calls, %+v", c.n.Load(), res.Items[0].Outcome.Err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	if !strings.Contains(string(data), `"outcome":"error"`) || !strings.Contains(string(data), "upstream gone") {
		t.Errorf("audit %s", data)
	}
}

func TestRunnerOffline(t *testing.T) {
	s := feedOffline(t)
	r := NewRunner(s, nil, RunnerOptions{})
	res := r.Run(ctxT(t, 10*time.Second), &calls.Plan{Items: []calls.Item{rnItem(t, "", "x", "")}}, RunOptions{Confirmed: true})
	if rnFailKind(res.Items[0]) != calls.FailUsage {
		t.Errorf("offline: %+v", res.Items[0].Outcome.Err)
	}
	if res := r.Run(context.Background(), nil, RunOptions{}); len(res.Items) != 0 {
		t.Errorf("nil plan: %+v", res)
	}
}

func TestFailureOf(t *testing.T) {
	cases := []struct {
		err  error
		kind calls.FailureKind
	}{
		{&RPCError{Method: "tools/call", Code: -32001, Message: "nope", Data: json.RawMessage(`{"why":1}`)}, calls.FailRPC},
		{&TimeoutError{Op: "tools/call x", After: "1s"}, calls.FailTimeout},
		{context.DeadlineExceeded, calls.FailTimeout},
		{errors.Join(errors.New("tools/call x: cancelled"), context.Canceled), calls.FailCancelled},
		{&ConnectionError{Op: "connect", Err: errors.New("refused")}, calls.FailConnection},
		{ErrClosed, calls.FailConnection},
		{&ProtocolError{Op: "tools/call x", Err: errors.New("garbage")}, calls.FailBadAnswer},
		{ErrSkipped, calls.FailSkipped},
		{ErrOffline, calls.FailUsage},
		{&SchemaError{Tool: "x", Msg: "bad"}, calls.FailOther},
		{&calls.Failure{Kind: calls.FailRefused, Message: "no"}, calls.FailRefused},
	}
	for _, tc := range cases {
		f := FailureOf(tc.err)
		if f == nil || f.Kind != tc.kind || f.Message == "" {
			t.Errorf("%v: %+v, want %s", tc.err, f, tc.kind)
		}
	}
	f := FailureOf(cases[0].err)
	if f.Code != -32001 || f.Message != "nope" || f.Data.Get("why") == nil {
		t.Errorf("rpc failure %+v", f)
	}
	if FailureOf(nil) != nil {
		t.Error("nil error has a failure")
	}
}

func TestOutcomeOf(t *testing.T) {
	raw := obj(t, `{"content":[{"type":"text","text":"hi"}],"isError":true}`)
	if o := OutcomeOf(&CallResult{Tool: "x", Raw: raw, IsError: true}); o.Err != nil || o.Result != raw {
		t.Errorf("isError result: %+v", o)
	}
	if o := OutcomeOf(&CallResult{Tool: "x"}); o.Err == nil || o.Err.Kind != calls.FailBadAnswer {
		t.Errorf("no result: %+v", o)
	}
	if o := OutcomeOf(&CallResult{Tool: "x", Raw: ojson.NewArray()}); o.Err == nil || o.Err.Kind != calls.FailBadAnswer {
		t.Errorf("array result: %+v", o)
	}
	if o := OutcomeOf(&CallResult{Tool: "x", Result: mcp.NewToolResultText("typed")}); o.Err != nil || o.Result.Get("content") == nil {
		t.Errorf("typed only: %+v", o)
	}
	if o := OutcomeOf(nil); o.Err == nil {
		t.Error("nil result has no failure")
	}
}

func TestInfoRecordName(t *testing.T) {
	if n := (Info{Name: "srv", Source: "stdio: srv"}).RecordName(); n != "srv" {
		t.Errorf("named: %q", n)
	}
	if n := (Info{Source: "stdio: srv"}).RecordName(); n != "stdio: srv" {
		t.Errorf("unnamed: %q", n)
	}
}
