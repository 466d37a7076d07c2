package gateway

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// handleTerm answers a call of the term tool: expr is read against the
// upstream schemas (calls.Codec.ReadCalls), run (session.Runner) and
// answered in MCP-Term (calls.RenderTerm), followed by the upstream's
// non-text content.
func (g *Gateway) handleTerm(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	defer g.inflight.enter(ctx)()
	st := g.st.Load()
	args, err := rawArguments(req)
	if err != nil {
		return termFailure(errTerm("shape", "the arguments are not JSON: "+err.Error())), nil
	}
	expr := args.Get("expr")
	if expr == nil || expr.Kind != ojson.String {
		return termFailure(errTerm(string(call.ErrMissing),
			`expr is missing: pass {"expr": "(CODE ARG ...)"}, one MCP-Term call or (batch ...) as a string`)), nil
	}
	plan, err := st.codec.ReadCalls(expr.Str)
	if err != nil {
		return termFailure(st.codec.ErrorTerm(err)), nil
	}
	outs := g.runPlan(ctx, st, plan, newProgress(ctx, req), "calls")
	// The text first, then the upstream's non-text content as it sent it (a
	// client can show an image; the text only summarises it). The answer
	// is an error when every call failed: the one call, or all of a batch.
	content := []mcp.Content{mcp.NewTextContent(calls.RenderTerm(plan, outs, 0))}
	failed := 0
	for _, o := range outs {
		if !o.OK() {
			failed++
		}
		content = append(content, nonText(o.Result)...)
	}
	return &mcp.CallToolResult{Content: content, IsError: len(outs) > 0 && failed == len(outs)}, nil
}

func termFailure(node *sexpr.Node) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(sexpr.Print(node))}, IsError: true}
}

func errTerm(code, msg string) *sexpr.Node {
	return sexpr.L(sexpr.Sym("err"), sexpr.Sym(code), sexpr.Str(msg))
}

// maxPassedContent bounds how many non-text items one answer passes on.
const maxPassedContent = 64

// nonText returns a result's image, audio and resource items as typed MCP
// content, unchanged. Items of other types, and those mcp-go cannot read,
// are left to the text summary (mcp-go would read an unknown type as text).
func nonText(raw *ojson.Value) []mcp.Content {
	if raw == nil {
		return nil
	}
	items := raw.Get("content")
	if items == nil || items.Kind != ojson.Array {
		return nil
	}
	var out []mcp.Content
	for _, it := range items.Items {
		if it.Kind != ojson.Object {
			continue
		}
		switch it.Get("type").StringOr("") {
		case "image", "audio", "resource", "resource_link":
		default:
			continue
		}
		c, err := mcp.UnmarshalContent([]byte(it.Compact()))
		if err != nil {
			continue
		}
		out = append(out, c)
		if len(out) == maxPassedContent {
			break
		}
	}
	return out
}
