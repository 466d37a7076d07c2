package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
	"github.com/mcpterm/mcpterm/session/fleet"
)

// fleetEntry is a config entry that runs this test binary as mcpterm with
// args (see TestMain), its state kept under state.
func fleetEntry(t *testing.T, state string, args ...string) map[string]any {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"command": exe, "args": append([]string{mainArg}, args...), "env": map[string]string{"XDG_STATE_HOME": state}}
}

func writeFleetConfig(t *testing.T, path string, servers map[string]any) {
	t.Helper()
	b, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// inDir makes the in-process mcpterm run in dir, as its home too.
func inDir(dir string) func(*cli) {
	return func(c *cli) { c.cwd, c.home = dir, dir }
}

func listNames(t *testing.T, c *client.Client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	slices.Sort(out)
	return out
}

// demoToolNames are the demo server's tools, sorted.
func demoToolNames() []string {
	var out []string
	for n := range demo.New(demo.Options{}).ListTools() {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// TestServeFleetLoop serves a config with the gateway among its own
// entries, directly (self: `mcpterm serve` over the same config) and
// through a second config whose gateway serves this one again (viag):
// both entries are refused as loops, saying so, and the demo entry beside
// them is served and answers.
func TestServeFleetLoop(t *testing.T) {
	dir := t.TempDir()
	f, g := filepath.Join(dir, "f.json"), filepath.Join(dir, "g.json")
	writeFleetConfig(t, f, map[string]any{
		"demo": fleetEntry(t, dir, "demo-server"),
		"self": fleetEntry(t, dir, "serve", "--config", f, "--all"),
		"viag": fleetEntry(t, dir, "serve", "--config", g, "--all"),
	})
	writeFleetConfig(t, g, map[string]any{"back": fleetEntry(t, dir, "serve", "--config", f, "--all")})
	c, stop := serveCLIWith(t, inDir(dir), "--mode", "passthrough", "--yes", "--config", f, "--all")
	if got, want := listNames(t, c), demoToolNames(); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want the demo's alone %v", got, want)
	}
	if r := serveCall(t, c, "file_read", map[string]any{"path": "/docs/README.md"}); r.IsError || !strings.Contains(serveText(r), "README") {
		t.Fatalf("file_read beside the loops: %s", serveText(r))
	}
	code, stderr := stop()
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, name := range []string{"self", "viag"} {
		if !strings.Contains(stderr, "mcpterm serve: "+name+": this entry runs the gateway itself") {
			t.Errorf("%s not refused as a loop:\n%s", name, stderr)
		}
	}
	if !strings.Contains(stderr, "demo: connected") {
		t.Errorf("demo not connected:\n%s", stderr)
	}
}

// TestServeFleetChainEnv starts the gateway with its own key already in
// MCPTERM_GATEWAY_CHAIN, as a gateway started by itself is: it starts no
// server, lists nothing and says why.
func TestServeFleetChainEnv(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f.json")
	writeFleetConfig(t, f, map[string]any{"demo": fleetEntry(t, dir, "demo-server")})
	cfg := &fleet.Config{Selection: session.Selection{Configs: []string{f}}, All: true,
		Env: session.Env{Getenv: func(string) string { return "" }, Cwd: dir, Home: dir}}
	if _, _, err := cfg.Load(); err != nil {
		t.Fatal(err)
	}
	chain := "someone-above," + cfg.Key()
	c, stop := serveCLIWith(t, func(c *cli) {
		inDir(dir)(c)
		c.getenv = func(k string) string {
			if k == fleet.ChainEnv {
				return chain
			}
			return ""
		}
	}, "--mode", "passthrough", "--config", f, "--all")
	if got := listNames(t, c); len(got) != 0 {
		t.Fatalf("a gateway in its own chain lists %v", got)
	}
	_, stderr := stop()
	if !strings.Contains(stderr, fleet.ErrLoop.Error()) || strings.Contains(stderr, "demo: connected") {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

// TestServeFleetReloadTellsClients rewrites the served config while a
// client is connected: an entry added, then the first removed. Each time
// the client is sent notifications/tools/list_changed and then lists the
// tools of the servers the file now names.
func TestServeFleetReloadTellsClients(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f.json")
	writeFleetConfig(t, f, map[string]any{"one": fleetEntry(t, dir, "demo-server")})
	c, stop := serveCLIWith(t, inDir(dir), "--mode", "passthrough", "--yes", "--config", f, "--all")
	changed := make(chan struct{}, 64)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/tools/list_changed" {
			changed <- struct{}{}
		}
	})
	demoTools := demoToolNames()
	if got := listNames(t, c); !slices.Equal(got, demoTools) {
		t.Fatalf("tools %v", got)
	}
	// waitList waits, one list_changed at a time, for the listing want.
	waitList := func(want []string) {
		t.Helper()
		deadline := time.After(90 * time.Second)
		var got []string
		for !slices.Equal(got, want) {
			select {
			case <-changed:
				got = listNames(t, c)
			case <-deadline:
				t.Fatalf("after the rewrite tools are %v, want %v", got, want)
			}
		}
	}
	prefixed := func(server string) []string {
		var out []string
		for _, n := range demoTools {
			out = append(out, server+"_"+n)
		}
		return out
	}

	writeFleetConfig(t, f, map[string]any{"one": fleetEntry(t, dir, "demo-server"), "two": fleetEntry(t, dir, "demo-server")})
	want := append(prefixed("one"), prefixed("two")...)
	slices.Sort(want)
	waitList(want)
	if r := serveCall(t, c, "two_file_read", map[string]any{"path": "/docs/README.md"}); r.IsError || !strings.Contains(serveText(r), "README") {
		t.Fatalf("two_file_read on the added entry: %s", serveText(r))
	}

	writeFleetConfig(t, f, map[string]any{"two": fleetEntry(t, dir, "demo-server")})
	waitList(demoTools)
	if r := serveCall(t, c, "file_read", map[string]any{"path": "/docs/README.md"}); r.IsError || !strings.Contains(serveText(r), "README") {
		t.Fatalf("file_read after one was removed: %s", serveText(r))
	}
	if code, stderr := stop(); code != 0 || !strings.Contains(stderr, "one: removed or changed in the config") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
}

// TestServeFleetLoopHTTP serves a config over HTTP with an entry whose url
// is the gateway's own address: the entry is refused as a loop once the
// gateway listens (before, connecting to it listed the gateway's tools
// into itself again and again), the demo entry is served, and a request
// carrying this gateway's chain header is answered 508.
func TestServeFleetLoopHTTP(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	f := filepath.Join(dir, "f.json")
	writeFleetConfig(t, f, map[string]any{
		"demo":     fleetEntry(t, dir, "demo-server"),
		"selfhttp": map[string]any{"url": "http://" + addr + "/mcp"},
	})
	url, stderr := serveHTTPCLI(t, nil, "--listen", addr, "--mode", "passthrough", "--yes", "--config", f, "--all")
	stderr.waitFor(t, "selfhttp: this entry runs the gateway itself", 90*time.Second)
	c, err := initHTTP(t, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := listNames(t, c), demoToolNames(); !slices.Equal(got, want) {
		t.Fatalf("tools %v, want the demo's alone %v", got, want)
	}

	cfg := &fleet.Config{Selection: session.Selection{Configs: []string{f}}, All: true,
		Env: session.Env{Getenv: func(string) string { return "" }}}
	if _, _, err := cfg.Load(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(fleet.ChainHeader, "elsewhere,"+cfg.Key())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusLoopDetected || !strings.Contains(string(body), fleet.LoopName) {
		t.Fatalf("a request with this gateway's chain: %d %s", resp.StatusCode, body)
	}
}

// TestServeFleetLazyCache runs `serve --start lazy` twice with the same
// home: the first run starts the server to learn its tools and keeps them
// in the state directory's fleet-cache; the second lists them from there
// without starting it.
func TestServeFleetLazyCache(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f.json")
	writeFleetConfig(t, f, map[string]any{"demo": fleetEntry(t, dir, "demo-server")})
	for run := range 2 {
		c, stop := serveCLIWith(t, inDir(dir), "--mode", "passthrough", "--start", "lazy", "--config", f, "--all")
		if got, want := listNames(t, c), demoToolNames(); !slices.Equal(got, want) {
			t.Fatalf("run %d: tools %v, want %v", run, got, want)
		}
		code, stderr := stop()
		started := strings.Contains(stderr, "demo: connected")
		cached := strings.Contains(stderr, "demo: listed from the cache of its last run")
		if code != 0 || started != (run == 0) || cached != (run == 1) {
			t.Fatalf("run %d: exit %d, started %v, from the cache %v\n%s", run, code, started, cached, stderr)
		}
		files, _ := filepath.Glob(filepath.Join(dir, ".local", "state", "mcpterm", fleet.CacheDirName, "*.json"))
		if len(files) != 1 {
			t.Fatalf("run %d: cache files %v", run, files)
		}
	}
}
