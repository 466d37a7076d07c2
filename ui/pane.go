package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// box draws a pane's frame around content at exactly w x h cells, with the
// title set into the top border. Content is clipped, never wrapped, so a long
// line cannot push the layout around. The frame is drawn by hand rather than
// by lipgloss.Style.Render: every line is already fitted to the inner width,
// and re-measuring the whole pane each frame was most of View's time.
func box(st Styles, focused bool, w, h int, title, right, content string) string {
	style := st.Pane
	titleStyle := st.PaneDim
	if focused {
		style = st.PaneFocus
		titleStyle = st.PaneTitle
	}
	if w < 4 || h < 3 {
		// No room for a frame: the title alone, so the frame size holds.
		return fitBlock(titleStyle.Render(title), max(w, 1), max(h, 1))
	}
	b := style.GetBorderStyle()
	bs := lipgloss.NewStyle().Foreground(style.GetBorderTopForeground())
	if st.Palette.Mono {
		bs = lipgloss.NewStyle()
	}
	padL, padR := style.GetPaddingLeft(), style.GetPaddingRight()
	iw, ih := max(w-2-padL-padR, 1), max(h-2, 1)
	left := bs.Render(b.Left) + strings.Repeat(" ", padL)
	rightEdge := strings.Repeat(" ", padR) + bs.Render(b.Right)

	var out strings.Builder
	out.Grow((w + 16) * h)
	// Top border: "╭─ title ─── right ─╮".
	t := ""
	if title != "" {
		t = " " + ansi.Truncate(title, max(w-6, 1), "…") + " "
	}
	r := ""
	if avail := w - 4 - lipgloss.Width(t); right != "" && avail > 6 {
		r = " " + ansi.Truncate(right, avail-3, "…") + " "
	}
	fill := max(w-3-lipgloss.Width(t)-lipgloss.Width(r)-1, 0)
	out.WriteString(bs.Render(b.TopLeft + b.Top))
	if t != "" {
		out.WriteString(titleStyle.Render(t))
	}
	out.WriteString(bs.Render(strings.Repeat(b.Top, fill)))
	if r != "" {
		out.WriteString(st.Muted.Render(r))
	}
	out.WriteString(bs.Render(b.Top + b.TopRight))
	lines := strings.Split(content, "\n")
	for i := 0; i < ih; i++ {
		out.WriteByte('\n')
		out.WriteString(left)
		if i < len(lines) {
			out.WriteString(fitLine(lines[i], iw))
		} else {
			out.WriteString(strings.Repeat(" ", iw))
		}
		out.WriteString(rightEdge)
	}
	out.WriteByte('\n')
	out.WriteString(bs.Render(b.BottomLeft + strings.Repeat(b.Bottom, max(w-2, 0)) + b.BottomRight))
	return out.String()
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
