package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/config"
	"github.com/mcpterm/mcpterm/session/demo"
)

// serverFlags is the server selection every subcommand and the TUI accept:
// nothing (the in-process demo server), -- CMD ARGS (stdio), --url URL
// [--sse] [--header 'K: V']... [--bearer-token-env VAR] (HTTP), --server
// NAME [--config FILE] (an mcpServers config entry), or --tools FILE
// (offline). --trace FILE and --timeout apply to all of them.
type serverFlags struct {
	url       string
	sse       bool
	headers   headerFlag
	bearerEnv string
	server    string
	configs   listFlag
	tools     string
	trace     string
	timeout   time.Duration
	cmdline   []string // after --
}

// register adds the selection flags to fs.
func (sf *serverFlags) register(fs *flag.FlagSet) {
	sf.registerLive(fs)
	fs.StringVar(&sf.tools, "tools", "", "offline: a saved tools/list result `FILE` instead of a server")
}

// registerLive adds every selection flag but --tools, for a subcommand
// that reads --tools its own way (tokens takes it repeatedly).
func (sf *serverFlags) registerLive(fs *flag.FlagSet) {
	fs.StringVar(&sf.url, "url", "", "connect to a streamable HTTP server at `URL`")
	fs.BoolVar(&sf.sse, "sse", false, "with --url: use the legacy HTTP+SSE transport")
	fs.Var(&sf.headers, "header", "with --url: send the HTTP header `'K: V'` (repeatable)")
	fs.StringVar(&sf.bearerEnv, "bearer-token-env", "", "with --url: send 'Authorization: Bearer $`VAR`'")
	fs.StringVar(&sf.server, "server", "", "connect to the server called `NAME` in an mcpServers config")
	fs.Var(&sf.configs, "config", "with --server: read this mcpServers config `FILE` (repeatable; default: the usual places)")
	fs.StringVar(&sf.trace, "trace", "", "write every JSON-RPC message to `FILE` as JSON lines")
	fs.DurationVar(&sf.timeout, "timeout", 60*time.Second, "give up on a request after this long without an answer or progress")
}

// headerFlag collects repeated --header 'K: V' values in order.
type headerFlag []string

func (h *headerFlag) String() string { return strings.Join(*h, ", ") }
func (h *headerFlag) Set(v string) error {
	if _, _, err := parseHeader(v); err != nil {
		return err
	}
	*h = append(*h, v)
	return nil
}

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// parseHeader reads 'Name: value' the way curl's -H does.
func parseHeader(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", "", fmt.Errorf("header %q: want 'Name: value'", clipArg(s))
	}
	for _, r := range name {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", r) {
			return "", "", fmt.Errorf("header %q: %q is not allowed in a header name", clipArg(name), r)
		}
	}
	value = strings.TrimSpace(value)
	if strings.ContainsAny(value, "\r\n\x00") {
		return "", "", fmt.Errorf("header %q: the value may not contain line breaks or NUL", name)
	}
	return name, value, nil
}

// clipArg shortens and neutralises a user argument for an error message.
func clipArg(s string) string {
	s, _ = safe.Cut(safe.Line(s), 80)
	return s
}

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

// usageError is a mistake in the command line (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// selection is a resolved server choice: the source plus the secret values
// (header values, tokens, config env) that must never be printed.
type selection struct {
	src     session.Source
	secrets []string
	// retrySSE is set for a config entry whose HTTP transport was guessed:
	// if streamable HTTP fails, the legacy SSE transport is tried.
	retrySSE bool
}

