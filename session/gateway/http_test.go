package gateway

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session"
)

const testToken = "test-token-0123456789"

// echoServer is a small upstream for the HTTP tests: echo answers at once,
// wait after the given number of milliseconds.
func echoServer() *server.MCPServer {
	s := server.NewMCPServer("echo", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echo the text."), mcp.WithString("text", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false)),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("echo: " + req.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("wait", mcp.WithDescription("Answer after ms milliseconds."), mcp.WithNumber("ms", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-time.After(time.Duration(req.GetFloat("ms", 0)) * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return mcp.NewToolResultText("waited"), nil
		})
	return s
}

func echoGateway(t testing.TB) *Gateway {
	up := openSession(t, session.Source{Kind: session.InProcess, Name: "echo", Server: echoServer()}, session.Options{})
	return newGateway(t, up, Options{Mode: ModeTerm, Policy: allowAll(t)})
}

// guarded serves g over streamable HTTP with o on loopback until the test
// ends; it returns the listener's address.
func guarded(t testing.TB, g *Gateway, o HTTPOptions) string {
	t.Helper()
	return guardedOn(t, g, "127.0.0.1", o)
}

// guardedOn is guarded on a listener at host (any free port).
func guardedOn(t testing.TB, g *Gateway, host string, o HTTPOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.ServeStreamableWith(ctx, ln, o, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeStreamableWith: %v", err)
		}
	})
	return ln.Addr().String()
}

// dial connects mcp-go's client to addr with extra headers and initializes
// it at 2025-11-25 (a session-ful revision).
func dial(t testing.TB, addr string, headers map[string]string, opts ...transport.StreamableHTTPCOption) (*client.Client, error) {
	t.Helper()
	c, err := client.NewStreamableHttpClient("http://"+addr+HTTPPath, append([]transport.StreamableHTTPCOption{transport.WithHTTPHeaders(headers)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := ctxT(t, 30*time.Second)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.ProtocolVersion20251125
	req.Params.ClientInfo = mcp.Implementation{Name: "http-test", Version: "0"}
	_, err = c.Initialize(ctx, req)
	return c, err
}

// recorder is a next handler that counts what reaches it.
type recorder struct{ calls int }

func (r *recorder) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	r.calls++
	w.WriteHeader(http.StatusNoContent)
}

func testGuard(t *testing.T, o HTTPOptions) (*guard, *recorder) {
	t.Helper()
	o, err := o.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	next := &recorder{}
	return newGuard(next, o, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, newSessions(o.MaxSessions)), next
}

func get(headers ...string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080/mcp", nil)
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Add(headers[i], headers[i+1])
	}
	return r
}

func TestGuardToken(t *testing.T) {
	g, next := testGuard(t, HTTPOptions{Token: testToken})
	cases := []struct {
		auth      string
		status    int
		challenge string
	}{
		{"", 401, `Bearer realm="mcpterm"`},
		{"Bearer " + testToken + "x", 401, `Bearer realm="mcpterm", error="invalid_token"`},
		{"Bearer " + testToken[:len(testToken)-1], 401, `Bearer realm="mcpterm", error="invalid_token"`},
		{"Basic " + testToken, 401, `Bearer realm="mcpterm", error="invalid_token"`},
		{testToken, 401, `Bearer realm="mcpterm"`},
		{"Bearer " + testToken, 204, ""},
		{"bearer  " + testToken + " ", 204, ""},
	}
	for _, tc := range cases {
		w := httptest.NewRecorder()
		g.ServeHTTP(w, get("Authorization", tc.auth))
		if w.Code != tc.status || w.Header().Get("WWW-Authenticate") != tc.challenge {
			t.Errorf("Authorization %q: %d %q, want %d %q", tc.auth, w.Code, w.Header().Get("WWW-Authenticate"), tc.status, tc.challenge)
		}
		if w.Code == 401 && !strings.Contains(w.Body.String(), `"code":-32000`) {
			t.Errorf("401 body: %s", w.Body.String())
		}
	}
	if next.calls != 2 {
		t.Errorf("%d requests got through, want 2", next.calls)
	}
	if _, err := (HTTPOptions{Token: "short"}).withDefaults(); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("a short token: %v", err)
	}
}

