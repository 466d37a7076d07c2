package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// exploreTab is one tab of the explore page.
type exploreTab int

const (
	tabResources exploreTab = iota
	tabTemplates
	tabPrompts
	tabServer
	tabLog
	tabProtocol
	tabTasks // shown after Prompts, only for a server that lists tasks (ui/tasks.go)
	numTabs
)

func (t exploreTab) String() string {
	return [...]string{"Resources", "Templates", "Prompts", "Server", "Log", "Protocol", "Tasks"}[t]
}

// logLevels in increasing severity, as MCP's logging levels (RFC 5424).
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func levelRank(l string) int {
	for i, x := range logLevels {
		if x == l {
			return i
		}
	}
	return 1
}

// logFilters are the minimum levels the log tab cycles through.
var logFilters = []string{"debug", "info", "warning", "error"}

const maxLogEntries = 2000

// explorePane browses everything but the tools: resources, templates,
// prompts, server info, the log and the protocol tap.
type explorePane struct {
	inbox   // requests of the root
	st      *Styles
	keys    *KeyMap
	w, h    int
	focused bool

	tab       exploreTab
	nav       [numTabs]widget.List
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	prompts   []mcp.Prompt
	errs      [3]error
	loaded    bool
	info      session.Info
	roots     []mcp.Root // offered to the server (ui/roots.go)
	rootsOn   bool       // mcpterm offers roots at all
	stderr    string     // connection stderr, shown on the server tab

	log      []session.Event
	logView  []int // indexes into log passing the level filter
	logLevel int   // index into logFilters
	proto    []session.Message

	detail      widget.Scroller
	detailTitle string
	waiting     bool // the detail waits for a read or a prompt
	sanitize    func(string) string
	listH       int
	wide        bool

	// the resource and prompt names a reader cannot tell apart
	alikeResources, alikePrompts map[string][]string

	subs resourceMarks // subscriptions and unread updates (ui/subscribe.go)
	tk   taskTab       // the Tasks tab (ui/tasks.go)
}

func newExplorePane(st *Styles, keys *KeyMap, sanitize func(string) string) explorePane {
	return explorePane{st: st, keys: keys, sanitize: sanitize}
}

func (p *explorePane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := widget.Inner(p.st.Frame, w, h)
	body := ih - 2 // tab bar and a rule
	p.wide = iw >= 100
	if p.wide {
		p.listH = body
		p.detail.SetSize(max(iw-iw*45/100-1, 10), body-1)
	} else {
		p.listH = max(body*2/5, 3)
		p.detail.SetSize(iw, body-p.listH-2)
	}
	for i := range p.nav {
		p.nav[i].SetHeight(p.listH - 1)
	}
}

func (p *explorePane) Focus() tea.Cmd { p.focused = true; return nil }
func (p *explorePane) Blur()          { p.focused = false }

func (p *explorePane) setLists(m exploreMsg) {
	p.resources, p.templates, p.prompts, p.errs = m.resources, m.templates, m.prompts, m.errs
	p.loaded = true
	p.alikeResources, p.alikePrompts = p.lookalikes()
	p.nav[tabResources].SetLen(len(p.resources))
	p.nav[tabTemplates].SetLen(len(p.templates))
	p.nav[tabPrompts].SetLen(len(p.prompts))
	p.showSelection()
}

func (p *explorePane) setInfo(info session.Info, stderr string) {
	p.info = info
	p.stderr = stderr
	p.setTasksOn(info)
	if p.tab == tabServer {
		p.showSelection()
	}
}

// addEvents appends session events to the log tab and protocol messages
// to the protocol tab.
func (p *explorePane) addEvents(evs []session.Event, msgs []session.Message) {
	p.log = append(p.log, evs...)
	p.proto = append(p.proto, msgs...)
	if n := protoKeepFrom(p.proto); n > 0 {
		p.proto = append([]session.Message(nil), p.proto[n:]...)
	}
	if n := len(p.log) - maxLogEntries; n > 0 {
		p.log = append([]session.Event(nil), p.log[n:]...)
	}
	p.noteUpdates(evs)
	p.tasksHeard(evs)
	atEnd := p.nav[tabLog].Cursor >= p.nav[tabLog].Len()-1
	p.filterLog()
	if atEnd {
		p.nav[tabLog].Bottom()
	}
	atEnd = p.nav[tabProtocol].Cursor >= p.nav[tabProtocol].Len()-1
	p.nav[tabProtocol].SetLen(len(p.proto))
	if atEnd {
		p.nav[tabProtocol].Bottom()
	}
}

