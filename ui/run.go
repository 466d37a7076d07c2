package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/policy"
)

// requestRun reads the composer now (not the async check, which may be a
// keystroke behind) and starts the run, asking first when the policy wants
// a destructive call confirmed. The runner checks again when it runs: the
// dialog only asks the question the runner would ask.
func (m *Model) requestRun() tea.Cmd {
	if m.conn != connReady || m.cat == nil {
		return m.setFlash("not connected", true)
	}
	if m.sess.IsOffline() {
		return m.setFlash("offline tool list: calls need a live server", true)
	}
	src := m.composer.Value()
	p, err := m.cat.codec.Read(src)
	if err != nil {
		return m.setFlash(firstLine(err.Error()), true)
	}
	return m.runPlan(src, p)
}

// rerun runs some items of a finished run again, as a new run.
func (m *Model) rerun(r *run, items []int) tea.Cmd {
	if m.conn != connReady || m.cat == nil {
		return m.setFlash("not connected", true)
	}
	p := &calls.Plan{Syntax: r.plan.Syntax, Batch: len(items) > 1, Concurrency: r.plan.Concurrency, StopOnError: r.plan.StopOnError}
	for _, i := range items {
		if i >= 0 && i < len(r.plan.Items) {
			p.Items = append(p.Items, r.plan.Items[i])
		}
	}
	if len(p.Items) == 0 {
		return nil
	}
	src, err := r.codec.Print(p, p.Syntax, 72)
	if err != nil {
		src = r.src // items answered locally print as nothing: keep what was written
	}
	p.Source = src
	return m.runPlan(src, p)
}

// runPlan starts p, asking first when the policy wants a destructive call
// confirmed, and saying why when it refuses one.
func (m *Model) runPlan(src string, p *calls.Plan) tea.Cmd {
	decs := m.cat.runner.Check(p)
	var refused, asking []string
	for i, d := range decs {
		switch d.Verdict {
		case policy.Deny:
			refused = append(refused, oneLine(m.opts.Sanitize(d.Reason)))
		case policy.Confirm:
			asking = append(asking, m.confirmLine(p.Items[i]))
		}
	}
	if len(refused) > 0 {
		return m.setFlash("refused: "+strings.Join(refused, "; "), true)
	}
	if len(asking) > 0 {
		text := "On " + oneLine(m.opts.Sanitize(firstNonEmpty(m.info.Title, m.info.Name, m.info.Source))) +
			", these calls are destructive (by their annotations, MCP's default, or their DELETE category):\n\n" +
			strings.Join(asking, "\n") + "\n\nRun them?"
		m.modal = newConfirm("Run a destructive tool?", text, runConfirmedMsg{src: src, plan: p})
		return nil
	}
	return m.startRun(src, p, false)
}

// confirmLine names a call and its arguments for the confirmation dialog.
func (m *Model) confirmLine(it calls.Item) string {
	line := oneLine(m.opts.Sanitize(it.Tool))
	if it.ID != "" {
		line = "[" + oneLine(m.opts.Sanitize(it.ID)) + "] " + line
	}
	if it.Arguments != nil && len(it.Arguments.Members) > 0 {
		args, _ := safe.Cut(it.Arguments.Compact(), 200)
		line += " " + oneLine(m.opts.Sanitize(args))
	}
	return "  • " + line
}

func (m *Model) startRun(src string, p *calls.Plan, confirmed bool) tea.Cmd {
	m.nextRunID++
	id := m.nextRunID
	ctx, cancel := context.WithCancel(context.Background())
	m.runs[id] = cancel
	r := &run{id: id, src: src, started: m.opts.Now(), plan: p, codec: m.cat.codec}
	m.results.add(r)
	m.composer.dirty = false
	if len(m.composer.history) == 0 || m.composer.history[len(m.composer.history)-1] != src {
		m.composer.history = append(m.composer.history, src)
	}
	m.composer.histIdx = len(m.composer.history)
	runner, progress, t := m.cat.runner, m.progress, m.issue(kindRun, false)
	cmds := []tea.Cmd{
		func() tea.Msg {
			res := runner.Run(ctx, p, session.RunOptions{
				Confirmed: confirmed,
				OnProgress: func(item int, e session.Event) {
					select { // never hold up a call for the UI
					case progress <- progressNote{run: id, item: item, progress: e.Progress, total: e.Total, text: e.Text}:
					default:
					}
				},
			})
			return callDoneMsg{t: t, runID: id, result: res}
		},
		m.results.spinner.Tick,
	}
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
	r.result = msg.result
	r.done = true
	r.duration = m.opts.Now().Sub(r.started)
	var cmds []tea.Cmd
	for _, it := range msg.result.Items {
		if f := it.Outcome.Err; f != nil && f.Kind == calls.FailConnection && m.conn == connReady {
			m.conn = connLost
			m.connErr = fmt.Errorf("%s", f.Message)
			cmds = append(cmds, m.setFlash("connection lost: press r to reconnect", true))
			break
		}
	}
	return tea.Batch(append(cmds, m.renderResultsCmd())...)
}

// applyProgress gives a progress note to the run it belongs to.
func (m *Model) applyProgress(p progressNote) {
	r := m.results.find(p.run)
	if r == nil || r.done {
		return
	}
	r.progress, r.total = p.progress, p.total
	r.progressText = oneLine(m.opts.Sanitize(p.text))
}
