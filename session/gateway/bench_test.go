package gateway

import (
	"context"
	"encoding/json"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The gateway's added latency per call is the difference between a client
// calling the demo server directly and the same client calling it through
// the gateway, both with mcp-go's client:
//
//	go test -run '^$' -bench . -benchmem ./session/gateway
//
// BenchmarkCall/inprocess/*: client, gateway and demo server in one process;
// inprocess-upstream and inprocess-fleet4: client and gateway in one
// process, the demo server on stdio, alone or among four upstreams.
// BenchmarkCall/stdio/*: the client talks stdio to a process (this test
// binary) that is either the demo server or the gateway in front of it; with
// "stdio-upstream" the gateway reaches the demo server over stdio too, as
// `mcpterm serve -- CMD` does; with "stdio-fleet4" it fronts the
// four-server config (fourServerConfig) as `mcpterm serve --config F --all`
// does, and the call goes to the demo server among the four.

// benchCall is one file_read of a small file, written for each front end.
var benchCall = map[string]struct {
	tool string
	args any
}{
	"direct":     {"file_read", map[string]any{"path": "/etc/hosts"}},
	"term":       {"mcp_term", map[string]any{"expr": `(fr "/etc/hosts")`}},
	"aql-single": {"mcp_aql", map[string]any{"operation": "file_read", "params": map[string]any{"path": "/etc/hosts"}}},
	// Among four servers the call names the tool in full, as the short
	// code depends on the merged list.
	"term-fleet4": {"mcp_term", map[string]any{"expr": `(file_read "/etc/hosts")`}},
}

func runBench(b *testing.B, c *client.Client, front string) {
	call := benchCall[front]
	req := mcp.CallToolRequest{}
	req.Params.Name = call.tool
	req.Params.Arguments = call.args
	ctx := context.Background()
	cpu0 := cpuTime()
	for b.Loop() {
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %+v", front, err, res)
		}
	}
	// CPU time of this process per call: on a loaded machine it says what
	// the work costs better than wall time does. (For the stdio benchmarks
	// it leaves out the child processes.)
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the user+system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startedClient(b *testing.B, tr transport.Interface) *client.Client {
	c := client.NewClient(tr)
	// Start's context lives as long as the client: a stdio transport ties
	// its child process to it.
	if err := c.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	req.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

func BenchmarkCall(b *testing.B) {
	b.Run("inprocess/direct", func(b *testing.B) {
		runBench(b, startedClient(b, transport.NewInProcessTransport(demoServer())), "direct")
	})
	for _, m := range []Mode{ModeTerm, ModeAQLSingle} {
		b.Run("inprocess/"+string(m), func(b *testing.B) {
			g := newGateway(b, demoSession(b), Options{Mode: m, Policy: allowAll(b)})
			runBench(b, startedClient(b, transport.NewInProcessTransport(g.Server())), string(m))
		})
	}

	// The gateway in this process over the demo server on stdio, alone or
	// among the four-server config's upstreams: cpu-ns/op is then the
	// client's and the gateway's work (not the upstreams'), so the two
	// differ by what the fleet adds to a call.
	b.Run("inprocess-upstream/term", func(b *testing.B) {
		g := newGateway(b, demoProcessSession(b), Options{Mode: ModeTerm, Policy: allowAll(b)})
		runBench(b, startedClient(b, transport.NewInProcessTransport(g.Server())), "term-fleet4")
	})
	b.Run("inprocess-fleet4/term", func(b *testing.B) {
		f, _ := fourServerFleet(b)
		g := newGateway(b, f, Options{Mode: ModeTerm, Policy: allowAll(b)})
		runBench(b, startedClient(b, transport.NewInProcessTransport(g.Server())), "term-fleet4")
	})

	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	stdio := func(b *testing.B, env ...string) transport.Interface {
		tr := transport.NewStdio(exe, append(os.Environ(), env...), "-test.run=^$")
		return tr
	}
	b.Run("stdio/direct", func(b *testing.B) {
		runBench(b, startedClient(b, stdio(b, demoEnv+"=1")), "direct")
	})
	for _, m := range []Mode{ModeTerm, ModeAQLSingle} {
		b.Run("stdio/"+string(m), func(b *testing.B) {
			spec, _ := json.Marshal(serveSpec{Mode: m})
			runBench(b, startedClient(b, stdio(b, serveEnv+"="+string(spec))), string(m))
		})
		b.Run("stdio-upstream/"+string(m), func(b *testing.B) {
			// The gateway process starts the demo server as its own child.
			spec, _ := json.Marshal(serveSpec{Mode: m, Command: exe, Args: []string{"-test.run=^$"}, Env: map[string]string{demoEnv: "1"}})
			runBench(b, startedClient(b, stdio(b, serveEnv+"="+string(spec))), string(m))
		})
	}
	for _, m := range []Mode{ModeTerm, ModeAQLSingle} {
		b.Run("stdio-fleet4/"+string(m), func(b *testing.B) {
			path, _ := fourServerConfig(b)
			spec, _ := json.Marshal(serveSpec{Mode: m, Config: path})
			front := string(m)
			if m == ModeTerm {
				front = "term-fleet4"
			}
			runBench(b, startedClient(b, stdio(b, serveEnv+"="+string(spec))), front)
		})
	}
}
