package session

import (
	"context"
	"io"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Client is what the UI needs from a session. *Session implements it; UI
// tests can substitute a fake without any server.
type Client interface {
	Info() Info
	IsOffline() bool
	Tools(ctx context.Context) (*toolset.Set, error)
	ToolWarnings() []string
	Resources(ctx context.Context) ([]mcp.Resource, error)
	ResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error)
	Prompts(ctx context.Context) ([]mcp.Prompt, error)
	ReadResource(ctx context.Context, uri string) (*ResourceContents, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*PromptMessages, error)
	Call(ctx context.Context, req CallRequest) *CallResult
	Batch(ctx context.Context, reqs []CallRequest, opts BatchOptions) *BatchResult
	Ping(ctx context.Context) error
	Reconnect(ctx context.Context) error
	Events() []Event
	Subscribe(ctx context.Context) <-chan Event
	// Feed merges the retained and live events and protocol messages.
	Feed(ctx context.Context) <-chan FeedItem
	Tap() *Tap
	Stderr() string
	Close() error
}

var _ Client = (*Session)(nil)

// NewTap makes an empty tap (writing trace lines to trace, if not nil), for
// fakes of Client that need one to return.
func NewTap(trace io.Writer) *Tap { return newTap(trace) }
