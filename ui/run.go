package ui

import (
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"
)

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
		runCmd(ctx, m.backend, id, src, p, m.opts.Now),
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
