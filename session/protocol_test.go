package session

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// TestProtocolFlagRefusesUnknown: --protocol takes only the revisions
// mcp-go speaks, and the usage error lists them.
func TestProtocolFlagRefusesUnknown(t *testing.T) {
	_, err := Resolve(Selection{Protocol: "2099-01-01"}, Env{}, Options{})
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("Resolve(--protocol 2099-01-01) = %v, want a *UsageError", err)
	}
	for _, v := range KnownProtocolVersions() {
		if !strings.Contains(ue.Msg, v) {
			t.Errorf("usage error %q does not list %s", ue.Msg, v)
		}
	}
	for _, v := range KnownProtocolVersions() {
		tg, err := Resolve(Selection{Protocol: v}, Env{}, Options{})
		if err != nil {
			t.Errorf("Resolve(--protocol %s): %v", v, err)
			continue
		}
		if tg.Options.ProtocolVersion != v {
			t.Errorf("--protocol %s: Options.ProtocolVersion = %q", v, tg.Options.ProtocolVersion)
		}
		tg.Close()
	}
}

// rootsServer is an mcp-go server whose tool "roots" asks its client for
// its roots (roots/list, a server-to-client request) and answers with them.
func rootsServer() *server.MCPServer {
	srv := server.NewMCPServer("roots-server", "1.0.0", server.WithRoots())
	srv.AddTool(mcp.NewTool("roots", mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := srv.RequestRoots(ctx, mcp.ListRootsRequest{})
			if err != nil {
				return mcp.NewToolResultError("roots/list: " + err.Error()), nil
			}
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return mcp.NewToolResultText(strings.Join(uris, ",")), nil
		})
	// The same written the 2026-07-28 way (a multi round-trip request),
	// which mcp-go's server also bridges to roots/list for older revisions.
	srv.AddTool(mcp.NewTool("roots_mrtr", mcp.WithReadOnlyHintAnnotation(true)),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := server.RootsResponse(req.Params.InputResponses, "roots")
			if res == nil {
				return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
			}
			var uris []string
			for _, r := range res.Roots {
				uris = append(uris, r.URI)
			}
			return mcp.NewToolResultText(strings.Join(uris, ",")), nil
		})
	return srv
}

// TestProtocolPinning: each known revision, pinned, is the one the
// connection speaks, in process and over streamable HTTP.
func TestProtocolPinning(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(rootsServer()))
	t.Cleanup(ts.Close)
	for _, v := range KnownProtocolVersions() {
		for _, src := range []Source{{Kind: InProcess, Server: rootsServer()}, {Kind: HTTP, URL: ts.URL + "/mcp"}} {
			t.Run(v+"/"+string(src.Kind), func(t *testing.T) {
				s := open(t, src, Options{ProtocolVersion: v})
				info := s.Info()
				if info.ProtocolVersion != v {
					t.Errorf("pinned %s, negotiated %s", v, info.ProtocolVersion)
				}
				if info.Modern != mcp.IsModernProtocol(v) {
					t.Errorf("Modern = %v for %s", info.Modern, v)
				}
			})
		}
	}
}

// TestServerRequestsOverHTTP: a server's roots/list, which mcp-go's server
// sends on the standalone GET stream, is answered over streamable HTTP on
// each revision that has server-to-client requests, and on 2026-07-28 the
// multi round-trip form is.
func TestServerRequestsOverHTTP(t *testing.T) {
	roots, err := NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := roots.List()[0].URI
	call := func(t *testing.T, s *Session, tool string) {
		t.Helper()
		r := s.Call(ctxT(t, 20*time.Second), CallRequest{Tool: tool})
		if r.Err != nil || r.IsError || r.Result == nil {
			t.Fatalf("roots: err %v, isError %v, result %+v", r.Err, r.IsError, r.Result)
		}
		if got := mcp.GetTextFromContent(r.Result.Content[0]); got != want {
			t.Errorf("the server saw roots %q, want %q", got, want)
		}
	}
	ts := httptest.NewServer(server.NewStreamableHTTPServer(rootsServer()))
	t.Cleanup(ts.Close)
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		t.Run("streamable/"+v, func(t *testing.T) {
			s := open(t, Source{Kind: HTTP, URL: ts.URL + "/mcp"}, Options{ProtocolVersion: v, Roots: roots})
			call(t, s, "roots")
			call(t, s, "roots_mrtr")
		})
	}
	// 2026-07-28 has no server-to-client requests: the server asks in its
	// result instead, and the session answers from the same roots.
	t.Run("streamable/2026-07-28", func(t *testing.T) {
		s := open(t, Source{Kind: HTTP, URL: ts.URL + "/mcp"}, Options{Roots: roots})
		if !s.Info().Modern {
			t.Fatalf("negotiated %s", s.Info().ProtocolVersion)
		}
		call(t, s, "roots_mrtr")
	})
}

