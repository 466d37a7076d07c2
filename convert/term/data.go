package term

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// data writes a JSON value as MCP-Term data: nil, true/false, numbers,
// strings, (v ...) for arrays, (obj :key v ...) for objects, and
// (json "...") when it nests too deep to print as lists.
func (r *renderer) data(v *ojson.Value, depth int) *sexpr.Node {
	switch v.Kind {
	case ojson.Null:
		return sexpr.NilNode()
	case ojson.Bool:
		return sexpr.BoolNode(v.Bool)
	case ojson.Number:
		return sexpr.Num(string(v.Num))
	case ojson.String:
		return sexpr.Str(v.Str)
	}
	if depth >= maxDataDepth {
		return sexpr.L(sexpr.Sym("json"), sexpr.Str(v.Compact()))
	}
	if v.Kind == ojson.Array {
		l := sexpr.L()
		for _, it := range v.Items {
			l.Items = append(l.Items, r.data(it, depth+1))
		}
		return l
	}
	l := sexpr.L(sexpr.Sym("obj"))
	for _, m := range v.Members {
		l.Items = append(l.Items, keyNode(m.Key), r.data(m.Value, depth+1))
	}
	return l
}

// member writes one enum value: a keyword or string, a bare number, nil,
// true or false, or (const DATA) for arrays and objects.
func (r *renderer) member(v *ojson.Value, kw bool, c ctx) *sexpr.Node {
	switch v.Kind {
	case ojson.String:
		if kw {
			return sexpr.Kw(v.Str)
		}
		return sexpr.Str(v.Str)
	case ojson.Number:
		return sexpr.Num(string(v.Num))
	case ojson.Null:
		return sexpr.NilNode()
	case ojson.Bool:
		return sexpr.BoolNode(v.Bool)
	}
	return sexpr.L(sexpr.Sym("const"), r.data(v, c.depth))
}

// literal writes a const value in type position: strings as
// :keywords where they can be, other scalars bare, structures as (const ...).
func (r *renderer) literal(v *ojson.Value, c ctx) *sexpr.Node {
	switch v.Kind {
	case ojson.String:
		if sexpr.IsKeywordText(v.Str) && plain(v.Str) {
			return sexpr.Kw(v.Str)
		}
		return sexpr.L(sexpr.Sym("const"), sexpr.Str(v.Str))
	case ojson.Number:
		return sexpr.Num(string(v.Num))
	}
	return sexpr.L(sexpr.Sym("const"), r.data(v, c.depth))
}

// consistentType reports whether every value already has one of the types
// in t, which makes t redundant next to an enum or const.
func consistentType(t *ojson.Value, vals ...*ojson.Value) bool {
	allowed := map[string]bool{}
	switch t.Kind {
	case ojson.String:
		allowed[t.Str] = true
	case ojson.Array:
		for _, it := range t.Items {
			allowed[it.Str] = true
		}
	default:
		return false
	}
	for _, v := range vals {
		var ok bool
		switch v.Kind {
		case ojson.Null:
			ok = allowed["null"]
		case ojson.Bool:
			ok = allowed["boolean"]
		case ojson.String:
			ok = allowed["string"]
		case ojson.Array:
			ok = allowed["array"]
		case ojson.Object:
			ok = allowed["object"]
		case ojson.Number:
			ok = allowed["number"] || (allowed["integer"] && isIntegral(string(v.Num)))
		}
		if !ok {
			return false
		}
	}
	return true
}

func isIntegral(n string) bool {
	for i := 0; i < len(n); i++ {
		switch n[i] {
		case '.', 'e', 'E':
			// 1.0 and 1e3 are integers to JSON Schema; a rare case where the
			// type is simply kept.
			return false
		}
	}
	return true
}

// escape writes a schema as raw JSON, with its local references rewritten to
// the deftype names they end up with.
func (r *renderer) escape(s *ojson.Value, c ctx) *sexpr.Node {
	val := s.Clone()
	// Its definitions become deftypes like any others, reached through the
	// rewritten references.
	val.Delete("$defs")
	val.Delete("definitions")
	e := &escapeFix{val: val, node: sexpr.Str("")}
	var walk func(v *ojson.Value, depth int)
	walk = func(v *ojson.Value, depth int) {
		if depth > ojson.MaxDepth {
			return
		}
		switch v.Kind {
		case ojson.Object:
			for _, m := range v.Members {
				if m.Key == "$ref" && m.Value.Kind == ojson.String {
					if _, _, ok := resolvePointer(c.root, m.Value.Str); ok {
						i := r.defFor(c.root, m.Value.Str)
						r.refTo(i) // records the dependency; the node itself is not printed
						e.refs = append(e.refs, escapeRef{str: m.Value, def: i})
					}
					continue
				}
				walk(m.Value, depth+1)
			}
		case ojson.Array:
			for _, it := range v.Items {
				walk(it, depth+1)
			}
		}
	}
	walk(val, 0)
	e.node.Text = val.Compact()
	r.escapes = append(r.escapes, e)
	return sexpr.L(sexpr.Sym("json"), e.node)
}
