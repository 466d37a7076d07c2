// Package session is everything in mcpterm that talks to an MCP server: it
// connects by every route, explores what the server offers, runs calls and
// batches, and records what crossed the wire. The TUI and every subcommand
// use it; the UI can fake it through the Client interface.
//
// # Connecting
//
//	s, err := session.Open(ctx, session.Source{Kind: session.Stdio, Command: "npx", Args: ...}, session.Options{})
//	defer s.Close()
//
// A Source is plain data: Kind InProcess (an *server.MCPServer such as the
// built-in demo), Stdio (Command, Args, Env over a safe default environment, Dir),
// HTTP or SSE (URL, Headers, BearerTokenEnv naming the variable that holds
// the token) or Offline (a saved tool list: Tools or ToolsFile). Source.String
// shows command, URL and the names of env variables and headers, never their
// values. Named servers from mcpServers configs are resolved by the caller
// (session/config) into a Source.
//
// Protocol negotiation: with Options.ProtocolVersion empty the client first
// probes server/discover (the stateless 2026-07-28 revision, which mcp-go
// v1.2.1 implements) and falls back to the initialize handshake at 2025-11-25,
// accepting whatever older revision the server answers (down to 2024-11-05).
// Pinning a version forces it. Info reports the outcome (ProtocolVersion,
// Modern). On 2026-07-28 connections list_changed notifications are opted
// into with subscriptions/listen; older revisions deliver them unasked.
//
// Stdio servers run under mcpterm's own transport rather than mcp-go's: one
// message is bounded (Options.MaxMessageBytes, default 64 MiB; a larger
// one is dropped and its request fails with a JSON-RPC error saying so), lines
// that are not JSON-RPC become EventGarbage, stderr becomes EventStderr lines
// plus a tail (Stderr), and a server that dies fails its pending requests with
// a *ServerExitError naming the exit status and the last stderr lines.
//
// Reconnect replaces a lost or broken connection with a new one to the same
// source; the tap, the events and the call sequence continue across it.
//
// # Exploring
//
// Info (server name, title, version, instructions, capabilities, raw
// initialize/discover result), Tools (all pages, as a *toolset.Set built from
// the raw JSON the server sent, so key order and unknown keys survive and token
// counts are honest; unreadable tools are left out and listed by
// ToolWarnings), Resources, ResourceTemplates, Prompts (all pages, typed),
// ReadResource, GetPrompt (raw and typed), Ping. Lists are cached; a
// list_changed notification refreshes the list in the background and then
// publishes EventListChanged, on which a UI calls Tools (etc.) again.
//
// # Events and the protocol tap
//
// Events (snapshot) and Subscribe(ctx) (live channel, closed when ctx ends)
// carry log messages, progress, stderr lines, list changes, garbage and
// mcpterm's own notices. The stream is bounded (2,000 retained, 512 per slow
// subscriber) and never blocks the connection. Event text is as the server
// sent it: sanitise before printing.
//
// Tap records every JSON-RPC message both ways: Message{Seq, Time, Dir, Kind,
// ID, Method, Size, Latency, Pair, Payload (a 32 KiB preview), Truncated,
// Err}. Requests and responses are paired (Pair, Latency); at most 1,000
// messages and 8 MiB of previews are kept. Tap().Subscribe streams new ones.
// Options.Trace writes each message as one JSON line (the --trace file).
//
// # Calls and batches
//
//	r := s.Call(ctx, session.CallRequest{Tool: "file_read", Arguments: args})
//
// Call never returns nil. Its CallResult keeps the result whole (Raw, as
// sent; Result, mcp-go's typed view with text/image/audio/resource content),
// IsError, Err (JSON-RPC error *RPCError, *TimeoutError, cancellation,
// *ConnectionError, *ProtocolError, ErrOffline), SchemaErr (structuredContent
// missing or not valid against the tool's outputSchema), timing and the count
// of progress notifications. The call's timeout (CallRequest.Timeout, default
// Options.CallTimeout = 60 s) restarts at every progress notification, within
// an overall deadline that progress cannot extend (CallRequest.MaxTime,
// default Options.MaxCallTime = 10 × the timeout); when either runs out or ctx
// ends, the server is sent notifications/cancelled.
// Options.OnCall sees every finished call, so history survives a server
// dying mid-call.
//
// Batch runs []CallRequest one after another or with bounded concurrency;
// each result has its own timing, BatchResult.ByID finds them by batch id,
// and one failure stops the rest only with StopOnError (the rest get
// ErrSkipped). Classify maps any error to the exit-code classes of the
// command line (tool, usage, connection, timeout, cancelled).
package session
