package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Hostile or broken metadata is a clear error naming what is wrong, never
// a flow that opens a non-http URL.
func TestDiscoverRefusesBadMetadata(t *testing.T) {
	cases := []struct {
		name, prm, as, want string
	}{
		{"as not http", `{"resource":"%s/mcp","authorization_servers":["javascript:alert(1)"]}`, ``, "not an http(s) URL"},
		{"no as", `{"resource":"%s/mcp","authorization_servers":[]}`, ``, "names no authorization server"},
		{"resource elsewhere", `{"resource":"https://evil.example/mcp","authorization_servers":["%s"]}`, ``, "refusing to authorize"},
		{"endpoint not http", `{"resource":"%s/mcp","authorization_servers":["%s"]}`, `{"issuer":"%s","authorization_endpoint":"file:///etc/passwd","token_endpoint":"%s/token"}`, "authorization_endpoint"},
		{"issuer mismatch", `{"resource":"%s/mcp","authorization_servers":["%s"]}`, `{"issuer":"https://other.example","authorization_endpoint":"%s/a","token_endpoint":"%s/t"}`, "names issuer"},
		{"no S256", `{"resource":"%s/mcp","authorization_servers":["%s"]}`, `{"issuer":"%s","authorization_endpoint":"%s/a","token_endpoint":"%s/t","code_challenge_methods_supported":["plain"]}`, "S256"},
		{"not json", `<html>`, ``, "not a JSON metadata document"},
		{"huge", strings.Repeat(" ", maxDocBytes+10) + `{}`, ``, "larger than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var srv *httptest.Server
			fill := func(doc string) string { return strings.ReplaceAll(doc, "%s", srv.URL) }
			srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case strings.HasPrefix(r.URL.Path, "/.well-known/oauth-protected-resource"):
					w.Write([]byte(fill(c.prm)))
				case strings.HasPrefix(r.URL.Path, "/.well-known/oauth-authorization-server") && c.as != "":
					w.Write([]byte(fill(c.as)))
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := discover(ctx, srv.Client(), srv.URL+"/mcp", Challenge{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v, want %q", err, c.want)
			}
		})
	}
}

func TestSelectScopes(t *testing.T) {
	d := &discovery{PRM: &resourceMetadata{ScopesSupported: []string{"a", "b"}}}
	if got := selectScopes(Challenge{Params: map[string]string{"scope": "x"}}, d, nil, nil); strings.Join(got, " ") != "x" {
		t.Errorf("challenge scope: %v", got)
	}
	if got := selectScopes(Challenge{}, d, nil, nil); strings.Join(got, " ") != "a b" {
		t.Errorf("scopes_supported: %v", got)
	}
	if got := selectScopes(Challenge{}, &discovery{}, nil, nil); len(got) != 0 {
		t.Errorf("neither: %v", got)
	}
	if got := selectScopes(Challenge{Params: map[string]string{"scope": "w"}}, d, []string{"extra"}, []string{"x"}); strings.Join(got, " ") != "w extra x" {
		t.Errorf("step-up union: %v", got)
	}
}

func TestSecretMethod(t *testing.T) {
	for _, c := range []struct {
		secret, registered string
		supported          []string
		want               string
	}{
		{"", "", []string{"client_secret_basic"}, "none"},
		{"s", "client_secret_post", []string{"client_secret_basic"}, "client_secret_post"},
		{"s", "", nil, "client_secret_basic"},
		{"s", "", []string{"client_secret_post"}, "client_secret_post"},
		{"s", "", []string{"none"}, "none"},
	} {
		if got := secretMethod(c.secret, c.registered, c.supported); got != c.want {
			t.Errorf("%+v: %s", c, got)
		}
	}
}
