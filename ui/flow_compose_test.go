package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcpterm/mcpterm/session/history"
)

// Flows of handcrafting calls and batches (see flow_test.go for how flows
// run). Each ends on the screen that shows what it is about; the golden
// file is that screen.

// A three-entry batch built from the tool list with Enter: the first tool
// starts the call, each next one becomes the batch's next entry, and the
// cursor lands where its first value goes.
func TestFlowBatchFromToolList(t *testing.T) {
	f := startFlow(t, New(demoEnv(t).opts), 160, 48)
	f.waitOutput("o200k", "file_read")
	f.keys("j", "j", "j", "j", "enter") // file_read
	f.waitOutput(`(fr :path "")`)
	f.typeText("/etc/hosts")
	f.waitOutput(`(fr :path "/etc/hosts")`, "call file_read")
	f.keys("esc", "1", "j", "j", "enter") // list_todos, into a batch
	f.waitOutput("(2 (lt))")
	f.keys("esc", "1", "k", "k", "k", "k", "k", "enter") // create_todo, entry 3
	f.waitOutput(`(3 (ct :title ""))`)
	f.typeText("buy milk")
	f.waitOutput("batch of 3 calls")
	screen := f.finish()
	checkFrame(t, screen, 160, 48)
	if !strings.Contains(screen, `(3 (ct :title "buy milk"))`) {
		t.Errorf("the third entry is not where typing went:\n%s", screen)
	}
	golden.RequireEqual(t, normalize(screen))
}

// A bracketed paste of a batch whose lines end in CR (as terminals paste)
// keeps its lines, and is checked once.
func TestFlowPasteCRBatch(t *testing.T) {
	f := startFlow(t, New(demoEnv(t).opts), 80, 24)
	f.waitOutput("o200k", "file_read")
	f.keys("2")
	f.forget()
	f.tm.Send(tea.PasteMsg{Content: "(batch\r  (1 (fr \"/etc/hosts\"))\r  (2 (lt))\r  (3 (gt \"x\")))"})
	f.waitOutput("batch of 3 calls")
	screen := f.finish()
	checkFrame(t, screen, 80, 24)
	if !strings.Contains(screen, "  (2 (lt))") {
		t.Errorf("the pasted lines were joined:\n%s", screen)
	}
	golden.RequireEqual(t, normalize(screen))
}

// Completion cycles, tab after tab, through what may stand at the cursor
// of a nested record (enum values of its first field, then its fields),
// into the field :format; signature help shows the slot.
func TestFlowCompletionCycles(t *testing.T) {
	f := startFlow(t, New(demoEnv(t).opts), 160, 48)
	f.waitOutput("o200k", "file_read")
	f.keys("2")
	f.typeText(`(dpq "q1" ((sql :pg "db" "shop" "SELECT 1")) (:`)
	f.waitOutput("S-expr")
	f.keys("tab", "tab", "tab", "tab")
	// The screen is taken once the check of the completed text is in
	// (its count line), not whenever the menu first shows.
	f.waitOutput("4/6", " tok")
	screen := f.finish()
	checkFrame(t, screen, 160, 48)
	if !strings.Contains(screen, `"SELECT 1")) (:format))`) {
		t.Errorf("the fourth tab did not reach :format:\n%s", screen)
	}
	golden.RequireEqual(t, normalize(screen))
}

// An error is shown where it is, with a caret row under the text, and
// "did you mean" names the parameter meant.
func TestFlowErrorCaret(t *testing.T) {
	f := startFlow(t, New(demoEnv(t).opts), 80, 24)
	f.waitOutput("o200k", "file_read")
	f.keys("2")
	f.typeText(`(fr :paht "/etc/hosts"`)
	f.waitOutput("did you mean :path")
	screen := f.finish()
	checkFrame(t, screen, 80, 24)
	if !strings.Contains(screen, "    ^^^^^ ") {
		t.Errorf("no caret under :paht:\n%s", screen)
	}
	golden.RequireEqual(t, normalize(screen))
}

