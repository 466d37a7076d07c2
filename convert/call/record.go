package call

import (
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// Records: the arguments of a call, nested records and union variants, read
// by the rules of docs/mcp-term-calls.md (positional then named, trailing
// list, undeclared keys).

// record reads the arguments of a call, a nested record or a union variant:
// positional values fill the parameters in call order (required ones, then
// optional ones, each in schema order); :name value sets one by name. fixed
// is a member that is not written (a union variant's tag).
func (p *parser) record(list *sexpr.Node, items []*sexpr.Node, v *view, depth int, fixed *ojson.Member, fixedOrder int) (*ojson.Value, error) {
	vals := make([]*ojson.Value, len(v.params))
	at := make([]*sexpr.Node, len(v.params))
	var extras []ojson.Member
	var extraAt map[string]*sexpr.Node
	next, named := 0, false
	for i := 0; i < len(items); {
		it := items[i]
		keyed := named || next >= len(v.params)
		if it.Kind == sexpr.Keyword || (keyed && it.Kind == sexpr.String) {
			k, isParam := v.index[it.Text]
			switch {
			case isParam && (it.Kind == sexpr.Keyword || keyed):
				if i+1 >= len(items) {
					return nil, errLazy(ErrShape, it, p.lazyType(v.params[k].schema), "no value after %s", asKeyword(it.Text))
				}
				if at[k] != nil {
					return nil, errNode(ErrDuplicate, it, "", "duplicate argument %s (already given at %s)", asKeyword(it.Text), at[k].Pos)
				}
				x, err := p.val(items[i+1], v.params[k].schema, depth+1)
				if err != nil {
					return nil, err
				}
				vals[k], at[k] = x, it
				named = true
				i += 2
				continue
			case keyed:
				allowed := v.extraOK && (it.Kind == sexpr.String || v.extraDeclared || !v.record)
				if i+1 >= len(items) && it.Kind == sexpr.String && named {
					return nil, errNode(ErrShape, it, ":name value", "positional argument after named arguments")
				}
				if !allowed {
					return nil, p.unknownParam(it, v)
				}
				if i+1 >= len(items) {
					return nil, errNode(ErrShape, it, "a value", "no value after %s", asKeyword(it.Text))
				}
				if extraAt == nil {
					extraAt = map[string]*sexpr.Node{}
				}
				if prev := extraAt[it.Text]; prev != nil {
					return nil, errNode(ErrDuplicate, it, "", "duplicate key %s (first given at %s)", asKeyword(it.Text), prev.Pos)
				}
				extraAt[it.Text] = it
				x, err := p.val(items[i+1], v.extraSchema(it.Text), depth+1)
				if err != nil {
					return nil, err
				}
				extras = append(extras, ojson.Member{Key: it.Text, Value: x})
				named = true
				i += 2
				continue
			}
			// a keyword that names no parameter, in the positional part: a value
		} else if named {
			return nil, errNode(ErrShape, it, ":name value", "positional argument after named arguments")
		}
		if next >= len(v.params) {
			return nil, p.tooMany(it, v)
		}
		k := next
		pr := v.params[k]
		if k == len(v.params)-1 && p.listParam(pr.schema) != nil {
			end := i
			for end < len(items) {
				if e := items[end]; e.Kind == sexpr.Keyword {
					if _, ok := v.index[e.Text]; ok {
						break
					}
				}
				end++
			}
			x, err := p.trailing(items[i:end], pr.schema, depth)
			if err != nil {
				return nil, p.maybeUnknown(err, items[i:end], v)
			}
			vals[k], at[k] = x, it
			next++
			i = end
			continue
		}
		x, err := p.val(it, pr.schema, depth+1)
		if err != nil {
			return nil, p.maybeUnknown(err, items[i:i+1], v)
		}
		vals[k], at[k] = x, it
		next++
		i++
	}
	var missing []string
	var missingParams []param
	for k, pr := range v.params {
		if pr.required && vals[k] == nil {
			missing = append(missing, pr.name)
			missingParams = append(missingParams, pr)
		}
	}
	if len(missing) > 0 {
		what := "parameter"
		if len(missing) > 1 {
			what = "parameters"
		}
		e := errAt(ErrMissing, closePos(list), "", "missing required %s %s", what, strings.Join(missing, ", "))
		e.lazy = func() string { return p.decls(missingParams) }
		return nil, e
	}
	return p.buildObject(v, vals, extras, fixed, fixedOrder), nil
}

// buildObject lays the members out in the schema's property order, extras last.
func (p *parser) buildObject(v *view, vals []*ojson.Value, extras []ojson.Member, fixed *ojson.Member, fixedOrder int) *ojson.Value {
	n := len(extras)
	if fixed != nil {
		n++
	}
	for _, x := range vals {
		if x != nil {
			n++
		}
	}
	out := p.value1(ojson.Value{Kind: ojson.Object, Members: make([]ojson.Member, 0, n)})
	placed := fixed == nil
	for _, k := range v.sorder {
		if !placed && v.params[k].order > fixedOrder {
			out.Members = append(out.Members, *fixed)
			placed = true
		}
		if vals[k] != nil {
			out.Members = append(out.Members, ojson.Member{Key: v.params[k].name, Value: vals[k]})
		}
	}
	if !placed {
		out.Members = append(out.Members, *fixed)
	}
	out.Members = append(out.Members, extras...)
	return out
}

// listParam returns the array view of a parameter that can take its
// elements inline: an array, or an array-or-null.
func (p *parser) listParam(s *ojson.Value) *view {
	v := p.view(s)
	for i := 0; i < 4; i++ {
		if v.hasEnum || v.constV != nil || v.tag != nil {
			return nil
		}
		if len(v.alts) == 1 && !v.ownShape() {
			v = p.view(v.alts[0])
			continue
		}
		if len(v.alts) == 0 && v.listAs() == listArray {
			return v
		}
		return nil
	}
	return nil
}

// trailing reads the values given for the last parameter when it is a list:
// one value that reads as the whole list is the list; otherwise each value
// is one element.
func (p *parser) trailing(run []*sexpr.Node, s *ojson.Value, depth int) (*ojson.Value, error) {
	if len(run) == 1 {
		whole, err := p.val(run[0], s, depth+1)
		if err == nil {
			return whole, nil
		}
		elems, err2 := p.elements(run, s, depth)
		if err2 == nil {
			return elems, nil
		}
		return nil, further(err, err2)
	}
	return p.elements(run, s, depth)
}

func (p *parser) elements(run []*sexpr.Node, s *ojson.Value, depth int) (*ojson.Value, error) {
	av := p.listParam(s)
	out := p.value1(ojson.Value{Kind: ojson.Array, Items: make([]*ojson.Value, 0, len(run))})
	for i, it := range run {
		if av.itemsNever && i >= len(av.prefix) {
			return nil, errNode(ErrTooMany, it, "", "too many elements: at most %d allowed here", len(av.prefix))
		}
		x, err := p.val(it, av.itemSchema(i), depth+2)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, x)
	}
	p.note(out, run[0])
	return out, nil
}

