package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/ui/widget"
)

// historySearch is the composer's ctrl+r: this server's past calls,
// newest first, narrowed by what is typed (every word must appear, in any
// case); enter puts the chosen one in the composer.
type historySearch struct {
	inbox    // requests of the root
	server   string
	history  []string // oldest first, as the composer keeps it
	input    textinput.Model
	matches  []int // indexes into history, newest first
	nav      widget.List
	sanitize func(string) string
}

// historyPickedMsg is the call chosen from the history.
type historyPickedMsg struct{ text string }

// maxSearchRows is how many matches the dialog lists at once.
const maxSearchRows = 10

func newHistorySearch(st Styles, server string, history []string, sanitize func(string) string) *historySearch {
	in := textinput.New()
	in.Prompt = "› "
	in.Placeholder = "words of the call"
	in.SetStyles(st.Input)
	in.CharLimit = 200
	in.SetWidth(40)
	in.Focus()
	h := &historySearch{server: server, history: history, input: in, sanitize: sanitize}
	h.nav.SetHeight(maxSearchRows)
	h.filter()
	return h
}

// filter keeps the entries holding every word typed.
func (h *historySearch) filter() {
	words := strings.Fields(strings.ToLower(h.input.Value()))
	h.matches = h.matches[:0]
	for i := len(h.history) - 1; i >= 0; i-- {
		text := strings.ToLower(h.history[i])
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(text, w)
		}
		if ok {
			h.matches = append(h.matches, i)
		}
	}
	h.nav.SetLen(len(h.matches))
	h.nav.Top()
}

func (h *historySearch) Update(msg tea.Msg, keys *KeyMap) (bool, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case km.Code == tea.KeyEscape:
			return true, nil
		case km.Code == tea.KeyEnter:
			if c := h.nav.Cursor; c < len(h.matches) {
				return true, h.ask(historyPickedMsg{text: h.history[h.matches[c]]})
			}
			return true, nil
		case km.Code == tea.KeyUp:
			h.nav.Move(-1)
			return false, nil
		case km.Code == tea.KeyDown, key.Matches(km, keys.HistSearch): // ctrl+r again: an older one
			h.nav.Move(1)
			return false, nil
		}
	}
	old := h.input.Value()
	var cmd tea.Cmd
	h.input, cmd = h.input.Update(msg)
	if h.input.Value() != old {
		h.filter()
	}
	return false, cmd
}

func (h *historySearch) View(st Styles, w int) string {
	bw := clamp(w-8, 30, 96)
	iw := bw - st.Modal.GetHorizontalFrameSize()
	h.input.SetWidth(max(iw-2, 8))
	var b strings.Builder
	b.WriteString(st.ModalTitle.Render("Search this server's calls") + st.Muted.Render(" · "+oneLine(h.sanitize(h.server))) + "\n\n")
	b.WriteString(h.input.View() + "\n\n")
	from, to := h.nav.Visible()
	if len(h.matches) == 0 {
		b.WriteString(st.Muted.Render("no call matches") + "\n")
	}
	for vi := from; vi < to; vi++ {
		text := widget.Truncate(oneLine(h.sanitize(h.history[h.matches[vi]])), iw)
		if vi == h.nav.Cursor {
			text = st.Selected.Render(widget.FitLine(ansi.Strip(text), iw))
		}
		b.WriteString(text + "\n")
	}
	b.WriteString("\n" + st.Muted.Render(fmt.Sprintf("%d of %d · enter puts it in the composer · ↑↓ or ctrl+r choose · esc closes", len(h.matches), len(h.history))))
	return st.Modal.Width(bw).Render(b.String())
}
