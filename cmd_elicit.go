package main

import "github.com/mcpterm/mcpterm/session"

// elicitor answers elicitation for the command line, as --elicit says.
func (c *cli) elicitor(a *askFlags) session.Elicitor {
	return session.Decliner{}
}
