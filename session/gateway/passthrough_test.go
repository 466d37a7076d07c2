package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// listsServer is an upstream whose lists the test changes while the gateway
// runs, and whose one tool logs at two levels.
func listsServer() *server.MCPServer {
	s := server.NewMCPServer("lists", "1", server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true), server.WithPromptCapabilities(true), server.WithLogging())
	s.AddTool(mcp.NewTool("shout", mcp.WithDescription("Log the text."), mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			srv := server.ServerFromContext(ctx)
			text := req.GetString("text", "")
			// Sent whatever level the gateway asked for, so the gateway's own
			// per-client filtering is what the test sees.
			for _, level := range []string{"warning", "error"} {
				_ = srv.SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": level, "logger": "shout", "data": level + ": " + text})
			}
			return mcp.NewToolResultText("shouted " + text), nil
		})
	text := func(body string) server.ResourceHandlerFunc {
		return func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: body + " " + req.Params.URI}}, nil
		}
	}
	s.AddResource(mcp.NewResource("test://a", "alpha", mcp.WithMIMEType("text/plain")), text("resource"))
	s.AddResource(mcp.NewResource("test://b", "beta", mcp.WithResourceDescription("the second")), text("resource"))
	s.AddResourceTemplate(mcp.NewResourceTemplate("test://item/{id}", "item"), server.ResourceTemplateHandlerFunc(text("item")))
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Say hello."), mcp.WithArgument("name", mcp.RequiredArgument())),
		func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Hello, "+req.Params.Arguments["name"]+"!")),
			}), nil
		})
	return s
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestResourcesAndPromptsPassThrough(t *testing.T) {
	for _, m := range Modes() {
		t.Run(string(m), func(t *testing.T) {
			up := openSession(t, session.Source{Kind: session.InProcess, Name: "lists", Server: listsServer()}, session.Options{})
			g := newGateway(t, up, Options{Mode: m})
			c, _ := inProcessClient(t, g)
			ctx := ctxT(t, 10*time.Second)
			checkPassThrough(t, ctx, up, c)
		})
	}
}

func checkPassThrough(t *testing.T, ctx context.Context, up *session.Session, c *client.Client) {
	rs, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := up.Resources(ctx)
	if jsonOf(t, rs.Resources) != jsonOf(t, want) {
		t.Errorf("resources:\n gateway %s\n direct  %s", jsonOf(t, rs.Resources), jsonOf(t, want))
	}
	ts, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	wantT, _ := up.ResourceTemplates(ctx)
	if jsonOf(t, ts.ResourceTemplates) != jsonOf(t, wantT) {
		t.Errorf("templates:\n gateway %s\n direct  %s", jsonOf(t, ts.ResourceTemplates), jsonOf(t, wantT))
	}
	for _, uri := range []string{"test://a", "test://item/42"} {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		got, err := c.ReadResource(ctx, req)
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		direct, err := up.ReadResource(ctx, uri)
		if err != nil {
			t.Fatal(err)
		}
		if jsonOf(t, got.Contents) != jsonOf(t, direct.Result.Contents) {
			t.Errorf("read %s:\n gateway %s\n direct  %s", uri, jsonOf(t, got.Contents), jsonOf(t, direct.Result.Contents))
		}
	}
	req := mcp.ReadResourceRequest{}
	req.Params.URI = "elsewhere://nothing"
	if _, err := c.ReadResource(ctx, req); err == nil || !strings.Contains(err.Error(), "resources/read") {
		t.Errorf("reading an unknown URI: %v", err)
	}

	ps, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	wantP, _ := up.Prompts(ctx)
	if jsonOf(t, ps.Prompts) != jsonOf(t, wantP) {
		t.Errorf("prompts:\n gateway %s\n direct  %s", jsonOf(t, ps.Prompts), jsonOf(t, wantP))
	}
	preq := mcp.GetPromptRequest{}
	preq.Params.Name = "greet"
	preq.Params.Arguments = map[string]string{"name": "Ann"}
	got, err := c.GetPrompt(ctx, preq)
	if err != nil {
		t.Fatal(err)
	}
	direct, _ := up.GetPrompt(ctx, "greet", map[string]string{"name": "Ann"})
	if got.Description != direct.Result.Description || jsonOf(t, got.Messages) != jsonOf(t, direct.Result.Messages) {
		t.Errorf("prompt:\n gateway %s\n direct  %s", jsonOf(t, got), jsonOf(t, direct.Result))
	}
	// The protocol's own metadata is the gateway's, not the upstream's.
	if si := got.Meta.ServerInfo(); si == nil || !strings.Contains(si.Title, "via mcpterm") {
		t.Errorf("prompt result's serverInfo: %+v", si)
	}
}

