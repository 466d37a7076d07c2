package gateway

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// TestFaultsTerm: whatever way the upstream breaks, the client gets a tool
// error that says what happened, the gateway keeps serving, and the next call
// reconnects and works.
func TestFaultsTerm(t *testing.T) {
	cases := []struct{ mode, code, says string }{
		{dieOnce, "unavailable", "server exited"},
		{hangOnce, "timeout", "did not answer"},
		{garbageOnce, "bad-answer", "not valid MCP"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			up := openSession(t, faultSource(t, tc.mode), session.Options{CallTimeout: 400 * time.Millisecond})
			g := newGateway(t, up, Options{Mode: ModeTerm, Notef: t.Logf})
			c, _ := inProcessClient(t, g)

			r := termCall(t, c, `(echo "one")`)
			if !r.IsError || !strings.HasPrefix(text(r), "(err "+tc.code+" ") {
				t.Fatalf("first call: %v %s", r.IsError, text(r))
			}
			contains(t, text(r), tc.says, "reconnects to it on the next call")
			t.Logf("client reads: %s", text(r))

			// Still serving.
			if res, err := c.ListTools(ctxT(t, 5*time.Second), mcp.ListToolsRequest{}); err != nil || len(res.Tools) != 1 {
				t.Fatalf("tools/list after the fault: %v", err)
			}
			r = termCall(t, c, `(echo "two")`)
			if r.IsError || text(r) != `(ok "echo: two")` {
				t.Fatalf("after reconnecting: %v %s", r.IsError, text(r))
			}
			if gen := up.Info().Generation; gen != 2 {
				t.Errorf("connection generation %d, want 2 (one reconnect)", gen)
			}
			r = termCall(t, c, `(echo "three")`)
			if r.IsError || up.Info().Generation != 2 {
				t.Errorf("a healthy upstream was reconnected again: %s", text(r))
			}
		})
	}
}

func TestFaultsAQL(t *testing.T) {
	up := openSession(t, faultSource(t, dieOnce), session.Options{})
	g := newGateway(t, up, Options{Mode: ModeAQLSingle})
	c, _ := inProcessClient(t, g)
	r := callTool(t, c, "mcp_aql", `{"operation":"echo","params":{"text":"one"}}`)
	if !r.IsError {
		t.Fatalf("first call: %s", text(r))
	}
	contains(t, text(r), `"success":false`, `"code":"INTERNAL_ERROR"`, `"upstream_error":"upstream fault-die-once failed:`, "reconnects to it on the next call")
	r = callTool(t, c, "mcp_aql", `{"operation":"echo","params":{"text":"two"}}`)
	if r.IsError || text(r) != `{"success":true,"data":"echo: two"}` {
		t.Fatalf("after reconnecting: %s", text(r))
	}
}

// TestFaultsUpstreamGone: an upstream that cannot be started again leaves
// the gateway serving, and every call says so, trying again each time.
func TestFaultsUpstreamGone(t *testing.T) {
	up := openSession(t, faultSource(t, dieForGood), session.Options{ConnectTimeout: 5 * time.Second})
	g := newGateway(t, up, Options{Mode: ModeTerm})
	c, _ := inProcessClient(t, g)
	if r := termCall(t, c, `(echo "one")`); !r.IsError || !strings.HasPrefix(text(r), "(err unavailable ") {
		t.Fatalf("first call: %s", text(r))
	}
	for i := 0; i < 2; i++ {
		r := termCall(t, c, `(echo "again")`)
		if !r.IsError {
			t.Fatalf("call %d succeeded on a dead upstream: %s", i+2, text(r))
		}
		contains(t, text(r), "is unavailable: reconnecting failed", "tries again on the next call")
	}
	if res, err := c.ListTools(ctxT(t, 5*time.Second), mcp.ListToolsRequest{}); err != nil || len(res.Tools) != 1 {
		t.Fatalf("tools/list with the upstream gone: %v", err)
	}
}

// TestCancellationOverHTTP: a client that gives up on a call over
// streamable HTTP cancels the upstream call too.
func TestCancellationOverHTTP(t *testing.T) {
	up := demoSession(t)
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, _ := httpClient(t, g, "2025-11-25")
	ctx := ctxT(t, 20*time.Second)
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "mcp_term"
	req.Params.Arguments = map[string]any{"expr": `(lot :steps 50 :delay_ms 100)`}
	cancelled := watchTap(t, up, "notifications/cancelled")
	start := time.Now()
	if _, err := c.CallTool(cctx, req); err == nil {
		t.Fatal("a call given up on returned no error")
	}
	cancelled()
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("cancellation took %v; the upstream job runs 5 s", d)
	}
}
