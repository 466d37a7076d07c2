package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/session"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/session/history"
)

func TestComposeTemplateAndValidation(t *testing.T) {
	h := readyHarness(t, 120, 40)
	for h.m.tools.selectedName() != "file_read" {
		h.key("j")
	}
	h.press("enter", "the template", func(m *Model) bool { return m.focus == focusComposer })
	if !strings.HasPrefix(h.m.composer.Value(), "(fr") {
		t.Fatalf("enter did not open a template: %q", h.m.composer.Value())
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
	h.m.composer.setText(`{"name": "file_read", "arguments": {"path": "/etc/hosts"}}`)
	h.exec(h.m.checkCmd())
	h.waitUntil("valid", func(m *Model) bool { return m.composer.checked == m.composer.seq })
	s := h.screen()
	if !strings.Contains(s, "✓ call file_read (path)") || !strings.Contains(s, "tok") {
		t.Errorf("valid call not reported with counts:\n%s", s)
	}
}

// A call runs through the session's runner: the server answers, the result
// shows, and the call lands in the history `mcpterm call` writes.
func TestRunCallShowsResult(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.key("2")
	h.m.composer.setText(`(fr "/docs/README.md")`)
	h.key("ctrl+g")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have == m.results.want && m.results.have.runID == 1 })
	if n := e.calls.Load(); n != 1 {
		t.Fatalf("%d calls reached the server", n)
	}
	s := h.screen()
	if !strings.Contains(s, "✓ 1 ok") || !strings.Contains(s, "mcpterm demo server") {
		t.Errorf("result not shown:\n%s", s)
	}
	if strings.Contains(s, "# mcpterm demo server") {
		t.Errorf("markdown was not rendered (raw heading shown):\n%s", s)
	}
	entries, err := e.hist.Recent(0)
	if err != nil || len(entries) != 1 || entries[0].Tool != "file_read" || entries[0].Source != `(fr "/docs/README.md")` || entries[0].Outcome != history.OK {
		t.Errorf("history: %+v %v", entries, err)
	}
	// The (ok ...) form.
	h.press("esc", "the results focused", func(m *Model) bool { return m.focus == focusResults })
	h.press("o", "rerendered", func(m *Model) bool { return m.results.have.term })
	if !strings.Contains(h.screen(), "(ok") {
		t.Errorf("term toggle:\n%s", h.screen())
	}
}

// A destructive call asks first, naming the call and its arguments; n
// sends nothing, y runs it.
func TestDestructiveCallAsksFirst(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.key("2")
	h.m.composer.setText(`(dt "00000000-0000-4000-8000-000000000000")`)
	h.press("ctrl+g", "the confirmation", func(m *Model) bool { return m.modal != nil })
	s := h.screen()
	if !strings.Contains(s, "destructive") || !strings.Contains(s, "delete_todo") || !strings.Contains(s, "00000000-0000-4000") || !strings.Contains(s, "On mcpterm demo server") {
		t.Fatalf("the confirmation does not name the server, the call and its arguments:\n%s", s)
	}
	h.key("n")
	if h.m.modal != nil || len(h.m.runs) != 0 || e.calls.Load() != 0 {
		t.Fatalf("n did not cancel: modal %v runs %d calls %d", h.m.modal != nil, len(h.m.runs), e.calls.Load())
	}
	h.press("ctrl+g", "the confirmation", func(m *Model) bool { return m.modal != nil })
	h.key("y")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 1 })
	if s := h.screen(); !strings.Contains(s, "isError") || !strings.Contains(s, "1 failed") {
		t.Errorf("isError not marked:\n%s", s)
	}
}

func TestCancelRunningCall(t *testing.T) {
	h := readyHarness(t, 120, 40)
	h.key("2")
	h.m.composer.setText(`(long_task :steps 100 :delay_ms 50)`)
	h.press("ctrl+g", "the run", func(m *Model) bool { return m.running() })
	h.waitUntil("progress", func(m *Model) bool { r := m.results.current(); return r != nil && r.total == 100 })
	if s := h.screen(); !strings.Contains(s, "running") || !strings.Contains(s, "/100") || !strings.Contains(s, "esc cancels") {
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
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 1 })
	if !strings.Contains(h.screen(), "cancelled") {
		t.Errorf("cancel not shown:\n%s", h.screen())
	}
}

