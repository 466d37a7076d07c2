package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"
)

// pane is what every pane of the workbench is to the root model: it is
// sized, focused and blurred, drawn, asked for the help of its keys, and
// handed the messages routed to it (keys when it has focus, pastes, mouse
// events over it). The root keeps its panes in an array indexed by focus and
// treats them alike.
//
// A pane never does I/O and never reaches into another pane: what it needs
// the root to do (render the selected tool, run the composer's call, open a
// dialog, move focus) it asks for with a message in its inbox, which the
// root takes and handles before the next message arrives.
type pane interface {
	SetSize(w, h int)
	Focus() tea.Cmd
	Blur()
	View() string
	Help() []key.Binding
	Update(msg tea.Msg) tea.Cmd
	take() []tea.Msg
}

// textInput is a pane that can hold a focused text input, which takes every
// key (but ctrl+c, and esc while a call runs) before the global keys do.
type textInput interface {
	capturesKeys() bool
}

// pointer is a pane that reacts to the mouse: a click at (x, y) relative to
// its top-left corner, or the wheel.
type pointer interface {
	click(x, y int) tea.Cmd
	wheel(delta int) tea.Cmd
}

// inbox holds a pane's requests of the root. The root takes them right
// after the pane's Update returns and handles them before the next key:
// a request sent as a Cmd would come back after keys typed meanwhile (esc
// then E would type the E into the editor the esc was leaving).
type inbox struct{ msgs []tea.Msg }

// ask records a request; it returns no Cmd, so that callers may return it.
func (b *inbox) ask(msg tea.Msg) tea.Cmd {
	b.msgs = append(b.msgs, msg)
	return nil
}

// take returns the requests made since it was last called.
func (b *inbox) take() []tea.Msg {
	msgs := b.msgs
	b.msgs = nil
	return msgs
}

// Requests panes make of the root.
type (
	selectionMsg       struct{}             // the tool list's selection moved: show it side by side
	composeMsg         struct{}             // start a call for the selected tool
	composerEditedMsg  struct{}             // the composer's text changed: check it, autosave it
	runMsg             struct{}             // run the composer's call
	focusMsg           struct{ to focus }   // move focus
	saveComposerMsg    struct{}             // ask for a file name and save the composer to it
	openComposerMsg    struct{}             // ask for a file name and open it into the composer
	switchSyntaxMsg    struct{}             // re-print the composer's call in the next syntax
	rerenderMsg        struct{}             // the results pane needs its current run drawn
	saveResultMsg      struct{}             // ask for a file name and save the current result
	readTemplateMsg    struct{ tpl string } // fill in a resource template's variables and read it
	getPromptMsg       struct{ prompt mcp.Prompt }
	copyMsg            struct{ what, text string } // put text on the clipboard (OSC 52), sanitised
	copyDeclarationMsg struct{}                    // copy what the side-by-side pane shows of the selected tool
	historySearchMsg   struct{}                    // search the server's past calls
	rerunMsg           struct {                    // run some items of a finished run again
		run   *run
		items []int
	}
)
