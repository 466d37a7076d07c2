package ui

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/mcpterm/mcpterm/session"
)

// Flows run the real Bubble Tea program (teatest) at fixed sizes with the
// ASCII colour profile, drive it with keys, and compare the final screen
// with a golden file (go test ./ui -run Flow -update rewrites them).

// flow drives the program; all is every byte it has written (what a
// terminal would have received).
type flow struct {
	t   *testing.T
	tm  *teatest.TestModel
	all bytes.Buffer
}

// probed is the workbench as a flow runs it: it answers a probeMsg with
// the screen it would draw now, so a flow waits for what is on the screen
// rather than for bytes of output (a renderer that writes only the cells
// that changed never writes most words whole).
type probed struct{ *Model }

type probeMsg struct{ screen chan<- string }

func (p probed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if pm, ok := msg.(probeMsg); ok {
		pm.screen <- ansi.Strip(p.Model.Screen())
		return p, nil
	}
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

func startFlow(t *testing.T, m *Model, w, h int) *flow {
	tm := teatest.NewTestModel(t, probed{m},
		teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	return &flow{t: t, tm: tm}
}

// waitOutput waits until the screen shows every one of words, and
// returns it. It asks the program for its screen until then (every 20 ms,
// for up to 30 s).
func (f *flow) waitOutput(words ...string) string {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		f.forget()
		ch := make(chan string, 1)
		f.tm.Send(probeMsg{screen: ch})
		select {
		case last = <-ch:
			if containsAll(last, words) {
				return last
			}
		case <-time.After(5 * time.Second):
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("the screen did not show %q in 30s; it shows:\n%s", words, last)
		}
		<-tick.C
	}
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// keys sends key presses.
func (f *flow) keys(keys ...string) {
	for _, k := range keys {
		f.tm.Send(keyMsg(k))
	}
}

// forget moves what the program wrote into all.
func (f *flow) forget() {
	b, _ := io.ReadAll(f.tm.Output())
	f.all.Write(b)
}

func (f *flow) typeText(s string) {
	f.tm.Type(s)
}

// flowHangGuard bounds how long a flow may take to end: only a hang should
// reach it (1,200 keys typed under -race on a loaded 2-core machine took
// longer than 20 s).
const flowHangGuard = 90 * time.Second

// finish quits (forcing past the quit dialog) and returns the last screen.
func (f *flow) finish() string {
	f.t.Helper()
	f.keys("ctrl+c", "ctrl+c")
	fm := f.tm.FinalModel(f.t, teatest.WithFinalTimeout(flowHangGuard)).(probed)
	f.forget()
	return ansi.Strip(fm.Screen())
}

func checkFrame(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Errorf("screen has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i+1, n, w, l)
		}
	}
}

// normalize hides what legitimately changes between runs or with the
// converters' output: durations, clock times, token counts and savings,
// the header's totals line.
var (
	reDur    = regexp.MustCompile(`\d+(\.\d+)?(µs|ms|s)\b`)
	reClock  = regexp.MustCompile(`\d\d:\d\d:\d\d(\.\d+)?`)
	reCounts = regexp.MustCompile(`[\d,]+→[\d,]+ +[-+±]\d+%`)
	reTok    = regexp.MustCompile(`[\d,]+ tok`)
	rePct    = regexp.MustCompile(`[-+±]\d+%`)
	reRowTok = regexp.MustCompile(`<t> +[\d,]+( +│)`) // a results table row's tokens
	reSpaces = regexp.MustCompile(`  +`)
)

func normalize(screen string) string {
	lines := strings.Split(screen, "\n")
	if len(lines) > 1 {
		lines[1] = "<totals>"
	}
	s := strings.Join(lines, "\n")
	s = reCounts.ReplaceAllString(s, "<n→n>")
	s = reTok.ReplaceAllString(s, "<n> tok")
	s = rePct.ReplaceAllString(s, "<%>")
	s = reDur.ReplaceAllString(s, "<t>")
	s = reRowTok.ReplaceAllString(s, "<t> <n>$1")
	s = reClock.ReplaceAllString(s, "<clock>")
	// Replacements change widths; runs of spaces are collapsed so the
	// frame's right edge does not move with them.
	return reSpaces.ReplaceAllString(s, " ")
}

func TestFlowBrowse(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			f := startFlow(t, New(demoEnv(t).opts), sz[0], sz[1])
			f.waitOutput("o200k", "file_read")
			f.keys("j", "j", "s", "s") // select a tool, sort by tokens
			f.waitOutput("tokens")
			f.keys("f", "i")
			f.waitOutput("sent")
			screen := f.finish()
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, normalize(screen))
		})
	}
}

