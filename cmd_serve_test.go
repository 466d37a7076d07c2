package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// serveCLI runs `mcpterm serve ARGS` in process with its stdio on pipes and
// returns an initialized mcp-go client talking to it, and a func that
// closes stdin and returns the exit code and stderr.
func serveCLI(t *testing.T, args ...string) (*client.Client, func() (int, string)) {
	t.Helper()
	return serveCLIWith(t, nil, args...)
}

// serveCLIWith is serveCLI with the cli adjusted by setup first (its
// environment, its home).
func serveCLIWith(t *testing.T, setup func(*cli), args ...string) (*client.Client, func() (int, string)) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := &syncBuffer{}
	c := &cli{stdin: inR, stdout: outW, stderr: stderr, getenv: func(string) string { return "" }}
	if setup != nil {
		setup(c)
	}
	code := make(chan int, 1)
	go func() {
		code <- c.serve(context.Background(), args, nil)
		outW.Close()
	}()
	cl := client.NewClient(transport.NewIO(outR, inW, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	req.Params.ClientInfo = mcp.Implementation{Name: "serve-test", Version: "0"}
	if _, err := cl.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	stop := func() (int, string) {
		inW.Close()
		select {
		case n := <-code:
			cl.Close()
			return n, stderr.String()
		case <-time.After(10 * time.Second):
			t.Fatalf("serve did not end when stdin closed\n%s", stderr.String())
			return 0, ""
		}
	}
	return cl, stop
}

func serveCall(t *testing.T, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func serveText(r *mcp.CallToolResult) string {
	if len(r.Content) == 0 {
		return ""
	}
	tc, _ := r.Content[0].(mcp.TextContent)
	return tc.Text
}

func TestServeStdioTerm(t *testing.T) {
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	c, stop := serveCLI(t, "--descriptions", "lean", "--audit", audit)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 1 || tools.Tools[0].Name != "mcp_term" || !strings.Contains(tools.Tools[0].Description, "(declare") {
		t.Fatalf("tools: %+v", tools.Tools)
	}
	if strings.Contains(tools.Tools[0].Description, "Absolute path of the file") {
		t.Error("--descriptions lean kept a field description")
	}
	r := serveCall(t, c, "mcp_term", map[string]any{"expr": `(fr "/etc/hosts")`})
	if r.IsError || !strings.HasPrefix(serveText(r), `(ok "# Static table lookup for hostnames.\n127.0.0.1`) {
		t.Errorf("file_read: %s", serveText(r))
	}
	// Without --yes a destructive tool is refused, and says how to allow it.
	r = serveCall(t, c, "mcp_term", map[string]any{"expr": `(cc)`})
	if !r.IsError || !strings.Contains(serveText(r), "started without --yes") {
		t.Errorf("clear_completed without --yes: %s", serveText(r))
	}
	// Resources pass through.
	rr := mcp.ReadResourceRequest{}
	rr.Params.URI = "demo://catalog"
	if res, err := c.ReadResource(ctx, rr); err != nil || len(res.Contents) == 0 {
		t.Errorf("demo://catalog: %v", err)
	}
	code, stderr := stop()
	if code != exitOK {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "serving in-process demo as term") || !strings.Contains(stderr, "dropped (lean)") {
		t.Errorf("stderr: %s", stderr)
	}
	f, err := os.Open(audit)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var decisions []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct{ Tool, Decision string }
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		decisions = append(decisions, rec.Tool+":"+rec.Decision)
	}
	if got := strings.Join(decisions, " "); got != "file_read:allow clear_completed:confirm" {
		t.Errorf("audit: %s", got)
	}
}

func TestServeStdioReadOnlyAQL(t *testing.T) {
	aqlMap := filepath.Join(t.TempDir(), "map.json")
	if err := os.WriteFile(aqlMap, []byte(`{"get_todo": {"operation": "fetch_todo"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, stop := serveCLI(t, "--mode", "aql-single", "--read-only", "--aql-map", aqlMap)
	r := serveCall(t, c, "mcp_aql", map[string]any{"operation": "introspect", "params": map[string]any{"query": "operations"}})
	if r.IsError {
		t.Fatal(serveText(r))
	}
	text := serveText(r)
	if !strings.Contains(text, `"name":"list_todos"`) || strings.Contains(text, "create_todo") {
		t.Errorf("--read-only operations: %s", text)
	}
	if !strings.Contains(text, `"name":"fetch_todo"`) || strings.Contains(text, `"name":"get_todo"`) {
		t.Errorf("--aql-map did not rename get_todo: %s", text)
	}
	r = serveCall(t, c, "mcp_aql", map[string]any{"operation": "list_todos", "params": map[string]any{"limit": 1}})
	if r.IsError || !strings.HasPrefix(serveText(r), `{"success":true,"data":{"items":[`) {
		t.Errorf("list_todos: %s", serveText(r))
	}
	if code, stderr := stop(); code != exitOK {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

// TestServeTermAQLMap: in term mode --aql-map corrects the categories the
// destructive rule reads, as `mcpterm call --aql-map` does for S-expression
// calls: a tool the map calls a delete needs --yes.
func TestServeTermAQLMap(t *testing.T) {
	aqlMap := filepath.Join(t.TempDir(), "map.json")
	if err := os.WriteFile(aqlMap, []byte(`{"create_todo": {"category": "DELETE"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, stop := serveCLI(t, "--aql-map", aqlMap)
	r := serveCall(t, c, "mcp_term", map[string]any{"expr": `(ct "x")`})
	if !r.IsError || !strings.HasPrefix(serveText(r), `(err needs-confirmation "refused: tool \"create_todo\" is destructive (classified as a delete)`) {
		t.Errorf("create_todo mapped to DELETE: %s", serveText(r))
	}
	if r := serveCall(t, c, "mcp_term", map[string]any{"expr": `(lt :limit 1)`}); r.IsError {
		t.Errorf("list_todos: %s", serveText(r))
	}
	if code, stderr := stop(); code != exitOK {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

func TestServeHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &syncBuffer{}
	c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr, getenv: func(string) string { return "" }}
	addr := make(chan net.Addr, 1)
	code := make(chan int, 1)
	go func() {
		code <- c.serve(ctx, []string{"--mode", "aql-semantic", "--listen", "127.0.0.1:0", "--yes"}, func(a net.Addr) { addr <- a })
	}()
	var url string
	select {
	case a := <-addr:
		url = "http://" + a.String() + "/mcp"
	case n := <-code:
		t.Fatalf("serve ended with %d\n%s", n, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("no listener")
	}
	cl, err := client.NewStreamableHttpClient(url)
	if err != nil {
		t.Fatal(err)
	}
	rctx, rcancel := context.WithTimeout(ctx, 20*time.Second)
	defer rcancel()
	if err := cl.Start(rctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	req.Params.ClientInfo = mcp.Implementation{Name: "serve-test", Version: "0"}
	if _, err := cl.Initialize(rctx, req); err != nil {
		t.Fatal(err)
	}
	tools, err := cl.ListTools(rctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 5 {
		t.Fatalf("tools: %v %+v", err, tools)
	}
	r := serveCall(t, cl, "mcp_aql_delete", map[string]any{"operation": "clear_completed"})
	if r.IsError || !strings.HasPrefix(serveText(r), `{"success":true,"data":{"deletedCount":1}}`) {
		t.Errorf("clear_completed with --yes: %s", serveText(r))
	}
	cl.Close()
	cancel()
	select {
	case n := <-code:
		if n != exitOK {
			t.Errorf("exit %d\n%s", n, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	if s := stderr.String(); !strings.Contains(s, "serving MCP over streamable HTTP at http://127.0.0.1:") || !strings.Contains(s, "stopped") {
		t.Errorf("stderr: %s", s)
	}
}

func TestServeUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "json"}, `unknown mode "json"`},
		{[]string{"--mode", "aql-single", "--descriptions", "lean"}, "--descriptions lean is for --mode term"},
		{[]string{"--descriptions", "short"}, `--descriptions "short": want full or lean`},
		{[]string{"--tools", "x.json"}, "no server to run the calls"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--aql-map", "/nonexistent/m.json"}, "--aql-map:"},
		{[]string{"--mode", "aql-single", "--aql-map", "/nonexistent/m.json"}, "--aql-map:"},
		{[]string{"--allow", "["}, "--allow"},
	}
	for _, tc := range cases {
		stderr := &syncBuffer{}
		c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr, getenv: func(string) string { return "" }}
		if code := c.serve(context.Background(), tc.args, nil); code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr.String())
		}
	}
}

// serveHTTPCLI runs `mcpterm serve ARGS` in process with env as its
// environment until the test ends, and returns the endpoint's URL and its
// stderr.
func serveHTTPCLI(t *testing.T, env map[string]string, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &syncBuffer{}
	c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr, getenv: func(k string) string { return env[k] }}
	addr := make(chan net.Addr, 1)
	code := make(chan int, 1)
	go func() { code <- c.serve(ctx, args, func(a net.Addr) { addr <- a }) }()
	t.Cleanup(func() {
		cancel()
		select {
		case n := <-code:
			if n != exitOK {
				t.Errorf("exit %d\n%s", n, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	})
	select {
	case a := <-addr:
		return "http://" + a.String() + "/mcp", stderr
	case n := <-code:
		t.Fatalf("serve ended with %d\n%s", n, stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("no listener")
	}
	return "", nil
}

// initHTTP initializes an mcp-go client at url with extra headers.
func initHTTP(t *testing.T, url string, headers map[string]string) (*client.Client, error) {
	t.Helper()
	cl, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(headers))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-11-25"
	req.Params.ClientInfo = mcp.Implementation{Name: "serve-test", Version: "0"}
	_, err = cl.Initialize(ctx, req)
	return cl, err
}

// TestServeHTTPToken: with --token-env, a client without the token or with
// another is refused and one sending it is served.
func TestServeHTTPToken(t *testing.T) {
	const tok = "0123456789abcdef-token"
	url, stderr := serveHTTPCLI(t, map[string]string{"GW_TOKEN": tok}, "--listen", "127.0.0.1:0", "--token-env", "GW_TOKEN")
	if _, err := initHTTP(t, url, nil); !errors.Is(err, transport.ErrAuthorizationRequired) {
		t.Errorf("no token: %v", err)
	}
	if _, err := initHTTP(t, url, map[string]string{"Authorization": "Bearer 0123456789abcdef-tokeN"}); !errors.Is(err, transport.ErrAuthorizationRequired) {
		t.Error("a wrong token was accepted")
	}
	cl, err := initHTTP(t, url, map[string]string{"Authorization": "Bearer " + tok})
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	if r := serveCall(t, cl, "mcp_term", map[string]any{"expr": `(lt :limit 1)`}); r.IsError {
		t.Errorf("list_todos: %s", serveText(r))
	}
	if s := stderr.String(); !strings.Contains(s, "access: loopback only, bearer token required; bodies up to 4M, at most 64 sessions") || strings.Contains(s, tok) {
		t.Errorf("stderr: %s", s)
	}
}

// TestServeHTTPBarePort: --listen :PORT binds loopback, not every
// interface.
func TestServeHTTPBarePort(t *testing.T) {
	for _, listen := range []string{":0", "0"} {
		url, _ := serveHTTPCLI(t, nil, "--listen", listen)
		if !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Errorf("--listen %s: %s", listen, url)
		}
	}
}

// TestServeHTTPInsecureNoAuth: off loopback without a token needs
// --insecure-no-auth, which says loudly what it means.
func TestServeHTTPInsecureNoAuth(t *testing.T) {
	url, stderr := serveHTTPCLI(t, nil, "--listen", "0.0.0.0:0", "--insecure-no-auth")
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp"))
	if _, err := initHTTP(t, "http://127.0.0.1:"+port+"/mcp", nil); err != nil {
		t.Fatal(err)
	}
	if s := stderr.String(); !strings.Contains(s, "mcpterm serve: WARNING: --insecure-no-auth: 0.0.0.0:0 asks for no token; anyone who can reach it can call every tool") {
		t.Errorf("stderr: %s", s)
	}
}

func TestServeHTTPUsageErrors(t *testing.T) {
	env := map[string]string{"SHORT": "abc", "GOOD": "0123456789abcdef0123"}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--token-env", "GOOD"}, "--token-env: only with --listen"},
		{[]string{"--max-body", "1M", "--insecure-no-auth"}, "--insecure-no-auth, --max-body: only with --listen"},
		{[]string{"--listen", "0.0.0.0:0"}, "--listen 0.0.0.0:0 is not a loopback address, so anyone who can reach it could call the tools: give --token-env VAR"},
		{[]string{"--mode", "passthrough", "--listen", "0.0.0.0:0"}, "--listen 0.0.0.0:0 is not a loopback address, so anyone who can reach it could call the tools: give --token-env VAR"},
		{[]string{"--listen", ":0", "--token-env", "UNSET"}, "--token-env UNSET: the variable is not set or empty"},
		{[]string{"--listen", ":0", "--token-env", "SHORT"}, "--token-env SHORT: the token has 3 characters; use at least 16"},
		{[]string{"--listen", ":0", "--token-env", "GOOD", "--insecure-no-auth"}, "--token-env and --insecure-no-auth: choose one"},
		{[]string{"--listen", "nope"}, `--listen "nope": want PORT, :PORT or HOST:PORT`},
		{[]string{"--listen", ":99999"}, `bad port "99999"`},
		{[]string{"--listen", ":0", "--allow-origin", "ftp://x"}, `--allow-origin: origin "ftp://x": want http://HOST[:PORT]`},
		{[]string{"--listen", ":0", "--allow-origin", "http://x/app"}, `no user, path or query`},
		{[]string{"--listen", ":0", "--max-body", "0"}, `size "0": want more than 0 bytes`},
		{[]string{"--listen", ":0", "--max-body", "4Q"}, `unknown unit "Q"`},
		{[]string{"--listen", ":0", "--max-sessions", "0"}, "--max-sessions 0: want at least 1"},
		{[]string{"--listen", ":0", "--read-timeout", "0s"}, "--read-timeout 0s: want a positive duration"},
		{[]string{"--listen", ":0", "--session-idle", "-1s"}, "--session-idle -1s"},
	}
	for _, tc := range cases {
		stderr := &syncBuffer{}
		c := &cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr, getenv: func(k string) string { return env[k] }}
		if code := c.serve(context.Background(), tc.args, nil); code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr.String())
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "4M": 4 << 20, "4mb": 4 << 20, "512KiB": 512 << 10, "2G": 2 << 30, " 10b ": 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "-1", "1.5M", "1T", "99999999999999999999", "9999999999999G", "4 M"} {
		if n, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, n)
		}
	}
}

// FuzzParseSize: any input gives a positive size or an error naming it,
// and a size written by String reads back the same.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4M", "1048576", "512KiB", "0", "9223372036854775807", "8589934591G"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseSize(s)
		if err != nil {
			if !strings.Contains(err.Error(), "size ") {
				t.Fatalf("parseSize(%q): error without the input: %v", s, err)
			}
			return
		}
		if n <= 0 {
			t.Fatalf("parseSize(%q) = %d", s, n)
		}
		if back, err := parseSize(sizeFlag(n).String()); err != nil || back != n {
			t.Fatalf("%d written as %q reads back as %d, %v", n, sizeFlag(n).String(), back, err)
		}
	})
}
