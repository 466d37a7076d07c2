package session

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/policy"
)

// TestRunnerHoldAudit: with HoldAudit the calls' audit lines wait for
// WriteAudit, which writes them in plan order (here the second call ends
// first: the first waits until the second has settled) with the printed
// size and the cut, once.
func TestRunnerHoldAudit(t *testing.T) {
	release := make(chan struct{})
	srv := server.NewMCPServer("order", "1", server.WithToolCapabilities(false))
	srv.AddTool(mcp.NewTool("wait", mcp.WithReadOnlyHintAnnotation(true)), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-release:
			return mcp.NewToolResultText("waited"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	srv.AddTool(mcp.NewTool("quick", mcp.WithReadOnlyHintAnnotation(true)), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("quick"), nil
	})
	rg := newRnRig(t, Source{Kind: InProcess, Name: "order", Server: srv})
	plan := rnBatch(2, false, rnItem(t, "1", "wait", ""), rnItem(t, "2", "quick", ""))
	var settled []int
	r := rg.runner(RunnerOptions{})
	res := r.Run(ctxT(t, 20*time.Second), plan, RunOptions{HoldAudit: true,
		OnItem: func(i int, _ ItemResult) {
			settled = append(settled, i)
			if i == 1 {
				close(release)
			}
		}})
	if res.Refused || len(settled) != 2 || settled[0] != 1 {
		t.Fatalf("refused %v, settled %v (want the quick call first)", res.Refused, settled)
	}
	if recs := rg.auditRecords(); len(recs) != 0 {
		t.Fatalf("audit written before WriteAudit: %+v", recs)
	}
	if len(rg.entries()) != 2 {
		t.Error("the history does not wait")
	}
	r.WriteAudit(res, 1234, 56)
	r.WriteAudit(res, 1, 1)
	recs := rg.auditRecords()
	if len(recs) != 2 || recs[0].Tool != "wait" || recs[1].Tool != "quick" {
		t.Fatalf("audit %+v", recs)
	}
	for _, rec := range recs {
		if rec.Bytes != 1234 || rec.Cut != 56 || rec.Outcome != "ok" || rec.Decision != policy.Allow {
			t.Errorf("record %+v", rec)
		}
	}
}

// TestRunnerHoldAuditRefusal: a refusal is audited at once even when the
// calls' lines are held, and WriteAudit then has nothing to add.
func TestRunnerHoldAuditRefusal(t *testing.T) {
	rg := rnDemoRig(t)
	plan := rnBatch(0, false, rnItem(t, "1", "list_todos", ""), rnItem(t, "2", "clear_completed", ""))
	r := rg.runner(RunnerOptions{})
	res := r.Run(ctxT(t, 20*time.Second), plan, RunOptions{HoldAudit: true})
	if !res.Refused {
		t.Fatal("clear_completed ran without confirmation")
	}
	r.WriteAudit(res, 10, 0)
	recs := rg.auditRecords()
	if len(recs) != 1 || recs[0].Tool != "clear_completed" || recs[0].Decision != policy.Confirm {
		t.Errorf("audit %+v", recs)
	}
	// Without HoldAudit there is never anything held.
	r.WriteAudit(r.Run(ctxT(t, 20*time.Second), rnBatch(0, false, rnItem(t, "1", "list_todos", "")), RunOptions{}), 10, 0)
	if n := len(rg.auditRecords()); n != 2 {
		t.Errorf("%d audit lines, want 2", n)
	}
}
