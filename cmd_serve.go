package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/gateway"
	"github.com/mcpterm/mcpterm/session/policy"
)

// runServe puts the selected server behind the gateway: MCP clients see its
// tools as one MCP-Term tool or as MCP-AQL endpoints.
func (c *cli) runServe(args []string) int {
	// A signal (cmd_signal.go) ends ctx: the gateway cancels the upstream
	// calls, closes its sessions and the server, and serve exits 0.
	ctx, stop := c.runContext()
	defer stop()
	return c.serve(ctx, args, nil)
}

// serveFlags are serve's own flags; the server selection is serverFlags.
type serveFlags struct {
	mode         string
	descriptions string
	listen       string
	allow, deny  listFlag
	readOnly     bool
	yes          yesFlag
	audit        string
	aqlMap       string
	http         serveHTTPFlags // with --listen (cmd_serve_http.go)
	servers      string         // --servers a,b,c: many config entries as one gateway
	all          bool           // --all: every config entry
	start        string         // --start lazy|eager
}

// serve runs the gateway until ctx ends (a signal) or, on stdio, until
// stdin is closed. ready, when set, learns the HTTP address once the
// listener is up; tests use it to find an ephemeral port.
// serveFlags builds serve's flag set.
func (c *cli) serveFlags() (*flag.FlagSet, *serverFlags, *serveFlags) {
	fs := newFlagSet("serve",
		"usage: mcpterm serve [--mode term|term-lazy|aql-single|aql-semantic|passthrough] [--descriptions full|lean] [--listen ADDR]",
		"                     [--allow P] [--deny P] [--read-only] [--yes[=P]] [--audit FILE] [server selection]",
		"                     [--token-env VAR | --insecure-no-auth] [--allow-origin ORIGIN] [--max-body SIZE]",
		"                     [--max-sessions N] [--read-timeout D] [--idle-timeout D] [--session-idle D]",
		"",
		"Serves the selected server (the demo server by default) to MCP clients, with its tools",
		"as one MCP-Term tool (term), as MCP-AQL endpoints, or as they are (passthrough: no savings);",
		"resources and prompts pass through.",
		"stdio by default; streamable HTTP at http://ADDR/mcp with --listen. Notes go to stderr.",
		"--listen PORT or :PORT binds 127.0.0.1; any other interface (0.0.0.0:PORT) needs --token-env",
		"or --insecure-no-auth. Browser requests are accepted only from the gateway's own origin.",
		"The server's sampling and elicitation requests go to the client whose call is running (else",
		"the last active one) when it supports them, else are declined; the server is offered the",
		"clients' roots (all connected clients'), or --root without (default: none, so a server keeps",
		"its own directories).",
		"server selection: nothing (demo), -- CMD ARGS, --url URL, --server NAME (not --tools: a saved",
		"tool list has no server to run the calls), or many config entries as one gateway: --servers",
		"a,b,c or --all [--config FILE] [--start lazy|eager] (tools namespaced SERVER_TOOL only where",
		"names clash; a server that dies is restarted with backoff; the config is re-read on change)")
	var sf serverFlags
	sf.register(fs)
	refusedOffline(fs, "it has no server to run the calls")
	var vf serveFlags
	modes := []string{}
	for _, m := range append(gateway.Modes(), gateway.ModePass) {
		modes = append(modes, string(m))
	}
	enum(fs, &vf.mode, "mode", "term", modes, "how clients see the tools")
	enum(fs, &vf.descriptions, "descriptions", "full", []string{"full", "lean"}, "term mode: full, or lean (first sentence of each tool, no field descriptions)")
	fs.StringVar(&vf.listen, "listen", "", "serve streamable HTTP on `ADDR` (PORT, :PORT or HOST:PORT; no host is 127.0.0.1; path /mcp) instead of stdio")
	fs.Var(&vf.allow, "allow", "expose and run only tools matching this `PATTERN` (glob, any case, against name, short code and AQL operation; repeatable, or comma-separated)")
	fs.Var(&vf.deny, "deny", "hide and refuse tools matching this `PATTERN` (as --allow, and its snake_case spellings; wins over --allow)")
	fs.BoolVar(&vf.readOnly, "read-only", false, "expose and run only tools annotated readOnlyHint: true")
	fs.Var(&vf.yes, "yes", "confirm destructive tools: bare --yes every one, --yes=PATTERN (repeatable, comma-separated, matched as --allow) only those matching; others are put to the person through a client that supports elicitation, else refused")
	fs.StringVar(&vf.audit, "audit", "", "append a JSON line per call (and per refusal) to `FILE`")
	vf.http.register(fs)
	fs.StringVar(&vf.servers, "servers", "", "serve these config entries (`NAMES`, comma-separated) as one gateway")
	fs.BoolVar(&vf.all, "all", false, "serve every entry of the config (not marked disabled) as one gateway")
	enum(fs, &vf.start, "start", "eager", []string{"eager", "lazy"}, "with --servers/--all: start every server at once, or on first use (listed from the cache of its last run)")
	fs.StringVar(&vf.aqlMap, "aql-map", "", "correct tool categories (which the destructive rule reads, in every mode) or AQL operation names from this JSON `FILE`")
	return fs, &sf, &vf
}

