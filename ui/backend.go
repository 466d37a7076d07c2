package ui

import (
	"context"
	"time"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// The interfaces in this file are everything the workbench needs from the
// rest of mcpterm. They live here, at the consumer, so the UI can be built and
// tested with fakes while session/, tokens/ and convert/ evolve, and so an
// adapter is the only place that knows their concrete APIs.

// Connector opens a session. It runs inside a tea.Cmd, never in Update. An
// error may implement StderrError to carry what the server printed.
type Connector func(ctx context.Context) (Backend, error)

// StderrError is implemented by connection errors that captured the
// server's stderr, which is usually the only useful diagnosis.
type StderrError interface {
	error
	Stderr() string
}

// Backend is a live (or offline) session with one MCP server. Every method
// may block on the network and is only called from tea.Cmds.
type Backend interface {
	Info() ServerInfo
	Tools() *toolset.Set
	// Call runs one tools/call. Cancelling ctx must cancel the request on the
	// server (notifications/cancelled) and return promptly.
	Call(ctx context.Context, req CallRequest) (*CallResult, error)
	Resources(ctx context.Context) ([]Resource, error)
	ResourceTemplates(ctx context.Context) ([]ResourceTemplate, error)
	ReadResource(ctx context.Context, uri string) ([]Content, error)
	Prompts(ctx context.Context) ([]Prompt, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*PromptResult, error)
	// Subscribe streams logs, progress, stderr, list changes and protocol
	// messages until ctx is done, then closes the channel.
	Subscribe(ctx context.Context) <-chan Event
	// RefreshTools re-lists the tools after a list_changed notification.
	RefreshTools(ctx context.Context) (*toolset.Set, error)
	Close() error
}

// ServerInfo is what the header and the server tab show.
type ServerInfo struct {
	Name         string
	Title        string
	Version      string
	Protocol     string
	Transport    string // "in-process demo", "stdio: cmd", "http: url", "offline: file"
	Instructions string
	Capabilities []string
	Offline      bool // no server: calls, resources and prompts are unavailable
}

// CallRequest is one tools/call. ID is the UI's own request ID, echoed in
// progress events so they reach the call that asked. Source is the
// composer's text the call came from (for the history), BatchID its id in a
// (batch ...).
type CallRequest struct {
	ID        int64
	Tool      string
	Arguments *ojson.Value
	Source    string
	Batch     bool
	BatchID   string
}

// CallResult is a CallToolResult kept whole.
type CallResult struct {
	Content    []Content
	Structured *ojson.Value
	IsError    bool
	Raw        *ojson.Value // the result object as the server sent it
	Duration   time.Duration
	Warning    string // e.g. structuredContent that breaks the outputSchema
}

// Content is one content block of a result, a resource or a prompt message.
type Content struct {
	Type     string // text, image, audio, resource, resource_link
	Text     string
	MIME     string
	URI      string
	Name     string
	DataSize int // decoded size of image/audio/blob data
}

// Resource is an entry of resources/list.
type Resource struct {
	URI, Name, Title, Description, MIME string
	Size                                int64
}

// ResourceTemplate is an entry of resources/templates/list.
type ResourceTemplate struct {
	URITemplate, Name, Title, Description, MIME string
}

// Prompt is an entry of prompts/list.
type Prompt struct {
	Name, Title, Description string
	Arguments                []PromptArgument
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// PromptResult is a prompts/get answer.
type PromptResult struct {
	Description string
	Messages    []PromptMessage
}

// PromptMessage is one message of a prompt.
type PromptMessage struct {
	Role    string
	Content Content
}

// EventKind tells what an Event carries.
type EventKind int

const (
	EventLog         EventKind = iota // notifications/message
	EventProgress                     // notifications/progress
	EventStderr                       // a line the server wrote to stderr
	EventListChanged                  // tools/resources/prompts list_changed
	EventProtocol                     // one JSON-RPC message, either way
	EventClosed                       // the connection was lost
)

// Event is one item of the session's stream.
type Event struct {
	Kind   EventKind
	Time   time.Time
	Level  string // log level (debug ... emergency)
	Logger string
	Text   string // log data, stderr line, list name, close reason

	CallID   int64 // progress: the CallRequest.ID it belongs to, 0 if unknown
	Progress float64
	Total    float64 // 0 when unknown

	Proto *ProtocolMessage
}

// ProtocolMessage is one JSON-RPC message seen by the protocol tap.
// Requests and responses are paired by Pair (the other one's Seq) when the
// tap knows it, otherwise by direction and ID.
type ProtocolMessage struct {
	Seq      uint64
	Outgoing bool   // client -> server
	Kind     string // request, response, error, notification, failed
	ID       string // JSON-RPC id as JSON text, "" for notifications
	Method   string // for responses, the paired request's method
	Raw      string // the message (possibly clipped; Size is the full size)
	Size     int
	Latency  time.Duration // responses: time since the request
	Pair     uint64
	Err      string // failed: why no response came
}

// Counter counts tokens. Load is slow (it builds the BPE ranks) and is called
// from a Cmd; Count must be cheap for repeated text (cached) because the
// composer counts on every keystroke.
type Counter interface {
	Encodings() []string
	Load(enc string) error
	Ready(enc string) bool
	Count(enc, text string) int
}

// Codec parses and prints calls. The fallback accepts only JSON calls;
// convert/call provides S-expressions, batches and AQL.
type Codec interface {
	// Template is a call for tool with its required parameters as placeholders.
	Template(set *toolset.Set, tool *toolset.Tool) string
	// Parse turns composer text into calls. Errors should be *sexpr.Error
	// (or wrap one) so the composer can show where the problem is.
	Parse(set *toolset.Set, src string) (*Parsed, error)
	// ResultTerm renders a result as the S-expression (ok ...) / (err ...)
	// form, pretty-printed for width columns.
	ResultTerm(res *CallResult, width int) (string, error)
	// Format prints parsed calls in a syntax ("sexpr", "aql" or "json"), so
	// the composer can switch a call between them.
	Format(set *toolset.Set, p *Parsed, syntax string) (string, error)
}

// ErrorPosition is implemented by parse errors that know where in the
// composer's text they are (*sexpr.Error is recognised too).
type ErrorPosition interface {
	error
	Position() sexpr.Pos
}

// Parsed is one or more calls ready to run.
type Parsed struct {
	Syntax      string // "sexpr", "json" or "aql"
	Batch       bool
	Concurrency int // >1 runs batch items concurrently
	StopOnError bool
	Calls       []ParsedCall
}

// ParsedCall is one tools/call of a Parsed. Direct is set when the call is
// answered locally (AQL introspect) and needs no server.
type ParsedCall struct {
	ID        string // batch id, "" for a single call
	Tool      string
	Arguments *ojson.Value
	Direct    *CallResult
	// Answer, when set, turns the server's result into what the call's own
	// syntax answers with — for AQL, the {"success", "data"|"error"}
	// response — keeping Raw as the server sent it.
	Answer func(*CallResult) *CallResult
}

// Renderer renders a tool list in a named form of convert.Forms(). The
// side-by-side pane asks for per-tool documents.
type Renderer interface {
	// Forms lists the right-hand forms available, in cycling order.
	Forms() []string
	// Totals lists the forms whose whole-server count the header shows,
	// "json" (the baseline) first.
	Totals() []string
	Render(form string, set *toolset.Set) (string, error)
	// RenderTool renders one tool in the context of its server (short codes
	// and shared types come from the whole set).
	RenderTool(form string, set *toolset.Set, tool *toolset.Tool) (string, error)
}

// ToolNoter is an optional Renderer extension: a one-line account of what a
// form leaves out or drops for a tool, shown under the side-by-side pane so
// a lossy or partial form says so.
type ToolNoter interface {
	ToolNote(form string, set *toolset.Set, tool *toolset.Tool) string
}

// Classifier gives a tool its CRUDE category when AQL is available.
type Classifier interface {
	Category(set *toolset.Set, tool *toolset.Tool) string
}

// Store keeps the composer's draft and the call history across runs.
type Store interface {
	LoadDraft() (string, error)
	SaveDraft(text string) error
	// History returns past call sources, oldest first.
	History(limit int) ([]string, error)
	AddHistory(src string) error
}
