package gateway

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The defaults of HTTPOptions. They bound what one peer can make the
// gateway hold: a request body in memory, a connection that sends slowly,
// an abandoned session.
const (
	DefaultMaxBody        = 4 << 20 // bytes of one request body
	DefaultMaxHeaderBytes = 64 << 10
	DefaultHeaderTimeout  = 10 * time.Second
	DefaultBodyTimeout    = 30 * time.Second
	DefaultIdleTimeout    = 2 * time.Minute
	DefaultMaxSessions    = 64
	DefaultSessionIdle    = 30 * time.Minute
)

// MinTokenLength is the shortest bearer token the gateway accepts: shorter
// ones can be guessed.
const MinTokenLength = 16

// HTTPOptions guard and bound the streamable HTTP endpoint. The zero value
// is the defaults: no token, browsers only from the gateway's own loopback
// origin, and the Default* bounds.
type HTTPOptions struct {
	// Token, when set, must come with every request as
	// "Authorization: Bearer TOKEN" (compared in constant time); any other
	// request gets 401.
	Token string
	// InsecureNoAuth lets a listener off loopback serve without a Token
	// (mcpterm serve --insecure-no-auth). Without it ServeStreamableWith
	// refuses one: anyone who can reach the port could call every tool.
	InsecureNoAuth bool
	// AllowOrigins are browser origins (scheme://host[:port], as ParseOrigin
	// reads them) allowed besides the gateway's own loopback ones. A
	// request with any other Origin header gets 403: a web page a user
	// visits must not reach a local gateway (DNS rebinding).
	AllowOrigins []string
	// MaxBody bounds a request body in bytes (413 beyond it); the body is
	// never read past it.
	MaxBody int64
	// MaxHeaderBytes bounds the request line and headers (431 beyond it).
	MaxHeaderBytes int
	// HeaderTimeout bounds receiving a request's headers, BodyTimeout its
	// body (408), and IdleTimeout how long a kept-alive connection may wait
	// for its next request. None applies while a response streams, so SSE
	// streams and long calls are not cut.
	HeaderTimeout, BodyTimeout, IdleTimeout time.Duration
	// MaxSessions caps the sessions open at once (the idlest makes room;
	// 503 when every one is busy: sessions.reserve). A
	// 2026-07-28 request, which is its own session, counts while it runs.
	MaxSessions int
	// SessionIdle ends a session nothing has used for that long (its next
	// request gets 404, so the client starts a new one); negative keeps
	// sessions until the client deletes them.
	SessionIdle time.Duration
	// Loop, when set, sees every request's headers; an error means the
	// request comes from this gateway itself through one of its own
	// upstreams (session/fleet sends its chain in a header, as it puts it
	// in a stdio upstream's environment), and the request gets 508 Loop
	// Detected with the error's text instead of being served again, which
	// would list the gateway's tools into itself without end.
	Loop func(http.Header) error
}

// withDefaults fills in the defaults and puts AllowOrigins in the form
// ParseOrigin gives, refusing one it cannot read.
func (o HTTPOptions) withDefaults() (HTTPOptions, error) {
	allowed := make([]string, 0, len(o.AllowOrigins))
	for _, s := range o.AllowOrigins {
		origin, err := ParseOrigin(s)
		if err != nil {
			return o, err
		}
		allowed = append(allowed, origin)
	}
	o.AllowOrigins = allowed
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	def(&o.HeaderTimeout, DefaultHeaderTimeout)
	def(&o.BodyTimeout, DefaultBodyTimeout)
	def(&o.IdleTimeout, DefaultIdleTimeout)
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionIdle == 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	if o.Token != "" && len(o.Token) < MinTokenLength {
		return o, fmt.Errorf("the bearer token has %d characters; at least %d are needed", len(o.Token), MinTokenLength)
	}
	return o, nil
}

// ErrNeedsToken is CheckListener's error for a listener off loopback with
// no token.
var ErrNeedsToken = errors.New("a listener off loopback needs a bearer token")

// CheckListener says whether o may serve a listener at addr: off loopback
// (a non-TCP address counts as off) only with a Token or InsecureNoAuth.
// ServeStreamableWith checks it, so no face can serve without a token by
// forgetting to; a face calls it first to word the refusal its own way.
func (o HTTPOptions) CheckListener(addr net.Addr) error {
	if o.Token == "" && !o.InsecureNoAuth && !IsLoopback(addr) {
		return fmt.Errorf("serving HTTP on %v: %w (HTTPOptions.Token; InsecureNoAuth serves without one)", addr, ErrNeedsToken)
	}
	return nil
}

