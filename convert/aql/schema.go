package aql

import (
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Bounds on what a hostile or just very large schema can make us do.
const (
	maxRefHops   = 32 // $ref -> $ref -> ... chains
	maxInfoDepth = 8  // nesting of ParameterInfo (items, fields, variants)
	maxShapeLoop = 16 // allOf/anyOf nesting when collecting an object's properties
)

// schemaCtx resolves local references against one tool's input schema.
type schemaCtx struct {
	root *ojson.Value
}

// pointer follows a JSON pointer fragment ("#/$defs/Foo") from the root.
func (c *schemaCtx) pointer(ref string) *ojson.Value {
	if ref == "#" {
		return c.root
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil // remote or anchor refs are not followed
	}
	cur := c.root
	for _, seg := range strings.Split(ref[2:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch {
		case cur == nil:
			return nil
		case cur.Kind == ojson.Object:
			cur = cur.Get(seg)
		case cur.Kind == ojson.Array:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(cur.Items) {
				return nil
			}
			cur = cur.Items[i]
		default:
			return nil
		}
	}
	return cur
}

// deref follows a chain of local $refs. It returns the schema reached, the
// last reference followed ("" when s had none), and ok=false when a reference
// cannot be resolved or the chain is too long.
func (c *schemaCtx) deref(s *ojson.Value) (out *ojson.Value, ref string, ok bool) {
	for hops := 0; s != nil && s.Kind == ojson.Object; hops++ {
		r := s.Get("$ref")
		if r == nil || r.Kind != ojson.String {
			return s, ref, true
		}
		if hops >= maxRefHops {
			return s, r.Str, false
		}
		next := c.pointer(r.Str)
		if next == nil {
			return s, r.Str, false
		}
		ref, s = r.Str, next
	}
	return s, ref, s != nil
}

// refName is the last segment of a reference: "#/$defs/Todo" -> "Todo".
func refName(ref string) string {
	if i := strings.LastIndexByte(ref, '/'); i >= 0 {
		ref = ref[i+1:]
	}
	return strings.ReplaceAll(strings.ReplaceAll(ref, "~1", "/"), "~0", "~")
}

// prop is one property of an object schema.
type prop struct {
	name   string
	schema *ojson.Value
}

// shape is what an object schema accepts at its top level.
type shape struct {
	props    []prop
	required map[string]bool
	// open is set when the schema explicitly allows properties it does not
	// name (additionalProperties true or a schema, or patternProperties).
	open bool
}

func (sh *shape) has(name string) bool {
	for _, p := range sh.props {
		if p.name == name {
			return true
		}
	}
	return false
}

// objectShape collects properties in schema order, following $ref and
// merging allOf (required: union) and anyOf/oneOf (required: only what every
// branch requires).
func (w *walker) objectShape(s *ojson.Value) *shape {
	sh := &shape{required: map[string]bool{}}
	w.collect(s, sh, 0)
	return sh
}

func (w *walker) collect(s *ojson.Value, sh *shape, depth int) {
	if depth > maxShapeLoop || !w.step() {
		return
	}
	s, _, _ = w.ctx.deref(s)
	if s == nil || s.Kind != ojson.Object {
		return
	}
	if p := s.Get("properties"); p != nil && p.Kind == ojson.Object {
		for _, m := range p.Members {
			if !sh.has(m.Key) {
				sh.props = append(sh.props, prop{m.Key, m.Value})
			}
		}
	}
	for _, r := range stringList(s.Get("required")) {
		sh.required[r] = true
	}
	if ap := s.Get("additionalProperties"); ap != nil && (ap.Kind == ojson.Object || ap.Kind == ojson.Bool && ap.Bool) {
		sh.open = true
	}
	if pp := s.Get("patternProperties"); pp != nil && pp.Kind == ojson.Object && len(pp.Members) > 0 {
		sh.open = true
	}
	if all := s.Get("allOf"); all != nil && all.Kind == ojson.Array {
		for _, b := range all.Items {
			w.collect(b, sh, depth+1)
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		alt := s.Get(key)
		if alt == nil || alt.Kind != ojson.Array || len(alt.Items) == 0 {
			continue
		}
		var common map[string]bool
		for _, b := range alt.Items {
			sub := &shape{required: map[string]bool{}}
			w.collect(b, sub, depth+1)
			for _, p := range sub.props {
				if !sh.has(p.name) {
					sh.props = append(sh.props, p)
				}
			}
			sh.open = sh.open || sub.open
			if common == nil {
				common = sub.required
				continue
			}
			for k := range common {
				if !sub.required[k] {
					delete(common, k)
				}
			}
		}
		for k := range common {
			sh.required[k] = true
		}
	}
}

func stringList(v *ojson.Value) []string {
	if v == nil || v.Kind != ojson.Array {
		return nil
	}
	var out []string
	for _, it := range v.Items {
		if it.Kind == ojson.String {
			out = append(out, it.Str)
		}
	}
	return out
}

// jsonTypes lists the JSON Schema types a schema admits at its top level;
// nil means anything goes (no type information, or too costly to find out).
func (w *walker) jsonTypes(s *ojson.Value) []string {
	return w.types(s, 0)
}

func (w *walker) types(s *ojson.Value, depth int) []string {
	if depth > maxShapeLoop || !w.step() {
		return nil
	}
	s, _, ok := w.ctx.deref(s)
	if !ok || s == nil || s.Kind != ojson.Object {
		return nil // true, false or unresolved: say nothing
	}
	if t := s.Get("type"); t != nil {
		switch t.Kind {
		case ojson.String:
			return []string{t.Str}
		case ojson.Array:
			if l := stringList(t); len(l) > 0 {
				return l
			}
		}
	}
	if k := s.Get("const"); k != nil {
		return []string{kindType(k)}
	}
	if e := s.Get("enum"); e != nil && e.Kind == ojson.Array && len(e.Items) > 0 {
		var out []string
		for _, it := range e.Items {
			out = addUnique(out, kindType(it))
		}
		return out
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		alt := s.Get(key)
		if alt == nil || alt.Kind != ojson.Array || len(alt.Items) == 0 {
			continue
		}
		var out []string
		for _, b := range alt.Items {
			bt := w.types(b, depth+1)
			if bt == nil {
				return nil
			}
			for _, t := range bt {
				out = addUnique(out, t)
			}
		}
		return out
	}
	if all := s.Get("allOf"); all != nil && all.Kind == ojson.Array {
		for _, b := range all.Items {
			if bt := w.types(b, depth+1); bt != nil {
				return bt
			}
		}
	}
	if s.Has("properties") || s.Has("additionalProperties") || s.Has("required") || s.Has("patternProperties") {
		return []string{"object"}
	}
	if s.Has("items") || s.Has("prefixItems") {
		return []string{"array"}
	}
	return nil
}

func addUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// kindType is the JSON Schema type name of a value; integral numbers are
// "integer", since that is the narrowest type they satisfy.
func kindType(v *ojson.Value) string {
	if v == nil {
		return "null"
	}
	if v.Kind == ojson.Number {
		if isIntegral(string(v.Num)) {
			return "integer"
		}
		return "number"
	}
	return v.Kind.String()
}

// isIntegral reports whether a JSON number's value is a whole number
// ("3", "3.0", "3e2", "300e-2"), as JSON Schema's "integer" requires. It
// works on the digits, so "1e999999999" costs nothing.
func isIntegral(n string) bool {
	n = strings.TrimLeft(n, "+-")
	mant, exp := n, 0
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(n[i+1:], "+"))
		if err != nil {
			// An exponent too large for int: positive means a huge whole
			// number, negative a tiny fraction (or zero).
			return !strings.HasPrefix(n[i+1:], "-") || strings.Trim(n[:i], "0.") == ""
		}
		mant, exp = n[:i], e
	}
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		digits = mant[:i] + mant[i+1:]
		exp -= len(mant) - i - 1
	}
	if strings.Trim(digits, "0") == "" || exp >= 0 {
		return true
	}
	zeros := len(digits) - len(strings.TrimRight(digits, "0"))
	return zeros >= -exp
}

