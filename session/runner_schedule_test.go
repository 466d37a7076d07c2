package session

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/session/history"
)

// The Runner's scheduling: stop-on-error, concurrency, cancellation,
// progress per item, AQL order. The rig and helpers are in runner_test.go.

func TestRunnerStopOnError(t *testing.T) {
	rg := rnDemoRig(t)
	r := rg.runner(RunnerOptions{})
	ctx := ctxT(t, 20*time.Second)
	items := []calls.Item{rnItem(t, "1", "file_read", `{"path":"/no/such"}`), rnItem(t, "2", "list_todos", ""), rnItem(t, "3", "list_todos", "")}
	res := r.Run(ctx, rnBatch(1, true, items...), RunOptions{})
	if !res.Items[0].Call.IsError || res.Items[1].Call != nil || res.Items[2].Call != nil ||
		rnFailKind(res.Items[1]) != calls.FailSkipped || rnFailKind(res.Items[2]) != calls.FailSkipped {
		t.Fatalf("stop on error: %+v", res.Items)
	}
	if rg.sentCalls() != 1 || len(rg.entries()) != 1 || len(rg.auditRecords()) != 1 {
		t.Errorf("%d sent, %d history, %d audit", rg.sentCalls(), len(rg.entries()), len(rg.auditRecords()))
	}
	res = r.Run(ctx, rnBatch(1, false, items...), RunOptions{})
	if res.Items[1].Call == nil || !res.Items[2].Call.OK() || rg.sentCalls() != 4 {
		t.Errorf("without stop-on-error: %+v, %d sent", res.Items, rg.sentCalls())
	}
}

// TestRunnerConcurrentLongTasks: two long tasks with Concurrency 2 both
// report progress before either ends (one after the other, the second
// could not start for 20 s); each item sees its own call's progress; then
// cancelling ends both.
func TestRunnerConcurrentLongTasks(t *testing.T) {
	rg := rnDemoRig(t)
	guard := ctxT(t, 15*time.Second)
	ctx, cancel := context.WithCancel(guard)
	defer cancel()
	plan := rnBatch(2, false, rnItem(t, "a", "long_task", `{"steps":100,"delay_ms":200}`), rnItem(t, "b", "long_task", `{"steps":99,"delay_ms":200}`))
	type prog struct {
		item  int
		total float64
	}
	progress := make(chan prog, 1000)
	done := make(chan *RunResult, 1)
	go func() {
		done <- rg.runner(RunnerOptions{}).Run(ctx, plan, RunOptions{OnProgress: func(i int, e Event) {
			select {
			case progress <- prog{i, e.Total}:
			default:
			}
		}})
	}()
	seen := map[int]bool{}
	for len(seen) < 2 {
		select {
		case p := <-progress:
			if want := []float64{100, 99}[p.item]; p.total != want {
				t.Errorf("item %d got progress of a task of %v steps", p.item, p.total)
			}
			seen[p.item] = true
		case res := <-done:
			t.Fatalf("run ended before both reported progress: %+v", res.Items)
		case <-guard.Done():
			t.Fatalf("only items %v reported progress: not running at once", seen)
		}
	}
	cancel()
	res := <-done
	for i, it := range res.Items {
		if rnFailKind(it) != calls.FailCancelled || it.Call == nil || !it.Call.Cancelled {
			t.Errorf("item %d: %+v", i, it.Outcome.Err)
		}
	}
	if es := rg.entries(); len(es) != 2 || es[0].Outcome != history.Cancelled || es[1].Outcome != history.Cancelled {
		t.Errorf("history %+v", es)
	}
	// A call the user gave up on is "cancelled" in the audit log too, not
	// an "error".
	if recs := rg.auditRecords(); len(recs) != 2 || recs[0].Outcome != "cancelled" || recs[1].Outcome != "cancelled" {
		t.Errorf("audit %+v", recs)
	}
}

// TestRunnerCancelBeforeStart: cancelling during the first of two
// sequential calls leaves the second not run, with no call and no record.
func TestRunnerCancelBeforeStart(t *testing.T) {
	rg := rnDemoRig(t)
	ctx, cancel := context.WithCancel(ctxT(t, 15*time.Second))
	defer cancel()
	plan := rnBatch(1, false, rnItem(t, "a", "long_task", `{"steps":100,"delay_ms":100}`), rnItem(t, "b", "list_todos", ""))
	res := rg.runner(RunnerOptions{}).Run(ctx, plan, RunOptions{OnProgress: func(int, Event) { cancel() }})
	a, b := res.Items[0], res.Items[1]
	if rnFailKind(a) != calls.FailCancelled || a.Call == nil || !a.Call.Cancelled {
		t.Errorf("running item: %+v", a)
	}
	if rnFailKind(b) != calls.FailCancelled || b.Call != nil || !strings.Contains(b.Outcome.Err.Message, "not run") {
		t.Errorf("waiting item: %+v %v", b, b.Outcome.Err)
	}
	if rg.sentCalls() != 1 || len(rg.entries()) != 1 || len(rg.auditRecords()) != 1 {
		t.Errorf("%d sent, %d history, %d audit", rg.sentCalls(), len(rg.entries()), len(rg.auditRecords()))
	}
}

