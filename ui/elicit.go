package ui

import (
	"context"
	"fmt"
	"net/url"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
)

// elicits is the workbench's share of a server's elicitations: the one
// shown (or covered by another dialog, such as the quit question, and shown
// again when that closes) and the ones waiting behind it, oldest first.
type elicits struct {
	shown *elicitDialog
	queue []*elicitDialog
}

// elicitEvent is a message of the elicitation dialogs; Update hands each
// to its apply.
type elicitEvent interface{ apply(m *Model) tea.Cmd }

// elicitGoneMsg: the request's context ended (the server gave up, the
// session closed, or the ask timeout passed).
type elicitGoneMsg struct{ d *elicitDialog }

// elicitOpenedMsg is what opening a URL-mode request's link did.
type elicitOpenedMsg struct {
	d   *elicitDialog
	err error
}

// openElicitation shows a server's elicitation as a form (or a URL), or
// queues it behind the dialog open now. A schema mcpterm cannot build a
// form from is answered with an error saying why, at once.
func (m *Model) openElicitation(r *askRequest) tea.Cmd {
	var d *elicitDialog
	if session.IsURLElicitation(*r.elicit) {
		d = newElicitDialog(r, nil, m.opts.Sanitize, m.screenHeight)
		if u, err := url.Parse(r.elicit.Params.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
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
	m.elicit.queue = append(m.elicit.queue, d)
	m.serveElicits()
	ctx := r.ctx
	return func() tea.Msg {
		<-ctx.Done()
		return elicitGoneMsg{d: d}
	}
}

func (m *Model) screenHeight() int { return m.height }

// serveElicits shows the elicitation due, when no other dialog is open:
// the one shown before, if it is still unanswered, else the next waiting.
func (m *Model) serveElicits() {
	if m.modal != nil {
		return
	}
	e := &m.elicit
	if e.shown != nil && e.shown.answered {
		e.shown = nil
	}
	if e.shown == nil && len(e.queue) > 0 {
		e.shown, e.queue = e.queue[0], e.queue[1:]
	}
	if e.shown != nil {
		m.modal = e.shown
	}
}

// apply closes a dialog whose server gave up, or drops it from the queue.
func (msg elicitGoneMsg) apply(m *Model) tea.Cmd {
	d := msg.d
	if d.answered {
		return nil
	}
	d.answered = true
	for i, q := range m.elicit.queue {
		if q == d {
			m.elicit.queue = append(m.elicit.queue[:i:i], m.elicit.queue[i+1:]...)
		}
	}
	if m.modal == d {
		m.closeModal()
	}
	m.serveElicits()
	why := "it gave up"
	if err := context.Cause(d.req.ctx); err != nil && err != context.Canceled {
		why = err.Error()
	}
	return m.setFlash(d.server+" withdrew its question ("+oneLine(m.opts.Sanitize(why))+")", false)
}

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
