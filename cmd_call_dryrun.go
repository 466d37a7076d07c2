package main

import (
	"fmt"

	"github.com/mcpterm/mcpterm/convert/toolset"
)

// dryRunCall parses src against set and prints the resulting tools/call
// requests (printAs "json") or canonical S-expressions ("term") without
// contacting any server.
func (c *cli) dryRunCall(set *toolset.Set, src, printAs string) int {
	fmt.Fprintln(c.stderr, "mcpterm: dry run not built yet")
	return exitUsage
}
