package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// Config is how the flow runs for one server: the client to use when one
// is pre-registered, where tokens are kept, and the hooks to the face that
// shows the authorization URL and to the session's Redactor.
type Config struct {
	// ClientID and ClientSecret are a pre-registered client (--client-id,
	// --client-secret-env); they win over a client ID metadata document
	// and dynamic registration.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is the https URL of mcpterm's client ID metadata
	// document, used as the client ID where the authorization server says
	// client_id_metadata_document_supported.
	ClientMetadataURL string
	// ClientName is sent in dynamic registration; default "mcpterm".
	ClientName string
	// Scopes are asked for on top of the ones the server names.
	Scopes []string
	// Store keeps the tokens; nil keeps them for this process only.
	Store *Store
	// OpenURL opens the authorization URL in a browser (session.OpenURL).
	OpenURL func(ctx context.Context, u string) error
	// Notify shows a person a line: the authorization URL to open, a
	// browser that did not start, a token file that could not be written.
	// It never gets a token.
	Notify func(msg string)
	// Redact is told every token and client secret as soon as it is known.
	Redact func(secrets ...string)
	// HTTPClient does the metadata, registration and token requests;
	// default a client with a 30 s timeout.
	HTTPClient *http.Client
	// CallbackTimeout bounds the wait for the browser; default 5 min.
	CallbackTimeout time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
}

func (c *Config) client() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return &http.Client{Timeout: 30 * time.Second}
}

func (c *Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *Config) notify(msg string) {
	if c.Notify != nil {
		c.Notify(msg)
	}
}

func (c *Config) redact(secrets ...string) {
	if c.Redact != nil {
		var nonEmpty []string
		for _, s := range secrets {
			if s != "" {
				nonEmpty = append(nonEmpty, s)
			}
		}
		c.Redact(nonEmpty...)
	}
}

// Token endpoint client authentication methods (RFC 6749 §2.3.1, RFC 7591).
const (
	methodBasic = "client_secret_basic"
	methodPost  = "client_secret_post"
	methodNone  = "none"
)

// ErrNoClient is a server whose authorization server offers no way to get
// a client: no client ID metadata documents (or none configured), no
// dynamic registration, and no --client-id.
var ErrNoClient = errors.New("the authorization server offers no client registration: pass --client-id (and --client-secret-env VAR) of a client registered with it")

