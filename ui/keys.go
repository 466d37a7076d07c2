package ui

import (
	"math"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMap holds every binding of the workbench. Bindings that do not apply in
// the current state are disabled (syncKeys) so they neither match nor show in
// help, which keeps the help bar honest.
type KeyMap struct {
	// Always first in routing, even while a text input has focus.
	Interrupt key.Binding // ctrl+c: quit (asks first when work would be lost)
	Cancel    key.Binding // cancels a running call

	Quit key.Binding // q, a global key
	Zoom key.Binding // the focused pane full screen

	// Global (not while a text input has focus).
	Help        key.Binding
	HelpAny     key.Binding // f1: the help from a text input too
	CallForm    key.Binding // the call form for the call at the cursor or the selected tool
	NextPane    key.Binding
	PrevPane    key.Binding
	PageTools   key.Binding
	PageCompose key.Binding
	PageExplore key.Binding
	Encoding    key.Binding
	Retry       key.Binding

	// Lists and scrolling, shared by the panes that scroll.
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding

	// Tool list.
	Filter  key.Binding
	Sort    key.Binding
	Compose key.Binding

	// Side by side.
	Form      key.Binding
	Invisible key.Binding
	// Chart puts the chart of the token report in the side-by-side
	// pane's place, and back (ui/chartpane.go).
	Chart key.Binding

	// Composer (the editor has focus).
	Run          key.Binding
	Complete     key.Binding
	CompletePrev key.Binding
	PreviewUp    key.Binding // scroll the JSON-RPC preview
	PreviewDown  key.Binding
	HistSearch   key.Binding
	CopyCall     key.Binding
	Syntax       key.Binding
	Preview      key.Binding
	SaveFile     key.Binding
	OpenFile     key.Binding
	Template     key.Binding
	HistPrev     key.Binding
	HistNext     key.Binding
	LeaveEdit    key.Binding
	Edit         key.Binding

	// Results (and Copy in the side-by-side pane).
	Copy        key.Binding
	Rerun       key.Binding
	RerunFailed key.Binding
	TermForm    key.Binding
	SaveResult  key.Binding
	PrevRun     key.Binding
	NextRun     key.Binding
	ResultsEdit key.Binding

	// Explore.
	TabLeft  key.Binding
	TabRight key.Binding
	Open     key.Binding
	Level    key.Binding
	// The Tasks tab (ui/tasks.go); Open fetches the selected task's result.
	TaskCancel key.Binding
	// EditRoots changes the roots offered to the server (Server tab, ui/roots.go).
	EditRoots   key.Binding
	TaskRefresh key.Binding

	// Explore's resources: subscriptions (ui/subscribe.go).
	Subscribe key.Binding // subscribe to the selected resource, or unsubscribe
	Reread    key.Binding // read the selected resource again (clears its "updated")

	// Suggestions under a form field (completion/complete, ui/complete.go);
	// they take these keys while they show.
	SuggestAccept key.Binding
	SuggestNext   key.Binding
	SuggestPrev   key.Binding
	SuggestClose  key.Binding

	// Filter input.
	FilterAccept key.Binding
	FilterClear  key.Binding

	// Modal.
	Yes       key.Binding
	No        key.Binding
	NextField key.Binding
	Submit    key.Binding

	// The call form (a tool's arguments as fields, ui/form.go). It takes
	// every key while it has focus, as a text input does.
	FormNext       key.Binding // next field
	FormPrev       key.Binding // previous field
	FormEnter      key.Binding // next field; on the last one, use the call
	FormPageDown   key.Binding
	FormPageUp     key.Binding
	FormChoiceNext key.Binding // next value of a choice, toggle or variant
	FormChoicePrev key.Binding
	FormAdd        key.Binding // add an item to a list, an entry to a map
	FormRemove     key.Binding // remove the item, or clear the field
	FormAccept     key.Binding // use the call
	FormCancel     key.Binding // leave the form

	// The sampling dialog (a server asks for a model's reply, ui/sampling.go).
	SamplingSend       key.Binding // send the reply written
	SamplingDecline    key.Binding // decline the request
	SamplingNext       key.Binding // next field: reply, model, stop reason, request
	SamplingPrev       key.Binding
	SamplingScrollUp   key.Binding // scroll the request, from any field
	SamplingScrollDown key.Binding
	SamplingStopNext   key.Binding // next stop reason (on its field)
	SamplingStopPrev   key.Binding
	// A server's elicitation (ui/elicit.go): a form built from its schema,
	// or a URL to visit. The dialog takes every key while open.
	ElicitNext       key.Binding // next field
	ElicitPrev       key.Binding // previous field
	ElicitEnter      key.Binding // next field; on the last one (or a URL), accept
	ElicitChoiceNext key.Binding // next choice; the next checkbox of a multi-select
	ElicitChoicePrev key.Binding
	ElicitToggle     key.Binding // flip a toggle, pick a choice, tick a checkbox
	ElicitClear      key.Binding // leave an optional field out
	ElicitAccept     key.Binding // send the answers
	ElicitDecline    key.Binding // say no
	ElicitCancel     key.Binding // dismiss without answering
	ElicitOpen       key.Binding // URL mode: open the link in the browser
}

// DefaultKeyMap is the documented key set (see the full help, ?).
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := func(keys ...string) []string { return keys }
	return KeyMap{
		Interrupt: b(k("ctrl+c"), "ctrl+c", "quit"),
		Cancel:    b(k("esc"), "esc", "cancel call"),
		Quit:      b(k("q"), "q", "quit"),
		Zoom:      b(k("z", "alt+z"), "z", "full screen"),

		Help:        b(k("?"), "?", "help"),
		HelpAny:     b(k("f1"), "f1", "help"),
		CallForm:    b(k("ctrl+p", "f2"), "ctrl+p", "call form"),
		NextPane:    b(k("tab"), "tab", "next pane"),
		PrevPane:    b(k("shift+tab"), "shift+tab", "prev pane"),
		PageTools:   b(k("1"), "1", "tools"),
		PageCompose: b(k("2"), "2", "compose"),
		PageExplore: b(k("3"), "3", "explore"),
		Encoding:    b(k("e"), "e", "encoding"),
		Retry:       b(k("r"), "r", "retry connect"),

		Up:       b(k("up", "k"), "↑/k", "up"),
		Down:     b(k("down", "j"), "↓/j", "down"),
		PageUp:   b(k("pgup", "ctrl+u"), "pgup", "page up"),
		PageDown: b(k("pgdown", "ctrl+d", "space"), "pgdn", "page down"),
		Top:      b(k("home", "g"), "g", "top"),
		Bottom:   b(k("end", "G"), "G", "bottom"),

		Filter:  b(k("/"), "/", "filter"),
		Sort:    b(k("s"), "s", "sort"),
		Compose: b(k("enter"), "enter", "compose call"),

		Form:      b(k("f"), "f", "cycle form"),
		Invisible: b(k("i"), "i", "model-invisible parts"),
		Chart:     b(k("c"), "c", "chart"),

		Run:          b(k("ctrl+g", "f5", "alt+enter"), "ctrl+g", "run"),
		Complete:     b(k("tab"), "tab", "complete"),
		CompletePrev: b(k("shift+tab"), "shift+tab", "previous completion"),
		HistSearch:   b(k("ctrl+r"), "ctrl+r", "search history"),
		CopyCall:     b(k("ctrl+y"), "ctrl+y", "copy the call"),
		Syntax:       b(k("ctrl+t"), "ctrl+t", "s-expr/AQL"),
		Preview:      b(k("ctrl+l"), "ctrl+l", "JSON-RPC preview"),
		PreviewUp:    b(k("alt+up", "ctrl+up"), "alt+↑", "preview up"),
		PreviewDown:  b(k("alt+down", "ctrl+down"), "alt+↓", "preview down"),
		SaveFile:     b(k("ctrl+s"), "ctrl+s", "save file"),
		OpenFile:     b(k("ctrl+o"), "ctrl+o", "open file"),
		Template:     b(k("ctrl+n"), "ctrl+n", "template"),
		HistPrev:     b(k("up"), "↑ (1st line)", "older history"),
		HistNext:     b(k("down"), "↓ (last line)", "newer history"),
		LeaveEdit:    b(k("esc"), "esc", "leave editor"),
		Edit:         b(k("enter", "i"), "enter", "edit"),

		Copy:        b(k("y"), "y", "copy"),
		Rerun:       b(k("e"), "e", "re-run entry"),
		RerunFailed: b(k("E"), "E", "re-run failed"),
		TermForm:    b(k("o"), "o", "(ok ...) form"),
		SaveResult:  b(k("w"), "w", "save result"),
		PrevRun:     b(k("["), "[", "older result"),
		NextRun:     b(k("]"), "]", "newer result"),
		ResultsEdit: b(k("enter"), "enter", "edit call"),

		TabLeft:  b(k("left", "h"), "←/h", "prev tab"),
		TabRight: b(k("right", "l"), "→/l", "next tab"),
		Open:     b(k("enter"), "enter", "open"),
		Level:    b(k("v"), "v", "log level"),

		Subscribe: b(k("s"), "s", "subscribe/unsubscribe"),
		Reread:    b(k("u"), "u", "read the update"),

		SuggestAccept: b(k("tab"), "tab", "take suggestion"),
		SuggestNext:   b(k("down"), "↓", "next suggestion"),
		SuggestPrev:   b(k("up"), "↑", "previous suggestion"),
		SuggestClose:  b(k("esc"), "esc", "hide suggestions"),
		TaskCancel:    b(k("x"), "x", "cancel task"),
		EditRoots:     b(k("r"), "r", "change roots"),
		TaskRefresh:   b(k("u"), "u", "refresh tasks"),

		FilterAccept: b(k("enter"), "enter", "keep filter"),
		FilterClear:  b(k("esc"), "esc", "clear filter"),

		Yes:       b(k("y", "enter"), "y", "yes"),
		No:        b(k("n", "esc"), "n/esc", "no"),
		NextField: b(k("tab", "down"), "tab", "next field"),
		Submit:    b(k("enter"), "enter", "submit"),

		FormNext:       b(k("tab", "down"), "tab/↓", "next field"),
		FormPrev:       b(k("shift+tab", "up"), "shift+tab/↑", "previous field"),
		FormEnter:      b(k("enter"), "enter", "next field (last: use call)"),
		FormPageDown:   b(k("pgdown"), "pgdn", "page down"),
		FormPageUp:     b(k("pgup"), "pgup", "page up"),
		FormChoiceNext: b(k("right", "space"), "→/space", "next choice"),
		FormChoicePrev: b(k("left"), "←", "previous choice"),
		FormAdd:        b(k("ctrl+n"), "ctrl+n", "add item"),
		FormRemove:     b(k("ctrl+x"), "ctrl+x", "remove item / clear field"),
		FormAccept:     b(k("ctrl+s", "ctrl+enter"), "ctrl+s", "use the call"),
		FormCancel:     b(k("esc"), "esc", "leave the form"),

		SamplingSend:       b(k("ctrl+s"), "ctrl+s", "send reply"),
		SamplingDecline:    b(k("esc"), "esc", "decline"),
		SamplingNext:       b(k("tab"), "tab", "next field"),
		SamplingPrev:       b(k("shift+tab"), "shift+tab", "previous field"),
		SamplingScrollUp:   b(k("pgup"), "pgup", "scroll request up"),
		SamplingScrollDown: b(k("pgdown"), "pgdn", "scroll request down"),
		SamplingStopNext:   b(k("right", "space"), "→/space", "next stop reason"),
		SamplingStopPrev:   b(k("left"), "←", "previous stop reason"),
		ElicitNext:         b(k("tab", "down"), "tab/↓", "next field"),
		ElicitPrev:         b(k("shift+tab", "up"), "shift+tab/↑", "previous field"),
		ElicitEnter:        b(k("enter"), "enter", "next (last: accept)"),
		ElicitChoiceNext:   b(k("right"), "→", "next choice"),
		ElicitChoicePrev:   b(k("left"), "←", "previous choice"),
		ElicitToggle:       b(k("space"), "space", "toggle / pick"),
		ElicitClear:        b(k("ctrl+x"), "ctrl+x", "leave the field out"),
		ElicitAccept:       b(k("ctrl+s"), "ctrl+s", "accept"),
		ElicitDecline:      b(k("ctrl+d"), "ctrl+d", "decline"),
		ElicitCancel:       b(k("esc"), "esc", "cancel"),
		ElicitOpen:         b(k("o"), "o", "open the link"),
	}
}

// scrollKey applies the scrolling keys every scrolling pane shares to a
// view of height rows, through scroll (by n rows; a large n reaches an
// end). It reports whether msg was one of them.
func scrollKey(k *KeyMap, msg tea.KeyPressMsg, scroll func(n int), height int) bool {
	page := max(height-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		scroll(-1)
	case key.Matches(msg, k.Down):
		scroll(1)
	case key.Matches(msg, k.PageUp):
		scroll(-page)
	case key.Matches(msg, k.PageDown):
		scroll(page)
	case key.Matches(msg, k.Top):
		scroll(math.MinInt / 2)
	case key.Matches(msg, k.Bottom):
		scroll(math.MaxInt / 2)
	default:
		return false
	}
	return true
}