// scriptedLegacy is a streamable HTTP server of a revision before
// 2026-07-28 that answers every method it does not know, server/discover
// included, with an empty result: the shape that used to pass for a
// discover result, so that initialize was never sent.
type scriptedLegacy struct {
	getStatus int // the answer to a GET; 0 is 405

	mu      sync.Mutex
	methods []string
	gets    int
}

func (h *scriptedLegacy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.mu.Lock()
		h.gets++
		h.mu.Unlock()
		http.Error(w, "no", cmp.Or(h.getStatus, http.StatusMethodNotAllowed))
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &req) != nil {
		http.Error(w, "not JSON", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	h.methods = append(h.methods, req.Method)
	h.mu.Unlock()
	if req.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	result := `{}`
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-06-18","serverInfo":{"name":"scripted","version":"1"},"capabilities":{"tools":{}}}`
	case "tools/list":
		result = `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+result+`}`)
}

func (h *scriptedLegacy) seen() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.methods)
}

// TestDiscoverEmptyAnswerFallsBack: an empty server/discover answer is not
// taken for a 2026-07-28 server; initialize follows, and the session speaks
// the revision the server chose.
func TestDiscoverEmptyAnswerFallsBack(t *testing.T) {
	h := &scriptedLegacy{}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	s := open(t, Source{Kind: HTTP, URL: ts.URL}, Options{})
	info := s.Info()
	if info.Modern || info.ProtocolVersion != "2025-06-18" {
		t.Errorf("negotiated %q (modern %v), want 2025-06-18 through initialize", info.ProtocolVersion, info.Modern)
	}
	if info.Name != "scripted" {
		t.Errorf("server name %q", info.Name)
	}
	if _, err := s.Tools(ctxT(t, 20*time.Second)); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	got := h.seen()
	if !slices.Contains(got, "initialize") || !slices.Contains(got, "notifications/initialized") {
		t.Errorf("methods the server saw: %v; initialize never sent", got)
	}
}

// TestDiscoverValidAnswerKept: a real 2026-07-28 server's discover answer
// still passes, so the stateless core is used where it is offered.
func TestDiscoverValidAnswerKept(t *testing.T) {
	ts := httptest.NewServer(server.NewStreamableHTTPServer(rootsServer()))
	t.Cleanup(ts.Close)
	s := open(t, Source{Kind: HTTP, URL: ts.URL + "/mcp"}, Options{})
	if info := s.Info(); !info.Modern || info.ProtocolVersion != mcp.LATEST_PROTOCOL_VERSION {
		t.Errorf("negotiated %q (modern %v), want %s", info.ProtocolVersion, info.Modern, mcp.LATEST_PROTOCOL_VERSION)
	}
}

func TestNotDiscoverResult(t *testing.T) {
	for raw, bad := range map[string]bool{
		`{}`:                        true,
		`[]`:                        true,
		`null`:                      true,
		`{"supportedVersions":[]}`:  true,
		`{"supportedVersions":[1]}`: true,
		`{"supportedVersions":"x"}`: true,
		`{"supportedVersions":["2025-11-25"],"capabilities":{}}`:              true,
		`{"supportedVersions":["2026-07-28"]}`:                                true,
		`{"supportedVersions":["2026-07-28"],"capabilities":1}`:               true,
		`{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{}}`: false,
	} {
		if why := notDiscoverResult(json.RawMessage(raw)); (why != "") != bad {
			t.Errorf("notDiscoverResult(%s) = %q, want bad=%v", raw, why, bad)
		}
	}
}

// TestClientCapabilitiesAreWhatWasSent: the accessor reports exactly the
// capabilities the initialize request carried.
func TestClientCapabilitiesAreWhatWasSent(t *testing.T) {
	roots, err := NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, Source{Kind: InProcess, Server: rootsServer()},
		Options{ProtocolVersion: "2025-11-25", Roots: roots, Asker: Pair{}})
	var sent json.RawMessage
	for _, m := range s.Tap().Messages() {
		if m.Method == "initialize" && m.Dir == Sent {
			var req struct {
				Params struct {
					Capabilities json.RawMessage `json:"capabilities"`
				} `json:"params"`
			}
			if err := json.Unmarshal([]byte(m.Payload), &req); err != nil {
				t.Fatal(err)
			}
			sent = req.Params.Capabilities
		}
	}
	got, _ := json.Marshal(s.ClientCapabilities())
	if sent == nil || string(got) != string(sent) {
		t.Errorf("ClientCapabilities() = %s, initialize sent %s", got, sent)
	}
	caps := s.ClientCapabilities()
	if caps.Roots == nil || caps.Sampling == nil || caps.Elicitation == nil {
		t.Errorf("declared %s, want roots, sampling and elicitation", got)
	}
}

// resumingServer is a 2025-11-25 streamable HTTP server that, like the
// conformance suite's sse-retry scenario, answers tools/call with an SSE
// stream it ends after a priming event (an id, a retry field, no data), and
// sends the answer on the GET the client resumes with.
type resumingServer struct {
	mu      sync.Mutex
	pending json.RawMessage // the tools/call id awaiting its answer
	resumed []string        // Last-Event-ID of each GET
}

func (h *resumingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Mcp-Session-Id", "s1")
	if r.Method == http.MethodGet {
		last := r.Header.Get("Last-Event-ID")
		h.mu.Lock()
		h.resumed = append(h.resumed, last)
		id := h.pending
		if last == "e1" {
			h.pending = nil
		}
		h.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if id == nil || last != "e1" {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // the standalone stream: held open
			return
		}
		_, _ = io.WriteString(w, "event: message\nid: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":"+string(id)+
			",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n")
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	_ = json.Unmarshal(body, &req)
	switch {
	case req.ID == nil:
		w.WriteHeader(http.StatusAccepted)
		return
	case req.Method == "server/discover":
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"error":{"code":-32601,"message":"no"}}`)
		return
	case req.Method == "tools/call":
		h.mu.Lock()
		h.pending = req.ID
		h.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "id: e1\nretry: 20\ndata: \n\n")
		return // ends the stream gracefully
	}
	result := `{}`
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","serverInfo":{"name":"resuming","version":"1"},"capabilities":{"tools":{}}}`
	case "tools/list":
		result = `{"tools":[{"name":"slow","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}`
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":`+result+`}`)
}

