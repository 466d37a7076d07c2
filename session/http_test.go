package session

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

// headerLog records the headers every HTTP request arrived with.
type headerLog struct {
	mu   sync.Mutex
	seen []http.Header
}

func (h *headerLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		hd := r.Header.Clone()
		hd.Set("X-Log-Method", r.Method)
		h.seen = append(h.seen, hd)
		h.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (h *headerLog) all(name string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, hd := range h.seen {
		out = append(out, hd.Get(name))
	}
	return out
}

func TestStreamableHTTP(t *testing.T) {
	for _, v := range []string{"", "2025-11-25", "2025-03-26"} {
		t.Run("v"+v, func(t *testing.T) {
			rec := &testserver.Recorder{}
			hl := &headerLog{}
			ts := httptest.NewServer(hl.wrap(server.NewStreamableHTTPServer(testserver.New(rec, 0, 0))))
			t.Cleanup(ts.Close)
			src := Source{Kind: HTTP, URL: ts.URL + "/mcp", Headers: map[string]string{"X-Team": "blue-secret"}, BearerTokenEnv: "TEST_TOKEN"}
			opts := Options{ProtocolVersion: v, Getenv: func(k string) string {
				if k == "TEST_TOKEN" {
					return "tok-123"
				}
				return ""
			}}
			s := open(t, src, opts)
			testHTTPSession(t, s, rec)
			methods := hl.all("X-Log-Method")
			for i, got := range hl.all("Authorization") {
				if got != "Bearer tok-123" {
					t.Errorf("Authorization header %q on %s", got, methods[i])
				}
			}
			if !slices.Contains(hl.all("X-Team"), "blue-secret") {
				t.Error("custom header not sent")
			}
			if str := src.String(); strings.Contains(str, "tok-123") || strings.Contains(str, "blue-secret") || !strings.Contains(str, "X-Team") {
				t.Errorf("String() = %q", str)
			}
		})
	}
}

func TestSSE(t *testing.T) {
	rec := &testserver.Recorder{}
	hl := &headerLog{}
	sse := server.NewSSEServer(testserver.New(rec, 0, 0))
	ts := httptest.NewServer(hl.wrap(sse))
	t.Cleanup(ts.Close)
	server.WithBaseURL(ts.URL)(sse)
	s := open(t, Source{Kind: SSE, URL: ts.URL + "/sse", Headers: map[string]string{"X-Team": "red"}}, Options{})
	testHTTPSession(t, s, rec)
	if !slices.Contains(hl.all("X-Team"), "red") {
		t.Error("custom header not sent over SSE")
	}
}

func testHTTPSession(t *testing.T, s *Session, rec *testserver.Recorder) {
	t.Helper()
	ctx := ctxT(t, 20*time.Second)
	set, err := s.Tools(ctx)
	if err != nil || set.Find("echo") == nil {
		t.Fatalf("tools: %v", err)
	}
	if got := set.Find("echo").InputSchema.Get("properties").Keys(); !slices.Equal(got, []string{"zeta", "alpha"}) {
		t.Errorf("property order %v", got)
	}
	if r := s.Call(ctx, CallRequest{Tool: "add", Arguments: obj(t, `{"a":40,"b":2}`)}); !r.OK() || resultText(r) != "42" {
		t.Errorf("add: %v %q", r.Err, resultText(r))
	}
	r := s.Call(ctx, CallRequest{Tool: "slow", Arguments: obj(t, `{"steps":4,"ms":100}`), Timeout: 350 * time.Millisecond})
	if !r.OK() {
		t.Errorf("slow with progress: %v", r.Err)
	}
	r = s.Call(ctx, CallRequest{Tool: "hang", Timeout: 100 * time.Millisecond})
	if Classify(r.Err) != ClassTimeout {
		t.Errorf("hang: %v", r.Err)
	}
	if _, sse := s.conn.inner.(*sseBidir); sse || !s.Info().Modern {
		// Before 2026-07-28, and always over SSE, only
		// notifications/cancelled stops the handler.
		waitFor(t, 30*time.Second, "notifications/cancelled sent", func() bool { return hasCancelNotification(s) })
	}
	waitFor(t, 30*time.Second, "server-side cancellation", func() bool { return slices.Contains(rec.Cancelled(), "hang") })
	if _, err := s.ReadResource(ctx, "mem://hello"); err != nil {
		t.Errorf("read: %v", err)
	}
	if err := s.Reconnect(ctx); err != nil {
		t.Fatalf("reconnect: %v", err)
	}
	if r := s.Call(ctx, CallRequest{Tool: "add", Arguments: obj(t, `{"a":1,"b":2}`)}); !r.OK() {
		t.Errorf("after reconnect: %v", r.Err)
	}
}

func TestHTTPProblems(t *testing.T) {
	_, err := Open(ctxT(t, 5*time.Second), Source{Kind: HTTP, URL: "http://127.0.0.1:1/mcp", BearerTokenEnv: "NOPE"},
		Options{Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), "NOPE") || Classify(err) != ClassConnection {
		t.Errorf("missing token: %v", err)
	}
	// Nothing listens on port 1.
	_, err = Open(ctxT(t, 5*time.Second), Source{Kind: HTTP, URL: "http://127.0.0.1:1/mcp"}, Options{ConnectTimeout: 3 * time.Second})
	if err == nil || Classify(err) != ClassConnection {
		t.Errorf("refused: %v (class %v)", err, Classify(err))
	}
	if _, err := Open(ctxT(t, time.Second), Source{Kind: HTTP, URL: "ftp://x"}, Options{}); err == nil || !strings.Contains(err.Error(), "http://") {
		t.Errorf("bad URL: %v", err)
	}
	// A server that answers 401.
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	t.Cleanup(ts.Close)
	_, err = Open(ctxT(t, 5*time.Second), Source{Kind: HTTP, URL: ts.URL}, Options{})
	if err == nil || Classify(err) != ClassConnection {
		t.Errorf("401: %v", err)
	}
}
