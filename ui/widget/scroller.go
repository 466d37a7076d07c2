package widget

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Scroller is a read-only viewport over styled text. Unlike bubbles'
// viewport it wraps the content once, when it is set or the width changes,
// so drawing a frame only slices the visible lines: View stays cheap for
// 6 KB schemas and long results, which is what keeps scrolling instant.
type Scroller struct {
	content string
	lines   []string // content wrapped to width
	starts  []int    // for each line of content, its first row in lines
	width   int
	height  int
	offset  int
}

// Content is the text the scroller holds, all of it.
func (s *Scroller) Content() string { return s.content }

func (s *Scroller) SetContent(c string) {
	s.content = c
	s.rewrap()
}

func (s *Scroller) SetSize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	if w != s.width {
		s.width = w
		s.rewrap()
	}
	s.height = h
	s.clamp()
}

func (s *Scroller) rewrap() {
	s.lines = s.lines[:0]
	s.starts = s.starts[:0]
	if s.content == "" {
		s.clamp()
		return
	}
	for _, l := range strings.Split(s.content, "\n") {
		s.starts = append(s.starts, len(s.lines))
		if ansi.StringWidth(l) <= s.width {
			s.lines = append(s.lines, l)
			continue
		}
		s.lines = append(s.lines, strings.Split(ansi.Wrap(l, s.width, ""), "\n")...)
	}
	s.clamp()
}

func (s *Scroller) clamp() {
	if s.offset > len(s.lines)-s.height {
		s.offset = len(s.lines) - s.height
	}
	if s.offset < 0 {
		s.offset = 0
	}
}

func (s *Scroller) Scroll(n int)     { s.offset += n; s.clamp() }
func (s *Scroller) PageDown()        { s.Scroll(max(s.height-1, 1)) }
func (s *Scroller) PageUp()          { s.Scroll(-max(s.height-1, 1)) }
func (s *Scroller) GotoTop()         { s.offset = 0 }
func (s *Scroller) GotoBottom()      { s.offset = len(s.lines); s.clamp() }
func (s *Scroller) SetYOffset(y int) { s.offset = y; s.clamp() }
func (s *Scroller) YOffset() int     { return s.offset }
func (s *Scroller) Height() int      { return s.height }
func (s *Scroller) Width() int       { return s.width }
func (s *Scroller) TotalLines() int  { return len(s.lines) }

// RowOf is the row, in the wrapped content, where line n of the content
// (0-based, as split by newlines) starts.
func (s *Scroller) RowOf(n int) int {
	if n <= 0 || len(s.starts) == 0 {
		return 0
	}
	return s.starts[min(n, len(s.starts)-1)]
}

// Percent is how far down the view is, 0..100.
func (s *Scroller) Percent() int {
	if len(s.lines) <= s.height {
		return 100
	}
	return s.offset * 100 / (len(s.lines) - s.height)
}

// Visible returns exactly height lines (padded with empty ones), each at
// most width cells wide.
func (s *Scroller) Visible() []string {
	out := make([]string, s.height)
	for i := range out {
		if j := s.offset + i; j < len(s.lines) {
			out[i] = s.lines[j]
		}
	}
	return out
}

// View is Visible joined, for panes that place it as a block.
func (s *Scroller) View() string { return strings.Join(s.Visible(), "\n") }
