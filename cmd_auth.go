package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/auth"
)

// authOptions are auth's flags: the server selection (an HTTP server) and
// status's output format.
type authOptions struct {
	sf  serverFlags
	all bool
	of  outputFlags
}

// authFlags builds auth's flag set.
func (c *cli) authFlags() (*flag.FlagSet, *authOptions) {
	fs := newFlagSet("auth",
		"usage: mcpterm auth login  [--url URL | --server NAME] [--client-id ID [--client-secret-env VAR]] [--scope SCOPES]",
		"       mcpterm auth logout [--url URL | --server NAME | --all]",
		"       mcpterm auth status [--url URL | --server NAME] [--output text|json]",
		"",
		"OAuth 2.1 for HTTP servers. Every live command authorizes by itself when a server answers",
		"401: it opens the authorization URL in the browser ($BROWSER, else xdg-open or open), prints",
		"it on stderr too, waits for the redirect to a loopback port, and keeps the token. login does",
		"that now (and waits up to 5 minutes for the browser); logout forgets a server's token;",
		"status lists the stored servers: URL, scopes, expiry, whether a refresh token is kept",
		"(never a token). Tokens live in $XDG_CONFIG_HOME/mcpterm/"+auth.FileName+" (else",
		"~/.config/mcpterm/), mode 0600.")
	var o authOptions
	o.sf.registerLive(fs)
	fs.BoolVar(&o.all, "all", false, "logout: forget every stored server")
	o.of.register(fs, "text", "json")
	return fs, &o
}

// runAuth is `mcpterm auth login|logout|status`.
func (c *cli) runAuth(args []string) int {
	fs, o := c.authFlags()
	pos, code, ok := c.parseSelection(fs, &o.sf, args)
	if !ok {
		return code
	}
	if err := o.of.check(); err != nil {
		fmt.Fprintln(c.stderr, "mcpterm auth:", err)
		return exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintln(c.stderr, "mcpterm auth: want one of login, logout, status (mcpterm auth --help)")
		return exitUsage
	}
	store := auth.NewStore(auth.DefaultPath(c.getenv, c.homeDir()))
	switch pos[0] {
	case "login":
		return c.authLogin(o, store)
	case "logout":
		return c.authLogout(o, store)
	case "status":
		return c.authStatus(o, store)
	}
	fmt.Fprintf(c.stderr, "mcpterm auth: %s: want login, logout or status\n", quoteArg(pos[0]))
	return exitUsage
}

func (c *cli) homeDir() string {
	if c.home != "" {
		return c.home
	}
	h, _ := os.UserHomeDir()
	return h
}

// authTarget resolves the selection to an HTTP server's URL and OAuth
// config; selected is false when nothing was chosen.
func (c *cli) authTarget(cmd string, o *authOptions) (t *session.Target, selected bool, code int) {
	if o.sf.URL == "" && o.sf.Server == "" {
		if len(o.sf.Command) > 0 {
			fmt.Fprintf(c.stderr, "mcpterm auth %s: OAuth is for HTTP servers: choose one with --url or --server\n", cmd)
			return nil, false, exitUsage
		}
		return nil, false, exitOK
	}
	t, err := session.Resolve(o.sf.Selection, c.env(), session.Options{OAuthNotify: c.oauthNotify("auth " + cmd)})
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm auth %s: %s\n", cmd, safe.Text(err.Error()))
		return nil, false, exitUsage
	}
	if t.Source.Kind != session.HTTP && t.Source.Kind != session.SSE {
		t.Close()
		fmt.Fprintf(c.stderr, "mcpterm auth %s: %s is not an HTTP server; OAuth is for HTTP servers\n", cmd, safe.Line(t.Source.String()))
		return nil, false, exitUsage
	}
	return t, true, exitOK
}

func (c *cli) authLogin(o *authOptions, store *auth.Store) int {
	t, selected, code := c.authTarget("login", o)
	if !selected {
		if code == exitOK {
			fmt.Fprintln(c.stderr, "mcpterm auth login: choose the server: --url URL or --server NAME")
			code = exitUsage
		}
		return code
	}
	defer t.Close()
	cfg := *t.Options.OAuth
	if cfg.ClientSecret != "" {
		t.Redactor.Add(cfg.ClientSecret)
	}
	cfg.Redact = t.Redactor.Add
	cfg.Notify = t.Options.OAuthNotify
	ctx, stop := c.runContext()
	defer stop()
	e, err := auth.Login(ctx, http.DefaultTransport, t.Source.URL, &cfg)
	if err != nil {
		if code, ok := c.interrupted(ctx, "auth login", "waiting for the authorization"); ok {
			return code
		}
		fmt.Fprintf(c.stderr, "mcpterm auth login: %s\n", safe.Text(t.Redactor.Redact(err.Error())))
		return exitConnect
	}
	fmt.Fprintf(c.stdout, "logged in to %s%s; the token is kept in %s\n", safe.Line(t.Source.String()), entrySummary(e), store.Path())
	return exitOK
}

