package session

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session/config"
	"github.com/mcpterm/mcpterm/session/demo"
)

// Selection is a server choice as the user wrote it: the values of the
// selection flags every face accepts, as plain data. Nothing chosen means
// the in-process demo server. At most one of Command, URL, Server and
// ToolsFile may be set.
type Selection struct {
	Command        []string      // -- CMD ARGS: a stdio server's command line
	URL            string        // --url: a streamable HTTP (or, with SSE, HTTP+SSE) server
	SSE            bool          // --sse: the legacy HTTP+SSE transport
	Headers        []string      // --header 'K: V', in order (later ones win)
	BearerTokenEnv string        // --bearer-token-env VAR: "Authorization: Bearer $VAR"
	Server         string        // --server NAME: an entry of an mcpServers config
	Configs        []string      // --config FILE: the configs to read (default: the usual places)
	ToolsFile      string        // --tools FILE: a saved tool list, no server
	Trace          string        // --trace FILE: every JSON-RPC message as a JSON line
	Timeout        time.Duration // --timeout: per request; 0 keeps the Options' own
	// Env is --env NAME=VALUE or --env NAME (the value from the
	// environment), in order, for a stdio server: over the config entry's
	// env block, later ones winning.
	Env []string
	// InheritEnv is --inherit-env: a stdio server gets mcpterm's whole
	// environment instead of the safe default (DefaultEnvNames).
	InheritEnv bool
	// TrustProject is --trust-project: a --server entry from a project
	// config is used, and its file remembered as trusted (session/config's
	// trust rule).
	TrustProject bool
	// MaxTime is --max-time: a call's overall deadline, which progress
	// does not extend; 0 is 10 × the call timeout.
	MaxTime time.Duration
	// Roots are --root DIR (repeatable): the directories offered to the
	// server as file:// roots; none given means the current directory.
	// NoRoots (--no-roots) offers none and declares no roots capability.
	Roots   []string
	NoRoots bool
	// Protocol is --protocol VERSION: pin the protocol revision.
	Protocol string
	// OAuth for HTTP servers (session/auth): ClientID is --client-id, a
	// client registered with the server's authorization server beforehand,
	// ClientSecretEnv (--client-secret-env VAR) names the variable holding
	// its secret; ClientMetadataURL (--client-metadata-url) is the https URL
	// of a client ID metadata document to use as the client ID where the
	// authorization server supports them; Scope (--scope) adds scopes
	// (space-separated) to the ones the server asks for.
	ClientID          string
	ClientSecretEnv   string
	ClientMetadataURL string
	Scope             string
}

// Env is what resolving a selection reads from the outside world. A nil
// Getenv or Environ, or an empty Cwd or Home, is taken from this process.
type Env struct {
	Getenv func(string) string
	Cwd    string
	Home   string
	// Environ is the whole environment (KEY=VALUE): what a stdio server
	// may inherit, and where secret-named variables are found to redact.
	Environ []string
}

// WithDefaults fills what e leaves unset from this process (its
// environment, working and home directories), as Resolve does; other
// resolvers of config entries (session/fleet) call it to see the same
// places.
func (e Env) WithDefaults() Env {
	if e.Getenv == nil {
		e.Getenv = os.Getenv
	}
	if e.Cwd == "" {
		e.Cwd, _ = os.Getwd()
	}
	if e.Home == "" {
		e.Home, _ = os.UserHomeDir()
	}
	if e.Environ == nil {
		e.Environ = os.Environ()
	}
	return e
}

// Target is a selection resolved and ready to open with Connect, any
// number of times (the workbench reconnects with the same Target).
type Target struct {
	Source  Source
	Options Options
	// Redactor hides the selection's secrets (header values, the bearer
	// token, URL credentials, a config entry's secret env and headers, the
	// values of secret-named variables of the environment and --env) in
	// anything printed or written; the trace file already goes through it,
	// and the session adds the values of secret-named tool arguments to it
	// as calls are sent (Options.Redactor).
	Redactor *safe.Redactor
	// RetrySSE is set for a config entry whose HTTP transport was guessed:
	// when streamable HTTP cannot connect, Connect tries HTTP+SSE.
	RetrySSE bool
	// Trace is the --trace file, nil without one; Close closes it.
	Trace io.Closer
	// Trust is what the config lookup said about project configs (nil
	// for selections without --server): notices to print, an untrusted
	// entry set aside to ask about.
	Trust *TrustNote
}

