package gateway

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// ModePass lists the upstream's tools as the upstream lists them (less
// those the policy denies) and runs each call as it comes, answering with
// the upstream's own result. It saves no tokens: it is for clients and
// test suites that call the upstream's tools by name (the MCP conformance
// suite's server scenarios), with the gateway's policy, audit, reconnects
// and client-side forwarding still in the way.
const ModePass Mode = "passthrough"

// buildPass makes one gateway tool per visible upstream tool, declared as
// the upstream declared it. Task support is not passed on: the gateway
// runs every call itself.
func (g *Gateway) buildPass(st *state) error {
	st.codec = calls.New(st.visible, calls.Options{Overrides: g.opts.Overrides, Unsuggest: g.unsuggest(&st.codec)})
	for _, t := range st.visible.Tools {
		var tool mcp.Tool
		if t.Raw != nil {
			if err := json.Unmarshal([]byte(t.Raw.Compact()), &tool); err != nil {
				return fmt.Errorf("gateway: tool %s: %w", label(t.Name), err)
			}
		}
		tool.Name, tool.Execution = t.Name, nil
		tool.InputSchema, tool.RawInputSchema = mcp.ToolInputSchema{}, json.RawMessage(t.InputSchema.Compact())
		tool.OutputSchema, tool.RawOutputSchema = mcp.ToolOutputSchema{}, nil
		if t.OutputSchema != nil {
			tool.RawOutputSchema = json.RawMessage(t.OutputSchema.Compact())
		}
		st.tools = append(st.tools, server.ServerTool{Tool: tool, Handler: g.handlePass(t.Name)})
	}
	return nil
}

// handlePass runs one call of an upstream tool through the state's runner
// (policy, audit, reconnect) and answers with the upstream's result as it
// sent it, or a tool error saying why there is none.
func (g *Gateway) handlePass(name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		defer g.inflight.enter(ctx)()
		st := g.st.Load()
		args, err := rawArguments(req)
		if err != nil || args.Kind != ojson.Object {
			return mcp.NewToolResultError("the arguments are not a JSON object"), nil
		}
		plan := &calls.Plan{Syntax: calls.JSON, Items: []calls.Item{{Tool: name, Arguments: args}}}
		outs := g.runPlan(ctx, st, plan, newProgress(ctx, req), "calls")
		if len(outs) != 1 {
			return mcp.NewToolResultError("no answer"), nil
		}
		if f := outs[0].Err; f != nil {
			return mcp.NewToolResultError(f.Error()), nil
		}
		raw := json.RawMessage(outs[0].Result.Compact())
		res, err := mcp.ParseCallToolResult(&raw)
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("upstream %s answered %s with something that is not a CallToolResult: %v", g.serverName(), label(name), err)), nil
		}
		res.Meta = ownMeta(res.Meta)
		return res, nil
	}
}
