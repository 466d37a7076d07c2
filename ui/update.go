package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// Update routes messages three ways: resizes and session changes to every
// pane; async results, by the request they answer, to the pane that asked;
// keys to the focused pane only, after quit, the modal, a focused text input
// and the global keys have had their turn.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.syncKeys()
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.setSize(msg.Width, msg.Height)
		return tea.Batch(m.renderResultsCmd())

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
		if m.focus == focusComposer {
			return m.composerInput(msg)
		}
		return nil

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
		return tea.Batch(m.reportCmd(), m.schemaCmd(), m.checkCmd(), m.renderResultsCmd())

	case reportMsg:
		if msg.err != nil || msg.report == nil {
			return nil
		}
		m.reports[msg.report.Enc] = msg.report
		if msg.report.Enc == m.enc {
			m.tools.setReport(msg.report, m.primaryForm())
		}
		return nil

	case schemaMsg:
		m.schema.apply(msg)
		return nil

	case checkMsg:
		if msg.seq == m.composer.seq {
			m.composer.check = msg.check
			m.composer.checked = msg.seq
			m.composer.counted = msg.counts
			if msg.check.parsed != nil {
				m.composer.syntax = msg.check.parsed.Syntax
			} else {
				m.composer.syntax = guessSyntax(m.composer.Value())
			}
		}
		return nil

	case draftLoadedMsg:
		m.composer.history = msg.history
		m.composer.histIdx = len(msg.history)
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
		if msg.seq == m.composer.saveSeq {
			return m.saveDraftCmd(msg.seq)
		}
		return nil

	case draftSavedMsg:
		if msg.err != nil {
			return m.setFlash("could not save the draft: "+msg.err.Error(), true)
		}
		return nil

	case eventsMsg:
		return m.onEvents(msg)

	case toolsRefreshedMsg:
		if msg.gen != m.gen {
			return nil
		}
		if msg.err != nil {
			return m.setFlash("tools/list: "+msg.err.Error(), true)
		}
		return tea.Batch(m.setSet(msg.set), m.setFlash(fmt.Sprintf("tool list changed: %d tools", len(msg.set.Tools)), false))

	case callDoneMsg:
		return m.onCallDone(msg)

	case resultsRenderedMsg:
		m.results.apply(msg)
		return nil

	case exploreMsg:
		if msg.gen == m.gen {
			m.explore.setLists(msg)
		}
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
		if msg.seq == m.flashSeq {
			m.flash = ""
		}
		return nil

	case runConfirmedMsg:
		return m.startRun(msg.src, msg.parsed)

	case quitConfirmedMsg:
		return m.quit(msg.saveFirst)

	case saveAsMsg:
		return m.saveFileCmd(msg.path, msg.data, msg.what)

	case openAsMsg:
		return m.openFileCmd(msg.path)

	case promptArgsMsg:
		return m.getPromptCmd(msg.name, msg.args)

	case readURIMsg:
		if m.backend != nil {
			return m.readResourceCmd(msg.uri)
		}
		return nil

	case modalClosedMsg:
		return nil
	}
	return nil
}

// Follow-up messages of modals.
type (
	runConfirmedMsg struct {
		src    string
		parsed *Parsed
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
		if m.modal != nil && m.modal.title == quitTitle {
			return m.quit(false) // a second ctrl+c means it
		}
		return m.requestQuit()
	}
	if m.modal == nil && key.Matches(msg, k.Cancel) && m.running() {
		return m.cancelRuns()
	}
	// 2. the modal takes everything else.
	if m.modal != nil {
		done, cmd := m.modal.Update(msg, k)
		if done {
			m.modal = nil
		}
		return cmd
	}
	// 3. a focused text input takes every key.
	if m.textInputFocused() {
		switch m.focus {
		case focusComposer:
			return m.composerInput(msg)
		case focusTools:
			return m.toolsKey(msg)
		}
	}
	// 4. global keys.
	switch {
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
		return nil
	case m.showHelp && msg.Code == tea.KeyEscape:
		m.showHelp = false
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
	}
	// 5. the focused pane.
	switch m.focus {
	case focusTools:
		return m.toolsKey(msg)
	case focusSchema:
		m.schema.Update(msg)
	case focusResults:
		return m.resultsKey(msg)
	case focusExplore:
		return m.exploreKey(msg)
	case focusComposer:
		return m.composerInput(msg)
	}
	return nil
}

func (m *Model) toolsKey(msg tea.KeyPressMsg) tea.Cmd {
	act, cmd := m.tools.Update(msg)
	switch act {
	case toolsMoved:
		return tea.Batch(cmd, m.schemaCmd())
	case toolsCompose:
		return tea.Batch(cmd, m.composeSelected())
	}
	return cmd
}

