// Command mcpterm is a terminal workbench for MCP servers: it shows what a
// server's tool definitions cost in tokens, renders them as compact MCP-Term
// and MCP-AQL, and runs calls — in a TUI, or headless for scripts and agents.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
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
	exitTimeout   = 4 // a call (or connecting) did not answer in time
	// After a signal (cmd_signal.go) the code is 128 + its number, as a
	// shell reports a process the signal killed: 130 for SIGINT (Ctrl-C),
	// 143 for SIGTERM, 129 for SIGHUP.
	exitInterrupted = 130
	exitTerminated  = 143
)

// cli carries the process's streams so every subcommand can be tested in-process.
type cli struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string

	// cwd and home are where config discovery starts and what ~ means;
	// "" is this process's (tests set them).
	cwd, home string
	// buildInfo reads the build info (--version, the client version);
	// nil is runtime/debug.ReadBuildInfo.
	buildInfo func() (*debug.BuildInfo, bool)
	// terminal says whether stdout is a terminal and its width; nil
	// detects it (stdoutTerminal).
	terminal func() (width int, ok bool)
	// errs is the run's stderr when the command can print JSON errors
	// (cmd_errors.go); nil otherwise.
	errs *errorSink
	// signals makes the context a command that talks to a server runs
	// under (runContext, cmd_signal.go): main's ends on SIGINT, SIGTERM and
	// SIGHUP, and calls again on a second signal (nil: exit at once); nil
	// is a context that never ends (tests in the process).
	signals func(again func(os.Signal)) (context.Context, func())
}

func main() {
	os.Exit(processCLI().run(os.Args[1:]))
}

// processCLI is the cli of this process: its own streams, environment and
// signals. The hostile-server suite runs it the same way in a test binary.
func processCLI() *cli {
	c := &cli{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	c.signals = func(again func(os.Signal)) (context.Context, func()) {
		if again == nil {
			again = exitAtOnce(os.Stderr, os.Exit)
		}
		return withSignals(context.Background(), again)
	}
	return c
}

// subcommand is one row of the command table: what the usage lists, what
// runs, and the flags it parses — the same flag set the command builds, so
// help and shell completion cannot drift from what it accepts.
type subcommand struct {
	name  string
	short string
	run   func(c *cli, args []string) int
	// flags builds the command's flag set, as the command does.
	flags func(c *cli) *flag.FlagSet
	// args says what the positional arguments are, for completion: "" none,
	// "file" a file, "expr" a call expression, "shell" a shell name.
	args string
	// selection is set when the command takes the server selection (-- CMD
	// ARGS completes a command).
	selection bool
	// jsonErrors is set when the command can print JSON (cmd_errors.go).
	jsonErrors bool
	// jsonFlag is the flag whose value json makes the output JSON.
	jsonFlag string
}

func subcommands() []subcommand {
	return []subcommand{
		{name: "convert", short: "render a tool list (a file, stdin or a server) as MCP-Term, TypeScript, JSON or AQL",
			run: (*cli).runConvert, flags: func(c *cli) *flag.FlagSet { fs, _, _ := c.convertFlags(); return fs }, args: "file", selection: true},
		{name: "tokens", short: "token counts and savings for every form",
			run: (*cli).runTokens, flags: func(c *cli) *flag.FlagSet { fs, _ := c.tokensFlags(); return fs }, selection: true, jsonErrors: true, jsonFlag: "format"},
		{name: "tools", short: "list a server's tools",
			run: (*cli).runTools, flags: func(c *cli) *flag.FlagSet { fs, _ := c.toolsFlags(); return fs }, selection: true, jsonErrors: true, jsonFlag: "format"},
		{name: "call", short: "run (or --dry-run) an S-expression, batch, JSON or AQL call",
			run: (*cli).runCall, flags: func(c *cli) *flag.FlagSet { fs, _, _ := c.callFlags(); return fs }, args: "expr", selection: true, jsonErrors: true, jsonFlag: "output"},
		{name: "resources", short: "list or read a server's resources",
			run: (*cli).runResources, flags: func(c *cli) *flag.FlagSet { fs, _ := c.resourcesFlags(); return fs }, selection: true, jsonErrors: true, jsonFlag: "output"},
		{name: "prompts", short: "list or get a server's prompts",
			run: (*cli).runPrompts, flags: func(c *cli) *flag.FlagSet { fs, _ := c.promptsFlags(); return fs }, selection: true, jsonErrors: true, jsonFlag: "output"},
		{name: "tasks", short: "list, show, cancel or fetch the result of a server's tasks",
			run: (*cli).runTasks, flags: func(c *cli) *flag.FlagSet { fs, _ := c.tasksFlags(); return fs }, args: "verb", selection: true, jsonErrors: true, jsonFlag: "output"},
		{name: "servers", short: "list the servers configured in MCP clients' config files",
			run: (*cli).runServers, flags: func(c *cli) *flag.FlagSet { fs, _ := c.serversFlags(); return fs }, jsonErrors: true, jsonFlag: "output"},
		{name: "auth", short: "OAuth: log in to an HTTP server, log out, or show the stored tokens' status",
			run: (*cli).runAuth, flags: func(c *cli) *flag.FlagSet { fs, _ := c.authFlags(); return fs }, selection: true},
		{name: "demo-server", short: "serve the built-in demo server over stdio or HTTP",
			run: (*cli).runDemoServer, flags: func(c *cli) *flag.FlagSet { fs, _ := c.demoServerFlags(); return fs }},
		{name: "serve", short: "front a server as compact MCP-Term or AQL tools",
			run: (*cli).runServe, flags: func(c *cli) *flag.FlagSet { fs, _, _ := c.serveFlags(); return fs }, selection: true},
		{name: "completion", short: "print a shell completion script: bash, zsh or fish",
			run: (*cli).runCompletion, flags: func(c *cli) *flag.FlagSet { return c.completionFlags() }, args: "shell"},
		{name: "help", short: "show this help, or a command's: mcpterm help COMMAND",
			run: (*cli).runHelp, flags: func(c *cli) *flag.FlagSet { return newFlagSet("help") }, args: "command"},
	}
}

func (c *cli) run(args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help":
			c.usage(c.stdout)
			return exitOK
		case "-version", "--version":
			fmt.Fprintln(c.stdout, c.versionLine())
			return exitOK
		}
		for _, sc := range subcommands() {
			if sc.name == args[0] {
				return c.runSubcommand(sc, args[1:])
			}
		}
		if !strings.HasPrefix(args[0], "-") {
			fmt.Fprintf(c.stderr, "mcpterm: unknown command %q\n\n", clipArg(args[0]))
			c.usage(c.stderr)
			return exitUsage
		}
	}
	if helpAsked(args) {
		// The workbench's flags are cmd_tui.go's; its usage goes to stdout
		// like every other help.
		return c.workbenchHelp(c.stdout)
	}
	return c.runTUI(args)
}