// typeMatches reports whether a value of JSON type got satisfies one of want.
func typeMatches(got string, want []string) bool {
	for _, w := range want {
		switch {
		case w == got:
			return true
		case w == "number" && got == "integer":
			return true
		}
	}
	return false
}

// ---- ParameterInfo ----

// walker reads one schema for one answer. It renders the spec's
// ParameterInfo objects, inlining local $refs; a reference that loops back
// is written as the referenced type's name, which `introspect types` then
// describes. Its step budget keeps schemas whose unions point back at
// themselves from costing exponential time: once spent, types read as "any"
// and nesting stops. A walker is used by one goroutine for one answer.
type walker struct {
	ctx   *schemaCtx
	stack []string
	steps int
}

// maxSteps bounds the work of one walker; real schemas need a few hundred.
const maxSteps = 20000

func newWalker(c *schemaCtx) *walker { return &walker{ctx: c} }

func (w *walker) step() bool {
	w.steps++
	return w.steps <= maxSteps
}

func (b *walker) onStack(ref string) bool {
	for _, r := range b.stack {
		if r == ref {
			return true
		}
	}
	return false
}

// info renders one parameter. name is "" for array items and union variants,
// which then carry neither name nor required.
func (b *walker) info(name string, s *ojson.Value, required bool, depth int) *ojson.Value {
	o := ojson.NewObject()
	if name != "" {
		o.Set("name", ojson.NewString(name))
	}
	setRequired := func() {
		if name != "" {
			o.Set("required", ojson.NewBool(required))
		}
	}
	outer := s
	if outer != nil && outer.Kind == ojson.Object {
		if r := outer.Get("$ref"); r != nil && r.Kind == ojson.String && b.onStack(r.Str) {
			o.Set("type", ojson.NewString(refName(r.Str)))
			setRequired()
			copyDescription(o, outer, nil)
			return o
		}
	}
	if !b.step() {
		o.Set("type", ojson.NewString("any"))
		setRequired()
		return o
	}
	res, ref, ok := b.ctx.deref(s)
	if ref != "" && ok {
		b.stack = append(b.stack, ref)
		defer func() { b.stack = b.stack[:len(b.stack)-1] }()
	}
	if !ok {
		o.Set("type", ojson.NewString("any"))
		setRequired()
		copyDescription(o, outer, nil)
		return o
	}
	if res.Kind == ojson.Bool {
		t := "any"
		if !res.Bool {
			t = "never"
		}
		o.Set("type", ojson.NewString(t))
		setRequired()
		return o
	}
	if res.Kind != ojson.Object {
		o.Set("type", ojson.NewString("any"))
		setRequired()
		return o
	}

	// A union with one non-null branch reads as that branch, nullable.
	branches, nulls := b.alternatives(res)
	if len(branches) == 1 && !res.Has("type") && !res.Has("properties") {
		inner := b.info("", branches[0], false, depth)
		t := inner.Get("type").StringOr("any")
		if nulls {
			t += " | null"
		}
		inner.Set("type", ojson.NewString(t))
		copyDescription(inner, outer, res)
		copyDefault(inner, outer, res)
		if name != "" {
			return prepend(inner, ojson.NewString(name), required)
		}
		return inner
	}

	o.Set("type", ojson.NewString(b.typeName(res)))
	setRequired()
	copyDescription(o, outer, res)
	copyDefault(o, outer, res)
	if e := enumValues(res, branches); e != nil {
		o.Set("enum", e)
	}
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems"} {
		if v := res.Get(k); v != nil && (v.Kind == ojson.Number || v.Kind == ojson.String) {
			o.Set(k, v.Clone())
		}
	}
	if depth >= maxInfoDepth {
		return o
	}
	if it := res.Get("items"); it != nil && (it.Kind == ojson.Object || it.Kind == ojson.Bool) {
		o.Set("items", b.info("", it, false, depth+1))
	}
	if pi := res.Get("prefixItems"); pi != nil && pi.Kind == ojson.Array {
		arr := ojson.NewArray()
		for _, it := range pi.Items {
			arr.Items = append(arr.Items, b.info("", it, false, depth+1))
		}
		o.Set("prefixItems", arr)
	}
	if len(branches) > 1 && enumValues(res, branches) == nil {
		// A real union: each branch on its own, not their merged fields.
		vs := ojson.NewArray()
		for _, br := range branches {
			vs.Items = append(vs.Items, b.info("", br, false, depth+1))
		}
		o.Set("variants", vs)
		return o
	}
	sh := b.objectShape(res)
	if len(sh.props) > 0 {
		fields := ojson.NewArray()
		for _, p := range sh.props {
			fields.Items = append(fields.Items, b.info(p.name, p.schema, sh.required[p.name], depth+1))
		}
		o.Set("fields", fields)
	}
	if ap := res.Get("additionalProperties"); ap != nil {
		switch {
		case ap.Kind == ojson.Object && len(ap.Members) > 0:
			o.Set("additionalProperties", b.info("", ap, false, depth+1))
		case ap.Kind == ojson.Object || ap.Kind == ojson.Bool && ap.Bool:
			o.Set("additionalProperties", ojson.NewBool(true))
		}
	}
	if isTrue(boolOf(res.Get("writeOnly"))) || res.Get("format").StringOr("") == "password" {
		o.Set("sensitive", ojson.NewBool(true))
	}
	return o
}

