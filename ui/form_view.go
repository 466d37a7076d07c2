package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// formLayout is where the parts of the form go at its size: the fields
// with the focused field's details under them, and the call with its
// verdict beside them (wide) or below them (narrow).
type formLayout struct {
	iw, ih   int
	wide     bool
	leftW    int // the fields' column
	fieldsH  int
	detailH  int
	callW    int // the width the call is printed at (0: one line)
	callH    int // rows of call text
	verdictH int
}

// formWide is the inner width from which the call goes beside the fields.
const formWide = 64

func (f *toolForm) layout() formLayout {
	iw, ih := widget.Inner(f.st.Frame, f.w, f.h)
	l := formLayout{iw: iw, ih: ih}
	if iw >= formWide && ih >= 4 {
		l.wide = true
		l.leftW = iw * 11 / 20
		l.callW = iw - l.leftW - 1
		switch {
		case ih >= 12:
			l.detailH = 2
		case ih >= 6:
			l.detailH = 1
		}
		l.fieldsH = ih - l.detailH
		l.verdictH = 1
		if ih >= 8 {
			l.verdictH = 2
		}
		if ih >= 12 && len(f.notes) > 0 {
			l.verdictH = 3
		}
		l.callH = max(ih-1-l.verdictH, 0)
	} else {
		l.leftW, l.callW = iw, iw
		if ih < 4 {
			l.fieldsH = max(ih-1, 1)
			l.verdictH = ih - l.fieldsH
		} else {
			bottom := max(ih*2/5, 3)
			area := ih - bottom
			if area >= 6 {
				l.detailH = 1
			}
			l.fieldsH = area - l.detailH
			l.verdictH = 1
			if bottom >= 6 {
				l.verdictH = 2
			}
			l.callH = bottom - 1 - l.verdictH
		}
	}
	if f.w <= 0 {
		l.callW = 0 // not laid out yet: one line
	}
	return l
}

// View draws the form in exactly its w x h cells.
func (f *toolForm) View() string {
	st := f.st
	f.refresh()
	l := f.layout()
	f.scrollToCursor()
	title := "Form · " + oneLine(f.sanitize(f.tool.Name))
	note := st.OK.Render("✓ valid")
	if f.err != nil {
		note = st.Error.Render("✗ not valid")
	}
	left := f.fieldLines(l)
	var lines []string
	if l.wide {
		right := f.callLines(l, l.callW, l.ih)
		sep := st.Subtle.Render("│")
		lines = make([]string, l.ih)
		for i := range lines {
			lines[i] = left[i] + sep + right[i]
		}
	} else {
		lines = append(lines, left...)
		lines = append(lines, f.callLines(l, l.iw, l.ih-len(left))...)
	}
	return widget.Frame(st.Frame, f.focused, f.w, f.h, title, note, strings.Join(lines, "\n"))
}

// fieldLines is the fields' column: the rows on screen, then the focused
// field's details; exactly fieldsH+detailH lines of leftW cells.
func (f *toolForm) fieldLines(l formLayout) []string {
	st := f.st
	out := make([]string, 0, l.fieldsH+l.detailH)
	probs := f.problemsByField()
	for i := f.top; i < len(f.rows) && len(out) < l.fieldsH; i++ {
		out = append(out, f.rowLine(f.rows[i], i == f.cur, l.leftW, probs))
	}
	if len(f.rows) == 0 {
		out = append(out, st.Muted.Render("no arguments"))
	}
	out = fitRows(out, l.leftW, l.fieldsH)
	if l.detailH > 0 {
		out = append(out, fitRows(f.detailLines(l.leftW, l.detailH, probs), l.leftW, l.detailH)...)
	}
	return out
}

func (f *toolForm) problemsByField() map[*field]string {
	if f.fieldErr == nil || len(f.fieldErr.list) == 0 {
		return nil
	}
	m := make(map[*field]string, len(f.fieldErr.list))
	for _, p := range f.fieldErr.list {
		if _, ok := m[p.f]; !ok {
			m[p.f] = p.msg
		}
	}
	return m
}