// The main flow against the demo server: compose a batch in MCP-Term, run
// it, see each result.
func TestFlowComposeRun(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			e := demoEnv(t)
			f := startFlow(t, New(e.opts), sz[0], sz[1])
			f.waitOutput("o200k", "file_read")
			f.keys("2")
			f.typeText(`(batch (1 (fr "/etc/hosts")) (2 (ct "buy milk")) (3 (gt "00000000-0000-4000-8000-000000000000")))`)
			f.waitOutput("batch of 3 calls", "S-expr")
			f.keys("ctrl+g")
			f.waitOutput("2 ok", "1 failed")
			f.waitOutput("↳") // the rendered results, each under its call, follow the outcome
			screen := f.finish()
			if n := e.calls.Load(); n != 3 {
				t.Errorf("the batch made %d calls", n)
			}
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, normalize(screen))
		})
	}
}

func TestFlowExplore(t *testing.T) {
	f := startFlow(t, New(demoEnv(t).opts), 160, 48)
	f.waitOutput("o200k")
	f.keys("3")
	f.waitOutput("README.md")
	// The protocol tab has the handshake from before the UI subscribed.
	f.keys("left")
	f.waitOutput("tools/list")
	screen := f.finish()
	checkFrame(t, screen, 160, 48)
	golden.RequireEqual(t, normalize(screen))
}

// A server that cannot start shows its stderr in the UI, not on exit.
func TestFlowConnectFailureShowsStderr(t *testing.T) {
	e := serverEnv(t, session.Source{Kind: session.Stdio, Command: "sh", Args: []string{"-c", "read -r line; echo 'fatal: no config file' >&2; exit 3"}})
	f := startFlow(t, New(e.opts), 100, 30)
	f.waitOutput("Connection", "retries")
	screen := f.finish()
	if !strings.Contains(screen, "r retries") || !strings.Contains(screen, "fatal: no config file") || !strings.Contains(screen, "exit status 3") {
		t.Errorf("connection failure screen lacks the stderr, the status or the retry hint:\n%s", screen)
	}
}

// A hostile server: none of its escapes reach the terminal. The test reads
// the bytes the program actually wrote.
func TestFlowHostileServerEmitsNoEscapes(t *testing.T) {
	e := serverEnv(t, session.Source{Kind: session.InProcess, Name: "evil", Server: hostileServer()})
	f := startFlow(t, New(e.opts), 160, 48)
	f.waitOutput("o200k", "steal")
	f.keys("j") // the hostile tool (file_read is listed first)
	f.waitOutput("steal")
	f.keys("i") // the whole tool as sent
	f.waitOutput("sent")
	f.keys("enter")
	f.waitOutput("Composer")
	f.keys("ctrl+g")
	f.waitOutput("destructive") // no annotations: MCP's default says it may be
	f.keys("y")
	f.waitOutput("moved", "RED")
	screen := f.finish()
	rest, _ := io.ReadAll(f.tm.FinalOutput(t))
	all := append(f.all.Bytes(), rest...)
	for _, bad := range []string{"\x1b]52;", "\x1b]8;;http://evil", "\x1b]0;title", "\x1b[10;10H moved", "\x1b[31mRED", "\u009b31m", "\x07_it"} {
		if bytes.Contains(all, []byte(bad)) {
			t.Errorf("the terminal received %q", bad)
		}
	}
	for _, want := range []string{"steal", "RED", "moved", "result"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the text %q itself should still show:\n%s", want, screen)
		}
	}
}

// Fast typing loses no keys: a burst of keystrokes, sent faster than the
// checks they trigger can finish, all land in the editor in order.
func TestFlowFastTypingLosesNoKeys(t *testing.T) {
	f := startFlow(t, New(demoEnv(t).opts), 80, 24)
	f.waitOutput("o200k")
	f.keys("2")
	text := strings.Repeat(`{"name": "file_read", "arguments": {"path": "abcdefghij"}} `, 20)
	f.typeText(text)
	f.keys("ctrl+c", "ctrl+c")
	fm := f.tm.FinalModel(t, teatest.WithFinalTimeout(flowHangGuard)).(probed)
	if got := fm.composer.Value(); got != text {
		t.Fatalf("typed %d bytes, editor holds %d:\n%q", len(text), len(got), got)
	}
}