// source resolves the flags to a session source.
func (c *cli) source(sf *serverFlags) (selection, error) {
	n := 0
	for _, set := range []bool{len(sf.cmdline) > 0, sf.url != "", sf.server != "", sf.tools != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return selection{}, usagef("choose one server: -- CMD ARGS, --url, --server or --tools")
	}
	if sf.url == "" && sf.server == "" {
		switch {
		case sf.sse:
			return selection{}, usagef("--sse needs --url")
		case len(sf.headers) > 0:
			return selection{}, usagef("--header needs --url or an HTTP --server")
		case sf.bearerEnv != "":
			return selection{}, usagef("--bearer-token-env needs --url or an HTTP --server")
		}
	}
	if len(sf.configs) > 0 && sf.server == "" {
		return selection{}, usagef("--config needs --server NAME")
	}
	headers := map[string]string{}
	var secrets []string
	for _, h := range sf.headers {
		k, v, _ := parseHeader(h)
		headers[k] = v
		secrets = append(secrets, v)
	}
	if sf.bearerEnv != "" {
		tok := c.getenv(sf.bearerEnv)
		if tok == "" {
			return selection{}, usagef("--bearer-token-env %s: the variable is empty or unset", sf.bearerEnv)
		}
		secrets = append(secrets, tok)
	}
	switch {
	case len(sf.cmdline) > 0:
		return selection{src: session.Source{Kind: session.Stdio, Command: sf.cmdline[0], Args: sf.cmdline[1:]}}, nil
	case sf.url != "":
		secrets = append(secrets, urlSecrets(sf.url)...)
		kind := session.HTTP
		if sf.sse {
			kind = session.SSE
		}
		return selection{src: session.Source{Kind: kind, URL: sf.url, Headers: headers, BearerTokenEnv: sf.bearerEnv}, secrets: secrets}, nil
	case sf.tools != "":
		return selection{src: session.Source{Kind: session.Offline, ToolsFile: sf.tools}}, nil
	case sf.server != "":
		return c.configSource(sf, headers, secrets)
	}
	return selection{src: session.Source{Kind: session.InProcess, Name: "demo", Server: demo.New(demo.Options{})}}, nil
}

// configSource finds --server NAME in the --config files or the usual places.
func (c *cli) configSource(sf *serverFlags, headers map[string]string, secrets []string) (selection, error) {
	cwd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	var set *config.Set
	var err error
	if len(sf.configs) > 0 {
		set, err = config.Load(config.Env{Cwd: cwd, Home: home, Getenv: c.getenv}, sf.configs...)
	} else {
		set, err = config.Discover(cwd, home, c.getenv)
	}
	if err != nil {
		return selection{}, usagef("%v", err)
	}
	srv, _, err := set.Find(sf.server)
	if err != nil {
		return selection{}, usagef("%v", err)
	}
	sel := selection{secrets: append(secrets, srv.Secrets()...)}
	switch srv.Transport {
	case config.Stdio:
		if len(headers) > 0 || sf.bearerEnv != "" || sf.sse {
			return selection{}, usagef("--header, --bearer-token-env and --sse are for HTTP servers; %q runs a command", sf.server)
		}
		sel.src = session.Source{Kind: session.Stdio, Name: srv.Name, Command: srv.Command, Args: srv.Args, Env: srv.Env, Dir: srv.Dir}
	case config.HTTP, config.SSE:
		kind := session.HTTP
		if srv.Transport == config.SSE || sf.sse {
			kind = session.SSE
		}
		h := map[string]string{}
		for k, v := range srv.Headers {
			h[k] = v
		}
		for k, v := range headers {
			h[k] = v
		}
		sel.src = session.Source{Kind: kind, Name: srv.Name, URL: srv.URL, Headers: h, BearerTokenEnv: sf.bearerEnv}
		sel.secrets = append(sel.secrets, urlSecrets(srv.URL)...)
		sel.retrySSE = kind == session.HTTP && srv.Guessed
	default:
		return selection{}, usagef("server %q: unknown transport %q", sf.server, srv.Transport)
	}
	return sel, nil
}

// urlSecrets are the parts of a URL that often carry tokens: query values
// and a userinfo password. Errors from HTTP libraries quote the whole URL.
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok {
		out = append(out, p)
	}
	for _, vs := range u.Query() {
		out = append(out, vs...)
	}
	return out
}

// connection is an open session plus what every subcommand needs around it.
type connection struct {
	s        *session.Session
	redactor *safe.Redactor
	trace    io.Closer
}

func (cn *connection) close() {
	cn.s.Close()
	if cn.trace != nil {
		cn.trace.Close()
	}
}

// prepared is a server selection ready to open: the TUI hands Source and
// Options to its own connector, subcommands call open.
type prepared struct {
	sel      selection
	opts     session.Options
	redactor *safe.Redactor // hides the selection's secrets in anything printed or written
	trace    io.Closer      // the --trace file, if any; close it when done
}

