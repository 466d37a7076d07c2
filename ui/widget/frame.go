// Package widget holds the workbench's generic building blocks: a frame, a
// read-only scroller, list navigation, a multi-line editor, fuzzy matching
// and syntax highlighting. They know nothing of MCP or of mcpterm's panes;
// each takes the styles it draws with as a parameter.
//
// The frame, the scroller and the editor are written here rather than taken
// from lipgloss borders and bubbles' viewport and textarea: measured on a
// 4 KB buffer they are 75–1,000× faster per keystroke, because they lay text
// out once and draw only what is on screen (see the benchmarks in ui/).
package widget

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// FrameStyle is how a frame looks. Blurred and Focused carry the border
// and the padding; the titles and the right-hand note are set into the top
// border.
type FrameStyle struct {
	Blurred, Focused    lipgloss.Style
	Title, TitleBlurred lipgloss.Style
	Note                lipgloss.Style
	// Mono draws the border without colour (NO_COLOR).
	Mono bool
}

// Frame draws content in a frame of exactly w x h cells, with the title set
// into the top border and a note at its right. Content is clipped, never
// wrapped, so a long line cannot push the layout around. The frame is drawn
// by hand rather than by lipgloss.Style.Render: every line is already
// fitted to the inner width, and re-measuring the whole block each frame was
// most of a view's time.
func Frame(fs FrameStyle, focused bool, w, h int, title, note, content string) string {
	style := fs.Blurred
	titleStyle := fs.TitleBlurred
	if focused {
		style = fs.Focused
		titleStyle = fs.Title
	}
	padL, padR := style.GetPaddingLeft(), style.GetPaddingRight()
	if w-2-padL-padR < 1 || h < 3 {
		// No room for a frame: the title alone, so the size holds.
		return FitBlock(titleStyle.Render(title), max(w, 1), max(h, 1))
	}
	b := style.GetBorderStyle()
	bs := lipgloss.NewStyle().Foreground(style.GetBorderTopForeground())
	if fs.Mono {
		bs = lipgloss.NewStyle()
	}
	iw, ih := max(w-2-padL-padR, 1), max(h-2, 1)
	left := bs.Render(b.Left) + strings.Repeat(" ", padL)
	rightEdge := strings.Repeat(" ", padR) + bs.Render(b.Right)

	var out strings.Builder
	out.Grow((w + 16) * h)
	// Top border: "╭─ title ─── note ─╮".
	title, note = oneLine(title), oneLine(note)
	t := ""
	if title != "" && w >= 7 { // "╭─ x ─╮": narrower frames have no room for a title
		t = " " + ansi.Truncate(title, max(w-6, 1), "…") + " "
	}
	r := ""
	if avail := w - 4 - lipgloss.Width(t); note != "" && avail > 6 {
		r = " " + ansi.Truncate(note, avail-3, "…") + " "
	}
	fill := max(w-3-lipgloss.Width(t)-lipgloss.Width(r)-1, 0)
	out.WriteString(bs.Render(b.TopLeft + b.Top))
	if t != "" {
		out.WriteString(titleStyle.Render(t))
	}
	out.WriteString(bs.Render(strings.Repeat(b.Top, fill)))
	if r != "" {
		out.WriteString(fs.Note.Render(r))
	}
	out.WriteString(bs.Render(b.Top + b.TopRight))
	lines := strings.Split(content, "\n")
	for i := 0; i < ih; i++ {
		out.WriteByte('\n')
		out.WriteString(left)
		if i < len(lines) {
			out.WriteString(FitLine(lines[i], iw))
		} else {
			out.WriteString(strings.Repeat(" ", iw))
		}
		out.WriteString(rightEdge)
	}
	out.WriteByte('\n')
	out.WriteString(bs.Render(b.BottomLeft + strings.Repeat(b.Bottom, max(w-2, 0)) + b.BottomRight))
	return out.String()
}

// Inner is the content area of a frame drawn at w x h.
func Inner(fs FrameStyle, w, h int) (int, int) {
	fw, fh := fs.Blurred.GetFrameSize()
	return max(w-fw, 1), max(h-fh, 1)
}

// FitBlock cuts or pads s to exactly w x h cells.
func FitBlock(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = FitLine(l, w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

// FitLine cuts or pads one (possibly styled) line to exactly w cells.
func FitLine(l string, w int) string {
	if !utf8.ValidString(l) {
		// Width and truncation disagree on broken bytes; make them runes.
		l = strings.ToValidUTF8(l, "\uFFFD")
	}
	lw := ansi.StringWidth(l)
	if lw > w {
		// A wide rune that does not fit leaves the cut a cell short.
		l = ansi.Truncate(l, w, "…")
		lw = ansi.StringWidth(l)
	}
	if lw < w {
		return l + strings.Repeat(" ", w-lw)
	}
	return l
}

// PadRight pads plain or styled s to w cells (no truncation).
func PadRight(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// Truncate cuts s to w cells with an ellipsis.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return ansi.Truncate(s, w, "…")
}

// JoinColumns puts two blocks of equal height side by side. Blocks drawn by
// Frame are exactly their rectangles, so this is plain concatenation per
// line (lipgloss.JoinHorizontal would measure every line again).
func JoinColumns(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out strings.Builder
	out.Grow(len(a) + len(b))
	for i := 0; i < max(len(al), len(bl)); i++ {
		if i > 0 {
			out.WriteByte('\n')
		}
		if i < len(al) {
			out.WriteString(al[i])
		}
		if i < len(bl) {
			out.WriteString(bl[i])
		}
	}
	return out.String()
}

// oneLine makes a title or note fit the top border: valid UTF-8, no line breaks.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.ContainsAny(s, "\r\n") {
		s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	}
	return s
}
