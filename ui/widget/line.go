package widget

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Line is a one-line text input, for a form's fields. Unlike Editor it
// keeps its value exactly as given — a value read back from a call may hold
// newlines, tabs or control characters, and a form must not change what it
// did not edit — and leaves drawing each rune to the caller (Show), so
// nothing in the value can act on the terminal. It scrolls sideways to keep
// the cursor in view. Up, down, tab and enter are not its keys: they move
// between fields.
type Line struct {
	value []rune
	cur   int // cursor, in runes
	off   int // first rune on screen
	keys  lineKeys
}

type lineKeys struct {
	Left, Right, Home, End, WordLeft, WordRight,
	Backspace, Delete, DeleteWord, KillLine, KillStart key.Binding
}

func defaultLineKeys() lineKeys {
	b := func(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }
	return lineKeys{
		Left: b("left", "ctrl+b"), Right: b("right", "ctrl+f"), Home: b("home", "ctrl+a"), End: b("end", "ctrl+e"),
		WordLeft: b("alt+left", "ctrl+left", "alt+b"), WordRight: b("alt+right", "ctrl+right", "alt+f"),
		Backspace: b("backspace", "ctrl+h"), Delete: b("delete", "ctrl+d"), DeleteWord: b("ctrl+w", "alt+backspace"),
		KillLine: b("ctrl+k"), KillStart: b("ctrl+u"),
	}
}

// NewLine is an empty input.
func NewLine() Line { return Line{keys: defaultLineKeys()} }

// Value is the text, exactly as typed, pasted or set.
func (l *Line) Value() string { return string(l.value) }

// Len is the value's length in runes.
func (l *Line) Len() int { return len(l.value) }

// Cursor is the cursor's position in runes.
func (l *Line) Cursor() int { return l.cur }

// SetValue replaces the text, verbatim, and puts the cursor at its end.
func (l *Line) SetValue(s string) {
	l.value = []rune(s)
	l.cur = len(l.value)
	l.off = 0
}

// Insert puts s at the cursor. A paste's line ends arrive as CR or CRLF
// and become newlines; nothing else is changed.
func (l *Line) Insert(s string) {
	if strings.ContainsRune(s, '\r') {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	if s == "" {
		return
	}
	rs := []rune(s)
	v := make([]rune, 0, len(l.value)+len(rs))
	v = append(append(append(v, l.value[:l.cur]...), rs...), l.value[l.cur:]...)
	l.value = v
	l.cur += len(rs)
}

// Update applies one key or paste and reports whether the text changed.
// Keys it does not edit with (up, down, enter, tab, ctrl combinations it
// has no use for) are left to the caller: it reports false for them.
func (l *Line) Update(msg tea.Msg) bool {
	before := len(l.value)
	switch msg := msg.(type) {
	case tea.PasteMsg:
		l.Insert(msg.Content)
		return len(l.value) != before
	case tea.KeyPressMsg:
		return l.key(msg)
	}
	return false
}

// Handles reports whether msg is one of the input's keys (an edit or a
// cursor move), so a caller can give it the key before its own.
func (l *Line) Handles(msg tea.KeyPressMsg) bool {
	k := l.keys
	if key.Matches(msg, k.Left, k.Right, k.Home, k.End, k.WordLeft, k.WordRight,
		k.Backspace, k.Delete, k.DeleteWord, k.KillLine, k.KillStart) {
		return true
	}
	return msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0
}

func (l *Line) key(msg tea.KeyPressMsg) bool {
	k, v := l.keys, l.value
	switch {
	case key.Matches(msg, k.Left):
		l.cur = max(l.cur-1, 0)
	case key.Matches(msg, k.Right):
		l.cur = min(l.cur+1, len(v))
	case key.Matches(msg, k.Home):
		l.cur = 0
	case key.Matches(msg, k.End):
		l.cur = len(v)
	case key.Matches(msg, k.WordLeft):
		l.cur = wordStart(v, l.cur)
	case key.Matches(msg, k.WordRight):
		l.cur = wordEnd(v, l.cur)
	case key.Matches(msg, k.Backspace):
		if l.cur == 0 {
			return false
		}
		l.value = append(v[:l.cur-1:l.cur-1], v[l.cur:]...)
		l.cur--
		return true
	case key.Matches(msg, k.Delete):
		if l.cur >= len(v) {
			return false
		}
		l.value = append(v[:l.cur:l.cur], v[l.cur+1:]...)
		return true
	case key.Matches(msg, k.DeleteWord):
		start := wordStart(v, l.cur)
		if start == l.cur {
			return false
		}
		l.value = append(v[:start:start], v[l.cur:]...)
		l.cur = start
		return true
	case key.Matches(msg, k.KillLine):
		if l.cur >= len(v) {
			return false
		}
		l.value = v[:l.cur:l.cur]
		return true
	case key.Matches(msg, k.KillStart):
		if l.cur == 0 {
			return false
		}
		l.value = append([]rune(nil), v[l.cur:]...)
		l.cur = 0
		return true
	default:
		if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
			l.Insert(msg.Text)
			return true
		}
	}
	return false
}

