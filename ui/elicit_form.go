package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpterm/mcpterm/convert/elicit"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// elicitDialog is a server's elicitation as a dialog: a form built from
// the requested schema (convert/elicit reads it and checks every answer),
// or, in URL mode, the link to visit. It answers the request itself (the
// answer is a buffered send, no I/O) and asks the root for anything else
// (opening the link) with a message. It does not close on a wrong answer:
// the fields in error say why, next to them.
type elicitDialog struct {
	inbox
	req      *askRequest
	server   string // sanitised
	message  string // sanitised
	sanitize func(string) string
	height   func() int // the screen's, for scrolling the fields

	// URL mode.
	url    string // as sent (opened as is)
	urlErr string // the URL is not one mcpterm opens (not http/https)
	opened string // what opening it did, once asked

	// Form mode.
	form  *elicit.Form
	rows  []elicitRow
	cur   int
	top   int
	tried bool   // accept was pressed: missing required fields now show
	flash string // why the answer was not sent

	answered bool // the request has its answer: the dialog is done
}

// elicitRow is one field being answered.
type elicitRow struct {
	f    *elicit.Field
	line widget.Line // String, Number, Integer
	set  bool        // Boolean, Enum, Multi: the field has a value
	on   bool        // Boolean
	pick int         // Enum: the chosen option
	sel  []bool      // Multi: the ticked options
	opt  int         // Multi: the option under the cursor
	err  string      // why the value does not fit (shown next to the field)
}

// elicitOpenMsg asks the root to open the URL of an elicitation.
type elicitOpenMsg struct {
	d   *elicitDialog
	url string
}

func newElicitDialog(r *askRequest, form *elicit.Form, sanitize func(string) string, height func() int) *elicitDialog {
	d := &elicitDialog{req: r, server: oneLine(sanitize(r.server)), message: sanitize(r.elicit.Params.Message), sanitize: sanitize, height: height, form: form}
	if form == nil {
		d.url = r.elicit.Params.URL
		return d
	}
	for i := range form.Fields {
		f := &form.Fields[i]
		row := elicitRow{f: f, line: widget.NewLine(), pick: -1, sel: make([]bool, len(f.Options))}
		switch v := f.Default.(type) {
		case nil:
		case bool:
			row.set, row.on = true, v
		case []string:
			row.set = true
			for j, o := range f.Options {
				row.sel[j] = slices.Contains(v, o.Value)
			}
		default:
			if f.Kind == elicit.Enum {
				for j, o := range f.Options {
					if o.Value == v {
						row.set, row.pick = true, j
					}
				}
			} else {
				row.line.SetValue(f.Text(v))
			}
		}
		d.rows = append(d.rows, row)
	}
	d.check()
	return d
}

// value is the row's answer; ok is false when the field is left out.
func (r *elicitRow) value() (v any, ok bool, err error) {
	switch r.f.Kind {
	case elicit.String:
		// An empty text is no answer: a required field needs one.
		if r.line.Len() == 0 {
			return nil, false, nil
		}
		return r.line.Value(), true, nil
	case elicit.Number, elicit.Integer:
		if r.line.Len() == 0 {
			return nil, false, nil
		}
		v, err := r.f.ParseText(r.line.Value())
		return v, err == nil, err
	case elicit.Boolean:
		return r.on, r.set, nil
	case elicit.Enum:
		if !r.set || r.pick < 0 {
			return nil, false, nil
		}
		return r.f.Options[r.pick].Value, true, nil
	case elicit.Multi:
		if !r.set {
			return nil, false, nil
		}
		out := []string{}
		for j, on := range r.sel {
			if on {
				out = append(out, r.f.Options[j].Value)
			}
		}
		return out, true, nil
	}
	return nil, false, nil
}

// check recomputes every row's error: live for what is typed or chosen,
// and, once accept was tried, for the required fields left empty.
func (d *elicitDialog) check() (content map[string]any, ok bool) {
	content = map[string]any{}
	ok = true
	for i := range d.rows {
		r := &d.rows[i]
		r.err = ""
		v, has, err := r.value()
		switch {
		case err != nil:
			r.err = err.Error()
		case has:
			if err := r.f.Check(v); err != nil {
				r.err = err.Error()
			} else {
				content[r.f.Name] = v
			}
		case r.f.Required:
			if d.tried {
				r.err = "required"
			}
			ok = false
		}
		if r.err != "" {
			ok = false
		}
	}
	if ok && d.form.Validate(content) != nil {
		ok = false
	}
	return content, ok
}

// finish answers the request and closes the dialog.
func (d *elicitDialog) finish(res *mcp.ElicitationResult) (bool, tea.Cmd) {
	d.req.answer(askReply{elicit: res})
	d.answered = true
	return true, nil
}

