package term

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// typeOf renders one schema as a TYPE.
func (r *renderer) typeOf(s *ojson.Value, c ctx) *sexpr.Node {
	if !r.localOK(s, c) {
		return r.escape(s, c)
	}
	if s.Kind == ojson.Bool {
		if s.Bool {
			return sexpr.Sym("any")
		}
		return sexpr.Sym("never")
	}
	ms := normalize(r.strip(s))
	// $defs blocks are reached through references; unused entries are
	// counted once per tool root by Render, nested ones simply vanish.
	ms = drop(ms, "$defs", "definitions")

	// anyOf [{"type": A}, {"type": B}] is "type": [A, B]; writing both the
	// same way keeps keywords next to them where a type array puts them.
	if ao := get(ms, "anyOf"); ao != nil && get(ms, "type") == nil {
		if t, ok := bareTypes(ao); ok {
			ms = append(drop(ms, "anyOf"), ojson.Member{Key: "type", Value: t})
		}
	}
	if ref := get(ms, "$ref"); ref != nil {
		i := r.defFor(c.root, ref.Str)
		return r.withPairs(r.refTo(i), drop(ms, "$ref"), c, false)
	}
	if n, ok := r.tagged(ms, c); ok {
		return n
	}
	if en := get(ms, "enum"); en != nil && en.Kind == ojson.Array && len(en.Items) > 0 {
		rest := drop(ms, "enum")
		if t := get(rest, "type"); t != nil && consistentType(t, en.Items...) {
			rest = drop(rest, "type")
		}
		// Strings are :keywords when every one of them can be, so a list
		// of values never mixes the two spellings.
		kw := true
		for _, v := range en.Items {
			if v.Kind == ojson.String && !(sexpr.IsKeywordText(v.Str) && plain(v.Str)) {
				kw = false
			}
		}
		items := []*sexpr.Node{sexpr.Sym("or")}
		for _, v := range en.Items {
			items = append(items, r.member(v, kw, c))
		}
		return r.withPairs(sexpr.L(items...), rest, c, true)
	}
	if cv := get(ms, "const"); cv != nil {
		rest := drop(ms, "const")
		if t := get(rest, "type"); t != nil && consistentType(t, cv) {
			rest = drop(rest, "type")
		}
		lit := r.literal(cv, c)
		if lit.Kind == sexpr.Keyword || lit.Kind == sexpr.Number {
			if len(rest) == 0 {
				return lit
			}
		}
		if lit.Kind == sexpr.List && lit.Head() == "const" {
			return r.withPairs(lit, rest, c, false)
		}
		return r.withPairs(sexpr.L(sexpr.Sym("const"), lit), rest, c, false)
	}
	t := get(ms, "type")
	if t != nil && t.Kind == ojson.Array {
		if len(t.Items) == 1 {
			ms = replace(ms, "type", t.Items[0])
			t = t.Items[0]
		} else {
			return r.typeArray(ms, t, c)
		}
	}
	if t != nil {
		return r.typed(ms, t.Str, c)
	}
	// No type, no enum, no const: combinators or any.
	if ao := get(ms, "anyOf"); ao != nil {
		if x, ok := nullablePair(ao); ok {
			return r.withPairs(sexpr.L(sexpr.Sym("opt"), r.typeOf(x, c.in(c.hint))), drop(ms, "anyOf"), c, false)
		}
		return r.withPairs(r.combinator("or", ao, c), drop(ms, "anyOf"), c, true)
	}
	if oo := get(ms, "oneOf"); oo != nil {
		return r.withPairs(r.combinator("one", oo, c), drop(ms, "oneOf"), c, true)
	}
	if al := get(ms, "allOf"); al != nil {
		return r.withPairs(r.combinator("all", al, c), drop(ms, "allOf"), c, true)
	}
	if nt := get(ms, "not"); nt != nil {
		n := r.withPairs(sexpr.L(sexpr.Sym("not"), r.typeOf(nt, c.in(c.hint))), drop(ms, "not"), c, false)
		if len(n.Items) == 2 && n.Items[1].IsSym("any") {
			return sexpr.Sym("never") // {"not": {}}
		}
		return n
	}
	return r.withPairs(sexpr.Sym("any"), ms, c, false)
}

