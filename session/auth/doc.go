// Package auth is mcpterm's OAuth 2.1 client for HTTP and SSE servers, as
// the MCP authorization spec (2025-11-25, with the 2025-06-18 and 2025-03-26
// fallbacks) asks: protected resource metadata (RFC 9728), authorization
// server metadata (RFC 8414 and OpenID discovery), client ID metadata
// documents, dynamic client registration (RFC 7591) or a pre-registered
// client, the authorization code grant with PKCE S256 through a loopback
// redirect, resource indicators (RFC 8707), scope selection and step-up,
// refresh tokens, and a 0600 token file.
//
// It is an http.RoundTripper (Transport) that the session puts under the
// MCP transport, so the CLI, the workbench and the gateway's upstreams all
// get it. mcp-go v1.2.1 has an OAuthHandler (client/transport/oauth.go); it
// is not used for the flow because it lacks what MCP clients now need:
// client ID metadata documents, scope selection from the WWW-Authenticate
// challenge, step-up on 403 insufficient_scope, the 2025-03-26 metadata
// fallback at the server's own base with an issuer that differs from it,
// and it hands a 401 back to the caller as an error to start the flow
// from, where mcpterm runs the flow inside the request and retries it. Its
// PKCE and state helpers (GenerateCodeVerifier, GenerateCodeChallenge,
// GenerateState) and its metadata types are used.
//
// Tokens and client secrets never leave this package except in the token
// file and the Authorization header: Config.Redact is told every one as it
// is learnt, so the session's Redactor hides them in traces and messages.
package auth
