package gateway

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// handleAQL answers a call of one AQL endpoint (mcp_aql or mcp_aql_<cat>):
// the document is read as arriving through that endpoint
// (calls.Codec.ReadAQL), so introspect and every failure found before I/O
// are answered locally; the rest runs upstream (session.Runner, in order),
// and the answer is the AQL response {success, data|error}, or a batch's
// results and summary (calls.Codec.AnswerBlocks), as minified JSON,
// followed by the results' non-text content as MCP content blocks.
func (g *Gateway) handleAQL(via string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		defer g.inflight.enter(ctx)()
		st := g.st.Load()
		args, err := rawArguments(req)
		if err != nil {
			return aqlAnswer(aqlFailure(aql.CodeInvalidType, "The arguments are not JSON: "+err.Error()), true), nil
		}
		plan, err := st.codec.ReadAQL(args, via)
		if err != nil {
			var aerr *aql.Error
			if errors.As(err, &aerr) {
				return aqlAnswer(aerr.Response(), true), nil
			}
			return aqlAnswer(aqlFailure(aql.CodeInvalidType, err.Error()), true), nil
		}
		outs := g.runPlan(ctx, st, plan, newProgress(ctx, req), "operations")
		resp, passed := st.codec.AnswerBlocks(plan, outs)
		res := aqlAnswer(resp, !plan.Batch && !aql.IsSuccess(resp))
		// The JSON refers to each image, audio, resource or link by its
		// block number; the blocks themselves follow, as in term mode.
		res.Content = append(res.Content, blocks(passed)...)
		return res, nil
	}
}

// aqlAnswer sends an OperationResult as minified JSON text. A failed single
// operation is also isError, so clients that only look at that flag see it.
func aqlAnswer(resp *ojson.Value, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(calls.RenderAQL(resp, false, 0))}, IsError: isError}
}

func aqlFailure(code, msg string) *ojson.Value {
	return (&aql.Error{Code: code, Message: msg}).Response()
}
