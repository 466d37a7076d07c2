package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/calls"
)

// Update routes messages three ways: resizes and session changes to every
// pane; async results, by the request they answer, to the pane that asked;
// keys to the focused pane only, after quit, the modal, a focused text input
// and the global keys have had their turn.
//
// What a pane asks of the root while handling msg (its inbox) is handled
// here, before the next message, in the order asked.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmds := []tea.Cmd{m.update(msg)}
	for range 8 { // a request may lead to others; none loops
		reqs := m.requests()
		if len(reqs) == 0 {
			break
		}
		for _, r := range reqs {
			cmds = append(cmds, m.update(r))
		}
	}
	m.syncAsks()
	m.syncKeys()
	m.syncChart()
	return m, tea.Batch(cmds...)
}

// closeModal drops the dialog, keeping what it asked on its way out.
func (m *Model) closeModal() {
	if d, ok := m.modal.(interface{ take() []tea.Msg }); ok {
		m.asked.msgs = append(m.asked.msgs, d.take()...)
	}
	m.modal = nil
}

// requests takes what the panes, the form and the dialog have asked.
func (m *Model) requests() []tea.Msg {
	out := m.asked.take()
	for _, p := range m.panes {
		out = append(out, p.take()...)
	}
	if m.form != nil {
		out = append(out, m.form.take()...)
	}
	if d, ok := m.modal.(interface{ take() []tea.Msg }); ok {
		out = append(out, d.take()...)
	}
	return out
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	// One place drops every stale reply, before any of it is applied.
	if r, ok := msg.(reply); ok && !m.fresh(r.answers()) {
		return m.dropStale(msg)
	}
	if cmd, ok := m.updateTasks(msg); ok { // ui/tasks.go
		return cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.setSize(msg.Width, msg.Height)
		return tea.Batch(m.renderResultsCmd(), m.schemaCmd())

	case tea.BackgroundColorMsg:
		if dark := msg.IsDark(); dark != m.dark {
			m.dark = dark
			m.applyTheme()
			return tea.Batch(m.schemaCmd(), m.renderResultsCmd())
		}
		return nil

	case tea.KeyPressMsg:
		return m.handleKey(msg)

	case tea.PasteMsg:
		if m.modal != nil {
			_, cmd := m.modal.Update(msg, &m.keys)
			return cmd
		}
		if m.form != nil {
			return m.form.Update(msg)
		}
		return m.panes[m.focus].Update(msg)

	case tea.MouseMsg:
		return m.handleMouse(msg)

	case spinner.TickMsg:
		var cmd tea.Cmd
		m.results.spinner, cmd = m.results.spinner.Update(msg)
		if m.conn != connConnecting && !m.running() {
			return nil // nothing spins: let the ticks stop (an idle UI costs no CPU)
		}
		return cmd

	case connectedMsg:
		return m.onConnected(msg)

	case tokenizerMsg:
		if msg.err != nil {
			m.encErr[msg.enc] = msg.err
			return m.setFlash("tokenizer "+msg.enc+": "+msg.err.Error(), true)
		}
		m.encReady[msg.enc] = true
		if msg.enc != m.enc {
			return nil
		}
		return tea.Batch(m.reportCmd(), m.checkCmd(), m.renderResultsCmd())

	case reportMsg:
		if msg.err != nil || msg.report == nil {
			return m.setFlash("counting tokens: "+errText(msg.err), true)
		}
		m.reports[msg.enc] = msg.report
		if msg.servers != nil {
			m.servers[msg.enc] = msg.servers
		}
		if msg.enc == m.enc {
			m.tools.setReport(msg.report)
		}
		if fn := m.opts.Settled; fn != nil && !m.settled {
			m.settled = true
			return tea.Batch(m.schemaCmd(), func() tea.Msg { fn(); return nil })
		}
		return m.schemaCmd()

	case schemaMsg:
		m.schema.apply(msg)
		return nil

	case checkMsg:
		// Once quitting, the screen stays as it was: the quit's writes (a
		// draft, closing the server) must not show a check landing late.
		if msg.seq == m.composer.seq && !m.quitting {
			m.composer.takeCheck(msg.seq, msg.check)
			if msg.check.plan != nil {
				m.composer.syntax = msg.check.plan.Syntax
			} else {
				m.composer.syntax = calls.SyntaxOf(m.composer.Value())
			}
		}
		return nil

	case historyLoadedMsg:
		if msg.err != nil {
			return m.setFlash("history: "+msg.err.Error(), true)
		}
		// Calls run before the history arrived stay the newest.
		m.composer.history = append(msg.history, m.composer.history...)
		m.composer.histIdx = len(m.composer.history)
		return nil

	case draftLoadedMsg:
		if msg.text != "" && m.composer.Value() == "" {
			m.composer.setText(msg.text)
			m.composer.editor.MoveToEnd()
			m.composer.dirty = false
			return m.checkCmd()
		}
		if msg.err != nil {
			return m.setFlash("draft: "+msg.err.Error(), true)
		}
		return nil

	case draftTickMsg:
		m.drafts.tickSince = time.Time{}
		if m.quitting {
			return nil
		}
		return m.drafts.saveCmd(m.issue(kindDraft, false), m.opts.Drafts, m.opts.DraftKey, m.composer.Value())

	case draftSavedMsg:
		if msg.err != nil {
			return m.setFlash("could not save the draft: "+msg.err.Error(), true)
		}
		return nil

	case feedMsg:
		return m.onFeed(msg)

	case toolsMsg:
		if msg.err != nil {
			return m.setFlash("tools/list: "+msg.err.Error(), true)
		}
		return tea.Batch(m.setCatalog(msg.cat), m.setFlash(fmt.Sprintf("tool list changed: %d tools", len(msg.set.Tools)), false))

	case callDoneMsg:
		return m.onCallDone(msg)

	case resultsRenderedMsg:
		m.results.apply(msg)
		return nil

	case exploreMsg:
		m.explore.setLists(msg)
		return nil

	case detailMsg:
		m.explore.applyDetail(msg)
		return nil

	case fileSavedMsg:
		if msg.err != nil {
			return m.setFlash("save "+msg.path+": "+msg.err.Error(), true)
		}
		if msg.what == "draft" {
			m.composer.path = msg.path
			m.composer.dirty = false
		}
		return m.setFlash("saved "+msg.what+" to "+msg.path, false)

	case fileOpenedMsg:
		if msg.err != nil {
			return m.setFlash("open "+msg.path+": "+msg.err.Error(), true)
		}
		m.composer.setText(strings.TrimRight(msg.text, "\n"))
		m.composer.path = msg.path
		m.composer.dirty = false
		return tea.Batch(m.checkCmd(), m.autosaveCmd(), m.setFlash("opened "+msg.path, false))

	case flashMsg:
		m.flash = ""
		return nil

	case runConfirmedMsg:
		return m.startRun(msg.src, msg.plan, true)

	case quitConfirmedMsg:
		return m.quit(msg.saveFirst)

	case ShutdownMsg:
		return m.quit(false)

	case saveAsMsg:
		return m.saveFileCmd(msg.path, msg.data, msg.what)

	case openAsMsg:
		return m.openFileCmd(msg.path)

	case promptArgsMsg:
		return m.getPromptCmd(msg.name, msg.args)

	case readURIMsg:
		return m.readResourceCmd(msg.uri)

	case askMsg:
		return m.onAsk(msg)

	case editRootsMsg:
		return m.rootsDialog()
	case setRootsMsg:
		return m.setRootsCmd(msg.dirs)
	case rootsSetMsg:
		return m.onRootsSet(msg)

	case askEventMsg:
		return m.onAskEvent(msg)

	case noticeMsg:
		return m.onNotice(msg)

	case completeWantMsg, completeTickMsg, completionMsg:
		return m.onComplete(msg)
	case subscribeToggleMsg, subscribedMsg, resourceUpdatedMsg:
		return m.onSubscribe(msg)
	case elicitEvent:
		return msg.apply(m)

	case modalClosedMsg:
		if m.conn == connAsking && m.modal == nil {
			m.askTrust() // the quit confirmation was over the trust question
		}
		return nil

	case trustDoneMsg:
		return m.onTrustDone(msg)

	// Requests of the panes.
	case selectionMsg:
		return m.schemaCmd()
	case composeMsg:
		return m.composeSelected()
	case composerEditedMsg:
		return tea.Batch(m.checkSoonCmd(), m.autosaveCmd())
	case checkTickMsg:
		if m.quitting {
			return nil
		}
		return m.checkCmd()
	case runMsg:
		return m.requestRun()
	case focusMsg:
		return m.setFocus(msg.to)
	case saveComposerMsg:
		m.modal = m.saveComposerDialog()
		return nil
	case openComposerMsg:
		m.modal = newForm(*m.styles, "Open a file into the composer", "", []string{"file"}, []string{m.composer.path},
			func(v []string) tea.Msg { return openAsMsg{path: v[0]} })
		return nil
	case switchSyntaxMsg:
		return m.switchSyntax()
	case rerenderMsg:
		return m.renderResultsCmd()
	case saveResultMsg:
		r := m.results.current()
		if r == nil || !r.done {
			return nil
		}
		data := resultDocument(r)
		m.modal = newForm(*m.styles, "Save the result", "Written as JSON lines, each result as the server sent it.",
			[]string{"file"}, []string{fmt.Sprintf("result-%d.jsonl", r.id)},
			func(v []string) tea.Msg { return saveAsMsg{path: v[0], data: data, what: "result"} })
		return nil
	case readTemplateMsg:
		return m.readTemplate(msg.tpl)
	case getPromptMsg:
		return m.askPromptArgs(msg.prompt)
	case historySearchMsg:
		server := ""
		if m.cat != nil {
			server = m.cat.server
		}
		m.modal = newHistorySearch(*m.styles, server, m.composer.history, m.opts.Sanitize)
		return nil
	case historyPickedMsg:
		m.composer.stash, m.composer.histIdx = m.composer.Value(), len(m.composer.history)
		m.composer.setText(msg.text)
		m.composer.editor.MoveToEnd()
		return tea.Batch(m.checkSoonCmd(), m.autosaveCmd())
	case rerunMsg:
		return m.rerun(msg.run, msg.items)
	case formDoneMsg:
		if m.form == nil {
			return nil
		}
		return m.closeForm(msg.text, true)
	case formCancelMsg:
		if m.form == nil {
			return nil
		}
		return m.closeForm("", false)
	case copyDeclarationMsg:
		return m.schema.copy()
	case copyMsg:
		text := m.opts.Sanitize(msg.text)
		return tea.Batch(tea.SetClipboard(text), m.setFlash(fmt.Sprintf("copied %s (%s)", oneLine(m.opts.Sanitize(msg.what)), byteSize(len(text))), false))
	}
	return nil
}

