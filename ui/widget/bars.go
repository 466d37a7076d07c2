package widget

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Tone says how a bar compares with the baseline, and so which style draws
// it. The bar's length carries the figure on its own: tone only adds colour
// where there is colour, so a chart reads the same under NO_COLOR.
type Tone int

// The tones of a bar.
const (
	ToneBase    Tone = iota // the baseline itself, or no comparison
	ToneCheaper             // smaller than the baseline
	ToneDearer              // larger than the baseline
)

// Bar is one row of a chart: a label, a value drawn as a bar, and a note
// (counts, a percentage) printed after it. Rows with the same Group follow
// one header line naming it; an empty Group has no header.
type Bar struct {
	Label string
	Value int
	Note  string
	Group string
	Tone  Tone
}

// BarOptions size a chart. Full is the value a bar spanning the whole bar
// area stands for; 0 (or less) means the largest value shown, so several
// charts can share one scale by passing the same Full. Height 0 means no
// limit.
type BarOptions struct {
	Width, Height int
	Full          int
}

// BarStyle is how a chart looks.
type BarStyle struct {
	Label, Note, Group    lipgloss.Style
	Base, Cheaper, Dearer lipgloss.Style
}

// eighths are the partial blocks, one eighth to seven eighths of a cell.
var eighths = [...]string{"▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// MinBarCells is the narrowest bar area worth drawing: below it the notes
// give way, then the labels are cut.
const MinBarCells = 8

// Bars draws rows as horizontal bars, every line exactly o.Width cells.
// A bar's length in eighths of a cell is its value scaled to the bar area
// and rounded, but at least one eighth for any positive value, so lengths
// are monotone in the value and within one eighth of proportional. When
// the width is short the notes are left out first, then labels are cut
// with "…"; rows beyond the height end in a line "… N more".
func Bars(rows []Bar, o BarOptions, st BarStyle) []string {
	w := o.Width
	if w <= 0 {
		return nil
	}
	labelW, noteW := 0, 0
	for _, r := range rows {
		labelW = max(labelW, ansi.StringWidth(oneLine(r.Label)))
		noteW = max(noteW, ansi.StringWidth(oneLine(r.Note)))
	}
	if noteW > 0 && labelW+1+MinBarCells+1+noteW > w {
		noteW = 0
	}
	if labelW > 0 && labelW+1+MinBarCells > w {
		labelW = max(0, w-1-MinBarCells)
	}
	barW := w
	if labelW > 0 {
		barW -= labelW + 1
	}
	if noteW > 0 {
		barW -= noteW + 1
	}
	full := float64(o.Full)
	if full <= 0 {
		for _, r := range rows {
			full = max(full, float64(r.Value))
		}
	}

	perRow := make([][]string, len(rows))
	total, group := 0, ""
	for i, r := range rows {
		if r.Group != group && r.Group != "" {
			perRow[i] = append(perRow[i], FitLine(st.Group.Render(oneLine(r.Group)), w))
		}
		group = r.Group
		var b strings.Builder
		if labelW > 0 {
			b.WriteString(st.Label.Render(FitLine(oneLine(r.Label), labelW)))
			b.WriteByte(' ')
		}
		b.WriteString(barStyle(st, r.Tone).Render(drawBar(BarEighths(r.Value, full, barW), barW)))
		if noteW > 0 {
			note := oneLine(r.Note)
			b.WriteByte(' ')
			b.WriteString(strings.Repeat(" ", noteW-ansi.StringWidth(note)))
			b.WriteString(st.Note.Render(note))
		}
		perRow[i] = append(perRow[i], FitLine(b.String(), w))
		total += len(perRow[i])
	}
	var lines []string
	if o.Height <= 0 || total <= o.Height {
		for _, ls := range perRow {
			lines = append(lines, ls...)
		}
		return lines
	}
	shown := 0
	for _, ls := range perRow {
		if len(lines)+len(ls) > o.Height-1 {
			break
		}
		lines = append(lines, ls...)
		shown++
	}
	return append(lines, FitLine(st.Note.Render(fmt.Sprintf("… %d more", len(rows)-shown)), w))
}

// BarEighths is how many eighths of a cell a value's bar is, in an area of
// cells wide whose whole width stands for full.
func BarEighths(value int, full float64, cells int) int {
	if value <= 0 || cells <= 0 {
		return 0
	}
	most := cells * 8
	if full <= 0 || math.IsNaN(full) {
		return most
	}
	e := math.Round(float64(value) / full * float64(most))
	if e >= float64(most) {
		return most
	}
	return max(1, int(e))
}

// drawBar is e eighths of blocks padded with spaces to cells.
func drawBar(e, cells int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("█", e/8))
	used := e / 8
	if r := e % 8; r > 0 {
		b.WriteString(eighths[r-1])
		used++
	}
	b.WriteString(strings.Repeat(" ", max(0, cells-used)))
	return b.String()
}

func barStyle(st BarStyle, t Tone) lipgloss.Style {
	switch t {
	case ToneCheaper:
		return st.Cheaper
	case ToneDearer:
		return st.Dearer
	}
	return st.Base
}
