package term

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// schemaGen builds random schemas from the constructs real servers use, so
// the round-trip properties are checked beyond the hand-written fixtures.
type schemaGen struct {
	rng    *rand.Rand
	defs   []string
	draft7 bool // array-form items instead of prefixItems, under a draft-07 $schema
}

func (g *schemaGen) pick(n int) int { return g.rng.Intn(n) }

func obj(kv ...any) *ojson.Value {
	o := ojson.NewObject()
	for i := 0; i < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1].(*ojson.Value))
	}
	return o
}

func str(s string) *ojson.Value { return ojson.NewString(s) }

func (g *schemaGen) word() string {
	return [...]string{"alpha", "beta", "gamma", "delta", "id", "name", "type", "kind", "opt", "list", "x y", "é", "or"}[g.pick(13)]
}

func (g *schemaGen) schema(depth int) *ojson.Value {
	if depth > 4 {
		return obj("type", str([...]string{"string", "number", "integer", "boolean"}[g.pick(4)]))
	}
	var s *ojson.Value
	switch g.pick(18) {
	case 0:
		s = obj("type", str("string"))
		if g.pick(2) == 0 {
			s.Set("minLength", ojson.NewInt(int64(g.pick(3)))).Set("maxLength", ojson.NewInt(int64(3+g.pick(5))))
		}
		if g.pick(3) == 0 {
			s.Set("format", str([...]string{"uri", "email", "date-time", "uuid"}[g.pick(4)]))
		}
		if g.pick(4) == 0 {
			s.Set("pattern", str("^a+$"))
		}
	case 1:
		s = obj("type", str([...]string{"number", "integer"}[g.pick(2)]))
		if g.pick(2) == 0 {
			s.Set("minimum", ojson.NewInt(int64(g.pick(5)))).Set("maximum", ojson.NewInt(int64(10+g.pick(50))))
		}
		if g.pick(4) == 0 {
			s.Set("exclusiveMaximum", ojson.NewNumber("99.5"))
		}
	case 2:
		s = obj("type", str("boolean"))
	case 3:
		vals := ojson.NewArray()
		for i := 0; i < 1+g.pick(5); i++ {
			switch g.pick(5) {
			case 0:
				vals.Items = append(vals.Items, ojson.NewInt(int64(i)))
			case 1:
				vals.Items = append(vals.Items, str(g.word()+fmt.Sprint(i)))
			default:
				vals.Items = append(vals.Items, str(fmt.Sprintf("v%d", i)))
			}
		}
		s = obj("enum", vals)
		if g.pick(2) == 0 {
			s.Set("type", str("string"))
		}
	case 4:
		s = obj("const", str(g.word()))
	case 5:
		s = obj("anyOf", ojson.NewArray(g.schema(depth+1), obj("type", str("null"))))
	case 6:
		s = obj("type", ojson.NewArray(str("string"), str("null")))
	case 7:
		s = obj("type", ojson.NewArray(str("string"), str("number"), str("boolean")))
		if g.pick(2) == 0 {
			s.Set("minLength", ojson.NewInt(2))
		}
	case 8:
		s = obj("type", str("array"), "items", g.schema(depth+1))
		if g.pick(2) == 0 {
			s.Set("minItems", ojson.NewInt(int64(g.pick(2))))
		}
		if g.pick(2) == 0 {
			s.Set("maxItems", ojson.NewInt(int64(2+g.pick(3))))
		}
	case 9:
		s = g.record(depth)
	case 10:
		s = obj("type", str("object"), "additionalProperties", g.schema(depth+1))
		if g.pick(2) == 0 {
			s.Set("propertyNames", obj("enum", ojson.NewArray(str("a"), str("b"))))
		}
	case 11:
		// tagged union
		var members []*ojson.Value
		for i := 0; i < 2+g.pick(2); i++ {
			r := g.record(depth + 1)
			props := r.Get("properties")
			props.Delete("kind")
			all := obj("kind", obj("const", str(fmt.Sprintf("k%d", i))))
			all.Members = append(all.Members, props.Members...)
			r.Set("properties", all)
			req := ojson.NewArray(str("kind"))
			if old := r.Get("required"); old != nil {
				for _, it := range old.Items {
					if it.Str != "kind" {
						req.Items = append(req.Items, it)
					}
				}
			}
			r.Set("required", req)
			members = append(members, r)
		}
		s = obj([...]string{"oneOf", "anyOf"}[g.pick(2)], ojson.NewArray(members...))
	case 12:
		s = obj("oneOf", ojson.NewArray(g.schema(depth+1), g.schema(depth+1)))
	case 13:
		s = obj("allOf", ojson.NewArray(g.record(depth+1), obj("required", ojson.NewArray(str("zz")))))
	case 14:
		if len(g.defs) > 0 {
			s = obj("$ref", str("#/$defs/"+g.defs[g.pick(len(g.defs))]))
		} else {
			s = obj()
		}
	case 15:
		s = obj("not", g.schema(depth+1))
	case 16:
		s = g.record(depth)
		s.Set("type", ojson.NewArray(str("object"), str("null")))
	default:
		if g.draft7 {
			s = obj("type", str("array"), "items", ojson.NewArray(g.schema(depth+1), g.schema(depth+1)), "additionalItems", ojson.NewBool(g.pick(2) == 0))
			break
		}
		s = obj("type", str("array"), "prefixItems", ojson.NewArray(g.schema(depth+1), g.schema(depth+1)))
		if g.pick(2) == 0 {
			s.Set("items", ojson.NewBool(false))
		}
	}
	if g.pick(3) == 0 {
		s.Set("description", str("about "+g.word()))
	}
	if g.pick(8) == 0 {
		s.Set("x-vendor", ojson.NewInt(1))
	}
	if g.pick(8) == 0 {
		s.Set("title", str("T"))
	}
	if g.pick(10) == 0 {
		s.Set("default", ojson.NewNull())
	}
	return s
}

