package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// chartPane draws the token report as horizontal bars: every form of the
// server's whole list against the json baseline, the selected tool's
// cells, and, for a list merging several servers, each server's own list.
// It takes the side-by-side pane's place while it is shown (the Chart
// key), so the side-by-side pane keeps its form, scroll and renderings
// for when it comes back. Every figure is the report's, never counted
// again: the totals and tool cells `mcpterm tokens` prints, the AQL forms
// by their true cost, the percentages by tokens.SavedVs.
type chartPane struct {
	inbox
	st      *Styles
	keys    *KeyMap
	w, h    int
	focused bool

	in    chartInput // what the root last handed in
	built chartBuilt // what the scroller's content was drawn for
	view  widget.Scroller
}

// chartInput is what the chart is drawn from; the root hands it in after
// every message (Model.syncChart), and the pane redraws only when it, the
// width or the theme changed.
type chartInput struct {
	cat      *catalog
	rep      *tokens.ServerReport // nil while counting
	servers  *tokens.Report       // one report per server of a merged list; nil for one server
	tool     string               // the selected tool, "" for none
	enc      string
	sanitize func(string) string
}

type chartBuilt struct {
	cat     *catalog
	rep     *tokens.ServerReport
	servers *tokens.Report
	tool    string
	enc     string
	width   int
	theme   string
}

func newChartPane(st *Styles, keys *KeyMap) chartPane {
	return chartPane{st: st, keys: keys}
}

func (p *chartPane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := widget.Inner(p.st.Frame, w, h)
	p.view.SetSize(iw, ih)
}

func (p *chartPane) Focus() tea.Cmd { p.focused = true; return nil }
func (p *chartPane) Blur()          { p.focused = false }

// set takes what the chart is of, redrawing its content when that changed.
func (p *chartPane) set(in chartInput) {
	p.in = in
	b := chartBuilt{cat: in.cat, rep: in.rep, servers: in.servers, tool: in.tool, enc: in.enc, width: p.view.Width(), theme: p.st.Palette.Name}
	if b == p.built {
		return
	}
	sameList := b.cat == p.built.cat && b.rep == p.built.rep && b.servers == p.built.servers
	p.built = b
	y := p.view.YOffset()
	p.view.SetContent(strings.Join(chartLines(*p.st, in, b.width), "\n"))
	if sameList {
		p.view.SetYOffset(y)
	} else {
		p.view.GotoTop()
	}
}

func (p *chartPane) Update(m tea.Msg) tea.Cmd {
	if msg, ok := m.(tea.KeyPressMsg); ok {
		scrollKey(p.keys, msg, p.view.Scroll, p.view.Height())
	}
	return nil
}

func (p *chartPane) click(_, _ int) tea.Cmd { return nil }
func (p *chartPane) wheel(n int) tea.Cmd    { p.view.Scroll(n); return nil }

func (p *chartPane) Help() []key.Binding {
	return []key.Binding{p.keys.Chart, p.keys.Encoding, p.keys.Up, p.keys.Down}
}

func (p *chartPane) View() string {
	st := *p.st
	title := "Chart"
	if p.in.rep != nil {
		title += " · " + chartName(p.in, p.in.rep.Server)
	}
	note := shortEnc(p.in.enc)
	if rest := p.view.TotalLines() - p.view.YOffset() - p.view.Height(); rest > 0 {
		note = "↓ " + strconv.Itoa(rest) + " more · " + note
	}
	return widget.Frame(st.Frame, p.focused, p.w, p.h, title, note, strings.Join(p.view.Visible(), "\n"))
}

// chartName is a server's or tool's name as the screen may show it.
func chartName(in chartInput, name string) string {
	if name == "" {
		name = "(unnamed)"
	}
	if in.sanitize != nil {
		name = in.sanitize(name)
	}
	return safe.Name(name)
}

// chartSection is one block of the chart: a title and its bars, on one
// scale (the largest bar of the section spans the bar area).
type chartSection struct {
	title, note string
	rows        []widget.Bar
}

// chartForms are the report's columns the chart shows, the json baseline
// first: every form but json_pretty, which is the baseline with white
// space and says nothing a reader of a chart would want.
func chartForms(cat *catalog) []string {
	if cat == nil {
		return nil
	}
	out := []string{tokens.Baseline}
	for _, f := range cat.renderer.Forms() {
		if f.Name != tokens.Baseline && f.Name != "json_pretty" {
			out = append(out, f.Name)
		}
	}
	return out
}

