package ui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// View draws the whole screen from the layout computed at the last resize.
// The frame passes safe.Terminal last, whatever drew it: markdown,
// highlighting and tables all run after the text was sanitised, and one of
// them re-creating a control sequence (glamour decodes "&#x1b;") must not
// reach the terminal.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame())
	v.AltScreen = true
	if !m.opts.DisableMouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "mcpterm"
	if m.info.Name != "" {
		v.WindowTitle = "mcpterm · " + safe.Name(m.opts.Sanitize(m.info.Name))
	}
	return v
}

// Screen is the frame View draws, also after the program has quit: the
// teatest flows compare it with golden files.
func (m *Model) Screen() string {
	q := m.quitting
	m.quitting = false
	defer func() { m.quitting = q }()
	return m.frame()
}

// frame is render's text through the last-step filter, as View draws it.
func (m *Model) frame() string { return safe.Terminal(m.render()) }

// render is View's content, separate so tests and benchmarks can read it.
func (m *Model) render() string {
	if m.quitting {
		return ""
	}
	var b strings.Builder
	b.WriteString(m.headerView())
	b.WriteByte('\n')
	b.WriteString(m.bodyView())
	b.WriteByte('\n')
	b.WriteString(m.footerView())
	out := b.String()
	if m.modal != nil {
		out = overlay(out, m.modal.View(*m.styles, m.width), m.width, m.height)
	}
	return out
}

func (m *Model) headerView() string {
	st := *m.styles
	w := m.width
	// Line 1: brand, page tabs, server.
	var tabs []string
	for p := pageTools; p <= pageExplore; p++ {
		label := fmt.Sprintf("%d %s", p+1, p)
		if p == m.page {
			tabs = append(tabs, st.TabActive.Render(label))
		} else {
			tabs = append(tabs, st.Tab.Render(label))
		}
	}
	left := st.Brand.Render("mcpterm") + " " + strings.Join(tabs, "")
	right := m.serverLabel()
	line1 := left + " " + lipglossAlignRight(right, w-lipgloss.Width(left)-1)
	// Line 2: server totals per form, or the connection state.
	return widget.FitLine(line1, w) + "\n" + widget.FitLine(m.totalsLine(w), w)
}

func lipglossAlignRight(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = widget.Truncate(s, w)
	return strings.Repeat(" ", max(w-lipgloss.Width(s), 0)) + s
}

func (m *Model) serverLabel() string {
	st := *m.styles
	san := m.opts.Sanitize
	switch m.conn {
	case connConnecting:
		return st.Info.Render("connecting…")
	case connAsking:
		return st.Info.Render("not connected: trust?")
	case connFailed:
		return st.Error.Render("not connected")
	case connLost:
		return st.Error.Render("connection lost")
	}
	in := m.info
	parts := []string{st.Bold.Render(safe.Name(san(firstNonEmpty(in.Title, in.Name, "server"))))}
	if in.Version != "" {
		parts = append(parts, st.Muted.Render(oneLine(san(in.Version))))
	}
	if in.ProtocolVersion != "" {
		parts = append(parts, st.Muted.Render(oneLine(san(in.ProtocolVersion))))
	}
	if in.Source != "" {
		parts = append(parts, st.Muted.Render(oneLine(san(in.Source))))
	}
	return strings.Join(parts, st.Subtle.Render(" · "))
}

// headerForms are the forms whose whole-server count the header shows,
// after the baseline; the AQL one shows its true cost (upfront plus every
// introspect answer) with the upfront beside it.
var headerForms = []string{"term", "term_lean", "dts", "floor", "aql_single"}

// shortLabels are the header's labels when the full ones do not fit.
var shortLabels = map[string]string{"term": "term", "term_lean": "lean", "dts": "TS", "floor": "floor"}

// totalsLine is the header's second line for width w: the whole server in
// every form, with the longest wording that fits — full labels, then
// short ones, then without the percentages — so figures are abbreviated,
// never clipped mid-number.
func (m *Model) totalsLine(w int) string {
	st := *m.styles
	if m.conn != connReady {
		return ""
	}
	var lead []string
	r := m.reports[m.enc]
	// The encoding leads the line once the counts are shown (and only then:
	// the flows wait for it).
	if r != nil {
		lead = append(lead, st.Info.Render(shortEnc(m.enc)))
	}
	if m.cat != nil {
		n := fmt.Sprintf("%d tools", len(m.cat.set.Tools))
		if len(m.cat.set.Tools) == 1 {
			n = "1 tool"
		}
		lead = append(lead, st.Text.Render(n))
	}
	sep := st.Subtle.Render(" · ")
	switch {
	case m.encErr[m.enc] != nil:
		return strings.Join(append(lead, st.Error.Render("tokenizer failed")), sep)
	case !m.encReady[m.enc]:
		return strings.Join(append(lead, st.Muted.Render("loading the tokenizer…")), sep)
	case r == nil:
		return strings.Join(append(lead, st.Muted.Render("counting…")), sep)
	}
	var line string
	forms := headerForms
	for _, style := range []struct{ short, pct bool }{{false, true}, {true, true}, {true, false}} {
		line = strings.Join(append(append([]string(nil), lead...), m.totals(r, forms, style.short, style.pct)...), sep)
		if ansi.StringWidth(line) <= w {
			return line
		}
	}
	// Still too wide: leave out the forms that matter least, the floor
	// first, until the rest fits whole.
	for _, drop := range []string{"floor", "dts", "term_lean"} {
		forms = slices.DeleteFunc(slices.Clone(forms), func(f string) bool { return f == drop })
		line = strings.Join(append(append([]string(nil), lead...), m.totals(r, forms, true, false)...), sep)
		if ansi.StringWidth(line) <= w {
			return line
		}
	}
	return line
}