// selectScopes is the MCP spec's scope selection: the challenge's scope,
// else the protected resource's scopes_supported, else none (the scope
// parameter is then left out); plus the configured extras and, on a
// step-up, the scopes asked for before.
func selectScopes(ch Challenge, d *discovery, extra, before []string) []string {
	var out []string
	switch {
	case ch.Params["scope"] != "":
		out = scopes(ch.Params["scope"])
	case d.PRM != nil && len(d.PRM.ScopesSupported) > 0:
		out = slices.Clone(d.PRM.ScopesSupported)
	}
	for _, s := range append(slices.Clone(extra), before...) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// authorize runs the whole authorization code flow for serverURL after ch
// (the 401 or 403 challenge; zero when logging in unasked): discovery, a
// client, the browser and the loopback redirect, the code exchange.
// before are the scopes of the token being replaced, for a step-up.
func (c *Config) authorize(ctx context.Context, serverURL string, ch Challenge, before []string) (*Entry, error) {
	hc := c.client()
	d, err := discover(ctx, hc, serverURL, ch)
	if err != nil {
		return nil, err
	}
	want := selectScopes(ch, d, c.Scopes, before)

	state, err := transport.GenerateState()
	if err != nil {
		return nil, err
	}
	verifier, err := transport.GenerateCodeVerifier()
	if err != nil {
		return nil, err
	}
	lb, err := listenLoopback(state)
	if err != nil {
		return nil, err
	}
	defer lb.close()
	redirect := lb.redirectURI()

	cl, err := c.chooseClient(ctx, hc, d, redirect, want)
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("response_type", "code")
	q.Set("client_id", cl.id)
	q.Set("redirect_uri", redirect)
	q.Set("state", state)
	q.Set("code_challenge", transport.GenerateCodeChallenge(verifier))
	q.Set("code_challenge_method", "S256")
	if len(want) > 0 {
		q.Set("scope", strings.Join(want, " "))
	}
	q.Set("resource", d.Resource)
	authURL := d.AS.AuthorizationEndpoint
	if strings.Contains(authURL, "?") {
		authURL += "&" + q.Encode()
	} else {
		authURL += "?" + q.Encode()
	}

	wait := c.CallbackTimeout
	if wait <= 0 {
		wait = 5 * time.Minute
	}
	msg := "authorize mcpterm with " + serverURL + " in your browser: " + authURL
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
		// Inside a connect or a call, its timeout bounds the wait.
		msg += fmt.Sprintf(" (within %s; 'mcpterm auth login --url %s' waits %s)", time.Until(dl).Round(time.Second), serverURL, wait)
	}
	c.notify(msg)
	if c.OpenURL != nil {
		// Not waited for: a browser started directly may run until it is
		// closed. A headless opener that follows the redirect ends by itself.
		go func() {
			if err := c.OpenURL(ctx, authURL); err != nil && ctx.Err() == nil {
				c.notify("could not open a browser (" + err.Error() + "); open the URL above yourself")
			}
		}()
	}
	wctx, cancel := context.WithTimeoutCause(ctx, wait, fmt.Errorf("no answer from the browser within %s", wait))
	defer cancel()
	code, err := lb.wait(wctx)
	if err != nil {
		return nil, err
	}

	form := url.Values{}
	form.Set("grant_type", "authorization_code")
	form.Set("code", code)
	form.Set("redirect_uri", redirect)
	form.Set("code_verifier", verifier)
	form.Set("resource", d.Resource)
	e := &Entry{
		ServerURL: serverURL, Scopes: want,
		ClientID: cl.id, ClientSecret: cl.secret, AuthMethod: cl.method,
		TokenEndpoint: d.AS.TokenEndpoint, Resource: d.Resource, Issuer: d.AS.Issuer,
	}
	if err := c.tokenRequest(ctx, hc, e, form); err != nil {
		return nil, err
	}
	return e, nil
}

// oauthClient is the client the flow authorizes as.
type oauthClient struct {
	id, secret, method string
}

// chooseClient picks the client: a pre-registered one, else the client ID
// metadata document where the server supports them, else dynamic
// registration.
func (c *Config) chooseClient(ctx context.Context, hc *http.Client, d *discovery, redirect string, want []string) (oauthClient, error) {
	supported := d.AS.TokenEndpointAuthMethodsSupported
	switch {
	case c.ClientID != "":
		return oauthClient{id: c.ClientID, secret: c.ClientSecret, method: secretMethod(c.ClientSecret, "", supported)}, nil
	case d.AS.CIMDSupported && c.ClientMetadataURL != "":
		return oauthClient{id: c.ClientMetadataURL, method: methodNone}, nil
	case d.AS.RegistrationEndpoint != "":
		return c.register(ctx, hc, d, redirect, want)
	}
	return oauthClient{}, ErrNoClient
}

// secretMethod picks how the client authenticates at the token endpoint:
// none without a secret, the registered method if there is one, else what
// the server supports (client_secret_basic first; it is RFC 8414's default
// when the server says nothing).
func secretMethod(secret, registered string, supported []string) string {
	if secret == "" {
		return methodNone
	}
	if registered == methodBasic || registered == methodPost || registered == methodNone {
		return registered
	}
	switch {
	case len(supported) == 0, slices.Contains(supported, methodBasic):
		return methodBasic
	case slices.Contains(supported, methodPost):
		return methodPost
	case slices.Contains(supported, methodNone):
		return methodNone
	}
	return methodBasic
}

