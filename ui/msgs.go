package ui

import (
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Messages carry the results of Cmds back to Update. Each async result names
// what it answers (a sequence number, a call ID, a cache key), so a late reply
// is recognised as stale instead of landing in the wrong place.

// connectedMsg ends a connection attempt.
type connectedMsg struct {
	attempt int
	backend Backend
	err     error
}

// tokenizerMsg reports that an encoding finished loading.
type tokenizerMsg struct {
	enc string
	err error
}

// reportMsg delivers a Report for the set it was computed from.
type reportMsg struct {
	seq    int
	report *Report
	err    error
}

// eventsMsg is a batch of session events; the subscription Cmd drains what
// is buffered so a notification flood costs one Update, not thousands.
type eventsMsg struct {
	gen    int // subscription generation: events of a closed session are dropped
	events []Event
	closed bool
}

// toolsRefreshedMsg answers a list_changed notification.
type toolsRefreshedMsg struct {
	gen int
	set *toolset.Set
	err error
}

// schemaMsg fills the side-by-side pane for one (tool, form, enc, invisible) key.
type schemaMsg struct {
	key           schemaKey
	title         string // the tool's name, sanitised
	left, right   string // highlighted documents
	leftN, rightN int    // tokens, -1 when not counted
	rightErr      error
	rightForm     string // the form rendered when it differs from key.form
	note          string // what the right-hand form left out (sanitised)
}

// checkMsg is the composer's live parse, validation and counts for one
// edit (seq); older ones are dropped.
type checkMsg struct {
	seq    int
	check  composerCheck
	counts bool // counts were computed (tokenizer ready)
}

// draftLoadedMsg restores the composer at start.
type draftLoadedMsg struct {
	text    string
	history []string
	err     error
}

// draftSavedMsg acknowledges an autosave.
type draftSavedMsg struct {
	seq int
	err error
}

// draftTickMsg fires after the autosave delay for edit seq.
type draftTickMsg struct{ seq int }

// fileSavedMsg / fileOpenedMsg answer save and open.
type fileSavedMsg struct {
	path, what string
	err        error
}

type fileOpenedMsg struct {
	path string
	text string
	err  error
}

// callDoneMsg is the outcome of one run (a call or a whole batch).
type callDoneMsg struct {
	runID int64
	items []runItem
	err   error // the run as a whole failed (not a tool error)
}

// resultsRenderedMsg carries the rendered results for (runID, width, mode).
type resultsRenderedMsg struct {
	key  renderKey
	text string
}

// exploreMsg answers an explore list request.
type exploreMsg struct {
	gen       int
	resources []Resource
	templates []ResourceTemplate
	prompts   []Prompt
	errs      [3]error
}

// detailMsg answers "open" in explore: a resource read or a prompt get.
type detailMsg struct {
	reqID int
	title string
	body  string
	err   error
}

// flashMsg clears a status message after a while.
type flashMsg struct{ seq int }
