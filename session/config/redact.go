package config

import (
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// harmlessHeaders are header names whose values are never credentials; every
// other configured header is treated as one, since that is what configs set
// headers for.
var harmlessHeaders = map[string]bool{
	"accept": true, "content-type": true, "user-agent": true, "accept-language": true,
	"mcp-protocol-version": true, "cache-control": true,
}

// harmlessEnv are variable names whose values are settings, not
// credentials; hiding them would only garble output.
var harmlessEnv = map[string]bool{
	"PATH": true, "HOME": true, "NODE_ENV": true, "LOG_LEVEL": true, "DEBUG": true, "PYTHONPATH": true,
	"NODE_OPTIONS": true, "LANG": true, "LC_ALL": true, "TZ": true, "PORT": true, "HOST": true,
	"PYTHONUNBUFFERED": true, "NO_COLOR": true, "TERM": true, "USER": true, "SHELL": true, "TMPDIR": true,
}

// Secrets lists the values of this server that must not be shown: every env
// value except plain settings (see envSecret), header values other than
// Accept/Content-Type and the like, the user info, credential query
// parameters and token-like path segments of the URL, arguments that follow
// a credential flag (--token X, --api-key=X, GITHUB_TOKEN=X) or look like
// tokens, and whatever was substituted from credential variables. Hand them
// to safe.NewRedactor for history, audit files and traces. Redacted and
// String mask every env value regardless.
func (s Server) Secrets() []string {
	var out []string
	add := func(v string) {
		if v != "" {
			out = append(out, v)
		}
	}
	for _, k := range sortedKeys(s.Env) {
		if envSecret(k, s.Env[k]) {
			add(s.Env[k])
		}
	}
	for _, k := range sortedKeys(s.Headers) {
		if harmlessHeaders[strings.ToLower(k)] {
			continue
		}
		v := s.Headers[k]
		add(v)
		if _, cred, ok := strings.Cut(v, " "); ok {
			add(strings.TrimSpace(cred)) // "Bearer TOKEN": the token alone too
		}
	}
	out = append(out, urlSecrets(s.URL)...)
	for i, a := range s.Args {
		if v, ok := argSecret(s.Args, i); ok {
			add(v)
		} else if tokenLike(a) {
			add(a)
		} else if strings.Contains(a, "://") {
			out = append(out, urlSecrets(a)...) // postgresql://user:pw@host
		}
	}
	return append(out, s.secrets...)
}

// envSecret decides whether an env value is hidden in output. Configs put
// credentials in env, so a value is secret unless its name is a known
// setting or the value is plainly not a credential: a path, a number or a
// boolean (filesystem servers get their root directories this way, and
// hiding those would garble every result). A credential name wins over the
// value's shape (GOOGLE_APPLICATION_CREDENTIALS=/path/key.json).
func envSecret(name, value string) bool {
	if safe.IsSecretName(name) {
		return true
	}
	if harmlessEnv[strings.ToUpper(name)] {
		return false
	}
	switch strings.ToLower(value) {
	case "true", "false", "yes", "no", "on", "off":
		return false
	}
	if _, err := strconv.ParseFloat(value, 64); err == nil {
		return false
	}
	if filepath.IsAbs(value) || strings.HasPrefix(value, "~/") || strings.HasPrefix(value, "./") {
		return false
	}
	return true
}

// argSecret reports the credential in args[i], if the argument is one:
// the value after a credential flag, or the value part of --flag=value or
// NAME=value with a credential name.
func argSecret(args []string, i int) (string, bool) {
	a := args[i]
	if name, val, ok := strings.Cut(a, "="); ok && val != "" && safe.IsSecretName(strings.TrimLeft(name, "-")) {
		return val, true
	}
	if i > 0 {
		prev := args[i-1]
		if strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") && safe.IsSecretName(strings.TrimLeft(prev, "-")) &&
			!strings.HasPrefix(a, "-") {
			return a, true
		}
	}
	return "", false
}

// urlSecrets lists the credential parts of a URL.
func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil
	}
	var out []string
	if u.User != nil {
		out = append(out, u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			if safe.IsSecretName(k) || tokenLike(v) {
				out = append(out, v)
			}
		}
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if tokenLike(seg) {
			out = append(out, seg)
		}
	}
	return out
}