// bareTypes turns anyOf members that are each only a distinct "type" (a
// string) into the equivalent type array.
func bareTypes(ao *ojson.Value) (*ojson.Value, bool) {
	if len(ao.Items) < 2 {
		return nil, false
	}
	arr := ojson.NewArray()
	seen := map[string]bool{}
	for _, it := range ao.Items {
		if it.Kind != ojson.Object || len(it.Members) != 1 || it.Members[0].Key != "type" {
			return nil, false
		}
		t := it.Members[0].Value
		if t.Kind != ojson.String || seen[t.Str] {
			return nil, false
		}
		if _, ok := typeWord[t.Str]; !ok {
			return nil, false
		}
		seen[t.Str] = true
		arr.Items = append(arr.Items, t)
	}
	return arr, true
}

// nullablePair recognises anyOf [X, {"type":"null"}] in either order.
func nullablePair(ao *ojson.Value) (*ojson.Value, bool) {
	if len(ao.Items) != 2 {
		return nil, false
	}
	isNull := func(v *ojson.Value) bool {
		if v.Kind != ojson.Object {
			return false
		}
		n := 0
		for _, m := range v.Members {
			if leftOutKey(m.Key) {
				continue
			}
			if m.Key != "type" || m.Value.Kind != ojson.String || m.Value.Str != "null" {
				return false
			}
			n++
		}
		return n == 1
	}
	a, b := ao.Items[0], ao.Items[1]
	switch {
	case isNull(b) && !isNull(a):
		return a, true
	case isNull(a) && !isNull(b):
		return b, true
	}
	return nil, false
}

func (r *renderer) combinator(head string, arr *ojson.Value, c ctx) *sexpr.Node {
	items := []*sexpr.Node{sexpr.Sym(head)}
	for _, it := range arr.Items {
		items = append(items, r.typeOf(it, c.in(c.hint)))
	}
	return sexpr.L(items...)
}

// typeArray renders "type": [...]. With null among several types it is
// (opt X); otherwise an (or ...) of the types, each carrying the keywords
// that apply to it.
func (r *renderer) typeArray(ms []ojson.Member, t *ojson.Value, c ctx) *sexpr.Node {
	var types []string
	hasNull := false
	for _, it := range t.Items {
		if it.Str == "null" {
			hasNull = true
		} else {
			types = append(types, it.Str)
		}
	}
	generic := false
	for _, m := range ms {
		if m.Key != "type" && !annotationKeywords[m.Key] && !typeSpecific(m.Key) {
			generic = true
		}
	}
	if generic {
		// Keywords that also constrain null or every branch: keep the type
		// array as written.
		return r.withPairs(sexpr.Sym("any"), ms, c, false)
	}
	var ann, spec []ojson.Member
	for _, m := range ms {
		switch {
		case m.Key == "type":
		case annotationKeywords[m.Key]:
			ann = append(ann, m)
		default:
			spec = append(spec, m)
		}
	}
	if hasNull {
		var inner *ojson.Value
		if len(types) == 1 {
			inner = ojson.NewString(types[0])
		} else {
			inner = ojson.NewArray()
			for _, ty := range types {
				inner.Items = append(inner.Items, ojson.NewString(ty))
			}
		}
		x := &ojson.Value{Kind: ojson.Object, Members: append([]ojson.Member{{Key: "type", Value: inner}}, spec...)}
		return r.withPairs(sexpr.L(sexpr.Sym("opt"), r.typeOf(x, c.in(c.hint))), ann, c, false)
	}
	items := []*sexpr.Node{sexpr.Sym("or")}
	for _, ty := range types {
		x := ojson.NewObject().Set("type", ojson.NewString(ty))
		for _, m := range spec {
			if appliesTo(m.Key, ty) {
				x.Set(m.Key, m.Value)
			}
		}
		items = append(items, r.typeOf(x, c.in(c.hint)))
	}
	return r.withPairs(sexpr.L(items...), ann, c, true)
}

