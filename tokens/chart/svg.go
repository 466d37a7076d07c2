package chart

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/mcpterm/mcpterm/tokens"
)

// The layout, in SVG user units (pixels at 100%). 960 wide fits a slide
// and a README column; the height follows from the groups.
const (
	width    = 960
	margin   = 24
	labelW   = 196 // the form labels left of the bars
	numW     = 156 // room right of the longest bar for its figure
	barX     = margin + labelW
	barMax   = width - barX - numW - margin
	barH     = 16
	barGap   = 5
	groupGap = 16
	headH    = 22 // a group's name line
	legendH  = 22 // one line of the legend
	swatch   = 14
	font     = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" // local fonts only
)

// palette is Okabe and Ito's colour-blind-safe set, the baseline first in
// dark grey. Colour is never the only cue: each series also has a pattern
// and every bar its form's name beside it.
var palette = [...]string{"#4d4d4d", "#0072b2", "#009e73", "#56b4e9", "#e69f00", "#d55e00", "#cc79a7", "#b8a800"}

// patterns are drawn in white over a series' colour, so series differ in
// print and in grey as well: solid, hatched, dotted, lined, crossed...
var patterns = [...]string{
	``,
	`<path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" stroke="#fff" stroke-width="1.6"/>`,
	`<circle cx="4" cy="4" r="1.6" fill="#fff"/>`,
	`<path d="M0,4 h8" stroke="#fff" stroke-width="1.6"/>`,
	`<path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4 M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4" stroke="#fff" stroke-width="1.2"/>`,
	`<path d="M4,0 v8" stroke="#fff" stroke-width="1.6"/>`,
	`<path d="M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4" stroke="#fff" stroke-width="1.6"/>`,
	`<path d="M0,4 h8 M4,0 v8" stroke="#fff" stroke-width="1.2"/>`,
}

// SVG draws the report as one self-contained SVG document: for every
// server (and, with several, all of them together) one bar per shown
// series (Shown), on one scale across the chart so bars compare between
// servers, each labelled with its form and its count; a legend; and a
// caption with the encoding and the date. Nothing outside the document is
// referenced, and every name from a server is escaped.
func SVG(r *tokens.Report, o Options) string {
	var b strings.Builder
	writeSVG(&b, r, o)
	return b.String()
}

