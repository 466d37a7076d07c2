// Package chart draws a token report (tokens.Report) as a picture people
// can point at: a self-contained SVG of grouped horizontal bars, and one
// self-contained HTML page with that chart, the per-tool tables (sortable
// by any column) and the notes the text format prints. It is pure — a
// report and a date in, text out — so the same report and date give the
// same bytes, which is what lets a README's chart be checked by a test.
//
// What a bar means is decided once, here (Shown, Groups), from the
// report's own columns: a form added to the registry appears in the chart
// with no change to this package.
package chart

import (
	"strings"

	"github.com/mcpterm/mcpterm/tokens"
)

// Formats are the `mcpterm tokens --format` values this package writes.
func Formats() []string { return []string{"svg", "html"} }

// Options say what the report itself does not: the date in the caption.
// The command line passes today's date; tests pass a fixed one, so output
// is reproducible.
type Options struct {
	Date string // shown as given, e.g. 2026-12-02; empty leaves it out
}

// Series is one kind of bar: a report column, shown at its total or, for
// a deferred form (AQL, term_lazy), at its true cost.
type Series struct {
	Form  string // the report column (tokens.Report.Forms)
	Label string // what the legend and the bar's label say
	// True marks a deferred form drawn at its true cost
	// (tokens.TrueCost.True): its upfront total alone leaves out the
	// introspect or describe answers a model reads later, and would
	// flatter it.
	True bool
}

// Shown picks the chart's series from the report's columns, in column
// order, by one rule: the json baseline (what a model receives today),
// every MCP-Term form (term and term_*: what mcpterm offers instead, so a
// new term form appears by itself), and each deferred form (AQL,
// term_lazy) at its true cost.
// The other columns (json_pretty, json_full, dts, floor) are points of
// comparison rather than proposals; they stay in the tables.
func Shown(r *tokens.Report) []Series {
	var out []Series
	for _, f := range r.Forms {
		switch {
		case f == tokens.Baseline:
			out = append(out, Series{Form: f, Label: f + " (today)"})
		case tokens.IsDeferredForm(f):
			out = append(out, Series{Form: f, Label: f + " (true cost)", True: true})
		case f == "term" || strings.HasPrefix(f, "term_"):
			out = append(out, Series{Form: f, Label: f})
		}
	}
	return out
}

// Bar is one series' figure in one group.
type Bar struct {
	Series
	Value int
	OK    bool // false: the form failed for this group (no figure)
	// Saved is the percentage below the json baseline (negative: above);
	// HasSaved is false for the baseline itself or without a baseline.
	Saved    float64
	HasSaved bool
}

// Group is one server's bars, or the grand total's.
type Group struct {
	Name  string // untrusted: escape before display
	Tools int
	Total bool // the all-servers group
	Bars  []Bar
}

// Groups lays out one group per server, in report order, and with several
// servers an "all servers" group last, from tokens' own grand totals (a
// form missing for any server has no bar there rather than a smaller
// one).
func Groups(r *tokens.Report) []Group {
	shown := Shown(r)
	var gs []Group
	tools := 0
	for _, s := range r.Servers {
		gs = append(gs, group(s.DisplayName(), len(s.Tools), shown, s.Totals, s.True))
		tools += len(s.Tools)
	}
	if len(r.Servers) > 1 {
		totals, _ := r.GrandTotal()
		aql, _ := r.TrueGrandTotal()
		g := group("all servers", tools, shown, totals, aql)
		g.Total = true
		gs = append(gs, g)
	}
	return gs
}

func group(name string, tools int, shown []Series, totals map[string]int, aql map[string]tokens.TrueCost) Group {
	g := Group{Name: name, Tools: tools}
	base, hasBase := totals[tokens.Baseline]
	for _, s := range shown {
		b := Bar{Series: s}
		if s.True {
			c, ok := aql[s.Form]
			b.Value, b.OK = c.True(), ok
		} else {
			b.Value, b.OK = totals[s.Form]
		}
		if b.OK && hasBase && s.Form != tokens.Baseline {
			// tokens.Saved is the report's one rule for "saved vs json".
			b.Saved, b.HasSaved = tokens.Saved(map[string]int{tokens.Baseline: base, s.Form: b.Value}, s.Form)
		}
		g.Bars = append(g.Bars, b)
	}
	return g
}