// IsLoopback says whether a listener's address is a loopback one, so only
// this machine can reach it.
func IsLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return false
	}
	ip, ok := netip.AddrFromSlice(tcp.IP)
	return ok && ip.Unmap().IsLoopback()
}

// heartbeat is how often an open GET stream gets a ping: it keeps the
// session in use, so idle expiry ends only sessions nobody listens to.
func (o HTTPOptions) heartbeat() time.Duration {
	if o.SessionIdle <= 0 {
		return 0
	}
	return min(o.SessionIdle/3, 30*time.Second)
}

// ParseOrigin reads a browser origin, scheme://host[:port] with scheme http
// or https and nothing after the authority, as Origin headers carry it. It
// returns the origin in the one form the gateway compares: lower case,
// without the scheme's default port.
func ParseOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("origin %q: %v", s, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("origin %q: want http://HOST[:PORT] or https://HOST[:PORT]", s)
	}
	if u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", fmt.Errorf("origin %q: want only scheme://host[:port], no user, path or query", s)
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return "", fmt.Errorf("origin %q: bad port %q", s, port)
		}
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, nil
}

// ownOrigins are the origins of pages the gateway itself could serve: http
// on a loopback name and the listener's port.
func ownOrigins(addr net.Addr) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return nil
	}
	hosts := []string{"localhost", "127.0.0.1", "::1"}
	if IsLoopback(addr) {
		ip, _ := netip.AddrFromSlice(tcp.IP)
		hosts = append(hosts, ip.Unmap().String())
	}
	var out []string
	for _, h := range hosts {
		if o, err := ParseOrigin("http://" + net.JoinHostPort(h, strconv.Itoa(tcp.Port))); err == nil {
			out = append(out, o)
		}
	}
	return out
}

// guard is the HTTP front of the gateway: every request passes its checks,
// in order (origin, token, body, session cap), before mcp-go sees it.
type guard struct {
	next     http.Handler
	o        HTTPOptions
	token    [sha256.Size]byte // of o.Token
	origins  map[string]bool
	sessions *sessions
}

// newGuard guards next with o (as withDefaults gives it) for a listener
// at addr.
func newGuard(next http.Handler, o HTTPOptions, addr net.Addr, ss *sessions) *guard {
	g := &guard{next: next, o: o, origins: map[string]bool{}, sessions: ss}
	if o.Token != "" {
		g.token = sha256.Sum256([]byte(o.Token))
	}
	for _, origin := range o.AllowOrigins {
		g.origins[origin] = true
	}
	for _, origin := range ownOrigins(addr) {
		g.origins[origin] = true
	}
	return g
}

