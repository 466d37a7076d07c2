package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/mcpterm/mcpterm/themes"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// Styles is the only place panes get their looks from. It is rebuilt as a
// whole when the theme changes (a --theme choice resolved against the
// terminal's background), so no pane keeps a stale colour.
type Styles struct {
	Palette themes.Palette

	App       lipgloss.Style
	Pane      lipgloss.Style // a pane's box (border + padding)
	PaneFocus lipgloss.Style
	PaneTitle lipgloss.Style
	PaneDim   lipgloss.Style // title of an unfocused pane

	Header    lipgloss.Style
	Brand     lipgloss.Style
	Tab       lipgloss.Style
	TabActive lipgloss.Style
	Status    lipgloss.Style

	Text   lipgloss.Style
	Muted  lipgloss.Style
	Subtle lipgloss.Style
	Bold   lipgloss.Style

	Selected lipgloss.Style // the cursor row in a list
	Match    lipgloss.Style // fuzzy-filter matched characters

	OK      lipgloss.Style
	Warn    lipgloss.Style
	Error   lipgloss.Style
	Info    lipgloss.Style
	Savings lipgloss.Style
	Cost    lipgloss.Style

	BadgeRO   lipgloss.Style
	BadgeDel  lipgloss.Style
	BadgeOpen lipgloss.Style
	Category  lipgloss.Style

	Modal      lipgloss.Style
	ModalTitle lipgloss.Style

	// Frame and Syntax are the generic widgets' looks, built from the
	// styles above.
	Frame  widget.FrameStyle
	Syntax widget.SyntaxStyles
	// Bars draw the chart (ui/chartpane.go). A bar's length carries its
	// figure; the tones only add colour where there is colour.
	Bars widget.BarStyle

	Help         help.Styles
	EditorText   lipgloss.Style
	EditorCursor lipgloss.Style
	Input        textinput.Styles

	// Code is how the composer paints its text, as inks (the editor
	// paints on every keystroke).
	Code CodeInks
}

// CodeInks paint a call's text by lexical role, the bracket matching the
// one at the cursor, a bracket that matches none, and an error's place.
type CodeInks struct {
	Head, Keyword, String, Number, Literal, Comment, Punct, Key, Bad *widget.Ink
	Match, Unmatched, Error                                          *widget.Ink
}

