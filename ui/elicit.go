package ui

import (
	"context"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
)

// elicitEvent is a message of the elicitation dialogs; Update hands each
// to its apply.
type elicitEvent interface{ apply(m *Model) tea.Cmd }

// elicitOpenedMsg is what opening a URL-mode request's link did.
type elicitOpenedMsg struct {
	d   *elicitDialog
	err error
}

// openElicitation shows a server's elicitation as a form (or a URL), or
// queues it behind the dialog open now (ask_queue.go). A schema mcpterm cannot build a
// form from is answered with an error saying why, at once.
func (m *Model) openElicitation(r *askRequest) tea.Cmd {
	var d *elicitDialog
	if session.IsURLElicitation(*r.elicit) {
		d = newElicitDialog(r, nil, m.opts.Sanitize, m.screenHeight)
		if session.Openable(r.elicit.Params.URL) != nil {
			d.urlErr = "not an http(s) URL: mcpterm does not open it"
		}
	} else {
		form, err := session.ElicitForm(*r.elicit)
		if err != nil {
			r.answer(askReply{err: fmt.Errorf("mcpterm cannot show this form: %w", err)})
			return m.setFlash(oneLine(m.opts.Sanitize(r.server))+" asked with a form mcpterm cannot show: "+oneLine(m.opts.Sanitize(err.Error())), true)
		}
		d = newElicitDialog(r, form, m.opts.Sanitize, m.screenHeight)
	}
	return m.presentAsk(d)
}

func (m *Model) screenHeight() int { return m.height }

// apply opens the link, off the Update loop.
func (msg elicitOpenMsg) apply(m *Model) tea.Cmd {
	open := m.opts.OpenURL
	if open == nil {
		open = func(ctx context.Context, u string) error { return session.OpenURL(ctx, u, os.Getenv) }
	}
	d, u, ctx := msg.d, msg.url, msg.d.req.ctx
	return func() tea.Msg { return elicitOpenedMsg{d: d, err: open(ctx, u)} }
}

func (msg elicitOpenedMsg) apply(m *Model) tea.Cmd {
	if msg.err != nil {
		msg.d.opened = "could not open it: " + oneLine(m.opts.Sanitize(msg.err.Error())) + " — open the link yourself"
	} else {
		msg.d.opened = "opened in the browser"
	}
	return nil
}

// asking and finished make the dialog one of the ask queue's.
func (d *elicitDialog) asking() *askRequest { return d.req }
func (d *elicitDialog) finished() bool      { return d.answered }
