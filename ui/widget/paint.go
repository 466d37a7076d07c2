package widget

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Ink is a style reduced to the escape sequences around its text. The
// editor paints every visible token of its text on each keystroke; a
// lipgloss Render per token costs microseconds each, an Ink a string
// concatenation. Only styles of colour and attributes reduce to an Ink
// (no padding, margins, widths or borders), which is all a highlighter uses.
type Ink struct{ pre, post string }

// NewInk reduces a style to its Ink.
func NewInk(s lipgloss.Style) *Ink {
	const mark = "\x00"
	out := s.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return &Ink{}
	}
	return &Ink{pre: out[:i], post: out[i+len(mark):]}
}

// Paint writes s in the ink (nil: as it is).
func (k *Ink) Paint(b *strings.Builder, s string) {
	if k == nil || k.pre == "" {
		b.WriteString(s)
		return
	}
	b.WriteString(k.pre)
	b.WriteString(s)
	b.WriteString(k.post)
}

// Run is a stretch of a line drawn in one ink: the runes from the end of
// the run before it (or the line's start) to End.
type Run struct {
	End int
	Ink *Ink
}

// Painter gives the runs of line row of the text, in order. Runes past the
// last run are drawn plain. It is asked only for the lines on screen.
type Painter func(row int, line []rune) []Run

// paintSegment draws seg, the runes [start, start+len(seg)) of a line
// painted by runs (plain past them), with the cursor over the rune at cur
// (relative to seg; -1 for none, len(seg) for the cell after it).
func paintSegment(b *strings.Builder, seg []rune, start int, runs []Run, plain *Ink, cur int, cursor *Ink) {
	from := 0 // in seg
	ri := 0
	for from < len(seg) {
		for ri < len(runs) && runs[ri].End <= start+from {
			ri++
		}
		to := len(seg)
		ink := plain
		if ri < len(runs) {
			ink = runs[ri].Ink
			to = min(to, runs[ri].End-start)
		}
		if cur >= from && cur < to {
			if cur > from {
				ink.Paint(b, string(seg[from:cur]))
			}
			cursor.Paint(b, string(seg[cur]))
			from = cur + 1
			continue
		}
		ink.Paint(b, string(seg[from:to]))
		from = to
	}
	if cur == len(seg) {
		cursor.Paint(b, " ")
	}
}
