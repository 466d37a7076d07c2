package gateway

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session/policy"
)

// TestPassMode: in pass mode the client sees the upstream's tools as the
// upstream declares them, less those the policy denies, and each call's
// answer is the upstream's; the policy still refuses what it refuses.
func TestPassMode(t *testing.T) {
	t.Parallel()
	up := demoSession(t)
	p, err := policy.New(policy.Rules{Deny: []string{"note_update"}})
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, up, Options{Mode: ModePass, Policy: p})
	c, _ := inProcessClient(t, g)
	ctx := ctxT(t, hangGuard)
	listed, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := up.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]mcp.Tool{}
	for _, tl := range listed.Tools {
		got[tl.Name] = tl
	}
	declared := map[string]json.RawMessage{}
	for _, st := range g.st.Load().tools {
		declared[st.Tool.Name] = st.Tool.RawInputSchema
	}
	for _, tl := range set.Tools {
		l, ok := got[tl.Name]
		switch {
		case tl.Name == "note_update":
			if ok {
				t.Error("note_update is listed though the policy denies it")
			}
		case !ok:
			t.Errorf("%s is not listed", tl.Name)
		default:
			schema := declared[tl.Name]
			if !sameJSON(t, schema, json.RawMessage(tl.InputSchema.Compact())) || l.Description != tl.Description {
				t.Errorf("%s is not declared as the upstream declares it:\n %s\n %s", tl.Name, schema, tl.InputSchema.Compact())
			}
		}
	}
	res := callTool(t, c, "file_read", `{"path":"/docs/README.md","limit":80}`)
	if res.IsError || !strings.HasPrefix(text(res), "# ") {
		t.Errorf("file_read: %+v", res)
	}
	res = callTool(t, c, "clear_completed", `{}`)
	if !res.IsError || !strings.Contains(text(res), "refused") {
		t.Errorf("clear_completed without --yes: %+v", res)
	}
}