// alternatives returns the anyOf/oneOf branches of s, without the plain
// {"type": "null"} ones, and whether there were such null branches.
func (b *walker) alternatives(s *ojson.Value) (branches []*ojson.Value, nulls bool) {
	for _, key := range []string{"anyOf", "oneOf"} {
		alt := s.Get(key)
		if alt == nil || alt.Kind != ojson.Array {
			continue
		}
		for _, br := range alt.Items {
			if t := b.jsonTypes(br); len(t) == 1 && t[0] == "null" {
				nulls = true
				continue
			}
			branches = append(branches, br)
		}
		return branches, nulls
	}
	return nil, false
}

// typeName is the ParameterInfo "type": a JSON type, or several joined by " | ".
func (b *walker) typeName(s *ojson.Value) string {
	t := b.jsonTypes(s)
	if len(t) == 0 {
		return "any"
	}
	return strings.Join(t, " | ")
}

// enumValues is enum, const, or the values of a union whose every branch is
// a const or an enum (the "described enum" idiom).
func enumValues(s *ojson.Value, branches []*ojson.Value) *ojson.Value {
	if e := s.Get("enum"); e != nil && e.Kind == ojson.Array {
		return e.Clone()
	}
	if k := s.Get("const"); k != nil {
		return ojson.NewArray(k.Clone())
	}
	if len(branches) < 2 {
		return nil
	}
	out := ojson.NewArray()
	for _, br := range branches {
		if br.Kind != ojson.Object {
			return nil
		}
		switch {
		case br.Has("const"):
			out.Items = append(out.Items, br.Get("const").Clone())
		case br.Get("enum") != nil && br.Get("enum").Kind == ojson.Array:
			for _, it := range br.Get("enum").Items {
				out.Items = append(out.Items, it.Clone())
			}
		default:
			return nil
		}
	}
	return out
}

// copyDescription takes the description next to a $ref first (it describes
// this use), else the referenced schema's own.
func copyDescription(o, outer, res *ojson.Value) {
	for _, s := range []*ojson.Value{outer, res} {
		if d := s.Get("description"); d != nil && d.Kind == ojson.String && d.Str != "" {
			o.Set("description", ojson.NewString(d.Str))
			return
		}
	}
}

func copyDefault(o, outer, res *ojson.Value) {
	for _, s := range []*ojson.Value{outer, res} {
		if d := s.Get("default"); d != nil {
			o.Set("default", d.Clone())
			return
		}
	}
}

// prepend puts name and required first, where ParameterInfo has them.
func prepend(o *ojson.Value, name *ojson.Value, required bool) *ojson.Value {
	out := ojson.NewObject().Set("name", name)
	out.Set("type", o.Get("type"))
	out.Set("required", ojson.NewBool(required))
	for _, m := range o.Members {
		if m.Key != "type" && m.Key != "name" && m.Key != "required" {
			out.Set(m.Key, m.Value)
		}
	}
	return out
}

func boolOf(v *ojson.Value) *bool {
	if v == nil || v.Kind != ojson.Bool {
		return nil
	}
	b := v.Bool
	return &b
}
