// Package testserver provides the MCP servers the session tests run against:
// a small well-behaved mcp-go server (in-process or over stdio) and raw
// JSON-RPC stdio servers that misbehave on purpose.
package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Recorder notes what the server saw, for tests to assert on.
type Recorder struct {
	mu        sync.Mutex
	cancelled []string
	calls     int
}

// Cancelled lists the tools whose handlers saw their context cancelled.
func (r *Recorder) Cancelled() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.cancelled...)
}

// Calls counts tool calls served.
func (r *Recorder) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

func (r *Recorder) call() {
	r.mu.Lock()
	r.calls++
	r.mu.Unlock()
	noted.notify()
}

func (r *Recorder) cancel(tool string) {
	r.mu.Lock()
	r.cancelled = append(r.cancelled, tool)
	r.mu.Unlock()
	noted.notify()
}

// noted wakes whoever waits on what a Recorder saw. It is one for the
// process because tests make Recorders as plain &Recorder{} values, with
// nowhere to hang a per-test signal; a wake-up meant for another test only
// costs the waiter a second look.
var noted broadcast

// Noted returns a channel closed the next time any Recorder notes a call
// or a cancellation. Take it before looking at the Recorder, so a note in
// between is not missed.
func Noted() <-chan struct{} { return noted.next() }

// broadcast wakes every waiter at once: next is a channel the next notify
// closes.
type broadcast struct {
	mu sync.Mutex
	ch chan struct{}
}

func (b *broadcast) next() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

func (b *broadcast) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

// Tool schemas written by hand so key order and unknown keys ("x-order")
// can be checked to survive listing.
const (
	echoSchema = `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"}},"required":["zeta"],"x-order":"zeta-first"}`
	addSchema  = `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`
	sumSchema  = `{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`
	slowSchema = `{"type":"object","properties":{"steps":{"type":"integer"},"ms":{"type":"integer"}}}`
	sizeSchema = `{"type":"object","properties":{"bytes":{"type":"integer"}}}`
)

// New builds the well-behaved server. extraTools adds that many trivial
// tools (tool_0000, ...) for paging tests; pageSize > 0 turns on paging.
func New(rec *Recorder, extraTools, pageSize int) *server.MCPServer {
	opts := []server.ServerOption{
		server.WithToolCapabilities(true),
		server.WithResourceCapabilities(false, true),
		server.WithPromptCapabilities(true),
		server.WithLogging(),
		server.WithInstructions("A test server. Try echo."),
	}
	if pageSize > 0 {
		opts = append(opts, server.WithPaginationLimit(pageSize))
	}
	s := server.NewMCPServer("testserver", "1.2.3", opts...)

	text := func(s string) *mcp.CallToolResult { return mcp.NewToolResultText(s) }
	ro := func(t mcp.Tool) mcp.Tool {
		t.Annotations.ReadOnlyHint = mcp.ToBoolPtr(true)
		return t
	}

	s.AddTool(ro(mcp.NewToolWithRawSchema("echo", "Echo the arguments back.", json.RawMessage(echoSchema))),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec.call()
			b, _ := json.Marshal(req.GetArguments())
			return text(string(b)), nil
		})

	add := mcp.NewToolWithRawSchema("add", "Add two numbers.", json.RawMessage(addSchema))
	add.RawOutputSchema = json.RawMessage(sumSchema)
	s.AddTool(ro(add), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rec.call()
		a := req.GetFloat("a", 0)
		b := req.GetFloat("b", 0)
		return mcp.NewToolResultStructured(map[string]any{"sum": a + b}, fmt.Sprint(a+b)), nil
	})

	bad := mcp.NewToolWithRawSchema("bad_output", "Breaks its own output schema.", json.RawMessage(`{"type":"object"}`))
	bad.RawOutputSchema = json.RawMessage(sumSchema)
	s.AddTool(ro(bad), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rec.call()
		return mcp.NewToolResultStructured(map[string]any{"sum": "not a number"}, "oops"), nil
	})

	s.AddTool(mcp.NewToolWithRawSchema("fail", "Always reports an error.", json.RawMessage(`{"type":"object"}`)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec.call()
			return mcp.NewToolResultError("it failed, as asked"), nil
		})

	s.AddTool(mcp.NewToolWithRawSchema("slow", "Works in steps, reporting progress.", json.RawMessage(slowSchema)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec.call()
			steps := req.GetInt("steps", 3)
			ms := req.GetInt("ms", 10)
			var token mcp.ProgressToken
			if req.Params.Meta != nil {
				token = req.Params.Meta.ProgressToken
			}
			srv := server.ServerFromContext(ctx)
			for i := 1; i <= steps; i++ {
				select {
				case <-ctx.Done():
					rec.cancel("slow")
					return nil, ctx.Err()
				case <-time.After(time.Duration(ms) * time.Millisecond):
				}
				if token != nil && srv != nil {
					_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
						"progressToken": token, "progress": i, "total": steps, "message": fmt.Sprintf("step %d", i),
					})
				}
			}
			return text(fmt.Sprintf("done in %d steps", steps)), nil
		})

	s.AddTool(mcp.NewToolWithRawSchema("hang", "Never finishes unless cancelled.", json.RawMessage(`{"type":"object"}`)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec.call()
			<-ctx.Done()
			rec.cancel("hang")
			return nil, ctx.Err()
		})

	s.AddTool(ro(mcp.NewToolWithRawSchema("big", "Returns a large text.", json.RawMessage(sizeSchema))),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec.call()
			return text(strings.Repeat("x", req.GetInt("bytes", 1000))), nil
		})

	s.AddTool(ro(mcp.NewToolWithRawSchema("log", "Sends a log message.", json.RawMessage(`{"type":"object","properties":{"msg":{"type":"string"}}}`))),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec.call()
			msg := req.GetString("msg", "hello")
			if srv := server.ServerFromContext(ctx); srv != nil {
				_ = srv.SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": "warning", "logger": "test", "data": msg})
			}
			return text("logged"), nil
		})

	s.AddTool(mcp.NewToolWithRawSchema("grow", "Adds a tool named by the argument.", json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rec.call()
			name := req.GetString("name", "grown")
			if srv := server.ServerFromContext(ctx); srv != nil {
				srv.AddTool(mcp.NewToolWithRawSchema(name, "Grown at run time.", json.RawMessage(`{"type":"object"}`)),
					func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text(name), nil })
			}
			return text("added " + name), nil
		})

	for i := 0; i < extraTools; i++ {
		name := fmt.Sprintf("tool_%04d", i)
		s.AddTool(mcp.NewToolWithRawSchema(name, "Filler tool number "+fmt.Sprint(i)+".",
			json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","description":"query"}}}`)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text(name), nil })
	}

	s.AddResource(mcp.NewResource("mem://hello", "hello", mcp.WithResourceDescription("A greeting."), mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "mem://hello", MIMEType: "text/plain", Text: "hello, world"}}, nil
		})
	s.AddResourceTemplate(mcp.NewResourceTemplate("mem://items/{id}", "item"),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "item at " + req.Params.URI}}, nil
		})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Greets someone."), mcp.WithArgument("name", mcp.RequiredArgument())),
		func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Say hello to "+req.Params.Arguments["name"]+".")),
			}), nil
		})
	return s
}