// TestTokenCompareIsConstantTime holds tokenMatches to comparing digests
// with crypto/subtle, and the rest of http.go to never comparing a token
// with == or != (which stop at the first differing byte).
func TestTokenCompareIsConstantTime(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "http.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Name.Name == "tokenMatches" {
				ast.Inspect(n.Body, func(m ast.Node) bool {
					if sel, ok := m.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok {
							calls[id.Name+"."+sel.Sel.Name] = true
						}
					}
					return true
				})
			}
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ {
				return true
			}
			for _, side := range []ast.Expr{n.X, n.Y} {
				if strings.Contains(strings.ToLower(exprText(side)), "token") && !isEmptyString(n.X) && !isEmptyString(n.Y) {
					t.Errorf("http.go compares a token with %s: %s %s %s", n.Op, exprText(n.X), n.Op, exprText(n.Y))
				}
			}
		}
		return true
	})
	for _, want := range []string{"subtle.ConstantTimeCompare", "sha256.Sum256"} {
		if !calls[want] {
			t.Errorf("tokenMatches does not call %s", want)
		}
	}
	var w [32]byte
	if !tokenMatches(sha256.Sum256([]byte(testToken)), testToken) || tokenMatches(sha256.Sum256([]byte(testToken)), testToken+"x") || tokenMatches(w, "") {
		t.Error("tokenMatches gives wrong answers")
	}
}

func exprText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprText(e.X) + "." + e.Sel.Name
	case *ast.BasicLit:
		return e.Value
	case *ast.CallExpr:
		return exprText(e.Fun) + "(…)"
	}
	return fmt.Sprintf("%T", e)
}

func isEmptyString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Value == `""`
}

func TestGuardOrigin(t *testing.T) {
	g, next := testGuard(t, HTTPOptions{AllowOrigins: []string{"https://App.example"}})
	ok := []string{"", "http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080", "HTTP://LOCALHOST:8080", "https://app.example", "https://app.example:443"}
	bad := []string{"http://evil.example", "http://localhost:3000", "https://localhost:8080", "null", "http://127.0.0.1:8080/x", "http://app.example", "file://"}
	for _, o := range ok {
		w := httptest.NewRecorder()
		r := get()
		if o != "" {
			r.Header.Set("Origin", o)
		}
		g.ServeHTTP(w, r)
		if w.Code != 204 {
			t.Errorf("Origin %q: %d %s", o, w.Code, w.Body.String())
		}
	}
	for _, o := range bad {
		w := httptest.NewRecorder()
		g.ServeHTTP(w, get("Origin", o))
		if w.Code != 403 || !strings.Contains(w.Body.String(), "is not allowed (mcpterm serve --allow-origin allows one)") {
			t.Errorf("Origin %q: %d %s", o, w.Code, w.Body.String())
		}
	}
	w := httptest.NewRecorder()
	g.ServeHTTP(w, get("Origin", "http://localhost:8080", "Origin", "http://evil.example"))
	if w.Code != 403 {
		t.Errorf("two Origin headers: %d", w.Code)
	}
	if next.calls != len(ok) {
		t.Errorf("%d requests got through, want %d", next.calls, len(ok))
	}
}

// unreadable fails the test if the guard reads a body it should refuse
// by its Content-Length alone.
type unreadable struct{ t *testing.T }

func (u unreadable) Read([]byte) (int, error) {
	u.t.Error("the body was read")
	return 0, io.EOF
}

// endless is a body that never ends, counting what was read of it.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	e.n += int64(len(p))
	return len(p), nil
}

func TestGuardBody(t *testing.T) {
	g, next := testGuard(t, HTTPOptions{MaxBody: 1000})
	post := func(body io.Reader, n int64) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", body)
		r.ContentLength = n
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		return w
	}
	w := post(unreadable{t}, 100<<20)
	if w.Code != 413 || !strings.Contains(w.Body.String(), "over the gateway's limit of 1000 bytes (mcpterm serve --max-body)") || w.Header().Get("Connection") != "close" {
		t.Errorf("Content-Length 100 MB: %d %v %s", w.Code, w.Header(), w.Body.String())
	}
	body := &endless{}
	if w := post(body, -1); w.Code != 413 || body.n > 64<<10 {
		t.Errorf("a body without length: %d after reading %d bytes", w.Code, body.n)
	}
	if w := post(strings.NewReader(strings.Repeat(" ", 1000)), 1000); w.Code != 204 {
		t.Errorf("a body at the limit: %d", w.Code)
	}
	if next.calls != 1 {
		t.Errorf("%d requests got through, want 1", next.calls)
	}
}