// rnHold is an mcp-go server whose one tool, hold, says it started
// and then waits for a release (or its cancellation), counting how many
// run at once.
type rnHold struct {
	started  chan string
	release  chan struct{}
	inflight atomic.Int32
	mu       sync.Mutex
	most     int32
}

func newRnHold() (*rnHold, Source) {
	h := &rnHold{started: make(chan string, 100), release: make(chan struct{})}
	srv := server.NewMCPServer("hold", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("hold", mcp.WithString("id"), mcp.WithReadOnlyHintAnnotation(true)), h.hold)
	return h, Source{Kind: InProcess, Name: "hold", Server: srv}
}

func (h *rnHold) hold(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	n := h.inflight.Add(1)
	defer h.inflight.Add(-1)
	h.mu.Lock()
	h.most = max(h.most, n)
	h.mu.Unlock()
	id := req.GetString("id", "")
	h.started <- id
	select {
	case <-h.release:
		return mcp.NewToolResultText("held " + id), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (h *rnHold) maxInflight() int32 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.most
}

func rnHoldItem(t *testing.T, id string) calls.Item { return rnItem(t, id, "hold", `{"id":"`+id+`"}`) }

// TestRunnerConcurrencyLimit: Concurrency 2 runs two at once and never
// three.
func TestRunnerConcurrencyLimit(t *testing.T) {
	h, src := newRnHold()
	rg := newRnRig(t, src)
	guard := ctxT(t, 15*time.Second)
	done := make(chan *RunResult, 1)
	go func() {
		done <- rg.runner(RunnerOptions{}).Run(guard, rnBatch(2, false, rnHoldItem(t, "1"), rnHoldItem(t, "2"), rnHoldItem(t, "3")), RunOptions{})
	}()
	for range 2 {
		select {
		case <-h.started:
		case <-guard.Done():
			t.Fatal("two calls did not start at once")
		}
	}
	close(h.release)
	res := <-done
	for i, it := range res.Items {
		if it.Call == nil || !it.Call.OK() {
			t.Errorf("item %d: %+v", i, it.Outcome.Err)
		}
	}
	if most := h.maxInflight(); most != 2 {
		t.Errorf("%d ran at once, want 2", most)
	}
}

// TestRunnerAQLInOrder: an AQL plan runs one call at a time in array order
// whatever its Concurrency; local items are answered without the server,
// even after a failure has stopped the rest.
func TestRunnerAQLInOrder(t *testing.T) {
	h, src := newRnHold()
	rg := newRnRig(t, src)
	guard := ctxT(t, 15*time.Second)
	local := obj(t, `{"success":true,"data":{"operations":[]}}`)
	plan := &calls.Plan{Syntax: calls.AQL, Batch: true, Concurrency: 4, Items: []calls.Item{
		rnHoldItem(t, "0"), {ID: "1", Operation: "introspect", Local: local}, rnHoldItem(t, "2"), rnHoldItem(t, "3")}}
	var settled []int
	done := make(chan *RunResult, 1)
	go func() {
		done <- rg.runner(RunnerOptions{}).Run(guard, plan, RunOptions{OnItem: func(i int, _ ItemResult) { settled = append(settled, i) }})
	}()
	for _, want := range []string{"0", "2", "3"} {
		select {
		case id := <-h.started:
			if id != want {
				t.Fatalf("started %s, want %s", id, want)
			}
		case <-guard.Done():
			t.Fatalf("call %s did not start", want)
		}
		h.release <- struct{}{}
	}
	res := <-done
	if most := h.maxInflight(); most != 1 {
		t.Errorf("%d AQL calls at once", most)
	}
	if got := res.Items[1]; got.Call != nil || got.Outcome != (calls.Outcome{}) || got.Decision.Rule != "local" {
		t.Errorf("local item: %+v", got)
	}
	if len(settled) != 4 || settled[0] != 0 || settled[1] != 1 || settled[2] != 2 || settled[3] != 3 {
		t.Errorf("settled in order %v", settled)
	}
	if len(rg.entries()) != 3 || rg.entries()[2].BatchID != "3" {
		t.Errorf("history %+v", rg.entries())
	}

	// Stop on error: the failing first call skips the later calls, not
	// the local answer.
	plan.StopOnError = true
	plan.Items[0] = rnItem(t, "0", "no_such_tool", "")
	res = rg.runner(RunnerOptions{}).Run(guard, plan, RunOptions{Confirmed: true})
	if rnFailKind(res.Items[0]) != calls.FailRPC || res.Items[1].Outcome != (calls.Outcome{}) ||
		rnFailKind(res.Items[2]) != calls.FailSkipped || rnFailKind(res.Items[3]) != calls.FailSkipped {
		t.Errorf("stop on error: %s %v %s %s", rnFailKind(res.Items[0]), res.Items[1].Outcome.Result, rnFailKind(res.Items[2]), rnFailKind(res.Items[3]))
	}
}
