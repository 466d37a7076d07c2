package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/ojson"
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
	numTabs
)

func (t exploreTab) String() string {
	return [...]string{"Resources", "Templates", "Prompts", "Server", "Log", "Protocol"}[t]
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

const (
	maxLogEntries   = 2000
	maxProtoEntries = 1000
)

// protoEntry is a protocol message with its arrival time.
type protoEntry struct {
	time time.Time
	msg  ProtocolMessage
}

// explorePane browses everything but the tools: resources, templates,
// prompts, server info, the log and the protocol tap.
type explorePane struct {
	st      *Styles
	keys    *KeyMap
	w, h    int
	focused bool
	now     func() time.Time

	tab       exploreTab
	nav       [numTabs]listNav
	resources []Resource
	templates []ResourceTemplate
	prompts   []Prompt
	errs      [3]error
	loaded    bool
	info      ServerInfo
	stderr    string // connection stderr, shown on the server tab

	log      []Event
	logView  []int // indexes into log passing the level filter
	logLevel int   // index into logFilters
	proto    []protoEntry

	detail      scroller
	detailTitle string
	detailReq   int // the open request the detail waits for
	sanitize    func(string) string
	listH       int
	wide        bool
}

func newExplorePane(st *Styles, keys *KeyMap, sanitize func(string) string, now func() time.Time) explorePane {
	return explorePane{st: st, keys: keys, sanitize: sanitize, now: now}
}

func (p *explorePane) SetSize(w, h int) {
	p.w, p.h = w, h
	iw, ih := innerSize(*p.st, w, h)
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
		p.nav[i].setHeight(p.listH - 1)
	}
}

func (p *explorePane) Focus() { p.focused = true }
func (p *explorePane) Blur()  { p.focused = false }

func (p *explorePane) setLists(m exploreMsg) {
	p.resources, p.templates, p.prompts, p.errs = m.resources, m.templates, m.prompts, m.errs
	p.loaded = true
	p.nav[tabResources].setLen(len(p.resources))
	p.nav[tabTemplates].setLen(len(p.templates))
	p.nav[tabPrompts].setLen(len(p.prompts))
	p.showSelection()
}

func (p *explorePane) setInfo(info ServerInfo, stderr string) {
	p.info = info
	p.stderr = stderr
	if p.tab == tabServer {
		p.showSelection()
	}
}

// addEvents appends session events to the log and protocol tabs.
func (p *explorePane) addEvents(evs []Event) {
	for _, e := range evs {
		if e.Kind == EventProtocol && e.Proto != nil {
			p.proto = append(p.proto, protoEntry{time: e.Time, msg: *e.Proto})
			continue
		}
		p.log = append(p.log, e)
	}
	if n := len(p.proto) - maxProtoEntries; n > 0 {
		p.proto = append([]protoEntry(nil), p.proto[n:]...)
	}
	if n := len(p.log) - maxLogEntries; n > 0 {
		p.log = append([]Event(nil), p.log[n:]...)
	}
	atEnd := p.nav[tabLog].cursor >= p.nav[tabLog].n-1
	p.filterLog()
	if atEnd {
		p.nav[tabLog].bottom()
	}
	atEnd = p.nav[tabProtocol].cursor >= p.nav[tabProtocol].n-1
	p.nav[tabProtocol].setLen(len(p.proto))
	if atEnd {
		p.nav[tabProtocol].bottom()
	}
}

