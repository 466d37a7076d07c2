package ui

import (
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
)

// Messages carry the results of Cmds back to Update. Each one that answers
// a request carries its ticket (see tickets.go); Update drops the stale
// ones before looking at them.

// connectedMsg ends a connection attempt: the session and the catalog of
// its first tool list, or why there is none.
type connectedMsg struct {
	t    ticket
	sess Session
	info session.Info
	cat  *catalog
	err  error
}

// tokenizerMsg reports that an encoding finished loading (or failed).
type tokenizerMsg struct {
	t   ticket
	enc string
	err error
}

// reportMsg delivers the token report of a tool list in one encoding.
type reportMsg struct {
	t      ticket
	enc    string
	report *tokens.ServerReport
	// servers is each server's own part of a merged list, counted alike;
	// nil for one server's list.
	servers *tokens.Report
	err     error
}

// feedMsg is a batch of what the session's feed and the runs' progress
// delivered; the subscription drains what is buffered so a flood costs one
// Update, not thousands.
type feedMsg struct {
	t        ticket
	items    []session.FeedItem
	progress []progressNote
	closed   bool // the feed ended: the subscription stops
}

// progressNote is one progress notification of a call of a run.
type progressNote struct {
	run             int64
	item            int
	progress, total float64
	text            string
}

// toolsMsg answers a tools/list made after list_changed.
type toolsMsg struct {
	t   ticket
	set *toolset.Set
	cat *catalog
	err error
}

// schemaMsg fills the side-by-side pane for one key.
type schemaMsg struct {
	t             ticket
	key           schemaKey
	title         string // the tool's name, sanitised
	left, right   string // highlighted documents
	leftN, rightN int    // tokens from the report, -1 when not counted yet
	rightErr      error
	rightForm     string // the form shown when it differs from key.form
	note          string // what the right-hand form leaves out (sanitised)
	copyText      string // the right-hand texts as counted, for copying
}

// checkMsg is the composer's live parse, validation and counts for one
// edit (seq).
type checkMsg struct {
	t     ticket
	seq   int
	check composerCheck
}

// checkTickMsg fires once typing has paused: the composer's text is
// checked then, not at every key.
type checkTickMsg struct{ t ticket }

// draftLoadedMsg restores the composer at start.
type draftLoadedMsg struct {
	t    ticket
	text string
	err  error
}

// historyLoadedMsg brings the composer the server's past calls.
type historyLoadedMsg struct {
	t       ticket
	history []string
	err     error
}

// draftTickMsg fires after the autosave delay; draftSavedMsg acknowledges
// the write.
type (
	draftTickMsg  struct{ t ticket }
	draftSavedMsg struct {
		t   ticket
		err error
	}
)

// fileSavedMsg / fileOpenedMsg answer save and open.
type fileSavedMsg struct {
	t          ticket
	path, what string
	err        error
}

type fileOpenedMsg struct {
	t    ticket
	path string
	text string
	err  error
}

// callDoneMsg is the outcome of one run (a call or a whole batch).
type callDoneMsg struct {
	t      ticket
	runID  int64
	result *session.RunResult
}

// resultsRenderedMsg carries the rendered results for one key.
type resultsRenderedMsg struct {
	t       ticket
	key     renderKey
	text    string
	offsets []int // each item's first line in text
	tokens  []int // each item's result tokens, -1 when not counted
}

// exploreMsg answers the explore lists request.
type exploreMsg struct {
	t         ticket
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	prompts   []mcp.Prompt
	errs      [3]error
}

// detailMsg answers "open" in explore: a resource read or a prompt got.
type detailMsg struct {
	t     ticket
	title string
	body  string
	err   error
}

// flashMsg clears a status message after a while.
type flashMsg struct{ t ticket }

func (m connectedMsg) answers() ticket       { return m.t }
func (m tokenizerMsg) answers() ticket       { return m.t }
func (m draftLoadedMsg) answers() ticket     { return m.t }
func (m historyLoadedMsg) answers() ticket   { return m.t }
func (m fileSavedMsg) answers() ticket       { return m.t }
func (m fileOpenedMsg) answers() ticket      { return m.t }
func (m callDoneMsg) answers() ticket        { return m.t }
func (m reportMsg) answers() ticket          { return m.t }
func (m feedMsg) answers() ticket            { return m.t }
func (m toolsMsg) answers() ticket           { return m.t }
func (m schemaMsg) answers() ticket          { return m.t }
func (m checkMsg) answers() ticket           { return m.t }
func (m checkTickMsg) answers() ticket       { return m.t }
func (m draftTickMsg) answers() ticket       { return m.t }
func (m draftSavedMsg) answers() ticket      { return m.t }
func (m resultsRenderedMsg) answers() ticket { return m.t }
func (m exploreMsg) answers() ticket         { return m.t }
func (m detailMsg) answers() ticket          { return m.t }
func (m flashMsg) answers() ticket           { return m.t }