// TestSSEResumesAfterGracefulClose: a stream the server ends before the
// answer is resumed with a GET carrying Last-Event-ID (SEP-1699), through
// the bounded HTTP transport, and the answer sent there completes the call.
func TestSSEResumesAfterGracefulClose(t *testing.T) {
	h := &resumingServer{}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	s := open(t, Source{Kind: HTTP, URL: ts.URL}, Options{})
	r := s.Call(ctxT(t, 20*time.Second), CallRequest{Tool: "slow"})
	if r.Err != nil || r.Result == nil {
		t.Fatalf("call: %v", r.Err)
	}
	if got := mcp.GetTextFromContent(r.Result.Content[0]); got != "resumed" {
		t.Errorf("answer %q", got)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !slices.Contains(h.resumed, "e1") {
		t.Errorf("GETs carried Last-Event-ID %q, want one with e1", h.resumed)
	}
}

// FuzzServerAnswers: a server's server/discover answer and an SSE event's
// data read as a request never panic, and a result judged a discover result
// does name a 2026-07-28 revision.
func FuzzServerAnswers(f *testing.F) {
	for _, s := range []string{`{}`, `{"supportedVersions":["2026-07-28"],"capabilities":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"roots/list"}`, `{"id":null,"method":"x"}`, `[`, `{"id":"a","method":"","params":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if notDiscoverResult(b) == "" && !strings.Contains(string(b), "20") {
			t.Errorf("accepted %q as a discover result", b)
		}
		r := newSSERequests(http.DefaultClient)
		r.endpoint = func() string { return "" }
		r.stop()
		r.deliver(b)
	})
}

// TestGETStreamRefusedWith400: a server that answers the standalone GET
// stream with 400 is taken not to offer it, once, instead of being asked
// again every second for the connection's life.
func TestGETStreamRefusedWith400(t *testing.T) {
	h := &scriptedLegacy{getStatus: http.StatusBadRequest}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	s := open(t, Source{Kind: HTTP, URL: ts.URL}, Options{})
	gaveUp := func() bool {
		return slices.ContainsFunc(s.Events(), func(e Event) bool {
			return e.Kind == EventNotice && strings.Contains(e.Text, "server does not support listening")
		})
	}
	waitFor(t, 30*time.Second, "the GET stream given up", gaveUp)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.gets != 1 {
		t.Errorf("%d GETs, want 1", h.gets)
	}
}

// TestNoticeLogger: mcp-go's transport log lines become session notices,
// a line repeated by a retry loop once, a long one cut.
func TestNoticeLogger(t *testing.T) {
	events := newEventLog()
	l := noticeLogger(events).With("url", "http://x")
	l.Error("failed to listen to server. retry in 1 second", "err", "boom")
	l.Error("failed to listen to server. retry in 1 second", "err", "boom")
	l.Info("dropped: below Warn")
	l.Warn("big", "body", strings.Repeat("x", 4000))
	got := events.snapshot()
	if len(got) != 2 {
		t.Fatalf("%d notices, want 2: %+v", len(got), got)
	}
	if got[0].Level != "error" || !strings.Contains(got[0].Text, "retry in 1 second") || !strings.Contains(got[0].Text, "url=http://x") {
		t.Errorf("first notice %+v", got[0])
	}
	if n := len(got[1].Text); n > 520 || got[1].Level != "warning" {
		t.Errorf("second notice: level %s, %d bytes", got[1].Level, n)
	}
}
