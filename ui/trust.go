package ui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session/history"
)

// TrustPrompt is a question the workbench asks before it connects: the
// selection resolved to a server of a project config (a cloned
// repository's .mcp.json …) that the user has not trusted as it is now.
// The rule and the words are session/config's (config.Question); the
// workbench only asks, and goes on with what Answer says.
type TrustPrompt struct {
	Title, Text string
	// Answer remembers the answer and resolves the selection again; it
	// runs in a Cmd. An error leaves the workbench not connected, saying
	// it (a "no" with nothing else to connect to, a file changed while the
	// question was open).
	Answer func(trust bool) (TrustAnswer, error)
}

// TrustAnswer is what to connect to once the question is answered.
type TrustAnswer struct {
	Connect func(ctx context.Context) (Session, error)
	// Target and DraftKey replace the Options' own (the server may be
	// another one than the one shown while asking).
	Target, DraftKey string
	// History replaces Options.History when set: a log redacting the
	// secrets of the server connected to.
	History *history.Log
	// Notice is shown once connecting starts.
	Notice string
}

// connAsking is the connection state while the trust question is open:
// nothing connects, nothing of the server runs.
const connAsking connState = -1

// trustDoneMsg is Answer's outcome.
type trustDoneMsg struct {
	answer TrustAnswer
	err    error
}

// trustDialog asks the TrustPrompt: y trusts, n or esc does not. Enter
// answers nothing, so a key typed before the dialog appeared cannot
// trust a file.
type trustDialog struct {
	p        *TrustPrompt
	sanitize func(string) string
	answered func() // the question is answered: not to be asked again
}

func (d *trustDialog) Update(msg tea.Msg, _ *KeyMap) (bool, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil
	}
	var trust bool
	switch strings.ToLower(km.String()) {
	case "y":
		trust = true
	case "n", "esc":
	default:
		return false, nil
	}
	d.answered()
	answer := d.p.Answer
	return true, func() tea.Msg {
		a, err := answer(trust)
		return trustDoneMsg{answer: a, err: err}
	}
}

func (d *trustDialog) View(st Styles, w int) string {
	// The file, the server and its command line come from the
	// repository: sanitised like any server text.
	md := &modal{title: d.sanitize(d.p.Title), text: d.sanitize(d.p.Text), yesLabel: "y trust", noLabel: "n/esc don't"}
	return md.View(st, w)
}

// askTrust opens the trust question, if one is still unanswered, before
// anything connects (and again when a dialog opened over it, the quit
// confirmation, closes).
func (m *Model) askTrust() {
	if m.opts.Trust == nil {
		return
	}
	m.conn = connAsking
	m.modal = &trustDialog{p: m.opts.Trust, sanitize: m.opts.Sanitize, answered: func() { m.opts.Trust = nil }}
}

// onTrustDone connects as the answer says, and restores the draft of the
// server it connects to.
func (m *Model) onTrustDone(msg trustDoneMsg) tea.Cmd {
	if msg.err != nil {
		err := msg.err
		m.opts.Connect = func(context.Context) (Session, error) { return nil, err }
		m.conn, m.connErr = connFailed, err
		return m.loadDraftCmd()
	}
	a := msg.answer
	m.opts.Connect = a.Connect
	if a.Target != "" {
		m.opts.Target = a.Target
	}
	if a.DraftKey != "" {
		m.opts.DraftKey = a.DraftKey
	}
	if a.History != nil {
		m.opts.History = a.History
	}
	cmds := []tea.Cmd{m.connectCmd(), m.loadDraftCmd(), m.results.spinner.Tick}
	if a.Notice != "" {
		cmds = append(cmds, m.setFlash(m.opts.Sanitize(a.Notice), false))
	}
	return tea.Batch(cmds...)
}
