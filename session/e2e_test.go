package session

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/session/peers"
)

// everything returns a stdio Source for the pinned everything server,
// installing it on first use. Without node/npm the test is skipped, unless
// CI=true, where a missing peer is a failure.
func everything(t testing.TB) Source {
	t.Helper()
	p, err := peers.Everything(context.Background(), os.Getenv)
	if err != nil {
		if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("end-to-end test skipped: %v", err)
		}
		t.Fatalf("installing the end-to-end peer: %v", err)
	}
	return Source{Kind: Stdio, Name: "server-everything", Command: p.Node, Args: []string{p.Entry, "stdio"}}
}

// TestEverything runs mcpterm's client against the MCP project's own
// reference server, over a real stdio subprocess.
func TestEverything(t *testing.T) {
	src := everything(t)
	s := open(t, src, Options{})
	ctx := ctxT(t, 60*time.Second)
	info := s.Info()
	if info.Name != "mcp-servers/everything" || info.ProtocolVersion != "2025-11-25" || info.Instructions == "" {
		t.Errorf("info: %q %q instructions %d bytes", info.Name, info.ProtocolVersion, len(info.Instructions))
	}
	set, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"echo", "get-sum", "get-structured-content", "get-tiny-image", "trigger-long-running-operation"} {
		if set.Find(name) == nil {
			t.Fatalf("no %s among %d tools", name, len(set.Tools))
		}
	}
	// As sent: the $schema key the server writes first is still first.
	if k := set.Find("echo").InputSchema.Keys(); len(k) == 0 || k[0] != "$schema" {
		t.Errorf("echo schema keys %v", k)
	}

	r := s.Call(ctx, CallRequest{Tool: "echo", Arguments: obj(t, `{"message":"hi there"}`)})
	if !r.OK() || !strings.Contains(resultText(r), "hi there") {
		t.Errorf("echo: %v %q", r.Err, resultText(r))
	}
	r = s.Call(ctx, CallRequest{Tool: "get-sum", Arguments: obj(t, `{"a":19,"b":23}`)})
	if !r.OK() || !strings.Contains(resultText(r), "42") {
		t.Errorf("get-sum: %v %q", r.Err, resultText(r))
	}
	r = s.Call(ctx, CallRequest{Tool: "get-structured-content", Arguments: obj(t, `{"location":"Chicago"}`)})
	if !r.OK() || r.Raw.Get("structuredContent") == nil {
		t.Errorf("structured: %v %v", r.Err, r.SchemaErr)
	}
	r = s.Call(ctx, CallRequest{Tool: "get-tiny-image"})
	var image bool
	for _, c := range r.Result.Content {
		if img, ok := c.(mcp.ImageContent); ok && img.MIMEType == "image/png" && img.Data != "" {
			image = true
		}
	}
	if !image {
		t.Errorf("get-tiny-image: no typed image content in %#v", r.Result.Content)
	}
	r = s.Call(ctx, CallRequest{Tool: "get-sum", Arguments: obj(t, `{"a":"x"}`)})
	if r.OK() {
		t.Error("get-sum with bad arguments succeeded")
	}

	// One second in four steps, against a 600 ms timeout: only progress
	// notifications keep it alive.
	r = s.Call(ctx, CallRequest{Tool: "trigger-long-running-operation", Arguments: obj(t, `{"duration":1,"steps":4}`), Timeout: 600 * time.Millisecond})
	if !r.OK() || r.Progress < 3 {
		t.Errorf("long operation: %v, %d progress", r.Err, r.Progress)
	}
	cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	r = s.Call(cctx, CallRequest{Tool: "trigger-long-running-operation", Arguments: obj(t, `{"duration":20,"steps":10}`)})
	cancel()
	if !r.Cancelled {
		t.Errorf("cancelled operation: %v", r.Err)
	}
	waitFor(t, 5*time.Second, "notifications/cancelled", func() bool { return hasCancelNotification(s) })
	if err := s.Ping(ctx); err != nil {
		t.Errorf("ping after cancel: %v", err)
	}

	rs, err := s.Resources(ctx)
	if err != nil || len(rs) == 0 {
		t.Fatalf("resources: %d, %v", len(rs), err)
	}
	if rc, err := s.ReadResource(ctx, rs[0].URI); err != nil || len(rc.Result.Contents) == 0 {
		t.Errorf("read %s: %v", rs[0].URI, err)
	}
	ts, err := s.ResourceTemplates(ctx)
	if err != nil || len(ts) == 0 {
		t.Fatalf("templates: %v", err)
	}
	if rc, err := s.ReadResource(ctx, "demo://resource/dynamic/text/1"); err != nil || len(rc.Result.Contents) == 0 {
		t.Errorf("templated read: %v", err)
	}
	ps, err := s.Prompts(ctx)
	if err != nil || len(ps) == 0 {
		t.Fatalf("prompts: %v", err)
	}
	pm, err := s.GetPrompt(ctx, "args-prompt", map[string]string{"city": "Lisbon"})
	if err != nil || !strings.Contains(pm.Raw.Compact(), "Lisbon") {
		t.Errorf("args-prompt: %v", err)
	}

	b := s.Batch(ctx, []CallRequest{
		{ID: "1", Tool: "get-sum", Arguments: obj(t, `{"a":1,"b":2}`)},
		{ID: "2", Tool: "no-such-tool"},
		{ID: "3", Tool: "echo", Arguments: obj(t, `{"message":"three"}`)},
	}, BatchOptions{Concurrency: 3})
	if !b.ByID("1").OK() || b.ByID("2").OK() || !strings.Contains(resultText(b.ByID("3")), "three") {
		t.Errorf("batch: %v / %v / %v", b.ByID("1").Err, b.ByID("2").Err, b.ByID("3").Err)
	}
	if out := s.Stderr(); out == "" {
		t.Error("no stderr captured from node")
	}
}

func TestEverythingOlderProtocols(t *testing.T) {
	src := everything(t)
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		t.Run(v, func(t *testing.T) {
			s := open(t, src, Options{ProtocolVersion: v})
			if got := s.Info().ProtocolVersion; got != v {
				t.Errorf("negotiated %s, want %s", got, v)
			}
			r := s.Call(ctxT(t, 20*time.Second), CallRequest{Tool: "get-sum", Arguments: obj(t, `{"a":1,"b":1}`)})
			if !r.OK() || !strings.Contains(resultText(r), "2") {
				t.Errorf("get-sum on %s: %v", v, r.Err)
			}
		})
	}
}