func (c *cli) serve(ctx context.Context, args []string, ready func(net.Addr)) int {
	fs, sf, vf := c.serveFlags()
	pos, code, ok := c.parseSelection(fs, sf, args)
	if !ok {
		return code
	}
	opts, err := c.serveOptions(sf, vf, pos)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm serve:", err)
		return exitUsage
	}
	plan, err := c.planListen(fs, vf.listen, &vf.http)
	if err != nil {
		fmt.Fprintln(c.stderr, "mcpterm serve:", err)
		return exitUsage
	}

	// The upstream's questions for its client (sampling, elicitation) and
	// its roots are the gateway's clients' (session/gateway/forward.go,
	// roots.go). The upstream is always offered roots, so the clients' can
	// reach it; the fallback is --root's, else empty.
	fwd := gateway.NewForwarder()
	base := session.Options{ClientName: "mcpterm-gateway", Asker: fwd}
	if sf.NoRoots || len(sf.Roots) == 0 {
		// Without --root the fallback is empty, not the current
		// directory as for the other commands: a server that takes roots
		// as its sandbox (server-filesystem) would swap the directories of
		// its own arguments for it, and a desktop app starts the gateway
		// in / more often than not.
		base.Roots = &session.Roots{}
	}
	if vf.servers != "" || vf.all {
		return c.serveFleet(ctx, sf, vf, opts, plan, base, ready)
	}
	cn, code := c.connect(ctx, "serve", sf, base)
	if cn == nil {
		return code
	}
	opts.Forward = fwd
	opts.Roots = cn.t.Options.Roots
	defer cn.close()
	if cn.s.IsOffline() {
		fmt.Fprintln(c.stderr, "mcpterm serve: --tools gives a tool list but no server to run the calls; choose a live server")
		return exitUsage
	}
	note := func(format string, args ...any) {
		fmt.Fprintf(c.stderr, "mcpterm serve: %s\n", c.clean(cn.redactor, fmt.Sprintf(format, args...)))
	}
	opts.Notef = note
	if vf.audit != "" {
		a, err := policy.OpenAudit(vf.audit, cn.redactor)
		if err != nil {
			fmt.Fprintln(c.stderr, "mcpterm serve: --audit:", err)
			return exitUsage
		}
		opts.Audit = a
	}
	g, err := gateway.New(ctx, cn.s, opts)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm serve: %s\n", c.clean(cn.redactor, err.Error()))
		return exitFor(err)
	}
	defer g.Close()
	return c.runGateway(ctx, g, vf, plan, cn.redactor, ready)
}

