package main

import "fmt"

func (c *cli) runDemoServer(args []string) int {
	fmt.Fprintln(c.stderr, "mcpterm: not built yet")
	return exitUsage
}
