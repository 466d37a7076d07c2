package main

import "fmt"

func (c *cli) runConvert(args []string) int {
	fmt.Fprintln(c.stderr, "mcpterm: not built yet")
	return exitUsage
}
