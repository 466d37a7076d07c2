package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// The form's model: a tree of fields built from the tool's input schema as
// convert/call reads it (call.Shape), so the form and the call reader agree
// on what every slot holds. Each field knows how to write its value
// (value) and how to take one back (load, form_load.go).

// fieldKind is what a form field edits.
type fieldKind uint8

const (
	fieldText   fieldKind = iota // a string
	fieldInt                     // an integer, checked as typed
	fieldNum                     // a number, checked as typed
	fieldBool                    // a toggle
	fieldChoice                  // one of an enum's values (or a const)
	fieldRecord                  // an object with declared properties: a group of fields
	fieldList                    // an array: items added and removed
	fieldMap                     // an object of undeclared properties of one shape: entries
	fieldEntry                   // one entry of a map: its key and its value
	fieldUnion                   // one of several members: a variant choice over the member's fields
	fieldRaw                     // any JSON value, written as JSON text
)

// maxFormDepth bounds how deep a form builds into a schema: a recursive
// schema (a tree of blocks) is finite on screen, and deeper data is kept
// as raw JSON.
const maxFormDepth = 12

// field is one node of the form.
type field struct {
	kind     fieldKind
	shape    *call.Shape
	name     string // the property's name; "" for the root, items and entries
	label    string // what its row says
	required bool   // always written (a required property, an item, an entry's parts)
	nullable bool
	def      *ojson.Value // the schema's default, shown while the field is not given
	depth    int          // schema depth, for maxFormDepth
	as       string       // the one JSON type of a multi-typed slot this field takes ("" for all)

	set  bool // an optional value was given (typed, chosen, added or loaded)
	null bool // the value is an explicit null (loaded, or chosen with the clear key)

	in     widget.Line    // text, numbers, raw JSON
	on     bool           // toggle
	pick   int            // choice: index into values; union: index into alts
	values []*ojson.Value // choice

	kids  []*field // record: its properties; list: items; map: entries; entry: key, value
	extra *field   // record: undeclared properties (a map, or raw JSON a load found)

	alts    []member // union
	tagProp string   // union: the tag property a tagged union writes
	body    *field   // union: the chosen member

	note string // why a loaded value is kept as raw JSON
}

// member is one choice of a union: a tagged variant (its tag written with
// it), a schema member of anyOf/oneOf, or one JSON type of a multi-typed slot.
type member struct {
	label string
	shape *call.Shape
	tag   string // tagged unions: the tag value
	as    string // multi-typed slots: the one type this member takes
}

// newField builds the field for a slot, in its initial state: required
// values filled with their defaults (or the first choice), required lists
// with their minimum of items, optional ones not given.
func newField(sh *call.Shape, required bool, depth int) *field {
	return buildField(sh, "", required, depth)
}

func buildField(sh *call.Shape, as string, required bool, depth int) *field {
	f := &field{shape: sh, as: as, required: required, depth: depth, in: widget.NewLine()}
	if sh == nil {
		f.kind = fieldRaw
		return f
	}
	f.def = sh.Annotation("default")
	f.nullable = sh.Nullable()
	enum, hasEnum := sh.Enum()
	switch {
	case depth > maxFormDepth || sh.Never():
		f.kind = fieldRaw
	case as == "" && sh.Const() != nil:
		f.kind, f.values = fieldChoice, []*ojson.Value{sh.Const()}
	case as == "" && hasEnum && len(enum) > 0:
		f.kind, f.values = fieldChoice, enum
	case as == "" && sh.Union():
		f.kind = fieldUnion
		if prop, tags := sh.Tag(); prop != "" {
			f.tagProp = prop
			for _, t := range tags {
				f.alts = append(f.alts, member{label: t, shape: sh.Variant(t), tag: t})
			}
		} else {
			for _, a := range sh.Alternatives() {
				f.alts = append(f.alts, member{label: memberLabel(a), shape: a})
			}
		}
		if len(f.alts) == 1 && f.tagProp == "" {
			// (or X null): X, nullable, with the union's own default.
			one := buildField(f.alts[0].shape, "", required, depth+1)
			one.nullable = one.nullable || f.nullable
			if f.def != nil {
				one.def = f.def
			}
			return one
		}
		dedupeLabels(f.alts)
	case as == "" && sh.Any():
		f.kind = fieldRaw
	default:
		types := sh.Types()
		if as != "" {
			types = []string{as}
		}
		if len(types) > 1 {
			f.kind = fieldUnion
			for _, t := range types {
				f.alts = append(f.alts, member{label: t, shape: sh, as: t})
			}
			break
		}
		f.kind = fieldRaw
		if len(types) == 1 {
			f.kind = kindOfType(sh, types[0])
		}
	}
	f.fill(required)
	return f
}

