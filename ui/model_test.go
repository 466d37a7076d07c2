package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestFirstFrameIsConnecting(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	s := stripANSI(m.render())
	if !strings.Contains(s, "connecting") {
		t.Fatalf("first frame does not say it is connecting:\n%s", s)
	}
	if len(strings.Split(s, "\n")) != 24 {
		t.Errorf("first frame has %d lines, want 24", len(strings.Split(s, "\n")))
	}
}

func TestConnectListsToolsWithCounts(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, 160, 48)
	h.ready()
	s := h.screen()
	for _, want := range []string{"file_read", "delete_todo", "fake", "1.2.3", "2025-06-18", "JSON", "Side by side"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	// The list shows the baseline count of every tool.
	rep := h.m.reports[h.m.enc]
	if n := rep.Tool("file_read", "json"); n <= 0 {
		t.Fatalf("no json count for file_read: %d", n)
	}
}

func TestCountsWaitForTokenizer(t *testing.T) {
	b := newFakeBackend()
	opts, c, _ := fakeOptions(b)
	c.block = make(chan struct{})
	h := newHarness(t, opts, 120, 40)
	h.waitUntil("connected", func(m *Model) bool { return m.conn == connReady })
	if s := h.screen(); !strings.Contains(s, "loading the tokenizer") {
		t.Errorf("while the tokenizer loads the header should say so:\n%s", s)
	}
	// Keys work while it loads.
	h.key("j")
	if h.m.tools.selectedName() != "delete_todo" {
		t.Errorf("j did not move the selection while loading: %s", h.m.tools.selectedName())
	}
	close(c.block)
	h.waitUntil("report", func(m *Model) bool { return m.reports[m.enc] != nil })
}

func TestFocusAndPages(t *testing.T) {
	h := readyHarness(t, 160, 48)
	if h.m.focus != focusTools {
		t.Fatalf("initial focus %v", h.m.focus)
	}
	h.key("tab")
	if h.m.focus != focusSchema {
		t.Errorf("tab: focus %v, want schema", h.m.focus)
	}
	h.key("shift+tab")
	if h.m.focus != focusTools {
		t.Errorf("shift+tab: focus %v, want tools", h.m.focus)
	}
	h.key("2")
	if h.m.page != pageCompose || h.m.focus != focusComposer {
		t.Errorf("2: page %v focus %v", h.m.page, h.m.focus)
	}
	// In the editor, "3" is text, not a page switch.
	h.key("3")
	if h.m.page != pageCompose || h.m.composer.Value() != "3" {
		t.Errorf("3 in the editor: page %v, text %q", h.m.page, h.m.composer.Value())
	}
	h.press("esc", "the editor left", func(m *Model) bool { return m.focus != focusComposer })
	h.key("3")
	if h.m.page != pageExplore || h.m.focus != focusExplore {
		t.Errorf("3: page %v focus %v", h.m.page, h.m.focus)
	}
	h.waitUntil("explore lists", func(m *Model) bool { return m.explore.loaded })
}

func readyHarness(t testing.TB, w, hgt int) *harness {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, w, hgt)
	h.ready()
	return h
}

func TestTextInputTakesKeysExclusively(t *testing.T) {
	h := readyHarness(t, 120, 40)
	h.key("/")
	if !h.m.textInputFocused() {
		t.Fatal("/ did not focus the filter")
	}
	h.typeText("q1?")
	if h.quit || h.m.page != pageTools || h.m.showHelp {
		t.Fatalf("filter keys leaked to globals: quit=%v page=%v help=%v", h.quit, h.m.page, h.m.showHelp)
	}
	if got := h.m.tools.filter.Value(); got != "q1?" {
		t.Errorf("filter = %q", got)
	}
	if h.m.modal != nil {
		t.Errorf("q in a text input opened the quit dialog")
	}
}

func TestEscNeverQuits(t *testing.T) {
	h := readyHarness(t, 80, 24)
	for _, setup := range []func(){
		func() {},
		func() { h.key("/") },
		func() { h.key("2") },
		func() { h.key("tab") },
		func() { h.key("3") },
		func() { h.key("?") },
	} {
		setup()
		for i := 0; i < 3; i++ {
			h.key("esc")
		}
		if h.quit || h.m.quitting || h.m.modal != nil {
			t.Fatalf("esc quit or opened a dialog (quit=%v modal=%v)", h.quit, h.m.modal != nil)
		}
	}
}

