// Package calls is the one place mcpterm reads and prints calls. A Codec,
// built once per tool list, reads a call in any syntax — an MCP-Term call
// or (batch ...), JSON {"name", "arguments"} or a list of them, MCP-AQL
// {"operation", "params"}, {"operations": [...]} or introspect — into a
// Plan, and prints a Plan in any syntax. The command line's call and
// --dry-run, the workbench's composer and the gateway all use it, so a call
// means the same thing whichever face it was written in.
package calls

import (
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// Syntax names how a call is written.
type Syntax string

const (
	SExpr Syntax = "sexpr" // MCP-Term: (fr "/etc/hosts" :utf8), (batch (1 ...) (2 ...))
	JSON  Syntax = "json"  // {"name": ..., "arguments": {...}} or a list of them
	AQL   Syntax = "aql"   // MCP-AQL requests: {"operation", "params"}, {"operations": [...]}
)

// Plan is what one source text asks for: one call, or a batch with its
// options. MCP has no batch request, so a runner sends each Item as its own
// tools/call (or answers it locally).
type Plan struct {
	Syntax      Syntax
	Batch       bool // written as (batch ...), a JSON list or {"operations": [...]}
	Concurrency int  // items in flight at once; 0 or 1 = one after another
	StopOnError bool // skip the items not yet started after a failure
	Items       []Item
	Source      string // the text read (ReadAQL: the document, minified), for the history
}

// Item is one call of a Plan.
type Item struct {
	ID        string       // batch id ("1", "a", or the AQL index "0"); "" for a single call
	Tool      string       // the real tool name; "" for an AQL item answered locally
	Arguments *ojson.Value // a JSON object, nil for none
	Pos       sexpr.Pos    // where the call starts in the source (zero when unknown)

	// AQL only: the operation asked for, the fields to project the answer
	// to (client-side), and Local, the whole AQL response when no server
	// is needed (introspect, or a failure found before any I/O).
	Operation string
	Fields    []string
	Local     *ojson.Value

	step *aql.Step    // AQL: how to turn the server's result into the response
	req  *aql.Request // AQL: the request as read (operation, merged params)
	raw  *ojson.Value // AQL: the request object as written, for printing a failure back
}

// IsLocal reports whether the item is answered without a server.
func (it *Item) IsLocal() bool { return it.Local != nil }

// Outcome is what became of one Item: the server's CallToolResult as it
// sent it, or a Failure saying why there is none.
type Outcome struct {
	Result *ojson.Value
	Err    *Failure
}

// FailureKind classifies why an item has no result. Each kind is also the
// code an MCP-Term (err CODE "message") answer uses for it.
type FailureKind string

const (
	FailRPC        FailureKind = "rpc"                // a JSON-RPC error answer: Code, Message, Data
	FailTimeout    FailureKind = "timeout"            // no answer or progress in time
	FailCancelled  FailureKind = "canceled"           // the caller cancelled it
	FailConnection FailureKind = "unavailable"        // the server could not be reached or went away
	FailRefused    FailureKind = "refused"            // the policy refused it; nothing was sent
	FailConfirm    FailureKind = "needs-confirmation" // destructive and not confirmed; nothing was sent
	FailSkipped    FailureKind = "skipped"            // not run: stop-on-error, or another item was refused
	FailBadAnswer  FailureKind = "bad-answer"         // the server answered something that is not MCP
	FailUsage      FailureKind = "usage"              // a mistake in the call found only when running it
	FailOther      FailureKind = "failed"             // anything else
)

// Failure is why an item has no result.
type Failure struct {
	Kind    FailureKind
	Code    int64        // FailRPC: the JSON-RPC error code
	Message string       // one human sentence (untrusted when it quotes the server); FailRPC: the error's own message
	Data    *ojson.Value // FailRPC: the error's data, when it had some
}

// Error is the failure's message, or a sentence naming its kind when it
// has none, so no answer ever says nothing.
func (f *Failure) Error() string { return f.text() }