func eventLevel(e Event) string {
	switch e.Kind {
	case EventLog:
		return e.Level
	case EventProgress:
		return "debug"
	case EventClosed:
		return "error"
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
	p.nav[tabLog].setLen(len(p.logView))
}

// exploreAction asks the root for I/O.
type exploreAction struct {
	kind     int // one of the explore* constants
	uri      string
	prompt   *Prompt
	template *ResourceTemplate
}

const (
	exploreNone = iota
	exploreRead
	exploreGetPrompt
	exploreReadTemplate
)

func (p *explorePane) Update(msg tea.KeyPressMsg) exploreAction {
	k := p.keys
	nav := &p.nav[p.tab]
	switch {
	case key.Matches(msg, k.TabLeft):
		p.tab = (p.tab + numTabs - 1) % numTabs
		p.showSelection()
	case key.Matches(msg, k.TabRight):
		p.tab = (p.tab + 1) % numTabs
		p.showSelection()
	case key.Matches(msg, k.Up):
		nav.move(-1)
		p.showSelection()
	case key.Matches(msg, k.Down):
		nav.move(1)
		p.showSelection()
	case key.Matches(msg, k.Top):
		nav.top()
		p.showSelection()
	case key.Matches(msg, k.Bottom):
		nav.bottom()
		p.showSelection()
	case key.Matches(msg, k.PageUp):
		p.detail.PageUp()
	case key.Matches(msg, k.PageDown):
		p.detail.PageDown()
	case key.Matches(msg, k.Level) && p.tab == tabLog:
		p.logLevel = (p.logLevel + 1) % len(logFilters)
		p.filterLog()
		p.nav[tabLog].bottom()
		p.showSelection()
	case key.Matches(msg, k.Open):
		switch p.tab {
		case tabResources:
			if i := nav.cursor; i < len(p.resources) {
				return exploreAction{kind: exploreRead, uri: p.resources[i].URI}
			}
		case tabPrompts:
			if i := nav.cursor; i < len(p.prompts) {
				pr := p.prompts[i]
				return exploreAction{kind: exploreGetPrompt, prompt: &pr}
			}
		case tabTemplates:
			if i := nav.cursor; i < len(p.templates) {
				t := p.templates[i]
				return exploreAction{kind: exploreReadTemplate, template: &t}
			}
		}
	}
	return exploreAction{}
}

// waitDetail marks the detail view as waiting for request id.
func (p *explorePane) waitDetail(id int, title string) {
	p.detailReq = id
	p.detailTitle = title
	p.detail.SetContent(p.st.Muted.Render("loading…"))
}

func (p *explorePane) applyDetail(m detailMsg) {
	if m.reqID != p.detailReq {
		return
	}
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
	p.detailReq = -1
	nav := p.nav[p.tab]
	var title, body string
	switch p.tab {
	case tabResources:
		if err := p.errs[0]; err != nil {
			body = st.Error.Render(s(err.Error()))
		} else if nav.cursor < len(p.resources) {
			r := p.resources[nav.cursor]
			title = oneLine(s(firstNonEmpty(r.Title, r.Name, r.URI)))
			body = fieldLines(st, s, "uri", r.URI, "name", r.Name, "mime", r.MIME, "description", r.Description)
			if r.Size > 0 {
				body += "\n" + st.Muted.Render("size ") + byteSize(int(r.Size))
			}
			body += "\n\n" + st.Muted.Render("enter reads it")
		}
	case tabTemplates:
		if err := p.errs[1]; err != nil {
			body = st.Error.Render(s(err.Error()))
		} else if nav.cursor < len(p.templates) {
			t := p.templates[nav.cursor]
			title = oneLine(s(firstNonEmpty(t.Title, t.Name)))
			body = fieldLines(st, s, "uriTemplate", t.URITemplate, "name", t.Name, "mime", t.MIME, "description", t.Description) +
				"\n\n" + st.Muted.Render("enter fills in the variables and reads the resource")
		}
	case tabPrompts:
		if err := p.errs[2]; err != nil {
			body = st.Error.Render(s(err.Error()))
		} else if nav.cursor < len(p.prompts) {
			pr := p.prompts[nav.cursor]
			title = oneLine(s(firstNonEmpty(pr.Title, pr.Name)))
			body = fieldLines(st, s, "name", pr.Name, "description", pr.Description)
			for _, a := range pr.Arguments {
				req := ""
				if a.Required {
					req = " (required)"
				}
				body += "\n" + st.Bold.Render("  "+oneLine(s(a.Name))) + st.Muted.Render(req+" "+oneLine(s(a.Description)))
			}
			body += "\n\n" + st.Muted.Render("enter gets it (asks for arguments)")
		}
	case tabServer:
		title = "Server"
		in := p.info
		body = fieldLines(st, s, "name", in.Name, "title", in.Title, "version", in.Version, "protocol", in.Protocol, "transport", in.Transport)
		if len(in.Capabilities) > 0 {
			body += "\n" + st.Muted.Render("capabilities ") + s(strings.Join(in.Capabilities, ", "))
		}
		if in.Instructions != "" {
			body += "\n\n" + st.PaneTitle.Render("Instructions") + "\n" + s(in.Instructions)
		}
		if p.stderr != "" {
			body += "\n\n" + st.PaneTitle.Render("stderr") + "\n" + s(p.stderr)
		}
	case tabLog:
		if nav.cursor < len(p.logView) {
			e := p.log[p.logView[nav.cursor]]
			title = eventLevel(e) + " " + oneLine(s(e.Logger))
			body = e.Time.Format("15:04:05.000") + "\n" + prettyMaybe(st, s(e.Text))
		}
	case tabProtocol:
		if nav.cursor < len(p.proto) {
			title, body = p.protoDetail(nav.cursor)
		}
	}
	p.detailTitle = title
	p.detail.SetContent(body)
	p.detail.GotoTop()
}

// protoDetail shows a message with its pair (request above response).
func (p *explorePane) protoDetail(i int) (string, string) {
	st := *p.st
	e := p.proto[i]
	req, resp := &p.proto[i], (*protoEntry)(nil)
	if j := p.pairOf(i); j >= 0 {
		if e.msg.Outgoing == (e.msg.Kind == "request") {
			resp = &p.proto[j]
		} else {
			req, resp = &p.proto[j], &p.proto[i]
		}
	} else if e.msg.Kind != "request" {
		req, resp = nil, &p.proto[i]
	}
	var b strings.Builder
	show := func(label string, pe *protoEntry) {
		b.WriteString(st.PaneTitle.Render(label) + st.Muted.Render(fmt.Sprintf(" %s · %s", pe.time.Format("15:04:05.000"), byteSize(pe.msg.Size))))
		if pe.msg.Latency > 0 {
			b.WriteString(st.Muted.Render(" · " + fmtDuration(pe.msg.Latency)))
		}
		b.WriteByte('\n')
		if pe.msg.Err != "" {
			b.WriteString(st.Error.Render(p.sanitize(pe.msg.Err)) + "\n")
		}
		b.WriteString(prettyMaybe(st, p.sanitize(pe.msg.Raw)))
		b.WriteString("\n\n")
	}
	if req != nil {
		show(dirLabel(req.msg)+" request", req)
	}
	if resp != nil {
		show(dirLabel(resp.msg)+" "+resp.msg.Kind, resp)
	}
	return oneLine(p.sanitize(e.msg.Method)), strings.TrimRight(b.String(), "\n")
}

func dirLabel(m ProtocolMessage) string {
	if m.Outgoing {
		return "→"
	}
	return "←"
}

// pairOf finds the index of the message paired with proto[i], or -1.
func (p *explorePane) pairOf(i int) int {
	m := p.proto[i].msg
	if m.ID == "" {
		return -1
	}
	if m.Pair != 0 {
		for j := range p.proto {
			if p.proto[j].msg.Seq == m.Pair {
				return j
			}
		}
	}
	isReq := m.Kind == "request"
	for j := range p.proto {
		o := p.proto[j].msg
		if j == i || o.ID != m.ID || o.Outgoing == m.Outgoing {
			continue
		}
		if isReq && o.Kind != "request" && j > i {
			return j
		}
		if !isReq && o.Kind == "request" && j < i {
			return j
		}
	}
	return -1
}

func fieldLines(st Styles, s func(string) string, kv ...string) string {
	var lines []string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		v := s(kv[i+1])
		if kv[i] != "description" {
			v = oneLine(v)
		}
		lines = append(lines, st.Muted.Render(kv[i]+" ")+st.Text.Render(v))
	}
	return strings.Join(lines, "\n")
}

