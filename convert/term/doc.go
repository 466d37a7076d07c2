// Package term converts MCP tool lists between JSON Schema and MCP-Term, the
// compact S-expression declaration format specified in docs/mcp-term.md.
//
// Render turns a whole toolset.Set into one (declare ...) document plus its
// deftypes, losslessly: Parse reads such a document (and the looser forms the
// original design notes used) back into tools whose schemas accept and reject
// the same instances as the originals. ShortCodes is shared with the call
// parser so that both sides agree on the 1-4 character tool codes.
package term
