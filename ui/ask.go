package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// AskBridge is the workbench's session.Asker: it carries a server's
// sampling and elicitation requests from the transport's goroutine into
// Update (one subscription Cmd, waitAsk), and the person's answer back. The
// command line builds it, hands it to session.Options.Asker and to
// Options.Ask, so the session and the workbench meet here and nowhere else.
type AskBridge struct {
	reqs chan *askRequest
}

// NewAskBridge makes a bridge; its requests wait until the workbench takes
// them.
func NewAskBridge() *AskBridge { return &AskBridge{reqs: make(chan *askRequest)} }

// askRequest is one question from a server, waiting for its answer. ctx
// ends when the server or the session gives up; the modal then closes.
type askRequest struct {
	ctx    context.Context
	server string
	sample *mcp.CreateMessageRequest
	elicit *mcp.ElicitationRequest
	reply  chan askReply // buffered: answering never blocks Update
}

type askReply struct {
	sample *mcp.CreateMessageResult
	elicit *mcp.ElicitationResult
	err    error
}

// answer sends the reply once; later calls do nothing.
func (r *askRequest) answer(a askReply) {
	select {
	case r.reply <- a:
	default:
	}
}

// askMsg brings a server's question into Update.
type askMsg struct{ req *askRequest }

// Sample waits for the person's sampling reply.
func (b *AskBridge) Sample(ctx context.Context, server string, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	a, err := b.ask(ctx, &askRequest{server: server, sample: &req})
	if err != nil {
		return nil, err
	}
	return a.sample, a.err
}

// Elicit waits for the person's answer to an elicitation.
func (b *AskBridge) Elicit(ctx context.Context, server string, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a, err := b.ask(ctx, &askRequest{server: server, elicit: &req})
	if err != nil {
		return nil, err
	}
	return a.elicit, a.err
}

func (b *AskBridge) ask(ctx context.Context, r *askRequest) (askReply, error) {
	r.ctx = ctx
	r.reply = make(chan askReply, 1)
	select {
	case b.reqs <- r:
	case <-ctx.Done():
		return askReply{}, context.Cause(ctx)
	}
	select {
	case a := <-r.reply:
		return a, nil
	case <-ctx.Done():
		return askReply{}, context.Cause(ctx)
	}
}

// waitAsk is the subscription Cmd: it returns the next question; Update
// re-arms it.
func (b *AskBridge) waitAsk() tea.Cmd {
	if b == nil {
		return nil
	}
	return func() tea.Msg { return askMsg{req: <-b.reqs} }
}

var _ session.Asker = (*AskBridge)(nil)

// onAsk opens the dialog for a server's question, or queues it behind the
// one open now.
func (m *Model) onAsk(msg askMsg) tea.Cmd {
	next := m.opts.Ask.waitAsk()
	switch {
	case msg.req.sample != nil:
		return tea.Batch(next, m.openSampling(msg.req))
	case msg.req.elicit != nil:
		return tea.Batch(next, m.openElicitation(msg.req))
	}
	return next
}
