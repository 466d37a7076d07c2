package main

import (
	"errors"
	"flag"
	"fmt"
)

// parseListCommand parses the flags of a command that lists or reads
// something from a server (resources, prompts): flags and arguments in any
// order, no positional arguments (a server command goes after --), and
// --output text or json. It returns ok, or the exit code to end with.
func (c *cli) parseListCommand(name string, fs *flag.FlagSet, sf *serverFlags, of *outputFlags, args []string) (int, bool) {
	pos, cmdline, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	sf.cmdline = cmdline
	if len(pos) > 0 {
		fmt.Fprintf(c.stderr, "mcpterm %s: unexpected argument %s (a server command goes after --)\n", name, quoteArg(pos[0]))
		return exitUsage, false
	}
	if of.output != "text" && of.output != "json" {
		fmt.Fprintf(c.stderr, "mcpterm %s: --output %s: want text or json\n", name, quoteArg(of.output))
		return exitUsage, false
	}
	return exitOK, true
}
