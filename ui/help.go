package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/ui/widget"
)

// shortHelp is the footer's key line: the focused pane's keys and the
// global ones that apply now, with the way to help and out pinned at the
// end so they are never the ones cut off.
func (m *Model) shortHelp() (keys, pinned []key.Binding) {
	k := m.keys
	if m.form != nil {
		return m.form.Help(), []key.Binding{k.Interrupt}
	}
	keys = m.panes[m.focus].Help()
	if m.textInputFocused() {
		return append(keys, k.Cancel), []key.Binding{k.HelpAny, k.Interrupt}
	}
	if m.page == pageTools && m.focus == focusTools && !m.tools.filtering {
		keys = append(keys, k.Form, k.Invisible, k.Encoding, k.Chart)
	}
	keys = append(keys, k.Cancel, k.Retry, k.Zoom, k.PageTools, k.PageCompose, k.PageExplore, k.NextPane)
	return keys, []key.Binding{k.Help, k.Quit}
}

// footerKeys draws the short help to fit w: pinned last and whole, the
// rest cut at a key, never mid-word. Each key is drawn once (it is drawn
// on every frame; fitting by redrawing the growing line cost a quarter of
// a keystroke).
func (m *Model) footerKeys(w int) string {
	keys, pinned := m.shortHelp()
	h := m.help
	h.SetWidth(0)
	tail := h.ShortHelpView(pinned)
	sep := m.styles.Help.ShortSeparator.Render(" • ")
	sepW := ansi.StringWidth(sep)
	avail := w - ansi.StringWidth(tail) - sepW
	var shown []string
	used := 0
	for _, b := range keys {
		if !b.Enabled() {
			continue
		}
		item := h.ShortHelpView([]key.Binding{b})
		iw := ansi.StringWidth(item)
		if len(shown) > 0 {
			iw += sepW
		}
		if used+iw > avail-2 {
			break
		}
		shown = append(shown, item)
		used += iw
	}
	if len(shown) == 0 {
		return widget.FitLine(tail, w)
	}
	return widget.FitLine(strings.Join(shown, sep)+sep+tail, w)
}

// helpGroup is one section of the full help.
type helpGroup struct {
	title string
	keys  []key.Binding
}

// helpGroups is every binding of the key map, by where it works. The full
// help is the reference, so it lists them whether or not they apply now.
func helpGroups(k KeyMap) []helpGroup {
	return []helpGroup{
		{"Everywhere", []key.Binding{k.PageTools, k.PageCompose, k.PageExplore, k.NextPane, k.PrevPane, k.Zoom, k.Encoding, k.Retry, k.Cancel, k.Help, k.HelpAny, k.Quit, k.Interrupt}},
		{"Lists and scrolling", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}},
		{"Tool list and side by side", []key.Binding{k.Compose, k.CallForm, k.Filter, k.Sort, k.Form, k.Invisible, k.Chart, k.Copy}},
		{"Composer", []key.Binding{k.Run, k.CallForm, k.Complete, k.CompletePrev, k.Syntax, k.Preview, k.PreviewUp, k.PreviewDown, k.Template, k.SaveFile, k.OpenFile, k.HistPrev, k.HistNext, k.HistSearch, k.CopyCall, k.LeaveEdit}},
		{"Results", []key.Binding{k.TermForm, k.Rerun, k.RerunFailed, k.Copy, k.SaveResult, k.PrevRun, k.NextRun, k.ResultsEdit}},
		{"Explore", []key.Binding{k.TabLeft, k.TabRight, k.Open, k.Level, k.Subscribe, k.Reread, k.TaskCancel, k.TaskRefresh, k.EditRoots}},
		{"Suggestions in the prompt and template forms", []key.Binding{k.SuggestAccept, k.SuggestNext, k.SuggestPrev, k.SuggestClose}},
		{"Sampling request (a server asks for a model's reply)", []key.Binding{k.SamplingSend, k.SamplingDecline, k.SamplingNext, k.SamplingPrev, k.SamplingScrollUp, k.SamplingScrollDown, k.SamplingStopNext, k.SamplingStopPrev}},
		{"A server's question (elicitation)", []key.Binding{k.ElicitNext, k.ElicitPrev, k.ElicitEnter, k.ElicitChoiceNext, k.ElicitChoicePrev, k.ElicitToggle, k.ElicitClear, k.ElicitAccept, k.ElicitDecline, k.ElicitCancel, k.ElicitOpen}},
	}
}

// helpText lays the full help out for a width: each group under its
// title, its keys in as many columns as fit, and the legend of the tool
// list's flags. It is shown in a scroller, so no height is too small.
func helpText(st Styles, w int) string {
	const keyW, descW = 14, 22
	cols := max(w/(keyW+descW+2), 1)
	var b strings.Builder
	for i, g := range helpGroups(DefaultKeyMap()) {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(st.PaneTitle.Render(g.title) + "\n")
		for j, k := range g.keys {
			h := k.Help()
			cell := st.Help.FullKey.Render(widget.PadRight(h.Key, keyW)) + st.Help.FullDesc.Render(widget.PadRight(h.Desc, descW))
			b.WriteString(cell)
			if (j+1)%cols == 0 || j == len(g.keys)-1 {
				b.WriteString("\n")
			} else {
				b.WriteString("  ")
			}
		}
	}
	b.WriteString("\n" + st.Muted.Render("tool flags: ") + st.BadgeRO.Render("r") + st.Muted.Render(" read-only  ") +
		st.BadgeDel.Render("!") + st.Muted.Render(" destructive  ") + st.BadgeOpen.Render("o") + st.Muted.Render(" open-world"))
	return b.String()
}
