package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
)

// serverFlags is the server selection every subcommand and the TUI accept:
// nothing (the in-process demo server), -- CMD ARGS (stdio), --url URL
// [--sse] [--header 'K: V']... [--bearer-token-env VAR] (HTTP), --server
// NAME [--config FILE] (an mcpServers config entry), or --tools FILE
// (offline). --trace FILE and --timeout apply to all of them. The flags
// fill a session.Selection; session.Resolve checks and resolves it.
type serverFlags struct {
	session.Selection
	ask askFlags // how the command line answers a server's questions (cmd_ask.go)
}

// register adds the selection flags to fs.
func (sf *serverFlags) register(fs *flag.FlagSet) {
	sf.registerLive(fs)
	fs.StringVar(&sf.ToolsFile, "tools", "", "offline: a saved tools/list result `FILE` instead of a server")
}

// registerLive adds every selection flag but --tools, for a subcommand
// that reads --tools its own way (tokens takes it repeatedly).
func (sf *serverFlags) registerLive(fs *flag.FlagSet) {
	fs.StringVar(&sf.URL, "url", "", "connect to a streamable HTTP server at `URL`")
	fs.BoolVar(&sf.SSE, "sse", false, "with --url: use the legacy HTTP+SSE transport")
	fs.Var((*headerFlag)(&sf.Headers), "header", "with --url: send the HTTP header `'K: V'` (repeatable)")
	fs.StringVar(&sf.BearerTokenEnv, "bearer-token-env", "", "with --url: send 'Authorization: Bearer $`VAR`'")
	fs.StringVar(&sf.ClientID, "client-id", "", "with --url: OAuth with this pre-registered client `ID` (else a client ID metadata document or dynamic registration)")
	fs.StringVar(&sf.ClientSecretEnv, "client-secret-env", "", "with --client-id: the client's secret is in `VAR`")
	fs.StringVar(&sf.ClientMetadataURL, "client-metadata-url", "", "with --url: OAuth client ID metadata document `URL` (https) to use where the server supports them")
	fs.StringVar(&sf.Scope, "scope", "", "with --url: ask for these OAuth `SCOPES` (space-separated) besides the server's")
	fs.StringVar(&sf.Server, "server", "", "connect to the server called `NAME` in an MCP client's config (mcpterm servers lists them)")
	fs.BoolVar(&sf.TrustProject, "trust-project", false, "with --server: use an entry of a project config (.mcp.json, .vscode/mcp.json, ... in this directory or a parent) and remember that file as trusted until it changes")
	fs.Var((*listFlag)(&sf.Configs), "config", "with --server: read this config `FILE` (repeatable; default: the usual places of Claude, Cursor, VS Code, Zed, Codex, Gemini CLI and Windsurf)")
	fs.StringVar(&sf.Trace, "trace", "", "write every JSON-RPC message to `FILE` as JSON lines")
	fs.DurationVar(&sf.Timeout, "timeout", 60*time.Second, "give up on a request after this long without an answer or progress")
	fs.Var((*envFlag)(&sf.Env), "env", "stdio server: set `NAME=VALUE` in its environment, or pass NAME from this one (repeatable)")
	fs.BoolVar(&sf.InheritEnv, "inherit-env", false, "stdio server: pass it this whole environment, not only HOME, PATH, USER, locale and the like")
	fs.DurationVar(&sf.MaxTime, "max-time", 0, "give up on a call after this long in all, progress or not (0: 10× --timeout)")
	fs.Var((*listFlag)(&sf.Roots), "root", "offer the server this `DIR` as a root (repeatable; default: the current directory)")
	fs.BoolVar(&sf.NoRoots, "no-roots", false, "offer the server no roots at all")
	fs.StringVar(&sf.Protocol, "protocol", "", "pin the protocol `VERSION` (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)")
	sf.ask.register(fs)
}

// envFlag collects repeated --env NAME=VALUE (or NAME) values in order,
// refusing one without a name as the flag is read.
type envFlag []string

func (e *envFlag) String() string { return strings.Join(*e, ", ") }
func (e *envFlag) Set(v string) error {
	if name, _, _ := strings.Cut(v, "="); name == "" {
		return fmt.Errorf("want NAME=VALUE or NAME")
	}
	*e = append(*e, v)
	return nil
}

// headerFlag collects repeated --header 'K: V' values in order, refusing a
// malformed one as the flag is read.
type headerFlag []string

func (h *headerFlag) String() string { return strings.Join(*h, ", ") }
func (h *headerFlag) Set(v string) error {
	if _, _, err := session.ParseHeader(v); err != nil {
		return err
	}
	*h = append(*h, v)
	return nil
}

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// clipArg shortens and neutralises a user argument for an error message.
func clipArg(s string) string {
	s, _ = safe.Cut(safe.Line(s), 80)
	return s
}

// quoteArg is strconv.Quote for messages.
func quoteArg(s string) string { return strconv.Quote(clipArg(s)) }

