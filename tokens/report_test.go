package tokens

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func loadSet(t testing.TB, path string) *toolset.Set { return toolsettest.Load(t, path) }

func hardSet(t testing.TB) *toolset.Set {
	return loadSet(t, filepath.Join("testdata", "hard.tools.json"))
}

// TestCorpusOrdering is the check on every corpus file: json is
// cheaper than json_pretty, the floor is below json, and — once the term
// form is registered — term < json and floor <= term.
func TestCorpusOrdering(t *testing.T) {
	c := testCounter(t, O200kBase)
	for _, path := range corpusFiles(t) {
		set := loadSet(t, path)
		r, err := Build(c, []*toolset.Set{set}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Servers[0]
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			tot := s.Totals
			for _, f := range []string{Baseline, "json_pretty", Floor} {
				if _, ok := tot[f]; !ok {
					t.Fatalf("no total for %s: %v", f, s.Errors[f])
				}
			}
			if !(tot[Baseline] < tot["json_pretty"]) {
				t.Errorf("json %d is not below json_pretty %d", tot[Baseline], tot["json_pretty"])
			}
			if !(tot[Floor] < tot[Baseline]) {
				t.Errorf("floor %d is not below json %d", tot[Floor], tot[Baseline])
			}
			for _, tool := range s.Tools {
				if !(tool.Counts[Baseline] < tool.Counts["json_pretty"]) {
					t.Errorf("%s: json %d is not below json_pretty %d", tool.Name, tool.Counts[Baseline], tool.Counts["json_pretty"])
				}
			}
		})
		t.Run(name+"/term", func(t *testing.T) {
			if _, ok := convert.FormByName("term"); !ok {
				t.Skip("form \"term\" is not in convert.Forms() yet, so term < json and floor <= term cannot be checked")
			}
			tot := s.Totals
			term, ok := tot["term"]
			if !ok {
				t.Fatalf("term failed to render: %s", s.Errors["term"])
			}
			if !(term < tot[Baseline]) {
				t.Errorf("term %d is not below json %d", term, tot[Baseline])
			}
			if !(tot[Floor] <= term) {
				t.Errorf("floor %d is above term %d", tot[Floor], term)
			}
		})
	}
}