// Redacted returns a copy safe to print: every env and header value becomes
// "***" (an auth scheme such as "Bearer" stays readable), and the secrets
// Secrets finds are masked in the command, arguments, directory and URL.
func (s Server) Redacted() Server {
	r := safe.NewRedactor(s.Secrets())
	out := s
	out.secrets = nil
	out.Command = r.Redact(s.Command)
	out.Dir = r.Redact(s.Dir)
	if s.Args != nil {
		out.Args = make([]string, len(s.Args))
		for i, a := range s.Args {
			if v, ok := argSecret(s.Args, i); ok {
				out.Args[i] = strings.TrimSuffix(a, v) + safe.Mask
			} else if strings.Contains(a, "://") {
				out.Args[i] = redactURL(a, r)
			} else {
				out.Args[i] = r.Redact(a)
			}
		}
	}
	if s.Env != nil {
		out.Env = make(map[string]string, len(s.Env))
		for k := range s.Env {
			out.Env[k] = safe.Mask
		}
	}
	if s.Headers != nil {
		out.Headers = make(map[string]string, len(s.Headers))
		for k, v := range s.Headers {
			out.Headers[k] = maskHeader(v)
		}
	}
	out.URL = redactURL(s.URL, r)
	return out
}

// maskHeader hides a header value but keeps a leading auth scheme, so
// "Bearer ***" still tells the reader what kind of credential is configured.
func maskHeader(v string) string {
	if scheme, _, ok := strings.Cut(v, " "); ok {
		switch strings.ToLower(scheme) {
		case "bearer", "basic", "token", "bot", "digest", "apikey":
			return scheme + " " + safe.Mask
		}
	}
	return safe.Mask
}

func redactURL(raw string, r *safe.Redactor) string {
	u, err := url.Parse(raw)
	if err != nil {
		return r.Redact(raw)
	}
	if u.User != nil {
		u.User = url.User(safe.Mask)
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			for i, v := range vs {
				if safe.IsSecretName(k) || tokenLike(v) {
					vs[i] = safe.Mask
				}
			}
			q[k] = vs
		}
		u.RawQuery = q.Encode()
	}
	out := u.String()
	out = strings.ReplaceAll(out, url.PathEscape(safe.Mask), safe.Mask)
	out = strings.ReplaceAll(out, url.QueryEscape(safe.Mask), safe.Mask)
	return r.Redact(out)
}

// String describes the server on one line with every secret masked, e.g.
// `github: stdio npx -y @modelcontextprotocol/server-github (env GITHUB_TOKEN=***) from .mcp.json (Claude Code)`.
func (s Server) String() string {
	r := s.Redacted()
	var b strings.Builder
	b.WriteString(r.Name + ": " + string(r.Transport))
	if r.Guessed {
		b.WriteString("?")
	}
	switch r.Transport {
	case Stdio:
		b.WriteString(" " + shellQuote(r.Command))
		for _, a := range r.Args {
			b.WriteString(" " + shellQuote(a))
		}
		if len(r.Env) > 0 {
			b.WriteString(" (env")
			for _, k := range sortedKeys(r.Env) {
				b.WriteString(" " + k + "=" + r.Env[k])
			}
			b.WriteString(")")
		}
		if r.Dir != "" {
			b.WriteString(" in " + shellQuote(r.Dir))
		}
	default:
		b.WriteString(" " + r.URL)
		if len(r.Headers) > 0 {
			b.WriteString(" (headers")
			for _, k := range sortedKeys(r.Headers) {
				b.WriteString(" " + k + ": " + r.Headers[k] + ";")
			}
			b.WriteString(")")
		}
	}
	if r.Disabled {
		b.WriteString(" [disabled]")
	}
	if r.Source.Path != "" {
		b.WriteString(" from " + r.Source.String())
	}
	return safe.Line(b.String())
}

// GoString keeps %#v from printing the raw Env and Headers maps.
func (s Server) GoString() string { return "config.Server{" + s.String() + "}" }

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`|&;<>()*?[]{}!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// looksSSE reports a URL whose path ends in /sse, the legacy transport's
// conventional endpoint.
func looksSSE(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return strings.HasSuffix(strings.TrimRight(raw, "/"), "/sse")
	}
	return strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/sse")
}
