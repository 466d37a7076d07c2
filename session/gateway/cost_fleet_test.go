package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/fleet"
	"github.com/mcpterm/mcpterm/session/peers"
)

// fourServerConfig writes issue 17's four-server config — the demo server
// (this test binary on stdio), server-everything, server-filesystem over a
// temp directory, server-memory with its graph in a temp file — and
// returns its path and entry names.
func fourServerConfig(t testing.TB) (string, []string) {
	t.Helper()
	peer := func(install func(context.Context, func(string) string) (peers.Peer, error)) peers.Peer {
		p, err := install(context.Background(), os.Getenv)
		if err != nil {
			if errors.Is(err, peers.ErrNoNode) && os.Getenv("CI") != "true" {
				t.Skipf("skipped: %v", err)
			}
			t.Fatalf("installing a peer: %v", err)
		}
		return p
	}
	ev, fs, mem := peer(peers.Everything), peer(peers.Filesystem), peer(peers.Memory)
	demo := demoUpstream(t)
	dir := t.TempDir()
	cfg := map[string]any{"mcpServers": map[string]any{
		"demo":       map[string]any{"command": demo.command, "args": demo.args, "env": demo.env},
		"everything": map[string]any{"command": ev.Node, "args": []string{ev.Entry, "stdio"}},
		"filesystem": map[string]any{"command": fs.Node, "args": []string{fs.Entry, t.TempDir()}},
		"memory":     map[string]any{"command": mem.Node, "args": []string{mem.Entry}, "env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, []string{"demo", "everything", "filesystem", "memory"}
}

// openFleet starts every entry of the config at path as the fleet
// `mcpterm serve --config F --all` fronts, its upstreams offered what
// serve offers them (a Forwarder asking the clients, and roots, here
// none, as --no-roots).
func openFleet(ctx context.Context, path string) (*fleet.Fleet, error) {
	dir := filepath.Dir(path)
	c := &fleet.Config{Selection: session.Selection{Configs: []string{path}}, All: true,
		Env:  session.Env{Getenv: os.Getenv, Cwd: dir, Home: dir},
		Base: session.Options{ClientName: "mcpterm-gateway", Asker: NewForwarder(), Roots: &session.Roots{}}}
	return fleet.New(ctx, fleet.Options{Load: c.Load, Poll: -1})
}

// fourServerFleet is the fleet over fourServerConfig, every upstream up.
func fourServerFleet(t testing.TB) (*fleet.Fleet, []string) {
	t.Helper()
	path, names := fourServerConfig(t)
	f, err := openFleet(ctxT(t, 2*time.Minute), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	for _, n := range names {
		if f.Session(n) == nil {
			t.Fatalf("%s did not start: %v", n, f.Status())
		}
	}
	return f, names
}

// gatewayCallResult is the result of a tools/call of the gateway exactly
// as a client receives it, minified, as gatewayToolsList is for tools/list.
func gatewayCallResult(t testing.TB, g *Gateway, tool, args string) string {
	t.Helper()
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, tool, args)
	msg := g.Server().HandleMessage(ctxT(t, time.Minute), json.RawMessage(req))
	resp, ok := msg.(mcp.JSONRPCResponse)
	if !ok {
		t.Fatalf("tools/call %s %s: %#v", tool, args, msg)
	}
	b, err := json.Marshal(resp.Result)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := resp.Result.(*mcp.CallToolResult); ok && r.IsError {
		t.Fatalf("tools/call %s %s answered an error: %s", tool, args, b)
	}
	return string(b)
}

// readmeFleetCostStart opens the README's table of TestToolsListCostFleet.
const readmeFleetCostStart = "| four servers: demo, everything, filesystem, memory"

// TestToolsListCostFleet measures what the README's serve section reports
// for issue 17's four-server config: the o200k_base tokens of the four
// upstreams' tools/list results (summed) against the gateway's in each
// mode, and for the lazy forms their true cost: term-lazy's listing plus a
// (describe CODE) exchange for every tool, aql-single's tools/list plus the
// operations list plus every operation's introspect exchange — each
// exchange the request's arguments and the tools/call result as the client
// receives them, minified. The servers are pinned, so the counts are the
// same on every run, and the README's table must be this one (run with -v
// to see it).
func TestToolsListCostFleet(t *testing.T) {
	count := o200kCounter(t)
	f, names := fourServerFleet(t)
	base, ntools := 0, 0
	for _, n := range names {
		s := f.Session(n)
		base += count(upstreamToolsList(t, s))
		set, err := s.Tools(ctxT(t, 30*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		ntools += len(set.Tools)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%s (%d tools) | upfront (tools/list) | read later | true cost | vs the upstreams |\n", readmeFleetCostStart, ntools)
	table.WriteString("|---|---:|---:|---:|---:|\n")
	fmt.Fprintf(&table, "| the four upstreams' tools/list, summed | %d | — | %d | — |\n", base, base)
	row := func(label string, upfront, later int) {
		total := upfront + later
		change := strings.Replace(fmt.Sprintf("%+.0f%%", 100*float64(total-base)/float64(base)), "-", "−", 1)
		fmt.Fprintf(&table, "| %s | %d | %s | %d | %s |\n", label, upfront, dash(later), total, change)
	}
	gw := func(o Options) (*Gateway, int) {
		o.Policy = allowAll(t)
		g := newGateway(t, f, o)
		return g, count(gatewayToolsList(t, g))
	}

	_, n := gw(Options{Mode: ModeTerm})
	row("`--mode term`", n, 0)
	_, n = gw(Options{Mode: ModeTerm, Lean: true})
	row("`--mode term --descriptions lean`", n, 0)

	g, n := gw(Options{Mode: ModeTermLazy})
	st := g.st.Load()
	toolNames := make([]string, len(st.visible.Tools))
	for i, tl := range st.visible.Tools {
		toolNames[i] = tl.Name
	}
	later := 0
	for _, code := range term.ShortCodes(toolNames) {
		args, _ := json.Marshal(map[string]string{"expr": "(describe " + code + ")"})
		later += count(string(args)) + count(gatewayCallResult(t, g, DefaultTermTool, string(args)))
	}
	row("`--mode term-lazy`: the listing, then `(describe CODE)` for every tool", n, later)

	g, n = gw(Options{Mode: ModeAQLSingle})
	later = 0
	for _, x := range adapterOf(t, g.st.Load()).IntrospectCosts() {
		// The types list is read only when a parameter names a type; the
		// true cost leaves it out, as tokens.AQLCost does.
		if x.Operation == "" && strings.Contains(x.Request, `"types"`) {
			continue
		}
		later += count(x.Request) + count(gatewayCallResult(t, g, "mcp_aql", x.Request))
	}
	row("`--mode aql-single`: tools/list, then the operations list and every operation's introspect", n, later)

	_, n = gw(Options{Mode: ModePass})
	row("`--mode passthrough`", n, 0)

	t.Logf("o200k_base tokens, four-server config:\n%s", table.String())
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), table.String()) {
		t.Errorf("README.md's four-server table is not what was measured; put this there:\n%s", table.String())
	}
}

// dash prints a deferred figure, or nothing for a mode that defers none.
func dash(later int) string {
	if later == 0 {
		return "—"
	}
	return fmt.Sprint(later)
}
