package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/session"
)

func TestFirstFrameIsConnecting(t *testing.T) {
	m := New(demoEnv(t).opts)
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
	h := readyHarness(t, 160, 48)
	s := h.screen()
	for _, want := range []string{"file_read", "delete_todo", "mcpterm demo server", "2026-07-28", "in-process", "JSON", "Side by side", "AQL true"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	tc, ok := h.m.Report().Tool("file_read")
	if !ok || tc.Counts["json"] <= 0 || tc.Counts["term"] <= 0 {
		t.Fatalf("no counts for file_read: %+v", tc)
	}
	// The row shows exactly the report's figures.
	if want := fmt.Sprintf("%s→%s", thousands(tc.Counts["json"]), thousands(tc.Counts["term"])); !strings.Contains(s, want) {
		t.Errorf("the file_read row does not show %s:\n%s", want, s)
	}
}

// While the tokenizer loads the header says so, and keys work.
func TestCountsWaitForTokenizer(t *testing.T) {
	e := demoEnv(t)
	e.opts.Encoding = "cl100k_base"
	e.opts.Counters = nil // a fresh set: nothing loaded yet
	h := newHarness(t, e.opts, 120, 40)
	h.waitUntil("connected", func(m *Model) bool { return m.conn == connReady && m.cat != nil })
	if !h.m.encReady["cl100k_base"] && !strings.Contains(h.screen(), "loading the tokenizer") {
		t.Errorf("while the tokenizer loads the header should say so:\n%s", h.screen())
	}
	first := h.m.tools.selectedName()
	h.press("j", "the selection moved", func(m *Model) bool { return m.tools.selectedName() != first })
	h.waitUntil("report", func(m *Model) bool { return m.Report() != nil })
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
	n := len(h.m.cat.set.Tools)
	h.key("/")
	h.typeText("dlt")
	if got := visibleNames(h.m); len(got) == 0 || got[0] != "delete_todo" {
		t.Errorf("filter dlt shows %v", got)
	}
	h.key("enter") // keep the filter, back to the list
	if h.m.textInputFocused() {
		t.Error("enter did not leave the filter input")
	}
	if want := fmt.Sprintf("Tools %d/%d", len(visibleNames(h.m)), n); !strings.Contains(h.screen(), want) {
		t.Errorf("title does not count the filtered list (%s):\n%s", want, h.screen())
	}
	h.key("/")
	h.key("esc") // clears
	if got := visibleNames(h.m); len(got) != n {
		t.Errorf("esc did not clear the filter: %v", got)
	}
	h.key("s") // name
	if got := visibleNames(h.m); got[0] != "clear_completed" {
		t.Errorf("sort by name starts with %s", got[0])
	}
	h.key("s") // tokens: the most expensive first
	got := visibleNames(h.m)
	json := func(name string) int { tc, _ := h.m.Report().Tool(name); return tc.Counts["json"] }
	for i := 1; i < len(got); i++ {
		if json(got[i-1]) < json(got[i]) {
			t.Errorf("sort by tokens: %s (%d) before %s (%d)", got[i-1], json(got[i-1]), got[i], json(got[i]))
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

// A stdio server that dies at start: its stderr and exit status show, no
// escape of it reaches the screen, and r connects again.
func TestConnectErrorShowsStderrAndRetries(t *testing.T) {
	e := demoEnv(t)
	good := e.opts.Connect
	attempts := 0
	failing := session.Source{Kind: session.Stdio, Command: "sh", Args: []string{"-c", "read -r line; printf 'fatal: no config\\033[2J\\n' >&2; exit 3"}}
	e.opts.Connect = func(ctx context.Context) (Session, error) {
		attempts++
		if attempts == 1 {
			return session.Open(ctx, failing, session.Options{})
		}
		return good(ctx)
	}
	h := newHarness(t, e.opts, 100, 30)
	h.waitUntil("failed", func(m *Model) bool { return m.conn == connFailed })
	s := h.screen()
	if !strings.Contains(s, "exit status 3") || !strings.Contains(s, "fatal: no config") || !strings.Contains(s, "r retries") {
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

func TestQuitAsksWhenWorkWouldBeLost(t *testing.T) {
	e := demoEnv(t)
	h := newHarness(t, e.opts, 80, 24)
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
	// Quitting waited for the draft to be written: it is on disk now.
	if d, err := e.drafts.Load("test"); err != nil || d != "(file_read)" {
		t.Errorf("draft not saved on quit: %q %v", d, err)
	}
	if _, err := h.m.sess.Tools(context.Background()); !errors.Is(err, session.ErrClosed) {
		t.Errorf("the session is not closed on quit: %v", err)
	}
}

func TestQuitAsksWithRunningCall(t *testing.T) {
	h := readyHarness(t, 80, 24)
	h.key("2")
	h.m.composer.setText(`(long_task :steps 100 :delay_ms 50)`)
	h.press("ctrl+g", "the run", func(m *Model) bool { return m.running() })
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

// A hostile server's names, descriptions and results never put an escape
// on the screen, though their text shows.
func TestUntrustedTextIsInert(t *testing.T) {
	e := serverEnv(t, session.Source{Kind: session.InProcess, Name: "evil", Server: hostileServer()})
	h := newHarness(t, e.opts, 160, 48)
	h.ready()
	for h.m.tools.selectedName() != hostileName {
		h.key("j")
	}
	h.waitUntil("schema", func(m *Model) bool { return m.schema.have.tool == hostileName })
	h.key("i") // the whole tool as sent, description included
	h.waitUntil("schema", func(m *Model) bool { return m.schema.have.invisible && m.schema.have.tool == hostileName })
	out := h.m.render()
	if loc := escapeRE.FindStringIndex(out); loc != nil {
		t.Fatalf("tool list/schema emitted an escape %q", out[loc[0]:min(loc[1]+4, len(out))])
	}
	if !strings.Contains(stripANSI(out), "steal") || !strings.Contains(stripANSI(out), "RED") {
		t.Errorf("the text itself should still show:\n%s", stripANSI(out))
	}
	h.press("enter", "the template", func(m *Model) bool { return m.focus == focusComposer })
	h.press("ctrl+g", "the confirmation", func(m *Model) bool { return m.modal != nil }) // no annotations: MCP's default says destructive
	if s := h.screen(); !strings.Contains(s, "destructive") {
		t.Fatalf("no confirmation:\n%s", s)
	}
	h.key("y")
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
	o := h.m.Report().Totals["json"]
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

// shoutServer logs through notifications/message when its tool is called,
// with escapes in the text.
func shoutServer() *server.MCPServer {
	srv := server.NewMCPServer("shout", "1.0", server.WithLogging())
	srv.AddTool(mcp.NewTool("shout", mcp.WithDescription("Logs twice."), mcp.WithReadOnlyHintAnnotation(true)),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s := server.ServerFromContext(ctx)
			for _, n := range []mcp.LoggingMessageNotification{
				mcp.NewLoggingMessageNotification(mcp.LoggingLevelDebug, "core", "debug noise"),
				mcp.NewLoggingMessageNotification(mcp.LoggingLevelError, "core", "disk \x1b]52;c;eA==\x07full"),
			} {
				_ = s.SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": n.Params.Level, "logger": n.Params.Logger, "data": n.Params.Data})
			}
			return mcp.NewToolResultText("shouted"), nil
		})
	return srv
}

// The session's feed reaches the log and protocol tabs: each log line
// once, the protocol messages paired with their latency.
func TestEventsReachLogAndProtocol(t *testing.T) {
	e := serverEnv(t, session.Source{Kind: session.InProcess, Name: "shout", Server: shoutServer()})
	h := newHarness(t, e.opts, 160, 48)
	h.ready()
	h.key("2")
	h.m.composer.setText(`(shout)`)
	h.key("ctrl+g")
	h.waitFor("call done", msgIs[callDoneMsg])
	h.waitUntil("the log lines", func(m *Model) bool { return countLogs(m, "debug noise") == 1 && countLogs(m, "full") == 1 })
	h.press("esc", "the editor left", func(m *Model) bool { return m.focus != focusComposer })
	h.key("3")
	if h.m.page != pageExplore {
		t.Fatalf("3 did not open Explore: page %v", h.m.page)
	}
	for h.m.explore.tab != tabLog {
		h.key("right")
	}
	s := h.screen()
	if !strings.Contains(s, "debug noise") || !strings.Contains(s, "disk") {
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
	for h.m.explore.proto[h.m.explore.nav[tabProtocol].Cursor].Method != "tools/list" {
		h.key("j")
	}
	s = h.screen()
	if !strings.Contains(s, "tools/list") || !strings.Contains(s, "→ request") || !strings.Contains(s, "← response") || !strings.Contains(s, `"tools"`) {
		t.Errorf("protocol tab does not pair request and response:\n%s", s)
	}
}

func countLogs(m *Model, text string) int {
	n := 0
	for _, e := range m.explore.log {
		if e.Kind == session.EventLog && strings.Contains(e.Text, text) {
			n++
		}
	}
	return n
}

func TestExploreReadsResourcesAndPrompts(t *testing.T) {
	h := readyHarness(t, 160, 48)
	h.key("3")
	h.waitUntil("lists", func(m *Model) bool { return m.explore.loaded })
	for h.m.explore.resources[h.m.explore.nav[tabResources].Cursor].URI != "file:///docs/README.md" {
		h.key("j")
	}
	h.key("enter")
	h.waitFor("detail", msgIs[detailMsg])
	if s := h.screen(); !strings.Contains(s, "mcpterm demo server") {
		t.Errorf("resource not read:\n%s", s)
	}
	h.key("right") // templates: file:///{+path}
	h.press("enter", "the variables dialog", func(m *Model) bool { return m.modal != nil })
	h.typeText("etc/hosts")
	h.key("enter")
	h.waitFor("detail", msgIs[detailMsg])
	if s := h.screen(); !strings.Contains(s, "localhost") {
		t.Errorf("template not expanded and read:\n%s", s)
	}
	h.key("right") // prompts: summarize_file
	h.press("enter", "the arguments dialog", func(m *Model) bool { return m.modal != nil })
	h.typeText("/etc/hosts")
	h.key("enter")
	h.waitFor("detail", msgIs[detailMsg])
	if s := h.screen(); !strings.Contains(s, "Summarize /etc/hosts") {
		t.Errorf("prompt not got:\n%s", s)
	}
}

// Replies to what the model no longer shows are dropped in one place: a
// side-by-side rendering for another key, an old check, a detail nobody
// waits for.
func TestStaleResultsAreDropped(t *testing.T) {
	h := readyHarness(t, 120, 40)
	shown := h.m.schema.have
	h.send(schemaMsg{t: h.m.issue(kindSchema, true), key: schemaKey{tool: "delete_todo", form: "json_full"}, left: "STALE", title: "x"})
	if h.m.schema.have != shown || strings.Contains(h.screen(), "STALE") {
		t.Error("a result for another key replaced the shown one")
	}
	h.key("2")
	h.typeText("{")
	old := h.m.issue(kindCheck, true)
	h.m.issue(kindCheck, true) // a newer check is on its way
	h.send(checkMsg{t: old, seq: h.m.composer.seq, check: composerCheck{summary: "OLD"}})
	if h.m.composer.check.summary == "OLD" {
		t.Error("an old check replaced the current one")
	}
	h.send(callDoneMsg{runID: 99})
	late := h.m.issue(kindDetail, false)
	h.m.issue(kindDetail, false)
	h.send(detailMsg{t: late, body: "LATE"})
	if strings.Contains(h.screen(), "LATE") {
		t.Error("a late detail reply landed")
	}
}

// A report counted for a tool list that has since changed never replaces
// the current one, whenever it arrives.
func TestStaleReportIsDropped(t *testing.T) {
	h := readyHarness(t, 120, 40)
	before := h.m.Report()
	oldList := h.m.issue(kindReport, true) // a report asked for the list shown now
	// The server's list changes: a new catalog, and its own report.
	set, err := toolset.Parse([]byte(`[{"name":"only_tool","description":"The one tool left.","inputSchema":{"type":"object"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	h.m.listGen++
	h.send(toolsMsg{t: h.m.issue(kindTools, false), set: set, cat: newCatalog(h.m.listGen, h.m.sess, set, h.m.opts)})
	h.waitUntil("the new list's report", func(m *Model) bool {
		r := m.Report()
		return r != nil && r != before && len(r.Tools) == 1
	})
	current := h.m.Report()
	// Now the old list's report lands, late.
	h.send(reportMsg{t: oldList, enc: h.m.enc, report: before})
	if h.m.Report() != current || h.m.tools.report != current {
		t.Fatal("a report for the old tool list replaced the current one")
	}
	if !strings.Contains(h.screen(), "only_tool") || strings.Contains(h.screen(), "file_read") {
		t.Errorf("the list shown is not the new one:\n%s", h.screen())
	}
}

func TestMouseSelectsAndScrolls(t *testing.T) {
	h := readyHarness(t, 160, 48)
	r := h.m.lay.tools
	// Row 0 of the list is at r.y+2 (border, headings).
	want := visibleNames(h.m)[2]
	h.send(tea.MouseClickMsg{X: r.x + 5, Y: r.y + 2 + 2, Button: tea.MouseLeft})
	if got := h.m.tools.selectedName(); got != want {
		t.Errorf("click selected %s, want %s", got, want)
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
	if s := h.screen(); !strings.Contains(s, "Keys") || !strings.Contains(s, "Everywhere") || !strings.Contains(s, "↑↓ scroll") {
		t.Errorf("full help:\n%s", s)
	}
	// At 80x24 the help scrolls, to its last group.
	h.key("G")
	if s := h.screen(); !strings.Contains(s, "A server's question") || !strings.Contains(s, "open the link") || !strings.Contains(s, "read-only") {
		t.Errorf("the end of the help:\n%s", s)
	}
	if s := h.screen(); !strings.Contains(s, "? help") || !strings.Contains(s, "q quit") {
		t.Errorf("the footer lacks the way to help and out:\n%s", s)
	}
	h.key("esc")
	if h.m.showHelp {
		t.Error("esc did not close help")
	}
	// In the editor ? is text; f1 is the help there, named in the footer.
	h.key("2")
	h.key("enter")
	if !h.m.textInputFocused() {
		t.Fatal("enter on the composer did not start editing")
	}
	if s := h.screen(); !strings.Contains(s, "f1 help") || !strings.Contains(s, "ctrl+c quit") {
		t.Errorf("the editor's footer lacks the way to help and out:\n%s", s)
	}
	h.key("?")
	if h.m.showHelp || !strings.Contains(h.m.composer.Value(), "?") {
		t.Errorf("? in the editor: help %v, text %q", h.m.showHelp, h.m.composer.Value())
	}
	h.key("f1")
	if !h.m.showHelp {
		t.Fatal("f1 in the editor did not open help")
	}
	h.key("G")
	if strings.Contains(h.m.composer.Value(), "G") {
		t.Error("a key for the open help reached the editor")
	}
	h.key("esc")
	if h.m.showHelp || !h.m.textInputFocused() {
		t.Errorf("esc: help %v, editing %v; want the help closed and the editor kept", h.m.showHelp, h.m.textInputFocused())
	}
}

func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

var ansiRE = regexp.MustCompile("\x1b\\[[0-9;:]*m")