// The form writes a call with a nested record (a source, the output) and
// enums (the driver, the format) into the composer.
func TestFlowFormWritesCall(t *testing.T) {
	f := startFlow(t, New(demoEnv(t).opts), 160, 48)
	f.waitOutput("o200k", "file_read")
	f.keys("j", "j", "ctrl+p") // data_platform_query
	f.waitOutput("Form · data_platform_query")
	f.typeText("q1")
	f.keys("tab", "tab", "tab", "tab", "right") // sources[0].driver: pg -> mysql
	f.keys("tab")
	f.typeText("db.internal")
	f.keys("tab")
	f.typeText("shop")
	f.keys("tab")
	f.typeText("SELECT id FROM orders")
	f.keys("tab", "tab", "tab", "tab", "space") // output.format: the default json -> csv
	form := f.waitOutput("valid: this call would run", "format ◂ csv")
	f.keys("ctrl+s")
	f.waitOutput("Composer", "call data_platform_query")
	screen := f.finish()
	checkFrame(t, form, 160, 48)
	checkFrame(t, screen, 160, 48)
	for _, want := range []string{`(dpq "q1" ((sql :mysql "db.internal" "shop" "SELECT id FROM orders"))`, ":format :csv"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the composer lacks %s:\n%s", want, screen)
		}
	}
	t.Run("form", func(t *testing.T) { golden.RequireEqual(t, normalize(form)) })
	t.Run("composer", func(t *testing.T) { golden.RequireEqual(t, normalize(screen)) })
}

// The results table of a batch with one failed entry; E re-runs the
// failed one, which now succeeds (the todo it asks for exists by then).
func TestFlowRerunFailed(t *testing.T) {
	e := demoEnv(t)
	f := startFlow(t, New(e.opts), 160, 48)
	f.waitOutput("o200k", "file_read")
	f.keys("2")
	f.typeText(`(batch (1 (gt "6012718d-b4ef-4e7a-90bd-53cabdf08166")) (2 (ct "buy milk")))`)
	f.waitOutput("batch of 2 calls")
	f.keys("ctrl+g")
	table := f.waitOutput("1 ok 1 failed", "✗ failed", "✓ ok", "↳ (ct")
	f.keys("esc", "E")
	f.waitOutput("✓ 1 ok", "get_todo · ✓ ok")
	screen := f.finish()
	checkFrame(t, table, 160, 48)
	checkFrame(t, screen, 160, 48)
	if n := e.calls.Load(); n != 3 {
		t.Errorf("%d calls reached the server, want 3 (two, then the failed one again)", n)
	}
	if !strings.Contains(screen, "get_todo · ✓ ok") || !strings.Contains(screen, "✓ 1 ok") {
		t.Errorf("the re-run is not shown as a success:\n%s", screen)
	}
	t.Run("table", func(t *testing.T) { golden.RequireEqual(t, normalize(table)) })
	t.Run("rerun", func(t *testing.T) { golden.RequireEqual(t, normalize(screen)) })
}

// ctrl+r searches this server's history only: another server's call with
// the same words is not offered.
func TestFlowHistorySearch(t *testing.T) {
	e := demoEnv(t)
	for _, en := range []history.Entry{
		{Server: "elsewhere", Tool: "file_read", Source: `(fr "/etc/elsewhere")`},
		{Server: "mcpterm-demo", Tool: "file_read", Source: `(fr "/etc/hosts")`},
		{Server: "mcpterm-demo", Tool: "list_todos", Source: `(lt)`},
		{Server: "mcpterm-demo", Tool: "file_read", Source: `(fr "/etc/passwd" :encoding :base64)`},
	} {
		en.Time, en.Outcome = demoClock, history.OK
		if err := e.hist.Append(en); err != nil {
			t.Fatal(err)
		}
	}
	f := startFlow(t, New(e.opts), 80, 24)
	f.waitOutput("o200k", "file_read")
	f.keys("2", "ctrl+r")
	f.waitOutput("/etc/passwd", "/etc/hosts")
	if strings.Contains(f.waitOutput("/etc/passwd"), "elsewhere") {
		t.Errorf("the search offers another server's call")
	}
	f.typeText("etc hosts")
	search := f.waitOutput("1 of 3")
	checkFrame(t, search, 80, 24)
	t.Run("search", func(t *testing.T) { golden.RequireEqual(t, normalize(search)) })
	f.keys("enter")
	f.waitOutput("call file_read")
	screen := f.finish()
	checkFrame(t, screen, 80, 24)
	if !strings.Contains(screen, `(fr "/etc/hosts")`) {
		t.Errorf("the call picked is not in the composer:\n%s", screen)
	}
	t.Run("recalled", func(t *testing.T) { golden.RequireEqual(t, normalize(screen)) })
}