// runGateway serves g on stdio or, with --listen, streamable HTTP until
// ctx ends or stdin closes.
func (c *cli) runGateway(ctx context.Context, g *gateway.Gateway, vf *serveFlags, plan listenPlan, r *safe.Redactor, ready func(net.Addr)) int {
	note := func(format string, args ...any) {
		fmt.Fprintf(c.stderr, "mcpterm serve: %s\n", c.clean(r, fmt.Sprintf(format, args...)))
	}
	errLog := log.New(&lineWriter{c: c, r: r}, "", 0)

	if vf.listen == "" {
		// Listen returns nil when stdin reaches EOF and the context's error
		// when a signal ends it; both are a normal shutdown.
		if err := g.ServeStdio(ctx, c.stdin, c.stdout, errLog); err != nil && ctx.Err() == nil {
			note("%v", err)
			return exitConnect
		}
		return exitOK
	}
	ln, err := net.Listen("tcp", plan.addr)
	if err != nil {
		note("cannot listen on %s: %v", plan.addr, err)
		return exitConnect
	}
	if plan.opts.CheckListener(ln.Addr()) != nil {
		// A loopback name that resolved elsewhere: planListen refused every
		// other address without a token or --insecure-no-auth.
		ln.Close()
		note("--listen %s bound %s, which is not loopback: give --token-env VAR or --insecure-no-auth", plan.addr, ln.Addr())
		return exitUsage
	}
	if plan.warning != "" {
		note("%s", plan.warning)
	}
	note("serving MCP over streamable HTTP at http://%s%s", ln.Addr(), gateway.HTTPPath)
	note("%s", plan.httpSummary())
	if ready != nil {
		ready(ln.Addr())
	}
	if err := g.ServeStreamableWith(ctx, ln, plan.opts, errLog); err != nil {
		note("%v", err)
		return exitConnect
	}
	note("stopped")
	return exitOK
}

// serveOptions checks serve's own flags and turns them into gateway options.
func (c *cli) serveOptions(sf *serverFlags, vf *serveFlags, pos []string) (gateway.Options, error) {
	var opts gateway.Options
	if len(pos) > 0 {
		return opts, usagef("unexpected argument %s (a server command goes after --)", quoteArg(pos[0]))
	}
	mode, err := gateway.ParseMode(vf.mode)
	if err != nil {
		return opts, usagef("--mode: %v", err)
	}
	opts.Mode = mode
	switch vf.descriptions {
	case "full":
	case "lean":
		if mode != gateway.ModeTerm {
			return opts, usagef("--descriptions lean is for --mode term (the AQL endpoints carry no tool declarations)")
		}
		opts.Lean = true
	default:
		return opts, usagef("--descriptions %s: want full or lean", quoteArg(vf.descriptions))
	}
	if sf.ToolsFile != "" {
		return opts, usagef("--tools gives a tool list but no server to run the calls; choose a live server")
	}
	opts.Policy, err = policy.New(policy.Rules{Allow: vf.allow, Deny: vf.deny, ReadOnly: vf.readOnly, Yes: vf.yes.all, YesFor: vf.yes.patterns})
	if err != nil {
		return opts, usagef("%v", err)
	}
	if vf.aqlMap != "" {
		// The same reader as `mcpterm call --aql-map` (cmd_aql.go); as there,
		// the categories count for calls in any syntax.
		if opts.Overrides, err = loadAQLMap(vf.aqlMap); err != nil {
			return opts, err
		}
	}
	return opts, nil
}

// lineWriter puts the transports' log lines on stderr, cleaned.
type lineWriter struct {
	c *cli
	r *safe.Redactor
}

func (w *lineWriter) Write(p []byte) (int, error) {
	fmt.Fprintf(w.c.stderr, "mcpterm serve: %s\n", w.c.clean(w.r, strings.TrimRight(string(p), "\n")))
	return len(p), nil
}