// tokenMatches compares a presented credential with the token in constant
// time. Both are hashed first, so neither the length of the token nor how
// much of it a guess got right shows in the time taken.
func tokenMatches(want [sha256.Size]byte, got string) bool {
	sum := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(want[:], sum[:]) == 1
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	origins := r.Header.Values("Origin")
	if len(origins) > 1 {
		refuse(w, http.StatusForbidden, nil, "more than one Origin header")
		return
	}
	if len(origins) == 1 {
		origin, err := ParseOrigin(origins[0])
		if err != nil || !g.origins[origin] {
			refuse(w, http.StatusForbidden, nil, fmt.Sprintf("origin %q is not allowed (mcpterm serve --allow-origin allows one)", origins[0]))
			return
		}
	}
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if g.o.Token != "" && !preflight {
		scheme, cred, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || !tokenMatches(g.token, strings.TrimSpace(cred)) {
			challenge := `Bearer realm="mcpterm"`
			msg := "this gateway needs Authorization: Bearer TOKEN"
			if cred != "" {
				challenge += `, error="invalid_token"`
				msg = "the bearer token is not this gateway's"
			}
			w.Header().Set("WWW-Authenticate", challenge)
			refuse(w, http.StatusUnauthorized, nil, msg)
			return
		}
	}
	if g.o.Loop != nil {
		if err := g.o.Loop(r.Header); err != nil {
			refuse(w, http.StatusLoopDetected, nil, err.Error())
			return
		}
	}
	var body []byte
	if r.Method == http.MethodPost {
		var ok bool
		if body, ok = g.readBody(w, r); !ok {
			return
		}
		r.Body = http.NoBody
		if len(body) > 0 {
			r.Body = readCloser{bytes.NewReader(body)}
		}
		r.ContentLength = int64(len(body))
	}
	ctx, release, err := g.sessions.admit(r, body)
	if err != nil {
		var id any
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(body, &m) == nil && len(m.ID) > 0 {
			id = m.ID
		}
		if errors.Is(err, errUnknownSession) {
			refuse(w, http.StatusNotFound, id, err.Error())
			return
		}
		w.Header().Set("Retry-After", "10")
		refuse(w, http.StatusServiceUnavailable, id, err.Error())
		return
	}
	defer release()
	g.next.ServeHTTP(w, r.WithContext(ctx))
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// readBody reads a POST's body whole, at most MaxBody bytes and within
// BodyTimeout; it answers the request itself (413, 408, 400) and returns
// false when it cannot. The read deadline is lifted after a body read
// whole: it bounds receiving the request, never the answer streamed back.
func (g *guard) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	rc := http.NewResponseController(w)
	fail := func(status int, msg string) ([]byte, bool) {
		// The rest of the body is not waited for: net/http would read on to
		// drain a small one after the answer, for as long as a slow client
		// kept trickling it.
		_ = rc.SetReadDeadline(time.Now())
		w.Header().Set("Connection", "close")
		refuse(w, status, nil, msg)
		return nil, false
	}
	tooBig := fmt.Sprintf("the request body is over the gateway's limit of %d bytes (mcpterm serve --max-body)", g.o.MaxBody)
	if r.ContentLength > g.o.MaxBody {
		return fail(http.StatusRequestEntityTooLarge, tooBig)
	}
	_ = rc.SetReadDeadline(time.Now().Add(g.o.BodyTimeout))
	body, err := readAll(http.MaxBytesReader(w, r.Body, g.o.MaxBody), r.ContentLength, g.o.MaxBody)
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case err == nil:
		_ = rc.SetReadDeadline(time.Time{})
		return body, true
	case errors.As(err, &mbe):
		return fail(http.StatusRequestEntityTooLarge, tooBig)
	case errors.As(err, &ne) && ne.Timeout():
		return fail(http.StatusRequestTimeout, fmt.Sprintf("the request body did not arrive within %v", g.o.BodyTimeout))
	default:
		return fail(http.StatusBadRequest, "reading the request body: "+err.Error())
	}
}

// readAll reads r to its end into one buffer: of the announced length
// when there is one, else doubling from 64 KB but never past max+1 bytes
// (what it takes to see a body is too long), so refusing an endless body
// costs about 2×max, not the 4×max of a buffer doubling past the limit.
func readAll(r io.Reader, length, max int64) ([]byte, error) {
	size := int64(64 << 10)
	if length >= 0 {
		size = length + 1 // room to read the EOF
	}
	buf := make([]byte, 0, min(size, max+1))
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(cap(buf)), max+1-int64(cap(buf))))+1)
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// codeRefused is the JSON-RPC error code of every refusal (one in the
// range JSON-RPC leaves to servers); the HTTP status tells them apart.
const codeRefused = -32000

// refuse answers with an HTTP status and a JSON-RPC error saying why, so
// MCP clients show the reason and plain HTTP clients see the status.
func refuse(w http.ResponseWriter, status int, id any, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": codeRefused, "message": "mcpterm gateway: " + msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// streamableOptions are mcp-go's options for o: sessions this gateway
// tracks (so the cap and expiry hold), idle expiry with a heartbeat on
// open streams, and CORS for the allowed browser origins.
func streamableOptions(o HTTPOptions, ss *sessions) []server.StreamableHTTPOption {
	opts := []server.StreamableHTTPOption{server.WithSessionIdManagerResolver(ss)}
	if o.SessionIdle > 0 {
		opts = append(opts, server.WithSessionIdleTTL(o.SessionIdle), server.WithHeartbeatInterval(o.heartbeat()))
	}
	if len(o.AllowOrigins) > 0 {
		opts = append(opts, server.WithStreamableHTTPCORS(
			server.WithCORSAllowedOrigins(o.AllowOrigins...),
			server.WithCORSAllowedHeaders("Content-Type", "Authorization", server.HeaderKeySessionID, mcp.HeaderProtocolVersion, "Last-Event-ID"),
		))
	}
	return opts
}
