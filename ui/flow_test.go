package ui

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Flows run the real Bubble Tea program (teatest) at fixed sizes with the
// ASCII colour profile, drive it with keys, and compare the final screen
// with a golden file (go test ./ui -run Flow -update rewrites them).

// flow starts the program and returns it with a reader of everything it
// has written so far.
type flow struct {
	t   *testing.T
	tm  *teatest.TestModel
	out bytes.Buffer
}

func startFlow(t *testing.T, m *Model, w, h int) *flow {
	tm := teatest.NewTestModel(t, m,
		teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	return &flow{t: t, tm: tm}
}

// waitOutput waits until the program has written every one of words.
func (f *flow) waitOutput(words ...string) {
	f.t.Helper()
	teatest.WaitFor(f.t, f.tm.Output(), func(b []byte) bool {
		f.out.Write(b)
		plain := ansi.Strip(f.out.String())
		for _, w := range words {
			if !strings.Contains(plain, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

// keys sends key presses; later waits look only at what is drawn after them.
func (f *flow) keys(keys ...string) {
	f.forget()
	for _, k := range keys {
		f.tm.Send(keyMsg(k))
	}
}

func (f *flow) forget() {
	_, _ = io.ReadAll(f.tm.Output())
	f.out.Reset()
}

func (f *flow) typeText(s string) {
	f.forget()
	f.tm.Type(s)
}

// finish quits (forcing past the quit dialog) and returns the last screen.
func (f *flow) finish() string {
	f.t.Helper()
	f.keys("ctrl+c", "ctrl+c")
	fm := f.tm.FinalModel(f.t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
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

func flowOptions() (Options, *fakeBackend) {
	b := newFakeBackend()
	opts, _, _ := fakeOptions(b)
	return opts, b
}

func TestFlowBrowse(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			opts, _ := flowOptions()
			f := startFlow(t, New(opts), sz[0], sz[1])
			f.waitOutput("o200k", "file_read")
			f.keys("j", "j", "s", "s") // select a tool, sort by tokens
			f.waitOutput("tokens")
			f.keys("f", "i")
			f.waitOutput("sent")
			screen := f.finish()
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, screen)
		})
	}
}

func TestFlowComposeRun(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			opts, b := flowOptions()
			f := startFlow(t, New(opts), sz[0], sz[1])
			f.waitOutput("o200k")
			f.keys("enter")
			f.waitOutput("file_read")
			// Replace the template with a batch, typed as a user would.
			f.keys("ctrl+home")
			for i := 0; i < 30; i++ {
				f.keys("ctrl+k")
			}
			f.typeText(`[{"name": "file_read", "arguments": {"path": "a"}}, {"name": "file_read", "arguments": {"path": "b"}}]`)
			f.waitOutput("batch")
			f.keys("ctrl+r")
			f.waitOutput("2", "ok")
			f.waitOutput("args")
			screen := f.finish()
			if n := len(b.callLog()); n != 2 {
				t.Errorf("batch made %d calls", n)
			}
			checkFrame(t, screen, sz[0], sz[1])
			golden.RequireEqual(t, screen)
		})
	}
}

func TestFlowExplore(t *testing.T) {
	opts, b := flowOptions()
	f := startFlow(t, New(opts), 160, 48)
	f.waitOutput("o200k")
	b.events <- Event{Kind: EventLog, Time: time.Date(2026, 11, 30, 12, 0, 1, 0, time.UTC), Level: "warning", Logger: "core", Text: "cache is cold"}
	b.events <- Event{Kind: EventStderr, Time: time.Date(2026, 11, 30, 12, 0, 2, 0, time.UTC), Text: "listening on stdio"}
	f.keys("3")
	f.waitOutput("readme")
	f.keys("right", "right", "right", "right")
	f.waitOutput("cold")
	screen := f.finish()
	checkFrame(t, screen, 160, 48)
	golden.RequireEqual(t, screen)
}

// Fast typing loses no keys: a burst of keystrokes, sent faster than the
// checks they trigger can finish, all land in the editor in order.
func TestFlowFastTypingLosesNoKeys(t *testing.T) {
	opts, _ := flowOptions()
	f := startFlow(t, New(opts), 80, 24)
	f.waitOutput("o200k")
	f.keys("2")
	text := strings.Repeat(`{"name": "file_read", "arguments": {"path": "abcdefghij"}} `, 20)
	f.typeText(text)
	f.keys("ctrl+c", "ctrl+c")
	fm := f.tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if got := fm.composer.Value(); got != text {
		t.Fatalf("typed %d bytes, editor holds %d:\n%q", len(text), len(got), got)
	}
}
