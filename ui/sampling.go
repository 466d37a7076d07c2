package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/session"
)

// The sampling dialog: a server asks its client for an LLM reply
// (sampling/createMessage); the workbench has a person, so the person
// reads the request and writes the reply — or declines. Human in the loop
// is the spec's advice for sampling; here it is the only way.

// stopReasons are what the person can say made the reply stop.
var stopReasons = []string{"endTurn", "maxTokens", "stopSequence"}

// samplingField is what has focus in the dialog.
type samplingField int

const (
	fieldReply samplingField = iota
	fieldModel
	fieldStop
	fieldRequest
	numSamplingFields
)

type samplingDialog struct {
	req    *askRequest
	server string // sanitised, one line
	lines  []samplingLine
	scroll int

	reply textarea.Model
	model textinput.Model
	stop  int // index in stopReasons
	focus samplingField
	done  bool

	// size is the screen's, read at View (a dialog gets keys only).
	size func() (w, h int)
	hint string // the keys, from the KeyMap
}

// openSampling shows a server's sampling request in a modal, or queues it
// behind the one open now.
func (m *Model) openSampling(r *askRequest) tea.Cmd {
	return m.presentAsk(newSamplingDialog(*m.styles, &m.keys, r, m.opts.Sanitize, func() (int, int) { return m.width, m.height }))
}

func newSamplingDialog(st Styles, k *KeyMap, r *askRequest, sanitize func(string) string, size func() (int, int)) *samplingDialog {
	p := r.sample.CreateMessageParams
	d := &samplingDialog{req: r, server: oneLine(sanitize(r.server)), lines: describeSampling(p, sanitize), size: size}
	d.hint = strings.Join([]string{
		k.SamplingSend.Help().Key + " send", k.SamplingDecline.Help().Key + " decline",
		k.SamplingNext.Help().Key + " next field", k.SamplingStopPrev.Help().Key + "/→ stop reason",
		k.SamplingScrollUp.Help().Key + "/" + k.SamplingScrollDown.Help().Key + " scroll",
	}, " · ")
	d.reply = textarea.New()
	d.reply.ShowLineNumbers = false
	d.reply.Prompt = "│ "
	d.reply.Placeholder = "type the reply…"
	d.reply.CharLimit = 64 << 10
	d.reply.SetStyles(textareaStyles(st))
	d.reply.Focus()
	d.model = textinput.New()
	d.model.Prompt = ""
	d.model.CharLimit = 200
	d.model.SetStyles(st.Input)
	name := "human"
	if p.ModelPreferences != nil {
		if hints := modelHints(p.ModelPreferences); len(hints) > 0 {
			name = oneLine(sanitize(hints[0]))
		}
	}
	d.model.SetValue(name)
	return d
}

// textareaStyles dresses the reply area like the workbench's text inputs.
func textareaStyles(st Styles) textarea.Styles {
	s := textarea.DefaultDarkStyles()
	plain := lipgloss.NewStyle()
	s.Focused = textarea.StyleState{Base: plain, Text: st.Input.Focused.Text, CursorLine: plain, Placeholder: st.Input.Focused.Placeholder, Prompt: st.Input.Focused.Prompt, EndOfBuffer: st.Input.Blurred.Prompt, LineNumber: plain, CursorLineNumber: plain}
	s.Blurred = textarea.StyleState{Base: plain, Text: st.Input.Blurred.Text, CursorLine: plain, Placeholder: st.Input.Blurred.Placeholder, Prompt: st.Input.Blurred.Prompt, EndOfBuffer: st.Input.Blurred.Prompt, LineNumber: plain, CursorLineNumber: plain}
	s.Cursor.Color = st.Input.Cursor.Color
	s.Cursor.Blink = false
	return s
}

func (d *samplingDialog) asking() *askRequest { return d.req }
func (d *samplingDialog) finished() bool      { return d.done }

// result is the reply as the server gets it.
func (d *samplingDialog) result() *mcp.CreateMessageResult {
	model := strings.TrimSpace(d.model.Value())
	if model == "" {
		model = "human"
	}
	res := &mcp.CreateMessageResult{Model: model, StopReason: stopReasons[d.stop]}
	res.Role = mcp.RoleAssistant
	res.Content = mcp.NewTextContent(d.reply.Value())
	return res
}