// rawExchange writes req on a new connection to addr and reads one
// response, or the error that ended the connection.
func rawExchange(t *testing.T, addr, req string) (*http.Response, error) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(hangGuard))
	if _, err := io.WriteString(conn, req); err != nil {
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
	}
	return resp, err
}

func TestHTTPHeaderTooBig(t *testing.T) {
	addr := guarded(t, echoGateway(t), HTTPOptions{MaxHeaderBytes: 4 << 10})
	req := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nX-Big: " + strings.Repeat("a", 64<<10) + "\r\n\r\n"
	resp, err := rawExchange(t, addr, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("status %d", resp.StatusCode)
	}
}

// TestHTTPBodyTimeout: a body that stops arriving gets 408 after the body
// timeout, and the connection is closed.
func TestHTTPBodyTimeout(t *testing.T) {
	addr := guarded(t, echoGateway(t), HTTPOptions{BodyTimeout: 200 * time.Millisecond})
	req := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":"
	resp, err := rawExchange(t, addr, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestTimeout || !resp.Close {
		t.Errorf("status %d, close %v", resp.StatusCode, resp.Close)
	}
}

// TestHTTPTimeoutsSpareStreams: the body timeout bounds receiving a
// request, not answering it: a call that takes several times as long still
// gets its answer, and an open GET stream outlives every timeout, kept in
// use by the heartbeat.
func TestHTTPTimeoutsSpareStreams(t *testing.T) {
	// Sessions idle out after 1.5 s (swept every second), so the call's
	// session outlives the call; the GET stream gets a ping every 500 ms.
	o := HTTPOptions{HeaderTimeout: 100 * time.Millisecond, BodyTimeout: 100 * time.Millisecond,
		IdleTimeout: 100 * time.Millisecond, SessionIdle: 1500 * time.Millisecond}
	addr := guarded(t, echoGateway(t), o)
	c, err := dial(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := termCall(t, c, `(wait 300)`); r.IsError || text(r) != `(ok "waited")` {
		t.Errorf("a long call: %s", text(r))
	}
	// A GET stream of a session of its own: two heartbeats (500 ms apart)
	// span every timeout above, and the stream is open after them.
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+HTTPPath, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req.WithContext(ctxT(t, hangGuard)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET: %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	pings := 0
	for pings < 2 && sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") && strings.Contains(sc.Text(), `"method":"ping"`) {
			pings++
		}
	}
	if pings < 2 {
		t.Fatalf("the stream ended after %d pings: %v", pings, sc.Err())
	}
}

// TestHTTPSessionCap: beyond MaxSessions a new session is refused with 503
// and a JSON-RPC error saying why; once one ends, a new one may start.
func TestHTTPSessionCap(t *testing.T) {
	addr := guarded(t, echoGateway(t), HTTPOptions{MaxSessions: 2})
	ctx := ctxT(t, 30*time.Second)
	a, err := dial(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := dial(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := termCall(t, b, `(echo "b")`); text(r) != `(ok "echo: b")` {
		t.Fatalf("b: %s", text(r))
	}
	// At the cap, a new client takes the place of the session used least
	// recently with nothing in flight (a: its client went quiet without a
	// DELETE), which ends as a DELETE would have ended it.
	c, err := dial(t, addr, nil)
	if err != nil {
		t.Fatalf("a third session at the cap, with idle ones: %v", err)
	}
	if _, err := a.ListTools(ctx, mcp.ListToolsRequest{}); err == nil {
		t.Error("the evicted session still answers")
	}
	if r := termCall(t, b, `(echo "still")`); text(r) != `(ok "echo: still")` {
		t.Errorf("b after the eviction: %s", text(r))
	}
	// Sessions with a GET stream open are in use: with every place busy, a
	// new client is refused, and its refusal says why.
	for _, cl := range []*client.Client{b, c} {
		id := cl.GetTransport().(*transport.StreamableHTTP).GetSessionId()
		closeStream := openStream(t, addr, id)
		defer closeStream()
	}
	_, err = dial(t, addr, nil)
	if err == nil || !strings.Contains(err.Error(), "mcpterm gateway: the gateway has its maximum of 2 sessions open (mcpterm serve --max-sessions)") {
		t.Fatalf("a session while every place is busy: %v", err)
	}
	init := `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","clientInfo":{"name":"x","version":"0"}}}`
	resp, err := rawExchange(t, addr, fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", addr, len(init), init))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("raw initialize: %d", resp.StatusCode)
	}
	// Calls of the open sessions go on.
	if r := termCall(t, c, `(echo "c")`); text(r) != `(ok "echo: c")` {
		t.Errorf("call at the cap: %s", text(r))
	}
	b.Close() // DELETE ends the session
	if _, err := dial(t, addr, nil); err != nil {
		t.Errorf("after one session ended: %v", err)
	}
}

// openStream opens session id's GET stream on addr and returns once the
// gateway has answered it (so the stream counts as in use); the returned
// func closes it.
func openStream(t *testing.T, addr, id string) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+HTTPPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(server.HeaderKeySessionID, id)
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion20251125)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("GET stream of %s: %d", id, resp.StatusCode)
	}
	return func() {
		cancel()
		resp.Body.Close()
	}
}

