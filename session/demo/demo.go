// Package demo is mcpterm's built-in MCP server: the seeds' example tools
// (file_read, note_update, the todo set, data_platform_query) working for real
// over small in-memory state, so the workbench has something honest to talk to
// with no setup, and other MCP clients can be pointed at it too.
package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Name and Version identify the demo server in initialize/discover answers.
const (
	Name    = "mcpterm-demo"
	Version = "0.1.0"
)

// Options makes a demo server reproducible: tests pin the clock and the seed
// so todo ids and timestamps come out the same on every run.
type Options struct {
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Seed seeds the generator for todo ids; 0 picks a random seed.
	Seed uint64
}

// Instructions is what the server tells a client about itself on connect;
// exported so client code can check it surfaced them.
const Instructions = `mcpterm-demo is a small, self-contained MCP server for trying out MCP clients.
Everything lives in memory and is reset when the server restarts; nothing touches the real file system or network.

- file_read reads a small read-only file tree (start with /docs/README.md).
- note_update edits block-structured notes with insert/delete/retain operations.
- list_todos, get_todo, create_todo, update_todo, delete_todo and clear_completed manage a todo list.
- data_platform_query runs queries over demo tables (customers, orders, events, inventory); read demo://catalog for their columns.
- long_task runs a slow job that reports progress and can be cancelled.`

// state is one server's in-memory world; every New gets its own.
type state struct {
	now   func() time.Time
	files *fileTree

	mu     sync.Mutex
	rng    *rand.Rand
	notes  map[string]*note
	todos  []*todo // in creation order
	tables map[string]*table
	runs   []taskRun // long_task outcomes, newest last
}

// New builds a demo server with state of its own, so every session and every
// test starts from the same seeded data and none sees another's changes.
func New(opts Options) *server.MCPServer {
	_, s := newServer(opts)
	return s
}

func newServer(opts Options) (*state, *server.MCPServer) {
	st := newState(opts)
	s := server.NewMCPServer(Name, Version,
		server.WithTitle("mcpterm demo server"),
		server.WithInstructions(Instructions),
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithLogging(),
		server.WithOutputSchemaValidation(),
		server.WithRecovery(),
	)
	st.addFileTools(s)
	st.addNoteTools(s)
	st.addTodoTools(s)
	st.addQueryTools(s)
	st.addLongTask(s)
	st.addResources(s)
	st.addPrompts(s)
	return st, s
}

func newState(opts Options) *state {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	seed := opts.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	st := &state{
		now:    now,
		rng:    rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		notes:  map[string]*note{},
		tables: demoTables(),
	}
	st.files = newFileTree(st.tables)
	st.seedNotes()
	st.seedTodos()
	return st
}

// Annotation sets, spelled out once so every tool states all four hints.
func hints(title string, readOnly, destructive, idempotent bool) mcp.ToolAnnotation {
	return mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    mcp.ToBoolPtr(readOnly),
		DestructiveHint: mcp.ToBoolPtr(destructive),
		IdempotentHint:  mcp.ToBoolPtr(idempotent),
		OpenWorldHint:   mcp.ToBoolPtr(false),
	}
}

// tool assembles a tool from raw JSON Schema text, which keeps property order
// exactly as written (Go maps would sort it).
func tool(name, title, description, input, output string, ann mcp.ToolAnnotation) mcp.Tool {
	t := mcp.NewToolWithRawSchema(name, description, json.RawMessage(mustCompact(input)))
	t.Title = title
	if output != "" {
		t.RawOutputSchema = json.RawMessage(mustCompact(output))
	}
	t.Annotations = ann
	return t
}

// mustCompact minifies a schema literal; a literal that does not parse is a
// programming error caught by the first test run.
func mustCompact(s string) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		panic(fmt.Sprintf("demo: bad schema literal: %v", err))
	}
	return buf.Bytes()
}

// bind decodes a call's arguments into v, rejecting unknown fields so a typo
// is reported rather than ignored. The server has already checked them against
// the input schema; bind catches what a schema cannot say.
func bind(req mcp.CallToolRequest, v any) error {
	raw := req.Params.RawArguments
	if len(raw) == 0 {
		if req.Params.Arguments == nil {
			raw = []byte("{}")
		} else {
			b, err := json.Marshal(req.Params.Arguments)
			if err != nil {
				return fmt.Errorf("arguments: %v", err)
			}
			raw = b
		}
	}
	if err := strictUnmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// strictUnmarshal is json.Unmarshal that refuses unknown object keys and
// trailing data; the tagged-union decoders use it for their variants too.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// result returns structured content with its JSON as the text fallback, as the
// spec asks of tools that declare an outputSchema. The content goes out as
// raw JSON so its keys keep the order the Go types give them.
func result(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultStructured(json.RawMessage(b), string(b)), nil
}

// toolErr is a tool execution error: the model sees it and can correct itself.
func toolErr(format string, args ...any) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError(fmt.Sprintf(format, args...)), nil
}
