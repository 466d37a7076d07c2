package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestComposeTemplateAndValidation(t *testing.T) {
	h := readyHarness(t, 120, 40)
	h.press("enter", "the template", func(m *Model) bool { return m.focus == focusComposer }) // file_read
	if h.m.focus != focusComposer || !strings.Contains(h.m.composer.Value(), `"file_read"`) {
		t.Fatalf("enter did not open a template: focus %v, text %q", h.m.focus, h.m.composer.Value())
	}
	h.waitUntil("template checked", func(m *Model) bool { return m.composer.checked == m.composer.seq })
	if h.m.composer.check.err != nil {
		t.Fatalf("template does not parse: %v", h.m.composer.check.err)
	}
	// Break it: the check must say what and where.
	h.m.composer.setText(`(file_read "x"`)
	h.exec(h.m.checkCmd())
	h.waitUntil("error", func(m *Model) bool { return m.composer.checked == m.composer.seq })
	if h.m.composer.check.err == nil || h.m.composer.check.pos.Line != 1 {
		t.Fatalf("unbalanced S-expression: err %v at %v", h.m.composer.check.err, h.m.composer.check.pos)
	}
	if s := h.screen(); !strings.Contains(s, "✗ 1:") {
		t.Errorf("the error and its position are not shown:\n%s", s)
	}
	h.m.composer.setText(`{"name": "file_read", "arguments": {"path": "a.txt"}}`)
	h.exec(h.m.checkCmd())
	h.waitUntil("valid", func(m *Model) bool { return m.composer.checked == m.composer.seq })
	s := h.screen()
	if !strings.Contains(s, "✓ call file_read (path)") || !strings.Contains(s, "tok") {
		t.Errorf("valid call not reported with counts:\n%s", s)
	}
}

func TestRunCallShowsResult(t *testing.T) {
	b := newFakeBackend()
	opts, _, st := fakeOptions(b)
	h := newHarness(t, opts, 120, 40)
	h.ready()
	h.press("enter", "the template", func(m *Model) bool { return m.focus == focusComposer })
	h.m.composer.setText(`{"name": "file_read", "arguments": {"path": "a.txt"}}`)
	h.key("ctrl+r")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have == m.results.want && m.results.have.runID == 1 })
	calls := b.callLog()
	if len(calls) != 1 || calls[0].Tool != "file_read" || calls[0].Arguments.Get("path").StringOr("") != "a.txt" {
		t.Fatalf("calls made: %+v", calls)
	}
	s := h.screen()
	if !strings.Contains(s, "✓ 1 ok") || !strings.Contains(s, "args:") {
		t.Errorf("result not shown:\n%s", s)
	}
	if strings.Contains(s, "# file_read") {
		t.Errorf("markdown was not rendered (raw heading shown):\n%s", s)
	}
	h.waitUntil("history", func(*Model) bool { st.mu.Lock(); defer st.mu.Unlock(); return len(st.history) == 1 })
	// The (ok ...) toggle: the fallback codec says it cannot, and still shows the result.
	h.key("esc")
	h.send(tea.KeyPressMsg{Code: 'o', Text: "o"})
	if h.m.focus == focusResults {
		h.waitUntil("rerendered", func(m *Model) bool { return m.results.have.term })
		if !strings.Contains(h.screen(), "(ok ...) form unavailable") {
			t.Errorf("term toggle:\n%s", h.screen())
		}
	}
}

func TestDestructiveCallAsksFirst(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, 120, 40)
	h.ready()
	h.key("2")
	h.m.composer.setText(`{"name": "delete_todo", "arguments": {"id": "t1"}}`)
	h.press("ctrl+r", "the confirmation", func(m *Model) bool { return m.modal != nil })
	if h.m.modal == nil || !strings.Contains(h.screen(), "destructive") {
		t.Fatalf("no confirmation for a destructive tool:\n%s", h.screen())
	}
	h.key("n")
	if h.m.modal != nil || len(h.m.runs) != 0 || len(b.callLog()) != 0 {
		t.Fatalf("n did not cancel: modal %v runs %d calls %d", h.m.modal != nil, len(h.m.runs), len(b.callLog()))
	}
	h.press("ctrl+r", "the confirmation", func(m *Model) bool { return m.modal != nil })
	h.key("y")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 1 })
	if s := h.screen(); !strings.Contains(s, "isError") || !strings.Contains(s, "1 failed") {
		t.Errorf("isError not marked:\n%s", s)
	}
}

func TestCancelRunningCall(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, 120, 40)
	h.ready()
	h.key("2")
	h.m.composer.setText(`{"name": "slow_task"}`)
	h.press("ctrl+r", "the run", func(m *Model) bool { return m.running() })
	if !h.m.running() {
		t.Fatal("run did not start")
	}
	h.waitUntil("progress", func(m *Model) bool { r := m.results.current(); return r != nil && r.total == 4 })
	if s := h.screen(); !strings.Contains(s, "running") || !strings.Contains(s, "1/4") || !strings.Contains(s, "esc cancels") {
		t.Errorf("running call without spinner/progress:\n%s", s)
	}
	h.key("esc")
	h.waitFor("call done", msgIs[callDoneMsg])
	if h.quit || h.m.quitting {
		t.Fatal("esc quit the app")
	}
	if r := h.m.results.current(); !r.cancelled {
		t.Errorf("run not marked cancelled")
	}
	if !strings.Contains(h.screen(), "cancelled") {
		t.Errorf("cancel not shown:\n%s", h.screen())
	}
}

