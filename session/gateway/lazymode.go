package gateway

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
)

// ModeTermLazy is lazy discovery: one mcp_term tool whose description lists
// each upstream tool on one line (short code, name, first sentence); a
// (describe CODE ...) or (describe :server NAME) expr of the same tool
// answers with those tools' full, lossless MCP-Term declarations, and every
// other expr is a call, read and run exactly as in term mode. One tool
// keeps a model's choice simple, and a list of hundreds of tools costs a
// line each until the model asks about the few it needs.
const ModeTermLazy Mode = "term-lazy"

// buildLazy makes the term-lazy tool. The codes are the whole visible
// list's, so the listing, the describe answers and the codec agree.
func (g *Gateway) buildLazy(st *state) error {
	names := make([]string, len(st.visible.Tools))
	for i, t := range st.visible.Tools {
		names[i] = t.Name
	}
	codes := term.ShortCodes(names)
	st.describer = termtool.NewDescriber(st.visible, codes)
	st.codec = calls.New(st.visible, calls.Options{Overrides: g.opts.Overrides, Codes: codes, Unsuggest: g.unsuggest(&st.codec)})
	// The tool is termtool's, which `mcpterm tokens` counts as the
	// term_lazy form's upfront document.
	st.tools = []server.ServerTool{{Tool: termTool(st, termtool.LazyTool(g.opts.TermTool, st.visible, codes)), Handler: g.handleLazy}}
	return nil
}

// handleLazy answers a describe request locally, from the state the call
// started with; anything else is a call (handleTerm).
func (g *Gateway) handleLazy(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	st := g.st.Load()
	args, err := rawArguments(req)
	if err != nil || st.describer == nil {
		return g.handleTerm(ctx, req)
	}
	expr := args.Get("expr")
	if expr == nil || expr.Kind != ojson.String {
		return g.handleTerm(ctx, req)
	}
	dr, ok, err := termtool.ReadDescribe(expr.Str)
	if !ok {
		return g.handleTerm(ctx, req)
	}
	if err != nil {
		return termFailure(errTerm("parse", term.EscapeHidden(err.Error()))), nil
	}
	answer, err := st.describer.Answer(dr)
	if err != nil {
		var unk *termtool.UnknownError
		if errors.As(err, &unk) {
			return termFailure(errTerm("unknown", err.Error())), nil
		}
		return termFailure(errTerm("describe", fmt.Sprintf("the declarations could not be rendered: %v", err))), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(answer)}}, nil
}
