package ui

import (
	"fmt"

	"github.com/mcpterm/mcpterm/tokens"
)

// formLabel is the short human name of a form (convert.Forms() report
// names) for titles and the header.
func formLabel(form string) string {
	switch form {
	case "json":
		return "JSON"
	case "json_pretty":
		return "JSON pretty"
	case "json_full":
		return "tool as sent"
	case "term":
		return "MCP-Term"
	case "term_lean":
		return "term-lean"
	case "term_full":
		return "MCP-Term full"
	case "term_lazy":
		return "term-lazy describe"
	case "dts":
		return "TypeScript"
	case "floor":
		return "floor"
	case "aql_single":
		return "AQL introspect"
	case "aql_semantic":
		return "AQL semantic introspect"
	}
	return form
}

// lexerFor names the chroma lexer for a form's text.
func lexerFor(form string) string {
	switch form {
	case "json", "json_pretty", "json_full", "aql_single", "aql_semantic":
		return "json"
	case "dts":
		return "typescript"
	case "floor":
		return "text"
	default:
		return "scheme" // MCP-Term and (ok ...) results are S-expressions
	}
}

// savings formats the change from base to n as "-63%" (or "+12%").
func savings(base, n int) string {
	if base <= 0 || n < 0 {
		return ""
	}
	pct := (float64(n) - float64(base)) * 100 / float64(base)
	if pct > -0.5 && pct < 0.5 {
		return "±0%"
	}
	return fmt.Sprintf("%+.0f%%", pct)
}

// savingsRatio is the fraction saved against base (for sorting).
func savingsRatio(base, n int) float64 {
	if base <= 0 || n < 0 {
		return 0
	}
	return 1 - float64(n)/float64(base)
}

// thousands formats n as 12,345 so big counts stay readable: the
// one rule every face uses.
func thousands(n int) string { return tokens.Thousands(n) }