func (g *schemaGen) record(depth int) *ojson.Value {
	props := ojson.NewObject()
	req := ojson.NewArray()
	for i := 0; i < g.pick(4); i++ {
		name := g.word()
		if props.Has(name) {
			continue
		}
		props.Set(name, g.schema(depth+1))
		if g.pick(2) == 0 {
			req.Items = append(req.Items, str(name))
		}
	}
	r := obj("type", str("object"), "properties", props)
	if len(req.Items) > 0 {
		r.Set("required", req)
	}
	if g.pick(2) == 0 {
		r.Set("additionalProperties", ojson.NewBool(false))
	}
	return r
}

func (g *schemaGen) tool(i int, shared *ojson.Value) *ojson.Value {
	g.defs = nil
	g.draft7 = false
	defs := ojson.NewObject()
	key := "$defs"
	if shared != nil && g.pick(2) == 0 {
		// Notion style: the same block in every tool.
		defs = shared.Clone()
		g.defs = defs.Keys()
	} else {
		if g.pick(3) == 0 {
			key, g.draft7 = "definitions", true
		}
		for j := 0; j < g.pick(3); j++ {
			g.defs = append(g.defs, fmt.Sprintf("D%d", j))
		}
		for _, d := range g.defs {
			defs.Set(d, g.schema(2))
		}
	}
	in := g.record(0)
	if len(defs.Members) > 0 {
		in.Set(key, defs)
	}
	if key == "definitions" {
		rewriteRefs(in, "#/$defs/", "#/definitions/")
		in.Set("$schema", str("http://json-schema.org/draft-07/schema#"))
	}
	g.draft7 = false
	if g.pick(3) == 0 && !in.Has("$schema") {
		in.Set("$schema", str("https://json-schema.org/draft/2020-12/schema"))
	}
	t := obj("name", str(fmt.Sprintf("tool_%d", i)), "inputSchema", in)
	if g.pick(2) == 0 {
		t.Set("description", str("Does things. More detail here."))
	}
	if g.pick(3) == 0 {
		g.defs = nil // the output schema has no $defs of its own
		t.Set("outputSchema", g.record(1))
	}
	if g.pick(3) == 0 {
		t.Set("annotations", obj("readOnlyHint", ojson.NewBool(g.pick(2) == 0)))
	}
	return t
}

// TestRandomSchemasRoundTrip checks the round-trip properties (fixed point,
// same verdicts) on random tool lists. TERM_PROP_SEED and TERM_PROP_ROUNDS
// run other or more cases when hunting for bugs.
func TestRandomSchemasRoundTrip(t *testing.T) {
	g := &schemaGen{rng: rand.New(rand.NewSource(seedFromEnv()))}
	for round := 0; round < roundsFromEnv(); round++ {
		g.defs = []string{"S0", "S1"}
		shared := obj("S0", g.record(2), "S1", g.schema(2))
		arr := ojson.NewArray()
		for i := 0; i < 6; i++ {
			arr.Items = append(arr.Items, g.tool(i, shared))
		}
		set, err := toolset.FromValue(arr)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, fmt.Sprintf("random set %d", round), set)
		if t.Failed() {
			t.Logf("input: %s", arr.Compact())
			return
		}
	}
}

func seedFromEnv() int64 {
	var n int64 = 42
	fmt.Sscan(os.Getenv("TERM_PROP_SEED"), &n)
	return n
}

func roundsFromEnv() int {
	n := 60
	fmt.Sscan(os.Getenv("TERM_PROP_ROUNDS"), &n)
	return n
}

func rewriteRefs(v *ojson.Value, from, to string) {
	switch v.Kind {
	case ojson.Object:
		for _, m := range v.Members {
			if m.Key == "$ref" && m.Value.Kind == ojson.String && strings.HasPrefix(m.Value.Str, from) {
				m.Value.Str = to + m.Value.Str[len(from):]
			}
			rewriteRefs(m.Value, from, to)
		}
	case ojson.Array:
		for _, it := range v.Items {
			rewriteRefs(it, from, to)
		}
	}
}