// TestReportCountsRenderedText: a total is the exact count of the text
// `convert --to FORM` prints for the server, a tool's count that of the form
// rendered for that tool alone — checked against an uncached encoder.
func TestReportCountsRenderedText(t *testing.T) {
	e := testEncoder(t, Cl100kBase)
	c := testCounter(t, Cl100kBase)
	set := hardSet(t)
	r, err := Build(c, []*toolset.Set{set}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Encoding != Cl100kBase {
		t.Fatalf("encoding %q", r.Encoding)
	}
	s := r.Servers[0]
	for _, f := range convert.Forms() {
		text, err := f.Render(set)
		if err != nil {
			if s.Errors[f.Name] == "" {
				t.Errorf("%s fails to render (%v) but the report has no error for it", f.Name, err)
			}
			continue
		}
		if got, want := s.Totals[f.Name], e.count(text); got != want {
			t.Errorf("%s total %d, rendered text counts %d", f.Name, got, want)
		}
		if IsDeferredForm(f.Name) {
			continue // tool cells are exchanges: TestAQLCells, TestLazyCells
		}
		for i, tool := range set.Tools {
			text, err := f.Render(convert.Single(set, tool))
			if err != nil {
				continue
			}
			if got, want := s.Tools[i].Counts[f.Name], e.count(text); got != want {
				t.Errorf("%s/%s: %d, rendered text counts %d", f.Name, tool.Name, got, want)
			}
		}
	}
}

// TestFormsComeFromTheRegistry: the report's columns are exactly the forms
// it is given, in order, so a form added to convert.Forms() shows up.
func TestFormsComeFromTheRegistry(t *testing.T) {
	c := testCounter(t, O200kBase)
	r, err := Build(c, []*toolset.Set{hardSet(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range convert.Forms() {
		want = append(want, f.Name)
	}
	if len(r.Forms) != len(want) {
		t.Fatalf("forms %v, registry %v", r.Forms, want)
	}
	for i := range want {
		if r.Forms[i] != want[i] {
			t.Fatalf("forms %v, registry %v", r.Forms, want)
		}
	}
	upper := convert.Form{Name: "shout", Render: func(s *toolset.Set) (string, error) { return "NAMES " + s.Tools[0].Name, nil }}
	r, err = Build(c, []*toolset.Set{hardSet(t)}, []convert.Form{upper})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Forms) != 1 || r.Servers[0].Totals["shout"] == 0 || r.Servers[0].Tools[2].Counts["shout"] == 0 {
		t.Fatalf("custom form not counted: %+v", r.Servers[0])
	}
}

// TestBrokenFormsAreReported: a form that errors, panics or fails for one
// tool shows its error; the other forms are still counted.
func TestBrokenFormsAreReported(t *testing.T) {
	c := testCounter(t, O200kBase)
	forms := append(convert.Forms(),
		convert.Form{Name: "fails", Render: func(*toolset.Set) (string, error) { return "", errors.New("cannot render\x1b[31m") }},
		convert.Form{Name: "panics", Render: func(*toolset.Set) (string, error) { panic("boom") }},
		convert.Form{Name: "picky", Render: func(s *toolset.Set) (string, error) {
			for _, t := range s.Tools {
				if t.Name == "ping" {
					return "", errors.New("no ping")
				}
			}
			return "fine", nil
		}},
	)
	r, err := Build(c, []*toolset.Set{hardSet(t)}, forms)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Servers[0]
	if s.Errors["fails"] == "" || s.Errors["panics"] == "" || s.Errors["picky"] == "" {
		t.Fatalf("errors not recorded: %v", s.Errors)
	}
	if _, ok := s.Totals[Baseline]; !ok {
		t.Fatal("json not counted next to failing forms")
	}
	if s.Tools[0].Counts["picky"] != 1 || s.Tools[2].Errors["picky"] != "no ping" {
		t.Fatalf("per-tool failure not isolated: %+v / %+v", s.Tools[0], s.Tools[2])
	}
	for _, format := range Formats() {
		out := writeString(t, r, format)
		if containsESC(out) {
			t.Errorf("%s output carries an escape sequence from an error message", format)
		}
	}
}

func TestLeftOut(t *testing.T) {
	c := testCounter(t, O200kBase)
	set := hardSet(t)
	lo, err := leftOut(c, set)
	if err != nil {
		t.Fatal(err)
	}
	// icons and _meta once each; $schema in the input and output schemas;
	// x-vendor-hint, x-unit (deep in items) and the tool-level
	// x-experimental, but not the parameter named x-trace-id.
	want := map[string]int{"icons": 1, "_meta": 1, "$schema": 2, "x-*": 3}
	for k, n := range want {
		if lo[k].Count != n {
			t.Errorf("%s: count %d, want %d", k, lo[k].Count, n)
		}
		if lo[k].Tokens <= 0 {
			t.Errorf("%s: cost %d tokens", k, lo[k].Tokens)
		}
	}
	// The cost is the difference the part makes to the tool as sent.
	raw := set.Tools[0].Raw
	full, _ := c.Count(raw.Compact())
	noIcons := raw.Clone()
	noIcons.Delete("icons")
	rest, _ := c.Count(noIcons.Compact())
	if lo["icons"].Tokens != full-rest {
		t.Errorf("icons cost %d, want %d", lo["icons"].Tokens, full-rest)
	}
	if ojson.Equal(raw, noIcons) {
		t.Fatal("clone shares the tool")
	}
	if !set.Tools[0].Raw.Has("icons") {
		t.Fatal("leftOut modified the tool")
	}
}

func TestSort(t *testing.T) {
	c := testCounter(t, O200kBase)
	r, err := Build(c, []*toolset.Set{hardSet(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Sort("name"); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, tool := range r.Servers[0].Tools {
		names = append(names, tool.Name)
	}
	if names[0] != "data_platform_query" || names[1] != "note_update" || names[2] != "ping" {
		t.Fatalf("by name: %v", names)
	}
	if err := r.Sort(Baseline); err != nil {
		t.Fatal(err)
	}
	tools := r.Servers[0].Tools
	for i := 1; i < len(tools); i++ {
		if tools[i-1].Counts[Baseline] < tools[i].Counts[Baseline] {
			t.Fatalf("by json: not descending at %d", i)
		}
	}
	if err := r.Sort("bogus"); err == nil {
		t.Fatal("unknown sort field accepted")
	}
}

// FuzzReport feeds arbitrary tool lists through every registered form, the
// report and all four formats: no panic escapes, every output is free of
// escape sequences, and the json baseline is always counted.
func FuzzReport(f *testing.F) {
	f.Add("[{\"name\":\"a\u009b2J\u202e\",\"description\":\"\u0007\"}]")
	f.Add(`[{"name":"a","description":"d","inputSchema":{"type":"object","properties":{"p":{"enum":[1,"x"]}}}}]`)
	f.Add(`{"tools":[{"name":"b\u001b[2J","icons":[{"src":"x"}],"inputSchema":{"$schema":"s","x-a":1,"anyOf":[{"type":["string","null"]}],"$defs":{"T":{"const":{"k":1}}}}}]}`)
	f.Add(`{"tools":[{"name":"c","inputSchema":{"type":"object","properties":{"q":{"$ref":"#/$defs/Q"}},"$defs":{"Q":{"type":"array","items":{"$ref":"#/$defs/Q"}}}}}]}`)
	c := testCounter(f, O200kBase)
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) > 4096 {
			return
		}
		set, err := toolset.Parse([]byte(doc))
		if err != nil {
			return
		}
		r, err := Build(c, []*toolset.Set{set}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.Servers[0].Totals[Baseline]; !ok {
			t.Fatalf("json not counted: %v", r.Servers[0].Errors[Baseline])
		}
		for _, format := range Formats() {
			if out := writeString(t, r, format); containsESC(out) {
				t.Fatalf("%s output holds an escape sequence", format)
			}
		}
	})
}

// TestAQLCells: an AQL form's tool cell is the introspect exchange for the
// tool's operation (request and answer, counted by an uncached encoder), and
// the true cost adds upfront, operations list and every operation's details.
func TestAQLCells(t *testing.T) {
	e := testEncoder(t, O200kBase)
	c := testCounter(t, O200kBase)
	sets := []*toolset.Set{hardSet(t), loadSet(t, filepath.Join("..", "convert", "aql", "testdata", "todo.tools.json"))}
	r, err := Build(c, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.DeferredForms(), ","); got != "term_lazy,aql_single,aql_semantic" {
		t.Fatalf("deferred forms %q", got)
	}
	for i, set := range sets {
		s := r.Servers[i]
		for f, mode := range map[string]aql.Mode{"aql_single": aql.Single, "aql_semantic": aql.Semantic} {
			xs, err := aql.IntrospectCostsFor(set, nil, mode)
			if err != nil {
				t.Fatal(err)
			}
			cost, ok := s.True[f]
			if !ok {
				t.Fatalf("%s/%s: no AQL cost: %v", set.Server, f, s.TrueErrors)
			}
			details, list := 0, 0
			for _, x := range xs {
				n := e.count(x.Request) + e.count(x.Answer)
				switch {
				case x.Operation != "":
					details += n
					j := slices.IndexFunc(set.Tools, func(tl *toolset.Tool) bool { return tl.Name == x.Tool })
					if got := s.Tools[j].Counts[f]; got != n {
						t.Errorf("%s/%s/%s: cell %d, exchange counts %d", set.Server, f, x.Tool, got, n)
					}
				case strings.Contains(x.Request, `"operations"`):
					list = n
				}
			}
			if cost.Upfront != s.Totals[f] || cost.OperationsList != list || cost.Details != details || cost.Exchanges != len(set.Tools) {
				t.Errorf("%s/%s: %+v, want upfront %d list %d details %d", set.Server, f, cost, s.Totals[f], list, details)
			}
			if cost.True() != cost.Upfront+list+details || cost.True() <= cost.Upfront || cost.TypesList == 0 {
				t.Errorf("%s/%s: true cost %d from %+v", set.Server, f, cost.True(), cost)
			}
			if cost.DetailsMin > cost.DetailsMax || cost.DetailsMin*cost.Exchanges > cost.Details || cost.DetailsMax*cost.Exchanges < cost.Details {
				t.Errorf("%s/%s: per-operation range %+v", set.Server, f, cost)
			}
		}
	}
	grand, incomplete := r.TrueGrandTotal()
	if len(incomplete) > 0 {
		t.Fatal(incomplete)
	}
	for _, f := range r.DeferredForms() {
		a, b := r.Servers[0].True[f], r.Servers[1].True[f]
		g := grand[f]
		if g.True() != a.True()+b.True() || g.Exchanges != a.Exchanges+b.Exchanges || g.DetailsMin != min(a.DetailsMin, b.DetailsMin) || g.DetailsMax != max(a.DetailsMax, b.DetailsMax) {
			t.Errorf("%s grand total %+v from %+v and %+v", f, g, a, b)
		}
	}
	// Without the deferred forms there is no true-cost section.
	plain, _ := convert.FormByName("json")
	r, err = Build(c, sets[:1], []convert.Form{plain})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Servers[0].True) != 0 || len(r.DeferredForms()) != 0 || strings.Contains(writeString(t, r, "table"), "true cost") {
		t.Errorf("true-cost section without deferred forms")
	}
}

// TestAQLTrueCostOnCorpus: on every corpus server the AQL forms defer cost
// rather than remove it: the true cost is above the upfront figure, and
// every operation's details cost more than its upfront share.
func TestAQLTrueCostOnCorpus(t *testing.T) {
	c := testCounter(t, O200kBase)
	for _, path := range corpusFiles(t) {
		set := loadSet(t, path)
		r, err := Build(c, []*toolset.Set{set}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Servers[0]
		for _, f := range r.DeferredForms() {
			cost := s.True[f]
			if cost.Exchanges != len(set.Tools) || cost.True() <= cost.Upfront+cost.OperationsList {
				t.Errorf("%s/%s: %+v", filepath.Base(path), f, cost)
			}
			for _, tool := range s.Tools {
				if tool.Counts[f] <= 0 {
					t.Errorf("%s/%s/%s: cell %d", filepath.Base(path), f, tool.Name, tool.Counts[f])
				}
			}
		}
	}
}

// A broken renderer costs its own cells, never the report: a panic or a
// missing renderer becomes an error in every row of that form.
func TestBrokenFormsAreReportedNotFatal(t *testing.T) {
	json, _ := convert.FormByName("json")
	forms := []convert.Form{
		json,
		{Name: "boom", Render: func(*toolset.Set) (string, error) { panic("kaboom") }},
		{Name: "empty"},
	}
	r, err := Build(testCounter(t, O200kBase), []*toolset.Set{hardSet(t)}, forms)
	if err != nil {
		t.Fatal(err)
	}
	sr := r.Servers[0]
	if sr.Totals["json"] == 0 || !strings.Contains(sr.Errors["boom"], "panicked: kaboom") || !strings.Contains(sr.Errors["empty"], "no renderer") {
		t.Fatalf("totals %v, errors %v", sr.Totals, sr.Errors)
	}
	for _, tc := range sr.Tools {
		if tc.Counts["json"] == 0 || !strings.Contains(tc.Errors["boom"], "panicked") || !strings.Contains(tc.Errors["empty"], "no renderer") {
			t.Errorf("%s: counts %v, errors %v", tc.Name, tc.Counts, tc.Errors)
		}
	}
}
