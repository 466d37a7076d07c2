package widget

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestLineEditing(t *testing.T) {
	l := NewLine()
	for _, k := range []string{"/", "e", "t", "c", "left", "left", "x", "end", "backspace", "home", "delete"} {
		l.Update(keyMsg(k))
	}
	if got := l.Value(); got != "ext" { // "/etc", x before "tc", the last rune and the first gone
		t.Fatalf("typed %q", got)
	}
	l.SetValue("alpha beta")
	l.Update(keyMsg("ctrl+w"))
	if got := l.Value(); got != "alpha " {
		t.Fatalf("ctrl+w left %q", got)
	}
	l.Update(keyMsg("ctrl+u"))
	if got := l.Value(); got != "" {
		t.Fatalf("ctrl+u left %q", got)
	}
	// A value is kept exactly: a paste's CRs become newlines, nothing else
	// changes; keys the line does not edit with report no change.
	l.Update(tea.PasteMsg{Content: "a\tb\r\nc\rd\x1b"})
	if got := l.Value(); got != "a\tb\nc\nd\x1b" {
		t.Fatalf("paste kept %q", got)
	}
	for _, k := range []string{"up", "down", "enter", "tab", "ctrl+n"} {
		if l.Update(keyMsg(k)) {
			t.Errorf("%s changed the text", k)
		}
	}
	if !l.Handles(keyMsg("x")) || !l.Handles(keyMsg("ctrl+w")) || l.Handles(keyMsg("up")) {
		t.Error("Handles disagrees with the keys the line edits with")
	}
}

// TestLineViewScrolls: the view is exactly its width and keeps the cursor
// on screen; show draws each rune.
func TestLineViewScrolls(t *testing.T) {
	l := NewLine()
	l.SetValue(strings.Repeat("abcdefghij", 5))
	plain, cur := lipgloss.NewStyle(), lipgloss.NewStyle().Reverse(true)
	v := l.View(12, true, plain, cur, nil)
	if w := ansi.StringWidth(v); w != 12 {
		t.Fatalf("view is %d cells", w)
	}
	if s := ansi.Strip(v); !strings.HasPrefix(s, "bcdefghij") && !strings.HasSuffix(strings.TrimRight(s, " "), "hij") {
		t.Fatalf("the end (where the cursor is) is not shown: %q", s)
	}
	l.Update(keyMsg("home"))
	if s := ansi.Strip(l.View(12, true, plain, cur, nil)); !strings.HasPrefix(s, "abcdefghij") {
		t.Fatalf("home does not scroll back: %q", s)
	}
	l.SetValue("a\nb")
	show := func(r rune) string {
		if r == '\n' {
			return "⏎"
		}
		return string(r)
	}
	if s := ansi.Strip(l.View(6, false, plain, cur, show)); s != "a⏎b   " {
		t.Fatalf("show not used: %q", s)
	}
	l.SetValue("漢字漢字漢字")
	for w := 1; w < 10; w++ {
		for c := 0; c <= l.Len(); c++ {
			l.cur = c
			if got := ansi.StringWidth(l.View(w, true, plain, cur, nil)); got != w {
				t.Fatalf("width %d, cursor %d: %d cells", w, c, got)
			}
		}
	}
}

// FuzzLine drives the line with arbitrary keys and pastes: it never
// panics, keeps its cursor inside the text, and draws exactly its width.
func FuzzLine(f *testing.F) {
	f.Add("abc\x01\x02\x03", 10)
	f.Add("漢字\x05\x06 🙂\x07", 3)
	f.Add("\x0e a\r\nb \x0f", 1)
	keys := []string{"left", "right", "home", "end", "alt+left", "alt+right", "backspace", "delete",
		"ctrl+w", "ctrl+k", "ctrl+u", "up", "enter", "tab"}
	f.Fuzz(func(t *testing.T, script string, w int) {
		l := NewLine()
		width := (w%60+60)%60 + 1
		plain, cur := lipgloss.NewStyle(), lipgloss.NewStyle().Reverse(true)
		for _, r := range script {
			switch {
			case r == 0x0e || r == 0x0f:
				l.Update(tea.PasteMsg{Content: script})
			case r < 32:
				l.Update(keyMsg(keys[int(r)%len(keys)]))
			default:
				l.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			if l.cur < 0 || l.cur > len(l.value) {
				t.Fatalf("cursor %d outside %d runes", l.cur, len(l.value))
			}
			show := func(r rune) string {
				if r < 0x20 || r == 0x7f {
					return "·"
				}
				return string(r)
			}
			for _, focused := range []bool{true, false} {
				if got := ansi.StringWidth(l.View(width, focused, plain, cur, show)); got != width {
					t.Fatalf("view is %d cells, want %d", got, width)
				}
			}
		}
	})
}
