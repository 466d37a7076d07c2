package term

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// tagged recognises a oneOf/anyOf whose members are inline objects told
// apart by a required property holding a different string constant in each
// (the usual discriminated union), and writes it as
// (tagged PROP (TAG PARAM* [(opt PARAM*)] ...) ...), each variant named by
// its tag value. Outside a deftype body it becomes a deftype of its own.
func (r *renderer) tagged(ms []ojson.Member, c ctx) (*sexpr.Node, bool) {
	var head string
	var arr *ojson.Value
	for _, m := range ms {
		switch {
		case m.Key == "oneOf" || m.Key == "anyOf":
			if arr != nil {
				return nil, false
			}
			head, arr = "tagged", m.Value
			if m.Key == "anyOf" {
				head = "tagged-any"
			}
		case m.Key == "type":
			if m.Value.Kind != ojson.String || m.Value.Str != "object" {
				return nil, false
			}
		case annotationKeywords[m.Key]:
		default:
			return nil, false
		}
	}
	if arr == nil || len(arr.Items) < 2 {
		return nil, false
	}
	members := make([][]ojson.Member, len(arr.Items))
	for i, it := range arr.Items {
		if it.Kind != ojson.Object || !r.localOK(it, c.in(c.hint)) {
			return nil, false
		}
		var mm []ojson.Member
		for _, m := range it.Members {
			if !leftOutKey(m.Key) {
				mm = append(mm, m)
			}
		}
		mm = normalize(mm)
		if get(mm, "$ref") != nil || get(mm, "type").StringOr("") != "object" {
			return nil, false
		}
		if p := get(mm, "properties"); p == nil || p.Kind != ojson.Object {
			return nil, false
		}
		members[i] = mm
	}
	tag := ""
	var values []string
	for _, cand := range get(members[0], "properties").Members {
		values = values[:0]
		seen := map[string]bool{}
		ok := true
		for _, mm := range members {
			v, isTag := tagValue(get(mm, "properties").Get(cand.Key))
			if !isTag || seen[v] || !requires(get(mm, "required"), cand.Key) {
				ok = false
				break
			}
			seen[v] = true
			values = append(values, v)
		}
		if ok {
			tag = cand.Key
			break
		}
	}
	if tag == "" {
		return nil, false
	}

	// As a deftype of its own, the union's description is the deftype's
	// doc, as for any other deftype.
	doc := ""
	if d := get(ms, "description"); d != nil && d.Kind == ojson.String && !c.top {
		doc = d.Str
		ms = drop(ms, "description")
	}
	build := func() *sexpr.Node {
		n := sexpr.L(sexpr.Sym(head), tagName(tag))
		for _, m := range ms {
			if m.Key != "oneOf" && m.Key != "anyOf" && m.Key != "type" {
				n.Items = append(n.Items, r.pair(m, c)...)
			}
		}
		for i, mm := range members {
			vc := c.in(values[i])
			items, rest := r.recContent(drop(mm, "type"), vc, tag)
			v := sexpr.L(tagName(values[i]))
			v.Items = append(v.Items, items...)
			for _, m := range rest {
				v.Items = append(v.Items, r.pair(m, vc)...)
			}
			n.Items = append(n.Items, v)
		}
		return n
	}
	if c.top {
		return build(), true
	}
	i := len(r.defs)
	hint := c.hint
	if hint == "" {
		hint = "Union"
	}
	d := &def{hint: hint, ready: true, doc: r.fieldDoc(doc)}
	r.defs = append(r.defs, d)
	r.refNodes = append(r.refNodes, nil)
	saved := r.deps
	r.deps = &d.deps
	d.body = build()
	r.deps = saved
	return r.refTo(i), true
}

func tagName(s string) *sexpr.Node {
	if sexpr.IsSymbolText(s) && plain(s) {
		return sexpr.Sym(s)
	}
	return sexpr.Str(s)
}

// tagValue accepts {"const": "x"}, {"enum": ["x"]}, optionally with
// "type": "string".
func tagValue(s *ojson.Value) (string, bool) {
	if s == nil || s.Kind != ojson.Object {
		return "", false
	}
	val, found := "", false
	for _, m := range s.Members {
		switch {
		case leftOutKey(m.Key):
		case m.Key == "type":
			if m.Value.Kind != ojson.String || m.Value.Str != "string" {
				return "", false
			}
		case m.Key == "const" && m.Value.Kind == ojson.String && !found:
			val, found = m.Value.Str, true
		case m.Key == "enum" && m.Value.Kind == ojson.Array && len(m.Value.Items) == 1 &&
			m.Value.Items[0].Kind == ojson.String && !found:
			val, found = m.Value.Items[0].Str, true
		default:
			return "", false
		}
	}
	return val, found
}

func requires(req *ojson.Value, name string) bool {
	if req == nil || req.Kind != ojson.Array {
		return false
	}
	for _, it := range req.Items {
		if it.Kind == ojson.String && it.Str == name {
			return true
		}
	}
	return false
}