// rowLine draws one field: indent, mark (* required, ✗ refused), label,
// value.
func (f *toolForm) rowLine(r formRow, focused bool, w int, probs map[*field]string) string {
	st := f.st
	fl := r.f
	var b strings.Builder
	indent := 2 * max(r.depth, 0)
	b.WriteString(strings.Repeat(" ", indent))
	switch _, bad := probs[fl]; {
	case bad:
		b.WriteString(st.Error.Render("✗"))
	case fl.required && fl.name != "":
		b.WriteString(st.Warn.Render("*"))
	default:
		b.WriteString(" ")
	}
	label := widget.PadRight(widget.Truncate(f.label(fl), r.labelW), r.labelW)
	switch {
	case focused && f.focused:
		b.WriteString(st.Selected.Render(label))
	case focused:
		b.WriteString(st.Bold.Render(label))
	case isGroup(fl):
		b.WriteString(st.Bold.Render(label))
	default:
		b.WriteString(st.Text.Render(label))
	}
	b.WriteByte(' ')
	vw := w - indent - 1 - r.labelW - 1 // the mark is one cell, the label padded to labelW
	if vw > 0 {
		b.WriteString(f.valueView(fl, focused && f.focused, vw))
	}
	return b.String()
}

func isGroup(fl *field) bool {
	switch fl.kind {
	case fieldRecord, fieldList, fieldMap, fieldEntry:
		return true
	}
	return false
}

// valueView draws a field's value in w cells.
func (f *toolForm) valueView(fl *field, editing bool, w int) string {
	st := f.st
	if fl.null {
		return st.Muted.Render("null")
	}
	switch fl.kind {
	case fieldText, fieldInt, fieldNum, fieldRaw:
		hint := ""
		if fl.in.Len() == 0 {
			hint = f.hint(fl)
		}
		if editing {
			if hint != "" {
				return st.EditorCursor.Render(" ") + st.Muted.Render(widget.Truncate(hint, w-1))
			}
			return fl.in.View(w, true, st.EditorText, st.EditorCursor, f.showRune)
		}
		if hint != "" {
			return st.Muted.Render(widget.Truncate(hint, w))
		}
		return st.Text.Render(widget.Truncate(f.showText(fl.in.Value()), w))
	case fieldBool:
		box, word := "[ ]", "false"
		if fl.on {
			box, word = "[x]", "true"
		}
		if !fl.present() {
			return st.Muted.Render(widget.Truncate("[ ] not given"+f.defaultNote(fl), w))
		}
		return st.Text.Render(widget.Truncate(box+" "+word, w))
	case fieldChoice:
		if !fl.present() {
			return st.Muted.Render(widget.Truncate("not given"+f.defaultNote(fl), w))
		}
		v := f.showText(litText(fl.values[fl.pick]))
		if len(fl.values) == 1 {
			return st.Text.Render(widget.Truncate(v, w))
		}
		return f.chooser(v, fl.pick, len(fl.values), editing, w)
	case fieldUnion:
		if !fl.present() && !editing {
			return st.Muted.Render(widget.Truncate("not given · "+f.showText(fl.alts[fl.pick].label)+" when given", w))
		}
		return f.chooser(f.showText(fl.alts[fl.pick].label), fl.pick, len(fl.alts), editing, w)
	case fieldRecord:
		if !fl.present() {
			return st.Muted.Render(widget.Truncate("not given", w))
		}
		return ""
	case fieldList:
		n := len(fl.kids)
		s := strconv.Itoa(n) + " items"
		if n == 1 {
			s = "1 item"
		}
		if !fl.present() {
			s = "not given"
		}
		if editing {
			s += " · " + f.keys.FormAdd.Help().Key + " adds"
		}
		return st.Muted.Render(widget.Truncate(s, w))
	case fieldMap:
		n := len(fl.kids)
		s := strconv.Itoa(n) + " entries"
		if n == 1 {
			s = "1 entry"
		}
		if !fl.present() {
			s = "not given"
		}
		if editing {
			s += " · " + f.keys.FormAdd.Help().Key + " adds"
		}
		return st.Muted.Render(widget.Truncate(s, w))
	case fieldEntry:
		return st.Muted.Render(widget.Truncate(f.showText(fl.kids[0].in.Value()), w))
	}
	return ""
}

