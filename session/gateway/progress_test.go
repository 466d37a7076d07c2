package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session/policy"
)

// progressOf lists the progress notifications n holds as "VALUE/TOTAL
// MESSAGE", each under token.
func progressOf(t *testing.T, n *notes, token string) []string {
	t.Helper()
	var out []string
	for _, x := range n.of("notifications/progress") {
		f := x.Params.AdditionalFields
		if f["progressToken"] != token {
			t.Errorf("progress under token %v, want %s", f["progressToken"], token)
		}
		out = append(out, strings.TrimSpace(fmt.Sprintf("%v/%v %v", f["progress"], f["total"], f["message"])))
	}
	return out
}

// TestProgressOverHTTPBeforeTheAnswer: over streamable HTTP, as on stdio,
// a call's answer waits until the progress the gateway forwarded for it is
// written (wire's ledger), so a client that reads its stream in order has
// all of it when the answer arrives: a single call's upstream progress as
// the upstream sent it, and a batch's "N of M calls done" as its calls
// finish (items answered locally, as AQL introspect, are not counted).
func TestProgressOverHTTPBeforeTheAnswer(t *testing.T) {
	up := demoProcessSession(t) // on stdio the gateway has the upstream's progress before its answer
	cases := []struct {
		mode       Mode
		tool, args string
		want       string
	}{
		{ModeTerm, DefaultTermTool, `{"expr":"(lot :steps 3 :delay_ms 5)"}`, "1/3 step 1 of 3|2/3 step 2 of 3|3/3 step 3 of 3"},
		{ModeTerm, DefaultTermTool, `{"expr":"(batch :concurrency 2 (a (lot :steps 2 :delay_ms 5)) (b (lt)) (c (fr \"/etc/hosts\")))"}`,
			"1/3 1 of 3 calls done|2/3 2 of 3 calls done|3/3 3 of 3 calls done"},
		{ModeAQLSingle, "mcp_aql", `{"operations":[{"operation":"introspect","params":{"query":"operations"}},{"operation":"list_todos"},{"operation":"long_task","params":{"steps":2,"delay_ms":5}}]}`,
			"1/2 1 of 2 operations done|2/2 2 of 2 operations done"},
		{ModeAQLSingle, "mcp_aql", `{"operation":"long_task","params":{"steps":2,"delay_ms":5}}`, "1/2 step 1 of 2|2/2 step 2 of 2"},
	}
	for _, version := range []string{"2025-11-25", mcp.LATEST_PROTOCOL_VERSION} {
		for i, tc := range cases {
			t.Run(fmt.Sprintf("%s/%d", version, i), func(t *testing.T) {
				g := newGateway(t, up, Options{Mode: tc.mode, Policy: allowAll(t)})
				c, n := httpClient(t, g, version)
				req := mcp.CallToolRequest{}
				req.Params.Name = tc.tool
				req.Params.Arguments = json.RawMessage(tc.args)
				req.Params.Meta = &mcp.Meta{ProgressToken: "tok"}
				res, err := c.CallTool(ctxT(t, hangGuard), req)
				if err != nil || res.IsError {
					t.Fatalf("%s: %v %s", tc.args, err, text(res))
				}
				// Read at once: what came before the answer, and only that.
				if got := strings.Join(progressOf(t, n, "tok"), "|"); got != tc.want {
					t.Errorf("%s: progress before the answer\n got  %s\n want %s", tc.args, got, tc.want)
				}
			})
		}
	}
}

// TestProgressNoneForARefusedBatch: a batch the policy refuses runs
// nothing, so it reports no progress.
func TestProgressNoneForARefusedBatch(t *testing.T) {
	p, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, demoSession(t), Options{Mode: ModeTerm, Policy: p})
	c, n := inProcessClient(t, g)
	req := mcp.CallToolRequest{}
	req.Params.Name = DefaultTermTool
	req.Params.Arguments = map[string]any{"expr": `(batch (1 (lt)) (2 (cc)))`}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok"}
	res, err := c.CallTool(ctxT(t, hangGuard), req)
	if err != nil || !res.IsError {
		t.Fatalf("refused batch: %v %s", err, text(res))
	}
	// A later call's progress arrives after anything the refused batch
	// could have sent: one client's notifications arrive in order.
	req.Params.Arguments = map[string]any{"expr": `(batch (1 (lt)))`}
	req.Params.Meta = &mcp.Meta{ProgressToken: "later"}
	if res, err := c.CallTool(ctxT(t, hangGuard), req); err != nil || res.IsError {
		t.Fatalf("later batch: %v %s", err, text(res))
	}
	n.await(t, "the later batch's progress", func() bool { return len(n.of("notifications/progress")) > 0 })
	for _, x := range n.of("notifications/progress") {
		if tok := x.Params.AdditionalFields["progressToken"]; tok != "later" {
			t.Errorf("progress under %v: %v", tok, x.Params.AdditionalFields)
		}
	}
}
