// Package gateway is `mcpterm serve` as a library: an MCP server that fronts
// one upstream MCP server (a *session.Session) and shows its tools to real MCP
// clients in a compact form, so the token savings mcpterm measures reach
// Claude Desktop, Cursor or any other client without changing the server.
//
// # Modes
//
//   - ModeTerm: one tool, mcp_term, whose description carries the MCP-Term
//     declarations of every upstream tool (full or lean) and whose one input,
//     expr, is an MCP-Term call or (batch ...). The answer is the (ok ...) /
//     (err ...) form as text, or (results (ID ...) ...) for a batch, which is
//     isError only when every call in it failed. A call that does not read
//     or validate is refused before anything reaches the server, with the
//     position and what was expected there. Non-text content (images, audio,
//     embedded resources) is passed on after the text, as the upstream sent
//     it.
//   - ModeAQLSingle, ModeAQLSemantic: the MCP-AQL endpoints of package aql
//     (mcp_aql, or mcp_aql_create|read|update|delete|execute); introspect is
//     answered from the upstream schemas without a server call; results are
//     {success, data|error} JSON text.
//   - ModePass: the upstream tools as the upstream declares them, each call
//     answered with the upstream's result; no savings, for clients and test
//     suites that call tools by name. Policy, audit and reconnects apply.
//
// Calls are read, run and answered by the core every face shares: a
// calls.Codec per tool list reads expr (ReadCalls) or an AQL document as it
// arrived through its endpoint (ReadAQL) and renders the answers
// (RenderTerm, Answer); a session.Runner runs the plan, through the
// gateway's own session.Caller, which reconnects a broken upstream first
// and says what went wrong in words for the model.
//
// # Pass-through
//
// Resources, resource templates and prompts are listed as the upstream lists
// them (same order) and read/got from it; a read of a URI the upstream did
// not list (a resource link in a tool result, say) is forwarded too. An
// upstream list_changed refreshes the gateway's copy, rebuilds the tool
// description when the tools changed, and reaches the gateway's clients as the
// gateway's own list_changed. Upstream progress reaches the client that made
// the call (under the client's progress token), a batch's as "N of M calls
// done"; on stdio and streamable HTTP the answer follows the progress sent
// for it (package wire). Upstream log messages go to
// every client at the level it asked for. A client's notifications/cancelled
// cancels the upstream call, which sends the upstream its own cancellation.
//
// # Client side
//
// The upstream's requests for its client reach the gateway's clients
// (forward.go, roots.go): sampling/createMessage and elicitation/create go
// to the client whose call is in flight on the upstream (the most recent
// when several are; with none in flight, the most recently active client
// that can answer), when it declared the capability (and the elicitation's
// mode), else they are declined saying why; answers go back unchanged once
// their shape and size are checked. The upstream is offered the union of
// the connected clients' roots (fetched at their initialized and each
// roots/list_changed), or the session's own roots while no client offers
// any.
//
// # Safety and faults
//
// Every upstream call passes Options.Policy (the --allow, --deny, --read-only
// and --yes rules of `mcpterm call`, which also sees each tool's CRUDE
// category from the AQL classification and the overrides, in every mode, so
// a DELETE counts as destructive) and is written to Options.Audit. The
// policy sees a client's whole call before any of it runs: a batch with one
// refused call runs none, the others answering that they were not run.
// Tools the policy denies outright are left out of the gateway's tool
// description. When the upstream dies, hangs past its call timeout or
// answers with something that is not MCP, the client gets a tool error
// saying so (isError, never a protocol error that could end the client's
// session), the gateway keeps serving, and the next call reconnects the
// upstream first. The upstream's
// stderr lines and the session's notices go to Options.Notef, for the
// operator; clients never see them.
//
// # HTTP
//
// ServeStreamableWith refuses a listener off loopback without a bearer
// token (HTTPOptions.CheckListener), and puts a guard, the same in every
// mode, before mcp-go's streamable HTTP server (http.go, sessions.go).
// Each request passes, in order: the Origin check
// (the gateway's own loopback origins and HTTPOptions.AllowOrigins; others
// get 403, against DNS rebinding), the bearer token (constant-time; 401),
// the body bound and read deadline (413, 408; a body is read once, never
// past the limit, and a refused one is not drained), and the session cap
// (503). Sessions are ids the gateway mints and records, so a made-up id
// opens nothing, and they end on DELETE, after HTTPOptions.SessionIdle
// unused, or at shutdown. The net/http server bounds headers and idle
// connections; no timeout applies while an answer or stream is written.
// Names the upstream chooses are written into the gateway's own text
// (descriptions, title, errors) as sanitised one-line labels (names.go).
package gateway