// composeSelected opens the composer on a template for the selected tool.
func (m *Model) composeSelected() tea.Cmd {
	t := m.tools.selected()
	if t == nil || m.set == nil {
		return nil
	}
	tpl := m.opts.Codec.Template(m.set, t)
	cmds := []tea.Cmd{m.setPage(pageCompose), m.setFocus(focusComposer)}
	from := 0
	if strings.TrimSpace(m.composer.Value()) != "" && m.composer.Value() != m.composer.template && m.composer.dirty {
		// Keep the user's work: the template goes below it.
		from = len(m.composer.Value()) + 1
		tpl = m.composer.Value() + "\n" + tpl
	}
	m.composer.template = tpl
	m.composer.setText(tpl)
	m.composer.placeInTemplate(from)
	m.composer.dirty = false
	m.composer.histIdx = len(m.composer.history)
	return tea.Batch(append(cmds, m.checkCmd(), m.autosaveCmd())...)
}

func (m *Model) composerInput(msg tea.Msg) tea.Cmd {
	complete := func(before string) ([]string, string) {
		if m.comp == nil {
			return nil, ""
		}
		return m.comp.complete(before)
	}
	act, cmd := m.composer.Update(msg, complete)
	switch act {
	case composerEdited:
		return tea.Batch(cmd, m.checkCmd(), m.autosaveCmd())
	case composerRun:
		return tea.Batch(cmd, m.requestRun())
	case composerLeave:
		return m.setFocus(focusResults)
	case composerSave:
		name := m.composer.path
		if name == "" {
			name = "call.mcpt"
		}
		data := m.composer.Value() + "\n"
		m.modal = newForm(*m.styles, "Save the composer to a file", "Batches saved here run with: mcpterm call -f FILE",
			[]string{"file"}, []string{name}, func(v []string) tea.Msg { return saveAsMsg{path: v[0], data: data, what: "draft"} })
		return nil
	case composerOpen:
		m.modal = newForm(*m.styles, "Open a file into the composer", "", []string{"file"}, []string{m.composer.path},
			func(v []string) tea.Msg { return openAsMsg{path: v[0]} })
		return nil
	case composerTemplate:
		return m.composeSelected()
	case composerSyntax:
		return m.switchSyntax()
	}
	return cmd
}

// switchSyntax re-prints the composer's calls in the next syntax.
func (m *Model) switchSyntax() tea.Cmd {
	if m.set == nil {
		return nil
	}
	p, err := m.opts.Codec.Parse(m.set, m.composer.Value())
	if err != nil {
		return m.setFlash("fix the call first: "+firstLine(err.Error()), true)
	}
	order := []string{"sexpr", "aql", "json"}
	next := ""
	for i, s := range order {
		if s == p.Syntax {
			for j := 1; j <= len(order); j++ {
				cand := order[(i+j)%len(order)]
				if text, err := m.opts.Codec.Format(m.set, p, cand); err == nil {
					m.composer.setText(text)
					next = cand
					break
				}
			}
		}
	}
	if next == "" {
		return m.setFlash("no other syntax is available for this call", true)
	}
	return tea.Batch(m.checkCmd(), m.autosaveCmd(), m.setFlash("now "+syntaxLabel(next), false))
}

func syntaxLabel(s string) string {
	switch s {
	case "sexpr":
		return "S-expression"
	case "aql":
		return "AQL JSON"
	}
	return "JSON"
}

func (m *Model) resultsKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.results.Update(msg) {
	case resultsRerender:
		return m.renderResultsCmd()
	case resultsSave:
		r := m.results.current()
		data := resultDocument(r)
		m.modal = newForm(*m.styles, "Save the result", "Written as JSON lines, each result as the server sent it.",
			[]string{"file"}, []string{fmt.Sprintf("result-%d.jsonl", r.id)},
			func(v []string) tea.Msg { return saveAsMsg{path: v[0], data: data, what: "result"} })
	case resultsEdit:
		return m.setFocus(focusComposer)
	}
	return nil
}