func writeSVG(b *strings.Builder, r *tokens.Report, o Options) {
	shown := Shown(r)
	groups := Groups(r)
	peak := 0
	for _, g := range groups {
		for _, bar := range g.Bars {
			if bar.OK {
				peak = max(peak, bar.Value)
			}
		}
	}
	legend := legendRows(shown)
	top := 48 + len(legend)*legendH + 8
	y := top
	for _, g := range groups {
		y += headH + len(g.Bars)*(barH+barGap) + groupGap
	}
	height := y + 30

	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-labelledby="mcpterm-title mcpterm-desc" font-family="%s" font-size="12">`+"\n",
		width, height, width, height, font)
	fmt.Fprintf(b, "<title id=\"mcpterm-title\">Tokens a model reads for the tool definitions</title>\n")
	fmt.Fprintf(b, "<desc id=\"mcpterm-desc\">%s</desc>\n", esc(caption(r, o), 0))
	b.WriteString("<defs>\n")
	for i := range shown {
		fmt.Fprintf(b, `<pattern id="mcpterm-p%d" patternUnits="userSpaceOnUse" width="8" height="8"><rect width="8" height="8" fill="%s"/>%s</pattern>`+"\n",
			i, palette[i%len(palette)], patterns[i%len(patterns)])
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#fff"/>`+"\n", width, height)
	fmt.Fprintf(b, `<text x="%d" y="30" font-size="18" font-weight="bold" fill="#111">Tokens a model reads for the tool definitions</text>`+"\n", margin)

	for row, items := range legend {
		ly := 48 + row*legendH
		for _, it := range items {
			fmt.Fprintf(b, `<g class="legend" data-form="%s"><rect x="%d" y="%d" width="%d" height="%d" fill="url(#mcpterm-p%d)" stroke="#222" stroke-width="0.5"/><text x="%d" y="%d" fill="#111">%s</text></g>`+"\n",
				esc(it.s.Form, 0), it.x, ly, swatch, swatch, it.i, it.x+swatch+6, ly+11, esc(it.s.Label, 0))
		}
	}

	y = top
	for gi, g := range groups {
		weight := "normal"
		if g.Total {
			weight = "bold"
		}
		fmt.Fprintf(b, `<g class="group" data-group="%d">`+"\n", gi)
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="14" font-weight="bold" fill="#111">%s <tspan font-weight="normal" fill="#444">· %s</tspan></text>`+"\n",
			margin, y+15, esc(g.Name, maxNameCells), toolCount(g.Tools))
		y += headH
		for si, bar := range g.Bars {
			fmt.Fprintf(b, `<text x="%d" y="%d" fill="#222" font-weight="%s">%s</text>`+"\n", margin+12, y+12, weight, esc(bar.Label, 0))
			if !bar.OK {
				fmt.Fprintf(b, `<text class="failed" x="%d" y="%d" fill="#a00" font-style="italic" data-form="%s">failed (see the table)</text>`+"\n", barX, y+12, esc(bar.Form, 0))
				y += barH + barGap
				continue
			}
			w := 0.0
			if peak > 0 {
				w = float64(barMax) * float64(bar.Value) / float64(peak)
			}
			fmt.Fprintf(b, `<rect class="bar" x="%d" y="%d" width="%s" height="%d" fill="url(#mcpterm-p%d)" stroke="#222" stroke-width="0.5" data-form="%s" data-value="%d"><title>%s: %d tokens</title></rect>`+"\n",
				barX, y, px(w), barH, si, esc(bar.Form, 0), bar.Value, esc(bar.Label, 0), bar.Value)
			figure := strconv.Itoa(bar.Value)
			if s := savedText(bar); s != "" {
				figure += " · " + s
			}
			fmt.Fprintf(b, `<text class="count" x="%s" y="%d" fill="#111" font-weight="%s">%s</text>`+"\n", px(float64(barX)+w+6), y+12, weight, esc(figure, 0))
			y += barH + barGap
		}
		b.WriteString("</g>\n")
		y += groupGap
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="11" fill="#444">%s</text>`+"\n", margin, height-12, esc(caption(r, o), 0))
	b.WriteString("</svg>\n")
}

// caption names the encoding and the date, and says what a true-cost bar
// holds, so a picture lifted into a slide still says what it measures.
func caption(r *tokens.Report, o Options) string {
	parts := []string{"encoding " + r.Encoding}
	if o.Date != "" {
		parts = append(parts, o.Date)
	}
	for _, s := range Shown(r) {
		if s.True {
			parts = append(parts, "true cost: upfront + every tool's details (AQL: + operations list)")
			break
		}
	}
	parts = append(parts, "less/more: compared with json", "mcpterm tokens")
	return strings.Join(parts, " · ")
}

type legendItem struct {
	s Series
	i int // the series' pattern
	x int
}

// legendRows places the legend's swatches left to right, wrapping at the
// chart's width; label widths are estimated at 7 px a cell, since an SVG
// cannot be measured without a renderer.
func legendRows(shown []Series) [][]legendItem {
	var rows [][]legendItem
	var row []legendItem
	x := margin
	for i, s := range shown {
		w := swatch + 6 + 7*runewidth.StringWidth(s.Label) + 18
		if len(row) > 0 && x+w > width-margin {
			rows, row, x = append(rows, row), nil, margin
		}
		row = append(row, legendItem{s: s, i: i, x: x})
		x += w
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

// toolCount is "1 tool", "19 tools".
func toolCount(n int) string {
	if n == 1 {
		return "1 tool"
	}
	return strconv.Itoa(n) + " tools"
}
