package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/policy"
	"github.com/mcpterm/mcpterm/tokens"
)

// demoServer is a demo server whose ids and clock are fixed, so two of them
// given the same calls give the same answers: one behind the gateway, one
// called directly.
func demoServer() *server.MCPServer {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var mu sync.Mutex
	n := 0
	return demo.New(demo.Options{Seed: 7, Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		n++
		return t0.Add(time.Duration(n) * time.Second)
	}})
}

func ctxT(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func openSession(t testing.TB, src session.Source, opts session.Options) *session.Session {
	t.Helper()
	s, err := session.Open(ctxT(t, 30*time.Second), src, opts)
	if err != nil {
		t.Fatalf("open %s: %v", src, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func demoSession(t testing.TB) *session.Session {
	return openSession(t, session.Source{Kind: session.InProcess, Name: "demo", Server: demoServer()}, session.Options{})
}

// demoProcessSession is the demo server as a process on stdio (this test
// binary, see TestMain), for tests that count a call's progress: in process
// notifications travel apart from answers, so an upstream call can return
// before its last progress reaches the gateway, which then has nothing to
// forward; over stdio the demo writes its progress first and the session
// reads in order.
func demoProcessSession(t testing.TB) *session.Session {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return openSession(t, session.Source{Kind: session.Stdio, Name: "demo", Command: exe, Args: []string{"-test.run=^$"},
		Env: map[string]string{demoEnv: "1"}}, session.Options{})
}

// allowAll is the policy of a gateway started with --yes.
func allowAll(t testing.TB) *policy.Policy {
	p, err := policy.New(policy.Rules{Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newGateway(t testing.TB, up session.Client, opts Options) *Gateway {
	t.Helper()
	g, err := New(ctxT(t, 30*time.Second), up, opts)
	if err != nil {
		t.Fatalf("gateway.New: %v", err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// hangGuard bounds every wait on an event; it only turns a hang into a
// failure.
const hangGuard = 10 * time.Second

// signal is a broadcast: changed returns a channel that the next notify
// closes.
type signal struct {
	mu sync.Mutex
	ch chan struct{}
}

func (s *signal) changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

func (s *signal) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// until waits until cond holds, checking it again each time s signals.
func until(t testing.TB, what string, s *signal, cond func() bool) {
	t.Helper()
	timer := time.NewTimer(hangGuard)
	defer timer.Stop()
	for {
		ch := s.changed() // before cond, so a change in between is not missed
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-timer.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// notes collects what a client was sent outside of answers.
type notes struct {
	mu      sync.Mutex
	list    []mcp.JSONRPCNotification
	arrived signal
}

func (n *notes) add(x mcp.JSONRPCNotification) {
	n.mu.Lock()
	n.list = append(n.list, x)
	n.mu.Unlock()
	n.arrived.notify()
}

func (n *notes) of(method string) []mcp.JSONRPCNotification {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []mcp.JSONRPCNotification
	for _, x := range n.list {
		if x.Method == method {
			out = append(out, x)
		}
	}
	return out
}

// await waits until cond holds, checking it as each notification arrives.
func (n *notes) await(t testing.TB, what string, cond func() bool) {
	t.Helper()
	until(t, what, &n.arrived, cond)
}

// remarks collects a gateway's Notef lines, for tests that wait on what the
// gateway did (rebuilt its tools, reconnected).
type remarks struct {
	mu    sync.Mutex
	lines []string
	added signal
}

func (r *remarks) notef(format string, args ...any) {
	r.mu.Lock()
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
	r.mu.Unlock()
	r.added.notify()
}

func (r *remarks) has(prefix string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// await waits for a remark starting with prefix.
func (r *remarks) await(t testing.TB, prefix string) {
	t.Helper()
	until(t, fmt.Sprintf("the gateway to say %q", prefix), &r.added, func() bool { return r.has(prefix) })
}

// watchTap starts watching s's protocol tap and returns a func that waits
// until the tap has recorded a message with method (before or after the
// watch began). Call it before the action that makes the message.
func watchTap(t testing.TB, s *session.Session, method string) (await func()) {
	ch, stop := s.Tap().Subscribe()
	t.Cleanup(stop)
	recorded := func() bool {
		return slices.ContainsFunc(s.Tap().Messages(), func(m session.Message) bool { return m.Method == method })
	}
	return func() {
		t.Helper()
		timer := time.NewTimer(hangGuard)
		defer timer.Stop()
		// Each new message is a reason to look again; the tap's own record is
		// the truth (a slow subscriber may miss messages, Messages does not).
		for !recorded() {
			select {
			case _, ok := <-ch:
				if !ok {
					t.Fatalf("the tap closed before %s was recorded", method)
				}
			case <-timer.C:
				t.Fatalf("timed out waiting for %s in the upstream tap", method)
			}
		}
	}
}

// inProcessClient connects mcp-go's client to the gateway in this process,
// speaking the newest protocol revision.
func inProcessClient(t testing.TB, g *Gateway) (*client.Client, *notes) {
	t.Helper()
	return inProcessClientAt(t, g, mcp.LATEST_PROTOCOL_VERSION)
}

// inProcessClientAt is inProcessClient at a given protocol revision.
func inProcessClientAt(t testing.TB, g *Gateway, version string) (*client.Client, *notes) {
	t.Helper()
	c, err := client.NewInProcessClient(g.Server())
	if err != nil {
		t.Fatal(err)
	}
	return c, connect(t, c, version)
}

// serveHTTP serves g over streamable HTTP until the test ends and returns
// the endpoint's URL.
func serveHTTP(t testing.TB, g *Gateway) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.ServeStreamable(ctx, ln, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeStreamable: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + HTTPPath
}

// httpClient serves g over streamable HTTP and connects mcp-go's client to
// it at protocol revision version. The client opens no GET stream, so a
// call's notifications come on its own POST stream, which the client reads
// in order, handing each notification to the notes before it returns the
// answer.
func httpClient(t testing.TB, g *Gateway, version string) (*client.Client, *notes) {
	t.Helper()
	c, err := client.NewStreamableHttpClient(serveHTTP(t, g))
	if err != nil {
		t.Fatal(err)
	}
	return c, connect(t, c, version)
}

// connect starts c, initializes it at protocol revision version, and
// collects what it is sent outside of answers; c closes when the test ends.
func connect(t testing.TB, c *client.Client, version string) *notes {
	t.Helper()
	n := &notes{}
	ctx := ctxT(t, 30*time.Second)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.OnNotification(n.add)
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "gateway-test", Version: "0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return n
}

// callTool calls a gateway tool with JSON arguments.
func callTool(t testing.TB, c *client.Client, tool, args string) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = json.RawMessage(args)
	res, err := c.CallTool(ctxT(t, 30*time.Second), req)
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	return res
}

func termCall(t testing.TB, c *client.Client, expr string) *mcp.CallToolResult {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"expr": expr})
	return callTool(t, c, DefaultTermTool, string(b))
}

// text is the first text item of a result.
func text(r *mcp.CallToolResult) string {
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

func obj(t testing.TB, src string) *ojson.Value {
	t.Helper()
	v, err := ojson.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func contains(t testing.TB, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}

// isErrorResult reads a CallToolResult's isError.
func isErrorResult(raw *ojson.Value) bool {
	if raw == nil {
		return false
	}
	b := raw.Get("isError")
	return b != nil && b.Kind == ojson.Bool && b.Bool
}

// o200kCounter counts a text's o200k_base tokens, failing t on an error.
func o200kCounter(t testing.TB) func(string) int {
	t.Helper()
	counter, err := tokens.NewCounter(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return func(s string) int {
		n, err := counter.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}
