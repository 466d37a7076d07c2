package ui

// lexerFor names the chroma lexer for a form.
func lexerFor(form string) string {
	switch form {
	case "json", "json_pretty", "json_full", "aql_introspect", "aql_single", "aql_semantic":
		return "json"
	case "dts":
		return "typescript"
	default:
		return "scheme" // MCP-Term and (ok ...) results are S-expressions
	}
}
