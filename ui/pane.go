package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// box draws a pane's frame around content at exactly w x h cells, with the
// title set into the top border. Content is clipped, never wrapped, so a long
// line cannot push the layout around.
func box(st Styles, focused bool, w, h int, title, right, content string) string {
	style := st.Pane
	titleStyle := st.PaneDim
	if focused {
		style = st.PaneFocus
		titleStyle = st.PaneTitle
	}
	fw, fh := style.GetFrameSize()
	iw, ih := max(w-fw, 1), max(h-fh, 1)
	body := fitBlock(content, iw, ih)
	out := style.Width(w).Height(h).Render(body)
	if title == "" && right == "" {
		return out
	}
	// Replace the top border with "╭─ title ─── right ─╮".
	lines := strings.SplitN(out, "\n", 2)
	if len(lines) < 2 || w < 8 {
		return out
	}
	b := style.GetBorderStyle()
	bs := lipgloss.NewStyle().Foreground(style.GetBorderTopForeground())
	t := " " + ansi.Truncate(title, max(w-6, 1), "…") + " "
	avail := w - 2 - lipgloss.Width(t) - 1
	r := ""
	if right != "" && avail > 6 {
		r = " " + ansi.Truncate(right, avail-3, "…") + " "
	}
	fill := w - 3 - lipgloss.Width(t) - lipgloss.Width(r) - 1
	if fill < 0 {
		fill = 0
	}
	top := bs.Render(b.TopLeft+b.Top) + titleStyle.Render(t) +
		bs.Render(strings.Repeat(b.Top, fill)) + st.Muted.Render(r) + bs.Render(b.Top+b.TopRight)
	return top + "\n" + lines[1]
}

// innerSize is the content area of a pane drawn by box at w x h.
func innerSize(st Styles, w, h int) (int, int) {
	fw, fh := st.Pane.GetFrameSize()
	return max(w-fw, 1), max(h-fh, 1)
}

// fitBlock cuts or pads s to exactly w x h cells.
func fitBlock(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitLine(l, w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

// fitLine cuts or pads one (possibly styled) line to exactly w cells.
func fitLine(l string, w int) string {
	lw := ansi.StringWidth(l)
	if lw > w {
		return ansi.Truncate(l, w, "…")
	}
	if lw < w {
		return l + strings.Repeat(" ", w-lw)
	}
	return l
}

// padRight pads plain or styled s to w cells (no truncation).
func padRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// truncate cuts s to w cells with an ellipsis.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// stripStyles removes styling so a row can be restyled whole (selection).
func stripStyles(s string) string { return ansi.Strip(s) }
