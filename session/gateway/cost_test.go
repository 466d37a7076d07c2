package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
)

// gatewayToolsList is the gateway's tools/list result exactly as a client
// receives it: mcp-go's answer to a tools/list request, minified.
func gatewayToolsList(t testing.TB, g *Gateway) string {
	t.Helper()
	req := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	msg := g.Server().HandleMessage(context.Background(), json.RawMessage(req))
	resp, ok := msg.(mcp.JSONRPCResponse)
	if !ok {
		t.Fatalf("tools/list: %#v", msg)
	}
	b, err := json.Marshal(resp.Result)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// upstreamToolsList is the upstream's tools/list result as it sent it
// (every page's tools, in order), minified.
func upstreamToolsList(t testing.TB, s *session.Session) string {
	t.Helper()
	set, err := s.Tools(ctxT(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	arr := ojson.NewArray()
	for _, tl := range set.Tools {
		arr.Items = append(arr.Items, tl.Raw)
	}
	return ojson.NewObject().Set("tools", arr).Compact()
}

// TestToolsListCost measures what the README's serve section reports: the
// o200k_base tokens of the minified tools/list result a client reads from
// the upstream directly and from the gateway in each mode. Run it with -v
// to see the table.
func TestToolsListCost(t *testing.T) {
	counter, err := tokens.NewCounter(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(s string) int {
		n, err := counter.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	upstreams := []struct {
		name string
		src  func(t *testing.T) session.Source
	}{
		{"mcpterm-demo", func(*testing.T) session.Source {
			return session.Source{Kind: session.InProcess, Name: "demo", Server: demoServer()}
		}},
		{"server-everything@2026.8.31", func(t *testing.T) session.Source { return everythingUpstream(t).source() }},
	}
	variants := []struct {
		label string
		opts  Options
	}{
		{"term", Options{Mode: ModeTerm}},
		{"term --descriptions lean", Options{Mode: ModeTerm, Lean: true}},
		{"aql-single", Options{Mode: ModeAQLSingle}},
		{"aql-semantic", Options{Mode: ModeAQLSemantic}},
	}
	var table strings.Builder
	table.WriteString("| upstream | tools/list as sent | " + strings.Join(func() []string {
		var h []string
		for _, v := range variants {
			h = append(h, "`--mode "+v.label+"`")
		}
		return h
	}(), " | ") + " |\n|---|---:|---:|---:|---:|---:|\n")
	for _, u := range upstreams {
		t.Run(u.name, func(t *testing.T) {
			up := openSession(t, u.src(t), session.Options{})
			base := count(upstreamToolsList(t, up))
			row := fmt.Sprintf("| %s | %d |", u.name, base)
			for _, v := range variants {
				v.opts.Policy = allowAll(t)
				g := newGateway(t, up, v.opts)
				n := count(gatewayToolsList(t, g))
				if n >= base {
					t.Errorf("%s: the gateway's tools/list costs %d tokens, the upstream's %d", v.label, n, base)
				}
				row += fmt.Sprintf(" %d (−%.0f%%) |", n, 100*float64(base-n)/float64(base))
			}
			table.WriteString(row + "\n")
		})
	}
	t.Logf("o200k_base tokens of the minified tools/list result:\n%s", table.String())
}
