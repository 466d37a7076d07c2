package call

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// Bounds on reading one source text.
const (
	maxValueDepth = 256     // schema-directed recursion (lists nest at most 200 deep)
	maxSteps      = 500_000 // values tried, union alternatives included
	maxNumberLen  = 1000    // characters in one number literal
	maxExponent   = 1000    // |e| in 1e400; big exponents make validators allocate hugely
)

// parser converts S-expression arguments to JSON, directed by one tool's
// input schema (root, against which local $refs resolve).
type parser struct {
	cache *viewCache
	root  *ojson.Value
	where map[*ojson.Value]sexpr.Pos // nil when positions are not wanted
	steps *int

	active map[activeKey]bool // union members being tried, per value
	slab   []ojson.Value
	blocks int // how many blocks value1 has made
}

// value1 places a new value in a block shared with its neighbours: one
// allocation per block instead of one per value. The blocks grow (4, 8, …
// 64 values) because a call's arguments keep their block alive as long as
// the call is kept: the workbench holds many small calls, and a fixed block
// of 64 made a one-argument call cost 6 KB.
func (p *parser) value1(v ojson.Value) *ojson.Value {
	if len(p.slab) == 0 {
		p.slab = make([]ojson.Value, 4<<min(p.blocks, 4))
		p.blocks++
	}
	out := &p.slab[0]
	*out = v
	p.slab = p.slab[1:]
	return out
}

type activeKey struct {
	n *sexpr.Node
	s *ojson.Value
}

func (p *parser) view(s *ojson.Value) *view { return p.cache.get(p.root, s) }

func (p *parser) note(v *ojson.Value, n *sexpr.Node) {
	if p.where != nil && v != nil {
		p.where[v] = n.Pos
	}
}

func (p *parser) typeText(s *ojson.Value) string { return p.cache.notation(p.root, s, 0) }

// val reads n as a value for the schema s.
func (p *parser) val(n *sexpr.Node, s *ojson.Value, depth int) (*ojson.Value, error) {
	*p.steps++
	if *p.steps > maxSteps {
		return nil, errNode(ErrLimit, n, "", "the call is too complex to read (more than %d steps)", maxSteps)
	}
	if depth > maxValueDepth {
		return nil, errNode(ErrLimit, n, "", "values nested deeper than %d levels", maxValueDepth)
	}
	v := p.view(s)
	out, err := p.value(n, s, v, depth)
	if err != nil {
		return nil, err
	}
	p.note(out, n)
	return out, nil
}

func (p *parser) value(n *sexpr.Node, s *ojson.Value, v *view, depth int) (*ojson.Value, error) {
	if isEscape(n) && (v.tag == nil || v.tag.variants["json"] == nil) {
		return p.escape(n, depth)
	}
	if v.never {
		return nil, errNode(ErrType, n, "", "no value is allowed here (the schema is false)")
	}
	if n.Kind == sexpr.Nil && v.nullable {
		return p.value1(ojson.Value{Kind: ojson.Null}), nil
	}
	if v.constV != nil {
		return p.constVal(n, v, depth)
	}
	if v.hasEnum {
		return p.enumVal(n, s, v, depth)
	}
	if v.tag != nil && n.Kind == sexpr.List {
		return p.variant(n, s, v, depth)
	}
	if len(v.alts) > 0 && !v.ownShape() {
		return p.alternatives(n, s, v, depth)
	}
	switch n.Kind {
	case sexpr.Nil:
		if v.types&tNull != 0 {
			return p.value1(ojson.Value{Kind: ojson.Null}), nil
		}
	case sexpr.Bool:
		if v.types&tBool != 0 {
			return p.value1(ojson.Value{Kind: ojson.Bool, Bool: n.Bool}), nil
		}
	case sexpr.Number:
		if v.types&(tNumber|tInteger) != 0 {
			if err := checkNumber(n); err != nil {
				return nil, err
			}
			if v.types&tNumber == 0 && !isIntegral(n.Text) {
				return nil, errLazy(ErrType, n, p.lazyType(s), "not an integer: found number %s", n.Text)
			}
			return p.value1(ojson.Value{Kind: ojson.Number, Num: json.Number(n.Text)}), nil
		}
	case sexpr.String:
		if v.types&tString != 0 {
			return p.value1(ojson.Value{Kind: ojson.String, Str: n.Text}), nil
		}
	case sexpr.Keyword:
		if v.isAny() {
			return p.value1(ojson.Value{Kind: ojson.String, Str: n.Text}), nil
		}
		if v.types&tString != 0 {
			return nil, errLazy(ErrType, n, p.lazyType(s), "keyword :%s where a string goes (keywords are enum values); write %s", n.Text, sexpr.Str(n.Text))
		}
	case sexpr.Symbol:
		hint := ""
		if v.types&tString != 0 {
			hint = "; strings are quoted: " + sexpr.Str(n.Text).String()
		}
		return nil, errLazy(ErrType, n, p.lazyType(s), "unexpected symbol %s%s", n.Text, hint)
	case sexpr.List:
		switch v.listAs() {
		case listObject:
			return p.object(n, v, depth)
		case listArray:
			return p.array(n, v, depth)
		case listEither:
			if len(n.Items) > 0 && n.Items[0].Kind == sexpr.Keyword {
				return p.object(n, v, depth)
			}
			return p.array(n, v, depth)
		}
	}
	return nil, errLazy(ErrType, n, p.lazyType(s), "wrong type: found %s", sexpr.Describe(n))
}