// chooser draws "◂ value ▸ 2/3" (the arrows while it has the cursor).
func (f *toolForm) chooser(v string, i, n int, editing bool, w int) string {
	st := f.st
	count := " " + strconv.Itoa(i+1) + "/" + strconv.Itoa(n)
	if editing {
		inner := widget.Truncate(v, max(w-4-len(count), 1))
		return st.Info.Render("◂ ") + st.Text.Render(inner) + st.Info.Render(" ▸") + st.Muted.Render(count)
	}
	return st.Text.Render(widget.Truncate(v, max(w-len(count), 1))) + st.Muted.Render(count)
}

// hint is what an empty text field shows: its default, "not given", or
// what it wants.
func (f *toolForm) hint(fl *field) string {
	switch {
	case fl.set && fl.kind == fieldText:
		return `""`
	case fl.set:
		return ""
	case fl.def != nil && !fl.required:
		return f.showText(litText(fl.def)) + " (default)"
	case !fl.required:
		return "not given"
	}
	switch fl.kind {
	case fieldInt:
		return "an integer"
	case fieldNum:
		return "a number"
	case fieldRaw:
		return "JSON"
	}
	return ""
}

func (f *toolForm) defaultNote(fl *field) string {
	if fl.def == nil {
		return ""
	}
	return " · default " + f.showText(litText(fl.def))
}

// detailLines describe the focused field: its path and type with the
// schema's constraints, then what is wrong with it, or its description.
func (f *toolForm) detailLines(w, h int, probs map[*field]string) []string {
	st := f.st
	r := f.current()
	if r == nil {
		return nil
	}
	fl := r.f
	facts := f.facts(r)
	var why string
	var style = st.Muted
	switch {
	case probs[fl] != "":
		why, style = oneLine(f.sanitize(probs[fl])), st.Error
	case fl.note != "":
		why, style = "loaded as raw JSON: "+fl.note, st.Warn
	case fl.shape != nil:
		if d := fl.shape.Annotation("description"); d != nil && d.Kind == ojson.String {
			why = oneLine(f.sanitize(d.Str))
		}
	}
	lines := []string{st.Subtle.Render(widget.Truncate(facts, w))}
	if h == 1 {
		if why != "" {
			return []string{style.Render(widget.Truncate(why, w))}
		}
		return lines
	}
	for _, l := range wrapLines(why, w, h-1) {
		lines = append(lines, style.Render(l))
	}
	return lines
}

// facts is a field's path, type and constraints on one line.
func (f *toolForm) facts(r *formRow) string {
	fl := r.f
	var parts []string
	if r.path != "" {
		parts = append(parts, r.path)
	}
	if fl.shape != nil && fl.kind != fieldEntry {
		parts = append(parts, fl.shape.Notation())
	}
	if fl.required && fl.name != "" {
		parts = append(parts, "required")
	}
	if fl.def != nil {
		parts = append(parts, "default "+litText(fl.def))
	}
	if fl.shape != nil && fl.shape.Schema() != nil {
		s := fl.shape.Schema()
		num := func(k string) string {
			if v := s.Get(k); v != nil && v.Kind == ojson.Number {
				return string(v.Num)
			}
			return ""
		}
		for _, c := range []struct{ k, label string }{
			{"minimum", "≥ "}, {"maximum", "≤ "}, {"exclusiveMinimum", "> "}, {"exclusiveMaximum", "< "},
			{"multipleOf", "× "}, {"minLength", "min length "}, {"maxLength", "max length "},
			{"minItems", "min items "}, {"maxItems", "max items "},
		} {
			if v := num(c.k); v != "" {
				parts = append(parts, c.label+v)
			}
		}
		if v := s.Get("format"); v != nil && v.Kind == ojson.String {
			parts = append(parts, "format "+v.Str)
		}
		if v := s.Get("pattern"); v != nil && v.Kind == ojson.String {
			parts = append(parts, "pattern "+v.Str)
		}
	}
	return oneLine(f.sanitize(strings.Join(parts, " · ")))
}

