package ui

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// Completions as you type in the prompt-argument and resource-template
// forms: the server's completion/complete suggestions for the focused
// field, shown under it. The form asks the root (its inbox) when the field
// or its text changes; the root waits for typing to pause (completeDelay),
// asks the session in a Cmd, and hands the answer back to the form if it
// still answers what the form shows (tickets drop the rest).

// completer is the session's completion/complete (session/complete.go). A
// Session without it gets no suggestions.
type completer interface {
	CanComplete() bool
	Complete(ctx context.Context, ref session.CompleteRef, arg, value string, filled map[string]string) (*session.Completion, error)
}

// completeDelay is the pause in typing after which a field is completed:
// a request per key would pile up behind fast typing.
const completeDelay = 150 * time.Millisecond

// maxSuggestionsShown is how many suggestions show under a field at once.
const maxSuggestionsShown = 6

// completeWant is one completion request: field of the form (the
// argument arg) at value, with the other fields filled as they are.
type completeWant struct {
	ref    session.CompleteRef
	field  int
	arg    string
	value  string
	filled map[string]string
}

type (
	// completeWantMsg: the form's field or text changed (form → root).
	completeWantMsg struct{ w completeWant }
	// completeTickMsg: typing paused; ask the server.
	completeTickMsg struct {
		t ticket
		w completeWant
	}
	// completionMsg: the server's suggestions.
	completionMsg struct {
		t   ticket
		w   completeWant
		c   *session.Completion
		err error
	}
)

func (m completeTickMsg) answers() ticket { return m.t }
func (m completionMsg) answers() ticket   { return m.t }

// completingForm is a form whose fields the server completes.
type completingForm struct {
	*modal
	inbox
	ref      session.CompleteRef
	names    []string // the argument (or variable) name of each field
	sanitize func(string) string
	st       Styles

	// What shows under field `field`: suggestions for its text `value`.
	shown bool
	field int
	value string
	sugg  []string
	more  bool
	pick  int
	err   string
}

// completing makes f a form that the server completes, when it can.
func (m *Model) completing(f *modal, ref session.CompleteRef, names []string) dialog {
	c, ok := m.sess.(completer)
	if !ok || !c.CanComplete() || len(names) != len(f.fields) {
		return f
	}
	cf := &completingForm{modal: f, ref: ref, names: names, sanitize: m.opts.Sanitize, st: *m.styles}
	f.under = cf.under
	cf.want() // the first field's suggestions before anything is typed
	return cf
}

// want asks for the focused field's suggestions.
func (f *completingForm) want() {
	filled := map[string]string{}
	for i, in := range f.fields {
		if i != f.active && in.Value() != "" {
			filled[f.names[i]] = in.Value()
		}
	}
	f.ask(completeWantMsg{w: completeWant{ref: f.ref, field: f.active, arg: f.names[f.active], value: f.fields[f.active].Value(), filled: filled}})
}

// Update takes the suggestion keys while suggestions show, and otherwise
// is the form, asking for suggestions whenever the field or its text
// changes.
func (f *completingForm) Update(msg tea.Msg, keys *KeyMap) (bool, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok && f.shown && f.field == f.active {
		switch {
		case len(f.sugg) > 0 && key.Matches(km, keys.SuggestAccept):
			v := oneLine(f.sanitize(f.sugg[f.pick]))
			f.fields[f.active].SetValue(v)
			f.fields[f.active].CursorEnd()
			f.shown = false
			f.want()
			return false, nil
		case len(f.sugg) > 0 && key.Matches(km, keys.SuggestNext):
			f.pick = (f.pick + 1) % len(f.sugg)
			return false, nil
		case len(f.sugg) > 0 && key.Matches(km, keys.SuggestPrev):
			f.pick = (f.pick + len(f.sugg) - 1) % len(f.sugg)
			return false, nil
		case key.Matches(km, keys.SuggestClose):
			f.shown = false
			return false, nil
		}
	}
	active, value := f.active, f.fields[f.active].Value()
	done, cmd := f.modal.Update(msg, keys)
	if done {
		return true, cmd
	}
	if f.active != active {
		f.shown = false
	}
	if f.active != active || f.fields[f.active].Value() != value {
		f.want()
	}
	return false, cmd
}