// dropStale handles a reply that answers something no longer shown: most
// are simply forgotten; a session opened by a superseded attempt is closed;
// a side-by-side rendering still fills the cache for its key.
func (m *Model) dropStale(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedMsg:
		return closeCmd(msg.sess)
	case schemaMsg:
		if m.cat != nil && msg.t.list == m.cat.gen {
			m.schema.apply(msg)
		}
	}
	return nil
}

// saveComposerDialog asks where to save the composer's text.
func (m *Model) saveComposerDialog() *modal {
	name := m.composer.path
	if name == "" {
		name = "call.mcpt"
	}
	data := m.composer.Value() + "\n"
	return newForm(*m.styles, "Save the composer to a file", "Batches saved here run with: mcpterm call -f FILE",
		[]string{"file"}, []string{name}, func(v []string) tea.Msg { return saveAsMsg{path: v[0], data: data, what: "draft"} })
}

// Follow-up messages of modals.
type (
	runConfirmedMsg struct {
		src  string
		plan *calls.Plan
	}
	quitConfirmedMsg struct{ saveFirst bool }
	saveAsMsg        struct{ path, data, what string }
	openAsMsg        struct{ path string }
	readURIMsg       struct{ uri string }
	promptArgsMsg    struct {
		name string
		args map[string]string
	}
)

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	// 1. quit (ctrl+c) and cancel: always reachable.
	if key.Matches(msg, k.Interrupt) {
		if md, ok := m.modal.(*modal); ok && md.title == quitTitle {
			return m.quit(false) // a second ctrl+c means it
		}
		return m.requestQuit()
	}
	if m.modal == nil && !m.showHelp && key.Matches(msg, k.Cancel) && m.running() {
		return m.cancelRuns()
	}
	// 2. the modal takes everything else.
	if m.modal != nil {
		done, cmd := m.modal.Update(msg, k)
		if done {
			m.closeModal()
		}
		return cmd
	}
	// The call form takes every key but ctrl+c.
	if m.form != nil {
		return m.form.Update(msg)
	}
	if key.Matches(msg, k.CallForm) {
		return m.openForm()
	}
	// alt+z zooms whatever has focus, a text input too (z alone is text
	// there, and a global key elsewhere).
	if key.Matches(msg, k.Zoom) && (msg.Mod&tea.ModAlt != 0 || !m.textInputFocused()) {
		return m.toggleZoom()
	}
	// f1 opens the help from anywhere, a text input too (? is text there);
	// the open help takes its own keys first.
	if key.Matches(msg, k.HelpAny) || (m.showHelp && (key.Matches(msg, k.Help) || msg.Code == tea.KeyEscape)) {
		m.showHelp = !m.showHelp
		m.helpView.GotoTop()
		return nil
	}
	if m.showHelp && scrollKey(k, msg, m.helpView.Scroll, m.helpView.Height()) {
		return nil
	}
	// 3. a focused text input takes every key, unless the help covers it.
	if m.textInputFocused() {
		if m.showHelp {
			return nil
		}
		return m.panes[m.focus].Update(msg)
	}
	// 4. global keys.
	switch {
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	case key.Matches(msg, k.Help):
		m.showHelp = true
		m.helpView.GotoTop()
		return nil
	case key.Matches(msg, k.PageTools):
		return m.setPage(pageTools)
	case key.Matches(msg, k.PageCompose):
		return m.setPage(pageCompose)
	case key.Matches(msg, k.PageExplore):
		return m.setPage(pageExplore)
	case key.Matches(msg, k.NextPane):
		return m.cycleFocus(1)
	case key.Matches(msg, k.PrevPane):
		return m.cycleFocus(-1)
	case key.Matches(msg, k.Retry):
		return m.retry()
	case key.Matches(msg, k.Encoding):
		return m.cycleEncoding()
	case key.Matches(msg, k.Form):
		m.schema.cycleForm()
		return m.schemaCmd()
	case key.Matches(msg, k.Invisible):
		m.schema.toggleInvisible()
		return m.schemaCmd()
	case key.Matches(msg, k.Chart):
		return m.toggleChart()
	}
	// 5. the focused pane.
	return m.panes[m.focus].Update(msg)
}
