package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var fixedNow = time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)

// harness is a demo server with an in-process client connected to it.
type harness struct {
	t     testing.TB
	st    *state
	srv   *server.MCPServer
	c     *client.Client
	tools map[string]mcp.Tool

	mu     sync.Mutex
	notifs []mcp.JSONRPCNotification
}

func connect(t testing.TB, opts Options) *harness {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return fixedNow }
	}
	if opts.Seed == 0 {
		opts.Seed = 42
	}
	st, srv := newServer(opts)
	h := &harness{t: t, st: st, srv: srv}
	c, err := client.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	h.c = c
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		h.mu.Lock()
		h.notifs = append(h.notifs, n)
		h.mu.Unlock()
	})
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "demo-test", Version: "0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	h.tools = map[string]mcp.Tool{}
	for _, tl := range list.Tools {
		h.tools[tl.Name] = tl
	}
	return h
}

// call runs a tool with JSON arguments and returns the raw result.
func (h *harness) call(name, args string) *mcp.CallToolResult {
	h.t.Helper()
	return h.callCtx(context.Background(), name, args)
}

func (h *harness) callCtx(ctx context.Context, name, args string) *mcp.CallToolResult {
	h.t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	if !json.Valid([]byte(args)) {
		h.t.Fatalf("bad test arguments %s", args)
	}
	// Raw JSON keeps the key order, as a real client's request would.
	req.Params.Arguments = json.RawMessage(args)
	res, err := h.c.CallTool(ctx, req)
	if err != nil {
		h.t.Fatalf("%s(%s): protocol error: %v", name, args, err)
	}
	return res
}

// ok calls a tool that must succeed, checks its structured content against
// the tool's outputSchema, and decodes it into out (when out is not nil).
func (h *harness) ok(name, args string, out any) *mcp.CallToolResult {
	h.t.Helper()
	res := h.call(name, args)
	if res.IsError {
		h.t.Fatalf("%s(%s) failed: %s", name, args, text(res))
	}
	tl := h.wireTool(name)
	if tl.RawOutputSchema != nil || tl.OutputSchema.Type != "" {
		if res.StructuredContent == nil {
			h.t.Fatalf("%s declares an outputSchema but returned no structuredContent", name)
		}
		validateOutput(h.t, tl, structured(res))
		// The text fallback says the same thing (the query renders a table).
		if name != "data_platform_query" && text(res) != string(structured(res)) {
			h.t.Errorf("%s: text content %s differs from structuredContent %s", name, text(res), structured(res))
		}
	}
	if out != nil {
		if err := json.Unmarshal(structured(res), out); err != nil {
			h.t.Fatalf("%s: decoding structured content: %v", name, err)
		}
	}
	return res
}

// fails calls a tool that must fail with an isError result whose text
// contains every one of wants.
func (h *harness) fails(name, args string, wants ...string) string {
	h.t.Helper()
	res := h.call(name, args)
	msg := text(res)
	if !res.IsError {
		h.t.Fatalf("%s(%s) succeeded, want an error; got %s", name, args, msg)
	}
	for _, w := range wants {
		if !strings.Contains(msg, w) {
			h.t.Errorf("%s(%s) error %q does not mention %q", name, args, msg, w)
		}
	}
	return msg
}

func (h *harness) notifications(method string) []mcp.JSONRPCNotification {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []mcp.JSONRPCNotification
	for _, n := range h.notifs {
		if n.Method == method {
			out = append(out, n)
		}
	}
	return out
}

// structured is the structuredContent as it came over the wire.
func structured(res *mcp.CallToolResult) []byte {
	if len(res.RawStructuredContent) > 0 {
		return res.RawStructuredContent
	}
	b, _ := json.Marshal(res.StructuredContent)
	return b
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// wireTool is a tool exactly as the server puts it on the wire; the client's
// decoded mcp.Tool drops top-level schema keywords it has no field for.
func (h *harness) wireTool(name string) mcp.Tool {
	h.t.Helper()
	st := h.srv.GetTool(name)
	if st == nil {
		h.t.Fatalf("server has no tool %s", name)
	}
	return st.Tool
}

func schemaJSON(tl mcp.Tool, output bool) []byte {
	if output {
		if tl.RawOutputSchema != nil {
			return tl.RawOutputSchema
		}
		if tl.OutputSchema.Type == "" {
			return nil
		}
		b, _ := json.Marshal(tl.OutputSchema)
		return b
	}
	if tl.RawInputSchema != nil {
		return tl.RawInputSchema
	}
	b, _ := json.Marshal(tl.InputSchema)
	return b
}

func compileSchema(t testing.TB, name string, raw []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: schema is not JSON: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	url := "mem://" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: schema does not compile: %v", name, err)
	}
	return sch
}

func validateOutput(t testing.TB, tl mcp.Tool, b []byte) {
	t.Helper()
	sch := compileSchema(t, tl.Name+".output", schemaJSON(tl, true))
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s: structuredContent does not match outputSchema: %v\n%s", tl.Name, err, b)
	}
}

func TestServerIdentity(t *testing.T) {
	st, srv := newServer(Options{})
	_ = st
	c, _ := client.NewInProcessClient(srv)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "t", Version: "0"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "mcpterm-demo" || res.ServerInfo.Version != Version {
		t.Errorf("server info = %+v", res.ServerInfo)
	}
	if !strings.Contains(res.Instructions, "data_platform_query") {
		t.Errorf("instructions do not describe the tools: %q", res.Instructions)
	}
	caps := res.Capabilities
	if caps.Tools == nil || caps.Resources == nil || caps.Prompts == nil || caps.Logging == nil {
		t.Errorf("capabilities missing: %+v", caps)
	}
}