// formBars is one bar per form: counts[f], or for a deferred form (AQL,
// term-lazy) its true cost when costs is given (a server's figures) and
// its cell otherwise (a tool's: the introspect or describe exchange). Each bar is labelled with
// its count and its change against the json baseline.
func formBars(forms []string, counts map[string]int, costs map[string]tokens.TrueCost, group string) []widget.Bar {
	base, hasBase := counts[tokens.Baseline]
	var rows []widget.Bar
	for _, f := range forms {
		label := f
		n, ok := counts[f]
		if tokens.IsDeferredForm(f) {
			if costs != nil {
				var c tokens.TrueCost
				c, ok = costs[f]
				n = c.True()
				label += " true cost"
			} else {
				label += " " + exchangeName(f)
			}
		}
		r := widget.Bar{Label: label, Value: n, Group: group}
		switch {
		case !ok:
			r.Value, r.Note = 0, "failed"
		case f == tokens.Baseline:
			r.Note = thousands(n) + " tok baseline"
		default:
			r.Note = thousands(n) + " tok " + changeVs(base, n, hasBase)
			switch {
			case hasBase && n < base:
				r.Tone = widget.ToneCheaper
			case hasBase && n > base:
				r.Tone = widget.ToneDearer
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// exchangeName names a deferred form's per-tool exchange: AQL's
// introspect, term-lazy's describe.
func exchangeName(form string) string {
	if _, ok := convert.AQLMode(form); ok {
		return "introspect"
	}
	return "describe"
}

// changeVs is n against the baseline as a signed percentage with the
// precision `mcpterm tokens` prints ("-63.2%": 63.2% saved).
func changeVs(base, n int, hasBase bool) string {
	pct, ok := tokens.SavedVs(base, n)
	if !hasBase || !ok {
		return "–"
	}
	s := strconv.FormatFloat(-pct, 'f', 1, 64)
	switch {
	case s == "0.0" || s == "-0.0":
		return "±0.0%"
	case !strings.HasPrefix(s, "-"):
		s = "+" + s
	}
	return s + "%"
}

// chartSections lays the report out: the server's whole list, the
// selected tool, and each server of a merged list on one shared scale.
func chartSections(in chartInput) []chartSection {
	forms := chartForms(in.cat)
	rep := in.rep
	var secs []chartSection
	aqlNote := ""
	for _, f := range forms {
		if tokens.IsDeferredForm(f) {
			aqlNote = "true cost = upfront + every tool's details (AQL: + operations list)"
			break
		}
	}
	secs = append(secs, chartSection{
		title: "Server " + chartName(in, rep.Server) + " · " + strconv.Itoa(len(rep.Tools)) + " tools · whole list",
		note:  aqlNote,
		rows:  formBars(forms, rep.Totals, rep.True, ""),
	})
	if tc, ok := rep.Tool(in.tool); ok && in.tool != "" {
		note := ""
		if aqlNote != "" {
			note = "introspect, describe = the exchange that fetches the tool's details"
		}
		secs = append(secs, chartSection{title: "Tool " + chartName(in, tc.Name), note: note, rows: formBars(forms, tc.Counts, nil, "")})
	}
	if in.servers != nil && len(in.servers.Servers) > 1 {
		sec := chartSection{title: "Per server · each server's own list", note: "one scale for every server"}
		for _, s := range in.servers.Servers {
			group := chartName(in, s.Server) + " · " + strconv.Itoa(len(s.Tools)) + " tools"
			sec.rows = append(sec.rows, formBars(forms, s.Totals, s.True, group)...)
		}
		secs = append(secs, sec)
	}
	return secs
}

// chartLines draws the chart at width w. Labels and notes are padded to
// one width across sections, so every section's bars start and end in the
// same columns; each section keeps its own scale.
func chartLines(st Styles, in chartInput, w int) []string {
	if in.rep == nil {
		return []string{st.Muted.Render("counting…")}
	}
	secs := chartSections(in)
	labelW, noteW := 0, 0
	for _, s := range secs {
		for _, r := range s.rows {
			labelW = max(labelW, ansi.StringWidth(r.Label))
			noteW = max(noteW, ansi.StringWidth(r.Note))
		}
	}
	// Labels longer than the narrowest bar area allows are cut here, once,
	// so every section cuts them alike.
	labelW = min(labelW, max(0, w-1-widget.MinBarCells))
	var lines []string
	for i, s := range secs {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, widget.FitLine(st.PaneTitle.Render(s.title), w))
		rows := make([]widget.Bar, len(s.rows))
		for j, r := range s.rows {
			r.Label = widget.PadRight(widget.Truncate(r.Label, labelW), labelW)
			r.Note = strings.Repeat(" ", max(0, noteW-ansi.StringWidth(r.Note))) + r.Note
			rows[j] = r
		}
		lines = append(lines, widget.Bars(rows, widget.BarOptions{Width: w}, st.Bars)...)
		if s.note != "" {
			lines = append(lines, widget.FitLine(st.Muted.Render(s.note), w))
		}
	}
	return lines
}

// chartShown reports whether the chart holds the side-by-side pane's place.
func (m *Model) chartShown() bool { return m.panes[focusSchema] == pane(&m.chart) }

// hiddenPane is the one of the side-by-side pane and the chart not shown.
func (m *Model) hiddenPane() pane {
	if m.chartShown() {
		return &m.schema
	}
	return &m.chart
}

// toggleChart swaps the chart and the side-by-side pane. The pane put
// away keeps everything it holds (form, scroll, renderings), so coming
// back shows it as it was.
func (m *Model) toggleChart() tea.Cmd {
	shown := m.panes[focusSchema]
	next := m.hiddenPane()
	m.panes[focusSchema] = next
	if m.focus == focusSchema {
		shown.Blur()
		next.Focus()
	}
	m.setSize(m.width, m.height)
	m.syncChart()
	return m.schemaCmd()
}

// syncChart hands the chart what it is of: the report for the current
// encoding, the per-server reports, the selected tool, while it is
// shown. It redraws only when one of them (or its width) changed.
func (m *Model) syncChart() {
	if !m.chartShown() {
		return
	}
	in := chartInput{cat: m.cat, rep: m.reports[m.enc], servers: m.servers[m.enc], enc: m.enc, sanitize: m.opts.Sanitize}
	if t := m.tools.selected(); t != nil {
		in.tool = t.Name
	}
	m.chart.set(in)
}
