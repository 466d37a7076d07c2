package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// The Tasks tab of Explore: the server's tasks (protocol 2025-11-25,
// tasks/list), shown only for a server that declares tasks.list. A call
// to a task tool runs as a task in the session (session/tasks.go) and
// lands in Results like any call; this tab shows the tasks themselves,
// refreshed when a task's status changes (notifications/tasks/status, or a
// call's own polling) and on a key, and lets the user cancel the selected
// task or fetch its result into Results.

// taskClient is what the tab needs of the session beyond session.Client
// (whose fakes need not have it); *session.Session has it.
type taskClient interface {
	Tasks(ctx context.Context) ([]mcp.Task, error)
	CancelTask(ctx context.Context, id string) (mcp.Task, error)
	TaskResult(ctx context.Context, id string) *session.CallResult
}

// taskTab is the tab's state, in the explore pane.
type taskTab struct {
	on      bool // the server lists tasks
	list    []mcp.Task
	err     error
	loaded  bool
	loading bool   // a tasks/list is in flight
	again   bool   // news came while it was: list once more when it lands
	note    string // what became of the last cancel (sanitised)
}

// Requests of the pane, and the root's replies.
type (
	loadTasksMsg  struct{}
	cancelTaskMsg struct{ id string }
	taskResultMsg struct{ id string }

	tasksMsg struct {
		t     ticket
		tasks []mcp.Task
		err   error
	}
	taskCancelledMsg struct {
		t    ticket
		id   string
		task mcp.Task
		err  error
	}
)

func (m tasksMsg) answers() ticket         { return m.t }
func (m taskCancelledMsg) answers() ticket { return m.t }

// setTasksOn shows the tab for a server that lists tasks (2026-07-28
// removed tasks/list), with a fresh list for each connection.
func (p *explorePane) setTasksOn(info session.Info) {
	tc := info.Capabilities.Tasks
	p.tk = taskTab{on: tc != nil && tc.List != nil && !info.Modern}
	p.nav[tabTasks].SetLen(0)
	switch {
	case !p.tk.on && p.tab == tabTasks:
		p.tab = tabServer
	case p.tk.on && p.tab == tabTasks:
		p.loadTasks()
	}
}

// tabOrder is the tabs as shown: Tasks after Prompts when there are any.
func (p *explorePane) tabOrder() []exploreTab {
	out := []exploreTab{tabResources, tabTemplates, tabPrompts}
	if p.tk.on {
		out = append(out, tabTasks)
	}
	return append(out, tabServer, tabLog, tabProtocol)
}

// stepTab moves n tabs along the shown order, wrapping around.
func (p *explorePane) stepTab(n int) {
	order := p.tabOrder()
	at := 0
	for i, t := range order {
		if t == p.tab {
			at = i
		}
	}
	p.tab = order[((at+n)%len(order)+len(order))%len(order)]
	if p.tab == tabTasks && !p.tk.loaded {
		p.loadTasks()
	}
}

// loadTasks asks for the list, once at a time: news while a list is in
// flight asks for one more when it lands.
func (p *explorePane) loadTasks() {
	if !p.tk.on {
		return
	}
	if p.tk.loading {
		p.tk.again = true
		return
	}
	p.tk.loading = true
	p.ask(loadTasksMsg{})
}

// tasksHeard refreshes the list when a task's status changed.
func (p *explorePane) tasksHeard(evs []session.Event) {
	for _, e := range evs {
		if e.Kind == session.EventTask {
			p.loadTasks()
			return
		}
	}
}

func (p *explorePane) setTasks(m tasksMsg) {
	p.tk.loading, p.tk.loaded = false, true
	p.tk.err = m.err
	if m.err == nil {
		p.tk.list = m.tasks
	}
	p.nav[tabTasks].SetLen(len(p.tk.list))
	if p.tab == tabTasks {
		p.showSelection()
	}
	if p.tk.again {
		p.tk.again = false
		p.loadTasks()
	}
}

func (p *explorePane) selectedTask() (mcp.Task, bool) {
	i := p.nav[tabTasks].Cursor
	if i < 0 || i >= len(p.tk.list) {
		return mcp.Task{}, false
	}
	return p.tk.list[i], true
}

// taskKey handles the tab's own keys; it reports whether msg was one.
func (p *explorePane) taskKey(msg tea.KeyPressMsg) bool {
	k := p.keys
	switch {
	case key.Matches(msg, k.TaskRefresh):
		p.loadTasks()
	case key.Matches(msg, k.TaskCancel):
		if t, ok := p.selectedTask(); ok && !t.Status.IsTerminal() {
			p.tk.note = "cancelling…"
			p.ask(cancelTaskMsg{id: t.TaskId})
			p.showSelection()
		}
	case key.Matches(msg, k.Open):
		if t, ok := p.selectedTask(); ok {
			p.ask(taskResultMsg{id: t.TaskId})
		}
	default:
		return false
	}
	return true
}

// taskRows fills the list and returns its heading.
func (p *explorePane) taskRows(from, to int, row func(int, string)) string {
	st := *p.st
	s := p.sanitize
	for i := from; i < to && i < len(p.tk.list); i++ {
		t := p.tk.list[i]
		msg := ""
		if t.StatusMessage != "" {
			msg = " " + st.Muted.Render(oneLine(s(t.StatusMessage)))
		}
		row(i, taskStatusStyle(st, t.Status).Render(widget14(string(t.Status)))+" "+
			st.Muted.Render(clockOf(t.LastUpdatedAt))+" "+safe.Name(s(t.TaskId))+msg)
	}
	if !p.tk.loaded {
		return "loading…"
	}
	return "status         updated  task · message"
}

func widget14(s string) string { return fmt.Sprintf("%-14s", s) }

