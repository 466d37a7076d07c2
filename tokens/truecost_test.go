package tokens

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// TestLazyCells: term_lazy's upfront is the term-lazy tool as the gateway
// lists it (termtool.LazyTool, model-facing), and a tool's cell is its
// describe exchange: the (describe CODE) arguments with the server-wide
// code plus the answer, which is the tool's term declaration — so the
// cell is the term cell plus the request, counted by an uncached encoder.
func TestLazyCells(t *testing.T) {
	e := testEncoder(t, O200kBase)
	c := testCounter(t, O200kBase)
	sets := []*toolset.Set{hardSet(t)}
	for _, p := range corpusFiles(t) {
		sets = append(sets, loadSet(t, p))
	}
	r, err := Build(c, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, set := range sets {
		s := r.Servers[i]
		if got, want := s.Totals[convert.LazyForm], e.count(termtool.LazyTool(termtool.Name, set, nil).ModelFacing()); got != want {
			t.Errorf("%s: upfront %d, the served tool counts %d", set.Server, got, want)
		}
		names := make([]string, len(set.Tools))
		for j, tl := range set.Tools {
			names[j] = tl.Name
		}
		codes := term.ShortCodes(names)
		sum := 0
		for j, tl := range set.Tools {
			cell := s.Tools[j].Counts[convert.LazyForm]
			if want := s.Tools[j].Counts["term"] + e.count(termtool.DescribeArguments(codes[tl.Name])); cell != want || cell == 0 {
				t.Errorf("%s/%s: cell %d, want the term cell plus the request, %d", set.Server, tl.Name, cell, want)
			}
			sum += cell
		}
		cost := s.True[convert.LazyForm]
		if cost.Upfront != s.Totals[convert.LazyForm] || cost.Details != sum || cost.True() != cost.Upfront+sum ||
			cost.OperationsList != 0 || cost.TypesList != 0 || cost.Exchanges != len(set.Tools) {
			t.Errorf("%s: %+v, cells add up to %d", set.Server, cost, sum)
		}
	}
}

// randomSet is a tool list drawn from r: names that clash in their short
// codes, descriptions of one or more sentences or none, and properties of
// several types, some with enums, some nested, some shared through $defs.
func randomSet(r *rand.Rand, server string) *toolset.Set {
	words := []string{"get", "list", "create", "delete", "file", "user", "repo", "issue", "search", "x", "sync", "Page"}
	seps := []string{"_", "-", ".", ""}
	types := []string{"string", "integer", "number", "boolean"}
	tools := ojson.NewArray()
	seen := map[string]bool{}
	for range 1 + r.IntN(25) {
		var parts []string
		for range 1 + r.IntN(3) {
			parts = append(parts, words[r.IntN(len(words))])
		}
		name := strings.Join(parts, seps[r.IntN(len(seps))])
		if seen[name] {
			continue
		}
		seen[name] = true
		props := ojson.NewObject()
		for k := range r.IntN(5) {
			p := ojson.NewObject().Set("type", ojson.NewString(types[r.IntN(len(types))]))
			switch r.IntN(4) {
			case 0:
				p = ojson.NewObject().Set("type", ojson.NewString("string")).Set("enum", ojson.NewArray(ojson.NewString("a"), ojson.NewString("b c")))
			case 1:
				p.Set("description", ojson.NewString(fmt.Sprintf("The %s. Second sentence %d.", words[r.IntN(len(words))], k)))
			case 2:
				p = ojson.NewObject().Set("$ref", ojson.NewString("#/$defs/Item"))
			}
			props.Set(fmt.Sprintf("%s%d", words[r.IntN(len(words))], k), p)
		}
		item := ojson.NewObject().Set("type", ojson.NewString("object")).
			Set("properties", ojson.NewObject().Set("id", ojson.NewObject().Set("type", ojson.NewString("string"))))
		schema := ojson.NewObject().Set("type", ojson.NewString("object")).Set("properties", props).
			Set("$defs", ojson.NewObject().Set("Item", item))
		tool := ojson.NewObject().Set("name", ojson.NewString(name))
		if r.IntN(4) > 0 {
			tool.Set("description", ojson.NewString(strings.Repeat("Does a "+name+" thing. ", 1+r.IntN(3))))
		}
		tools.Items = append(tools.Items, tool.Set("inputSchema", schema))
	}
	doc := ojson.NewObject().Set("server", ojson.NewString(server)).Set("tools", tools)
	set, err := toolset.Parse([]byte(doc.Compact()))
	if err != nil {
		panic(err)
	}
	return set
}

// TestTrueCostProperty: over random tool lists, every deferred form's true
// cost is its upfront document plus its operations list plus the sum of
// its tool cells, one exchange per tool; term_lazy has no list, so its
// true cost is exactly upfront + the cells; and the grand total is the
// servers' sum.
func TestTrueCostProperty(t *testing.T) {
	c := testCounter(t, O200kBase)
	r := rand.New(rand.NewPCG(17, 29))
	for i := range 40 {
		sets := []*toolset.Set{randomSet(r, fmt.Sprintf("random-%d-a", i)), randomSet(r, fmt.Sprintf("random-%d-b", i))}
		rep, err := Build(c, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.DeferredForms()) != 3 {
			t.Fatalf("deferred forms %v", rep.DeferredForms())
		}
		for _, s := range rep.Servers {
			for _, f := range rep.DeferredForms() {
				cost, ok := s.True[f]
				if !ok {
					t.Fatalf("%s/%s: no true cost: %v", s.Server, f, s.TrueErrors)
				}
				sum, lo, hi := 0, 0, 0
				for j, tc := range s.Tools {
					n := tc.Counts[f]
					sum += n
					if j == 0 || n < lo {
						lo = n
					}
					hi = max(hi, n)
				}
				if cost.True() != s.Totals[f]+cost.OperationsList+sum || cost.Upfront != s.Totals[f] || cost.Exchanges != len(s.Tools) ||
					cost.DetailsMin != lo || cost.DetailsMax != hi {
					t.Fatalf("%s/%s: %+v; upfront %d, cells %d (%d–%d)", s.Server, f, cost, s.Totals[f], sum, lo, hi)
				}
				if f == convert.LazyForm && (cost.OperationsList != 0 || cost.True() != cost.Upfront+sum) {
					t.Fatalf("%s: term_lazy %+v is not upfront + cells", s.Server, cost)
				}
			}
		}
		grand, incomplete := rep.TrueGrandTotal()
		for _, f := range rep.DeferredForms() {
			if len(incomplete) > 0 || grand[f].True() != rep.Servers[0].True[f].True()+rep.Servers[1].True[f].True() {
				t.Fatalf("%s grand total %+v (incomplete %v)", f, grand[f], incomplete)
			}
		}
	}
}

// TestGatewayFigures: per server, the gateway's figures are, in mode
// order, the json baseline (passthrough), the term forms' declarations
// inside the mcp_term tool as served — the how-to counted, so above the
// bare declarations — and the deferred forms' true costs, the same values
// as the true-cost section.
func TestGatewayFigures(t *testing.T) {
	e := testEncoder(t, O200kBase)
	c := testCounter(t, O200kBase)
	for _, p := range append(corpusFiles(t), filepath.Join("testdata", "hard.tools.json")) {
		set := loadSet(t, p)
		rd := convert.NewRenderer(set, nil)
		r, err := BuildFrom(c, []*convert.Renderer{rd})
		if err != nil {
			t.Fatal(err)
		}
		s := r.Servers[0]
		g := r.Gateway(s)
		var modes []string
		for _, f := range g {
			modes = append(modes, f.Mode)
			var want int
			switch f.Form {
			case "json":
				want = s.Totals["json"]
			case "term", "term_lean":
				doc, err := rd.Document(f.Form)
				if err != nil {
					t.Fatal(err)
				}
				want = e.count(termtool.TermTool(termtool.Name, set.Server, doc).ModelFacing())
				if want <= s.Totals[f.Form] {
					t.Errorf("%s/%s: served %d, no more than the declarations' %d", set.Server, f.Form, want, s.Totals[f.Form])
				}
			default:
				want = s.True[f.Form].True()
			}
			if f.Tokens != want {
				t.Errorf("%s/%s: %d, want %d", set.Server, f.Mode, f.Tokens, want)
			}
		}
		if got := strings.Join(modes, ","); got != "passthrough,term,term --descriptions lean,term-lazy,aql-single,aql-semantic" {
			t.Errorf("%s: modes %s", set.Server, got)
		}
	}
	// Only the forms a report has; the baseline alone is no gateway section.
	var forms []convert.Form
	for _, n := range []string{"json", "term"} {
		f, _ := convert.FormByName(n)
		forms = append(forms, f)
	}
	set := hardSet(t)
	r, err := Build(c, []*toolset.Set{set}, forms)
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Gateway(r.Servers[0]); len(g) != 2 || g[1].Form != "term" {
		t.Errorf("json and term only: %+v", g)
	}
	r, err = Build(c, []*toolset.Set{set}, forms[:1])
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Gateway(r.Servers[0]); g != nil || strings.Contains(writeString(t, r, "table"), "gateway") {
		t.Errorf("json alone: %+v", g)
	}
}