func TestBatchRunsEveryCall(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, 120, 40)
	h.ready()
	h.key("2")
	h.m.composer.setText(`[{"name": "file_read", "arguments": {"path": "a"}}, {"name": "create_todo", "arguments": {"title": "x"}}, {"name": "file_read", "arguments": {"path": "b"}}]`)
	h.key("ctrl+r")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 1 })
	if n := len(b.callLog()); n != 3 {
		t.Fatalf("batch made %d calls, want 3", n)
	}
	s := h.screen()
	if !strings.Contains(s, "2 ok") || !strings.Contains(s, "1 failed") || !strings.Contains(s, "connection reset") {
		t.Errorf("batch outcome:\n%s", s)
	}
}

func TestCompletion(t *testing.T) {
	h := readyHarness(t, 120, 40)
	h.key("2")
	h.typeText("(file_")
	h.key("tab")
	if got := h.m.composer.Value(); got != "(file_read " {
		t.Fatalf("tool completion: %q", got)
	}
	h.typeText(`"a" :`)
	h.key("tab")
	if c := strings.Join(h.m.composer.completions, " "); c != ":utf8 :base64 :offset :encoding" {
		t.Errorf("parameter candidates: %q", c)
	}
	h.typeText("enc")
	h.key("tab")
	h.key("tab")
	if c := strings.Join(h.m.composer.completions, " "); c != ":utf8 :base64" {
		t.Errorf("enum candidates after :encoding: %q (text %q)", c, h.m.composer.Value())
	}
	h.typeText("b")
	h.key("tab")
	if got := h.m.composer.Value(); got != `(file_read "a" :encoding :base64 ` {
		t.Errorf("enum completion: %q", got)
	}
}

func TestHistoryAndDraft(t *testing.T) {
	b := newFakeBackend()
	opts, _, st := fakeOptions(b)
	st.draft = `{"name": "file_read", "arguments": {"path": "kept"}}`
	st.history = []string{`{"name": "file_read", "arguments": {"path": "old"}}`}
	h := newHarness(t, opts, 120, 40)
	h.ready()
	h.waitUntil("draft", func(m *Model) bool { return strings.Contains(m.composer.Value(), "kept") })
	h.key("2")
	h.key("ctrl+home")
	h.key("up")
	if !strings.Contains(h.m.composer.Value(), "old") {
		t.Fatalf("up at the first line did not recall history: %q", h.m.composer.Value())
	}
	h.key("ctrl+end")
	h.key("down")
	if !strings.Contains(h.m.composer.Value(), "kept") {
		t.Fatalf("down past the newest entry did not restore the draft: %q", h.m.composer.Value())
	}
	h.typeText("x")
	h.waitUntil("autosave", func(*Model) bool { return strings.HasSuffix(st.Draft(), "x") })
}

func TestSaveAndOpenFiles(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	files := map[string]string{"/w/in.mcpt": `{"name": "file_read", "arguments": {"path": "from-file"}}`}
	opts.WorkingDir = "/w"
	opts.WriteFile = func(p string, d []byte) error { files[p] = string(d); return nil }
	opts.ReadFile = func(p string) ([]byte, error) {
		if s, ok := files[p]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}
	h := newHarness(t, opts, 120, 40)
	h.ready()
	h.key("2")
	h.press("ctrl+o", "the open dialog", func(m *Model) bool { return m.modal != nil })
	h.typeText("in.mcpt")
	h.key("enter")
	h.waitFor("opened", msgIs[fileOpenedMsg])
	if !strings.Contains(h.m.composer.Value(), "from-file") {
		t.Fatalf("open: %q", h.m.composer.Value())
	}
	h.typeText(" ")
	h.press("ctrl+s", "the save dialog", func(m *Model) bool { return m.modal != nil })
	for range "call.mcpt" {
		h.key("backspace")
	}
	h.typeText("out.mcpt")
	h.key("enter")
	h.waitFor("saved", msgIs[fileSavedMsg])
	if !strings.Contains(files["/w/out.mcpt"], "from-file") || h.m.composer.dirty {
		t.Errorf("save: files %v dirty %v", files, h.m.composer.dirty)
	}
}

func TestRunOfflineSaysWhy(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	opts.Connect = func(context.Context) (Backend, error) { return offlineBackend{b}, nil }
	h := newHarness(t, opts, 80, 24)
	h.ready()
	h.key("2")
	h.m.composer.setText(`{"name": "file_read", "arguments": {"path": "a"}}`)
	h.press("ctrl+r", "the refusal", func(m *Model) bool { return m.flash != "" })
	if len(b.callLog()) != 0 || !strings.Contains(h.screen(), "offline") {
		t.Errorf("an offline run should refuse and say why:\n%s", h.screen())
	}
}

type offlineBackend struct{ *fakeBackend }

func (o offlineBackend) Info() ServerInfo {
	in := o.fakeBackend.Info()
	in.Offline = true
	return in
}
