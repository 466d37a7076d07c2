package tokens

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

// TestCellsAreRendererTexts is the one definition of a per-tool figure,
// checked on every corpus file and the fixtures, with and without AQL
// overrides: a tool's cell is the sum of the counts (by an uncached
// encoder) of the texts the same Renderer gives for it, and a server's
// total is the count of the form's own Render — what a view showing the
// Renderer's texts beside the report's numbers would show.
func TestCellsAreRendererTexts(t *testing.T) {
	e := testEncoder(t, O200kBase)
	c := testCounter(t, O200kBase)
	sets := toolsettest.Corpus(t)
	sets["hard"] = hardSet(t)
	sets["todo"] = loadSet(t, filepath.Join("..", "convert", "aql", "testdata", "todo.tools.json"))
	ov := aql.Overrides{"clear_completed": {Category: aql.Delete, Operation: "purge_done"}}
	for name, set := range sets {
		for _, o := range []aql.Overrides{nil, ov} {
			rd := convert.NewRenderer(set, o)
			r, err := BuildFrom(c, []*convert.Renderer{rd})
			if err != nil {
				t.Fatal(err)
			}
			s := r.Servers[0]
			for _, f := range convert.FormsFor(o) {
				text, err := f.Render(set)
				if err != nil {
					t.Fatalf("%s/%s: %v", name, f.Name, err)
				}
				if got, want := s.Totals[f.Name], e.count(text); got != want {
					t.Errorf("%s/%s: total %d, document counts %d", name, f.Name, got, want)
				}
				for _, tool := range set.Tools {
					texts, err := rd.ToolTexts(f.Name, tool.Name)
					if err != nil {
						t.Fatalf("%s/%s/%s: %v", name, f.Name, tool.Name, err)
					}
					want := 0
					for _, x := range texts {
						want += e.count(x.Text)
					}
					row, ok := s.Tool(tool.Name)
					if !ok {
						t.Fatalf("%s: no row for %s", name, tool.Name)
					}
					if got, ok := row.Counts[f.Name]; !ok || got != want {
						t.Errorf("%s/%s/%s: cell %d (%v), texts count %d", name, f.Name, tool.Name, got, row.Errors[f.Name], want)
					}
				}
			}
			// BuildWith is the same report.
			again, err := BuildWith(c, []*toolset.Set{set}, convert.FormsFor(o), o)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := writeString(t, r, "json"), writeString(t, again, "json"); a != b {
				t.Errorf("%s: BuildFrom and BuildWith differ", name)
			}
		}
	}
}

// TestCellsAreRendererTextsSynthetic is the same on a 1,000-tool server,
// where short codes collide often and every cell must still carry its
// tool's server-wide code.
func TestCellsAreRendererTextsSynthetic(t *testing.T) {
	c := testCounter(t, O200kBase)
	set := synthSet(1000)
	rd := convert.NewRenderer(set, nil)
	r, err := BuildFrom(c, []*convert.Renderer{rd})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Servers[0]
	for _, f := range rd.Forms() {
		for _, tool := range set.Tools {
			texts, err := rd.ToolTexts(f.Name, tool.Name)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, x := range texts {
				n, _ := c.Count(x.Text)
				want += n
			}
			if row, _ := s.Tool(tool.Name); row.Counts[f.Name] != want {
				t.Fatalf("%s/%s: cell %d, texts count %d", f.Name, tool.Name, row.Counts[f.Name], want)
			}
		}
	}
	for _, f := range r.DeferredForms() {
		if cost := s.True[f]; cost.Exchanges != len(set.Tools) || cost.True() <= cost.Upfront {
			t.Errorf("%s: %+v", f, cost)
		}
	}
}

