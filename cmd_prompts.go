package main

import "fmt"

func (c *cli) runPrompts(args []string) int {
	fmt.Fprintln(c.stderr, "mcpterm: not built yet")
	return exitUsage
}