func TestBatchRunsEveryCall(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.key("2")
	batch := `(batch (1 (lt)) (2 (gt "00000000-0000-4000-8000-000000000000")) (3 (fr "/etc/hosts")))`
	h.m.composer.setText(batch)
	h.key("ctrl+g")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 1 })
	s := h.screen() + ansi.Strip(h.m.results.vp.Content())
	if !strings.Contains(s, "2 ok") || !strings.Contains(s, "1 failed") || !strings.Contains(s, "[2] get_todo · ✗ isError") {
		t.Errorf("batch outcome:\n%s", s)
	}
	if n := e.calls.Load(); n != 3 {
		t.Errorf("%d calls reached the server, want 3", n)
	}
	entries, _ := e.hist.Recent(0)
	if len(entries) != 3 || entries[0].Batch != batch || entries[0].Source != "" {
		t.Errorf("a batch is recorded once per call, under the batch: %+v", entries)
	}
}

// An AQL call answers with the AQL response (projected when it asks for
// fields); introspect is answered without the server.
func TestAQLCallAnswersAsAQL(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 160, 48)
	h.ready()
	h.key("2")
	h.m.composer.setText(`{"operation": "list_todos", "params": {"fields": ["items.title"]}}`)
	h.key("ctrl+g")
	h.waitFor("call done", msgIs[callDoneMsg])
	r := h.m.results.current()
	it, res := r.item(0)
	resp, full := r.codec.ItemAnswer(&it, res.Outcome)
	if resp.Get("success") == nil || !resp.Get("success").Bool || full == nil {
		t.Fatalf("answer %s", resp.Compact())
	}
	if items := resp.Get("data").Get("items"); items == nil || len(items.Items) == 0 || items.Items[0].Has("id") || !items.Items[0].Has("title") {
		t.Errorf("not projected to titles: %s", resp.Compact())
	}
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 1 })
	if s := h.screen(); !strings.Contains(s, `"success": true`) {
		t.Errorf("the AQL response is not shown:\n%s", s)
	}
	before := e.calls.Load()
	h.m.composer.setText(`{"operation": "introspect", "params": {"query": "operations"}}`)
	h.key("ctrl+g")
	h.waitFor("call done", msgIs[callDoneMsg])
	if e.calls.Load() != before {
		t.Error("introspect reached the server")
	}
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 2 })
	if s := h.screen(); !strings.Contains(s, "answered locally") || !strings.Contains(s, "list_todos") {
		t.Errorf("introspect answer:\n%s", s)
	}
}

func TestCompletion(t *testing.T) {
	h := readyHarness(t, 120, 40)
	h.key("2")
	h.typeText("(file_")
	h.key("tab")
	if got := h.m.composer.Value(); got != "(file_read )" {
		t.Fatalf("tool completion: %q", got)
	}
	// Parameters: the first tab steps into the list (nothing is common to
	// add), each tab to the next, shift+tab back, the list shown with the
	// current one.
	h.typeText(`"a" :`)
	h.key("tab")
	first := h.m.composer.Value()
	if !strings.HasPrefix(first, `(file_read "a" :`) || first == `(file_read "a" :)` {
		t.Fatalf("the first tab on ':' inserted nothing: %q", first)
	}
	if s := h.screen(); !strings.Contains(s, ":encoding") || !strings.Contains(s, ":offset") || !strings.Contains(s, "1/") {
		t.Errorf("parameter candidates not shown:\n%s", s)
	}
	h.key("tab")
	second := h.m.composer.Value()
	h.key("shift+tab")
	if second == first || h.m.composer.Value() != first {
		t.Errorf("tab, shift+tab: %q, %q, back to %q", first, second, h.m.composer.Value())
	}
	// Any other key ends the cycle and keeps the candidate.
	h.m.composer.setText(`(file_read "a" :enc)`)
	h.m.composer.placeCursor(len(`(file_read "a" :enc`))
	h.key("tab")
	if got := h.m.composer.Value(); got != `(file_read "a" :encoding )` {
		t.Fatalf("a lone candidate: %q", got)
	}
	h.key("tab")
	h.key("tab")
	if got := h.m.composer.Value(); got != `(file_read "a" :encoding :utf8)` && got != `(file_read "a" :encoding :base64)` {
		t.Errorf("enum values after :encoding: %q", got)
	}
	if s := h.screen(); !strings.Contains(s, ":utf8") || !strings.Contains(s, ":base64") {
		t.Errorf("enum candidates not shown:\n%s", s)
	}
}