// isEscape recognises (json "TEXT"), the raw JSON value that fits any slot.
func isEscape(n *sexpr.Node) bool {
	return n.Kind == sexpr.List && len(n.Items) > 0 && n.Items[0].IsSym("json")
}

func (p *parser) escape(n *sexpr.Node, depth int) (*ojson.Value, error) {
	if len(n.Items) != 2 || n.Items[1].Kind != sexpr.String {
		return nil, errNode(ErrShape, n, `(json "JSON text")`, "malformed raw JSON value")
	}
	x, err := ojson.Parse([]byte(n.Items[1].Text))
	if err != nil {
		return nil, errNode(ErrSyntax, n.Items[1], "", "invalid JSON in (json ...): %s", strings.TrimPrefix(err.Error(), "ojson: "))
	}
	if err := checkJSON(x, maxValueDepth-depth); err != "" {
		return nil, errNode(ErrLimit, n.Items[1], "", "%s", err)
	}
	return x, nil
}

// checkJSON enforces the depth and number bounds on JSON that did not come
// through the S-expression reader.
func checkJSON(x *ojson.Value, depth int) string {
	if depth < 0 {
		return "JSON value nested too deeply"
	}
	switch x.Kind {
	case ojson.Number:
		if msg := numberProblem(string(x.Num)); msg != "" {
			return msg
		}
	case ojson.Array:
		for _, it := range x.Items {
			if e := checkJSON(it, depth-1); e != "" {
				return e
			}
		}
	case ojson.Object:
		for _, m := range x.Members {
			if e := checkJSON(m.Value, depth-1); e != "" {
				return e
			}
		}
	}
	return ""
}

func checkNumber(n *sexpr.Node) error {
	if msg := numberProblem(n.Text); msg != "" {
		return errNode(ErrLimit, n, "", "%s", msg)
	}
	return nil
}

func numberProblem(lit string) string {
	if len(lit) > maxNumberLen {
		return "number literal longer than " + strconv.Itoa(maxNumberLen) + " characters"
	}
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(lit[i+1:], "+"))
		if err != nil || e > maxExponent || e < -maxExponent {
			return "number exponent beyond ±" + strconv.Itoa(maxExponent) + ": " + clip(lit)
		}
	}
	return ""
}

// isIntegral reports whether a JSON number literal (already bounded) has an
// integer value: 3, 3.0, 1e3 and 2500e-2 do; 1.5 and 1e-3 do not.
func isIntegral(lit string) bool {
	lit = strings.TrimPrefix(lit, "-")
	exp := 0
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(lit[i+1:], "+"))
		if err != nil {
			return false
		}
		exp, lit = e, lit[:i]
	}
	intPart, frac, _ := strings.Cut(lit, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return true
	}
	shift := exp - len(frac)
	if shift >= 0 {
		return true
	}
	tz := len(digits) - len(strings.TrimRight(digits, "0"))
	return tz >= -shift
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func (p *parser) constVal(n *sexpr.Node, v *view, depth int) (*ojson.Value, error) {
	if n.Kind != sexpr.Symbol {
		if x, err := p.val(n, nil, depth+1); err == nil && ojson.Equal(x, v.constV) {
			return x, nil
		}
	}
	return nil, errLazy(ErrEnum, n, func() string { return valueText(v.constV) }, "value not allowed: found %s", sexpr.Describe(n))
}

func (p *parser) enumVal(n *sexpr.Node, s *ojson.Value, v *view, depth int) (*ojson.Value, error) {
	switch n.Kind {
	case sexpr.Keyword, sexpr.String:
		for _, e := range v.enum {
			if e.Kind == ojson.String && e.Str == n.Text {
				return p.value1(ojson.Value{Kind: ojson.String, Str: n.Text}), nil
			}
		}
	case sexpr.Symbol:
	default:
		if x, err := p.val(n, nil, depth+1); err == nil {
			for _, e := range v.enum {
				if ojson.Equal(x, e) {
					return x, nil
				}
			}
		}
	}
	var strs []string
	for _, e := range v.enum {
		if e.Kind == ojson.String {
			strs = append(strs, e.Str)
		}
	}
	hint := ""
	if n.Kind == sexpr.Keyword || n.Kind == sexpr.String || n.Kind == sexpr.Symbol {
		hint = didYouMean(n.Text, strs, enumShow)
	}
	return nil, errLazy(ErrEnum, n, func() string { return enumText(v.enum, 100) }, "value not allowed: found %s%s", sexpr.Describe(n), hint)
}

