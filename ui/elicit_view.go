package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert/elicit"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// View draws the dialog for a screen w wide (and as tall as height says):
// the server's message, one row per field (its label, a * when required,
// its value; an error under it when the value does not fit), the focused
// field's description and constraints, and the keys.
func (d *elicitDialog) View(st Styles, w int) string {
	bw := clamp(w-4, 30, 100)
	iw := bw - st.Modal.GetHorizontalFrameSize()
	h := 24
	if d.height != nil && d.height() > 0 {
		h = d.height()
	}
	ih := max(h-2-st.Modal.GetVerticalFrameSize(), 6)

	var top []string
	title := "The server asks (elicitation)"
	if d.form == nil {
		title = "The server asks you to visit a page (elicitation)"
	}
	top = append(top, st.ModalTitle.Render(widget.Truncate(title, iw)), st.Muted.Render(widget.Truncate("from "+d.server, iw)), "")
	msgMax := max(ih/6, 1)
	if d.form == nil {
		msgMax = max(ih-8, 1)
	}
	top = append(top, wrapCut(d.message, iw, msgMax, st.Text)...)
	if d.form != nil {
		// What the schema had that the form leaves out (a default that
		// does not fit its field, a format not checked).
		for i, n := range d.form.Notes {
			if i == 2 {
				top = append(top, st.Muted.Render(fmt.Sprintf("(and %d more notes)", len(d.form.Notes)-2)))
				break
			}
			top = append(top, st.Warn.Render(widget.Truncate("note: "+oneLine(d.sanitize(n)), iw)))
		}
	}
	top = append(top, "")

	var bottom []string
	if d.form == nil {
		bottom = d.urlLines(st, iw)
	} else {
		bottom = d.detailLines(st, iw)
	}
	bottom = append(bottom, "", st.Muted.Render(widget.Truncate(d.hint(), iw)))

	var body []string
	if d.form != nil {
		body = d.fieldLines(st, iw, max(ih-len(top)-len(bottom), 1))
	}
	lines := append(append(top, body...), bottom...)
	return st.Modal.Width(bw).Render(strings.Join(lines, "\n"))
}

// wrapCut wraps s to w cells and keeps at most n lines, the last ending
// in … when some were cut.
func wrapCut(s string, w, n int, style lipgloss.Style) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(ansi.Wrap(widget.NoJoin(s), w, ""), "\n")
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = widget.Truncate(lines[n-1], w-1) + "…"
	}
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

func (d *elicitDialog) urlLines(st Styles, iw int) []string {
	out := []string{st.Bold.Render(widget.Truncate(oneLine(d.sanitize(d.url)), iw))}
	if len(d.url) > 0 && ansi.StringWidth(oneLine(d.sanitize(d.url))) > iw {
		// A long link is shown whole, wrapped, so it can be copied.
		out = wrapCut(oneLine(d.sanitize(d.url)), iw, 4, st.Bold)
	}
	switch {
	case d.urlErr != "":
		out = append(out, st.Error.Render(widget.Truncate(d.urlErr, iw)))
	case d.opened != "":
		out = append(out, st.Info.Render(widget.Truncate(d.opened, iw)))
	default:
		out = append(out, st.Muted.Render(widget.Truncate("Accept once you have done what the page asks; the server is told you did.", iw)))
	}
	return out
}

func (d *elicitDialog) hint() string {
	var ks []key.Binding
	keys := DefaultKeyMap()
	if d.form == nil {
		if d.urlErr == "" {
			ks = append(ks, keys.ElicitOpen)
		}
		ks = append(ks, withHelp(keys.ElicitEnter, "accept"))
	} else {
		if len(d.rows) > 0 {
			switch r := d.rows[d.cur]; r.f.Kind {
			case elicit.Boolean:
				ks = append(ks, withHelp(keys.ElicitToggle, "toggle"))
			case elicit.Enum:
				ks = append(ks, withHelp(keys.ElicitChoiceNext, "choose"))
			case elicit.Multi:
				ks = append(ks, withHelp(keys.ElicitToggle, "tick"), withHelp(keys.ElicitChoiceNext, "move"))
			}
		}
		ks = append(ks, withHelp(keys.ElicitNext, "next"), keys.ElicitAccept)
	}
	ks = append(ks, keys.ElicitDecline, keys.ElicitCancel)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = k.Help().Key + " " + k.Help().Desc
	}
	return strings.Join(parts, " · ")
}