// typed renders a schema with a single "type".
func (r *renderer) typed(ms []ojson.Member, ty string, c ctx) *sexpr.Node {
	rest := drop(ms, "type")
	switch ty {
	case "string":
		if ce := get(rest, "contentEncoding"); ce != nil && ce.Kind == ojson.String && ce.Str == "base64" {
			return r.withPairs(sexpr.Sym("bytes"), drop(rest, "contentEncoding"), c, false)
		}
		return r.withPairs(sexpr.Sym("string"), rest, c, false)
	case "array":
		if pi := get(rest, "prefixItems"); pi != nil {
			return r.withPairs(r.combinator("tuple", pi, c), drop(rest, "prefixItems"), c, true)
		}
		items := get(rest, "items")
		if items == nil {
			return r.withPairs(sexpr.Sym("array"), rest, c, false)
		}
		n := sexpr.L(sexpr.Sym("list"), r.typeOf(items, c.in(singular(c.hint))))
		rest = drop(rest, "items")
		if mn := get(rest, "minItems"); mn != nil && isNonNegInt(mn) {
			n.Items = append(n.Items, sexpr.Num(string(mn.Num)))
			rest = drop(rest, "minItems")
			if mx := get(rest, "maxItems"); mx != nil && isNonNegInt(mx) {
				n.Items = append(n.Items, sexpr.Num(string(mx.Num)))
				rest = drop(rest, "maxItems")
			}
		} else if mx := get(rest, "maxItems"); mx != nil && isNonNegInt(mx) {
			n.Items = append(n.Items, sexpr.Num("0"), sexpr.Num(string(mx.Num)))
			rest = drop(rest, "maxItems")
		}
		return r.withPairs(n, rest, c, false)
	case "object":
		if get(rest, "properties") != nil {
			items, left := r.recContent(rest, c, "")
			n := sexpr.L(append([]*sexpr.Node{sexpr.Sym("rec")}, items...)...)
			return r.withPairs(n, left, c, false)
		}
		ap, pn := get(rest, "additionalProperties"), get(rest, "propertyNames")
		if (ap != nil && !(ap.Kind == ojson.Bool && !ap.Bool)) || pn != nil {
			if get(rest, "patternProperties") == nil && get(rest, "required") == nil {
				k := sexpr.Sym("string")
				if pn != nil {
					k = r.typeOf(pn, c.in(c.hint+"Key"))
				}
				v := sexpr.Sym("any")
				if ap != nil {
					v = r.typeOf(ap, c.in(singular(c.hint)))
				}
				return r.withPairs(sexpr.L(sexpr.Sym("map"), k, v), drop(rest, "additionalProperties", "propertyNames"), c, false)
			}
		}
		return r.withPairs(sexpr.Sym("object"), rest, c, false)
	}
	return r.withPairs(sexpr.Sym(typeWord[ty]), rest, c, false)
}

func isNonNegInt(v *ojson.Value) bool {
	if v.Kind != ojson.Number {
		return false
	}
	_, ok := atoi(string(v.Num))
	return ok
}

// recContent renders an object's properties as PARAM*, then (opt PARAM*),
// then :closed; it returns the members it did not consume. exclude names a
// property left out (a tagged union's tag).
func (r *renderer) recContent(ms []ojson.Member, c ctx, exclude string) ([]*sexpr.Node, []ojson.Member) {
	props := get(ms, "properties")
	req := get(ms, "required")
	required := map[string]bool{}
	var extraReq []*ojson.Value
	if req != nil && req.Kind == ojson.Array {
		for _, it := range req.Items {
			if it.Kind == ojson.String && props != nil && props.Get(it.Str) != nil {
				required[it.Str] = true
			} else {
				extraReq = append(extraReq, it)
			}
		}
	}
	var reqItems, optItems []*sexpr.Node
	if props != nil {
		for _, p := range props.Members {
			if p.Key == exclude {
				continue
			}
			n := r.param(p.Key, p.Value, required[p.Key], c)
			if required[p.Key] {
				reqItems = append(reqItems, n)
			} else {
				optItems = append(optItems, n)
			}
		}
	}
	out := reqItems
	if len(optItems) > 0 {
		out = append(out, sexpr.L(append([]*sexpr.Node{sexpr.Sym("opt")}, optItems...)...))
	}
	rest := drop(ms, "properties", "required")
	if req != nil && (req.Kind != ojson.Array || len(extraReq) > 0) {
		v := req
		if req.Kind == ojson.Array {
			v = ojson.NewArray(extraReq...)
		}
		rest = append([]ojson.Member{{Key: "required", Value: v}}, rest...)
	}
	if ap := get(rest, "additionalProperties"); ap != nil && ap.Kind == ojson.Bool && !ap.Bool {
		out = append(out, sexpr.Kw("closed"))
		rest = drop(rest, "additionalProperties")
	}
	return out, rest
}