func taskStatusStyle(st Styles, s mcp.TaskStatus) interface{ Render(...string) string } {
	switch s {
	case mcp.TaskStatusCompleted:
		return st.OK
	case mcp.TaskStatusFailed:
		return st.Error
	case mcp.TaskStatusCancelled, mcp.TaskStatusInputRequired:
		return st.Warn
	}
	return st.Info
}

// clockOf shows an ISO 8601 timestamp as the local time of day, or the
// text itself (bounded) when it is not one.
func clockOf(ts string) string {
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t.Local().Format("15:04:05")
	}
	if ts == "" {
		return "--:--:--"
	}
	return widget.Truncate(oneLine(safe.Text(ts)), 8)
}

// taskDetail is the selected task's fields and what the keys do.
func (p *explorePane) taskDetail() (string, string) {
	st := *p.st
	s := p.sanitize
	if p.tk.err != nil {
		return "Tasks", st.Error.Render("tasks/list: ") + s(p.tk.err.Error())
	}
	t, ok := p.selectedTask()
	if !ok {
		if p.tk.loaded {
			return "Tasks", st.Muted.Render("no tasks on the server; a call to a task tool makes one\n") + st.Muted.Render("u lists them again")
		}
		return "Tasks", ""
	}
	num := func(v *int64, unit string) string {
		if v == nil {
			return ""
		}
		return fmt.Sprintf("%d%s", *v, unit)
	}
	body := fieldLines(st, s, "task", t.TaskId, "status", string(t.Status), "message", t.StatusMessage,
		"created", t.CreatedAt, "updated", t.LastUpdatedAt, "ttl", num(t.TTL, " ms"), "poll every", num(t.PollInterval, " ms"))
	if p.tk.note != "" {
		body += "\n\n" + p.tk.note
	}
	hints := []string{"enter fetches its result into Results"}
	if !t.Status.IsTerminal() {
		hints = append(hints, "x cancels it")
	}
	hints = append(hints, "u refreshes")
	body += "\n\n" + st.Muted.Render(strings.Join(hints, " · "))
	return "task " + oneLine(safe.Name(s(t.TaskId))), body
}

// syncTaskKeys enables the tab's keys where they apply.
func (m *Model) syncTaskKeys() {
	on := m.focus == focusExplore && m.explore.tab == tabTasks
	m.keys.TaskRefresh.SetEnabled(on)
	m.keys.TaskCancel.SetEnabled(on)
}

// updateTasks is the root's part: the pane's requests become commands and
// their replies go back to the pane. It reports whether msg was one.
func (m *Model) updateTasks(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case loadTasksMsg:
		return m.loadTasksCmd(), true
	case tasksMsg:
		m.explore.setTasks(msg)
		return nil, true
	case cancelTaskMsg:
		return m.cancelTaskCmd(msg.id), true
	case taskCancelledMsg:
		if msg.err != nil {
			m.explore.tk.note = m.styles.Error.Render("tasks/cancel: ") + m.opts.Sanitize(msg.err.Error())
		} else {
			m.explore.tk.note = "cancelled: now " + oneLine(m.opts.Sanitize(string(msg.task.Status)))
		}
		m.explore.loadTasks()
		if m.explore.tab == tabTasks {
			m.explore.showSelection()
		}
		return nil, true
	case taskResultMsg:
		return m.taskResultCmd(msg.id), true
	}
	return nil, false
}

func (m *Model) taskSession() (taskClient, bool) {
	tc, ok := m.sess.(taskClient)
	return tc, ok && m.sess != nil
}

func (m *Model) loadTasksCmd() tea.Cmd {
	tc, ok := m.taskSession()
	t := m.issue(kindTasks, false)
	if !ok {
		return func() tea.Msg { return tasksMsg{t: t, err: fmt.Errorf("this session cannot list tasks")} }
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tasks, err := tc.Tasks(ctx)
		return tasksMsg{t: t, tasks: tasks, err: err}
	}
}

func (m *Model) cancelTaskCmd(id string) tea.Cmd {
	tc, ok := m.taskSession()
	if !ok {
		return nil
	}
	t := m.issue(kindTaskStop, false)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		task, err := tc.CancelTask(ctx, id)
		return taskCancelledMsg{t: t, id: id, task: task, err: err}
	}
}

// taskResultCmd fetches a task's result (tasks/result, which waits for the
// task to end) as a run of the results pane, so it is shown, cancelled
// (ctrl+c stops the wait, not the task) and saved like any call's.
func (m *Model) taskResultCmd(id string) tea.Cmd {
	tc, ok := m.taskSession()
	if !ok {
		return nil
	}
	m.nextRunID++
	runID := m.nextRunID
	ctx, cancel := context.WithCancel(context.Background())
	m.runs[runID] = cancel
	plan := &calls.Plan{Items: []calls.Item{{Tool: "tasks/result " + id}}}
	r := &run{id: runID, src: "; tasks/result " + id, started: m.opts.Now(), plan: plan}
	if m.cat != nil {
		r.codec = m.cat.codec
	}
	m.results.add(r)
	t := m.issue(kindRun, false)
	cmds := []tea.Cmd{func() tea.Msg {
		cr := tc.TaskResult(ctx, id)
		cr.Tool = plan.Items[0].Tool
		res := &session.RunResult{Items: []session.ItemResult{{Call: cr, Outcome: session.OutcomeOf(cr)}}, Started: cr.Started, Duration: cr.Duration}
		return callDoneMsg{t: t, runID: runID, result: res}
	}, m.results.spinner.Tick}
	if !m.lay.wide || m.page != pageCompose {
		cmds = append(cmds, m.setPage(pageCompose))
	}
	return tea.Batch(cmds...)
}