// totals are the header's figures: the baseline, then each header form
// against it; the AQL one is its true cost with the upfront beside it.
func (m *Model) totals(r *tokens.ServerReport, forms []string, short, pct bool) []string {
	st := *m.styles
	base, ok := r.Totals["json"]
	var parts []string
	if ok {
		parts = append(parts, st.Muted.Render("JSON ")+st.Text.Render(thousands(base)))
	}
	vs := func(n int) string {
		sv := savings(base, n)
		if sv == "" || !pct {
			return ""
		}
		style := st.Savings
		if strings.HasPrefix(sv, "+") {
			style = st.Cost
		}
		return " " + style.Render(sv)
	}
	for _, f := range forms {
		if cost, ok := r.True[f]; ok {
			label, up := "AQL true ", " (upfront "
			if short {
				label, up = "AQL ", " (up "
			}
			parts = append(parts, st.Muted.Render(label)+st.Text.Render(thousands(cost.True()))+vs(cost.True())+
				st.Muted.Render(up+thousands(cost.Upfront)+")"))
			continue
		}
		n, ok := r.Totals[f]
		if !ok || tokens.IsDeferredForm(f) {
			continue
		}
		label := formLabel(f)
		if short {
			label = shortLabels[f]
		}
		parts = append(parts, st.Muted.Render(label+" ")+st.Text.Render(thousands(n))+vs(n))
	}
	return parts
}

func shortEnc(enc string) string { return strings.TrimSuffix(enc, "_base") }

func (m *Model) bodyView() string {
	l := m.lay
	st := *m.styles
	if m.showHelp {
		note := "esc or ? closes"
		if m.helpView.TotalLines() > m.helpView.Height() {
			note = "↑↓ scroll · " + note
		}
		return widget.Frame(st.Frame, true, l.body.w, l.body.h, "Keys", note, m.helpView.View())
	}
	if m.conn == connConnecting && m.cat == nil {
		return m.centered(l.body, st.Info.Render(m.results.spinner.View()+" connecting to "+m.connectTarget()+"…")+"\n\n"+
			st.Muted.Render("the tokenizer loads meanwhile; ctrl+c quits"))
	}
	if m.conn == connFailed && m.cat == nil {
		return m.failedView(l.body)
	}
	if m.conn == connAsking {
		return m.centered(l.body, st.Muted.Render("nothing runs until you answer; ctrl+c quits"))
	}
	if m.form != nil {
		return m.form.View()
	}
	if m.zoom {
		return m.panes[m.focus].View()
	}
	switch m.page {
	case pageTools:
		side := m.panes[focusSchema].View()
		if l.wide {
			return widget.JoinColumns(m.tools.View(), side)
		}
		return m.tools.View() + "\n" + side
	case pageCompose:
		right := m.composer.View() + "\n" + m.results.View()
		if l.wide {
			return widget.JoinColumns(m.tools.View(), right)
		}
		return right
	default:
		return m.explore.View()
	}
}

func (m *Model) connectTarget() string {
	if t := firstNonEmpty(m.info.Source, m.opts.Target); t != "" {
		return oneLine(m.opts.Sanitize(t))
	}
	return "the server"
}

func (m *Model) failedView(r rect) string {
	st := *m.styles
	san := m.opts.Sanitize
	var b strings.Builder
	b.WriteString(st.Error.Render("Could not connect") + "\n\n")
	if m.connErr != nil {
		b.WriteString(st.Text.Render(san(m.connErr.Error())) + "\n")
	}
	if stderr := stderrOf(m.connErr); stderr != "" {
		b.WriteString("\n" + st.PaneTitle.Render("server stderr") + "\n" + st.Muted.Render(san(lastLines(stderr, max(r.h-10, 3)))) + "\n")
	}
	b.WriteString("\n" + st.Muted.Render("r retries · q quits"))
	return widget.Frame(st.Frame, true, r.w, r.h, "Connection", "", b.String())
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func (m *Model) centered(r rect, s string) string {
	return lipgloss.Place(r.w, r.h, lipgloss.Center, lipgloss.Center, s)
}

func (m *Model) footerView() string {
	st := *m.styles
	w := m.width
	status := ""
	switch {
	case m.flash != "":
		if m.flashErr {
			status = st.Error.Render("✗ ") + st.Text.Render(m.opts.Sanitize(m.flash))
		} else {
			status = st.Info.Render("• ") + st.Text.Render(m.opts.Sanitize(m.flash))
		}
	case m.running():
		status = m.results.spinner.View() + st.Info.Render(fmt.Sprintf(" %d call(s) running · esc cancels", len(m.runs)))
	case m.conn == connLost:
		status = st.Error.Render("connection lost: ") + st.Text.Render(m.opts.Sanitize(errText(m.connErr))) + st.Muted.Render(" · r reconnects")
	default:
		status = st.Muted.Render(m.focusLabel())
	}
	return widget.FitLine(status, w) + "\n" + m.footerKeys(w)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return firstLine(err.Error())
}

func (m *Model) focusLabel() string {
	if m.form != nil {
		return "call form · " + oneLine(m.opts.Sanitize(m.form.tool.Name))
	}
	switch m.focus {
	case focusTools:
		if m.tools.filtering {
			return "filtering tools"
		}
		return "tool list"
	case focusSchema:
		if m.chartShown() {
			return "chart"
		}
		return "side by side"
	case focusComposer:
		return "editing the call"
	case focusResults:
		return "results"
	}
	return "explore · " + m.explore.tab.String()
}
