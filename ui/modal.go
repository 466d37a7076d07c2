package ui

import (
	"strings"

	"github.com/mcpterm/mcpterm/ui/widget"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// dialog is what the root shows over the screen: it takes every key until
// it is done, and its outcome is a message.
type dialog interface {
	Update(msg tea.Msg, keys *KeyMap) (done bool, out tea.Cmd)
	View(st Styles, w int) string
}

// modal is a dialog that takes every key until it closes: a yes/no
// confirmation (no fields) or a small form (fields). Its outcome is a
// message, so what happens next is decided by Update like everything else.
type modal struct {
	title  string
	text   string
	fields []textinput.Model
	labels []string
	active int
	// onYes builds the message sent when the user confirms; values are the
	// fields' contents.
	onYes func(values []string) tea.Msg
	onNo  tea.Msg
	// extra keys: e.g. "s" save-then-quit on the quit confirmation.
	extra    []key.Binding
	onExtra  []tea.Msg
	yesLabel string
	noLabel  string
	// under, when set, draws what goes below field i (its suggestions,
	// ui/complete.go) in width cells.
	under func(i, width int) string
}

// modalClosedMsg is sent when a modal closes without a follow-up message.
type modalClosedMsg struct{}

func newConfirm(title, text string, onYes tea.Msg) *modal {
	return &modal{title: title, text: text, onYes: func([]string) tea.Msg { return onYes }, yesLabel: "y yes", noLabel: "n no"}
}

func newForm(st Styles, title, text string, labels, values []string, onYes func([]string) tea.Msg) *modal {
	m := &modal{title: title, text: text, labels: labels, onYes: onYes, yesLabel: "enter ok", noLabel: "esc cancel"}
	for i := range labels {
		in := textinput.New()
		in.Prompt = "› "
		in.Placeholder = "type a value"
		in.SetStyles(st.Input)
		in.CharLimit = 4096
		in.SetWidth(40)
		if i < len(values) {
			in.SetValue(values[i])
		}
		m.fields = append(m.fields, in)
	}
	if len(m.fields) > 0 {
		m.fields[0].Focus()
	}
	return m
}

// Update handles a key; done reports the modal closed, msg is its outcome.
func (m *modal) Update(msg tea.Msg, keys *KeyMap) (done bool, out tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if len(m.fields) > 0 {
			var cmd tea.Cmd
			m.fields[m.active], cmd = m.fields[m.active].Update(msg)
			return false, cmd
		}
		return false, nil
	}
	send := func(msg tea.Msg) tea.Cmd {
		if msg == nil {
			return func() tea.Msg { return modalClosedMsg{} }
		}
		return func() tea.Msg { return msg }
	}
	if len(m.fields) == 0 {
		switch {
		case key.Matches(km, keys.Yes):
			return true, send(m.onYes(nil))
		case key.Matches(km, keys.No):
			return true, send(m.onNo)
		}
		for i, b := range m.extra {
			if key.Matches(km, b) {
				return true, send(m.onExtra[i])
			}
		}
		return false, nil
	}
	switch {
	case km.Code == tea.KeyEscape:
		return true, send(m.onNo)
	case km.Code == tea.KeyEnter:
		vals := make([]string, len(m.fields))
		for i, f := range m.fields {
			vals[i] = f.Value()
		}
		return true, send(m.onYes(vals))
	case key.Matches(km, keys.NextField) || km.Code == tea.KeyUp || km.String() == "shift+tab":
		m.fields[m.active].Blur()
		if km.Code == tea.KeyUp || km.String() == "shift+tab" {
			m.active = (m.active + len(m.fields) - 1) % len(m.fields)
		} else {
			m.active = (m.active + 1) % len(m.fields)
		}
		return false, m.fields[m.active].Focus()
	}
	var cmd tea.Cmd
	m.fields[m.active], cmd = m.fields[m.active].Update(km)
	return false, cmd
}

// View renders the dialog box for a screen of width w.
func (m *modal) View(st Styles, w int) string {
	bw := clamp(w-8, 30, 72)
	iw := bw - st.Modal.GetHorizontalFrameSize()
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render(m.title))
	if m.text != "" {
		b.WriteString("\n\n")
		b.WriteString(lipgloss.NewStyle().Width(iw).Render(m.text))
	}
	for i := range m.fields {
		m.fields[i].SetWidth(max(iw-2, 8))
		b.WriteString("\n\n")
		label := m.labels[i]
		if i == m.active {
			b.WriteString(st.PaneTitle.Render(label))
		} else {
			b.WriteString(st.Muted.Render(label))
		}
		b.WriteString("\n" + m.fields[i].View())
		if m.under != nil {
			if u := m.under(i, iw); u != "" {
				b.WriteString("\n" + u)
			}
		}
	}
	b.WriteString("\n\n")
	hint := m.yesLabel + " · " + m.noLabel
	for _, e := range m.extra {
		hint += " · " + e.Help().Key + " " + e.Help().Desc
	}
	if len(m.fields) > 1 {
		hint += " · tab next field"
	}
	b.WriteString(st.Muted.Render(hint))
	return st.Modal.Width(bw).Render(b.String())
}

// overlay draws box centred over base (a full screen).
func overlay(base, box string, w, h int) string {
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	x, y := max((w-bw)/2, 0), max((h-bh)/2, 0)
	c := lipgloss.NewCompositor(lipgloss.NewLayer(base), lipgloss.NewLayer(box).X(x).Y(y).Z(1))
	// The compositor drops trailing blanks; the frame stays w by h.
	return widget.FitBlock(c.Render(), w, h)
}