// further picks the error that got further into the source; at the same
// place, the more specific one (a plain type mismatch says least).
func further(a, b error) error {
	ea, ok1 := a.(*Error)
	eb, ok2 := b.(*Error)
	if ok1 && ok2 && (eb.Pos.Offset > ea.Pos.Offset || eb.Pos.Offset == ea.Pos.Offset && ea.Kind == ErrType && eb.Kind != ErrType) {
		return b
	}
	return a
}

// maybeUnknown turns a failed positional keyword that looks like a misspelt
// parameter name into an unknown-parameter error, which is what the writer
// most likely meant.
func (p *parser) maybeUnknown(err error, run []*sexpr.Node, v *view) error {
	e, ok := err.(*Error)
	if !ok || e.Kind == ErrLimit {
		return err
	}
	for _, it := range run {
		if it.Kind == sexpr.Keyword && it.Pos == e.Pos && len(suggest(it.Text, v.paramNames())) > 0 {
			return p.unknownParam(it, v)
		}
	}
	return err
}

func (p *parser) unknownParam(it *sexpr.Node, v *view) error {
	names := v.paramNames()
	expected := ""
	if len(names) > 0 {
		shown := make([]string, len(names))
		for i, n := range names {
			shown[i] = asKeyword(n)
		}
		expected = "one of " + strings.Join(shown, " ")
	} else {
		expected = "no named arguments (this takes no parameters)"
	}
	return errNode(ErrUnknownParam, it, expected, "unknown parameter %s%s", asKeyword(it.Text), didYouMean(it.Text, names, asKeyword))
}

func (v *view) paramNames() []string {
	out := make([]string, len(v.params))
	for i, p := range v.params {
		out[i] = p.name
	}
	return out
}

func (p *parser) tooMany(it *sexpr.Node, v *view) error {
	if len(v.params) == 0 {
		return errNode(ErrTooMany, it, "no arguments", "too many arguments: this takes no parameters")
	}
	return errLazy(ErrTooMany, it, func() string {
		return "at most " + strconv.Itoa(len(v.params)) + ": " + p.decls(v.params)
	}, "too many positional arguments")
}

// decls writes parameters as declarations: (path string) (enc :utf8|:base64).
func (p *parser) decls(params []param) string {
	parts := make([]string, len(params))
	for i, pr := range params {
		parts[i] = "(" + pr.name + " " + p.typeText(pr.schema) + ")"
	}
	return strings.Join(parts, " ")
}

// lazyType defers writing a type until an error is shown: while union
// members are tried, most errors are made only to be dropped.
func (p *parser) lazyType(s *ojson.Value) func() string {
	return func() string { return p.typeText(s) }
}

// schemaOrder lists parameter indexes in the order the schema declares them.
func schemaOrder(v *view) []int {
	out := make([]int, len(v.params))
	for i := range out {
		out[i] = i
	}
	// params are required-then-optional; a merge of the two runs by order
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && v.params[out[j]].order < v.params[out[j-1]].order; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// variant reads (TAG ARG ...) for a tagged union, or the all-named form
// (:tagprop "TAG" :field v ...).
func (p *parser) variant(n *sexpr.Node, s *ojson.Value, v *view, depth int) (*ojson.Value, error) {
	t := v.tag
	if len(n.Items) == 0 {
		return nil, errLazy(ErrShape, n, p.lazyType(s), "empty list where a union variant goes")
	}
	head := n.Items[0]
	if head.Kind == sexpr.Keyword && head.Text == t.prop && len(n.Items) > 1 {
		if tv := n.Items[1]; tv.Kind == sexpr.String || tv.Kind == sexpr.Keyword || tv.Kind == sexpr.Symbol {
			if full := t.full[tv.Text]; full != nil {
				return p.record(n, n.Items, full, depth, nil, 0)
			}
		}
		head = n.Items[1]
	}
	var name string
	switch head.Kind {
	case sexpr.Symbol, sexpr.Keyword, sexpr.String:
		name = head.Text
	}
	variant := t.variants[name]
	if variant == nil {
		what := sexpr.Describe(head)
		return nil, errLazy(ErrEnum, head, p.lazyType(s), "unknown variant: found %s%s", what, didYouMean(name, t.values, plain))
	}
	tag := &ojson.Member{Key: t.prop, Value: ojson.NewString(name)}
	return p.record(n, n.Items[1:], variant, depth, tag, t.order[name])
}
