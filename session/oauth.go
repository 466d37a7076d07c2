package session

import (
	"context"
	"net/http"
	"strings"

	"github.com/mcpterm/mcpterm/session/auth"
)

// authTransport puts session/auth under an HTTP or SSE session's requests:
// OAuth when Options.OAuth is set and the person gave no Authorization
// header of their own, else only an error that says how to authorize when
// the server answers 401. The session's copy of the config adds tokens to
// its Redactor and tells its notices the authorization URL, so every face
// (the command line, the workbench, the gateway's upstreams) sees it.
func (s *Session) authTransport(base http.RoundTripper, headers map[string]string) http.RoundTripper {
	explicit := false
	for k := range headers {
		if strings.EqualFold(k, "Authorization") {
			explicit = true
		}
	}
	if s.opts.OAuth == nil || explicit {
		return auth.NewTransport(base, s.src.URL, nil, explicit)
	}
	cfg := *s.opts.OAuth
	redact, notify := cfg.Redact, cfg.Notify
	cfg.Redact = func(secrets ...string) {
		s.opts.Redactor.Add(secrets...)
		if redact != nil {
			redact(secrets...)
		}
	}
	cfg.Notify = func(msg string) {
		s.events.publish(Event{Kind: EventNotice, Level: "info", Source: "oauth", Text: msg})
		if s.opts.OAuthNotify != nil {
			s.opts.OAuthNotify(msg)
		}
		if notify != nil {
			notify(msg)
		}
	}
	if cfg.Redact != nil {
		cfg.Redact(cfg.ClientSecret)
	}
	return auth.NewTransport(base, s.src.URL, &cfg, false)
}

// oauthConfig is the OAuth part of resolving a selection: for an HTTP or
// SSE source, the flow's config (the token file under the XDG config
// directory, the browser through OpenURL, a pre-registered client from
// --client-id and --client-secret-env); the OAuth flags are refused for
// other sources. A base config the caller set is kept.
func oauthConfig(sel Selection, src Source, env Env, base *auth.Config, r interface{ Add(...string) }) (*auth.Config, error) {
	oauthFlags := sel.ClientID != "" || sel.ClientSecretEnv != "" || sel.ClientMetadataURL != "" || sel.Scope != ""
	if src.Kind != HTTP && src.Kind != SSE {
		if oauthFlags {
			return nil, usagef("--client-id, --client-secret-env, --client-metadata-url and --scope need --url or an HTTP --server")
		}
		return base, nil
	}
	if sel.ClientSecretEnv != "" && sel.ClientID == "" {
		return nil, usagef("--client-secret-env needs --client-id")
	}
	if u := sel.ClientMetadataURL; u != "" && !strings.HasPrefix(u, "https://") {
		return nil, usagef("--client-metadata-url %s: want an https URL", clipArg(u))
	}
	if base != nil {
		return base, nil
	}
	cfg := &auth.Config{
		ClientID:          sel.ClientID,
		ClientMetadataURL: sel.ClientMetadataURL,
		Scopes:            strings.Fields(sel.Scope),
		Store:             auth.NewStore(auth.DefaultPath(env.Getenv, env.Home)),
		OpenURL: func(ctx context.Context, u string) error {
			return OpenURL(ctx, u, env.Getenv)
		},
	}
	if sel.ClientSecretEnv != "" {
		cfg.ClientSecret = env.Getenv(sel.ClientSecretEnv)
		if cfg.ClientSecret == "" {
			return nil, usagef("--client-secret-env %s: the variable is empty or unset", clipArg(sel.ClientSecretEnv))
		}
		r.Add(cfg.ClientSecret)
	}
	return cfg, nil
}