// callLines is the call's column (or, narrow, the part under the fields):
// a title, the highlighted call, its verdict; exactly h lines of w cells.
func (f *toolForm) callLines(l formLayout, w, h int) []string {
	st := f.st
	if h <= 0 {
		return nil
	}
	out := make([]string, 0, h)
	if l.callH > 0 || !l.wide && h > l.verdictH {
		head := st.PaneTitle.Render("call")
		if !l.wide {
			head = st.Subtle.Render("── ") + head + " " + st.Subtle.Render(strings.Repeat("─", max(w-8, 0)))
		}
		out = append(out, head)
	}
	verdict := f.verdictLines(w, min(l.verdictH, h-len(out)))
	body := h - len(out) - len(verdict)
	if body > 0 {
		total := strings.Count(f.text, "\n") + 1
		shown := body
		if total > body && body > 1 {
			shown = body - 1 // the last row says how many more
		}
		var lines []string
		if text := f.highlighted(shown); text != "" {
			lines = strings.Split(text, "\n")
		}
		if total > shown && shown < body {
			lines = append(lines[:min(len(lines), shown):min(len(lines), shown)], st.Muted.Render("… "+strconv.Itoa(total-shown)+" more lines"))
		}
		out = append(out, fitRows(lines, w, body)...)
	}
	out = append(out, verdict...)
	return fitRows(out, w, h)
}

// highlighted is the first n lines of the call text, sanitised and
// highlighted. Highlighting is the dearest part of a frame, so it is done
// per line and kept by line: a key changes a line or two of the call, and
// only those are highlighted again. (A printed call's strings never span
// lines, so a line highlights alone as it does in the whole.)
func (f *toolForm) highlighted(n int) string {
	if n <= 0 {
		return ""
	}
	if f.hlFor == f.text && f.hlN == n && f.hlTheme == f.st.Palette.Name {
		return f.hlText
	}
	lexer := "scheme"
	if f.textJSON {
		lexer = "json"
	}
	if f.hlTheme != f.st.Palette.Name || len(f.hlLines) > 1024 {
		f.hlLines = map[string]string{}
	}
	text := f.text
	if i := nthLineEnd(text, n); i >= 0 {
		text = text[:i]
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		k := lexer + "\x00" + l
		h, ok := f.hlLines[k]
		if !ok {
			h = widget.Highlight(f.st.Syntax, lexer, f.sanitize(l))
			f.hlLines[k] = h
		}
		lines[i] = h
	}
	f.hlFor, f.hlN, f.hlTheme = f.text, n, f.st.Palette.Name
	f.hlText = strings.Join(lines, "\n")
	return f.hlText
}

// nthLineEnd is the index of the n-th line break of s, -1 if it has fewer.
func nthLineEnd(s string, n int) int {
	at := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(s[at:], '\n')
		if i < 0 {
			return -1
		}
		at += i + 1
	}
	return at - 1
}

// verdictLines say whether the call is one: valid, or the first thing
// wrong with it (the form's own check first, then the codec's), and what a
// load kept as raw JSON.
func (f *toolForm) verdictLines(w, h int) []string {
	st := f.st
	if h <= 0 {
		return nil
	}
	var out []string
	switch {
	case f.err == nil:
		out = append(out, st.OK.Render(widget.Truncate("✓ valid: this call would run", w)))
	default:
		msg := oneLine(f.sanitize(f.err.Error()))
		if f.flash != "" {
			msg = f.flash + " — " + msg
		}
		for _, l := range wrapLines("✗ "+msg, w, h) {
			out = append(out, st.Error.Render(l))
		}
	}
	if len(f.notes) > 0 {
		note := st.Warn.Render(widget.Truncate(strconv.Itoa(len(f.notes))+" loaded value(s) kept as raw JSON: "+oneLine(f.sanitize(f.notes[0])), w))
		if len(out) >= h {
			out = out[:h-1] // the error's last line gives way: what was loaded matters more
		}
		out = append(out, note)
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}

// wrapLines wraps plain text to w cells in at most h lines, the last cut
// with an ellipsis when there is more.
func wrapLines(s string, w, h int) []string {
	if s == "" || h <= 0 || w <= 0 {
		return nil
	}
	lines := strings.Split(ansi.Wrap(s, w, ""), "\n")
	if len(lines) > h {
		rest := strings.Join(lines[h-1:], " ")
		lines = append(lines[:h-1:h-1], widget.Truncate(rest, w))
	}
	return lines
}
