package gateway

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/ojson"
)

// handleAQL answers a call of one AQL endpoint (mcp_aql or mcp_aql_<cat>):
// introspect and every failure found before I/O locally, the rest through
// the upstream, each wrapped as {success, data|error}.
func (g *Gateway) handleAQL(via string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		defer g.inflight.enter(ctx)()
		st := g.st.Load()
		args, err := rawArguments(req)
		if err != nil {
			return aqlAnswer(aqlFailure(aql.CodeInvalidType, "The arguments are not JSON: "+err.Error()), true), nil
		}
		in, err := aql.FromValue(args)
		if err != nil {
			var aerr *aql.Error
			if errors.As(err, &aerr) {
				return aqlAnswer(aerr.Response(), true), nil
			}
			return aqlAnswer(aqlFailure(aql.CodeInvalidType, err.Error()), true), nil
		}
		p := g.newProgress(ctx, req)
		defer p.flush()
		total := 1
		if in.IsBatch() {
			total = len(in.Batch)
		}
		done := 0
		exec := func(c aql.ToolCall) (*ojson.Value, error) {
			uc := upstreamCall{Tool: c.Name, Arguments: c.Arguments}
			if !in.IsBatch() {
				uc.OnProgress = p.upstream
			}
			raw, err := g.call(ctx, st, uc)
			if in.IsBatch() {
				done++
				p.send(float64(done), float64(total), fmt.Sprintf("%d of %d operations done", done, total))
			}
			return raw, err
		}
		resp := st.adapter.Run(via, in, exec)
		return aqlAnswer(resp, !in.IsBatch() && !aql.IsSuccess(resp)), nil
	}
}

// aqlAnswer sends an OperationResult as minified JSON text. A failed single
// operation is also isError, so clients that only look at that flag see it.
func aqlAnswer(resp *ojson.Value, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(resp.Compact())}, IsError: isError}
}

func aqlFailure(code, msg string) *ojson.Value {
	return (&aql.Error{Code: code, Message: msg}).Response()
}