func (m *Model) exploreKey(msg tea.KeyPressMsg) tea.Cmd {
	act := m.explore.Update(msg)
	switch act.kind {
	case exploreRead:
		if m.backend != nil {
			return m.readResourceCmd(act.uri)
		}
	case exploreReadTemplate:
		tpl := act.template.URITemplate
		vars := templateVars(tpl)
		if len(vars) == 0 {
			return m.readResourceCmd(tpl)
		}
		m.modal = newForm(*m.styles, "Read "+oneLine(m.opts.Sanitize(tpl)), "", vars, nil, func(v []string) tea.Msg {
			vals := map[string]string{}
			for i, n := range vars {
				vals[n] = v[i]
			}
			return readURIMsg{uri: expandTemplate(tpl, vals)}
		})
	case exploreGetPrompt:
		pr := act.prompt
		if len(pr.Arguments) == 0 {
			return m.getPromptCmd(pr.Name, nil)
		}
		var labels []string
		for _, a := range pr.Arguments {
			l := oneLine(m.opts.Sanitize(a.Name))
			if a.Required {
				l += " (required)"
			}
			if a.Description != "" {
				l += " — " + oneLine(m.opts.Sanitize(a.Description))
			}
			labels = append(labels, l)
		}
		name, args := pr.Name, pr.Arguments
		m.modal = newForm(*m.styles, "Arguments for prompt "+oneLine(m.opts.Sanitize(name)), "", labels, nil, func(v []string) tea.Msg {
			out := map[string]string{}
			for i, a := range args {
				if v[i] != "" || a.Required {
					out[a.Name] = v[i]
				}
			}
			return promptArgsMsg{name: name, args: out}
		})
	}
	return nil
}

func (m *Model) cycleEncoding() tea.Cmd {
	encs := m.opts.Counter.Encodings()
	for i, e := range encs {
		if e == m.enc {
			m.enc = encs[(i+1)%len(encs)]
			break
		}
	}
	cmds := []tea.Cmd{m.setFlash("encoding "+m.enc, false)}
	if !m.encReady[m.enc] {
		cmds = append(cmds, m.loadEncodingCmd(m.enc))
		m.tools.setReport(nil, "")
	} else {
		cmds = append(cmds, m.reportCmd())
	}
	return tea.Batch(append(cmds, m.schemaCmd(), m.checkCmd(), m.renderResultsCmd())...)
}

// requestRun parses the composer now (not the async check, which may be a
// keystroke behind) and starts the run, asking first for destructive tools.
func (m *Model) requestRun() tea.Cmd {
	if m.conn != connReady {
		return m.setFlash("not connected", true)
	}
	if m.info.Offline {
		return m.setFlash("offline tool list: calls need a live server", true)
	}
	src := m.composer.Value()
	p, err := m.opts.Codec.Parse(m.set, src)
	if err != nil {
		return m.setFlash(firstLine(err.Error()), true)
	}
	if d := m.destructive(p); len(d) > 0 {
		text := "This runs " + strings.Join(d, ", ") + ", marked destructive (by its annotations or its DELETE category). Run it?"
		m.modal = newConfirm("Run a destructive tool?", text, runConfirmedMsg{src: src, parsed: p})
		return nil
	}
	return m.startRun(src, p)
}

// destructive lists the tools of p that ask for confirmation.
func (m *Model) destructive(p *Parsed) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range p.Calls {
		if c.Direct != nil || seen[c.Tool] {
			continue
		}
		t := m.set.Find(c.Tool)
		if t == nil {
			continue
		}
		del := t.Annotations.Destructive()
		if m.opts.Classifier != nil && m.opts.Classifier.Category(m.set, t) == "DELETE" {
			del = true
		}
		if del {
			seen[c.Tool] = true
			out = append(out, oneLine(m.opts.Sanitize(c.Tool)))
		}
	}
	return out
}

func (m *Model) startRun(src string, p *Parsed) tea.Cmd {
	m.nextRunID++
	id := m.nextRunID
	ctx, cancel := context.WithCancel(context.Background())
	m.runs[id] = cancel
	r := &run{id: id, src: src, started: m.opts.Now()}
	for _, c := range p.Calls {
		r.items = append(r.items, runItem{ID: c.ID, Tool: c.Tool, Args: c.Arguments})
	}
	m.results.add(r)
	m.composer.dirty = false
	store := m.opts.Store
	cmds := []tea.Cmd{
		runCmd(ctx, m.backend, id, p, m.opts.Now),
		m.results.spinner.Tick,
		func() tea.Msg { _ = store.AddHistory(src); return nil },
	}
	if len(m.composer.history) == 0 || m.composer.history[len(m.composer.history)-1] != src {
		m.composer.history = append(m.composer.history, src)
	}
	m.composer.histIdx = len(m.composer.history)
	if !m.lay.wide || m.page != pageCompose {
		cmds = append(cmds, m.setPage(pageCompose))
	}
	return tea.Batch(cmds...)
}

func (m *Model) cancelRuns() tea.Cmd {
	for id, cancel := range m.runs {
		cancel()
		if r := m.results.find(id); r != nil {
			r.cancelled = true
		}
	}
	return m.setFlash("cancelling…", false)
}

