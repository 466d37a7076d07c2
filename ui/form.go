package ui

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpterm/mcpterm/convert/calls"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/safe"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// toolForm is a tool's call as a form: one field per slot of its input
// schema (choices for enums, toggles for booleans, numbers checked as
// typed, nested records as indented groups, lists with items added and
// removed, a variant choice for a tagged union that swaps the fields below
// it), with the call the form holds beside it, printed and checked by the
// codec after every change, so what is shown is what would run. It reads
// an existing call back (Load).
//
// The form is a pane: it asks the root, with formDoneMsg when the user
// accepts the call and formCancelMsg when they leave, and does no I/O.
// While focused it takes every key, as a text input does (capturesKeys).
type toolForm struct {
	inbox    // requests of the root
	st       *Styles
	keys     *KeyMap
	codec    *calls.Codec
	tool     *toolset.Tool
	sanitize func(string) string

	w, h    int
	focused bool

	root  *field
	rows  []formRow
	cur   int // the focused row
	top   int // the first row on screen
	notes []string
	flash string // a one-off word (why the call was not accepted)

	// The call the fields hold, recomputed after each change.
	dirty    bool
	printW   int
	text     string
	textJSON bool // text is the arguments as JSON: no S-expression writes them yet
	plan     *calls.Plan
	err      error
	fieldErr *problems
	readErr  error
	hlText   string // the highlighted call: the first hlN lines of hlFor
	hlFor    string
	hlN      int
	hlTheme  string
	hlLines  map[string]string // highlighted lines by their text
}

// Requests the form makes of the root.
type (
	formDoneMsg   struct{ text string } // use this call (the canonical S-expression the form shows)
	formCancelMsg struct{}              // leave the form; nothing changes
)

// newToolForm is the form for tool, in its initial state: required fields
// filled with their defaults, optional ones not given.
func newToolForm(st *Styles, keys *KeyMap, codec *calls.Codec, tool *toolset.Tool, sanitize func(string) string) *toolForm {
	if sanitize == nil {
		sanitize = safe.Text
	}
	// Everything the form prints passes here; NoJoin keeps every line
	// its measured width.
	show := func(s string) string { return widget.NoJoin(sanitize(s)) }
	f := &toolForm{st: st, keys: keys, codec: codec, tool: tool, sanitize: show}
	f.root = f.newRoot()
	f.rebuild(nil)
	f.dirty = true
	return f
}

func (f *toolForm) newRoot() *field {
	root := newField(f.codec.Resolver().InputShape(f.tool.Name), true, 0)
	root.label = "arguments"
	return root
}

// formLoadError says which parts of a loaded call no field could hold;
// they are in the form as raw JSON, unchanged.
type formLoadError struct{ notes []string }

func (e *formLoadError) Error() string {
	n := len(e.notes)
	what := "1 value"
	if n != 1 {
		what = fmt.Sprintf("%d values", n)
	}
	return what + " kept as raw JSON: " + strings.Join(e.notes, "; ")
}

// Load fills the form from an existing call of its tool. Every value lands
// in a field that writes it back as it was; a value no field of its slot
// can hold is kept whole as raw JSON in its place, and the error (a
// *formLoadError) names each one. A call of another tool, or an AQL item
// answered locally, is refused and the form is left as it was.
func (f *toolForm) Load(it *calls.Item) error {
	switch {
	case it == nil:
		return errors.New("no call to load")
	case it.Tool == "":
		return errors.New("this request is answered locally: there is no tool call to put in the form")
	case it.Tool != f.tool.Name:
		return fmt.Errorf("the call is to %s; this form is for %s", oneLine(f.sanitize(it.Tool)), oneLine(f.sanitize(f.tool.Name)))
	}
	args := it.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	root := f.newRoot()
	var notes []string
	root.load(args, "", &notes)
	f.root, f.notes, f.flash = root, notes, ""
	f.cur, f.top = 0, 0
	f.rebuild(nil)
	f.changed()
	if len(notes) > 0 {
		return &formLoadError{notes: notes}
	}
	return nil
}

// Call is the call the form holds now: its canonical MCP-Term text as the
// codec prints it at the width of the column beside the fields, the plan
// the codec reads back from that text, and what is wrong with it — a field
// the form refuses (a number out of range, text that is no number) or the
// codec's verdict — in which case the plan is nil. The text is there even
// then, so the user sees what they have: the S-expression, or the JSON
// call when no S-expression can write the arguments yet (a required
// field left empty inside a nested record).
func (f *toolForm) Call() (string, *calls.Plan, error) {
	f.refresh()
	return f.text, f.plan, f.err
}

