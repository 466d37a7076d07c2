package call

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// gen makes arguments for a schema, deterministically from its seed. It aims
// at valid instances (the tests check that with the validator) and at the
// awkward corners of the notation: strings that look like keywords, numbers
// or nil, keys that are not keyword-like, empty lists and objects, big
// integers, optional parameters left out in every combination.
type gen struct {
	rnd *rand.Rand
	p   *parser
}

func newGen(p *parser, seed uint64) *gen {
	return &gen{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), p: p}
}

var awkwardStrings = []string{
	"", "plain", "with space", `quote " and \ backslash`, "line\nbreak\ttab", "unicode ✓ 漢字 🙂",
	":keyword", "12", "-3.5e2", "nil", "true", "(paren", "semi;colon", "json", "batch", "x|y", "\u0001ctl",
}

var awkwardKeys = []string{"a", "key", "b c", "", "x:y", "κλειδί", "with-dash", "UPPER", "1"}

func (g *gen) pick(xs []string) string { return xs[g.rnd.IntN(len(xs))] }

func (g *gen) value(s *ojson.Value, depth int) *ojson.Value {
	v := g.p.view(s)
	switch {
	case v.never:
		return ojson.NewNull()
	case v.constV != nil:
		return v.constV.Clone()
	case v.hasEnum && len(v.enum) > 0:
		return v.enum[g.rnd.IntN(len(v.enum))].Clone()
	}
	if v.nullable && g.rnd.IntN(5) == 0 {
		return ojson.NewNull()
	}
	if v.tag != nil {
		tag := v.tag.values[g.rnd.IntN(len(v.tag.values))]
		return g.object(v.tag.full[tag], depth)
	}
	if len(v.alts) > 0 && !v.ownShape() {
		return g.value(v.alts[g.rnd.IntN(len(v.alts))], depth+1)
	}
	if v.isAny() {
		return g.anyValue(depth)
	}
	var kinds []typeSet
	for _, t := range typeNames {
		if v.types&t.bit != 0 && t.bit != tNull {
			kinds = append(kinds, t.bit)
		}
	}
	if !v.typed {
		switch {
		case v.record || v.objHint:
			kinds = []typeSet{tObject}
		case v.arrHint:
			kinds = []typeSet{tArray}
		}
	}
	if len(kinds) == 0 {
		return ojson.NewNull()
	}
	switch kinds[g.rnd.IntN(len(kinds))] {
	case tBool:
		return ojson.NewBool(g.rnd.IntN(2) == 0)
	case tInteger:
		return g.integer(v.s)
	case tNumber:
		if g.rnd.IntN(2) == 0 {
			return g.integer(v.s)
		}
		return ojson.NewNumber(strconv.FormatFloat(g.bounded(v.s), 'g', -1, 64))
	case tString:
		return ojson.NewString(g.str(v.s))
	case tArray:
		return g.array(v, depth)
	case tObject:
		return g.object(v, depth)
	}
	return ojson.NewNull()
}

func num(s *ojson.Value, key string) (float64, bool) {
	x := s.Get(key)
	if x == nil || x.Kind != ojson.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(x.Num), 64)
	return f, err == nil
}

func (g *gen) bounded(s *ojson.Value) float64 {
	lo, hasLo := num(s, "minimum")
	hi, hasHi := num(s, "maximum")
	switch {
	case hasLo && hasHi:
		return lo + g.rnd.Float64()*(hi-lo)
	case hasLo:
		return lo + g.rnd.Float64()*100
	case hasHi:
		return hi - g.rnd.Float64()*100
	}
	return (g.rnd.Float64() - 0.5) * 1e4
}