// Signature help: while editing, the tool's declaration stays in view with
// the parameter at the cursor lit, and what that parameter takes.
func TestSignatureHelp(t *testing.T) {
	h := readyHarness(t, 120, 40)
	h.key("2")
	h.typeText(`(fr "/etc/hosts" :encoding `)
	s := h.screen()
	if !strings.Contains(s, "(encoding :utf8|:base64") || !strings.Contains(s, "encoding :utf8 | :base64 — utf8 returns text") {
		t.Errorf("no signature help for :encoding:\n%s", s)
	}
	h.m.composer.setText(`(nu "doc.md" ((insert :pos 0 :blocks ((paragraph :id "p1" :content ("x"))))))`)
	h.m.composer.placeCursor(len(`(nu "doc.md" ((insert :pos 0 :blocks ((paragraph :id "p1`))
	h.key("end") // the editor redraws with the cursor moved
	h.m.composer.placeCursor(len(`(nu "doc.md" ((insert :pos 0 :blocks ((paragraph :id "p1`))
	if s := h.screen(); !strings.Contains(s, "ops.0.blocks.0.id") || !strings.Contains(s, "required — Unique within") {
		t.Errorf("no signature help for a nested field:\n%s", s)
	}
}

// ↑ on the first line steps back through this server's past calls (from
// the history `mcpterm call` shares), ↓ past the newest restores the text,
// and the draft is autosaved.
func TestHistoryAndDraft(t *testing.T) {
	e := demoEnv(t)
	if err := e.drafts.Save("test", `(fr "/kept")`); err != nil {
		t.Fatal(err)
	}
	for _, en := range []history.Entry{
		{Server: "elsewhere", Tool: "echo", Source: `(echo "other server")`},
		{Server: "mcpterm-demo", Tool: "file_read", Source: `(fr "/old")`},
	} {
		en.Time, en.Outcome = demoClock, history.OK
		if err := e.hist.Append(en); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, e.opts, 120, 40)
	h.ready()
	h.waitUntil("draft and history", func(m *Model) bool {
		return strings.Contains(m.composer.Value(), "kept") && len(m.composer.history) > 0
	})
	if got := strings.Join(h.m.composer.history, "|"); got != `(fr "/old")` {
		t.Fatalf("the history holds %q: another server's calls, or none of this one's (server %q)", got, h.m.cat.server)
	}
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
	h.waitFor("autosave", func(msg tea.Msg) bool { _, ok := msg.(draftSavedMsg); return ok })
	if d, _ := e.drafts.Load("test"); !strings.HasSuffix(d, "x") {
		t.Errorf("autosaved draft: %q", d)
	}
}

func TestSaveAndOpenFiles(t *testing.T) {
	e := demoEnv(t)
	dir := e.opts.WorkingDir
	if err := os.WriteFile(filepath.Join(dir, "in.mcpt"), []byte(`(fr "/from-file")`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, e.opts, 120, 40)
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
	data, err := os.ReadFile(filepath.Join(dir, "out.mcpt"))
	if err != nil || !strings.Contains(string(data), "from-file") || h.m.composer.dirty {
		t.Errorf("save: %q %v dirty %v", data, err, h.m.composer.dirty)
	}
	h.press("ctrl+o", "the open dialog", func(m *Model) bool { return m.modal != nil })
	for range "out.mcpt" {
		h.key("backspace")
	}
	h.typeText("/no/such/file")
	h.key("enter")
	msg := h.waitFor("open failed", msgIs[fileOpenedMsg]).(fileOpenedMsg)
	if !errors.Is(msg.err, os.ErrNotExist) || !strings.Contains(h.screen(), "no such file") {
		t.Errorf("a missing file: %v\n%s", msg.err, h.screen())
	}
}

func TestRunOfflineSaysWhy(t *testing.T) {
	set := `{"tools":[{"name":"file_read","inputSchema":{"type":"object","properties":{"path":{"type":"string"}}}}]}`
	path := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(path, []byte(set), 0o644); err != nil {
		t.Fatal(err)
	}
	e := offlineEnv(t, path)
	h := newHarness(t, e.opts, 80, 24)
	h.ready()
	h.key("2")
	h.m.composer.setText(`(fr "a")`)
	h.press("ctrl+g", "the refusal", func(m *Model) bool { return m.flash != "" })
	if len(h.m.runs) != 0 || !strings.Contains(h.screen(), "offline") {
		t.Errorf("an offline run should refuse and say why:\n%s", h.screen())
	}
}

// The JSON-RPC preview scrolls (alt+↑/↓) when the requests are longer
// than its room, and says which lines it shows.
func TestPreviewScrolls(t *testing.T) {
	h := readyHarness(t, 120, 30)
	h.key("2")
	var b strings.Builder
	b.WriteString("(batch")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, " (%d (fr \"/etc/hosts\"))", i)
	}
	b.WriteString(")")
	h.m.composer.setText(b.String())
	h.key("ctrl+l")
	h.waitUntil("the preview", func(m *Model) bool { return m.composer.checked == m.composer.seq && m.composer.check.rpc != "" })
	s := h.screen()
	if !strings.Contains(s, "JSON-RPC request · lines 1–") || !strings.Contains(s, `"jsonrpc"`) {
		t.Fatalf("the preview does not say it scrolls:\n%s", s)
	}
	h.key("alt+down")
	if h.m.composer.previewTop == 0 || strings.Contains(h.screen(), "lines 1–") {
		t.Errorf("alt+down did not scroll the preview:\n%s", h.screen())
	}
	for range 50 {
		h.key("alt+down")
	}
	total := strings.Count(h.m.composer.check.rpc, "\n") + 1
	if s := h.screen(); !strings.Contains(s, fmt.Sprintf("of %d", total)) || !strings.Contains(s, fmt.Sprintf("–%d of", total)) {
		t.Errorf("the end of the preview is not its last line (%d):\n%s", total, s)
	}
	for range 100 {
		h.key("alt+up")
	}
	if h.m.composer.previewTop != 0 {
		t.Errorf("alt+up did not come back to the top: %d", h.m.composer.previewTop)
	}
}

