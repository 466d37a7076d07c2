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
	topRow  int // its first screen row shown (of its segments and caret row)
	width   int
	height  int
	focused bool
	version int // bumps on every change of the text

	keys        editorKeys
	text        *Ink
	cursor      *Ink
	placeholder lipgloss.Style
	Placeholder string
	// Paint, when set, colours the lines on screen (syntax, a matching
	// bracket, an error's place).
	Paint Painter
	// Caret, when set (SetCaret), is a row drawn under the screen row
	// holding its column, pointing at it: where an error is.
	Caret *Caret
}

// SetCaret points at a place in the text (nil: nowhere), keeping the
// cursor on screen.
func (e *Editor) SetCaret(c *Caret) {
	e.Caret = c
	e.scrollToCursor()
}

// Caret points at runes [Col, Col+Len) of line Row with a ^ under each
// and Text after them, in Ink.
type Caret struct {
	Row, Col, Len int
	Text          string
	Ink           *Ink
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
	return Editor{lines: [][]rune{{}}, keys: defaultEditorKeys(), width: 40, height: 5, cursor: NewInk(lipgloss.NewStyle().Reverse(true))}
}

func (e *Editor) SetStyles(text, cursor, placeholder lipgloss.Style) {
	e.text, e.cursor, e.placeholder = NewInk(text), NewInk(cursor), placeholder
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

// sanitizeInput keeps typed, pasted or loaded text printable: terminals
// paste line ends as CR (or CRLF), which become newlines; tabs become
// spaces; other controls, C1 ones too, go.
func sanitizeInput(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.ReplaceAll(s, "\t", "  ")
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f }

// RuneBefore is the rune left of the cursor on its line ('\n' at a line's
// start, 0 at the text's); RuneAfter the one under it ('\n' at a line's
// end, 0 at the text's).
func (e *Editor) RuneBefore() rune {
	switch {
	case e.col > 0:
		return e.lines[e.row][e.col-1]
	case e.row > 0:
		return '\n'
	}
	return 0
}

func (e *Editor) RuneAfter() rune {
	switch line := e.lines[e.row]; {
	case e.col < len(line):
		return line[e.col]
	case e.row < len(e.lines)-1:
		return '\n'
	}
	return 0
}

// CursorLeft and CursorRight move the cursor one rune on its line.
func (e *Editor) CursorLeft() { e.col = max(e.col-1, 0); e.goalCol = e.col; e.scrollToCursor() }
func (e *Editor) CursorRight() {
	e.col = min(e.col+1, len(e.lines[e.row]))
	e.goalCol = e.col
	e.scrollToCursor()
}

// DeleteAround deletes up to before runes left of the cursor and after
// runes right of it, on its line.
func (e *Editor) DeleteAround(before, after int) {
	line := e.lines[e.row]
	from, to := max(e.col-before, 0), min(e.col+after, len(line))
	if from == to {
		return
	}
	e.lines[e.row] = append(line[:from], line[to:]...)
	e.col, e.goalCol = from, from
	e.version++
	e.scrollToCursor()
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

func (e *Editor) lineHeight(i int) int {
	n := len(e.segments(e.lines[i]))
	if e.caretOn(i) {
		n++
	}
	return n
}

func (e *Editor) caretOn(row int) bool { return e.Caret != nil && e.Caret.Row == row }

// caretSegment is the screen row, within its line, the caret points into.
func (e *Editor) caretSegment(segs []int) int {
	n := 0
	for i, s := range segs {
		if e.Caret.Col >= s {
			n = i
		}
	}
	return n
}

// scrollToCursor moves the first screen row (top, and topRow within
// it: a line may wrap over more rows than the editor has) so the cursor's
// screen row is visible.
func (e *Editor) scrollToCursor() {
	e.row = clamp(e.row, 0, len(e.lines)-1)
	e.col = clamp(e.col, 0, len(e.lines[e.row]))
	e.top = clamp(e.top, 0, len(e.lines)-1)
	e.topRow = clamp(e.topRow, 0, e.lineHeight(e.top)-1)
	cur := e.cursorSegment()
	if e.row < e.top || e.row == e.top && cur < e.topRow {
		e.top, e.topRow = e.row, cur
		return
	}
	// Rows from the first on screen through the cursor's must fit.
	for {
		rows := -e.topRow
		for i := e.top; i < e.row && rows <= e.height; i++ {
			rows += e.lineHeight(i)
		}
		if rows+cur+1 <= e.height {
			return
		}
		e.topRow++
		if e.topRow >= e.lineHeight(e.top) {
			e.top, e.topRow = e.top+1, 0
		}
	}
}

// cursorSegment is the screen row of the cursor within its line (past
// the caret's row when that comes first).
func (e *Editor) cursorSegment() int {
	segs := e.segments(e.lines[e.row])
	n := 0
	for i, s := range segs {
		if e.col >= s {
			n = i
		}
	}
	if e.caretOn(e.row) && e.caretSegment(segs) < n {
		n++
	}
	return n
}

// View draws exactly height rows of width cells (the cursor in reverse).
func (e *Editor) View() string {
	rows := make([]string, 0, e.height)
	if len(e.lines) == 1 && len(e.lines[0]) == 0 && e.Placeholder != "" {
		var b strings.Builder
		if e.focused {
			e.cursor.Paint(&b, " ")
		}
		b.WriteString(e.placeholder.Render(ansi.Truncate(e.Placeholder, e.width-1, "…")))
		rows = append(rows, b.String())
	}
	var b strings.Builder
	skip := e.topRow // screen rows of the top line scrolled away
	for i := e.top; i < len(e.lines) && len(rows) < e.height; i++ {
		line := e.lines[i]
		segs := e.segments(line)
		var runs []Run
		if e.Paint != nil {
			runs = e.Paint(i, line)
		}
		add := func(row string) {
			if skip > 0 {
				skip--
			} else if len(rows) < e.height {
				rows = append(rows, row)
			}
		}
		for si, start := range segs {
			if len(rows) >= e.height {
				break
			}
			end := len(line)
			if si+1 < len(segs) {
				end = segs[si+1]
			}
			cur := -1
			if e.focused && i == e.row && e.col >= start && (e.col < end || si == len(segs)-1) {
				cur = e.col - start
			}
			b.Reset()
			paintSegment(&b, line[start:end], start, runs, e.text, cur, e.cursor)
			add(b.String())
			if e.caretOn(i) && e.caretSegment(segs) == si {
				add(e.caretRow(line[start:end], e.Caret.Col-start))
			}
		}
	}
	for len(rows) < e.height {
		rows = append(rows, "")
	}
	return strings.Join(rows, "\n")
}

// caretRow is the caret's row under seg: ^ under its runes from col on
// (within seg), then its text, cut to the width.
func (e *Editor) caretRow(seg []rune, col int) string {
	col = clamp(col, 0, len(seg))
	pad := runewidth.StringWidth(string(seg[:col]))
	n := clamp(e.Caret.Len, 1, max(len(seg)-col, 1))
	marks := strings.Repeat("^", max(runewidth.StringWidth(string(seg[col:min(col+n, len(seg))])), 1))
	note := strings.ReplaceAll(sanitizeInput(strings.ToValidUTF8(e.Caret.Text, "\uFFFD")), "\n", " ")
	text := marks
	if note != "" {
		text += " " + note
	}
	if pad+ansi.StringWidth(text) > e.width {
		// Too long to follow the marks: the text goes left of them.
		if note != "" && ansi.StringWidth(note)+1 <= pad {
			t := note + " "
			return strings.Repeat(" ", pad-ansi.StringWidth(t)) + e.inkString(t+ansi.Truncate(marks, e.width-pad, ""))
		}
		text = ansi.Truncate(text, max(e.width-pad, 1), "…")
	}
	return strings.Repeat(" ", pad) + e.inkString(text)
}

func (e *Editor) inkString(s string) string {
	var b strings.Builder
	e.Caret.Ink.Paint(&b, s)
	return b.String()
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		hi = lo
	}
	return max(lo, min(v, hi))
}
