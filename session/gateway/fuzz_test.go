package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session/policy"
)

// fuzzGateway is a gateway over the demo server that runs only read-only
// tools, so fuzzed calls that do get through change nothing.
func fuzzGateway(f *testing.F, m Mode) *Gateway {
	p, err := policy.New(policy.Rules{ReadOnly: true, Deny: []string{"long_task"}})
	if err != nil {
		f.Fatal(err)
	}
	return newGateway(f, demoSession(f), Options{Mode: m, Policy: p})
}

// FuzzTermExpr: whatever a client puts in expr, the term tool answers with
// one (ok ...), (err ...) or (results ...) form, never a Go error or a
// panic, and isError matches the form.
func FuzzTermExpr(f *testing.F) {
	for _, s := range []string{
		`(fr "/etc/hosts")`, `(fr)`, `(zz 1)`, `(batch (1 (lt)) (2 (gt "x")))`, `(batch :concurrency 2 (a (fr "/a")))`,
		`[{"name":"file_read","arguments":{"path":"/etc/hosts"}}]`, `{"name":"list_todos"}`, `(`, `)`, "", `"`, `(fr "\u0000")`,
		`(dpq "q" ((sql :pg "h" "d" "SELECT 1")) ())`, `(lt :limit 1e999)`, `(fr :path (json "{\"a\":1}"))`,
	} {
		f.Add(s)
	}
	g := fuzzGateway(f, ModeTerm)
	f.Fuzz(func(t *testing.T, expr string) {
		req := mcp.CallToolRequest{}
		req.Params.Name = DefaultTermTool
		args, _ := json.Marshal(map[string]string{"expr": expr})
		req.Params.RawArguments = args
		req.Params.Arguments = json.RawMessage(args)
		res, err := g.handleTerm(context.Background(), req)
		if err != nil || res == nil || len(res.Content) == 0 {
			t.Fatalf("%q: %v %v", expr, err, res)
		}
		text := res.Content[0].(mcp.TextContent).Text
		if !utf8.ValidString(text) {
			t.Fatalf("%q: answer is not UTF-8", expr)
		}
		switch {
		case strings.HasPrefix(text, "(ok"):
			if res.IsError {
				t.Fatalf("%q: (ok ...) with isError", expr)
			}
		case strings.HasPrefix(text, "(err"):
			if !res.IsError {
				t.Fatalf("%q: (err ...) without isError", expr)
			}
		case strings.HasPrefix(text, "(results"):
		default:
			t.Fatalf("%q: answer %q", expr, text)
		}
	})
}

// FuzzAQLArguments: whatever JSON a client sends an AQL endpoint, the
// answer is one OperationResult (or a batch of them) as JSON, with
// isError set exactly for a failed single operation.
func FuzzAQLArguments(f *testing.F) {
	for _, s := range []string{
		`{"operation":"introspect","params":{"query":"operations"}}`, `{"operation":"file_read","params":{"path":"/etc/hosts"}}`,
		`{"operations":[{"operation":"list_todos"},{"operation":"nope"}]}`, `{}`, `[]`, `null`, `"x"`, `{"operation":1}`,
		`{"operation":"list_todos","params":{"fields":["items.id"]}}`, `{"operation":"get_todo","id":"x","params":{"id":"y"}}`,
	} {
		f.Add(s)
	}
	g := fuzzGateway(f, ModeAQLSingle)
	handle := g.handleAQL(aql.SingleTool)
	f.Fuzz(func(t *testing.T, doc string) {
		req := mcp.CallToolRequest{}
		req.Params.Name = aql.SingleTool
		req.Params.RawArguments = json.RawMessage(doc)
		res, err := handle(context.Background(), req)
		if err != nil || res == nil || len(res.Content) != 1 {
			t.Fatalf("%q: %v %v", doc, err, res)
		}
		resp, perr := ojson.Parse([]byte(res.Content[0].(mcp.TextContent).Text))
		if perr != nil || resp.Kind != ojson.Object || resp.Get("success") == nil {
			t.Fatalf("%q: answer is not an OperationResult: %v", doc, perr)
		}
		batch := resp.Has("results")
		if res.IsError != (!batch && !aql.IsSuccess(resp)) {
			t.Fatalf("%q: isError %v for %s", doc, res.IsError, resp.Compact())
		}
	})
}

// FuzzNonText: whatever an upstream puts in a result's content, passing
// its non-text items on neither panics nor passes text items, and the AQL
// answer to the same result refers to exactly the blocks passed, by number.
func FuzzNonText(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png"},{"type":"text","text":"x"}]}`,
		`{"content":[{"type":"resource","resource":{"uri":"a://b","text":"t"}},{"type":"resource_link","uri":"a://c","name":"c"}]}`,
		`{"content":[{"type":"audio"},{"type":7},null,1,"s"]}`, `{"content":{}}`, `{}`,
		`{"content":[{"type":"image","data":"AAAA","mimeType":"image/png","annotations":7}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := ojson.Parse([]byte(raw))
		if err != nil {
			return
		}
		passed := blocks(calls.TermBlocks([]calls.Outcome{{Result: v}}))
		for _, c := range passed {
			if tc, ok := c.(mcp.TextContent); ok && !strings.HasPrefix(tc.Text, "block ") {
				t.Fatalf("%q: a text item was passed on", raw)
			}
		}
		resp, _ := aql.Finish(aql.Step{Call: &aql.ToolCall{Name: "t"}}, v, nil)
		if n := strings.Count(resp.Compact(), `"block":`); n < len(passed) {
			t.Fatalf("%q: %d blocks passed, %d referenced: %s", raw, len(passed), n, resp.Compact())
		}
	})
}
