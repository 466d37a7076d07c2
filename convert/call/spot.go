package call

import (
	"strconv"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// The walk from the call's head down the lists open at the cursor, by the
// reader's rules (read.go, record.go): which schema each list fills, and
// what may come at the cursor in the innermost one. A list may be read in
// more than one way — a slot that is a union of records, the first value
// of a trailing list parameter, an untyped slot — so each list has a few
// readings (states), every one followed, up to maxStates.

const (
	maxStates     = 8 // readings of one list followed at once
	maxUnionDepth = 4 // unions of unions looked through for readings and values
)

type readKind uint8

const (
	readRecord  readKind = iota // (ARG ... :name ARG ...)
	readMapping                 // (:key value ...)
	readArray                   // (ELEM ...)
	readVariant                 // (TAG ARG ...) or (:tagprop "TAG" :field v ...)
	readEither                  // an untyped slot: pairs if the first item is a keyword, else elements
)

// state is one reading of a list.
type state struct {
	kind readKind
	v    *view
	call bool     // the list holds the call's own arguments
	top  int      // call-order index of the tool parameter the list is inside; -1 at the call
	tag  string   // the variant a record is, "" outside one
	path []string // JSON path of the list's value in the arguments, when walker.paths
}

// spot is what may come at the cursor in one reading of its list.
type spot struct {
	st     state
	rec    *view  // the record whose parameters may be named here; nil for none
	given  []bool // rec's parameters already given
	keyed  bool   // named arguments have begun: only :name may come
	tags   *tagged
	tagVal bool // (:tagprop |: the tag is written as the value of its property

	hasVal bool         // a value may go at the cursor
	val    *ojson.Value // its schema (nil: anything)
	whole  *ojson.Value // the first value of a trailing run may also be the whole list
	param  int          // rec's parameter the value fills; -1 for none (an element, an extra key)
	field  string       // the key the value goes under; "" for an element
	elem   int          // the value's index in its array; -1 when it is not an element
	named  bool         // the value follows its :name
}

type walker struct {
	r     *Resolver
	c     *cursor
	tool  *toolset.Tool
	root  *ojson.Value
	paths bool // keep each state's JSON path (Signature wants it)
	entry string
	spots []spot
	last  []state // the readings of the last list walked, when it had no spots
}

func (w *walker) view(s *ojson.Value) *view { return w.r.views.get(w.root, s) }

// where the cursor is, as walk finds it.
type where uint8

const (
	atNone  where = iota // nowhere a candidate goes (outside any list, an entry's id, ...)
	atTop                // the head of the whole text: a tool, or batch
	atHead               // the head of a batch entry's call
	atBatch              // among a batch's options
	atCall               // inside a call: w.spots are the innermost list's readings
)

// walk finds where the cursor is and, inside a call, the readings of the
// innermost open list (w.spots). w.tool is the tool being called, or the
// one the head word names.
func (w *walker) walk() where {
	c := w.c
	if len(c.lists) == 0 {
		return atNone
	}
	d := 0
	items := c.items(0)
	if len(items) > 0 && items[0].kind == sexpr.Symbol && c.text(items[0]) == "batch" {
		switch len(c.lists) {
		case 1:
			return atBatch
		case 2:
			return atNone // an entry's id, or the '(' of its call
		}
		e := c.items(1)
		if len(e) != 1 || e[0].kind != sexpr.Symbol && e[0].kind != sexpr.Number {
			return atNone
		}
		w.entry, d = c.text(e[0]), 2
		items = c.items(2)
	}
	if len(items) == 0 {
		if len(c.lists) != d+1 {
			return atNone
		}
		if word, _ := c.wordText(); c.wordKind == sexpr.Symbol {
			w.setTool(w.r.Lookup(word))
		}
		if d == 0 {
			return atTop
		}
		return atHead
	}
	if h := items[0]; h.kind == sexpr.Symbol || h.kind == sexpr.String {
		w.setTool(w.r.Lookup(c.text(h)))
	}
	if w.tool == nil {
		return atNone
	}
	states := w.callStates()
	args := items[1:]
	for level := d; ; level++ {
		if level > d {
			args = c.items(level)
		}
		w.spots = w.spots[:0]
		for _, st := range states {
			w.spots = w.read(st, args, w.spots)
		}
		if level == len(c.lists)-1 {
			return atCall
		}
		if len(w.spots) == 0 {
			w.last = states // for signature help: the lists around the cursor
			return atNone
		}
		next := make([]state, 0, len(w.spots))
		for _, sp := range w.spots {
			next = w.children(sp, next)
		}
		states = next
	}
}

func (w *walker) setTool(t *toolset.Tool) {
	if t != nil {
		w.tool, w.root = t, t.InputSchema
	}
}

// callStates are the readings of a call's arguments, as readCallArgs has them.
func (w *walker) callStates() []state {
	v := w.view(w.root)
	base := state{call: true, top: -1}
	switch {
	case v.never:
		return nil
	case v.record:
		base.kind, base.v = readRecord, v
		return []state{base}
	case v.tag != nil || len(v.alts) > 0 && !v.ownShape():
		return w.listStates(w.root, base, 0, nil)
	}
	base.kind, base.v = readMapping, v
	return []state{base}
}

// listStates are the readings of a list written where a value of schema s
// goes, in the order parser.value tries them.
func (w *walker) listStates(s *ojson.Value, base state, depth int, out []state) []state {
	if depth > maxUnionDepth || len(out) >= maxStates {
		return out
	}
	v := w.view(s)
	st := base
	st.v = v
	switch {
	case v.never || v.constV != nil || v.hasEnum:
		return out
	case v.tag != nil:
		st.kind = readVariant
		return append(out, st)
	case len(v.alts) > 0 && !v.ownShape():
		for _, a := range v.alts {
			out = w.listStates(a, base, depth+1, out)
		}
		return out
	}
	switch v.listAs() {
	case listObject:
		st.kind = readMapping
		if v.record {
			st.kind = readRecord
		}
	case listArray:
		st.kind = readArray
	case listEither:
		st.kind = readEither
	default:
		return out
	}
	return append(out, st)
}

// read appends the spots of one reading of a list holding items.
func (w *walker) read(st state, items []token, out []spot) []spot {
	if len(items) > 0 && items[0].kind == sexpr.Symbol && w.c.text(items[0]) == "json" &&
		(st.kind != readVariant || st.v.tag.variants["json"] == nil) {
		return out // (json "...") holds raw JSON
	}
	switch st.kind {
	case readRecord:
		return append(out, w.record(st, items))
	case readMapping:
		return append(out, w.mapping(st, items))
	case readArray:
		return append(out, w.array(st, items))
	case readEither:
		obj := st
		obj.kind = readMapping
		if st.v.record {
			obj.kind = readRecord
		}
		arr := st
		arr.kind = readArray
		switch {
		case len(items) == 0:
			return w.read(arr, items, w.read(obj, items, out))
		case items[0].kind == sexpr.Keyword:
			return w.read(obj, items, out)
		}
		return w.read(arr, items, out)
	}
	// a variant
	t := st.v.tag
	if len(items) == 0 {
		return append(out, spot{st: st, tags: t, param: -1, elem: -1})
	}
	head := items[0]
	if head.kind == sexpr.Keyword && w.c.text(head) == t.prop {
		if len(items) == 1 {
			return append(out, spot{st: st, tags: t, tagVal: true, param: -1, elem: -1})
		}
		if tv := items[1]; tv.kind == sexpr.String || tv.kind == sexpr.Keyword || tv.kind == sexpr.Symbol {
			if full := t.full[w.c.text(tv)]; full != nil {
				rs := st
				rs.kind, rs.v, rs.tag = readRecord, full, w.c.text(tv)
				return append(out, w.record(rs, items))
			}
		}
		return out
	}
	switch head.kind {
	case sexpr.Symbol, sexpr.Keyword, sexpr.String:
		if vr := t.variants[w.c.text(head)]; vr != nil {
			rs := st
			rs.kind, rs.v, rs.tag = readRecord, vr, w.c.text(head)
			return append(out, w.record(rs, items[1:]))
		}
	}
	return out
}

// record mirrors parser.record over the items before the cursor: positional
// values fill the parameters in call order, :name value sets one, and the
// last parameter, when a list, takes the values up to the next :name.
func (w *walker) record(st state, items []token) spot {
	v := st.v
	sp := spot{st: st, rec: v, given: make([]bool, len(v.params)), param: -1, elem: -1}
	next, named := 0, false
	for i := 0; i < len(items); {
		it := items[i]
		keyed := named || next >= len(v.params)
		if it.kind == sexpr.Keyword || keyed && it.kind == sexpr.String {
			name := w.c.text(it)
			k, isParam := v.index[name]
			switch {
			case isParam && (it.kind == sexpr.Keyword || keyed):
				if i+1 == len(items) {
					sp.rec, sp.keyed = nil, true
					sp.value(v.params[k].schema, k, name, true)
					return sp
				}
				sp.given[k], named = true, true
				i += 2
				continue
			case keyed:
				if i+1 == len(items) {
					sp.rec, sp.keyed = nil, true
					if v.extraOK {
						sp.value(v.extraSchema(name), -1, name, true)
					}
					return sp
				}
				named = true
				i += 2
				continue
			}
			// a keyword that names no parameter, in the positional part: a value
		} else if named {
			i++ // a positional value after named ones: an error the reader reports
			continue
		}
		if next >= len(v.params) {
			i++
			continue
		}
		k := next
		if av := w.trailingList(v, k); av != nil {
			end := i
			for end < len(items) && !namesParam(w.c, items[end], v) {
				end++
			}
			sp.given[k] = true
			next++
			if end == len(items) { // the cursor continues the run
				sp.value(av.itemSchema(end-i), k, v.params[k].name, false)
				sp.elem = end - i
				return sp
			}
			i = end
			continue
		}
		sp.given[k] = true
		next++
		i++
	}
	sp.keyed = named || next >= len(v.params)
	if !sp.keyed {
		pr := v.params[next]
		if av := w.trailingList(v, next); av != nil {
			sp.value(av.itemSchema(0), next, pr.name, false)
			sp.elem, sp.whole = 0, pr.schema
		} else {
			sp.value(pr.schema, next, pr.name, false)
		}
	}
	return sp
}

// trailingList is the array view of parameter k when it is the last one
// and a list, whose elements may then be written inline.
func (w *walker) trailingList(v *view, k int) *view {
	if k != len(v.params)-1 {
		return nil
	}
	p := parser{cache: &w.r.views, root: w.root}
	return p.listParam(v.params[k].schema)
}

func namesParam(c *cursor, t token, v *view) bool {
	if t.kind != sexpr.Keyword {
		return false
	}
	_, ok := v.index[c.text(t)]
	return ok
}

func (sp *spot) value(s *ojson.Value, param int, field string, named bool) {
	sp.hasVal, sp.val, sp.param, sp.field, sp.named = true, s, param, field, named
}

// mapping mirrors parser.mapping: (:key value ...), keys of the map's own
// choosing, so only the value after a key has a known slot.
func (w *walker) mapping(st state, items []token) spot {
	sp := spot{st: st, param: -1, elem: -1}
	if len(items)%2 == 1 {
		if k := items[len(items)-1]; (k.kind == sexpr.Keyword || k.kind == sexpr.String) && st.v.extraOK {
			name := w.c.text(k)
			sp.value(st.v.extraSchema(name), -1, name, true)
		}
	}
	return sp
}

func (w *walker) array(st state, items []token) spot {
	sp := spot{st: st, param: -1, elem: -1}
	i := len(items)
	if st.v.itemsNever && i >= len(st.v.prefix) {
		return sp
	}
	sp.value(st.v.itemSchema(i), -1, "", false)
	sp.elem = i
	return sp
}

// children are the readings of a list opened where sp's value goes.
func (w *walker) children(sp spot, out []state) []state {
	if !sp.hasVal {
		return out
	}
	base := state{top: sp.st.top}
	if sp.st.call && sp.param >= 0 {
		base.top = sp.param
	}
	if sp.whole != nil {
		whole := base
		whole.path = w.extend(sp.st.path, sp.field, -1)
		out = w.listStates(sp.whole, whole, 0, out)
	}
	base.path = w.extend(sp.st.path, sp.field, sp.elem)
	return w.listStates(sp.val, base, 0, out)
}

// extend is path plus a field and an element index (each when present),
// as a new slice: sibling readings share the parent's.
func (w *walker) extend(path []string, field string, elem int) []string {
	if !w.paths {
		return nil
	}
	out := make([]string, len(path), len(path)+2)
	copy(out, path)
	if field != "" {
		out = append(out, field)
	}
	if elem >= 0 {
		out = append(out, strconv.Itoa(elem))
	}
	return out
}