// ctrl+p in the composer reads the call at the cursor (here a batch's
// second entry) back into the form; what the form gives replaces that
// call only. esc leaves the form and changes nothing.
func TestFormReadsTheCallAtTheCursor(t *testing.T) {
	h := readyHarness(t, 160, 48)
	h.key("2")
	src := `(batch (1 (fr "/a")) (2 (fr "/etc/hosts" :encoding :base64)))`
	h.m.composer.setText(src)
	h.m.composer.placeCursor(strings.Index(src, "/etc"))
	h.key("ctrl+p")
	if h.m.form == nil || h.m.form.tool.Name != "file_read" {
		t.Fatalf("ctrl+p opened no form for file_read: %v", h.m.form)
	}
	if s := h.screen(); !strings.Contains(s, "Form · file_read") || !strings.Contains(s, "base64") || !strings.Contains(s, "/etc/hosts") {
		t.Fatalf("the form does not hold the call at the cursor:\n%s", s)
	}
	h.key("esc")
	if h.m.form != nil || h.m.composer.Value() != src || !h.m.textInputFocused() {
		t.Fatalf("esc: form %v, text %q, editing %v", h.m.form != nil, h.m.composer.Value(), h.m.textInputFocused())
	}
	h.key("ctrl+p")
	h.key("ctrl+x") // the path field: cleared
	h.typeText("/docs/README.md")
	h.key("ctrl+s")
	want := `(batch (1 (fr "/a")) (2 (fr "/docs/README.md" :encoding :base64)))`
	if h.m.form != nil || h.m.composer.Value() != want {
		t.Fatalf("the form's call did not replace entry 2:\n%q\nwant\n%q", h.m.composer.Value(), want)
	}
}

// The Log tab lists each progress note once, at the time it came; the
// Protocol tab calls a cancelled call cancelled, not failed.
func TestProgressLoggedOnceAndCancelLabelled(t *testing.T) {
	h := readyHarness(t, 160, 48)
	h.key("2")
	h.m.composer.setText(`(long_task :steps 100 :delay_ms 30)`)
	h.press("ctrl+g", "the run", func(m *Model) bool { return m.running() })
	h.waitUntil("three steps", func(m *Model) bool { r := m.results.current(); return r != nil && r.progress >= 3 })
	h.key("esc")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("the cancellation in the protocol log", func(m *Model) bool {
		for _, p := range m.explore.proto {
			if p.Method == "tools/call" && p.Kind == session.KindFailed {
				return true
			}
		}
		return false
	})
	seen := map[string]int{}
	for _, e := range h.m.explore.log {
		if strings.Contains(e.Text, "step ") {
			seen[e.Text]++
			if e.Time.IsZero() || e.Time.Format("15:04:05") == "00:00:00" {
				t.Errorf("progress %q logged without its time: %v", e.Text, e.Time)
			}
		}
	}
	if len(seen) < 3 {
		t.Fatalf("the log holds %d progress notes: %v", len(seen), seen)
	}
	for text, n := range seen {
		if n != 1 {
			t.Errorf("progress %q logged %d times", text, n)
		}
	}
	h.press("esc", "the editor left", func(m *Model) bool { return m.focus != focusComposer })
	h.key("3")
	for h.m.explore.tab != tabProtocol {
		h.key("right")
	}
	if s := h.screen(); !strings.Contains(s, " cancelled") || strings.Contains(s, " failed") {
		t.Errorf("the protocol tab does not call the cancelled call cancelled:\n%s", s)
	}
}
