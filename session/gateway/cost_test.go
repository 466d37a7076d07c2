package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
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
	count := o200kCounter(t)
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

// TestServedToolsListIsTheReportsForm holds `mcpterm tokens` to what the
// gateway serves: in every mode the tools/list a client receives, as a
// model receives it ({name, description, input_schema} minified, the
// json baseline's shape), is the text the report counts for that mode —
// the term_lazy and AQL forms' documents, the term tool as served (how-to
// included) for the term modes — and the report's gateway figure for the
// mode is built on that count. mcp-go lists tools sorted by name, so a
// many-tool mode (passthrough, aql-semantic) is compared tool by tool,
// and its count allowed the few tokens the order moves.
func TestServedToolsListIsTheReportsForm(t *testing.T) {
	counter, err := tokens.NewCounter(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	upstreams := []struct {
		name string
		src  func(t *testing.T) session.Source
	}{
		{"mcpterm-demo", func(*testing.T) session.Source {
			return session.Source{Kind: session.InProcess, Name: "demo", Server: demoServer()}
		}},
		{"server-everything", func(t *testing.T) session.Source { return everythingUpstream(t).source() }},
	}
	modes := []struct {
		opts Options
		form string
	}{
		{Options{Mode: ModePass}, "json"},
		{Options{Mode: ModeTerm}, "term"},
		{Options{Mode: ModeTerm, Lean: true}, "term_lean"},
		{Options{Mode: ModeTermLazy}, "term_lazy"},
		{Options{Mode: ModeAQLSingle}, "aql_single"},
		{Options{Mode: ModeAQLSemantic}, "aql_semantic"},
	}
	for _, u := range upstreams {
		t.Run(u.name, func(t *testing.T) {
			up := openSession(t, u.src(t), session.Options{})
			set, err := up.Tools(ctxT(t, 30*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			rd := convert.NewRenderer(set, nil)
			report, err := tokens.BuildFrom(counter, []*convert.Renderer{rd})
			if err != nil {
				t.Fatal(err)
			}
			sr := report.Servers[0]
			figures := map[string]int{}
			for _, f := range report.Gateway(sr) {
				figures[f.Form] = f.Tokens
			}
			for _, m := range modes {
				m.opts.Policy = allowAll(t)
				served, err := toolset.Parse([]byte(gatewayToolsList(t, newGateway(t, up, m.opts))))
				if err != nil {
					t.Fatal(err)
				}
				got := served.Baseline().Compact()
				doc, err := rd.Document(m.form)
				if err != nil {
					t.Fatal(err)
				}
				want := doc
				if m.opts.Mode == ModeTerm {
					want = termtool.TermTool(termtool.Name, set.Server, doc).ModelFacing()
				}
				counted := sr.Totals[m.form]
				if m.opts.Mode == ModeTerm {
					counted = sr.Served[m.form]
				}
				n, err := counter.Count(got)
				if err != nil {
					t.Fatal(err)
				}
				if len(served.Tools) == 1 {
					if got != want || n != counted {
						t.Errorf("%s: the gateway serves (%d tokens)\n%s\nthe report counts %d of\n%s", m.form, n, got, counted, want)
					}
				} else {
					wantSet, err := toolset.Parse([]byte(`{"tools":` + strings.ReplaceAll(want, `"input_schema":`, `"inputSchema":`) + `}`))
					if err != nil {
						t.Fatal(err)
					}
					if a, b := byName(served), byName(wantSet); a != b {
						t.Errorf("%s: the gateway serves\n%s\nthe report counts\n%s", m.form, a, b)
					}
					if d := n - counted; d < -len(served.Tools) || d > len(served.Tools) {
						t.Errorf("%s: served %d tokens, the report counts %d", m.form, n, counted)
					}
					if n != counted {
						t.Logf("%s: served in mcp-go's order %d tokens, in the server's %d", m.form, n, counted)
					}
					n = counted
				}
				// The gateway figure is the counted text, plus for the
				// deferred modes what a model fetches later.
				want2 := n
				if tokens.IsDeferredForm(m.form) {
					want2 = sr.True[m.form].True()
					if want2 <= n {
						t.Errorf("%s: true cost %d is not above the upfront %d", m.form, want2, n)
					}
				}
				if figures[m.form] != want2 {
					t.Errorf("%s: gateway figure %d, want %d", m.form, figures[m.form], want2)
				}
			}
		})
	}
}

// byName is set's model-facing tools sorted by name, one a line.
func byName(set *toolset.Set) string {
	lines := make([]string, len(set.Tools))
	for i, t := range set.Tools {
		lines[i] = t.ModelFacing().Compact()
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
