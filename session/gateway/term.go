package gateway

import (
	"context"
	"fmt"

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
	}
	content = append(content, blocks(calls.TermBlocks(outs))...)
	return &mcp.CallToolResult{Content: content, IsError: len(outs) > 0 && failed == len(outs)}, nil
}

func termFailure(node *sexpr.Node) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(sexpr.Print(node))}, IsError: true}
}

func errTerm(code, msg string) *sexpr.Node {
	return sexpr.L(sexpr.Sym("err"), sexpr.Sym(code), sexpr.Str(msg))
}

// blocks turns an answer's non-text items (chosen, checked and numbered in
// the core: content.Blocks) into typed MCP content, each unchanged. An
// item mcp-go still cannot read keeps its place as a text block saying so,
// so the block numbers an AQL answer refers to stay true.
func blocks(items []*ojson.Value) []mcp.Content {
	out := make([]mcp.Content, 0, len(items))
	for i, it := range items {
		c, err := mcp.UnmarshalContent([]byte(it.Compact()))
		if err != nil {
			c = mcp.NewTextContent(fmt.Sprintf("block %d: the upstream's %s item could not be passed on: %v", i+1, it.Get("type").StringOr(""), err))
		}
		out = append(out, c)
	}
	return out
}