// prettyMaybe pretty-prints and highlights JSON text, else returns it as is.
func prettyMaybe(st Styles, text string) string {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if v, err := ojson.Parse([]byte(t)); err == nil {
			return highlight(st, "json", v.Pretty())
		}
	}
	return text
}

func (p *explorePane) help() []key.Binding {
	k := p.keys
	b := []key.Binding{k.TabLeft, k.TabRight, k.Up, k.Down}
	switch p.tab {
	case tabResources, tabPrompts, tabTemplates:
		b = append(b, k.Open)
	case tabLog:
		b = append(b, k.Level)
	}
	return append(b, k.PageDown)
}

func (p *explorePane) View() string {
	st := *p.st
	iw, ih := innerSize(st, p.w, p.h)
	var tabs []string
	for t := exploreTab(0); t < numTabs; t++ {
		label := t.String()
		switch t {
		case tabResources:
			label += fmt.Sprintf(" %d", len(p.resources))
		case tabTemplates:
			label += fmt.Sprintf(" %d", len(p.templates))
		case tabPrompts:
			label += fmt.Sprintf(" %d", len(p.prompts))
		case tabLog:
			label += fmt.Sprintf(" %d", len(p.log))
		case tabProtocol:
			label += fmt.Sprintf(" %d", len(p.proto))
		}
		if t == p.tab {
			tabs = append(tabs, st.TabActive.Render(label))
		} else {
			tabs = append(tabs, st.Tab.Render(label))
		}
	}
	head := fitLine(strings.Join(tabs, ""), iw) + "\n" + st.Subtle.Render(strings.Repeat("─", iw))
	list := p.listView(iw)
	var body string
	if p.wide {
		lw := iw * 45 / 100
		dw := iw - lw - 1
		ll := strings.Split(fitBlock(list, lw, p.listH), "\n")
		dl := strings.Split(fitBlock(p.detailView(), dw, p.listH), "\n")
		sep := st.Subtle.Render("│")
		rows := make([]string, p.listH)
		for i := range rows {
			rows[i] = ll[i] + sep + dl[i]
		}
		body = strings.Join(rows, "\n")
	} else {
		body = fitBlock(list, iw, p.listH) + "\n" + st.Subtle.Render(strings.Repeat("─", iw)) + "\n" +
			fitBlock(p.detailView(), iw, max(ih-2-p.listH-1, 1))
	}
	right := ""
	if p.tab == tabLog {
		right = "level ≥ " + logFilters[p.logLevel]
	}
	return box(st, p.focused, p.w, p.h, "Explore", right, head+"\n"+body)
}

