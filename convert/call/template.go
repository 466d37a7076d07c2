package call

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// FormatNode is Format as a tree, for front ends that pretty-print or
// highlight it.
func (r *Resolver) FormatNode(c Call) (*sexpr.Node, error) {
	t := r.Lookup(c.Tool)
	if t == nil {
		return nil, errAt(ErrUnknownTool, c.Pos, "", "unknown tool %s%s", c.Tool, didYouMean(c.Tool, r.candidates(), plain))
	}
	args := c.Arguments
	if args == nil {
		args = ojson.NewObject()
	}
	if args.Kind != ojson.Object {
		return nil, errAt(ErrType, c.Pos, "a JSON object", "the arguments of %s are a JSON %s", t.Name, args.Kind)
	}
	if msg := checkJSON(args, maxValueDepth); msg != "" {
		return nil, errAt(ErrLimit, c.Pos, "", "%s", msg)
	}
	steps := 0
	f := formatter{p: r.newParser(t, &steps, false)}
	v := f.p.view(t.InputSchema)
	var items []*sexpr.Node
	switch {
	case v.record:
		var ok bool
		if items, ok = f.recordItems(args, v, false, 0); !ok {
			return nil, errAt(ErrNotCallable, c.Pos, "JSON input", "the arguments of %s hold only undeclared properties, which an S-expression call cannot write", t.Name)
		}
	case v.tag != nil || len(v.alts) > 0 && !v.ownShape():
		n := f.val(args, t.InputSchema, 0)
		if n.Kind != sexpr.List || isEscape(n) {
			return nil, errAt(ErrNotCallable, c.Pos, "JSON input", "the arguments of %s fit no member of its inputSchema's union", t.Name)
		}
		items = n.Items
	default:
		for _, m := range args.Members {
			items = append(items, keyNode(m.Key, true), f.val(m.Value, v.extraSchema(m.Key), 1))
		}
	}
	head := headNode(t.Name)
	if !r.UseNames {
		if code := r.codeOf[t.Name]; code != "" {
			head = sexpr.Sym(code)
		}
	}
	n := sexpr.L(append([]*sexpr.Node{head}, items...)...)
	// Every choice above mirrors a reading rule; check the result reads back.
	back, err := r.readCall(n, "", new(int))
	if err != nil || !ojson.Equal(back.Arguments, args) {
		why := "it reads back differently"
		if err != nil {
			why = err.Error()
		}
		return nil, errAt(ErrNotCallable, c.Pos, "JSON input", "the arguments of %s cannot be written as an S-expression call: %s", t.Name, why)
	}
	return n, nil
}

// FormatBatch writes a batch as (batch [:concurrency N] [:stop-on-error]
// (ID CALL) ...), or a single call as itself.
func (r *Resolver) FormatBatch(b *Batch) (*sexpr.Node, error) {
	if !b.IsBatch && len(b.Calls) == 1 {
		return r.FormatNode(b.Calls[0])
	}
	items := []*sexpr.Node{sexpr.Sym("batch")}
	if b.Concurrency > 0 {
		items = append(items, sexpr.Kw("concurrency"), sexpr.Num(itoa(b.Concurrency)))
	}
	if b.StopOnError {
		items = append(items, sexpr.Kw("stop-on-error"))
	}
	for i, c := range b.Calls {
		n, err := r.FormatNode(c)
		if err != nil {
			return nil, err
		}
		id := c.ID
		if id == "" {
			id = itoa(i + 1)
		}
		idn := idNode(id)
		if idn.Kind == sexpr.String {
			return nil, errAt(ErrNotCallable, c.Pos, "a symbol or number", "batch id %q cannot be written in a (batch ...)", id)
		}
		items = append(items, sexpr.L(idn, n))
	}
	return sexpr.L(items...), nil
}

func itoa(i int) string { return ojson.NewInt(int64(i)).Compact() }

// Template is a call of tool with every required parameter named and given
// a placeholder of its type ("" 0 false () nil, the first enum value, the
// first union variant), for a composer to start from. It reads, though it
// need not validate (a placeholder may be below a minimum). "" for an
// unknown tool.
func (r *Resolver) Template(tool string) string {
	t := r.Lookup(tool)
	if t == nil {
		return ""
	}
	steps := 0
	p := r.newParser(t, &steps, false)
	head := headNode(t.Name)
	if !r.UseNames {
		if code := r.codeOf[t.Name]; code != "" {
			head = sexpr.Sym(code)
		}
	}
	items := []*sexpr.Node{head}
	v := p.view(t.InputSchema)
	if !v.record && (v.tag != nil || len(v.alts) > 0 && !v.ownShape()) {
		items = append(items, zero(p, t.InputSchema, 0).Items...)
	} else {
		items = append(items, requiredZeros(p, v, 0)...)
	}
	return sexpr.L(items...).String()
}

func requiredZeros(p *parser, v *view, depth int) []*sexpr.Node {
	var items []*sexpr.Node
	for _, pr := range v.params {
		if !pr.required {
			continue
		}
		items = append(items, keyNode(pr.name, true), zero(p, pr.schema, depth+1))
	}
	if len(items) > 0 && items[0].Kind != sexpr.Keyword {
		return nil // a name that is not keyword-like cannot open the named part
	}
	return items
}

func zero(p *parser, s *ojson.Value, depth int) *sexpr.Node {
	v := p.view(s)
	switch {
	case depth > 6 || v.never:
		return sexpr.NilNode()
	case v.constV != nil:
		return litNode(v.constV, true)
	case v.hasEnum && len(v.enum) > 0:
		return litNode(v.enum[0], true)
	case v.tag != nil:
		tag := v.tag.values[0]
		return sexpr.L(append([]*sexpr.Node{headNode(tag)}, requiredZeros(p, v.tag.variants[tag], depth)...)...)
	case len(v.alts) > 0 && !v.ownShape():
		return zero(p, v.alts[0], depth+1)
	}
	if ts := v.types; v.typed {
		switch {
		case ts&tString != 0:
			return sexpr.Str("")
		case ts&(tNumber|tInteger) != 0:
			return sexpr.Num("0")
		case ts&tBool != 0:
			return sexpr.BoolNode(false)
		}
	}
	if v.isAny() {
		return sexpr.NilNode()
	}
	switch v.listAs() {
	case listObject:
		if v.record {
			return sexpr.L(requiredZeros(p, v, depth)...)
		}
		return sexpr.L()
	case listArray:
		return sexpr.L()
	}
	return sexpr.NilNode()
}
