package ui

import tea "charm.land/bubbletea/v2"

// NoticeBridge carries remarks made outside Update into the flash: the
// OAuth flow's "authorize in your browser: URL" arrives while Connect is
// still waiting for the browser, before there is a session whose events
// the workbench could read (session.Options.OAuthNotify).
type NoticeBridge struct{ c chan string }

// NewNoticeBridge makes a bridge that holds a few remarks until the
// workbench takes them.
func NewNoticeBridge() *NoticeBridge { return &NoticeBridge{c: make(chan string, 16)} }

// Notify hands the workbench a remark. It never blocks: past the few
// waiting, remarks are dropped (they are notice events too).
func (b *NoticeBridge) Notify(msg string) {
	select {
	case b.c <- msg:
	default:
	}
}

// noticeMsg brings one remark into Update.
type noticeMsg struct{ text string }

// wait is the subscription Cmd; onNotice re-arms it.
func (b *NoticeBridge) wait() tea.Cmd {
	if b == nil {
		return nil
	}
	return func() tea.Msg { return noticeMsg{text: <-b.c} }
}

// onNotice shows the remark, sanitised, in the flash.
func (m *Model) onNotice(msg noticeMsg) tea.Cmd {
	return tea.Batch(m.opts.Notice.wait(), m.setFlash(m.opts.Sanitize(msg.text), false))
}
