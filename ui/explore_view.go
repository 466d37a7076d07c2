package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// protoDetail shows a message with its pair (request above response).
func (p *explorePane) protoDetail(i int) (string, string) {
	st := *p.st
	m := p.proto[i]
	var req, resp *session.Message
	if j := p.pairOf(i); j >= 0 {
		if m.Kind == session.KindRequest {
			req, resp = &p.proto[i], &p.proto[j]
		} else {
			req, resp = &p.proto[j], &p.proto[i]
		}
	} else if m.Kind == session.KindRequest {
		req = &p.proto[i]
	} else {
		resp = &p.proto[i]
	}
	var b strings.Builder
	show := func(label string, pm *session.Message) {
		b.WriteString(st.PaneTitle.Render(label) + st.Muted.Render(fmt.Sprintf(" %s · %s", pm.Time.Format("15:04:05.000"), byteSize(pm.Size))))
		if pm.Latency > 0 {
			b.WriteString(st.Muted.Render(" · " + fmtDuration(pm.Latency)))
		}
		b.WriteByte('\n')
		if pm.Err != "" {
			b.WriteString(st.Error.Render(p.sanitize(pm.Err)) + "\n")
		}
		b.WriteString(prettyMaybe(st, p.sanitize(pm.Payload)))
		b.WriteString("\n\n")
	}
	if req != nil {
		show(dirLabel(*req)+" "+string(req.Kind), req)
	}
	if resp != nil {
		show(dirLabel(*resp)+" "+string(resp.Kind), resp)
	}
	return oneLine(p.sanitize(m.Method)), strings.TrimRight(b.String(), "\n")
}

func dirLabel(m session.Message) string {
	if m.Dir == session.Sent {
		return "→"
	}
	return "←"
}

// pairOf finds the index of the message paired with proto[i], or -1.
func (p *explorePane) pairOf(i int) int {
	m := p.proto[i]
	if m.ID == "" {
		return -1
	}
	if m.Pair != 0 {
		for j := range p.proto {
			if p.proto[j].Seq == m.Pair {
				return j
			}
		}
	}
	isReq := m.Kind == session.KindRequest
	for j := range p.proto {
		o := p.proto[j]
		if j == i || o.ID != m.ID || o.Dir == m.Dir {
			continue
		}
		if isReq && o.Kind != session.KindRequest && j > i {
			return j
		}
		if !isReq && o.Kind == session.KindRequest && j < i {
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
			return widget.Highlight(st.Syntax, "json", v.Pretty())
		}
	}
	return text
}