func enumShow(s string) string {
	if sexpr.IsKeywordText(s) {
		return ":" + s
	}
	return sexpr.Str(s).String()
}

func (p *parser) alternatives(n *sexpr.Node, s *ojson.Value, v *view, depth int) (*ojson.Value, error) {
	if len(v.alts) == 1 {
		return p.val(n, v.alts[0], depth+1)
	}
	var best *Error
	for _, a := range v.alts {
		// A member that leads back to this same union for this same value
		// (anyOf [A, ...] where A is the union itself) cannot read it.
		key := activeKey{n, a}
		if p.active[key] {
			continue
		}
		if p.active == nil {
			p.active = map[activeKey]bool{}
		}
		p.active[key] = true
		out, err := p.val(n, a, depth+1)
		delete(p.active, key)
		if err == nil {
			return out, nil
		}
		e, ok := err.(*Error)
		if !ok || e.Kind == ErrLimit {
			return nil, err
		}
		if e.Pos.Offset > n.Pos.Offset && (best == nil || e.Pos.Offset > best.Pos.Offset) {
			best = e
		}
	}
	if best != nil {
		return nil, best // the alternative that read furthest says best what went wrong
	}
	return nil, errLazy(ErrType, n, p.lazyType(s), "wrong type: found %s%s", sexpr.Describe(n), p.altHint(n, v))
}

// altHint is the "did you mean" of a word that no member of a union took,
// among the members' enum and const strings: each member rejected it at
// the same place, so none of their own errors is kept to say so.
func (p *parser) altHint(n *sexpr.Node, v *view) string {
	if n.Kind != sexpr.Keyword && n.Kind != sexpr.String && n.Kind != sexpr.Symbol {
		return ""
	}
	var strs []string
	for _, a := range v.alts {
		av := p.view(a)
		if av.constV != nil && av.constV.Kind == ojson.String {
			strs = append(strs, av.constV.Str)
		}
		for _, e := range av.enum {
			if e.Kind == ojson.String {
				strs = append(strs, e.Str)
			}
		}
	}
	return didYouMean(n.Text, strs, enumShow)
}

func (p *parser) array(n *sexpr.Node, v *view, depth int) (*ojson.Value, error) {
	out := p.value1(ojson.Value{Kind: ojson.Array, Items: make([]*ojson.Value, 0, len(n.Items))})
	for i, it := range n.Items {
		if v.itemsNever && i >= len(v.prefix) {
			return nil, errNode(ErrTooMany, it, "", "too many elements: at most %d allowed here", len(v.prefix))
		}
		x, err := p.val(it, v.itemSchema(i), depth+1)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, x)
	}
	return out, nil
}

func (p *parser) object(n *sexpr.Node, v *view, depth int) (*ojson.Value, error) {
	if v.record {
		return p.record(n, n.Items, v, depth, nil, 0)
	}
	return p.mapping(n, n.Items, v, depth)
}

// mapping reads (:key v ...) / ("key" v ...) into an object.
func (p *parser) mapping(list *sexpr.Node, items []*sexpr.Node, v *view, depth int) (*ojson.Value, error) {
	out := p.value1(ojson.Value{Kind: ojson.Object, Members: make([]ojson.Member, 0, len(items)/2)})
	var seen map[string]*sexpr.Node // only for big maps; small ones are scanned
	for i := 0; i < len(items); i += 2 {
		k := items[i]
		if k.Kind != sexpr.Keyword && k.Kind != sexpr.String {
			return nil, errNode(ErrShape, k, `a key, :key or "key"`, "found %s where a key goes", sexpr.Describe(k))
		}
		if i+1 >= len(items) {
			return nil, errNode(ErrShape, k, "a value after "+asKeyword(k.Text), "key with no value")
		}
		var prev *sexpr.Node
		if seen != nil {
			prev = seen[k.Text]
		} else {
			for j := 0; j < i; j += 2 {
				if items[j].Text == k.Text {
					prev = items[j]
					break
				}
			}
			if i >= 32 {
				seen = make(map[string]*sexpr.Node, len(items)/2)
				for j := 0; j <= i; j += 2 {
					seen[items[j].Text] = items[j]
				}
			}
		}
		if prev != nil {
			return nil, errNode(ErrDuplicate, k, "", "duplicate key %s (first given at %s)", asKeyword(k.Text), prev.Pos)
		}
		if seen != nil {
			seen[k.Text] = k
		}
		if !v.extraOK {
			return nil, errNode(ErrUnknownParam, k, "", "unknown key %s: this object takes no properties", asKeyword(k.Text))
		}
		x, err := p.val(items[i+1], v.extraSchema(k.Text), depth+1)
		if err != nil {
			return nil, err
		}
		out.Members = append(out.Members, ojson.Member{Key: k.Text, Value: x})
	}
	return out, nil
}