func TestFilterAndSort(t *testing.T) {
	h := readyHarness(t, 120, 40)
	h.key("/")
	h.typeText("dlt")
	if got := visibleNames(h.m); strings.Join(got, ",") != "delete_todo" {
		t.Errorf("filter dlt shows %v", got)
	}
	h.key("enter") // keep the filter, back to the list
	if h.m.textInputFocused() {
		t.Error("enter did not leave the filter input")
	}
	if !strings.Contains(h.screen(), "Tools 1/5") {
		t.Errorf("title does not count the filtered list:\n%s", h.screen())
	}
	h.key("/")
	h.key("esc") // clears
	if got := visibleNames(h.m); len(got) != 5 {
		t.Errorf("esc did not clear the filter: %v", got)
	}
	h.key("s") // name
	if got := visibleNames(h.m); got[0] != "create_todo" {
		t.Errorf("sort by name starts with %s", got[0])
	}
	h.key("s") // tokens: the most expensive first
	got := visibleNames(h.m)
	rep := h.m.reports[h.m.enc]
	for i := 1; i < len(got); i++ {
		if rep.Tool(got[i-1], "json") < rep.Tool(got[i], "json") {
			t.Errorf("sort by tokens: %s (%d) before %s (%d)", got[i-1], rep.Tool(got[i-1], "json"), got[i], rep.Tool(got[i], "json"))
		}
	}
}

func visibleNames(m *Model) []string {
	var out []string
	for _, i := range m.tools.view {
		out = append(out, m.tools.rows[i].tool.Name)
	}
	return out
}

func TestConnectErrorShowsStderrAndRetries(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	attempts := 0
	opts.Connect = func(context.Context) (Backend, error) {
		attempts++
		if attempts == 1 {
			return nil, &testStderrErr{msg: "server exited: exit status 3", stderr: "panic: no config\x1b[2J"}
		}
		return b, nil
	}
	h := newHarness(t, opts, 80, 24)
	h.waitUntil("failed", func(m *Model) bool { return m.conn == connFailed })
	s := h.screen()
	if !strings.Contains(s, "exit status 3") || !strings.Contains(s, "panic: no config") || !strings.Contains(s, "r retries") {
		t.Fatalf("connection error screen:\n%s", s)
	}
	if strings.Contains(h.m.render(), "\x1b[2J") {
		t.Fatal("stderr escape reached the screen")
	}
	h.key("r")
	h.ready()
	if attempts != 2 {
		t.Errorf("attempts = %d", attempts)
	}
}

type testStderrErr struct{ msg, stderr string }

func (e *testStderrErr) Error() string  { return e.msg }
func (e *testStderrErr) Stderr() string { return e.stderr }

func TestQuitAsksWhenWorkWouldBeLost(t *testing.T) {
	b := newFakeBackend()
	opts, _, st := fakeOptions(b)
	h := newHarness(t, opts, 80, 24)
	h.ready()
	// Nothing to lose: q quits at once.
	h2 := readyHarness(t, 80, 24)
	h2.key("q")
	h2.waitUntil("quit", func(*Model) bool { return h2.quit })

	h.key("2")
	h.typeText("(file_read")
	h.press("esc", "the editor left", func(m *Model) bool { return m.focus != focusComposer })
	h.key("q")
	if h.m.modal == nil || !strings.Contains(h.screen(), "unsaved draft") {
		t.Fatalf("q with a draft did not ask:\n%s", h.screen())
	}
	h.key("n")
	if h.m.modal != nil || h.m.quitting {
		t.Fatal("n did not stay")
	}
	h.key("ctrl+c")
	h.key("ctrl+c") // a second ctrl+c means it
	h.waitUntil("quit", func(*Model) bool { return h.quit })
	if st.Draft() != "(file_read" {
		t.Errorf("draft not saved on quit: %q", st.Draft())
	}
	if !b.closed {
		t.Error("backend not closed on quit")
	}
}

