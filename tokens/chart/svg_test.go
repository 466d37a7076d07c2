package chart

import (
	"encoding/xml"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
	"github.com/mcpterm/mcpterm/tokens"
)

var update = flag.Bool("update", false, "rewrite tokens/chart/testdata from the current output")

const testDate = "2026-12-02"

// report builds a real report (the exact tokenizer over every registered
// form) for the given sets.
func report(t testing.TB, sets ...*toolset.Set) *tokens.Report {
	t.Helper()
	c, err := tokens.NewCounter(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	r, err := tokens.Build(c, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func todoSet(t testing.TB) *toolset.Set {
	return toolsettest.Load(t, filepath.Join("..", "..", "convert", "aql", "testdata", "todo.tools.json"))
}

func hardSet(t testing.TB) *toolset.Set {
	return toolsettest.Load(t, filepath.Join("..", "testdata", "hard.tools.json"))
}

// corpusReport is the reference corpus as one report: several servers and
// an all-servers group.
func corpusReport(t testing.TB) *tokens.Report {
	var sets []*toolset.Set
	for _, f := range toolsettest.CorpusFiles(t) {
		sets = append(sets, toolsettest.Load(t, f))
	}
	return report(t, sets...)
}

// element is one parsed SVG element with its attributes.
type element struct {
	name  string
	attrs map[string]string
	text  string // the character data directly inside it
	group string // data-group of the enclosing group, if any
}

// parseSVG reads the document with encoding/xml, failing the test on any
// error: well-formedness is the first property every output must have.
func parseSVG(t testing.TB, doc string) []element {
	t.Helper()
	els, err := parseXML(doc)
	if err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, doc)
	}
	return els
}

func parseXML(doc string) ([]element, error) {
	d := xml.NewDecoder(strings.NewReader(doc))
	var out []element
	var stack []int
	group := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if len(out) == 0 || out[0].name != "svg" {
				return nil, io.ErrUnexpectedEOF
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := element{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			if e.name == "g" && e.attrs["class"] == "group" {
				group = e.attrs["data-group"]
			}
			e.group = group
			out = append(out, e)
			stack = append(stack, len(out)-1)
		case xml.CharData:
			if len(stack) > 0 {
				out[stack[len(stack)-1]].text += string(tok)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
}

// TestShownFollowsTheReport: the series come from the report's columns by
// the rule (json, term and term_*, the deferred forms at true cost), so a
// form the registry gains is drawn without a change here.
func TestShownFollowsTheReport(t *testing.T) {
	r := &tokens.Report{Forms: []string{"json", "json_pretty", "json_full", "term", "term_lean", "term_lazy", "dts", "floor", "aql_single", "aql_semantic"}}
	var got []string
	for _, s := range Shown(r) {
		got = append(got, s.Form+":"+strconv.FormatBool(s.True))
	}
	want := []string{"json:false", "term:false", "term_lean:false", "term_lazy:true", "aql_single:true", "aql_semantic:true"}
	if !slices.Equal(got, want) {
		t.Fatalf("Shown = %v, want %v", got, want)
	}
	if real := Shown(report(t, todoSet(t))); len(real) < 4 || real[0].Form != tokens.Baseline {
		t.Fatalf("Shown over the registry = %+v", real)
	}
}

// TestSVGBarsProportional parses the corpus chart and checks every bar's
// width against the figure it stands for, worked out here from the report
// (a server's total, an AQL form's upfront + operations list + details,
// the all-servers group as the sum over servers): every width is the same
// multiple of its figure, within a pixel, and the largest bar is the
// full bar length.
func TestSVGBarsProportional(t *testing.T) {
	r := corpusReport(t)
	if len(r.Servers) < 2 {
		t.Fatalf("corpus has %d servers", len(r.Servers))
	}
	want := func(g int, form string) int {
		if g == len(r.Servers) {
			sum := 0
			for i := range r.Servers {
				sum += figure(t, r.Servers[i], form)
			}
			return sum
		}
		return figure(t, r.Servers[g], form)
	}
	type bar struct {
		w float64
		v int
	}
	var bars []bar
	peak := 0
	for _, e := range parseSVG(t, SVG(r, Options{Date: testDate})) {
		if e.name != "rect" || e.attrs["class"] != "bar" {
			continue
		}
		g, err := strconv.Atoi(e.group)
		if err != nil {
			t.Fatalf("bar outside a group: %+v", e)
		}
		w, err := strconv.ParseFloat(e.attrs["width"], 64)
		if err != nil {
			t.Fatal(err)
		}
		v := want(g, e.attrs["data-form"])
		if e.attrs["data-value"] != strconv.Itoa(v) {
			t.Errorf("group %d %s: data-value %s, the report says %d", g, e.attrs["data-form"], e.attrs["data-value"], v)
		}
		bars = append(bars, bar{w, v})
		peak = max(peak, v)
	}
	if n := (len(r.Servers) + 1) * len(Shown(r)); len(bars) != n {
		t.Fatalf("%d bars, want %d", len(bars), n)
	}
	scale := float64(barMax) / float64(peak)
	for _, b := range bars {
		if math.Abs(b.w-scale*float64(b.v)) > 1 {
			t.Errorf("bar for %d tokens is %.2f px wide, want %.2f", b.v, b.w, scale*float64(b.v))
		}
		if b.v == peak && math.Abs(b.w-barMax) > 0.01 {
			t.Errorf("the largest bar is %.2f px, want the full %d", b.w, barMax)
		}
	}
}

// figure is what a server's bar for form must show.
func figure(t testing.TB, s *tokens.ServerReport, form string) int {
	if tokens.IsDeferredForm(form) {
		c, ok := s.True[form]
		if !ok {
			t.Fatalf("%s: no AQL cost for %s", s.Server, form)
		}
		return c.Upfront + c.OperationsList + c.Details
	}
	n, ok := s.Totals[form]
	if !ok {
		t.Fatalf("%s: no total for %s", s.Server, form)
	}
	return n
}

// TestSVGSelfContained: nothing outside the document is referenced — no
// href, no url() but the document's own patterns, no script, style,
// image or foreign content — and it has a legend entry per series and a
// caption with the encoding and the date.
func TestSVGSelfContained(t *testing.T) {
	r := report(t, todoSet(t), hardSet(t))
	doc := SVG(r, Options{Date: testDate})
	legend := 0
	for _, e := range parseSVG(t, doc) {
		switch e.name {
		case "script", "style", "image", "foreignObject", "use", "a", "iframe":
			t.Errorf("element <%s> in the chart", e.name)
		}
		for k, v := range e.attrs {
			if k == "href" || strings.HasPrefix(k, "on") {
				t.Errorf("<%s %s=%q>", e.name, k, v)
			}
			if strings.Contains(v, "url(") && !strings.HasPrefix(v, "url(#mcpterm-p") {
				t.Errorf("<%s %s=%q>: an outside reference", e.name, k, v)
			}
		}
		if e.name == "g" && e.attrs["class"] == "legend" {
			legend++
		}
	}
	if legend != len(Shown(r)) {
		t.Errorf("%d legend entries, want %d", legend, len(Shown(r)))
	}
	if strings.Count(doc, "http") != 1 { // the SVG namespace name only
		t.Errorf("the chart names a URL besides its namespace")
	}
	for _, want := range []string{"encoding " + tokens.O200kBase, testDate} {
		if !strings.Contains(doc, want) {
			t.Errorf("the caption lacks %q", want)
		}
	}
}

// hostileName has markup, an entity, a terminal escape, a bidi override,
// a character XML forbids and invalid UTF-8.
const hostileName = "evil</text><script>alert(1)</script>&amp;\x1b[31m\u202eRED\x00\xff\"'"

// hostileReport is a hand-made report whose server and tool names are
// hostile; the figures are real-shaped.
func hostileReport() *tokens.Report {
	return &tokens.Report{
		Encoding: tokens.O200kBase,
		Forms:    []string{"json", "term", "floor", "aql_single"},
		Servers: []*tokens.ServerReport{{
			Server: hostileName,
			Tools: []tokens.ToolCounts{
				{Name: hostileName, Counts: map[string]int{"json": 40, "term": 20, "floor": 9, "aql_single": 50}},
				{Name: "ok_tool", Counts: map[string]int{"json": 10, "floor": 3, "aql_single": 30}, Errors: map[string]string{"term": "boom <b>" + hostileName}},
			},
			Totals:  map[string]int{"json": 50, "floor": 12, "aql_single": 7},
			Errors:  map[string]string{"term": "render failed: " + hostileName},
			True:    map[string]tokens.TrueCost{"aql_single": {Upfront: 7, OperationsList: 20, Details: 80, Exchanges: 2, DetailsMin: 30, DetailsMax: 50}},
			LeftOut: map[string]tokens.LeftOutPart{"_meta": {Count: 1, Tokens: 5}},
		}},
	}
}

// TestSVGHostileNames: a hostile server name stays text — the document
// parses, holds no script element, and the name's text has no control,
// bidi or forbidden character left, while its visible letters remain —
// and a failed form is said in words instead of drawn as a short bar.
func TestSVGHostileNames(t *testing.T) {
	els := parseSVG(t, SVG(hostileReport(), Options{Date: testDate}))
	found, failed := false, false
	for _, e := range els {
		if e.name == "script" {
			t.Fatal("a <script> element got through")
		}
		if strings.Contains(e.text, "alert(1)") {
			found = true
			if !strings.Contains(e.text, "</text><script>") {
				t.Errorf("the name's markup is not shown as text: %q", e.text)
			}
			if strings.ContainsAny(e.text, "\x1b\u202e\x00") || !strings.Contains(e.text, "RED") {
				t.Errorf("controls left in %q", e.text)
			}
		}
		if e.attrs["class"] == "failed" && e.attrs["data-form"] == "term" {
			failed = true
		}
		if e.attrs["class"] == "bar" && e.attrs["data-form"] == "term" {
			t.Errorf("a bar drawn for a failed form")
		}
	}
	if !found || !failed {
		t.Errorf("name shown %v, failure shown %v", found, failed)
	}
}

// TestSVGGolden pins a small real report's chart byte for byte (the todo
// fixture and the hard fixture: two servers and the all-servers group).
// A change to the layout or to a count shows as a diff; rewrite with
// -update when it is meant.
func TestSVGGolden(t *testing.T) {
	got := SVG(report(t, todoSet(t), hardSet(t)), Options{Date: testDate})
	path := filepath.Join("testdata", "todo-hard.svg")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (run with -update if the change is meant)", path)
	}
	if again := SVG(report(t, todoSet(t), hardSet(t)), Options{Date: testDate}); again != got {
		t.Error("the same report and date drew two different charts")
	}
	if other := SVG(report(t, todoSet(t), hardSet(t)), Options{Date: "2027-01-01"}); other != strings.ReplaceAll(got, testDate, "2027-01-01") {
		t.Error("a different date changed more than the date")
	}
}

// FuzzSVG: any report — names of any bytes, any counts, any failures —
// draws a well-formed SVG and an HTML page the HTML parser reads with
// exactly one script, the page's own.
func FuzzSVG(f *testing.F) {
	f.Add(hostileName, "tool", 10, 5, 3, true)
	f.Add("", "", 0, 0, 0, false)
	f.Add("a\u2028b", "]]>--><!--", 1<<30, 1, 7, true)
	f.Fuzz(func(t *testing.T, server, tool string, json, term, aqlUp int, fail bool) {
		json, term, aqlUp = nonNeg(json)%1e9, nonNeg(term)%1e9, nonNeg(aqlUp)%1e9
		r := &tokens.Report{
			Encoding: tool, // untrusted too, as far as this package can tell
			Forms:    []string{"json", "term", "floor", "aql_single"},
			Servers: []*tokens.ServerReport{
				{Server: server, Tools: []tokens.ToolCounts{{Name: tool, Counts: map[string]int{"json": json, "term": term}}},
					Totals: map[string]int{"json": json, "term": term, "aql_single": aqlUp},
					True:   map[string]tokens.TrueCost{"aql_single": {Upfront: aqlUp}}},
				{Server: tool, Source: server, Totals: map[string]int{"json": term}},
			},
		}
		if fail {
			r.Servers[0].Errors = map[string]string{"term": server}
			delete(r.Servers[0].Totals, "term")
		}
		doc := SVG(r, Options{Date: server})
		if _, err := parseXML(doc); err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, doc)
		}
		page := HTML(r, Options{Date: server})
		if n := countScripts(t, page); n != 1 {
			t.Fatalf("%d script elements in the page", n)
		}
	})
}

func nonNeg(n int) int {
	if n < 0 {
		return -(n + 1)
	}
	return n
}

// TestSVGZeroFigures: a report of zeros (nothing to scale by) draws
// zero-width bars rather than dividing by zero, and an empty report (no
// forms, no servers) an empty chart and page.
func TestSVGZeroFigures(t *testing.T) {
	empty := &tokens.Report{Encoding: tokens.O200kBase}
	if els := parseSVG(t, SVG(empty, Options{})); slices.ContainsFunc(els, func(e element) bool { return e.attrs["class"] == "bar" }) {
		t.Error("bars in an empty report's chart")
	}
	if n := countScripts(t, HTML(empty, Options{})); n != 1 {
		t.Errorf("%d scripts in an empty report's page", n)
	}
	r := hostileReport()
	r.Servers[0].Totals = map[string]int{"json": 0, "term": 0, "floor": 0, "aql_single": 0}
	r.Servers[0].True = map[string]tokens.TrueCost{"aql_single": {}}
	r.Servers[0].Errors = nil
	for _, e := range parseSVG(t, SVG(r, Options{})) {
		if e.attrs["class"] != "bar" {
			continue
		}
		if w := e.attrs["width"]; w != "0" {
			t.Errorf("zero figure drawn %s px wide", w)
		}
	}
}