func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// fieldLines draws the rows in at most n lines, scrolled so the focused
// row shows.
func (d *elicitDialog) fieldLines(st Styles, iw, n int) []string {
	if len(d.rows) == 0 {
		return []string{st.Muted.Render("(no fields: accept to say yes)")}
	}
	labelW := 0
	for _, r := range d.rows {
		labelW = max(labelW, ansi.StringWidth(d.label(r.f)))
	}
	labelW = min(labelW+2, max(iw/3, 8))
	valW := max(iw-labelW-2, 8)
	rowLines := make([][]string, len(d.rows))
	for i := range d.rows {
		rowLines[i] = d.rowLines(st, i, labelW, valW, iw)
	}
	// Scroll: keep the focused row on screen.
	if d.cur < d.top {
		d.top = d.cur
	}
	for d.top < d.cur {
		used := 0
		for i := d.top; i <= d.cur; i++ {
			used += len(rowLines[i])
		}
		if used <= n {
			break
		}
		d.top++
	}
	var out []string
	for i := d.top; i < len(d.rows) && len(out)+len(rowLines[i]) <= n; i++ {
		out = append(out, rowLines[i]...)
	}
	if d.top > 0 || d.top+countRows(rowLines[d.top:], n) < len(d.rows) {
		more := fmt.Sprintf("field %d of %d", d.cur+1, len(d.rows))
		if len(out) >= n && len(out) > 0 {
			out[len(out)-1] = st.Muted.Render(widget.PadRight(more, iw))
		} else {
			out = append(out, st.Muted.Render(more))
		}
	}
	return out
}

func countRows(rows [][]string, n int) int {
	used, k := 0, 0
	for _, r := range rows {
		if used+len(r) > n {
			break
		}
		used += len(r)
		k++
	}
	return k
}

func (d *elicitDialog) label(f *elicit.Field) string {
	l := oneLine(d.sanitize(f.Label()))
	if f.Required {
		l += " *"
	}
	return l
}

func (d *elicitDialog) rowLines(st Styles, i, labelW, valW, iw int) []string {
	r := &d.rows[i]
	focused := i == d.cur
	mark := "  "
	lst := st.Muted
	if focused {
		mark, lst = "› ", st.PaneTitle
	}
	line := mark + lst.Render(widget.PadRight(widget.Truncate(d.label(r.f), labelW-1), labelW)) + d.valueView(st, r, focused, valW)
	out := []string{widget.FitLine(line, iw)}
	if r.err != "" {
		out = append(out, widget.FitLine(strings.Repeat(" ", labelW+2)+st.Error.Render(widget.Truncate("! "+oneLine(d.sanitize(r.err)), valW)), iw))
	}
	return out
}

func (d *elicitDialog) valueView(st Styles, r *elicitRow, focused bool, w int) string {
	switch r.f.Kind {
	case elicit.String, elicit.Number, elicit.Integer:
		if !focused && r.line.Len() == 0 {
			return st.Subtle.Render(widget.Truncate("—", w))
		}
		return r.line.View(w, focused, st.Text, st.EditorCursor, d.showRune)
	case elicit.Boolean:
		s := "[ ] —"
		switch {
		case r.set && r.on:
			s = "[x] yes"
		case r.set:
			s = "[ ] no"
		}
		return styleIf(focused, st.Selected, st.Text).Render(s)
	case elicit.Enum:
		v := "—"
		if r.set && r.pick >= 0 {
			v = oneLine(d.sanitize(r.f.Options[r.pick].Title))
		}
		pos := fmt.Sprintf("  %d/%d", r.pick+1, len(r.f.Options))
		if r.pick < 0 {
			pos = fmt.Sprintf("  %d choices", len(r.f.Options))
		}
		s := "‹ " + widget.Truncate(v, max(w-4-len(pos), 1)) + " ›"
		return styleIf(focused, st.Selected, st.Text).Render(s) + st.Muted.Render(pos)
	case elicit.Multi:
		return d.checkboxes(st, r, focused, w)
	}
	return ""
}

