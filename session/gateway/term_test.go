package gateway

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/session"
)

// directTerm is what a call gives when made on the upstream directly,
// rendered the way the gateway promises to render it.
func directTerm(t testing.TB, s *session.Session, tool, args string) (string, bool) {
	t.Helper()
	r := s.Call(ctxT(t, 30*time.Second), session.CallRequest{Tool: tool, Arguments: obj(t, args)})
	if r.Err != nil {
		t.Fatalf("direct %s: %v", tool, r.Err)
	}
	return sexpr.Print(call.ResultToTerm(r.Raw)), r.IsError
}

func TestTermListsOneToolWithTheDeclarations(t *testing.T) {
	up := demoSession(t)
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	res, err := c.ListTools(ctxT(t, 10*time.Second), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || res.Tools[0].Name != "mcp_term" {
		t.Fatalf("tools: %+v", res.Tools)
	}
	tool := res.Tools[0]
	set, _ := up.Tools(ctxT(t, 10*time.Second))
	doc, err := term.Render(set, term.Options{ModelFacing: true})
	if err != nil {
		t.Fatal(err)
	}
	// The how-to (termtool's, which `mcpterm tokens` counts), a blank line,
	// then the declarations exactly as package term renders them.
	lines := strings.SplitN(tool.Description, "\n", 3)
	if len(lines) < 3 || lines[1] != "" || lines[0] != termtool.HowTo("mcpterm-demo") {
		t.Fatalf("description head:\n%s", tool.Description[:min(400, len(tool.Description))])
	}
	if lines[2] != strings.TrimRight(doc.Text, "\n") {
		t.Errorf("declarations differ from term.Render:\n%s", lines[2])
	}
	// The declarations read back to the upstream tools.
	back, err := term.Parse(lines[2])
	if err != nil || len(back.Tools) != len(set.Tools) {
		t.Fatalf("declarations do not read back: %v", err)
	}
	raw, _ := tool.MarshalJSON()
	contains(t, string(raw), `"required":["expr"]`, `"readOnlyHint":false`, `"destructiveHint":true`)

	lean := newGateway(t, up, Options{Mode: ModeTerm, Lean: true, Policy: allowAll(t)})
	lc, _ := inProcessClient(t, lean)
	lres, err := lc.ListTools(ctxT(t, 10*time.Second), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if d := lres.Tools[0].Description; len(d) >= len(tool.Description) || strings.Contains(d, "Absolute path of the file") {
		t.Errorf("lean description is not leaner (%d vs %d bytes)", len(d), len(tool.Description))
	}
}

func TestTermCallsMatchDirectCalls(t *testing.T) {
	g := newGateway(t, demoSession(t), Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	direct := demoSession(t) // an identical twin, called directly

	cases := []struct{ expr, tool, args string }{
		{`(ct "Buy milk")`, "create_todo", `{"title":"Buy milk"}`},
		{`(create_todo "Write report" :description "quarterly" :completed true)`, "create_todo", `{"title":"Write report","description":"quarterly","completed":true}`},
		{`(lt)`, "list_todos", `{}`},
		{`(fr "/docs/README.md" :limit 40)`, "file_read", `{"path":"/docs/README.md","limit":40}`},
		{`(fr "/nope")`, "file_read", `{"path":"/nope"}`},
		{`(dpq "q1" ((sql :pg "db" "shop" "SELECT id, name FROM customers LIMIT 2")) ())`, "data_platform_query",
			`{"qid":"q1","sources":[{"type":"sql","driver":"pg","host":"db","database":"shop","query":"SELECT id, name FROM customers LIMIT 2"}],"output":{}}`},
		{`(cc)`, "clear_completed", `{}`},
	}
	for _, tc := range cases {
		got := termCall(t, c, tc.expr)
		want, wantErr := directTerm(t, direct, tc.tool, tc.args)
		if text(got) != want || got.IsError != wantErr {
			t.Errorf("%s:\n gateway %v %s\n direct  %v %s", tc.expr, got.IsError, text(got), wantErr, want)
		}
	}
}

func TestTermBatch(t *testing.T) {
	g := newGateway(t, demoSession(t), Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	direct := demoSession(t)

	got := termCall(t, c, `(batch (a (ct "one")) (b (fr "/missing")) (c (lt :limit 5)))`)
	var outs []call.Outcome
	for _, x := range []struct{ id, tool, args string }{
		{"a", "create_todo", `{"title":"one"}`}, {"b", "file_read", `{"path":"/missing"}`}, {"c", "list_todos", `{"limit":5}`},
	} {
		r := direct.Call(ctxT(t, 10*time.Second), session.CallRequest{Tool: x.tool, Arguments: obj(t, x.args)})
		outs = append(outs, call.Outcome{ID: x.id, Result: r.Raw})
	}
	if want := sexpr.Print(call.BatchResultsToTerm(outs)); text(got) != want {
		t.Errorf("batch:\n gateway %s\n direct  %s", text(got), want)
	}
	if got.IsError {
		t.Error("a batch with successes is not an error")
	}

	// Stop on error: the failing call stops the ones after it.
	got = termCall(t, c, `(batch :stop-on-error (1 (fr "/missing")) (2 (lt)))`)
	contains(t, text(got), `(results (1 (err tool`, `(2 (err skipped`)
	if !got.IsError {
		t.Error("a batch whose every call failed is an error")
	}
}

func TestTermRefusesBadCallsWithPositions(t *testing.T) {
	up := demoSession(t)
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, _ := inProcessClient(t, g)
	cases := []struct{ expr, want string }{
		{`(fr)`, `(err missing-param "1:4: `},
		{`(fr "/a" :encoding :latin1)`, `(err enum "1:20: `},
		{`(zz 1)`, `(err unknown-tool "1:2: unknown tool zz; expected one of cc ct dpq dt fr gt lt lot nu ut"`},
		{`(fr "/a" :offset 1 :bogus 1)`, `(err unknown-param "1:20: `},
		{`(fr "/a"`, `(err syntax "1:9: `},
		{`(lt :limit "ten")`, `(err wrong-type "1:12: `},
	}
	for _, tc := range cases {
		got := termCall(t, c, tc.expr)
		if !got.IsError || !strings.HasPrefix(text(got), tc.want) {
			t.Errorf("%s: %v %s", tc.expr, got.IsError, text(got))
		}
	}
	// Nothing of that reached the server.
	for _, m := range up.Tap().Messages() {
		if m.Method == "tools/call" {
			t.Fatalf("a refused call reached the upstream: %+v", m)
		}
	}
	got := callTool(t, c, "mcp_term", `{"expression":"(lt)"}`)
	if !got.IsError || !strings.Contains(text(got), "expr is missing") {
		t.Errorf("no expr: %s", text(got))
	}
}

func TestTermProgressAndCancellation(t *testing.T) {
	up := demoProcessSession(t)
	g := newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, n := inProcessClient(t, g)

	req := mcp.CallToolRequest{}
	req.Params.Name = "mcp_term"
	req.Params.Arguments = map[string]any{"expr": `(lot :steps 3 :delay_ms 10)`}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-1"}
	res, err := c.CallTool(ctxT(t, 10*time.Second), req)
	if err != nil || res.IsError {
		t.Fatalf("long_task: %v %s", err, text(res))
	}
	contains(t, text(res), `(ok (:steps 3 :completed 3`)
	// The gateway forwarded all three before it answered; in process they
	// travel to the client apart from the answer.
	n.await(t, "3 progress notifications", func() bool { return len(n.of("notifications/progress")) >= 3 })
	if got := len(n.of("notifications/progress")); got != 3 {
		t.Errorf("%d progress notifications for 3 steps", got)
	}
	for i, p := range n.of("notifications/progress") {
		f := p.Params.AdditionalFields
		if f["progressToken"] != "tok-1" || f["progress"] != float64(i+1) || f["total"] != float64(3) {
			t.Errorf("progress %d: %v", i, f)
		}
	}

	// The client gives up: the upstream call is cancelled too.
	ctx, cancel := context.WithCancel(context.Background())
	req.Params.Arguments = map[string]any{"expr": `(lot :steps 100 :delay_ms 100)`}
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	cancelled := watchTap(t, up, "notifications/cancelled")
	done := make(chan answer, 1)
	go func() {
		res, err := c.CallTool(ctx, req)
		done <- answer{res, err}
	}()
	// Give up once the job is under way upstream: its first progress is here.
	n.await(t, "the long job's first progress", func() bool { return len(n.of("notifications/progress")) > 3 })
	cancel()
	// In process the client's context reaches the handler directly, so the
	// gateway may still answer: then it says the call was cancelled.
	if a := <-done; a.err == nil && (!a.res.IsError || !strings.HasPrefix(text(a.res), "(err canceled")) {
		t.Fatalf("cancelled call: %s", text(a.res))
	}
	// The upstream call ends cancelled: the session told the server.
	cancelled()
}