// apply shows a completion if it is for the field and text the form shows.
func (f *completingForm) apply(msg completionMsg) {
	w := msg.w
	if w.ref != f.ref || w.field != f.active || w.value != f.fields[f.active].Value() {
		return
	}
	f.field, f.value, f.pick, f.err = w.field, w.value, 0, ""
	f.sugg, f.more = nil, false
	if msg.err != nil {
		f.err = firstLine(msg.err.Error())
	} else if msg.c != nil {
		f.sugg, f.more = msg.c.Values, msg.c.HasMore || msg.c.Total > len(msg.c.Values)
	}
	// An empty answer shows nothing; the only suggestion being what is
	// already typed shows nothing either.
	f.shown = f.err != "" || (len(f.sugg) > 0 && !(len(f.sugg) == 1 && f.sugg[0] == w.value))
}

// under draws the suggestions below the focused field.
func (f *completingForm) under(i, width int) string {
	if !f.shown || i != f.field || i != f.active {
		return ""
	}
	st := f.st
	if f.err != "" {
		return st.Error.Render(widget.Truncate("suggestions: "+oneLine(f.sanitize(f.err)), width))
	}
	from := 0
	if f.pick >= maxSuggestionsShown {
		from = f.pick - maxSuggestionsShown + 1
	}
	to := min(from+maxSuggestionsShown, len(f.sugg))
	var rows []string
	for j := from; j < to; j++ {
		text := widget.Truncate("  "+oneLine(f.sanitize(f.sugg[j])), width)
		if j == f.pick {
			rows = append(rows, st.Selected.Render(widget.PadRight(text, width)))
		} else {
			rows = append(rows, st.Text.Render(text))
		}
	}
	note := "tab takes it · ↑↓ choose · esc hides"
	if rest := len(f.sugg) - (to - from); rest > 0 || f.more {
		note = fmt.Sprintf("%d of %d", to-from, len(f.sugg))
		if f.more {
			note += "+"
		}
		note += " · tab takes it · ↑↓ choose"
	}
	rows = append(rows, st.Muted.Render(widget.Truncate(note, width)))
	return strings.Join(rows, "\n")
}

// onComplete runs the completion requests: the pause, then the request,
// then the answer to the form that asked.
func (m *Model) onComplete(msg tea.Msg) tea.Cmd {
	c, ok := m.sess.(completer)
	if !ok {
		return nil
	}
	switch msg := msg.(type) {
	case completeWantMsg:
		t, w := m.issue(kindSuggTick, false), msg.w
		return tea.Tick(completeDelay, func(time.Time) tea.Msg { return completeTickMsg{t: t, w: w} })
	case completeTickMsg:
		t, w := m.issue(kindSuggest, false), msg.w
		w.filled = maps.Clone(w.filled)
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := c.Complete(ctx, w.ref, w.arg, w.value, w.filled)
			return completionMsg{t: t, w: w, c: res, err: err}
		}
	case completionMsg:
		if f, ok := m.modal.(*completingForm); ok {
			f.apply(msg)
		}
	}
	return nil
}

// completingTemplate is the variables form of resource template tpl,
// completed by the server (ref/resource).
func (m *Model) completingTemplate(f *modal, tpl string, vars []string) dialog {
	return m.completing(f, session.CompleteRef{URI: tpl}, vars)
}

// completingPrompt is the arguments form of prompt name, completed by the
// server (ref/prompt).
func (m *Model) completingPrompt(f *modal, name string, args []string) dialog {
	return m.completing(f, session.CompleteRef{Prompt: name}, args)
}
