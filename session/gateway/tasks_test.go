package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// taskUpstream is an mcp-go server whose tools can only be called as tasks
// (one answers, one fails), seen at 2025-11-25, the revision that has
// tasks/result.
func taskUpstream(t testing.TB) *session.Session {
	s := server.NewMCPServer("tasks", "1.0.0", server.WithTaskCapabilities(true, true, true), server.WithToolCapabilities(false))
	ro := mcp.WithReadOnlyHintAnnotation(true)
	s.AddTaskTool(mcp.NewTool("research", ro, mcp.WithDescription("Research a topic."), mcp.WithTaskSupport(mcp.TaskSupportRequired), mcp.WithString("topic", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return &mcp.CreateTaskResult{Content: []mcp.Content{mcp.NewTextContent("report on " + req.GetString("topic", ""))}}, nil
		})
	s.AddTaskTool(mcp.NewTool("doomed", ro, mcp.WithDescription("Always fails."), mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return nil, errors.New("the disk is on fire")
		})
	return openSession(t, session.Source{Kind: session.InProcess, Name: "tasks", Server: s}, session.Options{ProtocolVersion: "2025-11-25"})
}

// TestTaskToolsBehindGateway: a client's ordinary tools/call of a tool the
// upstream runs only as a task gets the task's final result, in every
// mode; the gateway's own tools offer no task support.
func TestTaskToolsBehindGateway(t *testing.T) {
	for _, mode := range Modes() {
		t.Run(string(mode), func(t *testing.T) {
			g := newGateway(t, taskUpstream(t), Options{Mode: mode, Policy: allowAll(t)})
			c, _ := inProcessClient(t, g)
			tools, err := c.ListTools(ctxT(t, hangGuard), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range tools.Tools {
				if tl.Execution != nil && tl.Execution.TaskSupport != "" && tl.Execution.TaskSupport != mcp.TaskSupportForbidden {
					t.Errorf("gateway tool %s offers task support %q", tl.Name, tl.Execution.TaskSupport)
				}
			}
			var ok, failed *mcp.CallToolResult
			switch mode {
			case ModeTerm, ModeTermLazy:
				ok = termCall(t, c, `(research "tides")`)
				failed = termCall(t, c, `(doomed)`)
			case ModeAQLSingle:
				ok = callTool(t, c, "mcp_aql", `{"operation":"research","params":{"topic":"tides"}}`)
				failed = callTool(t, c, "mcp_aql", `{"operation":"doomed","params":{}}`)
			case ModeAQLSemantic:
				ok = callTool(t, c, "mcp_aql_read", `{"operation":"research","params":{"topic":"tides"}}`)
				failed = callTool(t, c, "mcp_aql_read", `{"operation":"doomed","params":{}}`)
			}
			contains(t, text(ok), "report on tides")
			if ok.IsError {
				t.Errorf("research: isError: %s", text(ok))
			}
			contains(t, text(failed), "the disk is on fire")
			if !failed.IsError && !strings.Contains(text(failed), `"success":false`) {
				t.Errorf("doomed: not an error: %s", text(failed))
			}
		})
	}
}

// TestTaskStatusAsProgress: the upstream task's status changes reach a
// client that asked for progress, as progress with increasing values.
func TestTaskStatusAsProgress(t *testing.T) {
	g := newGateway(t, taskUpstream(t), Options{Mode: ModeTerm, Policy: allowAll(t)})
	c, n := httpClient(t, g, "2025-11-25")
	req := mcp.CallToolRequest{}
	req.Params.Name = DefaultTermTool
	req.Params.Arguments = map[string]any{"expr": `(research "tides")`}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok"}
	res, err := c.CallTool(ctxT(t, hangGuard), req)
	if err != nil {
		t.Fatal(err)
	}
	contains(t, text(res), "report on tides")
	var msgs []string
	last := -1.0
	for _, x := range n.of(string(mcp.MethodNotificationProgress)) {
		p := x.Params.AdditionalFields
		v, _ := p["progress"].(float64)
		if v <= last {
			t.Errorf("progress went from %v to %v", last, v)
		}
		last = v
		m, _ := p["message"].(string)
		msgs = append(msgs, m)
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, " working") || !strings.Contains(got, " completed") {
		t.Errorf("progress messages:\n%s", got)
	}
}

// TestTaskThroughGatewaySDK: the official TypeScript SDK client, through
// `mcpterm serve` over streamable HTTP (term and aql-single), calls
// server-everything's task-only simulate-research-query as an ordinary
// tool and gets the report; with a progress token it sees the task's
// stages.
func TestTaskThroughGatewaySDK(t *testing.T) {
	u := everythingUpstream(t)
	roots, err := session.NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	up := openSession(t, u.source(), session.Options{ClientName: "mcpterm-gateway", Roots: roots, Asker: session.Decliner{}})
	var sessions []scriptSession
	for _, m := range []Mode{ModeTerm, ModeAQLSingle} {
		g := newGateway(t, up, Options{Mode: m, Policy: allowAll(t)})
		step := scriptStep{Op: "callTool", Name: DefaultTermTool, Arguments: map[string]any{"expr": `(simulate-research-query "tides")`}, Progress: true}
		if m == ModeAQLSingle {
			step = scriptStep{Op: "callTool", Name: "mcp_aql", Arguments: map[string]any{"operation": "simulate_research_query", "params": map[string]any{"topic": "tides"}}, Progress: true}
		}
		sessions = append(sessions, scriptSession{Name: string(m), Transport: map[string]any{"kind": "http", "url": serveHTTP(t, g)}, Steps: []scriptStep{step}})
	}
	out := runClient(t, clientScript{Sessions: sessions})
	for _, s := range out.Sessions {
		t.Run(s.Name, func(t *testing.T) {
			if len(s.Steps) != 1 || s.Steps[0].Error != "" {
				t.Fatalf("steps %+v", s.Steps)
			}
			var res struct {
				Result   mcp.CallToolResult `json:"result"`
				Progress []struct {
					Message string `json:"message"`
				} `json:"progress"`
			}
			if err := json.Unmarshal(s.Steps[0].Result, &res); err != nil {
				t.Fatal(err)
			}
			contains(t, text(&res.Result), "Research Report: tides")
			var msgs []string
			for _, p := range res.Progress {
				msgs = append(msgs, p.Message)
			}
			if got := strings.Join(msgs, "\n"); !strings.Contains(got, "Gathering sources") {
				t.Errorf("progress seen by the SDK client:\n%s", got)
			}
		})
	}
}