// register is RFC 7591 dynamic client registration.
func (c *Config) register(ctx context.Context, hc *http.Client, d *discovery, redirect string, want []string) (oauthClient, error) {
	supported := d.AS.TokenEndpointAuthMethodsSupported
	asked := methodNone
	if len(supported) > 0 && !slices.Contains(supported, methodNone) {
		asked = secretMethod("x", "", supported)
	}
	name := c.ClientName
	if name == "" {
		name = "mcpterm"
	}
	body := map[string]any{
		"client_name":                name,
		"redirect_uris":              []string{redirect},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": asked,
	}
	if len(want) > 0 {
		body["scope"] = strings.Join(want, " ")
	}
	raw, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.AS.RegistrationEndpoint, bytes.NewReader(raw))
	if err != nil {
		return oauthClient{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return oauthClient{}, fmt.Errorf("client registration: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDocBytes))
	if err != nil {
		return oauthClient{}, fmt.Errorf("client registration: %w", err)
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return oauthClient{}, fmt.Errorf("client registration at %s: %s %s", d.AS.RegistrationEndpoint, resp.Status, oauthErrorText(data))
	}
	var got struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		Method       string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(data, &got); err != nil || got.ClientID == "" {
		return oauthClient{}, fmt.Errorf("client registration at %s: the answer has no client_id", d.AS.RegistrationEndpoint)
	}
	c.redact(got.ClientSecret)
	return oauthClient{id: got.ClientID, secret: got.ClientSecret, method: secretMethod(got.ClientSecret, got.Method, supported)}, nil
}

// tokenRequest posts form to e's token endpoint with e's client
// authentication and fills e from the answer.
func (c *Config) tokenRequest(ctx context.Context, hc *http.Client, e *Entry, form url.Values) error {
	switch e.AuthMethod {
	case methodBasic:
	case methodPost:
		form.Set("client_id", e.ClientID)
		form.Set("client_secret", e.ClientSecret)
	default:
		form.Set("client_id", e.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if e.AuthMethod == methodBasic {
		// RFC 6749 §2.3.1: form-encoded before they become the Basic pair.
		req.SetBasicAuth(url.QueryEscape(e.ClientID), url.QueryEscape(e.ClientSecret))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("token request: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDocBytes))
	if err != nil {
		return fmt.Errorf("token request: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("token request at %s: %s %s", e.TokenEndpoint, resp.Status, oauthErrorText(data))
	}
	var tok struct {
		AccessToken  string      `json:"access_token"`
		TokenType    string      `json:"token_type"`
		RefreshToken string      `json:"refresh_token"`
		ExpiresIn    json.Number `json:"expires_in"`
		Scope        string      `json:"scope"`
		Error        string      `json:"error"`
	}
	if err := json.Unmarshal(data, &tok); err != nil {
		return fmt.Errorf("token request at %s: the answer is not JSON", e.TokenEndpoint)
	}
	if tok.Error != "" || tok.AccessToken == "" {
		return fmt.Errorf("token request at %s: no access token %s", e.TokenEndpoint, oauthErrorText(data))
	}
	c.redact(tok.AccessToken, tok.RefreshToken)
	if tok.TokenType != "" && !strings.EqualFold(tok.TokenType, "bearer") {
		return fmt.Errorf("token request at %s: token type %q is not Bearer", e.TokenEndpoint, clip(tok.TokenType))
	}
	e.AccessToken = tok.AccessToken
	e.TokenType = "Bearer"
	if tok.RefreshToken != "" {
		e.RefreshToken = tok.RefreshToken
	}
	e.ExpiresAt = time.Time{}
	if n, err := tok.ExpiresIn.Int64(); err == nil && n > 0 && n < 10*365*24*3600 {
		e.ExpiresAt = c.now().Add(time.Duration(n) * time.Second).UTC()
	}
	e.Granted = nil
	if tok.Scope != "" {
		e.Granted = scopes(tok.Scope)
	}
	return nil
}

// refresh trades e's refresh token for a new access token, in place.
func (c *Config) refresh(ctx context.Context, e *Entry) error {
	if e.RefreshToken == "" || e.TokenEndpoint == "" {
		return errors.New("no refresh token")
	}
	form := url.Values{}
	form.Set("grant_type", "refresh_token")
	form.Set("refresh_token", e.RefreshToken)
	if e.Resource != "" {
		form.Set("resource", e.Resource)
	}
	return c.tokenRequest(ctx, c.client(), e, form)
}

// oauthErrorText is an OAuth error answer's code and description, cut
// short; nothing for another body (it may echo secrets back).
func oauthErrorText(body []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == "" {
		return ""
	}
	s := "(" + clip(e.Error)
	if e.Description != "" {
		s += ": " + clip(e.Description)
	}
	return s + ")"
}
