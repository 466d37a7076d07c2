package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// A server's questions (sampling and elicitation dialogs) wait in one
// queue: one dialog at a time, the rest behind it, and a dialog that
// another one covers (the quit confirmation) comes back, as the person
// left it, once that closes. A question whose server gives up (its ctx
// ends) leaves the screen and the queue.

// askDialog is a dialog answering one server question.
type askDialog interface {
	dialog
	// asking is the question it answers.
	asking() *askRequest
	// finished says it has answered (or declined): not to be shown again.
	finished() bool
}

// askQueue is the workbench's questions: the one on screen and those
// waiting, oldest first.
type askQueue struct {
	open    askDialog
	waiting []askDialog
}

// askEventMsg is news of a question: gone (its ctx ended: the server gave
// up, or the answer went out) or a note to flash.
type askEventMsg struct {
	gone *askRequest
	note string
	err  bool
}

// presentAsk queues d and watches its request's end; the dialog opens as
// soon as nothing else is on screen (syncAsks, after every Update).
func (m *Model) presentAsk(d askDialog) tea.Cmd {
	m.asks.waiting = append(m.asks.waiting, d)
	r := d.asking()
	return func() tea.Msg {
		<-r.ctx.Done()
		return askEventMsg{gone: r}
	}
}

// syncAsks keeps the screen and the queue in step, after every Update: a
// dialog covered by another goes back to the head of the queue, and with
// nothing on screen the next question opens.
func (m *Model) syncAsks() {
	q := &m.asks
	if q.open != nil && m.modal != dialog(q.open) {
		if !q.open.finished() {
			q.waiting = append([]askDialog{q.open}, q.waiting...)
		}
		q.open = nil
	}
	if m.modal == nil && q.open == nil && len(q.waiting) > 0 && !m.quitting {
		q.open, q.waiting = q.waiting[0], q.waiting[1:]
		m.modal = q.open
	}
}

// onAskEvent closes the dialog of a question its server gave up on, or
// drops it from the queue, and flashes notes.
func (m *Model) onAskEvent(msg askEventMsg) tea.Cmd {
	var cmd tea.Cmd
	if msg.note != "" {
		cmd = m.setFlash(msg.note, msg.err)
	}
	r := msg.gone
	if r == nil {
		return cmd
	}
	q := &m.asks
	if q.open != nil && q.open.asking() == r {
		if m.modal == dialog(q.open) {
			m.modal = nil
		}
		withdrawn := !q.open.finished()
		q.open = nil
		if withdrawn {
			why := "it timed out or was cancelled"
			if err := context.Cause(r.ctx); err != nil && err != context.Canceled {
				why = err.Error()
			}
			cmd = m.setFlash(oneLine(m.opts.Sanitize(r.server))+" withdrew its question ("+oneLine(m.opts.Sanitize(why))+")", true)
		}
	}
	for i, d := range q.waiting {
		if d.asking() == r {
			q.waiting = append(q.waiting[:i:i], q.waiting[i+1:]...)
			break
		}
	}
	return cmd
}