// kindOfType is the field for a slot of one JSON type.
func kindOfType(sh *call.Shape, t string) fieldKind {
	switch t {
	case "string":
		return fieldText
	case "integer":
		return fieldInt
	case "number":
		return fieldNum
	case "boolean":
		return fieldBool
	case "array":
		return fieldList
	case "object":
		switch {
		case sh.Record():
			return fieldRecord
		case sh.ExtraDeclared() && !sh.ExtraPatterns() && !sh.ExtraShape("").Any():
			return fieldMap
		}
	}
	return fieldRaw
}

// fill puts a new field in its initial state. Nothing it fills counts as
// given (set): a required field is written anyway, and an optional group
// holding it is written only once something in it is given.
func (f *field) fill(required bool) {
	switch f.kind {
	case fieldText, fieldInt, fieldNum:
		if required && f.def != nil {
			f.loadScalar(f.def)
			f.set = false
		}
	case fieldBool:
		if f.def != nil && f.def.Kind == ojson.Bool {
			f.on = f.def.Bool
		}
	case fieldChoice:
		f.pick = max(f.defaultPick(), 0)
	case fieldRecord:
		for _, p := range f.shape.Fields() {
			k := newField(p.Shape, p.Required, f.depth+1)
			k.name, k.label = p.Name, p.Name
			f.kids = append(f.kids, k)
		}
		if f.shape.ExtraDeclared() && !f.shape.ExtraPatterns() && !f.shape.ExtraShape("").Any() {
			f.extra = &field{kind: fieldMap, shape: f.shape, label: "more", depth: f.depth + 1, in: widget.NewLine()}
		}
	case fieldList:
		if required && f.depth < 8 {
			if n, ok := intKeyword(f.shape, "minItems"); ok {
				for i := 0; i < min(n, 3); i++ {
					f.addItem(len(f.kids))
				}
				f.set = false
			}
		}
	case fieldUnion:
		f.choose(max(f.defaultPick(), 0), false)
	}
}

// defaultPick is the choice or member the default names, -1 if none.
func (f *field) defaultPick() int {
	if f.def == nil {
		return -1
	}
	for i, v := range f.values {
		if ojson.Equal(v, f.def) {
			return i
		}
	}
	if f.kind == fieldUnion && f.def.Kind == ojson.Object && f.tagProp != "" {
		for i, a := range f.alts {
			if f.def.Get(f.tagProp).StringOr("\x00") == a.tag {
				return i
			}
		}
	}
	return -1
}

// choose makes member i the union's body; with carry, the new body keeps
// what the old one held in fields of the same name, where it still fits.
func (f *field) choose(i int, carry bool) {
	if i < 0 || i >= len(f.alts) {
		return
	}
	old := f.body
	f.pick = i
	a := f.alts[i]
	f.body = buildField(a.shape, a.as, true, f.depth+1)
	f.body.label = "value"
	if !carry || old == nil || old.kind != fieldRecord || f.body.kind != fieldRecord {
		return
	}
	for _, k := range f.body.kids {
		for _, o := range old.kids {
			if o.name == k.name && o.touched() {
				if v, ok := o.value("", nil); ok {
					try := newField(k.shape, k.required, k.depth)
					try.name, try.label = k.name, k.label
					var notes []string
					try.load(v, "", &notes)
					if len(notes) == 0 {
						*k = *try
					}
				}
			}
		}
	}
}