// refresh recomputes the call when a field changed or the width did.
func (f *toolForm) refresh() {
	width := f.layout().callW
	if !f.dirty && width == f.printW {
		return
	}
	f.dirty, f.printW = false, width
	ps := &problems{}
	args, ok := f.root.value("", ps)
	if !ok || args == nil {
		args = ojson.NewObject()
	}
	f.fieldErr = ps
	plan := &calls.Plan{Syntax: calls.SExpr, Items: []calls.Item{{Tool: f.tool.Name, Arguments: args}}}
	text, err := f.codec.Print(plan, calls.SExpr, width)
	if err != nil {
		// Arguments an S-expression cannot write yet (a required field
		// left empty inside a record) are shown as the JSON they are.
		f.text, _ = f.codec.Print(plan, calls.JSON, width)
		f.textJSON, f.plan, f.readErr = true, nil, err
		f.err = err
		if len(ps.list) > 0 {
			f.err = errors.New(ps.Error())
		}
		return
	}
	f.text, f.textJSON = text, false
	read, rerr := f.codec.Read(text)
	f.readErr = rerr
	switch {
	case len(ps.list) > 0:
		f.plan, f.err = nil, errors.New(ps.Error())
	case rerr != nil:
		f.plan, f.err = nil, rerr
	default:
		f.plan, f.err = read, nil
	}
}

// changed marks the call for recomputing, and computes it: the text beside
// the form follows every key.
func (f *toolForm) changed() {
	f.dirty = true
	f.flash = ""
	f.refresh()
}

func (f *toolForm) SetSize(w, h int) {
	f.w, f.h = w, h
	f.scrollToCursor()
	f.refresh()
}

func (f *toolForm) Focus() tea.Cmd     { f.focused = true; return nil }
func (f *toolForm) Blur()              { f.focused = false }
func (f *toolForm) capturesKeys() bool { return f.focused }

func (f *toolForm) current() *formRow {
	if f.cur < 0 || f.cur >= len(f.rows) {
		return nil
	}
	return &f.rows[f.cur]
}

// Help lists the keys that do something on the focused field.
func (f *toolForm) Help() []key.Binding {
	k := f.keys
	out := []key.Binding{k.FormNext, k.FormPrev}
	if r := f.current(); r != nil {
		switch r.f.kind {
		case fieldChoice, fieldBool, fieldUnion:
			out = append(out, k.FormChoiceNext, k.FormChoicePrev)
		}
		if r.f.kind == fieldList || r.f.kind == fieldMap || r.owner != nil {
			out = append(out, k.FormAdd)
		}
		out = append(out, k.FormRemove)
	}
	return append(out, k.FormEnter, k.FormAccept, k.FormCancel)
}

// Update takes keys and pastes (the root routes them here while the form
// has focus).
func (f *toolForm) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if r := f.current(); r != nil && r.f.editsText() && r.f.in.Update(msg) {
			f.edited(r.f)
		}
	case tea.KeyPressMsg:
		return f.key(msg)
	}
	return nil
}

func (f *toolForm) key(msg tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	r := f.current()
	switch {
	case key.Matches(msg, k.FormCancel):
		return f.ask(formCancelMsg{})
	case key.Matches(msg, k.FormAccept):
		return f.accept()
	case key.Matches(msg, k.FormEnter):
		if f.cur >= len(f.rows)-1 {
			return f.accept()
		}
		f.move(1)
	case key.Matches(msg, k.FormNext):
		f.move(1)
	case key.Matches(msg, k.FormPrev):
		f.move(-1)
	case key.Matches(msg, k.FormPageDown):
		f.move(max(f.layout().fieldsH-1, 1))
	case key.Matches(msg, k.FormPageUp):
		f.move(-max(f.layout().fieldsH-1, 1))
	case r == nil:
	case key.Matches(msg, k.FormAdd):
		f.add(r)
	case key.Matches(msg, k.FormRemove):
		f.remove(r)
	case r.f.editsText():
		if r.f.in.Update(msg) {
			f.edited(r.f)
		}
	case key.Matches(msg, k.FormChoiceNext):
		f.cycle(r.f, 1)
	case key.Matches(msg, k.FormChoicePrev):
		f.cycle(r.f, -1)
	}
	return nil
}

// accept asks the root to use the call, when it is one; otherwise it
// says why not and goes to the first field at fault.
func (f *toolForm) accept() tea.Cmd {
	text, _, err := f.Call()
	if err == nil {
		return f.ask(formDoneMsg{text: text})
	}
	f.flash = "not yet: fix the call first"
	if f.fieldErr != nil && len(f.fieldErr.list) > 0 {
		f.focusField(f.fieldErr.list[0].f)
	}
	return nil
}

