package call

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Signature is signature help: the call the cursor is in, its declaration
// as the model reads it, and the parameter the cursor is on. Texts from the
// server (the declaration, descriptions) are not sanitised.
type Signature struct {
	Tool  string // the tool's real name
	Code  string // its short code, or its name when it has none
	Entry string // the batch id of the entry the cursor is in; "" outside a batch
	// Decl is the tool's one-tool declaration in MCP-Term, exactly the
	// per-tool text of the term form (`mcpterm convert --to term` for a
	// list holding only this tool, with its server-wide code).
	Decl string

	// Param is the call-order index of the tool's parameter the cursor is
	// on or inside (positional, or after its :name), -1 when none (at the
	// head, or where only a :name may come); ParamName is its name, and
	// ParamDecl where "(name type ...)" stands in Decl ({0 0} if not found).
	Param     int
	ParamName string
	ParamDecl Span

	// Path is the JSON path, from the arguments object, of the value at
	// the cursor: ["path"] for a parameter, ["ops", "0", "len"] inside
	// nested lists; nil when the cursor is on no value. Variant is the tag
	// of the tagged-union variant the innermost record is, "" if none.
	Path    []string
	Variant string

	// The slot at the cursor (the innermost one on Path): its type in
	// MCP-Term notation, its enum or const values as they are written
	// (":utf8", "\"New York\"", "3"), its description, and whether its
	// record requires it. For a nested record field they describe the
	// field, not the tool's parameter.
	Type        string
	Enum        []string
	Description string
	Required    bool
}

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }

// Signature is signature help at the cursor of a half-written call or batch
// entry, given the text before the cursor, as Complete reads it. ok is
// false outside any call, or when the call's head names no tool.
func (r *Resolver) Signature(before string) (Signature, bool) {
	if len(before) > MaxSourceBytes {
		return Signature{}, false
	}
	c := scan(before)
	if c.comment {
		return Signature{}, false
	}
	w := walker{r: r, c: c, paths: true}
	where := w.walk()
	if w.tool == nil {
		return Signature{}, false
	}
	t := w.tool
	d := r.declaration(t)
	sig := Signature{Tool: t.Name, Code: r.Code(t.Name), Entry: w.entry, Decl: d.text, Param: -1}
	if where != atCall && where != atNone {
		return sig, true // at the head: the tool its name calls
	}
	var sp *spot
	for i := range w.spots {
		if w.spots[i].hasVal {
			sp = &w.spots[i]
			break
		}
	}
	if sp == nil && len(w.spots) > 0 {
		sp = &w.spots[0]
	}
	if sp != nil && !sp.named {
		w.namedByWord(sp)
	}
	var st state
	switch {
	case sp != nil:
		st = sp.st
	case len(w.last) > 0:
		st = w.last[0]
	default:
		return sig, true
	}
	sig.Variant, sig.Path = st.tag, st.path
	top := st.top
	if sp != nil && sp.hasVal {
		if st.call {
			top = sp.param
		}
		sig.Path = w.extend(st.path, sp.field, sp.elem)
		r.describeSlot(&sig, w.root, sp)
	} else if st.v != nil && len(sig.Path) > 0 {
		sig.Type = r.notation(w.root, st.v.s)
	}
	if top >= 0 {
		if rv := w.view(w.root); rv.record && top < len(rv.params) {
			sig.Param, sig.ParamName = top, rv.params[top].name
			sig.ParamDecl = d.params[sig.ParamName]
		}
	}
	return sig, true
}