func TestQuitAsksWithRunningCall(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, 80, 24)
	h.ready()
	h.key("2")
	h.m.composer.setText(`{"name": "slow_task"}`)
	h.press("ctrl+r", "the run", func(m *Model) bool { return m.running() })
	h.m.composer.dirty = false
	h.key("ctrl+c")
	if h.m.modal == nil || !strings.Contains(h.screen(), "still running") {
		t.Fatalf("quit with a running call did not ask:\n%s", h.screen())
	}
	h.key("y")
	h.waitUntil("quit", func(*Model) bool { return h.quit })
}

// escapeRE matches anything but SGR styling: OSC, cursor moves, clears, BEL.
var escapeRE = regexp.MustCompile("\x1b\\][^\x07\x1b]*|\x1b\\[[0-9;:?]*[A-HJKSTfhlnsu]|\x07|\u009b|\x1b[PX^_]")

func TestUntrustedTextIsInert(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, 160, 48)
	h.ready()
	for h.m.tools.selectedName() != hostileName {
		h.key("j")
	}
	h.waitUntil("schema", func(m *Model) bool { return m.schema.have.tool == hostileName })
	h.key("i") // the whole tool as sent, description included
	h.waitUntil("schema", func(m *Model) bool { return m.schema.have.invisible })
	out := h.m.render()
	if loc := escapeRE.FindStringIndex(out); loc != nil {
		t.Fatalf("tool list/schema emitted an escape %q", out[loc[0]:min(loc[1]+4, len(out))])
	}
	if !strings.Contains(stripANSI(out), "evil") || !strings.Contains(stripANSI(out), "RED") {
		t.Errorf("the text itself should still show:\n%s", stripANSI(out))
	}
	h.press("enter", "the template", func(m *Model) bool { return m.focus == focusComposer })
	h.m.composer.setText(`{"name": "` + strings.ReplaceAll(strings.ReplaceAll(hostileName, "\x1b", `\u001b`), "\x07", `\u0007`) + `"}`)
	h.key("ctrl+r")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("rendered", func(m *Model) bool { return m.results.have.runID == 1 })
	out = h.m.render()
	if loc := escapeRE.FindStringIndex(out); loc != nil {
		t.Fatalf("result emitted an escape %q", out[loc[0]:min(loc[1]+4, len(out))])
	}
	if !strings.Contains(stripANSI(out), "result Looks harmless") {
		t.Errorf("result not shown:\n%s", stripANSI(out))
	}
}

func TestEncodingToggle(t *testing.T) {
	h := readyHarness(t, 120, 40)
	o := h.m.reports[h.m.enc].Totals["json"]
	h.key("e")
	if h.m.enc != "cl100k_base" {
		t.Fatalf("enc = %s", h.m.enc)
	}
	h.waitUntil("cl100k report", func(m *Model) bool {
		return m.reports["cl100k_base"] != nil && m.tools.report == m.reports["cl100k_base"]
	})
	if c := h.m.reports["cl100k_base"].Totals["json"]; c == o {
		t.Errorf("counts did not change with the encoding: %d", c)
	}
	if !strings.Contains(h.screen(), "cl100k") {
		t.Errorf("header does not show the encoding")
	}
}

func TestEventsReachLogAndProtocol(t *testing.T) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	h := newHarness(t, opts, 160, 48)
	h.ready()
	b.events <- Event{Kind: EventLog, Level: "debug", Logger: "core", Text: "debug noise"}
	b.events <- Event{Kind: EventLog, Level: "error", Logger: "core", Text: "disk \x1b]52;c;eA==\x07full"}
	b.events <- Event{Kind: EventProtocol, Proto: &ProtocolMessage{Seq: 1, Outgoing: true, Kind: "request", ID: "7", Method: "tools/call", Raw: `{"jsonrpc":"2.0","id":7,"method":"tools/call"}`, Size: 44}}
	b.events <- Event{Kind: EventProtocol, Proto: &ProtocolMessage{Seq: 2, Kind: "response", ID: "7", Method: "tools/call", Raw: `{"jsonrpc":"2.0","id":7,"result":{}}`, Size: 36, Latency: 12e6}}
	h.waitUntil("events", func(m *Model) bool { return len(m.explore.log) == 2 && len(m.explore.proto) == 2 })
	h.key("3")
	for h.m.explore.tab != tabLog {
		h.key("right")
	}
	s := h.screen()
	if !strings.Contains(s, "debug noise") || !strings.Contains(s, "diskfull") && !strings.Contains(s, "disk") {
		t.Errorf("log tab:\n%s", s)
	}
	if escapeRE.MatchString(h.m.render()) {
		t.Error("log text emitted an escape")
	}
	h.key("v") // info and up
	if strings.Contains(h.screen(), "debug noise") {
		t.Errorf("level filter kept a debug entry:\n%s", h.screen())
	}
	h.key("right")
	h.key("home")
	s = h.screen()
	if !strings.Contains(s, "tools/call") || !strings.Contains(s, "12ms") || !strings.Contains(s, `"result"`) {
		t.Errorf("protocol tab does not pair request and response:\n%s", s)
	}
}

