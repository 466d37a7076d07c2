package main

import "github.com/mcpterm/mcpterm/session"

// sampler answers sampling for the command line: declined, with a message
// that says how to answer, unless --sampling-endpoint is given.
func (c *cli) sampler(a *askFlags) session.Sampler {
	return session.Decliner{Reason: "mcpterm declines sampling on the command line; give --sampling-endpoint URL --sampling-model M to answer"}
}