func (f *toolForm) move(d int) {
	if len(f.rows) == 0 {
		return
	}
	f.cur = min(max(f.cur+d, 0), len(f.rows)-1)
	f.scrollToCursor()
}

func (f *toolForm) focusField(fl *field) {
	for i, r := range f.rows {
		if r.f == fl {
			f.cur = i
			f.scrollToCursor()
			return
		}
	}
}

// edited follows a change of a text field: given while it holds text.
func (f *toolForm) edited(fl *field) {
	fl.set = fl.in.Len() > 0
	fl.null = false
	fl.note = ""
	f.changed()
}

// cycle moves a choice, toggle or variant by d, or gives an optional group.
func (f *toolForm) cycle(fl *field, d int) {
	switch fl.kind {
	case fieldBool:
		fl.on = !fl.on
		fl.set, fl.null = true, false
	case fieldChoice:
		n := len(fl.values)
		switch {
		case n == 1:
			fl.pick = 0
			fl.set = !fl.set || fl.null
		case !fl.set && !fl.required || fl.null:
			if dp := fl.defaultPick(); dp >= 0 {
				fl.pick = ((dp+d)%n + n) % n
			} else if d > 0 {
				fl.pick = 0
			} else {
				fl.pick = n - 1
			}
			fl.set = true
		default:
			fl.pick = ((fl.pick+d)%n + n) % n
		}
		fl.null = false
	case fieldUnion:
		if fl.present() && !fl.null {
			n := len(fl.alts)
			fl.choose(((fl.pick+d)%n+n)%n, true)
		} // else the first key gives the member shown
		fl.set, fl.null = true, false
		f.rebuild(fl)
	case fieldRecord, fieldList, fieldMap:
		if d > 0 && !fl.set {
			fl.set, fl.null = true, false
		} else {
			return
		}
	default:
		return
	}
	f.changed()
}

// add puts a new item after the focused one (or at the end of the focused
// list) and goes to it.
func (f *toolForm) add(r *formRow) {
	list, at := r.f, len(r.f.kids)
	if r.f.kind != fieldList && r.f.kind != fieldMap {
		if r.owner == nil {
			f.flash = "nothing here takes items"
			return
		}
		list, at = r.owner, r.item+1
	}
	if list.kind == fieldList {
		if p := list.shape.PrefixItems(); p > 0 {
			at = len(list.kids) // a tuple's shapes follow the index
			if !list.shape.MoreItems() && at >= p {
				f.flash = fmt.Sprintf("this list holds at most %d items", p)
				return
			}
		}
	}
	list.null = false
	k := list.addItem(at)
	f.rebuild(k)
	f.changed()
}

// remove takes the focused item out of its list, or clears the field:
// an optional one is no longer given, a nullable one becomes null first,
// a required one goes back to its initial value.
func (f *toolForm) remove(r *formRow) {
	if r.isItem {
		r.owner.removeItem(r.item)
		next := r.owner
		if r.item < len(r.owner.kids) {
			next = r.owner.kids[r.item]
		} else if r.item > 0 {
			next = r.owner.kids[r.item-1]
		}
		f.rebuild(next)
		f.changed()
		return
	}
	fl := r.f
	if fl.nullable && !fl.null && fl.present() {
		fl.reset()
		fl.null, fl.set = true, true
	} else {
		fl.reset()
	}
	f.rebuild(fl)
	f.changed()
}

// reset puts a field back in its initial state, in place (rows point at it).
func (f *field) reset() {
	if f.shape == nil && f.kind == fieldText { // a map entry's key
		f.in.SetValue("")
		f.set, f.null = false, false
		return
	}
	nf := buildField(f.shape, f.as, f.required, f.depth)
	nf.name, nf.label = f.name, f.label
	*f = *nf
}

// editsText reports a field edited as text.
func (f *field) editsText() bool {
	switch f.kind {
	case fieldText, fieldInt, fieldNum, fieldRaw:
		return true
	}
	return false
}

// click puts the cursor on the field under the pointer (x, y relative to
// the form's top-left corner).
func (f *toolForm) click(x, y int) tea.Cmd {
	l := f.layout()
	row := y - 1 // the top border
	if row < 0 || row >= l.fieldsH || x < 1 || x > l.leftW+1+f.st.Frame.Blurred.GetPaddingLeft() {
		return nil
	}
	if i := f.top + row; i < len(f.rows) {
		f.cur = i
	}
	return nil
}

// wheel moves the cursor, and the fields with it.
func (f *toolForm) wheel(delta int) tea.Cmd { f.move(delta); return nil }
