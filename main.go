// Command mcpterm is a terminal workbench for MCP servers: it shows what a
// server's tool definitions cost in tokens, renders them as compact MCP-Term
// and MCP-AQL, and runs calls — in a TUI, or headless for scripts and agents.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/tokens"
)

// Exit codes are part of the command-line contract that agents rely on.
const (
	exitOK        = 0
	exitToolError = 1 // the tool ran and reported isError
	exitUsage     = 2 // bad flags, parse or validation error
	exitConnect   = 3 // could not reach or keep the server
	exitTimeout   = 4 // a call did not answer in time
)

// cli carries the process's streams so every subcommand can be tested in-process.
type cli struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

func main() {
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	os.Exit(c.run(os.Args[1:]))
}

type subcommand struct {
	name  string
	short string
	run   func(c *cli, args []string) int
}

func subcommands() []subcommand {
	return []subcommand{
		{"convert", "render a tool list as MCP-Term, TypeScript, JSON or AQL", (*cli).runConvert},
		{"tokens", "token counts and savings for every form", (*cli).runTokens},
		{"tools", "list a server's tools", (*cli).runTools},
		{"call", "run (or --dry-run) an S-expression, batch, JSON or AQL call", (*cli).runCall},
		{"resources", "list or read a server's resources", (*cli).runResources},
		{"prompts", "list or get a server's prompts", (*cli).runPrompts},
		{"demo-server", "serve the built-in demo server over stdio or HTTP", (*cli).runDemoServer},
		{"serve", "front a server as compact MCP-Term or AQL tools", (*cli).runServe},
	}
}

func (c *cli) run(args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "--help":
			c.usage()
			return exitOK
		}
		for _, sc := range subcommands() {
			if sc.name == args[0] {
				return sc.run(c, args[1:])
			}
		}
		if !strings.HasPrefix(args[0], "-") {
			fmt.Fprintf(c.stderr, "mcpterm: unknown command %q\n\n", args[0])
			c.usage()
			return exitUsage
		}
	}
	return c.runTUI(args)
}

func (c *cli) usage() {
	fmt.Fprintln(c.stderr, "usage: mcpterm [server selection]            open the workbench (demo server by default)")
	fmt.Fprintln(c.stderr, "       mcpterm COMMAND [flags] [server selection]")
	fmt.Fprintln(c.stderr, "\ncommands:")
	for _, sc := range subcommands() {
		fmt.Fprintf(c.stderr, "  %-12s %s\n", sc.name, sc.short)
	}
	fmt.Fprintln(c.stderr, "\nserver selection: nothing (demo), -- CMD ARGS, --url URL [--sse] [--header 'K: V'],")
	fmt.Fprintln(c.stderr, "                  [--bearer-token-env VAR], --server NAME [--config FILE], --tools FILE (offline),")
	fmt.Fprintln(c.stderr, "                  [--timeout D] [--trace FILE]")
	fmt.Fprintf(c.stderr, "workbench flags:  --theme %s, --encoding %s,\n", strings.Join(themes.Names(), "|"), strings.Join(tokens.Encodings(), "|"))
	fmt.Fprintln(c.stderr, "                  --no-mouse, --aql-map FILE")
	fmt.Fprintln(c.stderr, "\nmcpterm COMMAND --help shows a command's own flags.")
}
