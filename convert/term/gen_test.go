package term

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// gen makes instances of a JSON Schema: ones meant to be valid, and
// mutations of them meant to probe every constraint. Verdicts are never
// assumed; tests compare two validators' verdicts on the same instances.
type gen struct {
	rng  *rand.Rand
	root *ojson.Value
}

func newGen(seed int64, root *ojson.Value) *gen {
	return &gen{rng: rand.New(rand.NewSource(seed)), root: root}
}

func (g *gen) deref(s *ojson.Value, hops int) *ojson.Value {
	for s != nil && s.Kind == ojson.Object && hops < 16 {
		ref := s.Get("$ref")
		if ref == nil || ref.Kind != ojson.String {
			return s
		}
		t, _, ok := resolvePointer(g.root, ref.Str)
		if !ok {
			return s
		}
		// Keep siblings of $ref (2020-12 applies them).
		if len(s.Members) > 1 && t.Kind == ojson.Object {
			m := t.Clone()
			for _, mb := range s.Members {
				if mb.Key != "$ref" && !m.Has(mb.Key) {
					m.Set(mb.Key, mb.Value)
				}
			}
			t = m
		}
		s = t
		hops++
	}
	return s
}

var formats = map[string]string{
	"uri": "https://example.com/a", "uri-reference": "/a/b", "email": "a@example.com",
	"date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05Z",
	"uuid": "123e4567-e89b-12d3-a456-426614174000", "ipv4": "10.0.0.1", "hostname": "example.com",
}

// valid tries to make a valid instance of s.
func (g *gen) valid(s *ojson.Value, depth int) *ojson.Value {
	s = g.deref(s, 0)
	if s == nil || depth > 12 {
		return ojson.NewNull()
	}
	if s.Kind == ojson.Bool {
		return g.scalar()
	}
	if s.Kind != ojson.Object {
		return ojson.NewNull()
	}
	if c := s.Get("const"); c != nil {
		return c.Clone()
	}
	if e := s.Get("enum"); e != nil && e.Kind == ojson.Array && len(e.Items) > 0 {
		return e.Items[g.rng.Intn(len(e.Items))].Clone()
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if a := s.Get(k); a != nil && a.Kind == ojson.Array && len(a.Items) > 0 {
			m := g.merge(s, a.Items[g.rng.Intn(len(a.Items))], k)
			return g.valid(m, depth+1)
		}
	}
	if a := s.Get("allOf"); a != nil && a.Kind == ojson.Array && len(a.Items) > 0 {
		m := without(s, "allOf")
		for _, it := range a.Items {
			it = g.deref(it, 0)
			if it.Kind == ojson.Object {
				for _, mb := range it.Members {
					if !m.Has(mb.Key) {
						m.Set(mb.Key, mb.Value)
					}
				}
			}
		}
		return g.valid(m, depth+1)
	}
	switch g.pickType(s) {
	case "null":
		return ojson.NewNull()
	case "boolean":
		return ojson.NewBool(g.rng.Intn(2) == 0)
	case "integer", "number":
		return g.number(s)
	case "string":
		return g.str(s)
	case "array":
		return g.array(s, depth)
	case "object":
		return g.object(s, depth)
	}
	return g.scalar()
}

// merge lays a combinator member over its parent, minus the combinator.
func (g *gen) merge(parent, member *ojson.Value, comb string) *ojson.Value {
	m := without(parent, comb)
	member = g.deref(member, 0)
	if member.Kind != ojson.Object {
		return m
	}
	for _, mb := range member.Members {
		m.Set(mb.Key, mb.Value)
	}
	return m
}

func (g *gen) pickType(s *ojson.Value) string {
	t := s.Get("type")
	switch {
	case t != nil && t.Kind == ojson.String:
		return t.Str
	case t != nil && t.Kind == ojson.Array && len(t.Items) > 0:
		return t.Items[g.rng.Intn(len(t.Items))].Str
	}
	for _, m := range s.Members {
		for _, ty := range []string{"object", "array", "string", "number"} {
			if appliesTo(m.Key, ty) {
				return ty
			}
		}
	}
	return [...]string{"string", "number", "boolean", "null", "object", "array"}[g.rng.Intn(6)]
}

func (g *gen) scalar() *ojson.Value {
	switch g.rng.Intn(4) {
	case 0:
		return ojson.NewString("x")
	case 1:
		return ojson.NewInt(int64(g.rng.Intn(10)))
	case 2:
		return ojson.NewBool(true)
	}
	return ojson.NewNull()
}

func num(v *ojson.Value) (float64, bool) {
	if v == nil || v.Kind != ojson.Number {
		return 0, false
	}
	var f float64
	_, err := fmt.Sscan(string(v.Num), &f)
	return f, err == nil
}

func (g *gen) number(s *ojson.Value) *ojson.Value {
	lo, hi := -5.0, 100.0
	if f, ok := num(s.Get("minimum")); ok {
		lo = f
		if hi < lo {
			hi = lo + 10
		}
	}
	if f, ok := num(s.Get("exclusiveMinimum")); ok {
		lo = f + 1
	}
	if f, ok := num(s.Get("maximum")); ok {
		hi = f
	}
	if f, ok := num(s.Get("exclusiveMaximum")); ok {
		hi = f - 1
	}
	if hi < lo {
		hi = lo
	}
	x := lo + float64(g.rng.Intn(int(min(hi-lo, 1e6))+1))
	if m, ok := num(s.Get("multipleOf")); ok && m > 0 {
		x = m * float64(int(x/m))
	}
	if x > 1e15 || x < -1e15 {
		return ojson.NewNumber(fmt.Sprintf("%g", x))
	}
	return ojson.NewInt(int64(x))
}

