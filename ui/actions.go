package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/tokens"
)

// The actions global keys start (handleKey): composing the selected tool,
// switching the composer's syntax, templates and prompt arguments, zoom
// and the tokenizer.

// composeSelected opens the composer on a template for the selected tool.
func (m *Model) composeSelected() tea.Cmd {
	t := m.tools.selected()
	if t == nil || m.cat == nil {
		return nil
	}
	tpl := m.cat.codec.Template(t.Name)
	cmds := []tea.Cmd{m.setPage(pageCompose), m.setFocus(focusComposer)}
	draft := m.composer.Value()
	if draft == m.composer.template {
		draft = "" // an untouched template is replaced, not added to
	}
	text, at := insertCall(draft, m.composer.cursorOffset(), tpl)
	m.composer.setText(text)
	m.composer.placeCursor(at + firstHole(tpl))
	if draft == "" {
		m.composer.template = text
		m.composer.dirty = false
	}
	m.composer.histIdx = len(m.composer.history)
	return tea.Batch(append(cmds, m.checkCmd(), m.autosaveCmd())...)
}

// switchSyntax re-prints the composer's calls in the next syntax that can
// say them, with the codec every face uses.
func (m *Model) switchSyntax() tea.Cmd {
	if m.cat == nil {
		return nil
	}
	p, err := m.cat.codec.Read(m.composer.Value())
	if err != nil {
		return m.setFlash("fix the call first: "+firstLine(err.Error()), true)
	}
	order := []calls.Syntax{calls.SExpr, calls.AQL, calls.JSON}
	next := calls.Syntax("")
	for i, s := range order {
		if s != p.Syntax {
			continue
		}
		for j := 1; j < len(order); j++ {
			cand := order[(i+j)%len(order)]
			if text, err := m.cat.codec.Print(p, cand, 72); err == nil {
				m.composer.setText(text)
				next = cand
				break
			}
		}
	}
	if next == "" {
		return m.setFlash("no other syntax can say this call", true)
	}
	return tea.Batch(m.checkCmd(), m.autosaveCmd(), m.setFlash("now "+syntaxLabel(next), false))
}

func syntaxLabel(s calls.Syntax) string {
	switch s {
	case calls.SExpr:
		return "S-expression"
	case calls.AQL:
		return "AQL JSON"
	}
	return "JSON"
}

// readTemplate reads a resource template, asking for its variables first.
func (m *Model) readTemplate(tpl string) tea.Cmd {
	vars := templateVars(tpl)
	if len(vars) == 0 {
		return m.readResourceCmd(tpl)
	}
	m.modal = m.completingTemplate(newForm(*m.styles, "Read "+oneLine(m.opts.Sanitize(tpl)), "", vars, nil, func(v []string) tea.Msg {
		vals := map[string]string{}
		for i, n := range vars {
			vals[n] = v[i]
		}
		return readURIMsg{uri: expandTemplate(tpl, vals)}
	}), tpl, vars)
	return nil
}

// askPromptArgs gets a prompt, asking for its arguments first.
func (m *Model) askPromptArgs(pr mcp.Prompt) tea.Cmd {
	if len(pr.Arguments) == 0 {
		return m.getPromptCmd(pr.Name, nil)
	}
	var labels, names []string
	for _, a := range pr.Arguments {
		names = append(names, a.Name)
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
	m.modal = m.completingPrompt(newForm(*m.styles, "Arguments for prompt "+oneLine(m.opts.Sanitize(name)), "", labels, nil, func(v []string) tea.Msg {
		out := map[string]string{}
		for i, a := range args {
			if v[i] != "" || a.Required {
				out[a.Name] = v[i]
			}
		}
		return promptArgsMsg{name: name, args: out}
	}), name, names)
	return nil
}

// toggleZoom shows the focused pane alone, over the whole body, or puts
// the page back.
func (m *Model) toggleZoom() tea.Cmd {
	m.zoom = !m.zoom
	m.setSize(m.width, m.height)
	return tea.Batch(m.schemaCmd(), m.renderResultsCmd())
}

func (m *Model) cycleEncoding() tea.Cmd {
	encs := tokens.Encodings()
	for i, e := range encs {
		if e == m.enc {
			m.enc = encs[(i+1)%len(encs)]
			break
		}
	}
	m.tools.setReport(m.reports[m.enc])
	cmds := []tea.Cmd{m.setFlash("encoding "+m.enc, false)}
	if !m.encReady[m.enc] {
		cmds = append(cmds, m.loadEncodingCmd(m.enc))
	} else {
		cmds = append(cmds, m.reportCmd())
	}
	return tea.Batch(append(cmds, m.schemaCmd(), m.checkCmd(), m.renderResultsCmd())...)
}
