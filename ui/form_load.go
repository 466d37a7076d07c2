package ui

import (
	"fmt"
	"strconv"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/ui/widget"
)

// Reading a call back into the form. Every value lands in a field that
// writes it again exactly; what no field of its slot can hold (a value
// matching no member of a union, properties the schema does not declare, a
// value of the wrong type, data nested past maxFormDepth) is kept whole as
// raw JSON at its place, and named in the load's notes, so nothing is lost
// and nothing is silently changed.

// load sets f to hold v. notes gets one line per value kept as raw JSON.
func (f *field) load(v *ojson.Value, path string, notes *[]string) {
	if v == nil {
		return
	}
	if v.Kind == ojson.Null && (f.nullable || f.kind == fieldRaw) {
		if f.kind == fieldRaw {
			f.loadRaw(v)
			return
		}
		f.null, f.set = true, true
		return
	}
	switch f.kind {
	case fieldText, fieldInt, fieldNum, fieldBool:
		if !f.loadScalar(v) {
			f.toRaw(v, path, "a "+v.Kind.String()+" where the schema wants "+kindWord(f.kind), notes)
		}
	case fieldChoice:
		for i, c := range f.values {
			if ojson.Equal(c, v) {
				f.pick, f.set = i, true
				return
			}
		}
		f.toRaw(v, path, "a value the enum does not list", notes)
	case fieldRaw:
		f.loadRaw(v)
	case fieldRecord:
		if v.Kind != ojson.Object {
			f.toRaw(v, path, "a "+v.Kind.String()+" where the schema wants an object", notes)
			return
		}
		f.set = true
		byName := make(map[string]*field, len(f.kids))
		for _, k := range f.kids {
			byName[k.name] = k
		}
		var rest []ojson.Member
		for _, m := range v.Members {
			if k := byName[m.Key]; k != nil {
				k.load(m.Value, joinPath(path, m.Key), notes)
				continue
			}
			rest = append(rest, m)
		}
		if len(rest) == 0 {
			return
		}
		if f.extra != nil && f.extra.kind == fieldMap {
			f.extra.loadEntries(rest, path, notes)
			return
		}
		// Undeclared properties the schema's default lets through: kept
		// as they are, as raw JSON.
		raw := &field{kind: fieldRaw, label: "more", depth: f.depth + 1}
		f.extra = raw
		obj := &ojson.Value{Kind: ojson.Object, Members: rest}
		raw.toRaw(obj, path, "properties the schema does not declare", notes)
	case fieldList:
		if v.Kind != ojson.Array {
			f.toRaw(v, path, "a "+v.Kind.String()+" where the schema wants an array", notes)
			return
		}
		f.set = true
		f.kids = f.kids[:0]
		for i, it := range v.Items {
			k := newField(f.shape.Item(i), true, f.depth+1)
			k.load(it, path+"["+strconv.Itoa(i)+"]", notes)
			f.kids = append(f.kids, k)
		}
		f.relabel()
	case fieldMap:
		if v.Kind != ojson.Object {
			f.toRaw(v, path, "a "+v.Kind.String()+" where the schema wants an object", notes)
			return
		}
		f.set = true
		f.loadEntries(v.Members, path, notes)
	case fieldUnion:
		f.loadUnion(v, path, notes)
	}
}

func (f *field) loadEntries(ms []ojson.Member, path string, notes *[]string) {
	f.kids = f.kids[:0]
	for _, m := range ms {
		e := f.newEntry()
		e.kids[0].in.SetValue(m.Key)
		e.kids[0].set = true
		e.kids[1] = newField(f.shape.ExtraShape(m.Key), true, f.depth+1)
		e.kids[1].label = "value"
		e.kids[1].load(m.Value, joinPath(path, m.Key), notes)
		f.kids = append(f.kids, e)
	}
	f.set = true
	f.relabel()
}

// loadUnion picks the member that holds v: a tagged union by its tag, any
// other by trying each member in order, as the printer does, and taking
// the first that holds v whole.
func (f *field) loadUnion(v *ojson.Value, path string, notes *[]string) {
	if f.tagProp != "" {
		tag := v.Get(f.tagProp)
		if v.Kind == ojson.Object && tag != nil && tag.Kind == ojson.String {
			for i, a := range f.alts {
				if a.tag != tag.Str {
					continue
				}
				f.choose(i, false)
				f.set = true
				rest := &ojson.Value{Kind: ojson.Object}
				for _, m := range v.Members {
					if m.Key != f.tagProp {
						rest.Members = append(rest.Members, m)
					}
				}
				f.body.load(rest, path, notes)
				return
			}
		}
		f.toRaw(v, path, "no variant has this "+f.tagProp, notes)
		return
	}
	for i, a := range f.alts {
		try := buildField(a.shape, a.as, true, f.depth+1)
		var tn []string
		try.load(v, path, &tn)
		if len(tn) > 0 {
			continue
		}
		if got, ok := try.value(path, nil); ok && ojson.Equal(got, v) {
			f.pick, f.set = i, true
			try.label = "value"
			f.body = try
			return
		}
	}
	f.toRaw(v, path, "no member of the union holds it", notes)
}

// loadScalar sets a text, number or toggle field from a value of its
// type; false when v is not one.
func (f *field) loadScalar(v *ojson.Value) bool {
	switch {
	case f.kind == fieldText && v.Kind == ojson.String:
		f.in.SetValue(v.Str)
	case (f.kind == fieldInt || f.kind == fieldNum) && v.Kind == ojson.Number:
		f.in.SetValue(string(v.Num))
	case f.kind == fieldBool && v.Kind == ojson.Bool:
		f.on = v.Bool
	default:
		return false
	}
	f.set = true
	return true
}

func (f *field) loadRaw(v *ojson.Value) {
	f.in.SetValue(v.Compact())
	f.set = true
}

// toRaw turns the field into raw JSON holding v, and notes why.
func (f *field) toRaw(v *ojson.Value, path, why string, notes *[]string) {
	*f = field{kind: fieldRaw, name: f.name, label: f.label, required: f.required, depth: f.depth, shape: f.shape, in: widget.NewLine()}
	f.loadRaw(v)
	f.note = why
	where := path
	if where == "" {
		where = "the arguments"
	}
	if notes != nil {
		*notes = append(*notes, fmt.Sprintf("%s: %s, kept as raw JSON", where, why))
	}
}

func kindWord(k fieldKind) string {
	switch k {
	case fieldText:
		return "a string"
	case fieldInt:
		return "an integer"
	case fieldNum:
		return "a number"
	case fieldBool:
		return "a boolean"
	}
	return "another type"
}