// addItem inserts a new item into a list (or an entry into a map) at i.
func (f *field) addItem(i int) *field {
	var k *field
	switch f.kind {
	case fieldList:
		k = newField(f.shape.Item(i), true, f.depth+1)
	case fieldMap:
		k = f.newEntry()
	default:
		return nil
	}
	i = min(max(i, 0), len(f.kids))
	f.kids = append(f.kids, nil)
	copy(f.kids[i+1:], f.kids[i:])
	f.kids[i] = k
	f.set = true
	f.relabel()
	return k
}

func (f *field) newEntry() *field {
	key := &field{kind: fieldText, label: "key", required: true, depth: f.depth + 1, in: widget.NewLine()}
	val := newField(f.shape.ExtraShape(""), true, f.depth+1)
	val.label = "value"
	return &field{kind: fieldEntry, shape: f.shape, required: true, depth: f.depth + 1, kids: []*field{key, val}, in: widget.NewLine()}
}

// removeItem takes item i out of a list or map.
func (f *field) removeItem(i int) {
	if i < 0 || i >= len(f.kids) {
		return
	}
	f.kids = append(f.kids[:i], f.kids[i+1:]...)
	f.relabel()
}

// relabel numbers a list's items (a tuple's item shapes follow the index,
// so a list of prefixItems is rebuilt from its values).
func (f *field) relabel() {
	for i, k := range f.kids {
		k.label = "[" + strconv.Itoa(i) + "]"
	}
}

// touched reports that the field, or something inside it, was given.
func (f *field) touched() bool {
	if f.set || f.null {
		return true
	}
	switch f.kind {
	case fieldRecord, fieldList, fieldMap, fieldEntry:
		for _, k := range f.kids {
			if k.touched() {
				return true
			}
		}
		return f.extra != nil && f.extra.touched()
	case fieldUnion:
		return f.body != nil && f.body.touched()
	}
	return false
}

// present reports whether the field is written into the call.
func (f *field) present() bool { return f.required || f.touched() }

// problems collects what the form refuses, each with the path of its field.
type problems struct {
	list []formProblem
}

type formProblem struct {
	f    *field
	path string
	msg  string
}

func (p *problems) add(f *field, path, format string, args ...any) {
	if p == nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	p.list = append(p.list, formProblem{f: f, path: path, msg: msg})
}

// Error is the first problem, with a count of the others.
func (p *problems) Error() string {
	if len(p.list) == 0 {
		return ""
	}
	first := p.list[0]
	s := first.msg
	if first.path != "" {
		s = first.path + ": " + s
	}
	if n := len(p.list) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more)", n)
	}
	return s
}

func joinPath(path, name string) string {
	switch {
	case path == "":
		return name
	case strings.HasPrefix(name, "["):
		return path + name
	}
	return path + "." + name
}