func (p *explorePane) detailView() string {
	st := *p.st
	t := ""
	if p.detailTitle != "" {
		t = st.PaneTitle.Render(p.detailTitle) + "\n"
	}
	return t + p.detail.View()
}

func (p *explorePane) listView(iw int) string {
	st := *p.st
	s := p.sanitize
	nav := p.nav[p.tab]
	w := iw
	if p.wide {
		w = iw * 45 / 100
	}
	var rows []string
	var heading string
	row := func(i int, text string) {
		if i == nav.cursor {
			if p.focused {
				text = st.Selected.Render(fitLine(stripStyles(text), w))
			} else {
				text = st.Bold.Render(fitLine(stripStyles(text), w))
			}
		}
		rows = append(rows, text)
	}
	from, to := nav.visible()
	switch p.tab {
	case tabResources:
		heading = "uri · name"
		if !p.loaded {
			return st.Muted.Render("loading…")
		}
		for i := from; i < to && i < len(p.resources); i++ {
			r := p.resources[i]
			row(i, oneLine(s(r.URI))+" "+st.Muted.Render(oneLine(s(firstNonEmpty(r.Title, r.Name)))))
		}
	case tabTemplates:
		heading = "uri template · name"
		for i := from; i < to && i < len(p.templates); i++ {
			t := p.templates[i]
			row(i, oneLine(s(t.URITemplate))+" "+st.Muted.Render(oneLine(s(t.Name))))
		}
	case tabPrompts:
		heading = "prompt · arguments"
		for i := from; i < to && i < len(p.prompts); i++ {
			pr := p.prompts[i]
			var args []string
			for _, a := range pr.Arguments {
				args = append(args, a.Name)
			}
			row(i, oneLine(s(pr.Name))+" "+st.Muted.Render(oneLine(s(strings.Join(args, " ")))))
		}
	case tabServer:
		return st.Muted.Render("server details →")
	case tabLog:
		heading = "time     level   source · text"
		for i := from; i < to && i < len(p.logView); i++ {
			e := p.log[p.logView[i]]
			lvl := eventLevel(e)
			ls := st.Muted
			switch {
			case levelRank(lvl) >= levelRank("error"):
				ls = st.Error
			case levelRank(lvl) >= levelRank("warning"):
				ls = st.Warn
			}
			src := ""
			switch e.Kind {
			case EventStderr:
				src = "stderr "
			case EventProgress:
				src = fmt.Sprintf("progress %.0f/%.0f ", e.Progress, e.Total)
			case EventListChanged:
				src = "list_changed "
			}
			if e.Logger != "" {
				src += e.Logger + " "
			}
			row(i, st.Muted.Render(e.Time.Format("15:04:05"))+" "+ls.Render(fmt.Sprintf("%-7s", lvl))+" "+st.Info.Render(oneLine(s(src)))+oneLine(s(e.Text)))
		}
	case tabProtocol:
		heading = "   time         method            size  latency"
		for i := from; i < to && i < len(p.proto); i++ {
			pe := p.proto[i]
			m := pe.msg
			dir := st.Info.Render("→")
			if !m.Outgoing {
				dir = st.OK.Render("←")
			}
			method := m.Method
			if method == "" {
				method = "(response)"
			}
			id := ""
			if m.ID != "" {
				id = "#" + m.ID
			}
			lat := ""
			if m.Latency > 0 {
				lat = fmtDuration(m.Latency)
			}
			kind := ""
			switch m.Kind {
			case "error":
				kind = st.Error.Render(" error")
			case "failed":
				kind = st.Error.Render(" failed")
			}
			row(i, fmt.Sprintf("%s %s %-16s %-5s %7s %7s", dir, pe.time.Format("15:04:05.000"), truncate(oneLine(s(method)), 16), truncate(oneLine(s(id)), 5), byteSize(m.Size), lat)+kind)
		}
	}
	if len(rows) == 0 {
		return st.Muted.Render(heading) + "\n" + st.Muted.Render("nothing yet")
	}
	return st.Muted.Render(heading) + "\n" + strings.Join(rows, "\n")
}

// click selects the row under the mouse (y relative to the pane top).
func (p *explorePane) click(x, y int) {
	if y == 1 { // the tab bar
		pos := 2
		for t := exploreTab(0); t < numTabs; t++ {
			w := len(t.String()) + 6
			if x >= pos && x < pos+w {
				p.tab = t
				p.showSelection()
				return
			}
			pos += w
		}
		return
	}
	if p.nav[p.tab].click(y - 4) {
		p.showSelection()
	}
}

func (p *explorePane) wheel(n int) { p.detail.Scroll(n) }
