package ui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// The call form (toolForm) covers the body while it is open and takes
// every key but ctrl+c. It is opened for the call at the composer's cursor
// (read back into it) or, from the tool list or outside any call, for the
// selected tool; what it writes replaces the call it was read from, or is
// inserted as Enter on a tool inserts a template.

// formTarget is where the form's call goes: over the bytes [start, end)
// of the composer's text it was read from, or in at the cursor.
type formTarget struct {
	replace    bool
	start, end int
	back       focus // the pane focused before
}

// openForm opens the form. It reports why not in the flash.
func (m *Model) openForm() tea.Cmd {
	if m.cat == nil {
		return m.setFlash("no tool list yet", true)
	}
	codec := m.cat.codec
	target := formTarget{back: m.focus}
	var tool *toolset.Tool
	var item *calls.Item
	if m.focus == focusComposer {
		draft := m.composer.Value()
		if s, e, ok := callAtCursor(draft, m.composer.cursorOffset()); ok {
			target = formTarget{replace: true, start: s, end: e, back: m.focus}
			if p, err := codec.Read(draft[s:e]); err == nil && len(p.Items) == 1 && p.Items[0].Tool != "" {
				item = &p.Items[0]
				tool = codec.Set().Find(item.Tool)
			}
		}
		if tool == nil {
			if sig, ok := m.composer.signature(); ok {
				tool = codec.Set().Find(sig.Tool)
			}
		}
	}
	if tool == nil {
		tool = m.tools.selected()
	}
	if tool == nil {
		return m.setFlash("select a tool for the form", true)
	}
	if item == nil {
		target.replace = false // a call the form cannot read is left alone
	}
	f := newToolForm(m.styles, &m.keys, codec, tool, m.opts.Sanitize)
	var flash tea.Cmd
	if item != nil {
		var le *formLoadError
		if err := f.Load(item); errors.As(err, &le) {
			flash = m.setFlash("the form keeps what no field holds as raw JSON", false)
		} else if err != nil {
			target.replace = false
			flash = m.setFlash("a new call: "+oneLine(m.opts.Sanitize(err.Error())), true)
		}
	}
	m.form, m.formTo = f, target
	m.sizeForm()
	m.panes[m.focus].Blur()
	m.syncKeys()
	return tea.Batch(f.Focus(), flash)
}

// sizeForm gives the form the body.
func (m *Model) sizeForm() {
	if m.form != nil {
		m.form.SetSize(m.lay.body.w, m.lay.body.h)
	}
}

// closeForm takes the form's call, when it gives one, into the composer.
func (m *Model) closeForm(text string, use bool) tea.Cmd {
	to := m.formTo
	m.form = nil
	if !use {
		m.syncKeys()
		return m.panes[m.focus].Focus()
	}
	cmds := []tea.Cmd{m.setPage(pageCompose), m.setFocus(focusComposer), m.panes[focusComposer].Focus()}
	draft := m.composer.Value()
	if draft == m.composer.template {
		draft = ""
	}
	// The form prints at its own width; the composer's call is printed
	// again at the composer's, on one line when it goes into other calls.
	if p, err := m.cat.codec.Read(text); err == nil {
		w := 0
		if strings.TrimSpace(draft) == "" || to.replace && to.start == 0 && to.end == len(draft) {
			w, _ = widget.Inner(m.styles.Frame, m.composer.w, m.composer.h)
		}
		if again, err := m.cat.codec.Print(p, calls.SExpr, w); err == nil {
			text = again
		}
	}
	var out string
	var at int
	if to.replace && to.end <= len(draft) {
		out, at = draft[:to.start]+text+draft[to.end:], to.start
	} else {
		out, at = insertCall(draft, m.composer.cursorOffset(), text)
	}
	m.composer.setText(out)
	m.composer.placeCursor(at + len(text))
	m.composer.histIdx = len(m.composer.history)
	return tea.Batch(append(cmds, m.checkCmd(), m.autosaveCmd())...)
}

// callAtCursor is the call of an MCP-Term draft the cursor is in: a
// top-level call, or the call of the batch entry holding it.
func callAtCursor(draft string, cur int) (start, end int, ok bool) {
	forms, err := sexpr.Parse(draft)
	if err != nil {
		return 0, 0, false
	}
	in := func(n *sexpr.Node) bool { return n.Pos.Offset <= cur && cur <= n.End.Offset }
	for _, f := range forms {
		if f.Kind != sexpr.List || !in(f) {
			continue
		}
		if !isBatch(f) {
			return f.Pos.Offset, f.End.Offset, true
		}
		for _, e := range f.Items[1:] {
			if e.Kind == sexpr.List && len(e.Items) == 2 && e.Items[1].Kind == sexpr.List && in(e) {
				return e.Items[1].Pos.Offset, e.Items[1].End.Offset, true
			}
		}
	}
	return 0, 0, false
}