// runSubcommand runs one command, with the JSON error sink for the ones
// that can print JSON.
func (c *cli) runSubcommand(sc subcommand, args []string) int {
	if !sc.jsonErrors {
		return sc.run(c, args)
	}
	sink := newErrorSink(c.stderr, sc.name)
	cc := *c
	cc.stderr, cc.errs = sink, sink
	code := sc.run(&cc, args)
	sink.finish(code, flagValueIn(args, "json", sc.jsonFlag))
	return code
}

// workbenchHelp prints the workbench's usage (cmd_tui.go's flag set) on w.
func (c *cli) workbenchHelp(w io.Writer) int {
	fs, _, _ := c.tuiFlags()
	fs.SetOutput(w)
	fs.Usage()
	return exitOK
}

// runHelp is `mcpterm help [COMMAND]`: the usage, or a command's own help,
// on stdout.
func (c *cli) runHelp(args []string) int {
	if len(args) == 0 || helpAsked(args[:1]) {
		c.usage(c.stdout)
		return exitOK
	}
	for _, sc := range subcommands() {
		if sc.name == args[0] && sc.name != "help" {
			return sc.run(c, []string{"--help"})
		}
	}
	if args[0] == "workbench" {
		return c.workbenchHelp(c.stdout)
	}
	fmt.Fprintf(c.stderr, "mcpterm help: unknown command %q\n\n", clipArg(args[0]))
	c.usage(c.stderr)
	return exitUsage
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprintln(w, "usage: mcpterm [workbench flags] [server selection]   open the workbench (demo server by default)")
	fmt.Fprintln(w, "       mcpterm COMMAND [flags] [server selection]")
	fmt.Fprintln(w, "       mcpterm --version | --help")
	fmt.Fprintln(w, "\ncommands:")
	for _, sc := range subcommands() {
		fmt.Fprintf(w, "  %-12s %s\n", sc.name, sc.short)
	}
	fmt.Fprintln(w, "\nserver selection: nothing (demo), -- CMD ARGS, --url URL [--sse] [--header 'K: V'],")
	fmt.Fprintln(w, "                  [--bearer-token-env VAR], --server NAME [--config FILE], --tools FILE (offline),")
	fmt.Fprintln(w, "                  [--timeout D] [--trace FILE]")
	fmt.Fprintln(w, "  taken by the workbench, tokens, tools, call, resources, prompts and serve; convert reads")
	fmt.Fprintln(w, "  a FILE or stdin unless a server is chosen; servers takes --config only; demo-server and")
	fmt.Fprintln(w, "  completion take none. Which selections a command refuses, its --help says.")
	fmt.Fprintf(w, "workbench flags:  --theme %s, --encoding %s,\n", strings.Join(themes.Names(), "|"), strings.Join(tokens.Encodings(), "|"))
	fmt.Fprintln(w, "                  --no-mouse, --aql-map FILE")
	fmt.Fprintln(w, "\nexit: 0 ok, 1 tool error, 2 usage, 3 connection (or an answer that is not MCP), 4 timeout")
	fmt.Fprintln(w, "(connecting too), 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP (the calls in flight cancelled and recorded).")
	fmt.Fprintln(w, "With --output json (--format json for tools and tokens) errors are JSON objects on stderr:")
	fmt.Fprintln(w, "{\"error\": {\"kind\", \"message\", \"exit\"}}.")
	fmt.Fprintln(w, "\nmcpterm help COMMAND (or mcpterm COMMAND --help) shows a command's own flags.")
}
