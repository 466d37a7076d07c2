package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcpterm/mcpterm/convert/aql"
)

// parseListCommand parses the flags of a command that lists or reads
// something from a server (resources, prompts): flags and arguments in any
// order, no positional arguments (a server command goes after --), and
// --output text or json (JSON errors with json). It returns ok, or the
// exit code to end with.
func (c *cli) parseListCommand(name string, fs *flag.FlagSet, sf *serverFlags, of *outputFlags, args []string) (int, bool) {
	pos, code, ok := c.parseSelection(fs, sf, args)
	if !ok {
		return code, false
	}
	c.jsonErrors(of.output == "json")
	if c.unexpectedArgs("mcpterm "+name, pos) {
		return exitUsage, false
	}
	if err := of.check(); err != nil {
		fmt.Fprintf(c.stderr, "mcpterm %s: %v\n", name, err)
		return exitUsage, false
	}
	return exitOK, true
}

// unexpectedArgs reports (and says on stderr) arguments a command takes
// none of; a server command belongs after --.
func (c *cli) unexpectedArgs(who string, pos []string) bool {
	if len(pos) == 0 {
		return false
	}
	fmt.Fprintf(c.stderr, "%s: unexpected argument %s (a server command goes after --)\n", who, quoteArg(pos[0]))
	return true
}

// parseAQLMode reads an --aql-mode value.
func parseAQLMode(s string) (aql.Mode, error) {
	switch s {
	case "single":
		return aql.Single, nil
	case "semantic":
		return aql.Semantic, nil
	}
	return aql.Single, usagef("--aql-mode %s: want single or semantic", quoteArg(s))
}

// loadAQLMap reads and checks an --aql-map file (every command that takes
// one: call, tokens, convert, serve, the workbench).
func loadAQLMap(path string) (aql.Overrides, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("--aql-map: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, aql.MaxOverrideFile+1))
	if err != nil {
		return nil, usagef("--aql-map %s: %v", path, err)
	}
	ov, err := aql.ParseOverrides(data)
	if err != nil {
		return nil, usagef("--aql-map %s: %v", path, err)
	}
	return ov, nil
}
