package call

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// maxFormatDepth keeps printed calls inside what the reader accepts
// (sexpr.DefaultLimits.MaxDepth); deeper data is written as raw JSON.
const maxFormatDepth = 150

// formatter writes JSON values in the canonical S-expression form for their
// schema: the inverse of parser, checked against it wherever a choice is made.
type formatter struct {
	p *parser
}

func escapeNode(x *ojson.Value) *sexpr.Node {
	return sexpr.L(sexpr.Sym("json"), sexpr.Str(x.Compact()))
}

// anyNode writes JSON data with no schema: lists for arrays, (:k v ...) for
// objects, raw JSON where neither reads back (an empty object, a first key
// that is not keyword-like).
func anyNode(x *ojson.Value, depth int) *sexpr.Node {
	f := formatter{p: &parser{cache: &viewCache{}, steps: new(int)}}
	return f.val(x, nil, depth)
}

// litNode writes a scalar as itself; strings as keywords when kw allows.
func litNode(x *ojson.Value, kw bool) *sexpr.Node {
	switch x.Kind {
	case ojson.Null:
		return sexpr.NilNode()
	case ojson.Bool:
		return sexpr.BoolNode(x.Bool)
	case ojson.Number:
		return sexpr.Num(string(x.Num))
	case ojson.String:
		if kw && sexpr.IsKeywordText(x.Str) {
			return sexpr.Kw(x.Str)
		}
		return sexpr.Str(x.Str)
	}
	return anyNode(x, 0)
}

func keyNode(k string, keyword bool) *sexpr.Node {
	if keyword && sexpr.IsKeywordText(k) {
		return sexpr.Kw(k)
	}
	return sexpr.Str(k)
}

func headNode(name string) *sexpr.Node {
	if sexpr.IsSymbolText(name) && name != "json" && name != "batch" {
		return sexpr.Sym(name)
	}
	return sexpr.Str(name)
}

func (f *formatter) val(x, s *ojson.Value, depth int) *sexpr.Node {
	if x == nil {
		x = ojson.NewNull()
	}
	if depth > maxFormatDepth {
		return escapeNode(x)
	}
	v := f.p.view(s)
	switch {
	case v.never:
		return escapeNode(x)
	case x.Kind == ojson.Null && v.nullable:
		return sexpr.NilNode()
	case v.constV != nil:
		if ojson.Equal(x, v.constV) {
			return litNode(x, true)
		}
		return escapeNode(x)
	case v.hasEnum:
		for _, e := range v.enum {
			if ojson.Equal(x, e) {
				return litNode(x, true)
			}
		}
		return escapeNode(x)
	}
	if v.tag != nil && x.Kind == ojson.Object {
		if n := f.variant(x, v, depth); n != nil {
			return n
		}
	}
	if len(v.alts) > 0 && !v.ownShape() {
		if len(v.alts) == 1 {
			return f.val(x, v.alts[0], depth+1)
		}
		for _, a := range v.alts {
			n := f.val(x, a, depth+1)
			if !isEscape(n) && f.readsBack(n, s, x) {
				return n
			}
			// An earlier member may read the positional form as its own:
			// naming the fields tells the members apart.
			if av := f.p.view(a); av.record && x.Kind == ojson.Object {
				if items, ok := f.recordItems(x, av, true, depth+1); ok && len(items) > 0 && items[0].Kind == sexpr.Keyword {
					n := sexpr.L(items...)
					if f.readsBack(n, s, x) {
						return n
					}
				}
			}
		}
		return escapeNode(x)
	}
	switch x.Kind {
	case ojson.Null:
		if v.types&tNull != 0 {
			return sexpr.NilNode()
		}
	case ojson.Bool:
		if v.types&tBool != 0 {
			return sexpr.BoolNode(x.Bool)
		}
	case ojson.Number:
		lit := string(x.Num)
		if v.types&(tNumber|tInteger) != 0 && numberProblem(lit) == "" && (v.types&tNumber != 0 || isIntegral(lit)) {
			return sexpr.Num(lit)
		}
	case ojson.String:
		if v.types&tString != 0 {
			return sexpr.Str(x.Str)
		}
	case ojson.Array:
		switch la := v.listAs(); la {
		case listArray, listEither:
			if n := f.array(x, v, la == listEither, depth); n != nil {
				return n
			}
		}
	case ojson.Object:
		switch la := v.listAs(); la {
		case listObject, listEither:
			if n := f.object(x, v, la == listEither, depth); n != nil {
				return n
			}
		}
	}
	return escapeNode(x)
}

// readsBack checks that n reads as x in the slot s, for choices between
// union members, where the first member that reads a value takes it.
func (f *formatter) readsBack(n *sexpr.Node, s, x *ojson.Value) bool {
	q := &parser{cache: f.p.cache, root: f.p.root, steps: new(int)}
	y, err := q.val(n, s, 0)
	return err == nil && ojson.Equal(x, y)
}

