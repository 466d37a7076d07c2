package chart

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/tokens"
)

// The page's only script and style sheet, inlined and allowed by hash.
var (
	//go:embed page.js
	pageJS string
	//go:embed page.css
	pageCSS string
)

// HTML is one self-contained page: the chart (the same SVG, inline), then
// per server its tool table — sortable by clicking any column header,
// numbers by value — with the total, saved-vs-json and × floor rows, the
// AQL true-cost table and the notes the text format prints (left-out
// parts, failures); with several servers an all-servers section follows.
// Its Content-Security-Policy forbids every load: only the inline style
// and script, named by their hashes, run, so the page works offline and a
// hostile name that slipped through escaping could still not run script.
// Names are cut at 120 cells, notes at 400: a 3 KB name is a hostile
// server's, not information.
func HTML(r *tokens.Report, o Options) string {
	var b strings.Builder
	sub := r.Encoding
	if o.Date != "" {
		sub += " · " + o.Date
	}
	title := "mcpterm tokens · " + sub
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src '%s'; script-src '%s'; img-src data:; base-uri 'none'; form-action 'none'\">\n",
		hash(pageCSS), hash(pageJS))
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(title, 0), pageCSS)
	fmt.Fprintf(&b, "<h1>Token report · %s</h1>\n", esc(sub, 0))
	b.WriteString("<figure>\n")
	writeSVG(&b, r, o)
	b.WriteString("<figcaption>Bars: the json baseline, the MCP-Term forms and the AQL forms at their true cost, on one scale. Every form is in the tables below; click a column header to sort.</figcaption>\n</figure>\n")
	for i, s := range r.Servers {
		fmt.Fprintf(&b, "<section>\n<h2>%s · %d tools · %s</h2>\n", esc(s.DisplayName(), 120), len(s.Tools), esc(r.Encoding, 0))
		names := make([]string, len(s.Tools))
		rows := make([]map[string]int, len(s.Tools))
		errs := make([]map[string]string, len(s.Tools))
		for j, t := range s.Tools {
			names[j], rows[j], errs[j] = t.Name, t.Counts, t.Errors
		}
		countsTable(&b, fmt.Sprintf("tools-%d", i), "tool", r.Forms, names, rows, errs, s.Totals)
		aqlTable(&b, r, s.True, s.Totals[tokens.Baseline])
		notes(&b, r, s)
		b.WriteString("</section>\n")
	}
	if len(r.Servers) > 1 {
		fmt.Fprintf(&b, "<section>\n<h2>All servers · %s</h2>\n", esc(r.Encoding, 0))
		names := make([]string, len(r.Servers))
		rows := make([]map[string]int, len(r.Servers))
		for j, s := range r.Servers {
			names[j], rows[j] = s.DisplayName(), s.Totals
		}
		totals, incomplete := r.GrandTotal()
		countsTable(&b, "servers", "server", r.Forms, names, rows, nil, totals)
		aqlTotals, aqlIncomplete := r.TrueGrandTotal()
		aqlTable(&b, r, aqlTotals, totals[tokens.Baseline])
		var items []string
		if len(incomplete) > 0 {
			items = append(items, "no grand total for "+strings.Join(incomplete, ", ")+": it failed for some server")
		}
		if len(aqlIncomplete) > 0 {
			items = append(items, "no AQL true cost in the grand total for "+strings.Join(aqlIncomplete, ", ")+": it failed for some server")
		}
		list(&b, items)
		b.WriteString("</section>\n")
	}
	fmt.Fprintf(&b, "<script>%s</script>\n</body>\n</html>\n", pageJS)
	return b.String()
}