func (m *Model) onCallDone(msg callDoneMsg) tea.Cmd {
	if cancel := m.runs[msg.runID]; cancel != nil {
		cancel()
		delete(m.runs, msg.runID)
	}
	r := m.results.find(msg.runID)
	if r == nil {
		return nil
	}
	r.items = msg.items
	r.done = true
	r.duration = m.opts.Now().Sub(r.started)
	if errors.Is(msg.err, context.Canceled) {
		r.cancelled = true
	}
	r.err = nil
	if msg.err != nil && !r.cancelled {
		r.err = msg.err
	}
	return m.renderResultsCmd()
}

func (m *Model) onConnected(msg connectedMsg) tea.Cmd {
	if msg.attempt != m.attempt {
		if msg.backend != nil {
			go msg.backend.Close()
		}
		return nil
	}
	if msg.err != nil {
		m.conn = connFailed
		m.connErr = msg.err
		stderr := ""
		var se StderrError
		if errors.As(msg.err, &se) {
			stderr = se.Stderr()
		}
		m.explore.setInfo(m.info, stderr)
		return nil
	}
	m.gen++
	m.backend = msg.backend
	m.conn = connReady
	m.info = msg.backend.Info()
	m.explore.setInfo(m.info, "")
	m.explore.loaded = false
	if m.stopSub != nil {
		m.stopSub()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.stopSub = cancel
	ch := msg.backend.Subscribe(ctx)
	m.evCh = ch
	cmds := []tea.Cmd{subscribeCmd(ch, m.gen), m.setSet(msg.backend.Tools())}
	if m.page == pageExplore {
		cmds = append(cmds, m.loadExploreCmd())
	}
	return tea.Batch(cmds...)
}

func (m *Model) retry() tea.Cmd {
	if m.backend != nil {
		b := m.backend
		m.backend = nil
		go b.Close()
	}
	return tea.Batch(m.connectCmd(), m.results.spinner.Tick)
}

func (m *Model) onEvents(msg eventsMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.explore.addEvents(msg.events)
	var cmds []tea.Cmd
	for _, e := range msg.events {
		switch e.Kind {
		case EventProgress:
			m.applyProgress(e)
		case EventListChanged:
			if e.Text == "tools" && m.backend != nil {
				cmds = append(cmds, m.refreshToolsCmd())
			}
			if e.Text == "resources" || e.Text == "prompts" {
				cmds = append(cmds, m.loadExploreCmd())
			}
		case EventClosed:
			m.conn = connLost
			m.connErr = errors.New(firstNonEmpty(e.Text, "connection lost"))
			cmds = append(cmds, m.setFlash("connection lost: press r to reconnect", true))
		}
	}
	if !msg.closed {
		cmds = append(cmds, subscribeCmd(m.evCh, m.gen))
	}
	return tea.Batch(cmds...)
}

// applyProgress gives a progress event to the run it belongs to; when the
// session cannot tell, to the only running run.
func (m *Model) applyProgress(e Event) {
	var r *run
	if e.CallID != 0 {
		r = m.results.find(e.CallID)
	} else if len(m.runs) == 1 {
		for id := range m.runs {
			r = m.results.find(id)
		}
	}
	if r == nil || r.done {
		return
	}
	r.progress, r.total = e.Progress, e.Total
	r.progressText = oneLine(m.opts.Sanitize(e.Text))
}

func (m *Model) requestQuit() tea.Cmd {
	var why []string
	if m.running() {
		why = append(why, "a call is still running (it will be cancelled)")
	}
	if m.composer.dirty {
		why = append(why, "the composer has an unsaved draft (it is kept for next time, but not in a file)")
	}
	if len(why) == 0 {
		return m.quit(false)
	}
	md := newConfirm(quitTitle, strings.Join(why, ";\n")+".", quitConfirmedMsg{})
	if m.composer.dirty {
		md.extra = []key.Binding{key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save to a file first"))}
		md.onExtra = []tea.Msg{quitConfirmedMsg{saveFirst: true}}
	}
	m.modal = md
	return nil
}

const quitTitle = "Quit mcpterm?"

// quit stops calls and the subscription, writes the draft, and exits.
func (m *Model) quit(saveFirst bool) tea.Cmd {
	if saveFirst {
		m.modal = nil
		name := m.composer.path
		if name == "" {
			name = "call.mcpt"
		}
		data := m.composer.Value() + "\n"
		m.modal = newForm(*m.styles, "Save the composer to a file", "", []string{"file"}, []string{name},
			func(v []string) tea.Msg { return saveAsMsg{path: v[0], data: data, what: "draft"} })
		return nil
	}
	m.quitting = true
	m.modal = nil
	for _, cancel := range m.runs {
		cancel()
	}
	if m.stopSub != nil {
		m.stopSub()
	}
	store, text, b := m.opts.Store, m.composer.Value(), m.backend
	return tea.Sequence(func() tea.Msg {
		_ = store.SaveDraft(text)
		if b != nil {
			_ = b.Close()
		}
		return nil
	}, tea.Quit)
}
