package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session/peers"
)

// samplingClient answers sampling with a fixed reply.
type samplingClient struct{}

func (samplingClient) CreateMessage(context.Context, mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant,
		Content: mcp.NewTextContent("the client's own model says hi")}, Model: "client-model"}, nil
}

// TestServeForwardsClientSide: `mcpterm serve` in front of server-everything
// sends the server's sampling request to the client that can answer it,
// declines it for one that cannot, and offers the server --root while no
// client offers roots (and none with --no-roots).
func TestServeForwardsClientSide(t *testing.T) {
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatal(err)
	}
	root := t.TempDir()
	url, stderr := serveHTTPCLI(t, nil, "--listen", "127.0.0.1:0", "--yes", "--root", root, "--", p.Node, p.Entry, "stdio")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	//lint:ignore SA1019 the gateway's clients before 2026-07-28 take its requests on the GET stream
	tr, err := transport.NewStreamableHTTP(url, transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	asker := client.NewClient(tr, client.WithSamplingHandler(samplingClient{}))
	t.Cleanup(func() { asker.Close() })
	if err := asker.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	req.Params.ClientInfo = mcp.Implementation{Name: "asker", Version: "0"}
	if _, err := asker.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	sample := map[string]any{"expr": `(trigger-sampling-request :prompt "say hi" :maxTokens 20)`}
	if r := serveCall(t, asker, "mcp_term", sample); r.IsError || !strings.Contains(serveText(r), "the client's own model says hi") {
		t.Errorf("sampling through the gateway: %s", serveText(r))
	}
	if r := serveCall(t, asker, "mcp_term", map[string]any{"expr": `(get-roots-list)`}); !strings.Contains(serveText(r), "file://"+root) {
		t.Errorf("roots without a client offering any: %s\n%s", serveText(r), stderr.String())
	}

	plain, err := initHTTP(t, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := serveCall(t, plain, "mcp_term", sample); !r.IsError || !strings.Contains(serveText(r), "client serve-test, whose call is in flight on the upstream, did not declare sampling") {
		t.Errorf("sampling for a client without it: %s", serveText(r))
	}
	if !strings.Contains(stderr.String(), "mcpterm serve: forwarding the upstream's sampling request to client asker") {
		t.Errorf("stderr: %s", stderr.String())
	}

	// Without --root the gateway offers no roots of its own, not the
	// current directory (which would replace a sandboxing server's own).
	for _, flags := range [][]string{{"--no-roots"}, nil} {
		args := append(append([]string{"--listen", "127.0.0.1:0"}, flags...), "--", p.Node, p.Entry, "stdio")
		url, _ = serveHTTPCLI(t, nil, args...)
		none, err := initHTTP(t, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := serveCall(t, none, "mcp_term", map[string]any{"expr": `(get-roots-list)`}); !strings.Contains(serveText(r), "no roots are currently configured") {
			t.Errorf("serve %v: %s", flags, serveText(r))
		}
	}
}