// NewStyles builds the Styles from a palette.
func NewStyles(p themes.Palette) Styles {
	ns := lipgloss.NewStyle
	s := Styles{Palette: p}
	s.App = ns().Foreground(p.Fg)
	s.Pane = ns().Border(lipgloss.RoundedBorder()).BorderForeground(p.Border).Padding(0, 1)
	s.PaneFocus = s.Pane.BorderForeground(p.Focus)
	s.PaneTitle = ns().Foreground(p.Accent).Bold(true)
	s.PaneDim = ns().Foreground(p.Muted)
	s.Header = ns().Foreground(p.Fg)
	s.Brand = ns().Foreground(p.Accent).Bold(true)
	s.Tab = ns().Foreground(p.Muted).Padding(0, 1)
	s.TabActive = ns().Foreground(p.OnAcc).Background(p.Accent).Bold(true).Padding(0, 1)
	s.Status = ns().Foreground(p.Muted)
	s.Text = ns().Foreground(p.Fg)
	s.Muted = ns().Foreground(p.Muted)
	s.Subtle = ns().Foreground(p.Subtle)
	s.Bold = ns().Foreground(p.Fg).Bold(true)
	s.Selected = ns().Foreground(p.OnAcc).Background(p.Accent)
	s.Match = ns().Underline(true)
	s.OK = ns().Foreground(p.OK)
	s.Warn = ns().Foreground(p.Warn)
	s.Error = ns().Foreground(p.Error).Bold(true)
	s.Info = ns().Foreground(p.Info)
	s.Savings = ns().Foreground(p.Savings)
	s.Cost = ns().Foreground(p.Cost)
	s.BadgeRO = ns().Foreground(p.OK)
	s.BadgeDel = ns().Foreground(p.Warn).Bold(true)
	s.BadgeOpen = ns().Foreground(p.Info)
	s.Category = ns().Foreground(p.Muted)
	s.Modal = ns().Border(lipgloss.DoubleBorder()).BorderForeground(p.Warn).Padding(1, 2)
	s.ModalTitle = ns().Foreground(p.Warn).Bold(true)
	if p.Mono {
		// Without colour, meaning moves to attributes.
		s.TabActive = ns().Reverse(true).Bold(true).Padding(0, 1)
		s.Selected = ns().Reverse(true)
		s.Error = ns().Bold(true).Underline(true)
		s.Warn = ns().Bold(true)
		s.BadgeDel = ns().Bold(true)
		s.Muted = ns().Faint(true)
		s.PaneDim = ns().Faint(true)
		s.Subtle = ns().Faint(true)
		s.PaneFocus = s.Pane.BorderStyle(lipgloss.ThickBorder())
	}

	s.Help = help.Styles{
		Ellipsis:       ns().Foreground(p.Subtle),
		ShortKey:       ns().Foreground(p.Accent),
		ShortDesc:      ns().Foreground(p.Muted),
		ShortSeparator: ns().Foreground(p.Subtle),
		FullKey:        ns().Foreground(p.Accent),
		FullDesc:       ns().Foreground(p.Fg),
		FullSeparator:  ns().Foreground(p.Subtle),
	}
	if p.Mono {
		s.Help.ShortKey = ns().Bold(true)
		s.Help.FullKey = ns().Bold(true)
	}

	// The editor's text keeps the terminal's own colour: a plain style is
	// lipgloss's fast path, and the editor draws on every keystroke.
	s.EditorText = ns()
	s.EditorCursor = ns().Reverse(true)

	in := textinput.DefaultStyles(p.Dark)
	in.Focused.Prompt = ns().Foreground(p.Accent)
	in.Focused.Text = ns().Foreground(p.Fg)
	in.Blurred.Prompt = ns().Foreground(p.Muted)
	in.Blurred.Text = ns().Foreground(p.Muted)
	in.Cursor.Blink = false
	s.Input = in

	s.Frame = widget.FrameStyle{Blurred: s.Pane, Focused: s.PaneFocus, Title: s.PaneTitle, TitleBlurred: s.PaneDim, Note: s.Muted, Mono: p.Mono}
	s.Bars = widget.BarStyle{
		Label: s.Text, Note: s.Text, Group: s.Bold,
		Base: ns().Foreground(p.Info), Cheaper: s.Savings, Dearer: s.Cost,
	}
	if p.Mono {
		s.Bars.Base, s.Bars.Cheaper, s.Bars.Dearer = ns(), ns(), ns()
	}
	s.Syntax = widget.SyntaxStyles{
		Key: ns().Foreground(p.SynKey), String: ns().Foreground(p.SynString),
		Number: ns().Foreground(p.SynNumber), Keyword: ns().Foreground(p.SynKeyword),
		Punct: ns().Foreground(p.SynPunct), Comment: ns().Foreground(p.SynComment).Italic(true),
		Text: ns().Foreground(p.Fg),
	}
	if p.Mono {
		s.Syntax.Key = ns().Bold(true)
		s.Syntax.Comment = ns().Faint(true)
		s.Syntax.Punct = ns()
	}
	ink := widget.NewInk
	s.Code = CodeInks{
		Head: ink(s.Syntax.Key), Keyword: ink(s.Syntax.Keyword), String: ink(s.Syntax.String),
		Number: ink(s.Syntax.Number), Literal: ink(s.Syntax.Keyword), Comment: ink(s.Syntax.Comment),
		Punct: ink(s.Syntax.Punct), Key: ink(s.Syntax.Key), Bad: ink(s.Error),
		Match:     ink(ns().Foreground(p.Accent).Bold(true).Underline(true)),
		Unmatched: ink(s.Error),
		Error:     ink(ns().Foreground(p.Error).Underline(true)),
	}
	if p.Mono {
		s.Code.Head = ink(ns().Bold(true))
		s.Code.Literal, s.Code.Keyword, s.Code.Number, s.Code.String = nil, nil, nil, nil
		s.Code.Match = ink(ns().Reverse(true))
		s.Code.Error = ink(ns().Underline(true))
	}
	return s
}
