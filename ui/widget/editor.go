package widget

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

// Editor is a multi-line text input. bubbles' textarea
// re-renders its whole buffer on every keystroke (twice, with the frame),
// which put a 4 KB batch over the keystroke budget; this one edits a slice
// of lines in place and draws only the lines on screen, soft-wrapped.
type Editor struct {
	lines   [][]rune
	row     int // cursor line
	col     int // cursor column, in runes
	goalCol int // column kept while moving up and down
	top     int // first line on screen
	width   int
	height  int
	focused bool
	version int // bumps on every change of the text

	keys        editorKeys
	text        lipgloss.Style
	cursor      lipgloss.Style
	placeholder lipgloss.Style
	Placeholder string
}

// editorKeys are the editing bindings (part of the help's full view).
type editorKeys struct {
	Left, Right, Up, Down, Home, End, Begin, EndBuf,
	WordLeft, WordRight, Backspace, Delete, DeleteWord, KillLine, KillStart,
	Newline, PageUp, PageDown key.Binding
}

func defaultEditorKeys() editorKeys {
	b := func(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }
	return editorKeys{
		Left: b("left", "ctrl+b"), Right: b("right", "ctrl+f"), Up: b("up"), Down: b("down"),
		Home: b("home", "ctrl+a"), End: b("end", "ctrl+e"), Begin: b("ctrl+home", "alt+<"), EndBuf: b("ctrl+end", "alt+>"),
		WordLeft: b("alt+left", "ctrl+left", "alt+b"), WordRight: b("alt+right", "ctrl+right", "alt+f"),
		Backspace: b("backspace", "ctrl+h"), Delete: b("delete", "ctrl+d"), DeleteWord: b("ctrl+w", "alt+backspace"),
		KillLine: b("ctrl+k"), KillStart: b("ctrl+u"), Newline: b("enter"),
		PageUp: b("pgup"), PageDown: b("pgdown"),
	}
}

// NewEditor is an empty editor.
func NewEditor() Editor {
	return Editor{lines: [][]rune{{}}, keys: defaultEditorKeys(), width: 40, height: 5}
}

func (e *Editor) SetStyles(text, cursor, placeholder lipgloss.Style) {
	e.text, e.cursor, e.placeholder = text, cursor, placeholder
}

func (e *Editor) SetWidth(w int)  { e.width = max(w, 2); e.scrollToCursor() }
func (e *Editor) SetHeight(h int) { e.height = max(h, 1); e.scrollToCursor() }
func (e *Editor) Height() int     { return e.height }
func (e *Editor) Focus()          { e.focused = true }
func (e *Editor) Blur()           { e.focused = false }
func (e *Editor) Line() int       { return e.row }
func (e *Editor) Column() int     { return e.col }
func (e *Editor) LineCount() int  { return len(e.lines) }
func (e *Editor) Version() int    { return e.version }

func (e *Editor) Value() string {
	n := len(e.lines)
	for _, l := range e.lines {
		n += len(l)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range e.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(l))
	}
	return b.String()
}

// SetValue replaces the text and puts the cursor at its end.
func (e *Editor) SetValue(s string) {
	e.lines = e.lines[:0]
	for _, l := range strings.Split(sanitizeInput(s), "\n") {
		e.lines = append(e.lines, []rune(l))
	}
	e.version++
	e.MoveToEnd()
}