// parseInterleaved parses args with fs, letting flags and positional
// arguments mix (`mcpterm call '(f 1)' --url X`), and splits off everything
// after a "--" as the stdio server's command line.
func parseInterleaved(fs *flag.FlagSet, args []string) (positional, cmdline []string, err error) {
	for i, a := range args {
		if a == "--" {
			args, cmdline = args[:i], args[i+1:]
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, cmdline, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// usagef is a mistake in the command line (exit 2), said as is.
func usagef(format string, args ...any) error { return fmt.Errorf(format, args...) }

// env is what resolving a selection reads from the outside world: this
// process's working directory and home, and the cli's environment.
func (c *cli) env() session.Env { return session.Env{Getenv: c.getenv, Cwd: c.cwd, Home: c.home} }

// connection is an open session on a resolved target.
type connection struct {
	s        *session.Session
	t        *session.Target
	redactor *safe.Redactor // the target's: hides the selection's secrets
}

func (cn *connection) close() {
	cn.s.Close()
	cn.t.Close()
}

// clean makes server-provided or secret-bearing text fit to print.
func (c *cli) clean(r *safe.Redactor, s string) string { return safe.Text(r.Redact(s)) }

// connect resolves the selection flags and opens the session
// (session.Resolve and session.Connect), reporting a failure on stderr. It
// returns the exit code to use when the connection is nil: 2 for a mistake
// in the selection or an unreadable --tools file, 3 for a server that
// cannot be reached or answers the handshake with something that is not
// MCP, 4 for one that does not answer it in time, 128+N after signal N.
func (c *cli) connect(ctx context.Context, cmd string, sf *serverFlags, base session.Options) (*connection, int) {
	base, err := c.clientOptions(cmd, sf, base)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm %s: %s\n", cmd, safe.Text(err.Error()))
		return nil, exitUsage
	}
	t, err := session.Resolve(sf.Selection, c.env(), base)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm %s: %s\n", cmd, safe.Text(err.Error()))
		return nil, exitUsage
	}
	c.trustNotices(cmd, t)
	s, err := session.Connect(ctx, t)
	if err != nil {
		t.Close()
		if code, ok := c.interrupted(ctx, cmd, "connecting to the server"); ok {
			return nil, code
		}
		// A *session.ConnectError is redacted already.
		fmt.Fprintf(c.stderr, "mcpterm %s: %s\n", cmd, safe.Text(err.Error()))
		switch session.Classify(err) {
		case session.ClassUsage:
			return nil, exitUsage
		case session.ClassTimeout:
			return nil, exitTimeout // a server that never finishes the handshake
		}
		return nil, exitConnect
	}
	return &connection{s: s, t: t, redactor: t.Redactor}, exitOK
}

// clientOptions completes base as every command's client is: its version,
// the asker the --sampling/--elicit flags choose (so a server sees the same
// client capabilities, and gates the same tools, whichever command asks),
// and the OAuth notice. The error is a usage mistake in those flags.
func (c *cli) clientOptions(cmd string, sf *serverFlags, base session.Options) (session.Options, error) {
	if base.ClientVersion == "" {
		base.ClientVersion = c.clientVersion()
	}
	if base.Asker == nil {
		if err := c.checkSampling(cmd, &sf.ask); err != nil {
			return base, err
		}
		if err := c.checkElicit(&sf.ask); err != nil {
			return base, err
		}
		base.Asker = c.asker(&sf.ask)
	}
	if base.OAuthNotify == nil {
		base.OAuthNotify = c.oauthNotify(cmd)
	}
	return base, nil
}

// exitFor maps a session error to the command line's exit codes.
func exitFor(err error) int { return exitForClass(session.Classify(err)) }

// exitForClass is the exit code of an error class.
func exitForClass(class session.ErrorClass) int {
	switch class {
	case session.ClassNone:
		return exitOK
	case session.ClassUsage:
		return exitUsage
	case session.ClassTimeout:
		return exitTimeout
	case session.ClassConnection, session.ClassProtocol:
		return exitConnect
	}
	return exitToolError
}

// severity orders exit codes for a batch: the worst outcome decides.
func severity(code int) int {
	return [...]int{exitOK: 0, exitToolError: 1, exitUsage: 2, exitTimeout: 3, exitConnect: 4}[code]
}

// outputFlags are the agent-facing output controls shared by subcommands.
type outputFlags struct {
	output    string
	maxOutput int
	formats   []string // the --output values this command takes
}

// register adds --output (one of formats, the first the default) and
// --max-output. The help lists exactly formats, which check accepts.
func (of *outputFlags) register(fs *flag.FlagSet, formats ...string) {
	of.formats = formats
	enum(fs, &of.output, "output", formats[0], formats, "result format (with json, errors are JSON objects on stderr)")
	fs.IntVar(&of.maxOutput, "max-output", 0, "print at most `N` bytes, saying what was cut (0: no limit)")
}

func (of *outputFlags) check() error {
	if !slices.Contains(of.formats, of.output) {
		return usagef("--output %q: want %s", clipArg(of.output), orList(of.formats))
	}
	if of.maxOutput < 0 {
		return usagef("--max-output %d: want 0 or more bytes", of.maxOutput)
	}
	return nil
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// emit prints text that may hold anything a server said: secrets are
// masked, terminal control sequences removed, and the total is capped by
// --max-output with a visible marker. It returns how many bytes the cap
// left out.
func (c *cli) emit(r *safe.Redactor, maxOutput int, text string) (cut int) {
	return c.write(safe.Text(r.Redact(text)), maxOutput)
}

// write prints text already made safe, capped by --max-output with a
// visible marker, ending in a line end; it returns how many bytes the cap
// left out.
func (c *cli) write(text string, maxOutput int) (cut int) {
	if maxOutput > 0 {
		text, cut = safe.Cut(text, maxOutput)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(c.stdout, text)
	return cut
}
