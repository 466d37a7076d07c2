//go:build !callnoterm

package call

import "github.com/mcpterm/mcpterm/convert/term"

// shortCodes are the declaration printer's codes, so a model can call a tool
// by the code it was shown.
func shortCodes(names []string) map[string]string { return term.ShortCodes(names) }