// sanitizeInput keeps typed or pasted text printable: terminals paste line
// ends as CR (or CRLF), which become newlines; tabs become spaces; other
// controls go.
func sanitizeInput(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ReplaceAll(s, "\t", "  ")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

func (e *Editor) MoveToBegin() { e.row, e.col = 0, 0; e.goalCol = 0; e.scrollToCursor() }
func (e *Editor) MoveToEnd() {
	e.row = len(e.lines) - 1
	e.col = len(e.lines[e.row])
	e.goalCol = e.col
	e.scrollToCursor()
}
func (e *Editor) CursorDown() {
	if e.row < len(e.lines)-1 {
		e.row++
		e.col = min(e.goalCol, len(e.lines[e.row]))
	}
	e.scrollToCursor()
}
func (e *Editor) CursorUp() {
	if e.row > 0 {
		e.row--
		e.col = min(e.goalCol, len(e.lines[e.row]))
	}
	e.scrollToCursor()
}
func (e *Editor) SetCursorColumn(c int) {
	e.col = clamp(c, 0, len(e.lines[e.row]))
	e.goalCol = e.col
	e.scrollToCursor()
}
func (e *Editor) PageUp() {
	for i := 0; i < e.height-1; i++ {
		e.CursorUp()
	}
}
func (e *Editor) PageDown() {
	for i := 0; i < e.height-1; i++ {
		e.CursorDown()
	}
}

// InsertString inserts s at the cursor.
func (e *Editor) InsertString(s string) {
	s = sanitizeInput(s)
	if s == "" {
		return
	}
	parts := strings.Split(s, "\n")
	line := e.lines[e.row]
	tail := append([]rune(nil), line[e.col:]...)
	first := append(line[:e.col:e.col], []rune(parts[0])...)
	if len(parts) == 1 {
		e.lines[e.row] = append(first, tail...)
		e.col += len([]rune(parts[0]))
	} else {
		rest := make([][]rune, 0, len(parts)-1)
		for _, p := range parts[1:] {
			rest = append(rest, []rune(p))
		}
		last := len(rest) - 1
		e.col = len(rest[last])
		rest[last] = append(rest[last], tail...)
		e.lines[e.row] = first
		e.lines = append(e.lines[:e.row+1], append(rest, e.lines[e.row+1:]...)...)
		e.row += len(rest)
	}
	e.goalCol = e.col
	e.version++
	e.scrollToCursor()
}

// Update applies one key (or a paste). It reports whether the text changed.
func (e *Editor) Update(msg tea.Msg) bool {
	if !e.focused {
		return false
	}
	v := e.version
	switch msg := msg.(type) {
	case tea.PasteMsg:
		e.InsertString(msg.Content)
	case tea.KeyPressMsg:
		e.key(msg)
	}
	return e.version != v
}

func (e *Editor) key(msg tea.KeyPressMsg) {
	k := e.keys
	line := e.lines[e.row]
	switch {
	case key.Matches(msg, k.Newline):
		e.InsertString("\n")
	case key.Matches(msg, k.Backspace):
		if e.col > 0 {
			e.lines[e.row] = append(line[:e.col-1], line[e.col:]...)
			e.col--
			e.version++
		} else if e.row > 0 {
			prev := e.lines[e.row-1]
			e.col = len(prev)
			e.lines[e.row-1] = append(prev, line...)
			e.lines = append(e.lines[:e.row], e.lines[e.row+1:]...)
			e.row--
			e.version++
		}
		e.goalCol = e.col
	case key.Matches(msg, k.Delete):
		if e.col < len(line) {
			e.lines[e.row] = append(line[:e.col], line[e.col+1:]...)
			e.version++
		} else if e.row < len(e.lines)-1 {
			e.lines[e.row] = append(line, e.lines[e.row+1]...)
			e.lines = append(e.lines[:e.row+1], e.lines[e.row+2:]...)
			e.version++
		}
	case key.Matches(msg, k.DeleteWord):
		start := wordStart(line, e.col)
		if start < e.col {
			e.lines[e.row] = append(line[:start], line[e.col:]...)
			e.col = start
			e.version++
		} else if e.row > 0 {
			e.key(tea.KeyPressMsg{Code: tea.KeyBackspace})
		}
		e.goalCol = e.col
	case key.Matches(msg, k.KillLine):
		if e.col < len(line) {
			e.lines[e.row] = line[:e.col]
			e.version++
		} else if e.row < len(e.lines)-1 {
			e.key(tea.KeyPressMsg{Code: tea.KeyDelete})
		}
	case key.Matches(msg, k.KillStart):
		if e.col > 0 {
			e.lines[e.row] = append([]rune(nil), line[e.col:]...)
			e.col, e.goalCol = 0, 0
			e.version++
		}
	case key.Matches(msg, k.Left):
		if e.col > 0 {
			e.col--
		} else if e.row > 0 {
			e.row--
			e.col = len(e.lines[e.row])
		}
		e.goalCol = e.col
	case key.Matches(msg, k.Right):
		if e.col < len(line) {
			e.col++
		} else if e.row < len(e.lines)-1 {
			e.row++
			e.col = 0
		}
		e.goalCol = e.col
	case key.Matches(msg, k.Up):
		e.CursorUp()
	case key.Matches(msg, k.Down):
		e.CursorDown()
	case key.Matches(msg, k.Begin):
		e.MoveToBegin()
	case key.Matches(msg, k.EndBuf):
		e.MoveToEnd()
	case key.Matches(msg, k.Home):
		e.col, e.goalCol = 0, 0
	case key.Matches(msg, k.End):
		e.col = len(line)
		e.goalCol = e.col
	case key.Matches(msg, k.WordLeft):
		e.col = wordStart(line, e.col)
		e.goalCol = e.col
	case key.Matches(msg, k.WordRight):
		e.col = wordEnd(line, e.col)
		e.goalCol = e.col
	case key.Matches(msg, k.PageUp):
		e.PageUp()
	case key.Matches(msg, k.PageDown):
		e.PageDown()
	default:
		if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
			e.InsertString(msg.Text)
		}
	}
	e.scrollToCursor()
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'
}

