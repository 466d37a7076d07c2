package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
)

// openSampling shows a server's sampling request in a modal.
func (m *Model) openSampling(r *askRequest) tea.Cmd {
	r.answer(askReply{err: session.ErrDeclined})
	return nil
}
