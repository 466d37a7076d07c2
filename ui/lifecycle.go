package ui

import (
	"context"
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func (m *Model) onConnected(msg connectedMsg) tea.Cmd {
	if msg.attempt != m.attempt {
		if msg.backend != nil {
			go msg.backend.Close()
		}
		return nil
	}
	if msg.err != nil {
		m.conn = connFailed
		m.connErr = msg.err
		stderr := ""
		var se StderrError
		if errors.As(msg.err, &se) {
			stderr = se.Stderr()
		}
		m.explore.setInfo(m.info, stderr)
		return nil
	}
	m.gen++
	m.backend = msg.backend
	m.conn = connReady
	m.info = msg.backend.Info()
	m.explore.setInfo(m.info, "")
	m.explore.loaded = false
	if m.stopSub != nil {
		m.stopSub()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.stopSub = cancel
	ch := msg.backend.Subscribe(ctx)
	m.evCh = ch
	cmds := []tea.Cmd{subscribeCmd(ch, m.gen), m.setSet(msg.backend.Tools())}
	if m.page == pageExplore {
		cmds = append(cmds, m.loadExploreCmd())
	}
	return tea.Batch(cmds...)
}

func (m *Model) retry() tea.Cmd {
	if m.backend != nil {
		b := m.backend
		m.backend = nil
		go b.Close()
	}
	return tea.Batch(m.connectCmd(), m.results.spinner.Tick)
}

func (m *Model) onEvents(msg eventsMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.explore.addEvents(msg.events)
	var cmds []tea.Cmd
	for _, e := range msg.events {
		switch e.Kind {
		case EventProgress:
			m.applyProgress(e)
		case EventListChanged:
			if e.Text == "tools" && m.backend != nil {
				cmds = append(cmds, m.refreshToolsCmd())
			}
			if e.Text == "resources" || e.Text == "prompts" {
				cmds = append(cmds, m.loadExploreCmd())
			}
		case EventClosed:
			m.conn = connLost
			m.connErr = errors.New(firstNonEmpty(e.Text, "connection lost"))
			cmds = append(cmds, m.setFlash("connection lost: press r to reconnect", true))
		}
	}
	if !msg.closed {
		cmds = append(cmds, subscribeCmd(m.evCh, m.gen))
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

// quit stops calls and the subscription, writes the draft, and exits.
func (m *Model) quit(saveFirst bool) tea.Cmd {
	if saveFirst {
		m.modal = nil
		name := m.composer.path
		if name == "" {
			name = "call.mcpt"
		}
		data := m.composer.Value() + "\n"
		m.modal = newForm(*m.styles, "Save the composer to a file", "", []string{"file"}, []string{name},
			func(v []string) tea.Msg { return saveAsMsg{path: v[0], data: data, what: "draft"} })
		return nil
	}
	m.quitting = true
	m.modal = nil
	for _, cancel := range m.runs {
		cancel()
	}
	if m.stopSub != nil {
		m.stopSub()
	}
	store, text, b := m.opts.Store, m.composer.Value(), m.backend
	return tea.Sequence(func() tea.Msg {
		_ = store.SaveDraft(text)
		if b != nil {
			_ = b.Close()
		}
		return nil
	}, tea.Quit)
}
