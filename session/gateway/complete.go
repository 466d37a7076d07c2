package gateway

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

// upstreamCompleter is what completion/complete needs of the upstream;
// *session.Session has it (session/complete.go).
type upstreamCompleter interface {
	Complete(ctx context.Context, ref session.CompleteRef, arg, value string, filled map[string]string) (*session.Completion, error)
}

// completionOptions declare completions to the gateway's clients when the
// upstream declared them, and answer each completion/complete with the
// upstream's (bounded by the session: at most 100 values).
func (g *Gateway) completionOptions() []server.ServerOption {
	up, ok := g.up.(upstreamCompleter)
	if !ok || g.up.Info().Capabilities.Completions == nil {
		return nil
	}
	c := completer{g: g, up: up}
	return []server.ServerOption{server.WithCompletions(), server.WithPromptCompletionProvider(c), server.WithResourceCompletionProvider(c)}
}

// completer forwards completion/complete to the upstream.
type completer struct {
	g  *Gateway
	up upstreamCompleter
}

func (c completer) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	return c.complete(ctx, session.CompleteRef{Prompt: prompt}, arg, cc)
}

func (c completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	return c.complete(ctx, session.CompleteRef{URI: uri}, arg, cc)
}

func (c completer) complete(ctx context.Context, ref session.CompleteRef, arg mcp.CompleteArgument, cc mcp.CompleteContext) (*mcp.Completion, error) {
	ctx = upstreamCtx(ctx)
	if err := c.g.ensureUpstream(ctx); err != nil {
		return nil, err
	}
	gen := c.g.up.Info().Generation
	res, err := c.up.Complete(ctx, ref, arg.Name, arg.Value, cc.Arguments)
	if err != nil {
		return nil, c.g.upstreamErr("completion/complete", gen, err)
	}
	values := res.Values
	if values == nil {
		values = []string{} // a required array: [] rather than null
	}
	return &mcp.Completion{Values: values, Total: res.Total, HasMore: res.HasMore}, nil
}