// prepare resolves the flags into a source and session options: --timeout,
// --trace (a file whose lines are redacted), the secrets to hide.
func (c *cli) prepare(sf *serverFlags, opts session.Options) (*prepared, error) {
	sel, err := c.source(sf)
	if err != nil {
		return nil, err
	}
	p := &prepared{sel: sel, redactor: safe.NewRedactor(sel.secrets)}
	if sf.timeout > 0 {
		opts.CallTimeout = sf.timeout
		// Connecting gets the same bound, at most 30 s.
		opts.ConnectTimeout = min(sf.timeout, 30*time.Second)
	}
	if opts.Getenv == nil {
		opts.Getenv = c.getenv
	}
	if sf.trace != "" {
		f, err := os.OpenFile(sf.trace, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, usagef("--trace: %v", err)
		}
		p.trace = f
		opts.Trace = &redactingWriter{w: f, r: p.redactor}
	}
	p.opts = opts
	return p, nil
}

// connect resolves the flags and opens the session, reporting failures on
// stderr. It returns the exit code to use when the connection is nil.
func (c *cli) connect(ctx context.Context, cmd string, sf *serverFlags, opts session.Options) (*connection, int) {
	p, err := c.prepare(sf, opts)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm %s: %v\n", cmd, err)
		return nil, exitUsage
	}
	cn := &connection{redactor: p.redactor, trace: p.trace}
	s, err := session.Open(ctx, p.sel.src, p.opts)
	if err != nil && p.sel.retrySSE && session.Classify(err) == session.ClassConnection {
		sse := p.sel.src
		sse.Kind = session.SSE
		if s2, err2 := session.Open(ctx, sse, p.opts); err2 == nil {
			s, err = s2, nil
		}
	}
	if err != nil {
		if cn.trace != nil {
			cn.trace.Close()
		}
		code := exitConnect
		if session.Classify(err) == session.ClassUsage || p.sel.src.Kind == session.Offline {
			code = exitUsage
		}
		fmt.Fprintf(c.stderr, "mcpterm %s: %s: %s\n", cmd, c.clean(p.redactor, p.sel.src.String()), c.clean(p.redactor, err.Error()))
		return nil, code
	}
	cn.s = s
	return cn, exitOK
}

// clean makes server-provided or secret-bearing text fit to print.
func (c *cli) clean(r *safe.Redactor, s string) string { return safe.Text(r.Redact(s)) }

// redactingWriter hides secrets in each trace line before it reaches disk.
// The session writes one whole JSON line per Write.
type redactingWriter struct {
	w io.Writer
	r *safe.Redactor
}

func (rw *redactingWriter) Write(p []byte) (int, error) {
	out := rw.r.Redact(string(p))
	if _, err := io.WriteString(rw.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// exitFor maps a session error to the command line's exit codes.
func exitFor(err error) int {
	switch session.Classify(err) {
	case session.ClassNone:
		return exitOK
	case session.ClassUsage:
		return exitUsage
	case session.ClassTimeout:
		return exitTimeout
	case session.ClassConnection:
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
}

func (of *outputFlags) register(fs *flag.FlagSet, def string) {
	fs.StringVar(&of.output, "output", def, "result format: sexpr or json")
	fs.IntVar(&of.maxOutput, "max-output", 0, "print at most `N` bytes, saying what was cut (0: no limit)")
}

func (of *outputFlags) check() error {
	if of.output != "sexpr" && of.output != "json" {
		return usagef("--output %q: want sexpr or json", clipArg(of.output))
	}
	if of.maxOutput < 0 {
		return usagef("--max-output %d: want 0 or more bytes", of.maxOutput)
	}
	return nil
}

// emit prints text that may hold anything a server said: secrets are
// masked, terminal control sequences removed, and the total is capped by
// --max-output with a visible marker.
func (c *cli) emit(r *safe.Redactor, maxOutput int, text string) {
	text = safe.Text(r.Redact(text))
	if maxOutput > 0 {
		text, _ = safe.Cut(text, maxOutput)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(c.stdout, text)
}

// quoteArg is strconv.Quote for messages.
func quoteArg(s string) string { return strconv.Quote(clipArg(s)) }
