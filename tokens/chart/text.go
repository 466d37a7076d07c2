package chart

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/mcpterm/mcpterm/convert/safe"
)

// maxNameCells bounds a server or tool name in the chart: hostile servers
// send 3 KB names, and a name past a line's width would only be clipped.
const maxNameCells = 56

// esc makes untrusted text safe inside SVG or HTML text and attribute
// values: one line with controls, bidi and hidden characters shown as
// escapes (safe.Line, the same rule as every CLI table), cut to maxCells
// cells (0: whole), then XML-escaped, which also replaces any character
// XML 1.0 forbids. The result is valid in both documents.
func esc(s string, maxCells int) string {
	s = safe.Line(s)
	if maxCells > 0 && runewidth.StringWidth(s) > maxCells {
		s = runewidth.Truncate(s, maxCells, "…")
	}
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // writes to a Builder: never fails
	return b.String()
}

// px formats a coordinate with at most two decimals and no trailing
// zeros, the same way on every machine.
func px(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// savedText says how a figure compares with the json baseline in words,
// so no reader has to guess what a minus sign means.
func savedText(b Bar) string {
	if !b.HasSaved {
		return ""
	}
	switch p := strconv.FormatFloat(abs(b.Saved), 'f', 1, 64); {
	case b.Saved > 0:
		return p + "% less"
	case b.Saved < 0:
		return p + "% more"
	default:
		return "same"
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