func (d *samplingDialog) Update(msg tea.Msg, k *KeyMap) (bool, tea.Cmd) {
	if p, ok := msg.(tea.PasteMsg); ok {
		var cmd tea.Cmd
		switch d.focus {
		case fieldReply:
			d.reply, cmd = d.reply.Update(p)
		case fieldModel:
			d.model, cmd = d.model.Update(p)
		}
		return false, cmd
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil
	}
	switch {
	case key.Matches(km, k.SamplingSend):
		d.done = true
		res := d.result()
		d.req.answer(askReply{sample: res})
		note := fmt.Sprintf("sampling: sent the reply as %q (%s)", res.Model, res.StopReason)
		return true, func() tea.Msg { return askEventMsg{note: note} }
	case key.Matches(km, k.SamplingDecline):
		d.done = true
		d.req.answer(askReply{err: session.ErrDeclined})
		note := "sampling: declined the request"
		return true, func() tea.Msg { return askEventMsg{note: note} }
	case key.Matches(km, k.SamplingNext):
		return false, d.setFocus((d.focus + 1) % numSamplingFields)
	case key.Matches(km, k.SamplingPrev):
		return false, d.setFocus((d.focus + numSamplingFields - 1) % numSamplingFields)
	case key.Matches(km, k.SamplingScrollUp):
		d.scroll -= max(d.rows()-1, 1)
		return false, nil
	case key.Matches(km, k.SamplingScrollDown):
		d.scroll += max(d.rows()-1, 1)
		return false, nil
	}
	var cmd tea.Cmd
	switch d.focus {
	case fieldReply:
		d.reply, cmd = d.reply.Update(km)
	case fieldModel:
		d.model, cmd = d.model.Update(km)
	case fieldStop:
		switch {
		case key.Matches(km, k.SamplingStopNext):
			d.stop = (d.stop + 1) % len(stopReasons)
		case key.Matches(km, k.SamplingStopPrev):
			d.stop = (d.stop + len(stopReasons) - 1) % len(stopReasons)
		}
	case fieldRequest:
		switch {
		case key.Matches(km, k.Up):
			d.scroll--
		case key.Matches(km, k.Down):
			d.scroll++
		case key.Matches(km, k.Top):
			d.scroll = 0
		case key.Matches(km, k.Bottom):
			d.scroll = len(d.lines)
		}
	}
	return false, cmd
}

func (d *samplingDialog) setFocus(f samplingField) tea.Cmd {
	d.focus = f
	d.reply.Blur()
	d.model.Blur()
	switch f {
	case fieldReply:
		return d.reply.Focus()
	case fieldModel:
		return d.model.Focus()
	}
	return nil
}

// layout is the dialog's geometry for the screen now: the box's width,
// the request's rows and the reply's.
func (d *samplingDialog) layout() (bw, reqRows, replyRows int) {
	w, h := d.size()
	bw = clamp(w-4, 30, 110)
	// Inside the border: title, blank, request, position, blank, label,
	// reply, blank, model and stop, blank, keys — leaving the header's two
	// lines above the box uncovered.
	const fixed = 9
	inner := max(h-6, 14)
	replyRows = clamp((inner-fixed)/3, 2, 8)
	reqRows = max(inner-fixed-replyRows, 2)
	return bw, reqRows, replyRows
}

func (d *samplingDialog) rows() int {
	_, r, _ := d.layout()
	return r
}

func (d *samplingDialog) View(st Styles, w int) string {
	bw, reqRows, replyRows := d.layout()
	box := st.Modal.Padding(0, 1)
	iw := bw - box.GetHorizontalFrameSize()
	var b strings.Builder
	b.WriteString(ansi.Truncate(st.ModalTitle.Render("Sampling request")+st.Muted.Render(" · "+d.server+" asks for a model's reply"), iw, "…"))
	b.WriteString("\n\n")

	// The request, wrapped to the box and scrolled.
	var lines []string
	for _, l := range d.lines {
		if l.head {
			for _, wl := range strings.Split(ansi.Wrap(l.text, iw, ""), "\n") {
				lines = append(lines, st.PaneTitle.Render(wl))
			}
			continue
		}
		// Text under a heading keeps its indent when it wraps.
		for _, wl := range strings.Split(ansi.Wrap(strings.TrimPrefix(l.text, "  "), max(iw-2, 8), ""), "\n") {
			lines = append(lines, "  "+wl)
		}
	}
	rows := min(reqRows, len(lines))
	d.scroll = clamp(d.scroll, 0, max(len(lines)-rows, 0))
	b.WriteString(strings.Join(lines[d.scroll:d.scroll+rows], "\n"))
	b.WriteString("\n")
	pos := "end of request"
	if len(lines) > rows {
		pos = fmt.Sprintf("lines %d–%d of %d · pgup/pgdn scroll", d.scroll+1, d.scroll+rows, len(lines))
	}
	if d.focus == fieldRequest {
		pos = "▸ " + pos + " · ↑/↓"
	}
	b.WriteString(st.Muted.Render(pos))
	b.WriteString("\n\n")

	label := func(f samplingField, s string) string {
		if d.focus == f {
			return st.PaneTitle.Render(s)
		}
		return st.Muted.Render(s)
	}
	b.WriteString(label(fieldReply, "Your reply (the server takes it as the model's answer)"))
	b.WriteString("\n")
	d.reply.SetWidth(iw)
	d.reply.SetHeight(replyRows)
	b.WriteString(d.reply.View())
	b.WriteString("\n\n")

	stop := "‹ " + stopReasons[d.stop] + " ›"
	if d.focus == fieldStop {
		stop = st.PaneTitle.Render(stop)
	}
	right := label(fieldStop, "stop reason ") + stop
	d.model.SetWidth(max(iw-lipgloss.Width(right)-lipgloss.Width("model ")-4, 8))
	b.WriteString(label(fieldModel, "model ") + d.model.View() + "  " + right)
	b.WriteString("\n\n")
	b.WriteString(ansi.Truncate(st.Muted.Render(d.hint), iw, "…"))
	return box.Width(bw).Render(b.String())
}
