package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// MaxStepUps bounds the re-authorizations for more scope (403
// insufficient_scope) over a transport's life, so that a server that will
// never be satisfied cannot keep the browser opening.
const MaxStepUps = 2

// Error is an authorization that did not happen: what went wrong and what
// the person can do instead.
type Error struct {
	ServerURL string
	Err       error
}

func (e *Error) Error() string {
	return fmt.Sprintf("authorization required: %v — run 'mcpterm auth login --url %s', or pass --header 'Authorization: Bearer …' or --bearer-token-env VAR", e.Err, e.ServerURL)
}

func (e *Error) Unwrap() error { return e.Err }

// Transport puts OAuth under an MCP HTTP transport: it sends the stored
// token, refreshes it when it expires, runs the authorization flow on a
// 401 (and on a 403 insufficient_scope that asks for more scope) and sends
// the request again.
type Transport struct {
	base      http.RoundTripper
	serverURL string
	cfg       *Config
	// explicit is set when the person gave their own Authorization
	// header: no OAuth then, only a better error on a 401.
	explicit bool

	mu      sync.Mutex // serialises loading, refreshing and flows
	loaded  bool
	entry   *Entry
	stepUps int
}

// NewTransport wraps base for serverURL. With explicit set (the person's
// own --header or --bearer-token-env credentials), or a nil cfg (a session
// opened without OAuth options), no flow runs and a 401 becomes an *Error
// that says what to do.
func NewTransport(base http.RoundTripper, serverURL string, cfg *Config, explicit bool) *Transport {
	return &Transport{base: base, serverURL: serverURL, cfg: cfg, explicit: explicit}
}

// maxReplayBody bounds a request body kept to send again after the flow.
const maxReplayBody = 64 << 20

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.explicit || t.cfg == nil {
		resp, err := t.base.RoundTrip(req)
		if err == nil && resp.StatusCode == http.StatusUnauthorized {
			drain(resp)
			why := "the server answers 401 and OAuth is off for this session"
			if t.explicit {
				why = "the server refused the credentials given with --header or --bearer-token-env (401)"
			}
			return nil, &Error{ServerURL: t.serverURL, Err: errors.New(why)}
		}
		return resp, err
	}
	ctx := req.Context()
	if req.Body != nil && req.GetBody == nil {
		data, err := io.ReadAll(io.LimitReader(req.Body, maxReplayBody))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		req.Body, _ = req.GetBody()
	}
	tok, err := t.token(ctx)
	if err != nil {
		return nil, err
	}
	resp, err := t.send(req, tok)
	if err != nil {
		return nil, err
	}
	authorized := false // one full flow per request
	for {
		switch {
		case resp.StatusCode == http.StatusUnauthorized && !authorized:
			ch := bearerChallenge(resp.Header)
			drain(resp)
			tok, err = t.reauth(ctx, ch, tok, false)
			if err != nil {
				return nil, &Error{ServerURL: t.serverURL, Err: err}
			}
			authorized = true
		case resp.StatusCode == http.StatusUnauthorized:
			drain(resp)
			return nil, &Error{ServerURL: t.serverURL, Err: errors.New("the server refuses the token it was just given (401)")}
		case resp.StatusCode == http.StatusForbidden && tok != "":
			ch := bearerChallenge(resp.Header)
			if !strings.EqualFold(ch.Params["error"], "insufficient_scope") || !t.canStepUp(ch) {
				return resp, nil
			}
			drain(resp)
			tok, err = t.reauth(ctx, ch, tok, true)
			if err != nil {
				return nil, &Error{ServerURL: t.serverURL, Err: fmt.Errorf("more scope (%s): %w", clip(ch.Params["scope"]), err)}
			}
		default:
			return resp, nil
		}
		if resp, err = t.send(req, tok); err != nil {
			return nil, err
		}
	}
}

// send sends req (again: its body from GetBody) with tok.
func (t *Transport) send(req *http.Request, tok string) (*http.Response, error) {
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return t.base.RoundTrip(r)
}

// token is the access token to send: the stored one (refreshed first if it
// has expired and can be), or none.
func (t *Transport) token(ctx context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.loaded {
		t.loaded = true
		if t.cfg.Store != nil {
			e, err := t.cfg.Store.Get(t.serverURL)
			if err != nil {
				t.cfg.notify("OAuth: " + err.Error())
			} else if e != nil {
				t.cfg.redact(e.secrets()...)
				t.entry = e
			}
		}
	}
	if t.entry == nil {
		return "", nil
	}
	if t.entry.Expired(t.cfg.now()) {
		if err := t.cfg.refresh(ctx, t.entry); err != nil {
			// Expired and not refreshable: send nothing; the 401 starts the flow.
			t.entry.AccessToken = ""
			return "", nil
		}
		t.save()
	}
	return t.entry.AccessToken, nil
}

// canStepUp says whether a 403 insufficient_scope is worth a new
// authorization: it must ask for a scope not asked for yet, and the
// transport's step-ups must not be used up.
func (t *Transport) canStepUp(ch Challenge) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stepUps >= MaxStepUps {
		return false
	}
	var had []string
	if t.entry != nil {
		had = t.entry.Scopes
	}
	for _, s := range scopes(ch.Params["scope"]) {
		if !slices.Contains(had, s) {
			return true
		}
	}
	return false
}

// reauth gets a new token after sent was refused: nothing to do if another
// request already replaced it, else a refresh (not for a step-up), else
// the whole flow.
func (t *Transport) reauth(ctx context.Context, ch Challenge, sent string, stepUp bool) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.entry != nil && t.entry.AccessToken != "" && t.entry.AccessToken != sent {
		return t.entry.AccessToken, nil
	}
	var before []string
	if t.entry != nil {
		if !stepUp && sent != "" && t.entry.RefreshToken != "" {
			if err := t.cfg.refresh(ctx, t.entry); err == nil {
				t.save()
				return t.entry.AccessToken, nil
			}
		}
		before = t.entry.Scopes
	}
	if stepUp {
		t.stepUps++
	}
	e, err := t.cfg.authorize(ctx, t.serverURL, ch, before)
	if err != nil {
		return "", err
	}
	t.entry = e
	t.save()
	return e.AccessToken, nil
}

// save writes the entry to the store, if any; a failure is told, not fatal
// (the token still works for this run).
func (t *Transport) save() {
	if t.cfg.Store == nil || t.entry == nil {
		return
	}
	if err := t.cfg.Store.Put(t.entry); err != nil {
		t.cfg.notify("OAuth: the token could not be saved: " + err.Error())
	}
}

// drain discards a response that is answered again.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// Login runs the flow for serverURL now, whatever the stored token, and
// saves the token: `mcpterm auth login`. It asks the server first, without
// a token, for the challenge that names its metadata and scopes.
func Login(ctx context.Context, base http.RoundTripper, serverURL string, cfg *Config) (*Entry, error) {
	const probe = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpterm","version":"login"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, serverURL, strings.NewReader(probe))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	var ch Challenge
	if resp, err := base.RoundTrip(req); err == nil {
		ch = bearerChallenge(resp.Header)
		drain(resp)
	}
	var before []string
	if cfg.Store != nil {
		if old, err := cfg.Store.Get(serverURL); err == nil && old != nil {
			before = old.Scopes
		}
	}
	e, err := cfg.authorize(ctx, serverURL, ch, before)
	if err != nil {
		return nil, err
	}
	if cfg.Store != nil {
		if err := cfg.Store.Put(e); err != nil {
			return e, err
		}
	}
	return e, nil
}
