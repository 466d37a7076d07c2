package session

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/session/internal/testserver"
)

// TestStreamableHTTPClientSideRevision: declaring the client side opens the
// GET stream servers before 2026-07-28 send their requests on, and still
// lets the session negotiate 2026-07-28 with a server that speaks it.
func TestStreamableHTTPClientSideRevision(t *testing.T) {
	for _, c := range []struct{ pin, want string }{
		{"", mcp.LATEST_PROTOCOL_VERSION},
		{"2025-11-25", "2025-11-25"},
	} {
		rec := &testserver.Recorder{}
		ts := httptest.NewServer(server.NewStreamableHTTPServer(testserver.New(rec, 0, 0)))
		t.Cleanup(ts.Close)
		roots, err := NewRoots(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		s := open(t, Source{Kind: HTTP, URL: ts.URL + "/mcp"}, Options{ProtocolVersion: c.pin, Asker: Decliner{}, Roots: roots})
		if got := s.Info().ProtocolVersion; got != c.want {
			t.Errorf("pin %q: negotiated %q, want %q", c.pin, got, c.want)
		}
	}
}

// TestStreamableHTTPSamplingOnGETStream: a server before 2026-07-28 whose
// tool asks for sampling sends the request on the GET stream; the session
// answers it with its Asker, and the tool gets the reply.
func TestStreamableHTTPSamplingOnGETStream(t *testing.T) {
	srv := server.NewMCPServer("asks", "1")
	srv.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req := mcp.CreateMessageRequest{}
		req.Messages = []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}
		req.MaxTokens = 10
		//lint:ignore SA1019 the server side of a revision that has server-initiated sampling
		res, err := srv.RequestSampling(ctx, req)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(res.Content.(mcp.TextContent).Text), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	asker := &recordingAsker{}
	s := open(t, Source{Kind: HTTP, URL: ts.URL + "/mcp"}, Options{ProtocolVersion: "2025-11-25", Asker: asker})
	r := s.Call(ctxT(t, 30*time.Second), CallRequest{Tool: "ask", Arguments: obj(t, `{}`)})
	if !r.OK() || !strings.Contains(resultText(r), "sampled reply") {
		t.Errorf("ask: %v %q", r.Err, resultText(r))
	}
}