// TestHTTPUnknownSession: a GET naming a session the gateway never minted
// opens nothing (mcp-go alone would make it a session, outside the cap).
func TestHTTPUnknownSession(t *testing.T) {
	addr := guarded(t, echoGateway(t), HTTPOptions{})
	resp, err := rawExchange(t, addr, "GET /mcp HTTP/1.1\r\nHost: "+addr+"\r\nAccept: text/event-stream\r\nMcp-Session-Id: mcp-session-made-up\r\n\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 404 {
		t.Errorf("status %d", resp.StatusCode)
	}
}

// TestHTTPSessionIdleExpiry: a session nobody uses ends after SessionIdle;
// its next request gets 404 (the client must start again), and its place
// under the cap is free.
func TestHTTPSessionIdleExpiry(t *testing.T) {
	g := echoGateway(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	o, _ := HTTPOptions{MaxSessions: 1, SessionIdle: 500 * time.Millisecond}.withDefaults()
	st := g.httpStack(o, ln.Addr(), nil)
	ss := st.sessions
	var ended signal
	ss.ended = ended.notify
	go func() { _ = st.server.Serve(ln) }()
	t.Cleanup(func() {
		_ = st.mcp.Shutdown(context.Background())
		st.server.Close()
	})
	c, err := dial(t, addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ss.count() != 1 {
		t.Fatalf("%d sessions", ss.count())
	}
	until(t, "the idle session to expire", &ended, func() bool { return ss.count() == 0 })
	req := mcp.CallToolRequest{}
	req.Params.Name = DefaultTermTool
	req.Params.Arguments = map[string]any{"expr": `(echo "x")`}
	if _, err := c.CallTool(ctxT(t, hangGuard), req); err == nil || !errors.Is(err, transport.ErrSessionTerminated) && !strings.Contains(err.Error(), "404") {
		t.Errorf("a call of the expired session: %v", err)
	}
	if _, err := dial(t, addr, nil); err != nil {
		t.Errorf("a new session: %v", err)
	}
}

func TestParseOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"http://LocalHost:80": "http://localhost", "https://a.example:443/": "https://a.example",
		"http://[::1]:8080": "http://[::1]:8080", "https://a.example:8443": "https://a.example:8443",
	} {
		if got, err := ParseOrigin(in); err != nil || got != want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "null", "a.example", "ftp://a.example", "http://u@a.example", "http://a.example/x", "http://a.example?q", "http://a.example:0", "http://a.example:99999", "http://"} {
		if got, err := ParseOrigin(in); err == nil {
			t.Errorf("ParseOrigin(%q) = %q, want an error", in, got)
		}
	}
}

func TestReadAll(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 64 << 10, 64<<10 + 1, 300 << 10} {
		in := strings.Repeat("x", n)
		for _, length := range []int64{-1, int64(n)} {
			got, err := readAll(strings.NewReader(in), length, 300<<10)
			if err != nil || string(got) != in {
				t.Errorf("%d bytes, length %d: %d bytes, %v", n, length, len(got), err)
			}
		}
	}
	w := httptest.NewRecorder()
	_, err := readAll(http.MaxBytesReader(w, io.NopCloser(&endless{}), 300<<10), -1, 300<<10)
	var mbe *http.MaxBytesError
	if !errors.As(err, &mbe) {
		t.Errorf("an endless body: %v", err)
	}
}
