package ui

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// composerLex is the composer's text as lexemes, for one version of the
// editor's text: what paints it, matches brackets and decides whether a
// typed ( or " closes itself. It is rebuilt at most once per edit.
type composerLex struct {
	version int
	text    string
	lx      []calls.Lexeme
	starts  []int // byte offset of each line
}

// lexed is the lexemes of the current text.
func (p *composerPane) lexed() *composerLex {
	v := p.editor.Version()
	if p.lex != nil && p.lex.version == v {
		return p.lex
	}
	text := p.editor.Value()
	l := &composerLex{version: v, text: text, lx: calls.Lex(text), starts: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	p.lex = l
	return l
}

// offset is the byte offset of rune col of line row.
func (l *composerLex) offset(row, col int) int {
	if row >= len(l.starts) {
		return len(l.text)
	}
	off := l.starts[row]
	for i := 0; i < col && off < len(l.text) && l.text[off] != '\n'; i++ {
		_, size := utf8.DecodeRuneInString(l.text[off:])
		off += size
	}
	return off
}

// position is the line and rune column of byte offset off.
func (l *composerLex) position(off int) (row, col int) {
	off = clamp(off, 0, len(l.text))
	row = sort.SearchInts(l.starts, off+1) - 1
	return row, utf8.RuneCountInString(l.text[l.starts[row]:off])
}

// paintLine is the editor's painter: each lexeme in its role's ink, the
// bracket at or before the cursor with its partner (or marked when it has
// none), and the place the last check's error points at.
func (p *composerPane) paintLine(row int, line []rune) []widget.Run {
	l := p.lexed()
	if row >= len(l.starts) || len(l.lx) == 0 {
		return nil
	}
	ci := &p.st.Code
	from := l.starts[row]
	to := from + len(string(line))
	inks := make([]*widget.Ink, len(line))
	ascii := to-from == len(line)
	runeAt := func(off int) int { // rune index in line of byte offset off
		if ascii {
			return off - from
		}
		return utf8.RuneCountInString(l.text[from:off])
	}
	fill := func(start, end int, ink *widget.Ink) {
		start, end = max(start, from), min(end, to)
		for i := runeAt(start); start < end && i < len(inks); i++ {
			inks[i] = ink
			_, size := utf8.DecodeRuneInString(l.text[start:])
			start += size
		}
	}
	first := sort.Search(len(l.lx), func(i int) bool { return l.lx[i].End > from })
	for i := first; i < len(l.lx) && l.lx[i].Start < to; i++ {
		fill(l.lx[i].Start, l.lx[i].End, roleInk(ci, l.lx[i]))
	}
	// Brackets: the one under or before the cursor and its partner.
	if p.focused {
		if b := p.bracketAtCursor(l); b >= 0 {
			lb := l.lx[b]
			if lb.Pair < 0 {
				fill(lb.Start, lb.End, ci.Unmatched)
			} else {
				fill(lb.Start, lb.End, ci.Match)
				fill(l.lx[lb.Pair].Start, l.lx[lb.Pair].End, ci.Match)
			}
		}
	}
	if s, e, ok := p.errorSpan(l); ok {
		fill(s, e, ci.Error)
	}
	var runs []widget.Run
	for i := 0; i < len(inks); i++ {
		if len(runs) > 0 && runs[len(runs)-1].Ink == inks[i] {
			runs[len(runs)-1].End = i + 1
			continue
		}
		runs = append(runs, widget.Run{End: i + 1, Ink: inks[i]})
	}
	return runs
}

func roleInk(ci *CodeInks, lx calls.Lexeme) *widget.Ink {
	switch lx.Role {
	case calls.RoleHead:
		return ci.Head
	case calls.RoleKeyword:
		return ci.Keyword
	case calls.RoleString:
		return ci.String
	case calls.RoleNumber:
		return ci.Number
	case calls.RoleLiteral:
		return ci.Literal
	case calls.RoleComment:
		return ci.Comment
	case calls.RoleKey:
		return ci.Key
	case calls.RolePunct:
		return ci.Punct
	case calls.RoleBad:
		return ci.Bad
	case calls.RoleOpen, calls.RoleClose:
		if lx.Pair < 0 {
			return ci.Unmatched
		}
		return ci.Punct
	}
	return nil
}

// bracketAtCursor is the index of the bracket lexeme under the cursor, or
// else just before it; -1 if neither is one.
func (p *composerPane) bracketAtCursor(l *composerLex) int {
	off := l.offset(p.editor.Line(), p.editor.Column())
	i := sort.Search(len(l.lx), func(i int) bool { return l.lx[i].End > off })
	isBracket := func(i int) bool {
		return i >= 0 && i < len(l.lx) && (l.lx[i].Role == calls.RoleOpen || l.lx[i].Role == calls.RoleClose)
	}
	if isBracket(i) && l.lx[i].Start == off {
		return i
	}
	if isBracket(i-1) && l.lx[i-1].End == off {
		return i - 1
	}
	return -1
}

// errorSpan is the bytes the last check's error points at, when the check
// answers the text shown: the lexeme there, or the one character.
func (p *composerPane) errorSpan(l *composerLex) (start, end int, ok bool) {
	if p.check.err == nil || p.checked != p.seq || p.check.pos.Line == 0 {
		return 0, 0, false
	}
	off := clamp(p.check.pos.Offset, 0, len(l.text))
	if off == len(l.text) { // at the end: the last thing written
		if n := len(l.lx); n > 0 {
			return l.lx[n-1].Start, l.lx[n-1].End, true
		}
		return 0, 0, false
	}
	i := sort.Search(len(l.lx), func(i int) bool { return l.lx[i].End > off })
	if i < len(l.lx) && l.lx[i].Start <= off {
		return l.lx[i].Start, l.lx[i].End, true
	}
	_, size := utf8.DecodeRuneInString(l.text[off:])
	return off, off + size, true
}

// caret is the editor's caret row for the last check's error.
func (p *composerPane) caret() *widget.Caret {
	l := p.lexed()
	s, e, ok := p.errorSpan(l)
	if !ok {
		return nil
	}
	row, col := l.position(s)
	erow, ecol := l.position(e)
	n := ecol - col
	if erow != row {
		n = utf8.RuneCountInString(l.text[s : strings.IndexByte(l.text[s:]+"\n", '\n')+s])
	}
	return &widget.Caret{Row: row, Col: col, Len: max(n, 1), Text: p.sanitize(errorText(p.check)), Ink: p.st.Code.Error}
}

// errorText is the check's error without the position it starts with
// (the caret shows where).
func errorText(c composerCheck) string {
	msg := c.err.Error()
	if pre := c.pos.String() + ": "; strings.HasPrefix(msg, pre) {
		msg = msg[len(pre):]
	}
	return oneLine(msg)
}

// autoClose types a bracket or quote the way code editors do: an opening
// ( or " (and { or [ in JSON) brings its closer, with the cursor between;
// typing the closer that is already there steps over it; backspace between
// an empty pair deletes both. Inside a string or a comment a character is
// just itself. A paste (bracketed) never comes here, and text typed key by
// key comes out as typed, since every closer typed steps over the one
// brought in. It reports whether it handled the key, and whether the
// text changed.
func (p *composerPane) autoClose(typed string) (handled, changed bool) {
	e := &p.editor
	l := p.lexed()
	off := l.offset(e.Line(), e.Column())
	in := calls.LexemeAt(l.lx, off)
	inString := in >= 0 && l.lx[in].Role == calls.RoleString
	if in >= 0 && !inString { // a comment
		return false, false
	}
	after := e.RuneAfter()
	free := after == 0 || after == ' ' || after == '\n' || after == ')' || after == ']' || after == '}' || after == ','
	switch typed {
	case "\"":
		if inString {
			if after == '"' && !escaped(l.text[:off]) {
				e.CursorRight()
				return true, false
			}
			return false, false
		}
		if !free {
			return false, false
		}
		e.InsertString(`""`)
		e.CursorLeft()
		return true, true
	case "(", "[", "{":
		if inString || !free || typed != "(" && !jsonText(l) && !onlyComments(l, off) {
			return false, false
		}
		e.InsertString(typed + string(closerOf(typed[0])))
		e.CursorLeft()
		return true, true
	case ")", "]", "}":
		if !inString && string(after) == typed {
			e.CursorRight()
			return true, false
		}
	case "backspace":
		before := e.RuneBefore()
		if before == 0 || before > 0x7f || after == 0 {
			return false, false
		}
		pair := closerOf(byte(before)) == byte(after) && byte(after) != 0
		if before == '"' {
			// An empty string: the quote before the cursor opens it.
			pair = after == '"' && inString && l.lx[in].Start == off-1 && l.lx[in].End == off+1
		}
		if pair {
			e.DeleteAround(1, 1)
			return true, true
		}
	}
	return false, false
}

func closerOf(b byte) byte {
	switch b {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	}
	return 0
}

// escaped reports whether the text ends in an odd run of backslashes: the
// next character is escaped.
func escaped(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// jsonText reports whether the text is JSON (or AQL): its first lexeme
// past comments is a { or [.
func jsonText(l *composerLex) bool {
	for _, x := range l.lx {
		if x.Role != calls.RoleComment {
			return l.text[x.Start] == '{' || l.text[x.Start] == '['
		}
	}
	return false
}

// onlyComments reports whether nothing but comments and white space comes
// before off: a { or [ typed there starts a JSON text.
func onlyComments(l *composerLex, off int) bool {
	for _, x := range l.lx {
		if x.Start >= off {
			break
		}
		if x.Role != calls.RoleComment {
			return false
		}
	}
	return true
}