// value is what the field writes, and whether it writes anything; what it
// refuses goes to ps (nil: not collected).
func (f *field) value(path string, ps *problems) (*ojson.Value, bool) {
	if !f.present() {
		return nil, false
	}
	if f.null {
		return ojson.NewNull(), true
	}
	switch f.kind {
	case fieldText:
		return ojson.NewString(f.in.Value()), true
	case fieldInt, fieldNum:
		return f.number(path, ps)
	case fieldBool:
		return ojson.NewBool(f.on), true
	case fieldChoice:
		if f.pick < 0 || f.pick >= len(f.values) {
			return nil, false
		}
		return f.values[f.pick].Clone(), true
	case fieldRaw:
		text := strings.TrimSpace(f.in.Value())
		if text == "" {
			ps.add(f, path, "required: give a JSON value")
			return nil, false
		}
		v, err := ojson.Parse([]byte(text))
		if err != nil {
			ps.add(f, path, "not JSON: %s", strings.TrimPrefix(err.Error(), "ojson: "))
			return nil, false
		}
		return v, true
	case fieldRecord:
		obj := ojson.NewObject()
		for _, k := range f.kids {
			if v, ok := k.value(joinPath(path, k.name), ps); ok {
				obj.Set(k.name, v)
			}
		}
		if f.extra != nil {
			f.extra.mergeInto(obj, path, ps)
		}
		return obj, true
	case fieldList:
		arr := ojson.NewArray()
		for i, k := range f.kids {
			if v, ok := k.value(path+"["+strconv.Itoa(i)+"]", ps); ok {
				arr.Items = append(arr.Items, v)
			}
		}
		return arr, true
	case fieldMap:
		obj := ojson.NewObject()
		f.mergeInto(obj, path, ps)
		return obj, true
	case fieldUnion:
		if f.body == nil {
			return nil, false
		}
		v, ok := f.body.value(path, ps)
		if !ok || f.tagProp == "" {
			return v, ok
		}
		obj := ojson.NewObject().Set(f.tagProp, ojson.NewString(f.alts[f.pick].tag))
		if v.Kind == ojson.Object {
			obj.Members = append(obj.Members, v.Members...)
		}
		return obj, true
	}
	return nil, false
}

// mergeInto writes a map's entries (or raw JSON of more properties) into obj.
func (f *field) mergeInto(obj *ojson.Value, path string, ps *problems) {
	if f.kind == fieldRaw {
		if v, ok := f.value(path, ps); ok {
			if v.Kind != ojson.Object {
				ps.add(f, path, "more properties must be a JSON object")
				return
			}
			for _, m := range v.Members {
				obj.Set(m.Key, m.Value)
			}
		}
		return
	}
	for _, e := range f.kids {
		key := e.kids[0].in.Value()
		at := joinPath(path, key)
		if obj.Has(key) {
			ps.add(e.kids[0], at, "the key %q is given twice", key)
			continue
		}
		if v, ok := e.kids[1].value(at, ps); ok {
			obj.Set(key, v)
		}
	}
}

// intKeyword reads a small non-negative integer keyword (minItems, ...).
func intKeyword(sh *call.Shape, k string) (int, bool) {
	if sh == nil || sh.Schema() == nil {
		return 0, false
	}
	v := sh.Schema().Get(k)
	if v == nil || v.Kind != ojson.Number {
		return 0, false
	}
	n, err := strconv.Atoi(string(v.Num))
	return n, err == nil && n >= 0
}

// memberLabel names a union member for its choice: its $defs name, title,
// the const that tells it apart, or its type.
func memberLabel(a *call.Shape) string {
	if n := a.Name(); n != "" {
		return n
	}
	if t := a.Annotation("title"); t != nil && t.Kind == ojson.String && t.Str != "" {
		return t.Str
	}
	if a.Record() {
		for _, p := range a.Fields() {
			if c := p.Shape.Const(); c != nil && c.Kind == ojson.String {
				return c.Str
			}
		}
	}
	if c := a.Const(); c != nil {
		return litText(c)
	}
	if ts := a.Types(); len(ts) > 0 {
		return strings.Join(ts, "|")
	}
	return "any"
}

func dedupeLabels(ms []member) {
	seen := map[string]int{}
	for i := range ms {
		seen[ms[i].label]++
		if n := seen[ms[i].label]; n > 1 {
			ms[i].label += " #" + strconv.Itoa(n)
		}
	}
}

// litText is a JSON scalar as a choice shows it: strings bare.
func litText(v *ojson.Value) string {
	if v == nil {
		return ""
	}
	if v.Kind == ojson.String {
		return v.Str
	}
	return v.Compact()
}