var wantTools = []string{
	"clear_completed", "create_todo", "data_platform_query", "delete_todo", "file_read",
	"get_todo", "list_todos", "long_task", "note_update", "update_todo",
}

func TestListings(t *testing.T) {
	h := connect(t, Options{})
	ctx := context.Background()
	var names []string
	for n := range h.tools {
		names = append(names, n)
	}
	slices.Sort(names)
	if !slices.Equal(names, wantTools) {
		t.Errorf("tools = %v, want %v", names, wantTools)
	}
	res, err := h.c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range res.Resources {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	if !slices.Equal(uris, []string{"demo://catalog", "file:///docs/README.md"}) {
		t.Errorf("resources = %v", uris)
	}
	tpl, err := h.c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tpl.ResourceTemplates) != 1 || tpl.ResourceTemplates[0].URITemplate.Raw() != "file:///{+path}" {
		t.Errorf("templates = %+v", tpl.ResourceTemplates)
	}
	pr, err := h.c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Prompts) != 1 || pr.Prompts[0].Name != "summarize_file" || len(pr.Prompts[0].Arguments) != 2 || !pr.Prompts[0].Arguments[0].Required {
		t.Errorf("prompts = %+v", pr.Prompts)
	}
}

func TestAnnotations(t *testing.T) {
	h := connect(t, Options{})
	// name: readOnly, destructive, idempotent
	want := map[string][3]bool{
		"file_read":           {true, false, true},
		"note_update":         {false, true, false},
		"list_todos":          {true, false, true},
		"get_todo":            {true, false, true},
		"create_todo":         {false, false, false},
		"update_todo":         {false, true, true},
		"delete_todo":         {false, true, true},
		"clear_completed":     {false, true, true},
		"data_platform_query": {true, false, true},
		"long_task":           {true, false, true},
	}
	for name, w := range want {
		a := h.tools[name].Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: every hint should be stated: %+v", name, a)
			continue
		}
		got := [3]bool{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint}
		if got != w {
			t.Errorf("%s: readOnly/destructive/idempotent = %v, want %v", name, got, w)
		}
		if *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint should be false, the demo touches nothing outside", name)
		}
		if a.Title == "" || h.tools[name].Title == "" || h.tools[name].Description == "" {
			t.Errorf("%s: title and description should be set", name)
		}
	}
}

// Every schema must compile with a real validator, keep its properties in
// the order written, and reject what it should.
func TestSchemasCompile(t *testing.T) {
	h := connect(t, Options{})
	for name := range h.tools {
		tl := h.wireTool(name)
		in := compileSchema(t, name, schemaJSON(tl, false))
		if out := schemaJSON(tl, true); out != nil {
			compileSchema(t, name+".output", out)
		}
		for _, bad := range []string{`[]`, `"x"`, `{"no_such_argument": 1}`} {
			inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
			if in.Validate(inst) == nil {
				t.Errorf("%s: input schema accepts %s", name, bad)
			}
		}
	}
	// Property order is part of the contract (MCP-Term's positional arguments).
	raw := string(h.wireTool("file_read").RawInputSchema)
	if !(strings.Index(raw, `"path"`) < strings.Index(raw, `"encoding"`) &&
		strings.Index(raw, `"encoding"`) < strings.Index(raw, `"offset"`) &&
		strings.Index(raw, `"offset"`) < strings.Index(raw, `"limit"`)) {
		t.Errorf("file_read properties lost their order: %s", raw)
	}
}

// The tool list must look like a real server's: compact JSON, descriptions
// of a sentence or three, no padding.
func TestToolListIsRealistic(t *testing.T) {
	h := connect(t, Options{})
	var tools []mcp.Tool
	for _, name := range wantTools {
		tools = append(tools, h.wireTool(name))
	}
	b, err := json.Marshal(mcp.ListToolsResult{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d bytes of JSON for %d tools", len(b), len(tools))
	if len(b) > 24_000 {
		t.Errorf("tools/list is %d bytes; the demo should stay small", len(b))
	}
	for name, tl := range h.tools {
		if n := len(tl.Description); n < 20 || n > 400 {
			t.Errorf("%s: description of %d bytes", name, n)
		}
	}
}

// Two servers never share state.
func TestInstancesAreIndependent(t *testing.T) {
	a := connect(t, Options{})
	b := connect(t, Options{})
	a.ok("create_todo", `{"title": "only in a"}`, nil)
	var la, lb struct{ Total int }
	a.ok("list_todos", `{}`, &la)
	b.ok("list_todos", `{}`, &lb)
	if la.Total != lb.Total+1 {
		t.Errorf("totals %d and %d: state leaked between servers", la.Total, lb.Total)
	}
}

func TestUnknownToolIsProtocolError(t *testing.T) {
	h := connect(t, Options{})
	req := mcp.CallToolRequest{}
	req.Params.Name = "no_such_tool"
	if _, err := h.c.CallTool(context.Background(), req); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("err = %v", err)
	}
}

func BenchmarkConnectListTools(b *testing.B) {
	srv := New(Options{Seed: 1})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		c, err := client.NewInProcessClient(srv)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Start(ctx); err != nil {
			b.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "0"}
		if _, err := c.Initialize(ctx, init); err != nil {
			b.Fatal(err)
		}
		res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil || len(res.Tools) != len(wantTools) {
			b.Fatal(err, len(res.Tools))
		}
		c.Close()
	}
}

func BenchmarkNewServer(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = New(Options{Seed: 1})
	}
}