func (c *cli) authLogout(o *authOptions, store *auth.Store) int {
	if o.all {
		if o.sf.URL != "" || o.sf.Server != "" {
			fmt.Fprintln(c.stderr, "mcpterm auth logout: --all or a server, not both")
			return exitUsage
		}
		list, err := store.List()
		if err != nil {
			fmt.Fprintf(c.stderr, "mcpterm auth logout: %s\n", safe.Line(err.Error()))
			return exitUsage
		}
		for _, e := range list {
			if _, err := store.Delete(e.ServerURL); err != nil {
				fmt.Fprintf(c.stderr, "mcpterm auth logout: %s\n", safe.Line(err.Error()))
				return exitUsage
			}
		}
		fmt.Fprintf(c.stdout, "forgot %d server(s)\n", len(list))
		return exitOK
	}
	t, selected, code := c.authTarget("logout", o)
	if !selected {
		if code == exitOK {
			fmt.Fprintln(c.stderr, "mcpterm auth logout: choose the server (--url URL or --server NAME) or --all")
			code = exitUsage
		}
		return code
	}
	defer t.Close()
	had, err := store.Delete(t.Source.URL)
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm auth logout: %s\n", safe.Line(err.Error()))
		return exitUsage
	}
	if !had {
		fmt.Fprintf(c.stdout, "no token was stored for %s\n", safe.Line(t.Source.String()))
		return exitOK
	}
	fmt.Fprintf(c.stdout, "logged out of %s\n", safe.Line(t.Source.String()))
	return exitOK
}

// authStatusLine is one stored server as status shows it: never a token.
type authStatusLine struct {
	URL          string    `json:"url"`
	Scopes       []string  `json:"scopes"`
	Granted      []string  `json:"granted,omitempty"`
	ExpiresAt    time.Time `json:"expires_at,omitzero"`
	Expired      bool      `json:"expired"`
	RefreshToken bool      `json:"refresh_token"`
	ClientID     string    `json:"client_id,omitempty"`
	Issuer       string    `json:"issuer,omitempty"`
}

func (c *cli) authStatus(o *authOptions, store *auth.Store) int {
	t, selected, code := c.authTarget("status", o)
	if code != exitOK {
		return code
	}
	list, err := store.List()
	if err != nil {
		fmt.Fprintf(c.stderr, "mcpterm auth status: %s\n", safe.Line(err.Error()))
		return exitUsage
	}
	if selected {
		defer t.Close()
		var one []*auth.Entry
		for _, e := range list {
			if auth.Key(e.ServerURL) == auth.Key(t.Source.URL) {
				one = append(one, e)
			}
		}
		list = one
	}
	now := time.Now()
	lines := make([]authStatusLine, 0, len(list))
	for _, e := range list {
		lines = append(lines, authStatusLine{
			URL: e.ServerURL, Scopes: e.Scopes, Granted: e.Granted, ExpiresAt: e.ExpiresAt,
			Expired: e.Expired(now), RefreshToken: e.RefreshToken != "", ClientID: e.ClientID, Issuer: e.Issuer,
		})
	}
	if o.of.output == "json" {
		out, _ := json.MarshalIndent(lines, "", "  ")
		fmt.Fprintln(c.stdout, string(out))
		return exitOK
	}
	if len(lines) == 0 {
		fmt.Fprintf(c.stdout, "no stored OAuth tokens (%s)\n", store.Path())
		return exitOK
	}
	for _, l := range lines {
		scopes := strings.Join(l.Scopes, " ")
		if scopes == "" {
			scopes = "(none asked)"
		}
		expiry := "no expiry given"
		if !l.ExpiresAt.IsZero() {
			expiry = "expires " + l.ExpiresAt.Local().Format(time.DateTime)
			if l.Expired {
				expiry = "expired " + l.ExpiresAt.Local().Format(time.DateTime)
			}
		}
		refresh := "no refresh token"
		if l.RefreshToken {
			refresh = "refresh token kept"
		}
		fmt.Fprintf(c.stdout, "%s\n  scopes: %s\n  %s; %s\n  client: %s\n", safe.Line(l.URL), safe.Line(scopes), expiry, refresh, safe.Line(l.ClientID))
	}
	return exitOK
}

// entrySummary is login's " (scopes …, expires …)" part.
func entrySummary(e *auth.Entry) string {
	var parts []string
	if len(e.Scopes) > 0 {
		parts = append(parts, "scopes "+strings.Join(e.Scopes, " "))
	}
	if !e.ExpiresAt.IsZero() {
		parts = append(parts, "expires "+e.ExpiresAt.Local().Format(time.DateTime))
	}
	if e.RefreshToken != "" {
		parts = append(parts, "refreshable")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + safe.Line(strings.Join(parts, ", ")) + ")"
}

// oauthNotify prints the OAuth flow's remarks (the authorization URL to
// open) on stderr while a command connects.
func (c *cli) oauthNotify(cmd string) func(string) {
	return func(msg string) {
		fmt.Fprintf(c.stderr, "mcpterm %s: %s\n", cmd, safe.Line(msg))
	}
}