func (f *formatter) array(x *ojson.Value, v *view, either bool, depth int) *sexpr.Node {
	if v.itemsNever && len(x.Items) > len(v.prefix) {
		return nil
	}
	items := make([]*sexpr.Node, len(x.Items))
	for i, it := range x.Items {
		items[i] = f.val(it, v.itemSchema(i), depth+1)
	}
	if either && len(items) > 0 && items[0].Kind == sexpr.Keyword {
		items[0] = sexpr.Str(items[0].Text) // a leading keyword would make it an object
	}
	return sexpr.L(items...)
}

func (f *formatter) object(x *ojson.Value, v *view, either bool, depth int) *sexpr.Node {
	var items []*sexpr.Node
	if v.record {
		var ok bool
		if items, ok = f.recordItems(x, v, either, depth); !ok {
			return nil
		}
	} else {
		if !v.extraOK && len(x.Members) > 0 {
			return nil
		}
		items = make([]*sexpr.Node, 0, 2*len(x.Members))
		for _, m := range x.Members {
			items = append(items, keyNode(m.Key, true), f.val(m.Value, v.extraSchema(m.Key), depth+1))
		}
	}
	if either && (len(items) == 0 || items[0].Kind != sexpr.Keyword) {
		return nil // would read as an array
	}
	return sexpr.L(items...)
}

// recordItems writes an object as record arguments: required parameters
// positionally while none is missing, everything else as :name value.
func (f *formatter) recordItems(x *ojson.Value, v *view, allNamed bool, depth int) ([]*sexpr.Node, bool) {
	given := make([]*ojson.Value, len(v.params))
	var extras []ojson.Member
	for _, m := range x.Members {
		if k, ok := v.index[m.Key]; ok {
			given[k] = m.Value
		} else {
			extras = append(extras, m)
		}
	}
	if len(extras) > 0 && !v.extraOK {
		return nil, false
	}
	var items []*sexpr.Node
	var posParams []int
	type pair struct{ k, v *sexpr.Node }
	var kwNamed, strNamed []pair
	positional := !allNamed
	for k, pr := range v.params {
		if positional && pr.required && given[k] != nil {
			n := f.val(given[k], pr.schema, depth+1)
			if n.Kind == sexpr.Keyword {
				if _, clash := v.index[n.Text]; clash {
					n = sexpr.Str(n.Text) // would read as a named argument
				}
			}
			items = append(items, n)
			posParams = append(posParams, k)
			continue
		}
		if pr.required {
			positional = false
		}
		if given[k] == nil {
			continue
		}
		p := pair{keyNode(pr.name, true), f.val(given[k], pr.schema, depth+1)}
		if p.k.Kind == sexpr.Keyword {
			kwNamed = append(kwNamed, p)
		} else {
			strNamed = append(strNamed, p)
		}
	}
	kwExtras := v.extraDeclared || !v.record
	for _, m := range extras {
		p := pair{keyNode(m.Key, kwExtras), f.val(m.Value, v.extraSchema(m.Key), depth+1)}
		if _, clash := v.index[m.Key]; p.k.Kind == sexpr.Keyword && !clash {
			kwNamed = append(kwNamed, p)
		} else {
			p.k = sexpr.Str(m.Key)
			strNamed = append(strNamed, p)
		}
	}
	// String keys only read as keys once the named part has begun: after a
	// :name, or once every parameter has a positional value.
	if len(kwNamed) == 0 && len(strNamed) > 0 && len(posParams) < len(v.params) {
		if len(posParams) == 0 {
			return nil, false
		}
		last := posParams[len(posParams)-1]
		if !sexpr.IsKeywordText(v.params[last].name) {
			return nil, false
		}
		n := f.val(given[last], v.params[last].schema, depth+1)
		kwNamed = append(kwNamed, pair{sexpr.Kw(v.params[last].name), n})
		items = items[:len(items)-1]
	}
	for _, p := range kwNamed {
		items = append(items, p.k, p.v)
	}
	for _, p := range strNamed {
		items = append(items, p.k, p.v)
	}
	return items, true
}

// variant writes a tagged-union member as (TAG ARG ...), or returns nil when
// x carries no known tag.
func (f *formatter) variant(x *ojson.Value, v *view, depth int) *sexpr.Node {
	tv := x.Get(v.tag.prop)
	if tv == nil || tv.Kind != ojson.String {
		return nil
	}
	vv := v.tag.variants[tv.Str]
	if vv == nil {
		return nil
	}
	rest := &ojson.Value{Kind: ojson.Object, Members: make([]ojson.Member, 0, len(x.Members))}
	for _, m := range x.Members {
		if m.Key != v.tag.prop {
			rest.Members = append(rest.Members, m)
		}
	}
	items, ok := f.recordItems(rest, vv, false, depth)
	if !ok {
		return nil
	}
	head := sexpr.Str(tv.Str)
	if sexpr.IsSymbolText(tv.Str) {
		head = sexpr.Sym(tv.Str)
	}
	return sexpr.L(append([]*sexpr.Node{head}, items...)...)
}