// View draws the input in exactly width cells: text in the text style,
// the cursor (when focused) in the cursor style, each rune as show draws it
// (show must return printable text; nil draws runes as they are). The view
// scrolls so the cursor stays on screen.
func (l *Line) View(width int, focused bool, text, cursor lipgloss.Style, show func(rune) string) string {
	if width <= 0 {
		return ""
	}
	if show == nil {
		show = func(r rune) string { return string(r) }
	}
	cells := func(r rune) int { return ansi.StringWidth(NoJoin(show(r))) }
	avail := width
	if focused {
		under := 1 // the cursor's cell past the end
		if l.cur < len(l.value) {
			under = max(cells(l.value[l.cur]), 1)
		}
		avail -= under
	}
	// Keep the cursor between off and the right edge.
	if l.off > l.cur {
		l.off = l.cur
	}
	for {
		w := 0
		for i := l.off; i < l.cur; i++ {
			w += cells(l.value[i])
		}
		if w <= avail || l.off >= l.cur {
			break
		}
		l.off++
	}
	var b strings.Builder
	used := 0
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(text.Render(run.String()))
			run.Reset()
		}
	}
	for i := l.off; i <= len(l.value); i++ {
		if i == l.cur && focused {
			under := " "
			if i < len(l.value) {
				under = NoJoin(show(l.value[i]))
			}
			uw := max(ansi.StringWidth(under), 1)
			if used+uw > width {
				break
			}
			flush()
			b.WriteString(cursor.Render(under))
			used += uw
			continue
		}
		if i == len(l.value) {
			break
		}
		s := NoJoin(show(l.value[i]))
		sw := ansi.StringWidth(s)
		if used+sw > width {
			break
		}
		run.WriteString(s)
		used += sw
	}
	flush()
	return FitLine(b.String(), width)
}

// NoJoin shows the prepend characters of s (the Arabic number signs, the
// Syriac abbreviation mark and the like) as "·". A prepend character forms
// one grapheme with whatever follows it — the padding of a fitted line
// included — so a line ending in one measures a cell short and tears a
// frame. Text without one comes back unchanged.
func NoJoin(s string) string {
	if !strings.ContainsFunc(s, isPrepend) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isPrepend(r) {
			return '·'
		}
		return r
	}, s)
}

// isPrepend is Unicode's Grapheme_Cluster_Break=Prepend (15.1).
func isPrepend(r rune) bool {
	switch {
	case r < 0x0600:
		return false
	case r <= 0x0605, r == 0x06DD, r == 0x070F, r == 0x0890, r == 0x0891, r == 0x08E2, r == 0x0D4E:
		return true
	case r < 0x110BD:
		return false
	case r == 0x110BD, r == 0x110CD, r == 0x111C2, r == 0x111C3, r == 0x1193F, r == 0x11941,
		r == 0x11A3A, r >= 0x11A84 && r <= 0x11A89, r == 0x11D46, r == 0x11F02:
		return true
	}
	return false
}
