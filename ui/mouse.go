package ui

import (
	tea "charm.land/bubbletea/v2"
)

// handleMouse focuses and scrolls the pane under the pointer. Clicks on the
// header's page tabs switch page.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if m.modal != nil || m.showHelp {
		return nil
	}
	mouse := msg.Mouse()
	x, y := mouse.X, mouse.Y
	if m.form != nil {
		b := m.lay.body
		switch msg := msg.(type) {
		case tea.MouseClickMsg:
			if msg.Button == tea.MouseLeft && y >= b.y && y < b.y+b.h {
				return m.form.click(x-b.x, y-b.y)
			}
		case tea.MouseWheelMsg:
			if msg.Button == tea.MouseWheelUp {
				return m.form.wheel(-1)
			}
			return m.form.wheel(1)
		}
		return nil
	}
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft {
			return nil
		}
		if y == 0 {
			return m.clickTab(x)
		}
		f, r, ok := m.paneAt(x, y)
		if !ok {
			return nil
		}
		cmd := m.setFocus(f)
		if p, ok := m.panes[f].(pointer); ok {
			return tea.Batch(cmd, p.click(x-r.x, y-r.y))
		}
		return cmd
	case tea.MouseWheelMsg:
		f, _, ok := m.paneAt(x, y)
		if !ok {
			return nil
		}
		delta := 3
		switch msg.Button {
		case tea.MouseWheelUp:
			delta = -3
		case tea.MouseWheelDown:
		default:
			return nil
		}
		if p, ok := m.panes[f].(pointer); ok {
			return p.wheel(delta)
		}
	}
	return nil
}

// paneAt finds the pane under (x, y) on the current page.
func (m *Model) paneAt(x, y int) (focus, rect, bool) {
	if m.zoom {
		return m.focus, m.lay.body, m.lay.body.contains(x, y)
	}
	for _, f := range m.lay.panesOn(m.page) {
		if r := m.lay.rectOf(m.page, f); r.contains(x, y) {
			return f, r, true
		}
	}
	return 0, rect{}, false
}

// clickTab maps a click on the header's first line to a page tab. The tabs
// follow "mcpterm " and are "N Name" with one cell of padding each side.
func (m *Model) clickTab(x int) tea.Cmd {
	pos := len("mcpterm ")
	for p := pageTools; p <= pageExplore; p++ {
		w := len(p.String()) + 4
		if x >= pos && x < pos+w {
			return m.setPage(p)
		}
		pos += w
	}
	return nil
}