func elicitResult(a mcp.ElicitationResponseAction, content map[string]any) *mcp.ElicitationResult {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: a, Content: content}}
}

// Update handles a key (or a paste into a text field).
func (d *elicitDialog) Update(msg tea.Msg, keys *KeyMap) (bool, tea.Cmd) {
	if p, ok := msg.(tea.PasteMsg); ok && d.form != nil && len(d.rows) > 0 {
		if r := &d.rows[d.cur]; r.editsText() {
			r.line.Insert(p.Content)
			d.check()
		}
		return false, nil
	}
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil
	}
	switch {
	case key.Matches(km, keys.ElicitCancel):
		return d.finish(elicitResult(mcp.ElicitationResponseActionCancel, nil))
	case key.Matches(km, keys.ElicitDecline):
		return d.finish(elicitResult(mcp.ElicitationResponseActionDecline, nil))
	}
	if d.form == nil {
		return d.urlKey(km, keys)
	}
	d.flash = ""
	if key.Matches(km, keys.ElicitAccept) || key.Matches(km, keys.ElicitEnter) && d.cur >= len(d.rows)-1 {
		return d.accept()
	}
	if len(d.rows) == 0 {
		return false, nil
	}
	r := &d.rows[d.cur]
	switch {
	case key.Matches(km, keys.ElicitNext), key.Matches(km, keys.ElicitEnter):
		d.move(1)
		return false, nil
	case key.Matches(km, keys.ElicitPrev):
		d.move(-1)
		return false, nil
	case key.Matches(km, keys.ElicitClear):
		r.line.SetValue("")
		r.set, r.pick = false, -1
		clear(r.sel)
	case r.editsText():
		if !r.line.Update(km) {
			return false, nil
		}
	case key.Matches(km, keys.ElicitToggle):
		r.toggle()
	case key.Matches(km, keys.ElicitChoiceNext):
		r.step(1)
	case key.Matches(km, keys.ElicitChoicePrev):
		r.step(-1)
	default:
		return false, nil
	}
	d.check()
	return false, nil
}

func (d *elicitDialog) urlKey(km tea.KeyPressMsg, keys *KeyMap) (bool, tea.Cmd) {
	switch {
	case key.Matches(km, keys.ElicitAccept), key.Matches(km, keys.ElicitEnter):
		return d.finish(elicitResult(mcp.ElicitationResponseActionAccept, nil))
	case key.Matches(km, keys.ElicitOpen) && d.urlErr == "":
		d.opened = "opening…"
		d.ask(elicitOpenMsg{d: d, url: d.url})
	}
	return false, nil
}

func (d *elicitDialog) accept() (bool, tea.Cmd) {
	d.tried = true
	content, ok := d.check()
	if !ok {
		n := 0
		first := -1
		for i, r := range d.rows {
			if r.err != "" {
				n++
				if first < 0 {
					first = i
				}
			}
		}
		d.flash = "fix the marked fields first"
		if n == 1 {
			d.flash = "fix the marked field first"
		}
		if first >= 0 {
			d.cur = first
		}
		return false, nil
	}
	return d.finish(elicitResult(mcp.ElicitationResponseActionAccept, content))
}

func (d *elicitDialog) move(n int) {
	if len(d.rows) == 0 {
		return
	}
	d.cur = (d.cur + n + len(d.rows)) % len(d.rows)
}

// editsText says whether the row's keys go to its text input.
func (r *elicitRow) editsText() bool {
	switch r.f.Kind {
	case elicit.String, elicit.Number, elicit.Integer:
		return true
	}
	return false
}

func (r *elicitRow) toggle() {
	switch r.f.Kind {
	case elicit.Boolean:
		if !r.set {
			r.set, r.on = true, true
		} else {
			r.on = !r.on
		}
	case elicit.Enum:
		if r.pick < 0 {
			r.pick = 0
		}
		r.set = true
	case elicit.Multi:
		if len(r.sel) > 0 {
			r.sel[r.opt] = !r.sel[r.opt]
			r.set = true
		}
	}
}

// step moves a choice (Enum) or the checkbox cursor (Multi); on a
// toggle it flips.
func (r *elicitRow) step(n int) {
	k := len(r.f.Options)
	switch r.f.Kind {
	case elicit.Boolean:
		r.toggle()
	case elicit.Enum:
		if k == 0 {
			return
		}
		if r.pick < 0 {
			r.pick = 0
			if n < 0 {
				r.pick = k - 1
			}
		} else {
			r.pick = (r.pick + n + k) % k
		}
		r.set = true
	case elicit.Multi:
		if k > 0 {
			r.opt = (r.opt + n + k) % k
		}
	}
}
