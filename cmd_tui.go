package main

import "fmt"

func (c *cli) runTUI(args []string) int {
	fmt.Fprintln(c.stderr, "mcpterm: not built yet")
	return exitUsage
}