// checkboxes draws a multi-select's options in a row, scrolled sideways
// so the option under the cursor shows.
func (d *elicitDialog) checkboxes(st Styles, r *elicitRow, focused bool, w int) string {
	cells := make([]string, len(r.f.Options))
	for j, o := range r.f.Options {
		box := "[ ] "
		if r.sel[j] {
			box = "[x] "
		}
		cells[j] = box + oneLine(d.sanitize(o.Title))
	}
	first := 0
	width := func(from, to int) int {
		n := 0
		for j := from; j <= to; j++ {
			n += ansi.StringWidth(cells[j]) + 2
		}
		return n
	}
	for first < r.opt && width(first, r.opt) > w {
		first++
	}
	var b strings.Builder
	used := 0
	if first > 0 {
		b.WriteString(st.Muted.Render("… "))
		used += 2
	}
	for j := first; j < len(cells); j++ {
		c := cells[j]
		cw := ansi.StringWidth(c)
		if used+cw > w {
			if used < w {
				b.WriteString(st.Muted.Render(widget.Truncate("…", w-used)))
			}
			break
		}
		b.WriteString(styleIf(focused && j == r.opt, st.Selected, st.Text).Render(c))
		used += cw
		if j < len(cells)-1 && used+2 <= w {
			b.WriteString("  ")
			used += 2
		}
	}
	return b.String()
}

func styleIf(c bool, a, b lipgloss.Style) lipgloss.Style {
	if c {
		return a
	}
	return b
}

// detailLines describe the focused field: its description, its kind and
// constraints, and the dialog's flash.
func (d *elicitDialog) detailLines(st Styles, iw int) []string {
	var out []string
	if len(d.rows) > 0 {
		f := d.rows[d.cur].f
		if f.Description != "" {
			out = append(out, wrapCut(oneLine(d.sanitize(f.Description)), iw, 2, st.Text)...)
		}
		out = append(out, st.Muted.Render(widget.Truncate(oneLine(d.sanitize(facts(f))), iw)))
	}
	if d.flash != "" {
		out = append(out, st.Error.Render(widget.Truncate(d.flash, iw)))
	}
	return out
}

// facts says what a field takes, in a few words.
func facts(f *elicit.Field) string {
	var p []string
	if f.Title != "" && f.Title != f.Name {
		p = append(p, f.Name)
	}
	k := f.Kind.String()
	if f.Format != "" {
		k = f.Format
	}
	if f.Required {
		k = "required " + k
	} else {
		k = "optional " + k
	}
	p = append(p, k)
	if f.MinLength != nil {
		p = append(p, fmt.Sprintf("at least %d characters", *f.MinLength))
	}
	if f.MaxLength != nil {
		p = append(p, fmt.Sprintf("at most %d characters", *f.MaxLength))
	}
	if f.Pattern != "" {
		p = append(p, "matching "+f.Pattern)
	}
	if f.Minimum != nil {
		p = append(p, fmt.Sprintf("≥ %g", *f.Minimum))
	}
	if f.Maximum != nil {
		p = append(p, fmt.Sprintf("≤ %g", *f.Maximum))
	}
	if f.MinItems != nil {
		p = append(p, fmt.Sprintf("pick at least %d", *f.MinItems))
	}
	if f.MaxItems != nil {
		p = append(p, fmt.Sprintf("pick at most %d", *f.MaxItems))
	}
	if f.Default != nil {
		p = append(p, "default "+f.Show(f.Default))
	}
	return strings.Join(p, " · ")
}

// showRune draws one rune of a value being typed, so that nothing typed
// or pasted can act on the terminal (as the call form does).
func (d *elicitDialog) showRune(r rune) string { return visibleRune(d.sanitize, r) }