func wordStart(line []rune, col int) int {
	i := col
	for i > 0 && !isWordRune(line[i-1]) {
		i--
	}
	for i > 0 && isWordRune(line[i-1]) {
		i--
	}
	return i
}

func wordEnd(line []rune, col int) int {
	i := col
	for i < len(line) && !isWordRune(line[i]) {
		i++
	}
	for i < len(line) && isWordRune(line[i]) {
		i++
	}
	return i
}

// segments splits a line into screen rows of at most width cells; the
// start index of each row is returned.
func (e *Editor) segments(line []rune) []int {
	starts := []int{0}
	w := 0
	for i, r := range line {
		rw := runewidth.RuneWidth(r)
		if w+rw > e.width-1 && w > 0 { // keep one cell for the cursor at the end
			starts = append(starts, i)
			w = 0
		}
		w += rw
	}
	return starts
}

func (e *Editor) lineHeight(i int) int { return len(e.segments(e.lines[i])) }

// scrollToCursor moves top so the cursor's screen row is visible.
func (e *Editor) scrollToCursor() {
	e.row = clamp(e.row, 0, len(e.lines)-1)
	e.col = clamp(e.col, 0, len(e.lines[e.row]))
	if e.row < e.top {
		e.top = e.row
		return
	}
	// Rows from top through the cursor's segment must fit in height.
	for e.top < e.row {
		rows := 0
		for i := e.top; i < e.row; i++ {
			rows += e.lineHeight(i)
			if rows >= e.height {
				break
			}
		}
		rows += e.cursorSegment() + 1
		if rows <= e.height {
			break
		}
		e.top++
	}
}

// cursorSegment is the screen row of the cursor within its line.
func (e *Editor) cursorSegment() int {
	segs := e.segments(e.lines[e.row])
	n := 0
	for i, s := range segs {
		if e.col >= s {
			n = i
		}
	}
	return n
}

// View draws exactly height rows of width cells (the cursor in reverse).
func (e *Editor) View() string {
	rows := make([]string, 0, e.height)
	if len(e.lines) == 1 && len(e.lines[0]) == 0 && e.Placeholder != "" {
		cur := ""
		if e.focused {
			cur = e.cursor.Render(" ")
		}
		rows = append(rows, cur+e.placeholder.Render(ansi.Truncate(e.Placeholder, e.width-1, "…")))
	}
	for i := e.top; i < len(e.lines) && len(rows) < e.height; i++ {
		line := e.lines[i]
		segs := e.segments(line)
		for si, start := range segs {
			if len(rows) >= e.height {
				break
			}
			end := len(line)
			if si+1 < len(segs) {
				end = segs[si+1]
			}
			seg := line[start:end]
			if e.focused && i == e.row && e.col >= start && (e.col < end || si == len(segs)-1) {
				c := e.col - start
				under := " "
				rest := ""
				if c < len(seg) {
					under = string(seg[c])
					rest = string(seg[c+1:])
				}
				rows = append(rows, e.text.Render(string(seg[:c]))+e.cursor.Render(under)+e.text.Render(rest))
			} else {
				rows = append(rows, e.text.Render(string(seg)))
			}
		}
	}
	for len(rows) < e.height {
		rows = append(rows, "")
	}
	return strings.Join(rows, "\n")
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		hi = lo
	}
	return max(lo, min(v, hi))
}