// protoKeepFrom is the index of the oldest message the protocol tab keeps
// of msgs: the newest, within the tap's own bounds of count and bytes.
func protoKeepFrom(msgs []session.Message) int {
	bytes := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		bytes += len(msgs[i].Payload)
		if len(msgs)-i > session.TapMessages || bytes > session.TapBytes {
			return i + 1
		}
	}
	return 0
}

func eventLevel(e session.Event) string {
	switch e.Kind {
	case session.EventLog:
		return e.Level
	case session.EventProgress:
		return "debug"
	}
	if e.Level != "" {
		return e.Level
	}
	return "info"
}

func (p *explorePane) filterLog() {
	min := levelRank(logFilters[p.logLevel])
	p.logView = p.logView[:0]
	for i, e := range p.log {
		if levelRank(eventLevel(e)) >= min {
			p.logView = append(p.logView, i)
		}
	}
	p.nav[tabLog].SetLen(len(p.logView))
}

// Update moves between tabs and rows and opens what is selected.
func (p *explorePane) Update(m tea.Msg) tea.Cmd {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	k := p.keys
	nav := &p.nav[p.tab]
	switch {
	case key.Matches(msg, k.TabLeft):
		p.stepTab(-1)
		p.showSelection()
	case key.Matches(msg, k.TabRight):
		p.stepTab(1)
		p.showSelection()
	case key.Matches(msg, k.Up):
		nav.Move(-1)
		p.showSelection()
	case key.Matches(msg, k.Down):
		nav.Move(1)
		p.showSelection()
	case key.Matches(msg, k.Top):
		nav.Top()
		p.showSelection()
	case key.Matches(msg, k.Bottom):
		nav.Bottom()
		p.showSelection()
	case key.Matches(msg, k.PageUp):
		p.detail.PageUp()
	case key.Matches(msg, k.PageDown):
		p.detail.PageDown()
	case key.Matches(msg, k.Level) && p.tab == tabLog:
		p.logLevel = (p.logLevel + 1) % len(logFilters)
		p.filterLog()
		p.nav[tabLog].Bottom()
		p.showSelection()
	case key.Matches(msg, k.Subscribe) && p.tab == tabResources:
		if uri, ok := p.selectedResource(); ok {
			return p.ask(subscribeToggleMsg{uri: uri})
		}
	case key.Matches(msg, k.Reread) && p.tab == tabResources:
		if uri, ok := p.selectedResource(); ok {
			p.subs.seen(uri)
			return p.ask(readURIMsg{uri: uri})
		}
	case key.Matches(msg, k.EditRoots) && p.tab == tabServer:
		return p.ask(editRootsMsg{})
	case p.tab == tabTasks && p.taskKey(msg):
	case key.Matches(msg, k.Open):
		switch p.tab {
		case tabResources:
			if i := nav.Cursor; i < len(p.resources) {
				p.subs.seen(p.resources[i].URI)
				return p.ask(readURIMsg{uri: p.resources[i].URI})
			}
		case tabPrompts:
			if i := nav.Cursor; i < len(p.prompts) {
				return p.ask(getPromptMsg{prompt: p.prompts[i]})
			}
		case tabTemplates:
			if i := nav.Cursor; i < len(p.templates) {
				return p.ask(readTemplateMsg{tpl: templateText(p.templates[i])})
			}
		}
	}
	return nil
}

// waitDetail marks the detail view as waiting for a read or a prompt.
func (p *explorePane) waitDetail(title string) {
	p.waiting = true
	p.detailTitle = title
	p.detail.SetContent(p.st.Muted.Render("loading…"))
}

// applyDetail shows a read or a prompt, unless the user has moved on.
func (p *explorePane) applyDetail(m detailMsg) {
	if !p.waiting {
		return
	}
	p.waiting = false
	p.detailTitle = m.title
	if m.err != nil {
		p.detail.SetContent(p.st.Error.Render("error: ") + p.sanitize(m.err.Error()))
	} else {
		p.detail.SetContent(m.body)
	}
	p.detail.GotoTop()
}