// TestListChangedIsForwarded: when the upstream's lists change, the
// gateway's own lists follow and its clients are told.
func TestListChangedIsForwarded(t *testing.T) {
	upSrv := listsServer()
	up := openSession(t, session.Source{Kind: session.InProcess, Name: "lists", Server: upSrv}, session.Options{})
	g := newGateway(t, up, Options{Mode: ModeTerm})
	c, n := inProcessClient(t, g)
	ctx := ctxT(t, 10*time.Second)

	upSrv.AddTool(mcp.NewTool("whisper", mcp.WithDescription("Say it quietly."), mcp.WithString("text")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("psst"), nil
		})
	n.await(t, "tools/list_changed", func() bool {
		return len(n.of("notifications/tools/list_changed")) > 0
	})
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 || !strings.Contains(res.Tools[0].Description, "whisper") {
		t.Fatalf("the description does not carry the new tool:\n%s", res.Tools[0].Description)
	}
	if r := termCall(t, c, `(whisper)`); r.IsError || text(r) != `(ok "psst")` {
		t.Fatalf("calling the new tool: %s", text(r))
	}

	upSrv.AddResource(mcp.NewResource("test://c", "gamma"), func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "test://c", Text: "c"}}, nil
	})
	n.await(t, "resources/list_changed", func() bool {
		return len(n.of("notifications/resources/list_changed")) > 0
	})
	rs, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil || !slices.ContainsFunc(rs.Resources, func(r mcp.Resource) bool { return r.URI == "test://c" }) {
		t.Fatalf("resources after the change: %v %v", err, rs)
	}

	upSrv.AddPrompt(mcp.NewPrompt("bye"), func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("bye", nil), nil
	})
	n.await(t, "prompts/list_changed", func() bool {
		return len(n.of("notifications/prompts/list_changed")) > 0
	})
	ps, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil || len(ps.Prompts) != 2 {
		t.Fatalf("prompts after the change: %v %v", err, ps)
	}
}

// TestLogsReachClientsAtTheirLevel: upstream log messages go to every
// client, filtered by the level each one set: per session before
// 2026-07-28, per request from then on.
func TestLogsReachClientsAtTheirLevel(t *testing.T) {
	upSrv := listsServer()
	up := openSession(t, session.Source{Kind: session.InProcess, Name: "lists", Server: upSrv}, session.Options{})
	g := newGateway(t, up, Options{Mode: ModeAQLSingle})
	const legacy = "2025-11-25"
	quiet, qn := inProcessClientAt(t, g, legacy)
	chatty, cn := inProcessClientAt(t, g, legacy)
	modern, mn := inProcessClientAt(t, g, mcp.LATEST_PROTOCOL_VERSION)
	idle, in := inProcessClientAt(t, g, mcp.LATEST_PROTOCOL_VERSION)
	for _, c := range []*client.Client{chatty, idle} {
		sl := mcp.SetLevelRequest{}
		sl.Params.Level = mcp.LoggingLevelDebug
		//lint:ignore SA1019 the gateway forwards logging/setLevel for clients on revisions that still have it
		if err := c.SetLevel(ctxT(t, 5*time.Second), sl); err != nil {
			t.Fatal(err)
		}
	}
	levels := func(n *notes) string {
		var out []string
		for _, x := range n.of("notifications/message") {
			f := x.Params.AdditionalFields
			out = append(out, fmt.Sprint(f["level"], "/", f["logger"], "/", f["data"]))
		}
		return strings.Join(out, " ")
	}

	if r := callTool(t, quiet, "mcp_aql", `{"operation":"shout","params":{"text":"hey"}}`); r.IsError {
		t.Fatal(text(r))
	}
	cn.await(t, "both log messages at the chatty client", func() bool {
		return levels(cn) == "warning/shout/warning: hey error/shout/error: hey"
	})
	qn.await(t, "the error at the quiet client", func() bool { return levels(qn) == "error/shout/error: hey" })

	// A 2026-07-28 client gets the messages of its own call at the level
	// that call asked for, and nothing when it has no call running.
	sl := mcp.SetLevelRequest{}
	sl.Params.Level = mcp.LoggingLevelWarning
	//lint:ignore SA1019 a modern client sends setLevel to check the gateway refuses it
	if err := modern.SetLevel(ctxT(t, 5*time.Second), sl); err != nil {
		t.Fatal(err)
	}
	if r := callTool(t, modern, "mcp_aql", `{"operation":"shout","params":{"text":"ho"}}`); r.IsError {
		t.Fatal(text(r))
	}
	mn.await(t, "both messages at the modern client", func() bool {
		return levels(mn) == "warning/shout/warning: ho error/shout/error: ho"
	})
	// Anything the gateway sent the idle client about that call came before
	// what it sends every client next: it forwards the upstream's messages
	// and rebuilds its tools on one event loop, in order, and each client's
	// notifications arrive in order. So once the idle client hears of a new
	// tool, it has heard all it ever will of the call.
	upSrv.AddTool(mcp.NewTool("marker", mcp.WithDescription("Ends the test.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(""), nil
		})
	in.await(t, "tools/list_changed at the idle client", func() bool { return len(in.of("notifications/tools/list_changed")) > 0 })
	if got := levels(in); got != "" {
		t.Errorf("an idle 2026-07-28 client got %s", got)
	}
}