// param renders one property as (name TYPE ["doc"] [:default V]). A
// required property whose type is (opt T) is written (or T null), because
// (opt T) as a parameter's type also marks the parameter optional.
func (r *renderer) param(name string, s *ojson.Value, required bool, c ctx) *sexpr.Node {
	n := sexpr.L(paramName(name))
	pc := c.in(name)
	var doc string
	var def *ojson.Value
	if s.Kind == ojson.Object && r.localOK(s, pc) {
		if d := s.Get("description"); d != nil && d.Kind == ojson.String {
			doc = d.Str
			s = without(s, "description")
		}
		if d := s.Get("default"); d != nil {
			def = d
			s = without(s, "default")
		}
	}
	t := r.typeOf(s, pc)
	if t.Head() == "opt" && required {
		inner := []*sexpr.Node{t.Items[1]}
		if in := t.Items[1]; in.Head() == "or" && len(in.Items) > 2 && allTypeWords(in.Items[1:]) {
			inner = in.Items[1:]
		}
		or := sexpr.L(append(append([]*sexpr.Node{sexpr.Sym("or")}, inner...), sexpr.Sym("null"))...)
		if len(t.Items) == 2 {
			t = or
		} else {
			t = sexpr.L(append([]*sexpr.Node{or}, t.Items[2:]...)...)
		}
	}
	n.Items = append(n.Items, t)
	if doc = r.fieldDoc(doc); doc != "" {
		n.Items = append(n.Items, sexpr.Str(doc))
	}
	if def != nil {
		n.Items = append(n.Items, sexpr.Kw("default"), r.data(def, 0))
	}
	return n
}

func allTypeWords(ns []*sexpr.Node) bool {
	for _, n := range ns {
		if n.Kind != sexpr.Symbol {
			return false
		}
		if _, ok := simpleTypes[n.Text]; !ok {
			return false
		}
	}
	return true
}

// withPairs appends the remaining keywords to a rendered base. Forms whose
// members are themselves types (or, one, all, tuple, enums) are wrapped as
// (FORM :kw v ...) so a keyword is never mistaken for a member.
func (r *renderer) withPairs(base *sexpr.Node, ms []ojson.Member, c ctx, wrap bool) *sexpr.Node {
	var pairs []*sexpr.Node
	for _, m := range ms {
		pairs = append(pairs, r.pair(m, c)...)
	}
	if len(pairs) == 0 {
		return base
	}
	if base.Kind == sexpr.List && !wrap {
		base.Items = append(base.Items, pairs...)
		return base
	}
	return sexpr.L(append([]*sexpr.Node{base}, pairs...)...)
}

// pair renders one keyword and its value.
func (r *renderer) pair(m ojson.Member, c ctx) []*sexpr.Node {
	k, v := m.Key, m.Value
	if k == "$defs" || k == "definitions" || leftOutKey(k) {
		return nil
	}
	kw := sexpr.Kw(k)
	switch classOf(k) {
	case kwSchema:
		if k == "description" {
			break
		}
		return []*sexpr.Node{kw, r.typeOf(v, c.in(c.hint))}
	case kwSchemaArr:
		l := sexpr.L()
		for _, it := range v.Items {
			l.Items = append(l.Items, r.typeOf(it, c.in(c.hint)))
		}
		return []*sexpr.Node{kw, l}
	case kwSchemaMap:
		l := sexpr.L()
		for _, p := range v.Members {
			l.Items = append(l.Items, keyNode(p.Key), r.typeOf(p.Value, c.in(p.Key)))
		}
		return []*sexpr.Node{kw, l}
	}
	if k == "title" && v.Kind == ojson.String && r.opts.Lean {
		r.drop.add("field titles", len(v.Str))
		return nil
	}
	if k == "description" && v.Kind == ojson.String {
		d := r.fieldDoc(v.Str)
		if d == "" && v.Str != "" {
			return nil
		}
		return []*sexpr.Node{kw, sexpr.Str(d)}
	}
	return []*sexpr.Node{kw, r.data(v, 0)}
}

func keyNode(k string) *sexpr.Node {
	if sexpr.IsKeywordText(k) && plain(k) {
		return sexpr.Kw(k)
	}
	return sexpr.Str(k)
}

// ---- member list helpers ----

func get(ms []ojson.Member, k string) *ojson.Value {
	for _, m := range ms {
		if m.Key == k {
			return m.Value
		}
	}
	return nil
}

func drop(ms []ojson.Member, keys ...string) []ojson.Member {
	out := make([]ojson.Member, 0, len(ms))
outer:
	for _, m := range ms {
		for _, k := range keys {
			if m.Key == k {
				continue outer
			}
		}
		out = append(out, m)
	}
	return out
}

func replace(ms []ojson.Member, k string, v *ojson.Value) []ojson.Member {
	out := make([]ojson.Member, len(ms))
	copy(out, ms)
	for i := range out {
		if out[i].Key == k {
			out[i].Value = v
		}
	}
	return out
}