// TestServerReportTool: the lookup finds every row, before and after every
// sort, says no for a name it does not hold, and works on a report built
// by hand (no index) too.
func TestServerReportTool(t *testing.T) {
	c := testCounter(t, O200kBase)
	set := loadSet(t, filepath.Join("..", "convert", "aql", "testdata", "todo.tools.json"))
	r, err := Build(c, []*toolset.Set{set}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Servers[0]
	check := func(when string) {
		t.Helper()
		for _, tool := range set.Tools {
			row, ok := s.Tool(tool.Name)
			if !ok || row.Name != tool.Name || row.Counts[Baseline] == 0 {
				t.Errorf("%s: %s: %+v, %v", when, tool.Name, row, ok)
			}
		}
		if _, ok := s.Tool("nope"); ok {
			t.Errorf("%s: found a tool the list does not hold", when)
		}
	}
	check("as built")
	for _, field := range r.SortFields() {
		if err := r.Sort(field); err != nil {
			t.Fatal(err)
		}
		check("sorted by " + field)
	}
	byHand := &ServerReport{Tools: []ToolCounts{{Name: "a", Counts: map[string]int{"json": 1}}, {Name: "a", Counts: map[string]int{"json": 2}}}}
	if row, ok := byHand.Tool("a"); !ok || row.Counts["json"] != 1 {
		t.Errorf("hand-built report: %+v, %v (want the first row)", row, ok)
	}
	if _, ok := byHand.Tool("b"); ok {
		t.Error("hand-built report: found b")
	}
}

// TestBuildFromColumns: the columns are the first renderer's forms; a
// server whose renderer lacks one has errors in that column only.
func TestBuildFromColumns(t *testing.T) {
	c := testCounter(t, O200kBase)
	json, _ := convert.FormByName("json")
	term, _ := convert.FormByName("term")
	a := convert.NewRendererWith(hardSet(t), nil, []convert.Form{json, term})
	b := convert.NewRendererWith(evilSet(t), nil, []convert.Form{json})
	r, err := BuildFrom(c, []*convert.Renderer{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Forms, ",") != "json,term" {
		t.Fatalf("columns %v", r.Forms)
	}
	s := r.Servers[1]
	if s.Totals["json"] == 0 || !strings.Contains(s.Errors["term"], `unknown form "term"`) {
		t.Fatalf("second server: totals %v, errors %v", s.Totals, s.Errors)
	}
	for _, tc := range s.Tools {
		if tc.Counts["json"] == 0 || tc.Errors["term"] == "" {
			t.Errorf("%s: %v %v", tc.Name, tc.Counts, tc.Errors)
		}
	}
	if _, incomplete := r.GrandTotal(); strings.Join(incomplete, ",") != "term" {
		t.Errorf("incomplete %v", incomplete)
	}
	empty, err := BuildFrom(c, nil)
	if err != nil || len(empty.Forms) != 0 || len(empty.Servers) != 0 {
		t.Errorf("no renderers: %+v, %v", empty, err)
	}
	var out bytes.Buffer
	if err := Write(&out, empty, "json"); err != nil {
		t.Errorf("an empty report does not write: %v", err)
	}
}

// TestAQLFormWithoutRenderer: an AQL column whose form has no renderer
// fails in its cells and its true cost, with the upfront named as the
// reason, and nothing else.
func TestAQLFormWithoutRenderer(t *testing.T) {
	c := testCounter(t, O200kBase)
	json, _ := convert.FormByName("json")
	r, err := Build(c, []*toolset.Set{hardSet(t)}, []convert.Form{json, {Name: "aql_single"}})
	if err != nil {
		t.Fatal(err)
	}
	s := r.Servers[0]
	if s.TrueErrors["aql_single"] != "the upfront document failed to render" || len(s.True) != 0 {
		t.Errorf("AQL: %v, errors %v", s.True, s.TrueErrors)
	}
	for _, tc := range s.Tools {
		if tc.Counts["json"] == 0 || tc.Errors["aql_single"] != "form has no renderer" {
			t.Errorf("%s: %v %v", tc.Name, tc.Counts, tc.Errors)
		}
	}
}
