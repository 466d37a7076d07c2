package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// badAnswerServer is a minimal streamable HTTP MCP server whose tools/call
// answer is body(id), sent as application/json or, with sse, as one SSE
// event.
func badAnswerServer(t *testing.T, sse bool, body func(id string) string) string {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "no", http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &m)
		if len(m.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		id := string(m.ID)
		var out string
		switch m.Method {
		case "initialize":
			out = `{"jsonrpc":"2.0","id":` + id + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bad","version":"1"}}}`
		case "tools/call":
			out = body(id)
			if sse {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "event: message\ndata: %s\n\n", out)
				w.(http.Flusher).Flush()
				// Keep the stream open, as a server still working would.
				<-r.Context().Done()
				return
			}
		default:
			out = `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32601,"message":"no"}}`
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, out)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestHTTPUnreadableAnswer: over streamable HTTP, as over stdio, an answer
// too deep, broken or too big fails its call at once with a ProtocolError
// naming it (mcp-go alone drops such an SSE event and waits for the
// timeout, and reads a JSON answer whole however big).
func TestHTTPUnreadableAnswer(t *testing.T) {
	deep := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":` + strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001) + `}`
	}
	broken := func(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[` }
	big := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"` + strings.Repeat("z", 2<<20) + `"}]}}`
	}
	for _, tc := range []struct {
		name string
		sse  bool
		body func(string) string
		want string
	}{
		{"json deep", false, deep, "a message nested 10,002 levels deep; the limit is 10,000"},
		{"sse deep", true, deep, "a message nested 10,002 levels deep; the limit is 10,000"},
		{"sse broken", true, broken, "a message that is not valid JSON-RPC"},
		{"json big", false, big, "a message larger than 1048576 bytes (the limit)"},
		{"sse big", true, big, "a message larger than 1048576 bytes (the limit)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := badAnswerServer(t, tc.sse, tc.body)
			s := open(t, Source{Kind: HTTP, URL: url}, Options{MaxMessageBytes: 1 << 20, DiscoverTimeout: time.Second})
			r := s.Call(ctxT(t, 60*time.Second), CallRequest{Tool: "x", Timeout: 50 * time.Second})
			var perr *ProtocolError
			if !errors.As(r.Err, &perr) || r.Err.Error() != "tools/call x: bad answer from server: "+tc.want {
				t.Fatalf("err %v (%T)", r.Err, r.Err)
			}
		})
	}
}

// TestSSEBoundPassesGoodEvents: events that check out go through as sent,
// with their other fields.
func TestSSEBoundPassesGoodEvents(t *testing.T) {
	in := "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n: comment\n\ndata: {\"a\":\ndata: 1}\n\n"
	bt := &boundedTransport{maxMsg: 1 << 20}
	s := &sseBound{t: bt, src: bufioReader(in), body: io.NopCloser(nil)}
	out, err := io.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	want := "id: 1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n: comment\n\ndata: {\"a\":\ndata: 1}\n\n"
	if string(out) != want {
		t.Errorf("got %q\nwant %q", out, want)
	}
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// FuzzSSEBound: any stream passes through without a panic or a hang, and a
// stream of well-formed events whose data are JSON comes out as it went in.
func FuzzSSEBound(f *testing.F) {
	for _, s := range []string{
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"event: message\nid: 7\ndata: [1,\ndata: 2]\n\n: keep-alive\n\n",
		"data: {\"id\":3,\"result\":[[[\n\n",
		"data:" + strings.Repeat("x", 5000) + "\n\n",
		"retry: 10\r\ndata: 1\r\n\r\n",
	} {
		f.Add([]byte(s), 64)
	}
	f.Fuzz(func(t *testing.T, in []byte, limit int) {
		limit = 16 + (limit&0xffff)%8192
		bt := &boundedTransport{maxMsg: limit}
		s := &sseBound{t: bt, src: bufio.NewReader(bytes.NewReader(in)), body: io.NopCloser(nil)}
		out, err := io.ReadAll(s)
		if err != nil {
			t.Fatal(err)
		}
		// Every event comes out whole, ended by a blank line.
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n\n")) {
			t.Fatalf("output %q does not end an event", out)
		}
		// Rebuild the input as clean events of JSON data and check they
		// pass unchanged.
		var clean strings.Builder
		for _, part := range strings.Split(string(in), "\n\n") {
			if part != "" && !strings.ContainsAny(part, "\r\n") && json.Valid([]byte(part)) && len(part) <= limit {
				clean.WriteString("data: " + part + "\n\n")
			}
		}
		s = &sseBound{t: bt, src: bufioReader(clean.String()), body: io.NopCloser(nil)}
		if out, _ = io.ReadAll(s); string(out) != clean.String() {
			t.Fatalf("clean stream changed:\n%q\n%q", clean.String(), out)
		}
	})
}