// namedByWord makes a spot describe the parameter the word at the cursor
// names, when it names one (or begins only one): (fr :enc is on enc, not
// on the path a positional value would fill.
func (w *walker) namedByWord(sp *spot) {
	if sp.rec == nil {
		return
	}
	word, _ := w.c.wordText()
	if len(word) < 2 || word[0] != ':' {
		return
	}
	name := word[1:]
	k, ok := sp.rec.index[name]
	if !ok {
		k = -1
		for i, p := range sp.rec.params {
			if len(p.name) >= len(name) && p.name[:len(name)] == name && !sp.given[i] {
				if k >= 0 {
					return // more than one
				}
				k = i
			}
		}
		if k < 0 {
			return
		}
	}
	sp.value(sp.rec.params[k].schema, k, sp.rec.params[k].name, true)
	sp.whole, sp.elem = nil, -1
}

// describeSlot fills in the type, values, description and requiredness of
// the slot sp's value goes into.
func (r *Resolver) describeSlot(sig *Signature, root *ojson.Value, sp *spot) {
	s := sp.val
	if sp.whole != nil {
		s = sp.whole // the first value of a trailing run: the parameter is the list
		sig.Path = sig.Path[:len(sig.Path)-1]
	}
	sig.Type = r.notation(root, s)
	for _, c := range r.slotValues(root, s, false) {
		if c.Kind == KindEnum {
			sig.Enum = append(sig.Enum, c.Text)
		}
	}
	if rec := sp.st.v; sp.param >= 0 && rec != nil && sp.param < len(rec.params) {
		pr := rec.params[sp.param]
		sig.Required = pr.required
		sig.Description = describe(r.views.get(root, pr.schema), pr.schema)
		return
	}
	sig.Description = describe(r.views.get(root, s), s)
}

// describe is a schema's description: as written beside a $ref first (where
// the type is used), then the referenced type's own.
func describe(v *view, s *ojson.Value) string {
	if s != nil && s.Kind == ojson.Object {
		if d := s.Get("description"); d != nil && d.Kind == ojson.String {
			return d.Str
		}
	}
	if v.s != nil && v.s.Kind == ojson.Object {
		return v.s.Get("description").StringOr("")
	}
	return ""
}

// decl is a tool's declaration and where each parameter stands in it.
type decl struct {
	text   string
	params map[string]Span
}

// declaration renders t alone as the term form does, once per tool.
func (r *Resolver) declaration(t *toolset.Tool) *decl {
	return r.assist.decls.get(t.Name, func() *decl {
		one := &toolset.Set{Server: r.set.Server, Version: r.set.Version, Source: r.set.Source, Tools: []*toolset.Tool{t}}
		d := &decl{params: map[string]Span{}}
		if doc, err := term.Render(one, term.Options{ModelFacing: true, Codes: map[string]string{t.Name: r.Code(t.Name)}}); err == nil {
			d.text = doc.Text
			d.params = paramSpans(doc.Text, r.views.get(t.InputSchema, t.InputSchema))
		}
		return d
	})
}

// paramSpans finds each parameter's (name type ...) in a declaration
// (declare (CODE NAME PARAM ... (opt PARAM ...) ...)).
func paramSpans(text string, v *view) map[string]Span {
	out := map[string]Span{}
	nodes, err := sexpr.Parse(text)
	if err != nil || len(nodes) == 0 || nodes[0].Head() != "declare" || len(nodes[0].Items) < 2 {
		return out
	}
	tool := nodes[0].Items[1]
	if tool.Kind != sexpr.List || len(tool.Items) < 2 {
		return out
	}
	var visit func(items []*sexpr.Node, group bool)
	visit = func(items []*sexpr.Node, group bool) {
		for _, it := range items {
			if it.Kind != sexpr.List || len(it.Items) < 2 {
				continue
			}
			head := it.Items[0]
			if !group && head.IsSym("opt") && it.Items[1].Kind == sexpr.List {
				visit(it.Items[1:], true)
				continue
			}
			if head.Kind != sexpr.Symbol && head.Kind != sexpr.String {
				continue
			}
			if _, ok := v.index[head.Text]; ok {
				if _, dup := out[head.Text]; !dup {
					out[head.Text] = Span{it.Pos.Offset, it.End.Offset}
				}
			}
		}
	}
	visit(tool.Items[2:], false)
	return out
}