// showSelection fills the detail view from what is selected, for tabs whose
// detail needs no request.
func (p *explorePane) showSelection() {
	st := *p.st
	s := p.sanitize
	p.waiting = false
	nav := p.nav[p.tab]
	var title, body string
	switch p.tab {
	case tabResources:
		if err := p.errs[0]; err != nil {
			body = st.Error.Render(s(err.Error()))
		} else if nav.Cursor < len(p.resources) {
			r := p.resources[nav.Cursor]
			title = safe.Name(s(firstNonEmpty(r.Title, r.Name, r.URI)))
			body = fieldLines(st, s, "uri", r.URI, "name", r.Name, "mime", r.MIMEType, "description", r.Description)
			body += "\n\n" + st.Muted.Render("enter reads it") + p.subs.detail(st, r.URI, p.canSubscribe())
		}
	case tabTemplates:
		if err := p.errs[1]; err != nil {
			body = st.Error.Render(s(err.Error()))
		} else if nav.Cursor < len(p.templates) {
			t := p.templates[nav.Cursor]
			title = safe.Name(s(firstNonEmpty(t.Title, t.Name)))
			body = fieldLines(st, s, "uriTemplate", templateText(t), "name", t.Name, "mime", t.MIMEType, "description", t.Description) +
				"\n\n" + st.Muted.Render("enter fills in the variables and reads the resource")
		}
	case tabPrompts:
		if err := p.errs[2]; err != nil {
			body = st.Error.Render(s(err.Error()))
		} else if nav.Cursor < len(p.prompts) {
			pr := p.prompts[nav.Cursor]
			title = safe.Name(s(firstNonEmpty(pr.Title, pr.Name)))
			body = fieldLines(st, s, "name", pr.Name, "description", pr.Description)
			for _, a := range pr.Arguments {
				req := ""
				if a.Required {
					req = " (required)"
				}
				body += "\n" + st.Bold.Render("  "+safe.Name(s(a.Name))) + st.Muted.Render(req+" "+oneLine(s(a.Description)))
			}
			body += "\n\n" + st.Muted.Render("enter gets it (asks for arguments)")
		}
	case tabServer:
		title = "Server"
		body = p.serverDetail()
	case tabLog:
		if nav.Cursor < len(p.logView) {
			e := p.log[p.logView[nav.Cursor]]
			title = eventLevel(e) + " " + oneLine(s(e.Source))
			body = e.Time.Format("15:04:05.000") + "\n" + prettyMaybe(st, s(e.Text))
		}
	case tabProtocol:
		if nav.Cursor < len(p.proto) {
			title, body = p.protoDetail(nav.Cursor)
		}
	case tabTasks:
		title, body = p.taskDetail()
	}
	p.detailTitle = title
	p.detail.SetContent(body)
	p.detail.GotoTop()
}

func (p *explorePane) Help() []key.Binding {
	k := p.keys
	b := []key.Binding{k.TabLeft, k.TabRight, k.Up, k.Down}
	switch p.tab {
	case tabResources:
		b = append(b, k.Open, k.Subscribe, k.Reread)
	case tabPrompts, tabTemplates:
		b = append(b, k.Open)
	case tabLog:
		b = append(b, k.Level)
	case tabTasks:
		b = append(b, k.Open, k.TaskCancel, k.TaskRefresh)
	case tabServer:
		if p.rootsOn {
			b = append(b, k.EditRoots)
		}
	}
	return append(b, k.PageDown)
}

// click selects the row under the mouse (y relative to the pane top).
func (p *explorePane) click(x, y int) tea.Cmd {
	if y == 1 { // the tab bar
		pos := 2
		for _, t := range p.tabOrder() {
			w := len(t.String()) + 6
			if x >= pos && x < pos+w {
				p.tab = t
				p.showSelection()
				return nil
			}
			pos += w
		}
		return nil
	}
	if p.nav[p.tab].Click(y - 4) {
		p.showSelection()
	}
	return nil
}

func (p *explorePane) wheel(n int) tea.Cmd { p.detail.Scroll(n); return nil }

// templateText is a resource template's URI template as the server wrote it.
func templateText(t mcp.ResourceTemplate) string {
	if t.URITemplate == nil || t.URITemplate.Template == nil {
		return ""
	}
	return t.URITemplate.Raw()
}
