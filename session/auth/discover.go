package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
)

// maxDocBytes bounds a metadata document or token answer.
const maxDocBytes = 1 << 20

// resourceMetadata is an RFC 9728 protected resource metadata document.
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
}

// serverMetadata is RFC 8414 authorization server metadata plus the
// client ID metadata document flag mcp-go's type lacks.
type serverMetadata struct {
	transport.AuthServerMetadata
	CIMDSupported bool `json:"client_id_metadata_document_supported,omitempty"`
}

// discovery is what the flow learnt about where and how to authorize.
type discovery struct {
	Resource string // the RFC 8707 resource indicator
	PRM      *resourceMetadata
	AS       serverMetadata
	Legacy   bool // no PRM: the 2025-03-26 rules (the server's base is the AS)
}

// getJSON fetches u into v, bounded; found is false for a 4xx answer (the
// document is not there) and err is set for anything worse.
func getJSON(ctx context.Context, hc *http.Client, u string, v any) (found bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocBytes+1))
	if err != nil {
		return false, fmt.Errorf("GET %s: %w", u, err)
	}
	if len(body) > maxDocBytes {
		return false, fmt.Errorf("GET %s: the document is larger than %d bytes", u, maxDocBytes)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return false, fmt.Errorf("GET %s: not a JSON metadata document: %v", u, err)
	}
	return true, nil
}

// checkHTTPURL refuses a URL from a server that is not absolute http(s).
func checkHTTPURL(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s %q is not an http(s) URL", what, clip(raw))
	}
	return u, nil
}

// prmURLs are where RFC 9728 §3.1 puts protected resource metadata for
// serverURL: the path-suffixed well-known URL first, then the root one.
func prmURLs(serverURL *url.URL) []string {
	base := url.URL{Scheme: serverURL.Scheme, Host: serverURL.Host}
	var out []string
	if p := strings.Trim(serverURL.Path, "/"); p != "" {
		base.Path = "/.well-known/oauth-protected-resource/" + p
		out = append(out, base.String())
	}
	base.Path = "/.well-known/oauth-protected-resource"
	return append(out, base.String())
}

// asMetadataURLs are where the metadata of the authorization server issuer
// may be, in the MCP spec's order: RFC 8414 with the path inserted, OpenID
// discovery with the path inserted, OpenID discovery with it appended (for
// an issuer without a path, the two root documents).
func asMetadataURLs(issuer *url.URL) []string {
	base := url.URL{Scheme: issuer.Scheme, Host: issuer.Host}
	p := strings.Trim(issuer.Path, "/")
	if p == "" {
		base.Path = "/.well-known/oauth-authorization-server"
		a := base.String()
		base.Path = "/.well-known/openid-configuration"
		return []string{a, base.String()}
	}
	var out []string
	for _, path := range []string{
		"/.well-known/oauth-authorization-server/" + p,
		"/.well-known/openid-configuration/" + p,
		"/" + p + "/.well-known/openid-configuration",
	} {
		base.Path = path
		out = append(out, base.String())
	}
	return out
}

