package session

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// BenchmarkElicitRoundTrip is a call whose tool asks the client one
// question (elicitation, answered by the defaults policy) before it
// answers: what the client side adds to a call, in process and over
// streamable HTTP (where the question travels on the call's own stream).
func BenchmarkElicitRoundTrip(b *testing.B) {
	srv := server.NewMCPServer("asker", "1.0", server.WithElicitation())
	srv.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var schema any
		_ = json.Unmarshal([]byte(`{"type":"object","properties":{"n":{"type":"integer","default":7},"who":{"type":"string","default":"me"}}}`), &schema)
		res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "n?", RequestedSchema: schema}})
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(string(res.Action)), nil
	})
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	b.Cleanup(ts.Close)
	for _, c := range []struct {
		name string
		src  Source
	}{
		{"inprocess", Source{Kind: InProcess, Server: srv}},
		{"http", Source{Kind: HTTP, URL: ts.URL + "/mcp"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := open(b, c.src, Options{ProtocolVersion: "2025-11-25", Asker: Pair{Elicitor: DefaultsElicitor{}}})
			args := obj(b, `{}`)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if r := s.Call(ctx, CallRequest{Tool: "ask", Arguments: args}); !r.OK() || resultText(r) != "accept" {
					b.Fatalf("%v %q", r.Err, resultText(r))
				}
			}
		})
	}
}
