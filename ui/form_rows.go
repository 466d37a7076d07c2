package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// The form on screen is a list of rows, one per field, nested groups
// indented under their header; it is rebuilt when the form's structure
// changes (an item added or removed, a variant chosen, a call loaded),
// never on an edit of a value.

// formRow is one field on screen.
type formRow struct {
	f      *field
	depth  int
	parent *field // the group the row sits in, for aligning labels
	owner  *field // the nearest list or map the row is inside, nil if none
	item   int    // the index in owner of the item the row is inside
	isItem bool   // the row is that item itself
	labelW int    // label column width of its group
	path   string
}

// maxLabelW caps the label column, so a long property name cannot push
// the values off screen.
const maxLabelW = 18

// rebuild lays the fields out as rows again, keeping the cursor on keep
// (or, when keep is nil, on the field it was on).
func (f *toolForm) rebuild(keep *field) {
	if keep == nil {
		if r := f.current(); r != nil {
			keep = r.f
		}
	}
	f.rows = f.rows[:0]
	root := f.root
	switch root.kind {
	case fieldRecord:
		f.walkKids(root, -1, "", nil, 0)
	default:
		f.walk(root, 0, "", nil, nil, 0, false)
	}
	widths := map[*field]int{}
	for _, r := range f.rows {
		widths[r.parent] = max(widths[r.parent], ansi.StringWidth(f.label(r.f)))
	}
	for i := range f.rows {
		f.rows[i].labelW = min(widths[f.rows[i].parent], maxLabelW)
	}
	if keep != nil {
		for i, r := range f.rows {
			if r.f == keep {
				f.cur = i
				break
			}
		}
	}
	f.cur = min(max(f.cur, 0), max(len(f.rows)-1, 0))
	f.scrollToCursor()
}

// walk adds the row of fl and those of what it holds.
func (f *toolForm) walk(fl *field, depth int, path string, parent, owner *field, item int, isItem bool) {
	f.rows = append(f.rows, formRow{f: fl, depth: depth, parent: parent, owner: owner, item: item, isItem: isItem, path: path})
	switch fl.kind {
	case fieldRecord:
		f.walkKids(fl, depth, path, owner, item)
	case fieldList, fieldMap:
		for i, k := range fl.kids {
			at := path + k.label
			if fl.kind == fieldMap {
				at = joinPath(path, k.kids[0].in.Value())
			}
			f.walk(k, depth+1, at, fl, fl, i, true)
		}
	case fieldEntry:
		for _, k := range fl.kids {
			f.walk(k, depth+1, path, fl, owner, item, false)
		}
	case fieldUnion:
		if fl.body == nil || fl.null || !fl.present() {
			return // an optional union shows its member's fields once given
		}
		if fl.body.kind == fieldRecord {
			f.walkKids(fl.body, depth, path, owner, item)
			return
		}
		f.walk(fl.body, depth+1, path, fl, owner, item, false)
	}
}

// walkKids adds the rows of a record's properties (and its undeclared
// ones) one level under depth.
func (f *toolForm) walkKids(rec *field, depth int, path string, owner *field, item int) {
	if rec.null {
		return
	}
	for _, k := range rec.kids {
		f.walk(k, depth+1, joinPath(path, k.name), rec, owner, item, false)
	}
	if rec.extra != nil {
		f.walk(rec.extra, depth+1, path, rec, owner, item, false)
	}
}

// label is a field's row label, safe to print.
func (f *toolForm) label(fl *field) string {
	return oneLine(f.sanitize(fl.label))
}

// scrollToCursor keeps the focused row on screen.
func (f *toolForm) scrollToCursor() {
	h := max(f.layout().fieldsH, 1)
	if f.cur < f.top {
		f.top = f.cur
	}
	if f.cur >= f.top+h {
		f.top = f.cur - h + 1
	}
	f.top = min(max(f.top, 0), max(len(f.rows)-h, 0))
}

// showRune draws one rune of a value being edited: line breaks and tabs
// as visible marks, anything the sanitiser would change as what it
// changes it to (a dot when that is nothing), so a value cannot act on the
// terminal while the cursor still counts runes.
func (f *toolForm) showRune(r rune) string { return visibleRune(f.sanitize, r) }

// visibleRune is showRune's rule, shared by every dialog that draws a value
// being typed (the call form, the elicitation form).
func visibleRune(sanitize func(string) string, r rune) string {
	switch {
	case r == '\n':
		return "⏎"
	case r == '\t':
		return "⇥"
	case r >= 0x20 && r < 0x7f:
		return string(r)
	}
	s := oneLine(sanitize(string(r)))
	if s == "" || strings.ContainsAny(s, "\n\t") {
		return "·"
	}
	return s
}

// showText draws a value not being edited, sanitised as a whole (so the
// redactor sees it whole), on one line.
func (f *toolForm) showText(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		s = strings.NewReplacer("\n", "⏎", "\t", "⇥").Replace(s)
	}
	return oneLine(f.sanitize(s))
}

// fitRows cuts or pads lines to exactly h rows of w cells.
func fitRows(lines []string, w, h int) []string {
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = widget.FitLine(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", w)
		}
	}
	return out
}
