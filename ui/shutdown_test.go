package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A signal's ShutdownMsg quits at once and writes the draft as it stands,
// the last keystroke included, before the program ends: no autosave tick
// needs to have run.
func TestShutdownWritesDraft(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.key("2")
	h.typeText(`(echo "last words")`)
	h.send(ShutdownMsg{})
	h.waitFor("quit", msgIs[tea.QuitMsg])
	if d, _ := e.drafts.Load("test"); !strings.Contains(d, `(echo "last words")`) {
		t.Errorf("draft after the shutdown: %q", d)
	}
}

// FlushDraft, which mcpterm calls once the program has stopped however it
// stopped, writes what the composer holds.
func TestFlushDraftAfterStop(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.key("2")
	h.typeText(`(echo "typed just now")`)
	if err := h.m.FlushDraft(); err != nil {
		t.Fatal(err)
	}
	if d, _ := e.drafts.Load("test"); d != h.m.composer.Value() || !strings.Contains(d, "typed just now") {
		t.Errorf("draft %q, composer %q", d, h.m.composer.Value())
	}
}

// The autosave is a throttle: one tick at a time, so steady typing is
// written every autosaveDelay instead of waiting for a pause.
func TestAutosaveThrottles(t *testing.T) {
	m := New(demoEnv(t).opts)
	if m.autosaveCmd() == nil {
		t.Fatal("the first edit schedules no write")
	}
	if m.autosaveCmd() != nil {
		t.Error("a second tick while one is pending: steady typing would never be written")
	}
	m.Update(draftTickMsg{t: ticket{kind: kindDraft, seq: m.tickets.newest[kindDraft]}})
	if m.autosaveCmd() == nil {
		t.Error("no tick after the pending one fired")
	}
}
