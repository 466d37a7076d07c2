package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// syncBuffer collects a stream written from another goroutine.
type syncBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	grew chan struct{} // closed, and dropped, by the next Write (waitFor)
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.grew != nil {
		close(b.grew)
		b.grew = nil
	}
	return b.buf.Write(p)
}

// waitFor waits, one write at a time, until the stream holds want, and
// returns it; d only turns a hang into a failure.
func (b *syncBuffer) waitFor(t *testing.T, want string, d time.Duration) string {
	t.Helper()
	deadline := time.After(d)
	for {
		b.mu.Lock()
		s := b.buf.String()
		if strings.Contains(s, want) {
			b.mu.Unlock()
			return s
		}
		if b.grew == nil {
			b.grew = make(chan struct{})
		}
		grew := b.grew
		b.mu.Unlock()
		select {
		case <-grew:
		case <-deadline:
			t.Fatalf("%q never written; got:\n%s", want, s)
		}
	}
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// notes records the notifications a client receives and wakes those
// waiting for one.
type notes struct {
	mu      sync.Mutex
	all     []mcp.JSONRPCNotification
	arrived chan struct{} // closed, and replaced, when a notification arrives
}

func (n *notes) add(x mcp.JSONRPCNotification) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.all = append(n.all, x)
	if n.arrived != nil {
		close(n.arrived)
		n.arrived = nil
	}
}

// next is a channel closed when the next notification arrives.
func (n *notes) next() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.arrived == nil {
		n.arrived = make(chan struct{})
	}
	return n.arrived
}

// await waits until cond holds, looking again as each notification
// arrives.
func (n *notes) await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	timer := time.NewTimer(15 * time.Second)
	defer timer.Stop()
	for {
		arrived := n.next() // before cond, so an arrival in between is not missed
		if cond() {
			return
		}
		select {
		case <-arrived:
		case <-timer.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (n *notes) count(method string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, x := range n.all {
		if x.Method == method {
			c++
		}
	}
	return c
}

func (n *notes) find(method, text string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, x := range n.all {
		b, _ := json.Marshal(x.Params)
		if x.Method == method && strings.Contains(string(b), text) {
			return true
		}
	}
	return false
}

func initClient(t *testing.T, ctx context.Context, c *client.Client) *notes {
	t.Helper()
	n := &notes{}
	c.OnNotification(n.add)
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "demo-server-test", Version: "0"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Name != "mcpterm-demo" {
		t.Fatalf("server = %+v", res.ServerInfo)
	}
	return n
}

func callTool(t *testing.T, ctx context.Context, c *client.Client, name, args string, meta *mcp.Meta) (*mcp.CallToolResult, error) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = json.RawMessage(args)
	req.Params.Meta = meta
	return c.CallTool(ctx, req)
}

func resultText(r *mcp.CallToolResult) string {
	var sb strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	return sb.String()
}

// exercise runs the same checks over any transport: listing, real effects,
// progress and cancellation.
func exercise(t *testing.T, ctx context.Context, c *client.Client, n *notes) {
	t.Helper()
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 10 {
		t.Fatalf("tools/list: %v, %d tools", err, len(tools.Tools))
	}
	r, err := callTool(t, ctx, c, "create_todo", `{"title": "over the wire"}`, nil)
	if err != nil || r.IsError {
		t.Fatalf("create_todo: %v %v", err, r)
	}
	r, err = callTool(t, ctx, c, "list_todos", `{"query": "over the wire"}`, nil)
	if err != nil || r.IsError || !strings.Contains(resultText(r), `"total":1`) {
		t.Fatalf("list_todos: %v %s", err, resultText(r))
	}
	r, err = callTool(t, ctx, c, "file_read", `{"path": "/etc/hosts", "offset": 2, "limit": 6}`, nil)
	if err != nil || resultText(r) != "Static" {
		t.Errorf("file_read: %v %q", err, resultText(r))
	}

	r, err = callTool(t, ctx, c, "long_task", `{"steps": 3, "delay_ms": 5}`, &mcp.Meta{ProgressToken: "p1"})
	if err != nil || r.IsError {
		t.Fatalf("long_task: %v %v", err, r)
	}
	// The demo server writes a call's progress before its answer, and the
	// client hands each notification to its handler before it reads on, so
	// all three are in when the answer is.
	if got := n.count("notifications/progress"); got != 3 {
		t.Errorf("%d progress notifications before the answer, want all 3", got)
	}

	// Cancel a long job part-way; the server logs where it stopped.
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		meta := &mcp.Meta{ProgressToken: "p2", AdditionalFields: map[string]any{mcp.MetaKeyLogLevel: "warning"}}
		_, err := callTool(t, cctx, c, "long_task", `{"steps": 100, "delay_ms": 40}`, meta)
		done <- err
	}()
	n.await(t, "progress from the long job", func() bool { return n.find("notifications/progress", `"progressToken":"p2"`) })
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("cancelled long_task returned a result")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled long_task did not return")
	}
	// The server is still fine.
	r, err = callTool(t, ctx, c, "get_todo", `{"id": "nope"}`, nil)
	if err != nil || !r.IsError || !strings.Contains(resultText(r), "not found") {
		t.Errorf("after cancellation: %v %v", err, r)
	}
}

func TestDemoServerUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--help"}, exitOK, ""}, // on stdout: TestHelpOnStdout
		{[]string{"extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"--port", "1"}, exitUsage, "flag provided but not defined: --port"},
		{[]string{"--listen", "127.0.0.1:99999"}, exitConnect, "cannot listen on 127.0.0.1:99999"},
	} {
		var stderr bytes.Buffer
		c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
		if code := c.serveDemo(context.Background(), tc.args, nil); code != tc.code || !strings.Contains(stderr.String(), tc.says) {
			t.Errorf("%v: exit %d (want %d), stderr %q", tc.args, code, tc.code, stderr.String())
		}
	}
}

func TestDemoServerHTTP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sctx, stop := context.WithCancel(ctx)
	var stderr syncBuffer
	c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
	addrs := make(chan net.Addr, 1)
	exited := make(chan int, 1)
	go func() {
		exited <- c.serveDemo(sctx, []string{"--listen", "127.0.0.1:0"}, func(a net.Addr) { addrs <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case code := <-exited:
		t.Fatalf("server exited %d: %s", code, stderr.String())
	}
	url := "http://" + addr.String() + "/mcp"
	if !strings.Contains(stderr.String(), url) {
		t.Errorf("stderr does not announce %s: %q", url, stderr.String())
	}

	mc, err := client.NewStreamableHttpClient(url)
	if err != nil {
		t.Fatal(err)
	}
	n := initClient(t, ctx, mc)
	exercise(t, ctx, mc, n)
	// A second client sees the first one's todo: one server, shared state.
	mc2, _ := client.NewStreamableHttpClient(url)
	initClient(t, ctx, mc2)
	r, err := callTool(t, ctx, mc2, "list_todos", `{"query": "over the wire"}`, nil)
	if err != nil || !strings.Contains(resultText(r), `"total":1`) {
		t.Errorf("second client: %v %s", err, resultText(r))
	}
	mc.Close()
	mc2.Close()

	stop()
	select {
	case code := <-exited:
		if code != exitOK {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("HTTP server did not shut down")
	}
	if !strings.Contains(stderr.String(), "stopped") {
		t.Errorf("stderr = %q", stderr.String())
	}
	if _, err := net.DialTimeout("tcp", addr.String(), time.Second); err == nil {
		t.Error("still listening after shutdown")
	}
}

// buildMcpterm compiles the binary once for the subprocess tests.
func buildMcpterm(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpterm")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("wait: %v", err)
		}
		return 0
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("process did not exit")
	}
	return -1
}

func TestDemoServerSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildMcpterm(t)

	t.Run("stdio", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.Command(bin, "demo-server")
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		mc := client.NewClient(transport.NewIO(stdout, stdin, nil))
		n := initClient(t, ctx, mc)
		exercise(t, ctx, mc, n)
		// The cancellation reached the server (notifications/cancelled), which
		// stopped the job and said so.
		n.await(t, "the server's cancellation log", func() bool {
			return n.find("notifications/message", "long_task cancelled after")
		})
		// Closing stdin is a clean shutdown.
		stdin.Close()
		if code := waitExit(t, cmd); code != 0 {
			t.Errorf("exit %d after stdin EOF; stderr %q", code, stderr.String())
		}
	})

	t.Run("sigterm", func(t *testing.T) {
		cmd := exec.Command(bin, "demo-server")
		stdin, _ := cmd.StdinPipe()
		defer stdin.Close()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		initClient(t, ctx, client.NewClient(transport.NewIO(stdout, stdin, nil)))
		cmd.Process.Signal(syscall.SIGTERM)
		if code := waitExit(t, cmd); code != 0 {
			t.Errorf("exit %d after SIGTERM", code)
		}
	})

	t.Run("http-sigint", func(t *testing.T) {
		cmd := exec.Command(bin, "demo-server", "--listen", "127.0.0.1:0")
		cmd.Stdin = nil // no stdin at all: HTTP mode must not stop on EOF
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stderr)
		var url string
		for lines.Scan() {
			if _, after, ok := strings.Cut(lines.Text(), " at "); ok {
				url = after
				break
			}
		}
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			cmd.Process.Kill()
			t.Fatalf("no address announced (got %q)", url)
		}
		go io.Copy(io.Discard, stderr)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		mc, _ := client.NewStreamableHttpClient(url)
		initClient(t, ctx, mc)
		if tools, err := mc.ListTools(ctx, mcp.ListToolsRequest{}); err != nil || len(tools.Tools) != 10 {
			t.Errorf("tools/list: %v", err)
		}
		mc.Close()
		cmd.Process.Signal(os.Interrupt)
		if code := waitExit(t, cmd); code != 0 {
			t.Errorf("exit %d after SIGINT", code)
		}
	})
}
