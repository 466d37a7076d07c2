// Package authtest is an OAuth-protected MCP server for tests: one
// httptest server that is both the protected resource (an mcp-go
// streamable HTTP server at /mcp behind a bearer check) and its
// authorization server (metadata, dynamic registration, an authorize
// endpoint that approves at once by redirecting with a code, and a token
// endpoint with PKCE, refresh tokens and scopes). It counts what clients do
// so tests can assert on it.
package authtest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options shape the server.
type Options struct {
	// ExpiresIn is the access tokens' lifetime in seconds (0: 3600).
	ExpiresIn int
	// Refresh makes the token endpoint hand out refresh tokens.
	Refresh bool
	// ToolScopes are the scopes tools/call needs (a 403 insufficient_scope
	// names them); nil: any valid token will do.
	ToolScopes []string
	// EscalateForever makes every tools/call answer 403
	// insufficient_scope asking for one scope more than before.
	EscalateForever bool
}

// Server is the running test server.
type Server struct {
	*httptest.Server
	opts Options

	mu         sync.Mutex
	codes      map[string]grant // code -> what was asked
	tokens     map[string]grant // access token -> grant
	refreshes  map[string]grant // refresh token -> grant
	authorizes int
	refreshed  int
	escalation int
	issued     []string // every token value handed out (access and refresh)
}

type grant struct {
	scopes    []string
	challenge string
	clientID  string
}

// New starts a server; Close it when done.
func New(opts Options) *Server {
	s := &Server{opts: opts, codes: map[string]grant{}, tokens: map[string]grant{}, refreshes: map[string]grant{}}
	mcpSrv := server.NewMCPServer("authtest", "1.0.0", server.WithToolCapabilities(false))
	mcpSrv.AddTool(mcp.NewTool("whoami", mcp.WithDescription("says hello"), mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("hello"), nil
		})
	stream := server.NewStreamableHTTPServer(mcpSrv, server.WithStateLess(true))
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.protect(stream))
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", s.prm)
	mux.HandleFunc("/.well-known/oauth-protected-resource/sse", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"resource": s.URL, "authorization_servers": []string{s.URL}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", s.asMetadata)
	mux.HandleFunc("/authorize", s.authorize)
	mux.HandleFunc("/token", s.token)
	mux.HandleFunc("/register", s.register)
	s.Server = httptest.NewServer(mux)
	// The legacy HTTP+SSE transport at /sse (its messages at /message),
	// behind the same check.
	sse := server.NewSSEServer(mcpSrv, server.WithBaseURL(s.URL))
	mux.Handle("/sse", s.protect(sse.SSEHandler()))
	mux.Handle("/message", s.protect(sse.MessageHandler()))
	return s
}

// MCPURL is the streamable HTTP endpoint.
func (s *Server) MCPURL() string { return s.URL + "/mcp" }

// SSEURL is the legacy HTTP+SSE endpoint.
func (s *Server) SSEURL() string { return s.URL + "/sse" }

// Authorizes is how many authorization requests came.
func (s *Server) Authorizes() int { s.mu.Lock(); defer s.mu.Unlock(); return s.authorizes }

// Refreshed is how many refresh grants came.
func (s *Server) Refreshed() int { s.mu.Lock(); defer s.mu.Unlock(); return s.refreshed }

// Issued is every token value handed out, access and refresh.
func (s *Server) Issued() []string { s.mu.Lock(); defer s.mu.Unlock(); return slices.Clone(s.issued) }

// Expire makes every access token issued so far invalid (refresh tokens
// stay good).
func (s *Server) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.tokens)
}

func (s *Server) prm(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{"resource": s.MCPURL(), "authorization_servers": []string{s.URL}})
}

func (s *Server) asMetadata(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{
		"issuer": s.URL, "authorization_endpoint": s.URL + "/authorize", "token_endpoint": s.URL + "/token",
		"registration_endpoint": s.URL + "/register", "response_types_supported": []string{"code"},
		"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
		"grant_types_supported": []string{"authorization_code", "refresh_token"},
	})
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 201, map[string]any{"client_id": "client-" + random(), "token_endpoint_auth_method": "none"})
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", 400)
		return
	}
	code := random()
	s.mu.Lock()
	s.authorizes++
	s.codes[code] = grant{scopes: strings.Fields(q.Get("scope")), challenge: q.Get("code_challenge"), clientID: q.Get("client_id")}
	s.mu.Unlock()
	rq := redirect.Query()
	rq.Set("code", code)
	rq.Set("state", q.Get("state"))
	redirect.RawQuery = rq.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, 400, map[string]string{"error": "invalid_request"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var g grant
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		var ok bool
		g, ok = s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		var ok bool
		g, ok = s.refreshes[r.PostForm.Get("refresh_token")]
		if !ok {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
		s.refreshed++
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	tok := "at-" + random()
	s.tokens[tok] = g
	s.issued = append(s.issued, tok)
	exp := s.opts.ExpiresIn
	if exp == 0 {
		exp = 3600
	}
	ans := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": exp, "scope": strings.Join(g.scopes, " ")}
	if s.opts.Refresh {
		rt := "rt-" + random()
		s.refreshes[rt] = g
		s.issued = append(s.issued, rt)
		ans["refresh_token"] = rt
	}
	writeJSON(w, 200, ans)
}

// protect is the bearer check in front of /mcp.
func (s *Server) protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		prm := s.URL + "/.well-known/oauth-protected-resource/mcp"
		if r.URL.Path != "/mcp" {
			prm = s.URL + "/.well-known/oauth-protected-resource/sse"
		}
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		g, valid := s.tokens[tok]
		s.mu.Unlock()
		if !ok || !valid {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s"`, prm))
			writeJSON(w, 401, map[string]string{"error": "invalid_token"})
			return
		}
		if r.Method == http.MethodPost && (s.opts.ToolScopes != nil || s.opts.EscalateForever) {
			var body struct {
				Method string `json:"method"`
			}
			raw, _ := readAll(r)
			_ = json.Unmarshal(raw, &body)
			if body.Method == "tools/call" {
				need := s.opts.ToolScopes
				if s.opts.EscalateForever {
					s.mu.Lock()
					s.escalation++
					need = []string{fmt.Sprintf("level%d", s.escalation)}
					s.mu.Unlock()
				}
				for _, sc := range need {
					if !slices.Contains(g.scopes, sc) {
						w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s"`, strings.Join(need, " "), prm))
						writeJSON(w, 403, map[string]string{"error": "insufficient_scope"})
						return
					}
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func random() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
