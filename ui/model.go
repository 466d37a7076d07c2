// Package ui is the mcpterm workbench: a Bubble Tea program that shows an
// MCP server's tools as JSON Schema and compact forms with live token counts,
// and composes and runs calls and batches against it.
//
// It is one of mcpterm's faces, like the command line and the gateway: the
// counts are tokens' report, the renderings convert's, the calls are read
// by convert/calls and run by session's runner. What lives here is layout,
// keys and drawing. One root Model owns focus and layout; every pane
// satisfies one small interface (pane.go) and is held in an array indexed
// by focus. Everything slow or with I/O runs in a tea.Cmd whose reply says,
// with a ticket, what it answers (tickets.go).
package ui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/tokens"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// connState is where the connection is.
type connState int

const (
	connConnecting connState = iota
	connReady
	connFailed
	connLost
)

// Model is the root of the workbench.
type Model struct {
	opts   Options
	keys   KeyMap
	styles *Styles
	dark   bool // the terminal's background, once known

	width, height int
	lay           layout
	page          page
	focus         focus
	showHelp      bool
	asked         inbox     // requests of a dialog that closed
	form          *toolForm // the call form, covering the body while open
	formTo        formTarget
	zoom          bool            // the focused pane fills the body
	help          help.Model      // draws key bindings in the footer
	helpView      widget.Scroller // the full help, which scrolls

	tickets   tickets
	conn      connState
	connErr   error
	connStart time.Time
	gen       int // connection generation: bumps on every (re)connect
	listGen   int // tool-list generation: bumps on every tool list fetched
	sess      Session
	info      session.Info
	cat       *catalog // the current tool list; nil before the first
	stopFeed  context.CancelFunc
	feed      <-chan session.FeedItem
	progress  chan progressNote // this connection's runs' progress, read by the feed's subscription

	enc      string
	encReady map[string]bool
	encErr   map[string]error
	reports  map[string]*tokens.ServerReport // by encoding, for cat
	settled  bool                            // Options.Settled has been run
	// servers holds, by encoding, the report of each server's own part
	// of a list merging several (convert.Renderer.PerServer); none for
	// one server's list.
	servers map[string]*tokens.Report

	// The panes, by name for what only one of them does, and in panes,
	// indexed by focus, for everything they all do. The chart and the
	// side-by-side pane share focusSchema's place: panes holds the one
	// shown (toggleChart).
	tools    toolsPane
	schema   schemaPane
	chart    chartPane
	composer composerPane
	results  resultsPane
	explore  explorePane
	panes    [numFocus]pane

	modal dialog // takes every key while open

	// asks is a server's questions, on screen and waiting (ui/sampling_queue.go).
	asks askQueue

	nextRunID int64
	runs      map[int64]context.CancelFunc
	drafts    *draftWriter

	flash    string
	flashErr bool
	quitting bool
}

// progressBacklog bounds the progress notes waiting for the UI; a flood
// beyond it loses notes, never blocks a call.
const progressBacklog = 256

// New builds the workbench. Nothing slow happens here: connecting, loading
// the tokenizer and restoring the draft all start from Init as Cmds, so the
// first frame (a connecting screen) draws at once.
func New(opts Options) *Model {
	opts = opts.withDefaults()
	m := &Model{
		opts:     opts,
		keys:     DefaultKeyMap(),
		dark:     true,
		enc:      opts.Encoding,
		encReady: map[string]bool{},
		encErr:   map[string]error{},
		reports:  map[string]*tokens.ServerReport{},
		servers:  map[string]*tokens.Report{},
		runs:     map[int64]context.CancelFunc{},
		drafts:   &draftWriter{},
		help:     help.New(),
	}
	st := NewStyles(opts.Theme.Resolve(m.dark))
	m.styles = &st
	m.help.Styles = st.Help
	m.tools = newToolsPane(m.styles, &m.keys)
	m.schema = newSchemaPane(m.styles, &m.keys)
	m.chart = newChartPane(m.styles, &m.keys)
	m.composer = newComposerPane(m.styles, &m.keys, opts.Sanitize)
	m.results = newResultsPane(m.styles, &m.keys)
	m.explore = newExplorePane(m.styles, &m.keys, opts.Sanitize)
	if opts.Roots != nil {
		m.explore.setRoots(opts.Roots.List())
	}
	m.panes = [numFocus]pane{focusTools: &m.tools, focusSchema: &m.schema, focusComposer: &m.composer, focusResults: &m.results, focusExplore: &m.explore}
	m.schema.setForms(sideForms)
	m.tools.Focus()
	m.askTrust()
	m.setSize(80, 24)
	m.syncKeys()
	return m
}