func (g *gen) integer(s *ojson.Value) *ojson.Value {
	lo, hasLo := num(s, "minimum")
	hi, hasHi := num(s, "maximum")
	mult, hasMult := num(s, "multipleOf")
	if !hasLo && !hasHi && !hasMult && g.rnd.IntN(4) == 0 {
		return ojson.NewNumber("123456789012345678901234567890") // beyond float64: must stay exact
	}
	n := int64(g.rnd.IntN(2000)) - 1000
	if hasLo || hasHi {
		if !hasLo {
			lo = hi - 1000
		}
		if !hasHi || hi-lo > 1000 {
			hi = lo + 1000
		}
		n = int64(lo) + int64(g.rnd.IntN(int(hi-lo)+1))
	}
	if hasMult && mult >= 1 {
		m := int64(mult)
		n = n / m * m
		if hasLo && float64(n) < lo {
			n += m
		}
	}
	return ojson.NewInt(n)
}

func (g *gen) str(s *ojson.Value) string {
	switch s.Get("format").StringOr("") {
	case "uri", "url":
		return "https://example.com/" + strconv.Itoa(g.rnd.IntN(100))
	case "date-time":
		return "2026-01-02T03:04:05Z"
	}
	if s.Has("pattern") {
		return "id-" + strconv.Itoa(g.rnd.IntN(1000)) // the fixtures' patterns admit this
	}
	out := g.pick(awkwardStrings)
	if n, ok := num(s, "minLength"); ok && len(out) < int(n) {
		out += strings.Repeat("x", int(n))
	}
	if n, ok := num(s, "maxLength"); ok && len(out) > int(n) {
		out = out[:int(n)]
	}
	return out
}

func (g *gen) array(v *view, depth int) *ojson.Value {
	lo, _ := num(v.s, "minItems")
	hi, hasHi := num(v.s, "maxItems")
	n := int(lo) + g.rnd.IntN(3)
	if depth > 6 {
		n = int(lo)
	}
	if hasHi && n > int(hi) {
		n = int(hi)
	}
	if len(v.prefix) > 0 && (v.itemsNever || n < len(v.prefix)) {
		n = len(v.prefix)
	}
	out := ojson.NewArray()
	for i := 0; i < n; i++ {
		out.Items = append(out.Items, g.value(v.itemSchema(i), depth+1))
	}
	return out
}

func (g *gen) object(v *view, depth int) *ojson.Value {
	out := ojson.NewObject()
	if v.record {
		for _, k := range v.sorder {
			pr := v.params[k]
			if pr.required || (depth < 6 && g.rnd.IntN(2) == 0) {
				out.Set(pr.name, g.value(pr.schema, depth+1))
			}
		}
	}
	if v.extraOK && (v.extraDeclared || !v.record) && depth < 6 {
		for i := g.rnd.IntN(3); i > 0; i-- {
			key := g.pick(awkwardKeys)
			if _, clash := v.index[key]; clash {
				continue
			}
			for _, p := range v.patterns {
				if p.re.MatchString(key) {
					key = "y" + key
				}
			}
			out.Set(key, g.value(v.extraSchema(key), depth+1))
		}
		if len(v.patterns) > 0 && g.rnd.IntN(2) == 0 {
			out.Set("x_n", g.value(v.patterns[0].schema, depth+1))
		}
	}
	return out
}

func (g *gen) anyValue(depth int) *ojson.Value {
	k := g.rnd.IntN(8)
	if depth > 4 {
		k %= 5
	}
	switch k {
	case 0:
		return ojson.NewNull()
	case 1:
		return ojson.NewBool(g.rnd.IntN(2) == 0)
	case 2:
		return ojson.NewNumber(g.pick([]string{"0", "-1", "2.5", "1e10", "123456789012345678901234567890"}))
	case 3, 4:
		return ojson.NewString(g.pick(awkwardStrings))
	case 5:
		out := ojson.NewArray()
		for i := g.rnd.IntN(3); i > 0; i-- {
			out.Items = append(out.Items, g.anyValue(depth+1))
		}
		return out
	default:
		out := ojson.NewObject()
		for i := g.rnd.IntN(3); i > 0; i-- {
			out.Set(g.pick(awkwardKeys), g.anyValue(depth+1))
		}
		return out
	}
}
