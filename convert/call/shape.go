package call

import "github.com/mcpterm/mcpterm/convert/ojson"

// Shape is one node of a tool's input schema as the call reader sees it:
// local $refs followed, allOf folded, a union split into its members and a
// tagged union's tag found. It is the reading the parser, the printer and
// the template already use, exported for front ends that build a value
// from a schema (the workbench's form), so there is one schema walker and
// a form cannot disagree with the reader about what a slot holds.
//
// A Shape is a cheap handle on the Resolver's view cache. Children (fields,
// items, members) are read when asked for, so a recursive schema costs only
// as deep as the caller walks; a caller that walks untrusted schemas bounds
// its own depth.
type Shape struct {
	c    *viewCache
	root *ojson.Value
	orig *ojson.Value // the node as written, before $ref and allOf
	v    *view
}

// ShapeField is one property of a record, in the schema's order.
type ShapeField struct {
	Name     string
	Required bool
	Shape    *Shape
}

// InputShape is the shape of a tool's inputSchema (tool by name or short
// code); nil for an unknown tool.
func (r *Resolver) InputShape(tool string) *Shape {
	t := r.Lookup(tool)
	if t == nil {
		return nil
	}
	return r.shapeOf(t.InputSchema, t.InputSchema)
}

func (r *Resolver) shapeOf(root, s *ojson.Value) *Shape {
	return &Shape{c: &r.views, root: root, orig: s, v: r.views.get(root, s)}
}

func (s *Shape) child(x *ojson.Value) *Shape {
	return &Shape{c: s.c, root: s.root, orig: x, v: s.c.get(s.root, x)}
}

// Schema is the node after $refs and allOf are folded in; nil when the slot
// takes anything.
func (s *Shape) Schema() *ojson.Value { return s.v.s }

// Annotation is a keyword of the node: as written beside a $ref first (a
// description or default given where the type is used), then in the folded
// node. nil when neither has it.
func (s *Shape) Annotation(key string) *ojson.Value {
	if s.orig != nil && s.orig.Kind == ojson.Object {
		if a := s.orig.Get(key); a != nil {
			return a
		}
	}
	if s.v.s != nil && s.v.s.Kind == ojson.Object {
		return s.v.s.Get(key)
	}
	return nil
}

// Name is the $defs (or definitions) name the node was reached through, "" if none.
func (s *Shape) Name() string { return s.v.name }

// Never reports the false schema: no value fits.
func (s *Shape) Never() bool { return s.v.never }

// Any reports a slot that takes any JSON value: no type, enum, const, union
// or object or array keywords.
func (s *Shape) Any() bool { return s.v.isAny() }

// Types are the JSON types the slot takes besides null (in the order
// boolean, object, array, number, integer, string): from "type" when given, else "object" or "array" when only keywords of
// one of them are present; nil for a slot with no type of its own (any, or
// a union). "integer" is left out when "number" is there.
func (s *Shape) Types() []string {
	ts := s.v.types &^ tNull
	if !s.v.typed {
		switch {
		case s.v.record || s.v.objHint:
			ts = tObject
		case s.v.arrHint:
			ts = tArray
		default:
			return nil
		}
	}
	var out []string
	for _, t := range typeNames {
		if ts&t.bit != 0 {
			out = append(out, t.name)
		}
	}
	return out
}

// Nullable reports that null is allowed ("type" lists it, nullable: true,
// or a null member of a union).
func (s *Shape) Nullable() bool { return s.v.nullable }

// Enum is the enum's values, and whether the node has an enum at all.
func (s *Shape) Enum() ([]*ojson.Value, bool) { return s.v.enum, s.v.hasEnum }

// Const is the node's const value, nil if none.
func (s *Shape) Const() *ojson.Value { return s.v.constV }

// Record reports an object with declared properties (Fields).
func (s *Shape) Record() bool { return s.v.record }

// Fields are a record's properties in the schema's order (required names
// with no property schema at the end), each with its shape.
func (s *Shape) Fields() []ShapeField {
	out := make([]ShapeField, 0, len(s.v.params))
	for _, i := range s.v.sorder {
		p := s.v.params[i]
		out = append(out, ShapeField{Name: p.name, Required: p.required, Shape: s.child(p.schema)})
	}
	return out
}

// ExtraAllowed reports whether an object may hold properties it does not
// declare; ExtraDeclared whether the schema said so itself
// (additionalProperties or patternProperties) rather than by JSON Schema's
// default.
func (s *Shape) ExtraAllowed() bool  { return s.v.extraOK }
func (s *Shape) ExtraDeclared() bool { return s.v.extraDeclared }

// ExtraPatterns reports patternProperties: the shape of an undeclared
// property then depends on its key.
func (s *Shape) ExtraPatterns() bool { return len(s.v.patterns) > 0 }

// ExtraShape is the shape of an undeclared property named key.
func (s *Shape) ExtraShape(key string) *Shape { return s.child(s.v.extraSchema(key)) }

// ListAs says how a list fills the slot: "object", "array", "either" (an
// unconstrained slot, decided by the value) or "" (a list cannot).
func (s *Shape) ListAs() string {
	switch s.v.listAs() {
	case listObject:
		return "object"
	case listArray:
		return "array"
	case listEither:
		return "either"
	}
	return ""
}

// Item is the shape of an array's item i (prefixItems first, then items).
func (s *Shape) Item(i int) *Shape { return s.child(s.v.itemSchema(i)) }

// PrefixItems is how many leading items have their own shape (a tuple).
func (s *Shape) PrefixItems() int { return len(s.v.prefix) }

// MoreItems reports whether items past the prefix are allowed.
func (s *Shape) MoreItems() bool { return !s.v.itemsNever }

// Union reports a slot that is one of several members (Alternatives):
// anyOf/oneOf with no shape of its own beside it, or a tagged union.
func (s *Shape) Union() bool { return s.v.tag != nil || len(s.v.alts) > 0 && !s.v.ownShape() }

// Alternatives are a union's members other than null, in schema order.
func (s *Shape) Alternatives() []*Shape {
	out := make([]*Shape, len(s.v.alts))
	for i, a := range s.v.alts {
		out[i] = s.child(a)
	}
	return out
}

// Tag is a tagged union's tag property and its values, one per member in
// member order; "" and nil when the union has no tag.
func (s *Shape) Tag() (string, []string) {
	if s.v.tag == nil {
		return "", nil
	}
	return s.v.tag.prop, s.v.tag.values
}

// Variant is the member of a tagged union with the tag value tag, without
// the tag property (as an S-expression call writes it after the head);
// nil for an unknown tag.
func (s *Shape) Variant(tag string) *Shape {
	if s.v.tag == nil || s.v.tag.variants[tag] == nil {
		return nil
	}
	vv := s.v.tag.variants[tag]
	full := s.v.tag.full[tag]
	// The variant's own node carries its annotations (its description).
	var orig *ojson.Value
	for _, a := range s.v.alts {
		if s.c.get(s.root, a) == full {
			orig = a
			break
		}
	}
	return &Shape{c: s.c, root: s.root, orig: orig, v: vv}
}

// Notation is the slot's type in MCP-Term notation ("int", "(or str int)",
// a $defs name past the first level), as error messages write it.
func (s *Shape) Notation() string { return s.c.notation(s.root, s.orig, 0) }
