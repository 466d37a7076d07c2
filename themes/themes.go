// Package themes holds the workbench's colour palettes. A palette names
// colours by what they mean (accent, error, savings, a JSON key), never by
// where they are used, so a new theme is a table of colours and the UI's one
// Styles struct is built from whichever palette is active. Panes never see a
// palette: they read the Styles built from it.
package themes

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
)

// Palette is the semantic layer of a theme.
type Palette struct {
	Name string
	// Dark says the palette is meant for a dark background; it picks the
	// glamour style for markdown and the highlighter's base.
	Dark bool
	// Mono palettes carry no colour at all: everything is told apart by
	// bold, faint, underline and reverse, as NO_COLOR asks.
	Mono bool

	Fg     color.Color // body text
	Muted  color.Color // secondary text: descriptions, hints
	Subtle color.Color // decorations: rules, inactive borders
	Accent color.Color // focus, the selected row, titles
	OnAcc  color.Color // text drawn on an Accent background
	Border color.Color // inactive pane borders
	Focus  color.Color // the focused pane's border

	OK    color.Color // success, (ok ...)
	Warn  color.Color // destructive badges, confirmations
	Error color.Color // isError, protocol errors, parse errors
	Info  color.Color // progress, notifications

	Savings color.Color // a token saving (-x%)
	Cost    color.Color // a token increase (+x%)

	// Syntax colours for JSON Schema, MCP-Term and results.
	SynKey     color.Color // JSON object keys, S-expression heads
	SynString  color.Color
	SynNumber  color.Color
	SynKeyword color.Color // true/false/null, :keywords
	SynPunct   color.Color
	SynComment color.Color
}

// Dark is the default palette for dark terminals.
func Dark() Palette {
	c := lipgloss.Color
	return Palette{
		Name: "dark", Dark: true,
		Fg: c("#d8dee9"), Muted: c("#8a93a6"), Subtle: c("#4c566a"),
		Accent: c("#88c0d0"), OnAcc: c("#1b1f27"), Border: c("#4c566a"), Focus: c("#88c0d0"),
		OK: c("#a3be8c"), Warn: c("#ebcb8b"), Error: c("#ef6f6c"), Info: c("#81a1c1"),
		Savings: c("#a3be8c"), Cost: c("#ef6f6c"),
		SynKey: c("#81a1c1"), SynString: c("#a3be8c"), SynNumber: c("#b48ead"),
		SynKeyword: c("#d08770"), SynPunct: c("#8a93a6"), SynComment: c("#6b7385"),
	}
}

// Light is for light terminals: darker inks with the same meanings.
func Light() Palette {
	c := lipgloss.Color
	return Palette{
		Name: "light", Dark: false,
		Fg: c("#24292f"), Muted: c("#57606a"), Subtle: c("#afb8c1"),
		Accent: c("#0969da"), OnAcc: c("#ffffff"), Border: c("#afb8c1"), Focus: c("#0969da"),
		OK: c("#1a7f37"), Warn: c("#9a6700"), Error: c("#cf222e"), Info: c("#0550ae"),
		Savings: c("#1a7f37"), Cost: c("#cf222e"),
		SynKey: c("#0550ae"), SynString: c("#0a3069"), SynNumber: c("#8250df"),
		SynKeyword: c("#953800"), SynPunct: c("#57606a"), SynComment: c("#6e7781"),
	}
}

// HighContrast uses only the 16 basic ANSI colours at full intensity, which
// every terminal renders and which survive colour-blind-friendly remapping.
func HighContrast() Palette {
	c := lipgloss.Color
	return Palette{
		Name: "high-contrast", Dark: true,
		Fg: c("15"), Muted: c("15"), Subtle: c("7"),
		Accent: c("11"), OnAcc: c("0"), Border: c("7"), Focus: c("11"),
		OK: c("10"), Warn: c("11"), Error: c("9"), Info: c("14"),
		Savings: c("10"), Cost: c("9"),
		SynKey: c("14"), SynString: c("10"), SynNumber: c("13"),
		SynKeyword: c("11"), SynPunct: c("15"), SynComment: c("7"),
	}
}

// Mono is used when NO_COLOR is set (and can be chosen as "mono").
func Mono() Palette {
	n := lipgloss.NoColor{}
	return Palette{
		Name: "mono", Dark: true, Mono: true,
		Fg: n, Muted: n, Subtle: n, Accent: n, OnAcc: n, Border: n, Focus: n,
		OK: n, Warn: n, Error: n, Info: n, Savings: n, Cost: n,
		SynKey: n, SynString: n, SynNumber: n, SynKeyword: n, SynPunct: n, SynComment: n,
	}
}

var builtin = map[string]func() Palette{
	"dark":          Dark,
	"light":         Light,
	"high-contrast": HighContrast,
	"mono":          Mono,
}

// Names lists the themes --theme accepts, "auto" first.
func Names() []string {
	names := []string{"auto"}
	var rest []string
	for n := range builtin {
		rest = append(rest, n)
	}
	sort.Strings(rest)
	return append(names, rest...)
}

// Choice is what the user asked for on the command line, resolved later when
// the terminal has told us its background.
type Choice struct {
	Name    string // "auto" or a palette name
	NoColor bool   // NO_COLOR was set: always Mono
}

// Parse checks a --theme value (case-insensitive; "hc" and "contrast" are
// accepted for high-contrast).
func Parse(name string, noColor bool) (Choice, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "", "auto":
		n = "auto"
	case "hc", "contrast", "highcontrast", "high_contrast":
		n = "high-contrast"
	case "none", "no-color", "nocolor":
		n = "mono"
	}
	if n != "auto" {
		if _, ok := builtin[n]; !ok {
			return Choice{}, fmt.Errorf("unknown theme %q (want one of %s)", name, strings.Join(Names(), ", "))
		}
	}
	return Choice{Name: n, NoColor: noColor}, nil
}

// Resolve picks the palette: NO_COLOR wins, "auto" follows the terminal's
// background, a named theme is used as is.
func (c Choice) Resolve(darkBackground bool) Palette {
	if c.NoColor {
		return Mono()
	}
	if f, ok := builtin[c.Name]; ok {
		return f()
	}
	if darkBackground {
		return Dark()
	}
	return Light()
}

// FollowsBackground reports whether the palette depends on the terminal's
// background colour, i.e. whether it is worth asking the terminal for it.
func (c Choice) FollowsBackground() bool { return !c.NoColor && (c.Name == "auto" || c.Name == "") }