func (p *explorePane) View() string {
	st := *p.st
	iw, ih := widget.Inner(st.Frame, p.w, p.h)
	var tabs []string
	for _, t := range p.tabOrder() {
		label := t.String()
		switch t {
		case tabTasks:
			label += fmt.Sprintf(" %d", len(p.tk.list))
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
	head := widget.FitLine(strings.Join(tabs, ""), iw) + "\n" + st.Subtle.Render(strings.Repeat("─", iw))
	list := p.listView(iw)
	var body string
	if p.wide {
		lw := iw * 45 / 100
		dw := iw - lw - 1
		ll := strings.Split(widget.FitBlock(list, lw, p.listH), "\n")
		dl := strings.Split(widget.FitBlock(p.detailView(), dw, p.listH), "\n")
		sep := st.Subtle.Render("│")
		rows := make([]string, p.listH)
		for i := range rows {
			rows[i] = ll[i] + sep + dl[i]
		}
		body = strings.Join(rows, "\n")
	} else {
		body = widget.FitBlock(list, iw, p.listH) + "\n" + st.Subtle.Render(strings.Repeat("─", iw)) + "\n" +
			widget.FitBlock(p.detailView(), iw, max(ih-2-p.listH-1, 1))
	}
	right := ""
	if p.tab == tabLog {
		right = "level ≥ " + logFilters[p.logLevel]
	}
	return widget.Frame(st.Frame, p.focused, p.w, p.h, "Explore", right, head+"\n"+body)
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
		if i == nav.Cursor {
			if p.focused {
				text = st.Selected.Render(widget.FitLine(ansi.Strip(text), w))
			} else {
				text = st.Bold.Render(widget.FitLine(ansi.Strip(text), w))
			}
		}
		rows = append(rows, text)
	}
	from, to := nav.Visible()
	switch p.tab {
	case tabResources:
		heading = "uri · name"
		if !p.loaded {
			return st.Muted.Render("loading…")
		}
		for i := from; i < to && i < len(p.resources); i++ {
			r := p.resources[i]
			row(i, p.subs.mark(st, r.URI)+alikeMark(st, p.alikeResources[r.Name])+safe.Name(s(r.URI))+" "+st.Muted.Render(safe.Name(s(firstNonEmpty(r.Title, r.Name)))))
		}
	case tabTemplates:
		heading = "uri template · name"
		for i := from; i < to && i < len(p.templates); i++ {
			t := p.templates[i]
			row(i, safe.Name(s(templateText(t)))+" "+st.Muted.Render(safe.Name(s(t.Name))))
		}
	case tabPrompts:
		heading = "prompt · arguments"
		for i := from; i < to && i < len(p.prompts); i++ {
			pr := p.prompts[i]
			var args []string
			for _, a := range pr.Arguments {
				args = append(args, a.Name)
			}
			row(i, alikeMark(st, p.alikePrompts[pr.Name])+safe.Name(s(pr.Name))+" "+st.Muted.Render(safe.Name(s(strings.Join(args, " ")))))
		}
	case tabServer:
		return st.Muted.Render("server details →")
	case tabTasks:
		heading = p.taskRows(from, to, row)
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
			case session.EventStderr:
				src = "stderr "
			case session.EventProgress:
				src = fmt.Sprintf("progress %.0f/%.0f ", e.Progress, e.Total)
			case session.EventListChanged:
				src = "list_changed "
			}
			if e.Source != "" && e.Kind != session.EventProgress {
				src += e.Source + " "
			}
			row(i, st.Muted.Render(e.Time.Format("15:04:05"))+" "+ls.Render(fmt.Sprintf("%-7s", lvl))+" "+st.Info.Render(oneLine(s(src)))+oneLine(s(e.Text)))
		}
	case tabProtocol:
		// The method column is as wide as the longest method shown, within
		// what the fixed columns leave (dir, time, id, size, latency and
		// their spaces: 44 cells, and 10 for a status when one shows).
		longest, status := 6, 0
		for i := from; i < to && i < len(p.proto); i++ {
			longest = max(longest, ansi.StringWidth(oneLine(s(p.proto[i].Method))))
			if p.proto[i].Kind == session.KindError || p.proto[i].Kind == session.KindFailed {
				status = 10
			}
		}
		mw := clamp(longest, 10, max(w-44-status, 10))
		heading = "   time         " + widget.PadRight("method", mw) + " id        size  latency"
		for i := from; i < to && i < len(p.proto); i++ {
			m := p.proto[i]
			dir := st.Info.Render("→")
			if m.Dir != session.Sent {
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
			switch {
			case m.Kind == session.KindError:
				kind = st.Error.Render(" error")
			case m.Kind == session.KindFailed && strings.Contains(m.Err, "context canceled"):
				kind = st.Warn.Render(" cancelled")
			case m.Kind == session.KindFailed && strings.Contains(m.Err, "deadline exceeded"):
				kind = st.Warn.Render(" timed out")
			case m.Kind == session.KindFailed:
				kind = st.Error.Render(" failed")
			}
			row(i, fmt.Sprintf("%s %s %s %-5s %7s %7s", dir, m.Time.Format("15:04:05.000"), widget.PadRight(widget.Truncate(oneLine(s(method)), mw), mw), widget.Truncate(oneLine(s(id)), 5), byteSize(m.Size), lat)+kind)
		}
	}
	if len(rows) == 0 {
		return st.Muted.Render(heading) + "\n" + st.Muted.Render("nothing yet")
	}
	return st.Muted.Render(heading) + "\n" + strings.Join(rows, "\n")
}
