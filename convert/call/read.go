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
}

// value1 places a new value in a block shared with its neighbours: one
// allocation per 64 values instead of one each.
func (p *parser) value1(v ojson.Value) *ojson.Value {
	if len(p.slab) == 0 {
		p.slab = make([]ojson.Value, 64)
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
	return nil, errLazy(ErrType, n, p.lazyType(s), "wrong type: found %s", sexpr.Describe(n))
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