func (g *gen) str(s *ojson.Value) *ojson.Value {
	if f := s.Get("format").StringOr(""); f != "" {
		if v, ok := formats[f]; ok {
			return ojson.NewString(v)
		}
	}
	n := 3 + g.rng.Intn(5)
	if f, ok := num(s.Get("minLength")); ok && int(f) > n {
		n = int(f)
	}
	if f, ok := num(s.Get("maxLength")); ok && int(f) < n {
		n = int(f)
	}
	if n > 200 {
		n = 200
	}
	return ojson.NewString(strings.Repeat("a", n))
}

func (g *gen) array(s *ojson.Value, depth int) *ojson.Value {
	n := g.rng.Intn(3)
	if f, ok := num(s.Get("minItems")); ok && int(f) > n {
		n = int(f)
	}
	if f, ok := num(s.Get("maxItems")); ok && int(f) < n {
		n = int(f)
	}
	if n > 6 {
		n = 6
	}
	arr := ojson.NewArray()
	pi := s.Get("prefixItems")
	if pi == nil {
		if it := s.Get("items"); it != nil && it.Kind == ojson.Array {
			pi = it
		}
	}
	if pi != nil && pi.Kind == ojson.Array {
		for _, it := range pi.Items {
			arr.Items = append(arr.Items, g.valid(it, depth+1))
		}
		return arr
	}
	items := s.Get("items")
	for i := 0; i < n; i++ {
		if items == nil {
			arr.Items = append(arr.Items, g.scalar())
		} else {
			arr.Items = append(arr.Items, g.valid(items, depth+1))
		}
	}
	return arr
}

func (g *gen) object(s *ojson.Value, depth int) *ojson.Value {
	o := ojson.NewObject()
	props := s.Get("properties")
	req := map[string]bool{}
	if r := s.Get("required"); r != nil && r.Kind == ojson.Array {
		for _, it := range r.Items {
			if it.Kind == ojson.String {
				req[it.Str] = true
			}
		}
	}
	if props != nil && props.Kind == ojson.Object {
		for _, p := range props.Members {
			if req[p.Key] || g.rng.Intn(2) == 0 {
				o.Set(p.Key, g.valid(p.Value, depth+1))
			}
		}
	}
	for k := range req {
		if !o.Has(k) {
			o.Set(k, g.scalar())
		}
	}
	ap := s.Get("additionalProperties")
	if ap != nil && ap.Kind == ojson.Object && g.rng.Intn(2) == 0 {
		key := "k1"
		if pn := g.deref(s.Get("propertyNames"), 0); pn != nil {
			if kv := g.valid(pn, depth+1); kv.Kind == ojson.String {
				key = kv.Str
			}
		}
		o.Set(key, g.valid(ap, depth+1))
	}
	return o
}

// mutants returns variations of v: wrong types, missing and extra
// properties, values just outside bounds, at the top and one level down.
func (g *gen) mutants(v *ojson.Value, depth int) []*ojson.Value {
	out := []*ojson.Value{
		ojson.NewNull(), ojson.NewInt(0), ojson.NewNumber("-1.5"), ojson.NewString(""),
		ojson.NewString("zz-not-a-value"), ojson.NewBool(true), ojson.NewArray(), ojson.NewObject(),
		ojson.NewNumber("1e300"), ojson.NewString(strings.Repeat("b", 300)),
	}
	switch v.Kind {
	case ojson.Number:
		if f, ok := num(v); ok {
			out = append(out, ojson.NewNumber(fmt.Sprintf("%g", f+1)), ojson.NewNumber(fmt.Sprintf("%g", f-1)),
				ojson.NewNumber(fmt.Sprintf("%g", f+0.5)), ojson.NewNumber("1e20"), ojson.NewNumber("-1e20"))
		}
	case ojson.String:
		out = append(out, ojson.NewString(v.Str+"x"), ojson.NewString(strings.ToUpper(v.Str)))
		if len(v.Str) > 0 {
			out = append(out, ojson.NewString(v.Str[1:]))
		}
	case ojson.Array:
		c := v.Clone()
		c.Items = append(c.Items, ojson.NewString("extra"))
		out = append(out, c)
		if len(v.Items) > 0 {
			d := v.Clone()
			d.Items = append(d.Items, v.Items[0].Clone())
			out = append(out, d, ojson.NewArray(v.Items[0].Clone()))
			if depth < 3 {
				for _, m := range g.sample(g.mutants(v.Items[0], depth+1), 6) {
					e := v.Clone()
					e.Items[0] = m
					out = append(out, e)
				}
			}
		}
	case ojson.Object:
		e := v.Clone()
		e.Set("zz_extra", ojson.NewInt(1))
		out = append(out, e)
		for i, m := range v.Members {
			d := v.Clone()
			d.Delete(m.Key)
			out = append(out, d)
			if depth < 3 {
				for _, mm := range g.sample(g.mutants(m.Value, depth+1), 8) {
					c := v.Clone()
					c.Members[i].Value = mm
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func (g *gen) sample(vs []*ojson.Value, n int) []*ojson.Value {
	if len(vs) <= n {
		return vs
	}
	g.rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	return vs[:n]
}

// instances is a deterministic mix of valid attempts and their mutants.
func instances(schema *ojson.Value, seed int64, n int) []*ojson.Value {
	g := newGen(seed, schema)
	var out []*ojson.Value
	for i := 0; i < n; i++ {
		v := g.valid(schema, 0)
		out = append(out, v)
		out = append(out, g.mutants(v, 0)...)
	}
	return out
}
