package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
)

func (m *Model) onConnected(msg connectedMsg) tea.Cmd {
	if msg.err != nil {
		m.conn = connFailed
		m.connErr = msg.err
		m.explore.setInfo(m.info, stderrOf(msg.err))
		return nil
	}
	if m.stopFeed != nil {
		m.stopFeed()
	}
	old := m.sess
	m.gen++
	m.sess = msg.sess
	m.conn = connReady
	m.info = msg.info
	m.explore.setInfo(m.info, "")
	m.explore.loaded = false
	ctx, cancel := context.WithCancel(context.Background())
	m.stopFeed = cancel
	m.feed = msg.sess.Feed(ctx)
	// A fresh channel too: the old subscription, on its way out, must not
	// take the new connection's progress with it.
	m.progress = make(chan progressNote, progressBacklog)
	cmds := []tea.Cmd{closeCmd(old), feedCmd(m.issue(kindFeed, false), m.feed, m.progress), m.setCatalog(msg.cat), m.resubscribeCmd(msg.sess)}
	if m.composer.history == nil {
		cmds = append(cmds, m.loadHistoryCmd(msg.cat.server))
	}
	if m.page == pageExplore {
		cmds = append(cmds, m.loadExploreCmd())
	}
	return tea.Batch(cmds...)
}

// stderrOf is what a stdio server printed before it failed to connect.
func stderrOf(err error) string {
	var exit *session.ServerExitError
	if errors.As(err, &exit) {
		return exit.Stderr
	}
	return ""
}

// retry connects again; the old session is closed once the new one is up,
// or now if there is none to show meanwhile.
func (m *Model) retry() tea.Cmd {
	var cmds []tea.Cmd
	if m.conn == connLost && m.sess != nil {
		cmds = append(cmds, closeCmd(m.sess))
		m.sess = nil
		if m.stopFeed != nil {
			m.stopFeed()
			m.stopFeed = nil
		}
	}
	return tea.Batch(append(cmds, m.connectCmd(), m.results.spinner.Tick)...)
}

func (m *Model) onFeed(msg feedMsg) tea.Cmd {
	var events []session.Event
	var msgs []session.Message
	var cmds []tea.Cmd
	for _, it := range msg.items {
		switch {
		case it.Message != nil:
			msgs = append(msgs, *it.Message)
		case it.Event != nil:
			e := *it.Event
			events = append(events, e)
			if e.Kind == session.EventListChanged {
				switch e.Source {
				case "tools":
					cmds = append(cmds, m.refreshToolsCmd())
				case "resources", "prompts":
					cmds = append(cmds, m.loadExploreCmd())
				}
			}
		}
		if it.Missed > 0 {
			events = append(events, session.Event{Kind: session.EventNotice, Level: "warning", Time: m.opts.Now(),
				Text: fmt.Sprintf("%d items of the session's feed were not shown (the workbench fell behind)", it.Missed)})
		}
	}
	m.explore.addEvents(events, msgs)
	for _, p := range msg.progress {
		m.applyProgress(p)
	}
	if !msg.closed {
		cmds = append(cmds, feedCmd(msg.t, m.feed, m.progress))
	}
	return tea.Batch(cmds...)
}

func (m *Model) requestQuit() tea.Cmd {
	var why []string
	if m.running() {
		why = append(why, "a call is still running (it will be cancelled)")
	}
	if m.composer.dirty {
		why = append(why, "the composer has an unsaved draft (it is kept for next time, but not in a file)")
	}
	if len(why) == 0 {
		return m.quit(false)
	}
	md := newConfirm(quitTitle, strings.Join(why, ";\n")+".", quitConfirmedMsg{})
	if m.composer.dirty {
		md.extra = []key.Binding{key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save to a file first"))}
		md.onExtra = []tea.Msg{quitConfirmedMsg{saveFirst: true}}
	}
	m.modal = md
	return nil
}

const quitTitle = "Quit mcpterm?"

// quit cancels the calls and the feed, then — in one Cmd, before the
// program ends — waits for any draft write in flight, writes the draft as
// it stands and closes the session.
func (m *Model) quit(saveFirst bool) tea.Cmd {
	if saveFirst {
		m.modal = m.saveComposerDialog()
		return nil
	}
	if m.quitting {
		return nil // a second ctrl+c while the first one's writes finish
	}
	m.quitting = true
	m.modal = nil
	for _, cancel := range m.runs {
		cancel()
	}
	if m.stopFeed != nil {
		m.stopFeed()
	}
	o, text, s, d := m.opts, m.composer.Value(), m.sess, m.drafts
	return tea.Sequence(func() tea.Msg {
		d.wg.Wait()
		if o.Drafts != nil {
			_ = d.save(o.Drafts, o.DraftKey, text)
		}
		if s != nil {
			_ = s.Close()
		}
		return nil
	}, tea.Quit)
}