// discover finds the protected resource metadata (from the challenge's
// resource_metadata, else the well-known URLs) and the authorization
// server's metadata. Without protected resource metadata it follows the
// 2025-03-26 rules, which mcp-go only half has: the server's origin is the
// authorization server, its metadata at the origin's well-known URL (its
// issuer may name a sub-path), else the default endpoints /authorize,
// /token and /register at the origin.
func discover(ctx context.Context, hc *http.Client, serverURL string, ch Challenge) (*discovery, error) {
	su, err := checkHTTPURL("server URL", serverURL)
	if err != nil {
		return nil, err
	}
	d := &discovery{}
	var candidates []string
	if rm := ch.Params["resource_metadata"]; rm != "" {
		if _, err := checkHTTPURL("resource_metadata", rm); err != nil {
			return nil, err
		}
		candidates = append(candidates, rm)
	}
	candidates = append(candidates, prmURLs(su)...)
	for _, u := range candidates {
		var prm resourceMetadata
		found, err := getJSON(ctx, hc, u, &prm)
		if err != nil {
			return nil, fmt.Errorf("protected resource metadata: %w", err)
		}
		if found {
			d.PRM = &prm
			break
		}
	}
	if d.PRM != nil {
		if len(d.PRM.AuthorizationServers) == 0 {
			return nil, errors.New("the protected resource metadata names no authorization server")
		}
		if d.PRM.Resource != "" && !resourceCovers(d.PRM.Resource, su) {
			return nil, fmt.Errorf("the protected resource metadata is for %q, not for %s: refusing to authorize", clip(d.PRM.Resource), su.Redacted())
		}
		d.Resource = d.PRM.Resource
		if d.Resource == "" {
			d.Resource = canonicalResource(su)
		}
		issuer, err := checkHTTPURL("authorization server", d.PRM.AuthorizationServers[0])
		if err != nil {
			return nil, err
		}
		ok, err := fetchASMetadata(ctx, hc, issuer, &d.AS)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("authorization server %s publishes no metadata (tried RFC 8414 and OpenID discovery)", issuer.Redacted())
		}
		if d.AS.Issuer != "" && strings.TrimSuffix(d.AS.Issuer, "/") != strings.TrimSuffix(issuer.String(), "/") {
			return nil, fmt.Errorf("authorization server metadata names issuer %q, not %s", clip(d.AS.Issuer), issuer.Redacted())
		}
	} else {
		d.Legacy = true
		d.Resource = canonicalResource(su)
		origin := &url.URL{Scheme: su.Scheme, Host: su.Host}
		ok, err := fetchASMetadata(ctx, hc, origin, &d.AS)
		if err != nil {
			return nil, err
		}
		if !ok {
			o := origin.String()
			d.AS.Issuer = o
			d.AS.AuthorizationEndpoint = o + "/authorize"
			d.AS.TokenEndpoint = o + "/token"
			d.AS.RegistrationEndpoint = o + "/register"
		}
	}
	for what, u := range map[string]string{
		"authorization_endpoint": d.AS.AuthorizationEndpoint,
		"token_endpoint":         d.AS.TokenEndpoint,
	} {
		if _, err := checkHTTPURL(what, u); err != nil {
			return nil, fmt.Errorf("authorization server metadata: %w", err)
		}
	}
	if d.AS.RegistrationEndpoint != "" {
		if _, err := checkHTTPURL("registration_endpoint", d.AS.RegistrationEndpoint); err != nil {
			d.AS.RegistrationEndpoint = ""
		}
	}
	if m := d.AS.CodeChallengeMethodsSupported; len(m) > 0 && !contains(m, "S256") {
		return nil, errors.New("the authorization server does not support PKCE S256, which MCP requires")
	}
	return d, nil
}

func fetchASMetadata(ctx context.Context, hc *http.Client, issuer *url.URL, into *serverMetadata) (bool, error) {
	for _, u := range asMetadataURLs(issuer) {
		found, err := getJSON(ctx, hc, u, into)
		if err != nil {
			return false, fmt.Errorf("authorization server metadata: %w", err)
		}
		if found {
			return true, nil
		}
	}
	return false, nil
}

// canonicalResource is the server URL as an RFC 8707 resource: no
// fragment, no query, lower-case scheme and host.
func canonicalResource(u *url.URL) string {
	c := url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host), Path: u.Path}
	return c.String()
}

// resourceCovers says whether the resource named by the metadata is the
// server or a parent of it (same origin, a path prefix at a / boundary).
func resourceCovers(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !strings.EqualFold(r.Scheme, server.Scheme) || !strings.EqualFold(r.Host, server.Host) {
		return false
	}
	rp := strings.TrimSuffix(r.Path, "/")
	sp := strings.TrimSuffix(server.Path, "/")
	return rp == "" || rp == sp || strings.HasPrefix(sp, rp+"/")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// clip shortens text from a server for an error message.
func clip(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
