package ui

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/session"
	"github.com/mcpterm/mcpterm/session/demo"
)

// trustEnv is the demo workbench behind a trust question: Connect is the
// untrusted server's (it must never be called), the answer connects to
// the demo server or, for "no" without a fallback, fails.
type trustEnv struct {
	*env
	untrusted, answers atomic.Int64
	trusted            atomic.Bool
}

const hostileTrustText = "Server \"github\" comes from the project config ~/repo/.mcp.json\x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\, which you have not trusted.\n\nIt would run:\n  sh -c 'echo PWNED'"

func newTrustEnv(t *testing.T, fallback bool) *trustEnv {
	t.Helper()
	e := &trustEnv{env: demoEnv(t)}
	e.opts.Connect = func(context.Context) (Session, error) {
		e.untrusted.Add(1)
		return nil, errors.New("the untrusted server was started")
	}
	e.opts.Trust = &TrustPrompt{
		Title: "Trust this project's MCP config?",
		Text:  hostileTrustText,
		Answer: func(trust bool) (TrustAnswer, error) {
			e.answers.Add(1)
			e.trusted.Store(trust)
			if !trust && !fallback {
				return TrustAnswer{}, errors.New("not connected: you chose not to trust ~/repo/.mcp.json")
			}
			srv := demo.New(demo.Options{Seed: 7, Now: func() time.Time { return demoClock }})
			src := session.Source{Kind: session.InProcess, Name: "demo", Server: srv}
			return TrustAnswer{
				Connect:  func(ctx context.Context) (Session, error) { return session.Open(ctx, src, session.Options{}) },
				Target:   "the answer's server",
				DraftKey: "answered",
				Notice:   "connecting to the answer's server",
			}, nil
		},
	}
	return e
}

// The question is asked before anything connects; enter answers nothing;
// y connects to what the answer says, never to the untrusted server.
func TestTrustDialogAsksBeforeConnecting(t *testing.T) {
	e := newTrustEnv(t, true)
	h := newHarness(t, e.opts, 100, 30)
	if _, ok := h.m.modal.(*trustDialog); !ok || h.m.conn != connAsking {
		t.Fatalf("no trust dialog at start: modal %T, conn %v", h.m.modal, h.m.conn)
	}
	screen := h.screen()
	for _, want := range []string{"Trust this project's MCP config?", "sh -c 'echo PWNED'", "y trust", "n/esc don't", "not connected: trust?"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	for _, k := range []string{"enter", "r", "q", "j"} {
		h.key(k)
	}
	if _, ok := h.m.modal.(*trustDialog); !ok || e.answers.Load() != 0 {
		t.Fatalf("a key other than y/n answered: modal %T, %d answers", h.m.modal, e.answers.Load())
	}
	h.key("y")
	h.waitUntil("connected", func(m *Model) bool { return m.conn == connReady })
	if e.untrusted.Load() != 0 || e.answers.Load() != 1 || !e.trusted.Load() {
		t.Fatalf("untrusted connects %d, answers %d, trusted %v", e.untrusted.Load(), e.answers.Load(), e.trusted.Load())
	}
	if h.m.opts.DraftKey != "answered" || h.m.modal != nil {
		t.Errorf("draft key %q, modal %T", h.m.opts.DraftKey, h.m.modal)
	}
}

// n with nothing else to connect to leaves the workbench not connected,
// saying why; the untrusted server never starts.
func TestTrustDialogNo(t *testing.T) {
	e := newTrustEnv(t, false)
	h := newHarness(t, e.opts, 100, 30)
	h.key("n")
	h.waitUntil("the answer", func(m *Model) bool { return m.conn == connFailed })
	if screen := h.screen(); !strings.Contains(screen, "you chose not to trust ~/repo/.mcp.json") {
		t.Errorf("the refusal is not shown:\n%s", screen)
	}
	h.key("r") // retry: the same refusal, still nothing started
	h.waitUntil("the retry", func(m *Model) bool { return m.conn == connFailed })
	if e.untrusted.Load() != 0 || e.answers.Load() != 1 || e.trusted.Load() {
		t.Errorf("untrusted connects %d, answers %d", e.untrusted.Load(), e.answers.Load())
	}
}

// ctrl+c while asking quits; the quit dialog closing gives the question
// back.
func TestTrustDialogQuit(t *testing.T) {
	e := newTrustEnv(t, true)
	h := newHarness(t, e.opts, 100, 30)
	h.m.composer.dirty = true // so the quit asks first
	h.key("ctrl+c")
	if md, ok := h.m.modal.(*modal); !ok || md.title != quitTitle {
		t.Fatalf("modal %T", h.m.modal)
	}
	h.key("n")
	h.waitUntil("the question back", func(m *Model) bool { _, ok := m.modal.(*trustDialog); return ok })
	h.key("ctrl+c")
	h.key("ctrl+c")
	h.waitFor("quit", func(tea.Msg) bool { return h.quit })
	if e.untrusted.Load() != 0 || e.answers.Load() != 0 {
		t.Errorf("quitting answered or connected: %d %d", e.answers.Load(), e.untrusted.Load())
	}
}

// The flow in the real program: the dialog is drawn with the repository's
// text sanitised (no escape of it reaches the terminal), y connects.
func TestFlowTrustDialog(t *testing.T) {
	e := newTrustEnv(t, true)
	f := startFlow(t, New(e.opts), 100, 30)
	f.waitOutput("Trust this project's MCP config?", "y trust", "PWNED")
	f.keys("enter") // answers nothing
	f.keys("y")
	f.waitOutput("o200k", "file_read")
	f.finish()
	if e.untrusted.Load() != 0 || !e.trusted.Load() {
		t.Errorf("untrusted connects %d, trusted %v", e.untrusted.Load(), e.trusted.Load())
	}
	if out := f.all.String(); strings.Contains(out, "\x1b]8;;http") {
		t.Errorf("the dialog let the repository's escape through: %q", out)
	}
}