// Close releases what Resolve opened (the trace file). The sessions opened
// from the target must be closed first, or their last lines are lost.
func (t *Target) Close() error {
	if t == nil || t.Trace == nil {
		return nil
	}
	return t.Trace.Close()
}

// DraftKey names the composer's draft after the target's server.
func (t *Target) DraftKey() string { return DraftKey(t.Source) }

// UsageError is a mistake in the selection itself (two servers chosen, a
// flag that needs another, a bad header, an unknown config name): the
// command line exits 2 for it. It is an ErrInvalidSource, so Classify says
// ClassUsage; Error is the message alone, ready to follow "mcpterm CMD: ".
type UsageError struct {
	Msg string
	Err error // the underlying error (a config error, ...), if any
}

func (e *UsageError) Error() string { return e.Msg }
func (e *UsageError) Unwrap() error { return e.Err }

// Is makes every UsageError an ErrInvalidSource.
func (e *UsageError) Is(target error) bool { return target == ErrInvalidSource }

func usagef(format string, args ...any) *UsageError {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// usageOf keeps err's own message.
func usageOf(err error) *UsageError { return &UsageError{Msg: err.Error(), Err: err} }

// maxConnectTimeout caps the connect timeout derived from --timeout: a
// generous call timeout should not make a dead server take minutes to
// report.
const maxConnectTimeout = 30 * time.Second

// Resolve turns a selection into a Target: the Source, the Options (base
// plus the call timeout = sel.Timeout, the connect timeout = min(sel.Timeout,
// 30 s), the overall call deadline = sel.MaxTime (else 10× the call
// timeout), Getenv and Environ from env, the redacting trace writer, the
// Redactor), and the Redactor of every secret involved. Mistakes in the
// selection are *UsageError. It opens
// the trace file; close the Target when done.
func Resolve(sel Selection, env Env, base Options) (*Target, error) {
	env = env.WithDefaults()
	var note TrustNote
	src, secrets, retrySSE, err := resolveSource(sel, env, &note)
	if err != nil {
		return nil, err
	}
	if err := src.validate(); err != nil {
		return nil, usageOf(err)
	}
	t := &Target{Source: src, RetrySSE: retrySSE, Redactor: safe.NewRedactor(secrets)}
	t.Redactor.Add(envSecrets(env.Environ)...)
	if sel.Server != "" {
		t.Trust = &note
	}
	opts := base
	if opts.Environ == nil {
		opts.Environ = env.Environ
	}
	if opts.Redactor == nil {
		opts.Redactor = t.Redactor
	}
	if sel.Timeout > 0 {
		opts.CallTimeout = sel.Timeout
		opts.ConnectTimeout = min(sel.Timeout, maxConnectTimeout)
		if sel.MaxTime <= 0 {
			opts.MaxCallTime = 0 // withDefaults derives it from the new timeout
		}
	}
	if sel.MaxTime > 0 {
		opts.MaxCallTime = sel.MaxTime
	}
	if opts.Getenv == nil {
		opts.Getenv = env.Getenv
	}
	if err := checkProtocol(sel.Protocol); err != nil {
		return nil, err
	}
	if sel.Protocol != "" {
		opts.ProtocolVersion = sel.Protocol
	}
	if sel.NoRoots && len(sel.Roots) > 0 {
		return nil, &UsageError{Msg: "--root and --no-roots: choose one"}
	}
	if opts.Roots == nil && !sel.NoRoots {
		if opts.Roots, err = selectedRoots(sel.Roots, env.Cwd); err != nil {
			return nil, err
		}
	}
	if opts.OAuth, err = oauthConfig(sel, src, env, opts.OAuth, t.Redactor); err != nil {
		return nil, err
	}
	if sel.Trace != "" {
		f, err := os.OpenFile(sel.Trace, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, &UsageError{Msg: "--trace: " + err.Error(), Err: err}
		}
		t.Trace = f
		opts.Trace = &redactingWriter{w: f, r: t.Redactor}
	}
	t.Options = opts
	return t, nil
}

// resolveSource checks the flags against each other and builds the source
// with the secrets it carries.
func resolveSource(sel Selection, env Env, note *TrustNote) (src Source, secrets []string, retrySSE bool, err error) {
	n := 0
	for _, set := range []bool{len(sel.Command) > 0, sel.URL != "", sel.Server != "", sel.ToolsFile != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return src, nil, false, usagef("choose one server: -- CMD ARGS, --url, --server or --tools")
	}
	if sel.URL == "" && sel.Server == "" {
		switch {
		case sel.SSE:
			return src, nil, false, usagef("--sse needs --url")
		case len(sel.Headers) > 0:
			return src, nil, false, usagef("--header needs --url or an HTTP --server")
		case sel.BearerTokenEnv != "":
			return src, nil, false, usagef("--bearer-token-env needs --url or an HTTP --server")
		}
	}
	if len(sel.Configs) > 0 && sel.Server == "" {
		return src, nil, false, usagef("--config needs --server NAME")
	}
	if sel.TrustProject && sel.Server == "" {
		return src, nil, false, usagef("--trust-project needs --server NAME")
	}
	if (len(sel.Env) > 0 || sel.InheritEnv) && len(sel.Command) == 0 && sel.Server == "" {
		return src, nil, false, usagef("--env and --inherit-env are for stdio servers: -- CMD ARGS or a --server that runs a command")
	}
	extraEnv, flagSecrets, err := parseEnvFlags(sel.Env, env.Getenv)
	if err != nil {
		return src, nil, false, usageOf(err)
	}
	secrets = append(secrets, flagSecrets...)
	headers := map[string]string{}
	for _, h := range sel.Headers {
		k, v, err := ParseHeader(h)
		if err != nil {
			return src, nil, false, usageOf(err)
		}
		headers[k] = v
		secrets = append(secrets, v)
	}
	if sel.BearerTokenEnv != "" {
		tok := env.Getenv(sel.BearerTokenEnv)
		if tok == "" {
			return src, nil, false, usagef("--bearer-token-env %s: the variable is empty or unset", clipArg(sel.BearerTokenEnv))
		}
		secrets = append(secrets, tok)
	}
	switch {
	case len(sel.Command) > 0:
		return Source{Kind: Stdio, Command: sel.Command[0], Args: sel.Command[1:], Env: extraEnv, InheritEnv: sel.InheritEnv}, secrets, false, nil
	case sel.URL != "":
		kind := HTTP
		if sel.SSE {
			kind = SSE
		}
		secrets = append(secrets, urlSecrets(sel.URL)...)
		return Source{Kind: kind, URL: sel.URL, Headers: headers, BearerTokenEnv: sel.BearerTokenEnv}, secrets, false, nil
	case sel.ToolsFile != "":
		return Source{Kind: Offline, ToolsFile: sel.ToolsFile}, nil, false, nil
	case sel.Server != "":
		return configSource(sel, env, headers, extraEnv, secrets, note)
	}
	return Source{Kind: InProcess, Name: "demo", Server: demo.New(demo.Options{})}, nil, false, nil
}

// configSource finds sel.Server in the --config files or the usual places
// under the trust rule (chooseServer; an untrusted project entry with no
// user entry to use instead is a *UsageError around a
// *config.UntrustedError); --header values win over the entry's headers,
// --sse over its transport, --env over its env block.
func configSource(sel Selection, env Env, headers, extraEnv map[string]string, secrets []string, note *TrustNote) (Source, []string, bool, error) {
	set, err := config.Open(config.Env{Cwd: env.Cwd, Home: env.Home, Getenv: env.Getenv}, sel.Configs)
	if err != nil {
		return Source{}, nil, false, usageOf(err)
	}
	srv, err := chooseServer(set, sel, env, note)
	if err != nil {
		return Source{}, nil, false, usageOf(err)
	}
	secrets = append(secrets, srv.Secrets()...)
	switch srv.Transport {
	case config.Stdio:
		if len(headers) > 0 || sel.BearerTokenEnv != "" || sel.SSE {
			return Source{}, nil, false, usagef("--header, --bearer-token-env and --sse are for HTTP servers; %q runs a command", clipArg(sel.Server))
		}
		src := Source{Kind: Stdio, Name: srv.Name, Command: srv.Command, Args: srv.Args, Dir: srv.Dir,
			Env: mergeEnvMaps(srv.Env, extraEnv), InheritEnv: sel.InheritEnv}
		return src, secrets, false, nil
	case config.HTTP, config.SSE:
		if len(extraEnv) > 0 || sel.InheritEnv {
			return Source{}, nil, false, usagef("--env and --inherit-env are for stdio servers; %q is reached over HTTP", clipArg(sel.Server))
		}
		kind := HTTP
		if srv.Transport == config.SSE || sel.SSE {
			kind = SSE
		}
		h := make(map[string]string, len(srv.Headers)+len(headers))
		for k, v := range srv.Headers {
			h[k] = v
		}
		for k, v := range headers {
			h[k] = v
		}
		secrets = append(secrets, urlSecrets(srv.URL)...)
		src := Source{Kind: kind, Name: srv.Name, URL: srv.URL, Headers: h, BearerTokenEnv: sel.BearerTokenEnv}
		return src, secrets, kind == HTTP && srv.Guessed, nil
	}
	return Source{}, nil, false, usagef("server %q: unknown transport %q", clipArg(sel.Server), clipArg(string(srv.Transport)))
}

// ParseHeader reads 'Name: value' the way curl's -H does. The error quotes
// the argument cut short and with control characters neutralised.
func ParseHeader(s string) (name, value string, err error) {
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

// redactingWriter hides secrets in each trace line before it reaches disk.
// The session writes one whole JSON line per Write.
type redactingWriter struct {
	w io.Writer
	r *safe.Redactor
}

func (rw *redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(rw.w, rw.r.Redact(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ConnectError is a failure to open a target's session. Source and Detail
// are redacted with the target's Redactor, so Error is safe to print once
// sanitised (safe.Text); Err is the session's error, for Classify and
// errors.As (a *ServerExitError carries a stdio server's stderr).
type ConnectError struct {
	Source string // Source.String(), redacted
	Detail string // Err.Error(), redacted
	Err    error
}

func (e *ConnectError) Error() string { return e.Source + ": " + e.Detail }
func (e *ConnectError) Unwrap() error { return e.Err }

// Connect opens a session on t. When streamable HTTP cannot connect to a
// config entry whose transport was guessed, it tries HTTP+SSE, and reports
// the first failure if that fails too. Errors are *ConnectError; an offline
// tool list that cannot be read is also a *UsageError inside (the command
// line's exit 2). Connect leaves t (and its trace file) open for the next
// attempt.
func Connect(ctx context.Context, t *Target) (*Session, error) {
	s, err := Open(ctx, t.Source, t.Options)
	if err != nil && t.RetrySSE && Classify(err) == ClassConnection {
		sse := t.Source
		sse.Kind = SSE
		if s2, err2 := Open(ctx, sse, t.Options); err2 == nil {
			s, err = s2, nil
		}
	}
	if err == nil {
		return s, nil
	}
	if t.Source.Kind == Offline && !errors.Is(err, ErrInvalidSource) {
		err = usageOf(err)
	}
	return nil, &ConnectError{Source: t.Redactor.Redact(t.Source.String()), Detail: t.Redactor.Redact(err.Error()), Err: err}
}

// DraftKey names the composer's draft after the server, so each server
// keeps its own: "demo" for the in-process demo, else the source's
// description (which holds no secrets), shortened by a hash past 80 bytes
// so it stays a usable file name.
func DraftKey(src Source) string {
	if src.Kind == InProcess {
		return "demo"
	}
	k := src.String()
	if len(k) > 80 {
		k = fmt.Sprintf("%s-%x", k[:60], sha256.Sum256([]byte(k)))[:80]
	}
	return k
}

// selectedRoots resolves --root directories against cwd (the current
// directory when none is given; none at all when that cannot be known, as
// when it was deleted under mcpterm, which is no reason to refuse to run).
func selectedRoots(dirs []string, cwd string) (*Roots, error) {
	if len(dirs) == 0 {
		if fi, err := os.Stat(cwd); cwd == "" || err != nil || !fi.IsDir() {
			return &Roots{}, nil
		}
		dirs = []string{cwd}
	}
	roots, err := DirRootsAt(cwd, dirs...)
	if err != nil {
		return nil, &UsageError{Msg: "--root " + err.Error(), Err: err}
	}
	return &Roots{roots: roots}, nil
}