func TestExploreReadsResourcesAndPrompts(t *testing.T) {
	h := readyHarness(t, 160, 48)
	h.key("3")
	h.waitUntil("lists", func(m *Model) bool { return m.explore.loaded })
	h.key("enter")
	h.waitFor("detail", msgIs[detailMsg])
	if s := h.screen(); !strings.Contains(s, "hello from demo://readme") {
		t.Errorf("resource not read:\n%s", s)
	}
	h.key("right") // templates
	h.press("enter", "the variables dialog", func(m *Model) bool { return m.modal != nil })
	h.typeText("t7")
	h.key("enter")
	h.waitFor("detail", msgIs[detailMsg])
	if s := h.screen(); !strings.Contains(s, "hello from demo://todo/t7") {
		t.Errorf("template not expanded and read:\n%s", s)
	}
	h.key("right") // prompts
	h.press("enter", "the arguments dialog", func(m *Model) bool { return m.modal != nil })
	h.typeText("ship it")
	h.key("enter")
	h.waitFor("detail", msgIs[detailMsg])
	if s := h.screen(); !strings.Contains(s, "goal: ship it") {
		t.Errorf("prompt not got:\n%s", s)
	}
}

func TestStaleResultsAreDropped(t *testing.T) {
	h := readyHarness(t, 120, 40)
	shown := h.m.schema.have
	h.send(schemaMsg{key: schemaKey{tool: "delete_todo", form: "json_full"}, left: "STALE", title: "x"})
	if h.m.schema.have != shown || strings.Contains(h.screen(), "STALE") {
		t.Error("a result for another key replaced the shown one")
	}
	h.key("2")
	h.typeText("{")
	seq := h.m.composer.seq
	h.send(checkMsg{seq: seq - 1, check: composerCheck{summary: "OLD"}})
	if h.m.composer.check.summary == "OLD" {
		t.Error("an old check replaced the current one")
	}
	h.send(callDoneMsg{runID: 99})
	h.send(detailMsg{reqID: 42, body: "LATE"})
	if strings.Contains(h.screen(), "LATE") {
		t.Error("a late detail reply landed")
	}
}

func TestMouseSelectsAndScrolls(t *testing.T) {
	h := readyHarness(t, 160, 48)
	r := h.m.lay.tools
	// Row 0 of the list is at r.y+2 (border, headings).
	h.send(tea.MouseClickMsg{X: r.x + 5, Y: r.y + 2 + 2, Button: tea.MouseLeft})
	if got := h.m.tools.selectedName(); got != visibleNames(h.m)[2] {
		t.Errorf("click selected %s", got)
	}
	sr := h.m.lay.schema
	h.send(tea.MouseClickMsg{X: sr.x + 10, Y: sr.y + 5, Button: tea.MouseLeft})
	if h.m.focus != focusSchema {
		t.Errorf("click did not focus the side-by-side pane")
	}
	h.send(tea.MouseClickMsg{X: 22, Y: 0, Button: tea.MouseLeft})
	if h.m.page != pageCompose {
		t.Errorf("click on the Compose tab: page %v", h.m.page)
	}
}

func TestHelpToggles(t *testing.T) {
	h := readyHarness(t, 80, 24)
	h.key("?")
	if s := h.screen(); !strings.Contains(s, "Keys") || !strings.Contains(s, "ctrl+r") {
		t.Errorf("full help:\n%s", s)
	}
	h.key("esc")
	if h.m.showHelp {
		t.Error("esc did not close help")
	}
}

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;:]*m")
