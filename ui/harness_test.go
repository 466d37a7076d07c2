package ui

import (
	"reflect"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/ui/internal/uitest"
)

// harness drives a Model the way the Bubble Tea runtime does: Update, then
// every returned Cmd on its own goroutine, its message fed back to Update.
// Tests wait for the message they expect instead of sleeping, so they do not
// depend on timing.
type harness struct {
	t       testing.TB
	m       *Model
	results chan tea.Msg
	quit    bool
	seen    []tea.Msg
	// patience is how long waitFor waits; 0 is 30 s. Benchmarks on tens
	// of thousands of tools need longer on a loaded machine.
	patience time.Duration
}

func newHarness(t testing.TB, opts Options, w, h int) *harness {
	hs := &harness{t: t, m: New(opts), results: make(chan tea.Msg, 1024)}
	hs.exec(hs.m.Init())
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	return hs
}

func (h *harness) send(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.exec(cmd)
}

func (h *harness) exec(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { h.results <- cmd() }()
}

// dispatch handles one Cmd result like the runtime: batches fan out,
// sequences run in order, spinner ticks are dropped (they would tick forever).
func (h *harness) dispatch(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, spinner.TickMsg:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			h.exec(c)
		}
		return
	case tea.QuitMsg:
		h.quit = true
		return
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		cmds := make([]tea.Cmd, v.Len())
		for i := range cmds {
			cmds[i] = v.Index(i).Interface().(tea.Cmd)
		}
		go func() {
			for _, c := range cmds {
				if c != nil {
					h.results <- c()
				}
			}
		}()
		return
	}
	h.seen = append(h.seen, msg)
	h.send(msg)
}

// waitFor processes Cmd results until one satisfies pred.
func (h *harness) waitFor(what string, pred func(tea.Msg) bool) tea.Msg {
	h.t.Helper()
	patience := h.patience
	if patience <= 0 {
		patience = 30 * time.Second
	}
	deadline := time.After(patience)
	for {
		select {
		case msg := <-h.results:
			h.dispatch(msg)
			if pred(msg) {
				return msg
			}
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, h.screen())
			return nil
		}
	}
}

// waitUntil processes results until cond holds on the model.
func (h *harness) waitUntil(what string, cond func(*Model) bool) {
	h.t.Helper()
	if cond(h.m) {
		return
	}
	h.waitFor(what, func(tea.Msg) bool { return cond(h.m) })
}

func msgIs[T any](msg tea.Msg) bool { _, ok := msg.(T); return ok }

// ready connects, loads the tokenizer and waits for the counts.
func (h *harness) ready() {
	h.t.Helper()
	h.waitUntil("connected with counts", func(m *Model) bool {
		return m.conn == connReady && m.reports[m.enc] != nil && m.schema.have == m.schema.want && m.schema.have.tool != "" && m.schema.have.counted
	})
}

func (h *harness) key(s string) {
	h.send(keyMsg(s))
}

// press sends a key whose effect goes through a pane's request to the root
// (a message like every other reply) and waits until cond holds.
func (h *harness) press(s, what string, cond func(*Model) bool) {
	h.t.Helper()
	h.key(s)
	h.waitUntil(what, cond)
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		if r == '\n' {
			h.send(tea.KeyPressMsg{Code: tea.KeyEnter})
			continue
		}
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// keyMsg builds a key press from its String() form.
func keyMsg(s string) tea.KeyPressMsg { return uitest.Key(s) }

// screen is the current frame without styling.
func (h *harness) screen() string { return ansi.Strip(h.m.render()) }
