package calls

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpterm/mcpterm/convert/call"
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/convert/toolset/toolsettest"
)

// gen makes arguments for a JSON Schema, deterministically from its seed.
// It works from the schema alone (package call's generator reads its
// private views), aims at valid instances — the codec's validator decides —
// and at the notation's awkward corners: strings that look like keywords,
// numbers or nil, big integers, undeclared keys, optional parameters left
// out.
type gen struct {
	rnd  *rand.Rand
	root *ojson.Value
}

var awkward = []string{"", "plain", "with space", `quote " and \`, "line\nbreak", "unicode ✓ 漢字", ":keyword", "12", "-3.5e2", "nil", "true", "(paren", "json", "batch"}

// extraKeys are undeclared keys; none is one AQL reads as its own (fields,
// input, _meta), which ToAQL rightly refuses to spell.
var extraKeys = []string{"extra", "b c", "κλειδί", "with-dash", "UPPER"}

func (g *gen) pick(n int) int { return g.rnd.IntN(n) }

// deref follows a local $ref.
func (g *gen) deref(s *ojson.Value) *ojson.Value {
	for i := 0; i < 8; i++ {
		ref := s.Get("$ref").StringOr("")
		if !strings.HasPrefix(ref, "#/") {
			return s
		}
		t := g.root
		for _, tok := range strings.Split(ref[2:], "/") {
			t = t.Get(strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
		}
		if t == nil {
			return s
		}
		s = t
	}
	return s
}

func (g *gen) value(s *ojson.Value, depth int) *ojson.Value {
	if s == nil || s.Kind == ojson.Bool {
		return g.any(depth)
	}
	s = g.deref(s)
	if c := s.Get("const"); c != nil {
		return c.Clone()
	}
	if e := s.Get("enum"); e != nil && e.Kind == ojson.Array && len(e.Items) > 0 {
		return e.Items[g.pick(len(e.Items))].Clone()
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts := s.Get(k); alts != nil && alts.Kind == ojson.Array && len(alts.Items) > 0 {
			return g.value(alts.Items[g.pick(len(alts.Items))], depth+1)
		}
	}
	if all := s.Get("allOf"); all != nil && all.Kind == ojson.Array {
		merged := ojson.NewObject().Set("type", ojson.NewString("object"))
		props, req := ojson.NewObject(), ojson.NewArray()
		for _, b := range all.Items {
			b = g.deref(b)
			for _, m := range members(b.Get("properties")) {
				props.Set(m.Key, m.Value)
			}
			if r := b.Get("required"); r != nil {
				req.Items = append(req.Items, r.Items...)
			}
		}
		return g.value(merged.Set("properties", props).Set("required", req), depth)
	}
	var types []string
	switch t := s.Get("type"); {
	case t == nil && s.Has("properties"):
		types = []string{"object"}
	case t == nil && s.Has("items"):
		types = []string{"array"}
	case t == nil:
		return g.any(depth)
	case t.Kind == ojson.String:
		types = []string{t.Str}
	case t.Kind == ojson.Array:
		for _, x := range t.Items {
			if x.Str != "null" || len(t.Items) == 1 {
				types = append(types, x.Str)
			}
		}
	}
	if len(types) == 0 {
		return ojson.NewNull()
	}
	switch types[g.pick(len(types))] {
	case "object":
		return g.object(s, depth)
	case "array":
		n := int(num(s, "minItems", 0)) + g.pick(3)
		if depth > 4 {
			n = int(num(s, "minItems", 0))
		}
		if s.Has("maxItems") && n > int(num(s, "maxItems", 0)) {
			n = int(num(s, "maxItems", 0))
		}
		arr := ojson.NewArray()
		for i := 0; i < n; i++ {
			arr.Items = append(arr.Items, g.value(s.Get("items"), depth+1))
		}
		return arr
	case "string":
		return ojson.NewString(g.str(s))
	case "integer":
		return ojson.NewInt(g.integer(s))
	case "number":
		if g.pick(2) == 0 {
			return ojson.NewInt(g.integer(s))
		}
		lo, hi := num(s, "minimum", -1e4), num(s, "maximum", 1e4)
		return ojson.NewNumber(strconv.FormatFloat(lo+g.rnd.Float64()*(hi-lo), 'g', -1, 64))
	case "boolean":
		return ojson.NewBool(g.pick(2) == 0)
	case "null":
		return ojson.NewNull()
	}
	return ojson.NewNull()
}

func (g *gen) object(s *ojson.Value, depth int) *ojson.Value {
	out := ojson.NewObject()
	required := map[string]bool{}
	for _, r := range items(s.Get("required")) {
		required[r.Str] = true
	}
	for _, m := range members(s.Get("properties")) {
		if required[m.Key] || (depth < 4 && g.pick(2) == 0) {
			out.Set(m.Key, g.value(m.Value, depth+1))
		}
	}
	if ap := s.Get("additionalProperties"); (ap == nil || ap.Kind != ojson.Bool || ap.Bool) && depth < 4 && g.pick(4) == 0 {
		k := extraKeys[g.pick(len(extraKeys))]
		if !out.Has(k) && !s.Get("properties").Has(k) {
			out.Set(k, g.value(ap, depth+1))
		}
	}
	return out
}

func (g *gen) str(s *ojson.Value) string {
	switch s.Get("format").StringOr("") {
	case "uri", "url":
		return "https://example.com/" + strconv.Itoa(g.pick(100))
	case "date-time":
		return "2026-01-02T03:04:05Z"
	case "uuid":
		return "6012718d-b4ef-4e7a-90bd-53cabdf08166"
	}
	out := awkward[g.pick(len(awkward))]
	if n := int(num(s, "minLength", 0)); len(out) < n {
		out += strings.Repeat("x", n)
	}
	if s.Has("maxLength") {
		if n := int(num(s, "maxLength", 0)); len(out) > n {
			out = out[:n]
		}
	}
	return out
}

func (g *gen) integer(s *ojson.Value) int64 {
	if !s.Has("minimum") && !s.Has("maximum") && !s.Has("exclusiveMinimum") && !s.Has("multipleOf") && g.pick(5) == 0 {
		return 1 << 53 // beyond float64's exact integers once doubled
	}
	lo := int64(num(s, "minimum", num(s, "exclusiveMinimum", -1001)+1))
	hi := int64(num(s, "maximum", num(s, "exclusiveMaximum", float64(lo)+1001)-1))
	if hi < lo {
		hi = lo
	}
	return lo + int64(g.pick(int(min(hi-lo, 1000))+1))
}

func (g *gen) any(depth int) *ojson.Value {
	switch k := g.pick(6); {
	case k == 0:
		return ojson.NewNull()
	case k == 1:
		return ojson.NewBool(true)
	case k == 2:
		return ojson.NewNumber("123456789012345678901234567890")
	case k == 3 || depth > 3:
		return ojson.NewString(awkward[g.pick(len(awkward))])
	case k == 4:
		return ojson.NewArray(g.any(depth+1), g.any(depth+1))
	}
	return ojson.NewObject().Set(extraKeys[g.pick(len(extraKeys))], g.any(depth+1))
}

func items(v *ojson.Value) []*ojson.Value {
	if v == nil {
		return nil
	}
	return v.Items
}

func members(v *ojson.Value) []ojson.Member {
	if v == nil {
		return nil
	}
	return v.Members
}

func num(s *ojson.Value, key string, def float64) float64 {
	x := s.Get(key)
	if x == nil || x.Kind != ojson.Number {
		return def
	}
	f, err := strconv.ParseFloat(string(x.Num), 64)
	if err != nil {
		return def
	}
	return f
}

// printable reports whether Print may rightly refuse a plan in syntax s:
// MCP-Term cannot write every JSON argument set, nor AQL every argument.
func printable(t *testing.T, s Syntax, err error) bool {
	t.Helper()
	if err == nil {
		return true
	}
	var ce *call.Error
	switch {
	case s == SExpr && errors.As(err, &ce) && ce.Kind == call.ErrNotCallable:
	case s == AQL && strings.Contains(err.Error(), "has no AQL spelling"):
	default:
		t.Errorf("Print %s: %v", s, err)
	}
	return false
}

// sameCalls says whether two plans ask for the same tools with the same
// arguments, in the same order.
func sameCalls(a, b *Plan) bool {
	la, lb := a.live(), b.live()
	if len(la) != len(lb) {
		return false
	}
	for i := range la {
		if la[i].Tool != lb[i].Tool || !ojson.Equal(la[i].Arguments, lb[i].Arguments) {
			return false
		}
	}
	return true
}

// roundTrip: random valid calls (single and batched) printed in every
// syntax read back to the same tools and arguments, and each printed form
// is a fixed point of printing.
func roundTrip(t *testing.T, set *toolset.Set, samples int) {
	c := New(set, Options{})
	g := &gen{rnd: rand.New(rand.NewPCG(uint64(len(set.Tools)), 7))}
	var valid []*ojson.Value
	tried := 0
	for _, tool := range set.Tools {
		g.root = tool.InputSchema
		for range samples {
			tried++
			call := ojson.NewObject().Set("name", ojson.NewString(tool.Name)).Set("arguments", g.value(tool.InputSchema, 0))
			if _, err := c.Read(call.Compact()); err != nil {
				continue // the generator aims at valid instances; not every sample is
			}
			valid = append(valid, call)
		}
	}
	if len(valid) < tried/3 {
		t.Fatalf("only %d of %d generated calls were valid", len(valid), tried)
	}
	var srcs []string
	for _, v := range valid {
		srcs = append(srcs, v.Compact())
	}
	for i := 0; i+3 <= len(valid); i += 3 {
		srcs = append(srcs, ojson.NewArray(valid[i], valid[i+1], valid[i+2]).Compact())
	}
	widths := []int{0, 40, 100}
	checked := map[Syntax]int{}
	for i, src := range srcs {
		p := mustRead(t, c, src)
		for _, s := range []Syntax{SExpr, JSON, AQL} {
			text, err := c.Print(p, s, widths[i%len(widths)])
			if !printable(t, s, err) {
				continue
			}
			back, err := c.Read(text)
			if err != nil {
				t.Errorf("%s printed as %s:\n%s\ndoes not read: %v", src, s, text, err)
				continue
			}
			if back.Syntax != s || back.Batch != p.Batch || !sameCalls(p, back) {
				why := ModelJSON(back)
				for _, i := range back.Failed() {
					why += " " + back.Items[i].Local.Compact()
				}
				t.Errorf("%s printed as %s:\n%s\nreads back as another plan: %s", src, s, text, why)
				continue
			}
			if again := mustPrint(t, c, back, s, widths[i%len(widths)]); again != text {
				t.Errorf("%s is not a fixed point:\n%s\n%s", s, text, again)
			}
			checked[s]++
		}
	}
	t.Logf("%d calls, %d of %d generated valid; round trips: %v", len(srcs), len(valid), tried, checked)
	if checked[JSON] != len(srcs) || checked[SExpr] < len(srcs)/2 || checked[AQL] < len(srcs)/2 {
		t.Errorf("too few round trips: %v of %d", checked, len(srcs))
	}
}

func TestRoundTripCorpus(t *testing.T) {
	for stem, set := range toolsettest.Corpus(t) {
		t.Run(stem, func(t *testing.T) { roundTrip(t, set, 30) })
	}
}

func TestRoundTripFixtures(t *testing.T) {
	t.Run("call", func(t *testing.T) { roundTrip(t, fixtures(t), 60) })
	t.Run("todo", func(t *testing.T) { roundTrip(t, todo(t), 60) })
	t.Run("demo", func(t *testing.T) {
		_, set := newDemo(t)
		roundTrip(t, set, 60)
	})
}

// TestEquivalence: every tool's template, as MCP-Term, as AQL and back,
// means the same tools/call; AQL printed as AQL is a fixed point (the
// CLI's TestDryRunEquivalence, on this package).
func TestEquivalence(t *testing.T) {
	sets := []*toolset.Set{todo(t), fixtures(t)}
	for _, set := range toolsettest.Corpus(t) {
		sets = append(sets, set)
	}
	checked := 0
	for _, set := range sets {
		c := New(set, Options{})
		for _, tool := range set.Tools {
			p, err := c.Read(c.Template(tool.Name))
			if err != nil {
				continue // a placeholder below a minimum, say
			}
			rpc := requestLines(c, p)
			q := mustPrint(t, c, p, AQL, 0)
			qp := mustRead(t, c, q)
			if requestLines(c, qp) != rpc {
				t.Errorf("%s: AQL %s sends %s, want %s", set.Server, q, requestLines(c, qp), rpc)
			}
			if q2 := mustPrint(t, c, qp, AQL, 0); q2 != q {
				t.Errorf("%s: AQL %s is not a fixed point: %s", set.Server, q, q2)
			}
			term := mustPrint(t, c, qp, SExpr, 0)
			if got := requestLines(c, mustRead(t, c, term)); got != rpc {
				t.Errorf("%s: AQL %s as MCP-Term %s sends %s, want %s", set.Server, q, term, got, rpc)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d calls checked", checked)
	}
}
