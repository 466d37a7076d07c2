package tokens

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

func writeString(t *testing.T, r *Report, format string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, r, format); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return b.String()
}

// containsESC reports terminal controls a hostile name could smuggle out:
// ESC, BEL, the C1 CSI and OSC introducers, and a bidi override.
func containsESC(s string) bool { return strings.ContainsAny(s, "\x1b\x07\u009b\u009d\u202e") }

// evilSet has a tool name built to attack a terminal and break tables.
func evilSet(t *testing.T) *toolset.Set {
	set, err := toolset.Parse([]byte(`{"server":"evil\u001b]0;pwned\u0007","tools":[
		{"name":"a|b\u001b]52;c;QUFBQQ==\u0007\nname","description":"x","inputSchema":{"type":"object"}},
		{"name":"` + strings.Repeat("long", 40) + `","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func twoServerReport(t *testing.T) *Report {
	c := testCounter(t, O200kBase)
	r, err := Build(c, []*toolset.Set{hardSet(t), evilSet(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTableFormat(t *testing.T) {
	r := twoServerReport(t)
	out := writeString(t, r, "table")
	if containsESC(out) {
		t.Fatalf("table carries escape sequences:\n%q", out)
	}
	// Every table is aligned: numbers are right-aligned, so all rows of one
	// table have the same display width. A server's section holds the
	// counts table and, each after a note line, the true-cost table (a row
	// per deferred form) and the gateway's (modes, tokens, saving); the
	// grand total has no gateway table.
	for i, section := range strings.Split(out, "\n\n") {
		lines := strings.Split(strings.TrimSpace(section), "\n")
		var tables [][]int
		var widths []int
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, "left out") || strings.Contains(l, " failed") || strings.HasPrefix(l, "no grand total") {
				break
			}
			if strings.HasPrefix(l, "aql_single, aql_semantic, term_lazy:") || strings.HasPrefix(l, "term_lazy, aql_single, aql_semantic:") || strings.HasPrefix(l, "gateway:") {
				tables, widths = append(tables, widths), nil
				continue
			}
			widths = append(widths, runewidth.StringWidth(l))
		}
		tables = append(tables, widths)
		want := 3
		if i == len(r.Servers) {
			want = 2 // all servers
		}
		if len(tables) != want || len(tables[1]) != 1+len(r.DeferredForms()) || want == 3 && len(tables[2]) != 3 {
			t.Fatalf("want a counts table, a true-cost table with a row per deferred form and (per server) a 3-row gateway table:\n%s", section)
		}
		for _, widths := range tables {
			for _, w := range widths {
				if w != widths[0] {
					t.Fatalf("ragged table (widths %v):\n%s", widths, section)
				}
			}
		}
		if !strings.Contains(section, "\ntotal ") || !strings.Contains(section, "saved vs json") {
			t.Fatalf("no totals or savings rows:\n%s", section)
		}
	}
	if !strings.Contains(out, "all servers") {
		t.Fatal("no grand total section for two servers")
	}
	if !strings.Contains(out, "$schema 2 (") {
		t.Fatalf("left-out parts missing:\n%s", out)
	}
}

func TestMarkdownFormat(t *testing.T) {
	r := twoServerReport(t)
	out := writeString(t, r, "md")
	if containsESC(out) {
		t.Fatal("markdown carries escape sequences")
	}
	if !strings.Contains(out, "|---|---:|") || !strings.Contains(out, "| **total** |") {
		t.Fatalf("not a GitHub table:\n%s", out)
	}
	// The tool name's '|' must not add a column.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, `| a\|b`) {
			if n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"); n != len(r.Forms)+2 {
				t.Fatalf("row has %d separators, want %d: %s", n, len(r.Forms)+2, l)
			}
		}
	}
}

func TestJSONFormat(t *testing.T) {
	c := testCounter(t, O200kBase)
	one, err := Build(c, []*toolset.Set{hardSet(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ojson.Parse([]byte(writeString(t, one, "json")))
	if err != nil {
		t.Fatal(err)
	}
	keys := strings.Join(v.Keys(), ",")
	if !strings.HasPrefix(keys, "encoding,server,source,forms,tools,totals,savings,left_out") {
		t.Fatalf("keys %s", keys)
	}
	tools := v.Get("tools").Items
	if len(tools) != 3 || tools[0].Get("name").Str != "data_platform_query" || tools[0].Get("forms").Get("json") == nil {
		t.Fatalf("tools: %s", v.Get("tools").Compact())
	}
	if got := v.Get("savings").Get(Floor).Get("floor_ratio").Num; got != "1.00" {
		t.Fatalf("floor's own ratio %s", got)
	}
	if v.Get("left_out").Get("icons").Get("count").Num != "1" {
		t.Fatalf("left_out %s", v.Get("left_out").Compact())
	}
	for _, f := range []string{"aql_single", "term_lazy"} {
		got := v.Get("true_costs").Get(f)
		want := one.Servers[0].True[f]
		if got == nil || got.Get("true_cost").Num.String() != strconv.Itoa(want.True()) || got.Get("upfront").Num.String() != strconv.Itoa(want.Upfront) ||
			got.Get("operations_list").Num.String() != strconv.Itoa(want.OperationsList) || got.Get("true_saved_vs_json_pct") == nil {
			t.Fatalf("true_costs %s, want %s %+v", v.Get("true_costs").Compact(), f, want)
		}
	}
	// The gateway's figures are the report's own: term-lazy's true cost,
	// term's tool as served.
	gw := v.Get("gateway")
	if gw.Get("term_lazy").Get("tokens").Num.String() != strconv.Itoa(one.Servers[0].True["term_lazy"].True()) ||
		gw.Get("term").Get("tokens").Num.String() != strconv.Itoa(one.Servers[0].Served["term"]) || gw.Get("json").Get("mode").Str != "passthrough" {
		t.Fatalf("gateway %s", gw.Compact())
	}

	r := twoServerReport(t)
	var multi struct {
		Encoding string `json:"encoding"`
		Servers  []struct {
			Server string         `json:"server"`
			Totals map[string]int `json:"totals"`
		} `json:"servers"`
		GrandTotal     map[string]int `json:"grand_total"`
		TrueGrandTotal map[string]struct {
			TrueCost int `json:"true_cost"`
		} `json:"true_cost_grand_total"`
	}
	if err := json.Unmarshal([]byte(writeString(t, r, "json")), &multi); err != nil {
		t.Fatal(err)
	}
	if len(multi.Servers) != 2 || multi.Encoding != O200kBase {
		t.Fatalf("%+v", multi)
	}
	for _, f := range r.DeferredForms() {
		if got, want := multi.TrueGrandTotal[f].TrueCost, r.Servers[0].True[f].True()+r.Servers[1].True[f].True(); got != want || got == 0 {
			t.Errorf("%s true-cost grand total %d, want %d", f, got, want)
		}
	}
	for _, f := range r.Forms {
		if _, failed := r.Servers[0].Errors[f]; failed {
			continue
		}
		if _, failed := r.Servers[1].Errors[f]; failed {
			continue
		}
		if got, want := multi.GrandTotal[f], multi.Servers[0].Totals[f]+multi.Servers[1].Totals[f]; got != want {
			t.Errorf("grand total %s = %d, want %d", f, got, want)
		}
	}
}

func TestCSVFormat(t *testing.T) {
	r := twoServerReport(t)
	recs, err := csv.NewReader(strings.NewReader(writeString(t, r, "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// A header, one row per tool, two true-cost rows per server.
	if len(recs) != 1+3+2+2+2 {
		t.Fatalf("%d records, want a header, one per tool and two true-cost rows per server", len(recs))
	}
	if recs[0][0] != "server" || recs[0][1] != "tool" || recs[0][2] != Baseline || len(recs[0]) != 3+len(r.Forms) || recs[0][len(recs[0])-1] != "row" {
		t.Fatalf("header %v", recs[0])
	}
	if recs[1][1] != "data_platform_query" || recs[1][2] == "" || recs[1][len(recs[1])-1] != "tool" {
		t.Fatalf("row %v", recs[1])
	}
	if up := recs[4]; up[1] != "" || up[2] != "" || up[len(up)-1] != "upfront" {
		t.Fatalf("true-cost row %v", up)
	}
}

// TestCSVSumsToTrueCost: a deferred column added up over one server's rows is
// that server's true cost, so a spreadsheet sum means what it says.
func TestCSVSumsToTrueCost(t *testing.T) {
	r := twoServerReport(t)
	recs, err := csv.NewReader(strings.NewReader(writeString(t, r, "csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range r.DeferredForms() {
		col := slices.Index(recs[0], f)
		for _, s := range r.Servers {
			sum := 0
			for _, rec := range recs[1:] {
				if rec[0] == csvText(serverName(s)) && rec[col] != "" {
					n, err := strconv.Atoi(rec[col])
					if err != nil {
						t.Fatal(err)
					}
					sum += n
				}
			}
			if want := s.True[f].True(); sum != want || want == 0 {
				t.Errorf("%s/%s: column sums to %d, true cost %d", s.Server, f, sum, want)
			}
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, &Report{}, "xml"); err == nil {
		t.Fatal("xml accepted")
	}
}