// hash is a CSP source for an inline element's exact text.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// countsTable writes named rows of counts, sortable, with the total and
// the two savings rows in the footer (which sorting leaves in place).
// Each cell carries its sort key in data-v, empty where the form failed.
func countsTable(b *strings.Builder, id, first string, forms, names []string, rows []map[string]int, errs []map[string]string, totals map[string]int) {
	fmt.Fprintf(b, "<div class=\"scroll\"><table class=\"sortable\" id=\"%s\">\n<thead><tr><th scope=\"col\" data-type=\"text\">%s</th>", id, first)
	for _, f := range forms {
		fmt.Fprintf(b, "<th scope=\"col\" data-type=\"num\">%s</th>", esc(f, 0))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for i, counts := range rows {
		name := esc(names[i], 120)
		fmt.Fprintf(b, "<tr data-i=\"%d\"><td data-v=\"%s\">%s</td>", i, name, name)
		for _, f := range forms {
			if n, ok := counts[f]; ok {
				fmt.Fprintf(b, "<td data-v=\"%d\">%d</td>", n, n)
				continue
			}
			why := ""
			if errs != nil {
				why = errs[i][f]
			}
			fmt.Fprintf(b, "<td data-v=\"\" class=\"err\" title=\"%s\">err</td>", esc(why, 300))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n<tfoot>\n<tr><th scope=\"row\">total</th>")
	for _, f := range forms {
		if n, ok := totals[f]; ok {
			fmt.Fprintf(b, "<td>%d</td>", n)
		} else {
			b.WriteString("<td class=\"err\">err</td>")
		}
	}
	fmt.Fprintf(b, "</tr>\n<tr><th scope=\"row\">saved vs %s</th>", tokens.Baseline)
	for _, f := range forms {
		b.WriteString("<td>" + percent(tokens.Saved(totals, f)) + "</td>")
	}
	fmt.Fprintf(b, "</tr>\n<tr><th scope=\"row\">× %s</th>", tokens.Floor)
	for _, f := range forms {
		cell := "–"
		if q, ok := tokens.FloorRatio(totals, f); ok {
			cell = strconv.FormatFloat(q, 'f', 2, 64) + "×"
		}
		b.WriteString("<td>" + cell + "</td>")
	}
	b.WriteString("</tr>\n</tfoot>\n</table></div>\n")
}

func percent(p float64, ok bool) string {
	if !ok {
		return "–"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

// aqlTable is the text format's true-cost table for the deferred forms
// (AQL, term-lazy), with its explanation above it, in the text format's
// own words and cells. base is the json baseline's total.
func aqlTable(b *strings.Builder, r *tokens.Report, costs map[string]tokens.TrueCost, base int) {
	forms := r.DeferredForms()
	if len(forms) == 0 {
		return
	}
	fmt.Fprintf(b, "<p>%s</p>\n", esc(tokens.TrueCostNote(forms), 0))
	b.WriteString("<div class=\"scroll\"><table class=\"aql\">\n<thead><tr>")
	for _, h := range tokens.TrueCostColumns() {
		fmt.Fprintf(b, "<th scope=\"col\">%s</th>", esc(h, 0))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for _, f := range forms {
		fmt.Fprintf(b, "<tr><td>%s</td>", esc(f, 0))
		c, ok := costs[f]
		for _, cell := range tokens.TrueCostCells(c, ok, base) {
			if cell == "err" {
				b.WriteString("<td class=\"err\">err</td>")
				continue
			}
			fmt.Fprintf(b, "<td>%s</td>", esc(cell, 0))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table></div>\n")
}

// notes are the lines under a server's table, as the text format has
// them (tokens.Report.Notes).
func notes(b *strings.Builder, r *tokens.Report, s *tokens.ServerReport) {
	list(b, r.Notes(s))
}

// list writes untrusted note lines, each escaped and bounded.
func list(b *strings.Builder, items []string) {
	if len(items) == 0 {
		return
	}
	b.WriteString("<ul class=\"notes\">\n")
	for _, it := range items {
		fmt.Fprintf(b, "<li>%s</li>\n", esc(it, 400))
	}
	b.WriteString("</ul>\n")
}