// Init starts everything that takes time, concurrently.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.loadEncodingCmd(m.enc)}
	if m.conn != connAsking { // else the trust answer connects (onTrustDone)
		cmds = append(cmds, m.connectCmd(), m.loadDraftCmd(), m.results.spinner.Tick)
	}
	if m.opts.Ask != nil {
		cmds = append(cmds, m.opts.Ask.waitAsk())
	}
	if m.opts.Notice != nil {
		cmds = append(cmds, m.opts.Notice.wait())
	}
	if len(m.opts.Notices) > 0 {
		cmds = append(cmds, m.setFlash(m.opts.Sanitize(strings.Join(m.opts.Notices, "; ")), false))
	}
	if m.opts.Theme.FollowsBackground() {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

// Report is the token report behind the tool list and the header: the same
// tokens.Report `mcpterm tokens` prints, for the tool list shown and the
// encoding chosen; nil until it is counted.
func (m *Model) Report() *tokens.ServerReport { return m.reports[m.enc] }

// setSize recomputes the layout and hands every pane its rectangle.
func (m *Model) setSize(w, h int) {
	m.width, m.height = w, h
	m.lay = computeLayout(w, h, m.tools.longestName())
	for f, p := range m.panes {
		r := m.lay.sizeOf(focus(f))
		if m.zoom && focus(f) == m.focus {
			r = m.lay.body
		}
		p.SetSize(r.w, r.h)
		if focus(f) == focusSchema { // the one of the two not shown keeps up
			m.hiddenPane().SetSize(r.w, r.h)
		}
	}
	m.sizeForm()
	m.help.SetWidth(w)
	iw, ih := widget.Inner(m.styles.Frame, m.lay.body.w, m.lay.body.h)
	m.helpView.SetSize(iw, ih)
	m.helpView.SetContent(helpText(*m.styles, iw))
}

// applyTheme rebuilds Styles from the palette and pushes them to every
// component that copies styles (the bubbles).
func (m *Model) applyTheme() {
	*m.styles = NewStyles(m.opts.Theme.Resolve(m.dark))
	st := m.styles
	m.help.Styles = st.Help
	m.tools.filter.SetStyles(st.Input)
	m.composer.editor.SetStyles(st.EditorText, st.EditorCursor, st.Muted)
	m.results.spinner.Style = st.Info
	m.helpView.SetContent(helpText(*st, m.helpView.Width()))
}

// setFocus moves focus, blurring the old pane.
func (m *Model) setFocus(f focus) tea.Cmd {
	if m.focus == f {
		return nil
	}
	m.panes[m.focus].Blur()
	m.focus = f
	cmd := m.panes[f].Focus()
	if m.zoom { // the zoomed pane follows focus
		m.setSize(m.width, m.height)
		cmd = tea.Batch(cmd, m.schemaCmd(), m.renderResultsCmd())
	}
	m.syncKeys()
	return cmd
}

// setPage switches page and focuses its main pane: the list on Tools (or
// the side-by-side if it had focus), the editor on Compose.
func (m *Model) setPage(p page) tea.Cmd {
	m.page = p
	target := focusTools
	switch p {
	case pageTools:
		if m.focus == focusSchema {
			target = focusSchema
		}
	case pageCompose:
		target = focusComposer
	case pageExplore:
		target = focusExplore
	}
	cmd := m.setFocus(target)
	m.syncKeys()
	if p == pageExplore && m.conn == connReady && !m.explore.loaded {
		return tea.Batch(cmd, m.loadExploreCmd())
	}
	return cmd
}

func (m *Model) cycleFocus(delta int) tea.Cmd {
	panes := m.lay.panesOn(m.page)
	i := 0
	for j, f := range panes {
		if f == m.focus {
			i = j
		}
	}
	return m.setFocus(panes[(i+delta+len(panes))%len(panes)])
}

// textInputFocused is true while a text input owns the keyboard.
func (m *Model) textInputFocused() bool {
	ti, ok := m.panes[m.focus].(textInput)
	return ok && ti.capturesKeys()
}

// running reports whether any call is in flight.
func (m *Model) running() bool { return len(m.runs) > 0 }

// syncKeys enables exactly the bindings that apply now (and tells the
// composer whether a call runs). Update calls it after every message.
func (m *Model) syncKeys() {
	k := &m.keys
	m.composer.running = m.running()
	k.Cancel.SetEnabled(m.running())
	k.Retry.SetEnabled(m.conn == connFailed || m.conn == connLost)
	k.Encoding.SetEnabled(len(tokens.Encodings()) > 1)
	onTools := m.page == pageTools
	k.Form.SetEnabled(onTools && !m.chartShown() && len(m.schema.forms) > 1)
	k.Invisible.SetEnabled(onTools && !m.chartShown())
	// The chart needs the report; once shown, it can always be put away.
	k.Chart.SetEnabled(onTools && (m.reports[m.enc] != nil || m.chartShown()))
	if m.chartShown() { // the help says where the key goes
		k.Chart.SetHelp(k.Chart.Help().Key, "side by side")
	} else {
		k.Chart.SetHelp(k.Chart.Help().Key, "chart")
	}
	// Run stays enabled even when it cannot work: pressing it says why.
	k.LeaveEdit.SetEnabled(!m.running())
	k.Level.SetEnabled(m.focus == focusExplore && m.explore.tab == tabLog)
	k.EditRoots.SetEnabled(m.focus == focusExplore && m.explore.tab == tabServer && m.opts.Roots != nil)
	k.Open.SetEnabled(m.focus == focusExplore && (m.explore.tab == tabResources || m.explore.tab == tabPrompts || m.explore.tab == tabTemplates || m.explore.tab == tabTasks))
	m.syncTaskKeys()
	k.SaveResult.SetEnabled(m.results.current() != nil && m.results.current().done)
	m.syncSubscribeKeys()
}

// setCatalog installs a (new) tool list: the list, completion, and every
// count and rendering made for the old one is dropped (their tickets go
// stale with it) and asked for again.
func (m *Model) setCatalog(c *catalog) tea.Cmd {
	m.cat = c
	m.composer.codec = c.codec
	if m.form != nil { // its tool is of the old list
		m.form = nil
		m.panes[m.focus].Focus()
	}
	m.tools.setTools(c, m.opts.Sanitize)
	m.explore.addEvents(lookalikeNotices("tools", toolNames(c), c.alike, m.opts.Sanitize), nil)
	m.setSize(m.width, m.height) // the tool list's width follows its names
	m.reports = map[string]*tokens.ServerReport{}
	m.servers = map[string]*tokens.Report{}
	m.schema.reset()
	m.tools.setReport(nil)
	return tea.Batch(m.reportCmd(), m.schemaCmd(), m.checkCmd())
}

// setFlash shows a status message for a few seconds.
func (m *Model) setFlash(s string, isErr bool) tea.Cmd {
	m.flash = oneLine(s)
	m.flashErr = isErr
	t := m.issue(kindFlash, false)
	return tea.Tick(4*time.Second, func(time.Time) tea.Msg { return flashMsg{t: t} })
}

// firstLine is s up to its first newline, for status messages.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
