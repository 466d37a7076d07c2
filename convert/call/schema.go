package call

import (
	"regexp"
	"sync"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// The call parser is schema-directed: it reads an argument by looking at the
// JSON Schema of the slot it fills. A view is the part of a schema that
// decides how a value is written, computed once per schema node with local
// $refs and allOf folded in, and kept in the Resolver's cache.

// Bounds on schema work, so a hostile schema (ref chains, allOf towers,
// unions of unions) costs bounded time.
const (
	maxRefHops    = 32
	maxViewDepth  = 64
	maxAllOfParts = 64
)

type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBool
	tObject
	tArray
	tNumber
	tInteger
	tString
	tAll = tNull | tBool | tObject | tArray | tNumber | tInteger | tString
)

var typeNames = []struct {
	name string
	bit  typeSet
}{
	{"null", tNull}, {"boolean", tBool}, {"object", tObject}, {"array", tArray},
	{"number", tNumber}, {"integer", tInteger}, {"string", tString},
}

func typeBit(name string) typeSet {
	for _, t := range typeNames {
		if t.name == name {
			return t.bit
		}
	}
	return 0
}

// param is one property of an object schema, in call order.
type param struct {
	name     string
	schema   *ojson.Value // nil: anything
	required bool
	order    int // position in the schema's "properties", for output order
}

type patternProp struct {
	re     *regexp.Regexp
	schema *ojson.Value
}

// tagged describes a union of objects told apart by a const property.
type tagged struct {
	prop     string
	values   []string
	variants map[string]*view // tag value -> the variant's fields, tag removed
	full     map[string]*view // tag value -> the variant's whole object view
	order    map[string]int   // tag value -> the tag property's schema position
}

type view struct {
	s        *ojson.Value // the schema after $ref/allOf folding; nil means anything
	name     string       // the $defs/definitions name it was reached through
	never    bool         // the false schema
	types    typeSet      // allowed JSON types (tAll when unconstrained)
	typed    bool         // "type" was given
	nullable bool
	hasEnum  bool
	enum     []*ojson.Value
	constV   *ojson.Value
	alts     []*ojson.Value // anyOf/oneOf members other than null
	tag      *tagged

	// objects
	record        bool // "properties" present: a record with named fields
	params        []param
	index         map[string]int
	sorder        []int // params indexes in schema order, for output
	extraOK       bool  // undeclared properties are allowed
	extraDeclared bool  // additionalProperties/patternProperties said so explicitly
	extra         *ojson.Value
	patterns      []patternProp
	objHint       bool // object keywords without "type"
	// arrays
	arrHint    bool
	prefix     []*ojson.Value
	items      *ojson.Value
	itemsNever bool
}

func (v *view) ownShape() bool { return v.typed || v.record || v.objHint || v.arrHint }

func (v *view) isAny() bool {
	return !v.never && !v.hasEnum && v.constV == nil && len(v.alts) == 0 && v.tag == nil && !v.ownShape()
}

// listAs says how a list fills this slot: as an object, an array, or (for
// unconstrained slots) decided by the list itself.
type listKind uint8

const (
	listNone listKind = iota
	listObject
	listArray
	listEither
)

func (v *view) listAs() listKind {
	obj, arr := v.types&tObject != 0, v.types&tArray != 0
	switch {
	case obj && !arr:
		return listObject
	case arr && !obj:
		return listArray
	case !obj && !arr:
		return listNone
	}
	switch {
	case v.record || v.objHint:
		if v.arrHint {
			return listEither
		}
		return listObject
	case v.arrHint:
		return listArray
	}
	return listEither
}

func (v *view) itemSchema(i int) *ojson.Value {
	if i < len(v.prefix) {
		return v.prefix[i]
	}
	return v.items
}

// extraSchema is the schema for an undeclared property key.
func (v *view) extraSchema(key string) *ojson.Value {
	for _, p := range v.patterns {
		if p.re.MatchString(key) {
			return p.schema
		}
	}
	return v.extra
}

type viewKey struct{ root, s *ojson.Value }

// viewCache is shared by every parse a Resolver does; views are immutable
// once built. (A plain map under a read lock: sync.Map would box the
// two-pointer key on every lookup.)
type viewCache struct {
	mu sync.RWMutex
	m  map[viewKey]*view
}

func (c *viewCache) load(k viewKey) (*view, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	return v, ok
}

func (c *viewCache) store(k viewKey, v *view) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[viewKey]*view{}
	}
	c.m[k] = v
	c.mu.Unlock()
}

var anyView = &view{types: tAll, extraOK: true}
var neverView = &view{never: true, types: 0}

// get returns the view of s, a schema node inside root.
func (c *viewCache) get(root, s *ojson.Value) *view {
	return c.build(root, s, nil, 0)
}

func (c *viewCache) build(root, s *ojson.Value, stack []*ojson.Value, depth int) *view {
	if s == nil {
		return anyView
	}
	key := viewKey{root, s}
	if v, ok := c.load(key); ok {
		return v
	}
	if depth > maxViewDepth {
		return anyView
	}
	for _, x := range stack {
		if x == s {
			return anyView // a cycle through anyOf/allOf: stop here, the validator still checks
		}
	}
	v := c.compute(root, s, append(stack, s), depth)
	c.store(key, v)
	return v
}

var annotationKeys = map[string]bool{
	"description": true, "title": true, "default": true, "examples": true, "$comment": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$schema": true, "$id": true,
	"$anchor": true, "$defs": true, "definitions": true, "markdownDescription": true,
}

func (c *viewCache) compute(root, s *ojson.Value, stack []*ojson.Value, depth int) *view {
	s, name, ok := deref(root, s)
	if !ok {
		return anyView
	}
	if s.Kind == ojson.Bool {
		if s.Bool {
			return anyView
		}
		return neverView
	}
	if s.Kind != ojson.Object {
		return anyView
	}
	if hasShapeSiblings(s) && s.Has("$ref") {
		// A $ref with constraints beside it applies both: fold as allOf.
		s = refAsAllOf(s)
	}
	if s.Has("allOf") {
		s = mergeAllOf(root, s)
	}
	v := &view{s: s, name: name, types: tAll, extraOK: true}
	if t := s.Get("type"); t != nil {
		v.typed = true
		v.types = 0
		switch t.Kind {
		case ojson.String:
			v.types = typeBit(t.Str)
		case ojson.Array:
			for _, it := range t.Items {
				if it.Kind == ojson.String {
					v.types |= typeBit(it.Str)
				}
			}
		}
		if v.types&tInteger != 0 && v.types&tNumber != 0 {
			v.types &^= tInteger // number already admits integers
		}
	}
	if n := s.Get("nullable"); n != nil && n.Kind == ojson.Bool && n.Bool {
		v.nullable = true
		v.types |= tNull
	}
	if v.typed && v.types&tNull != 0 {
		v.nullable = true
	}
	if e := s.Get("enum"); e != nil && e.Kind == ojson.Array {
		v.hasEnum = true
		v.enum = e.Items
	}
	if k := s.Get("const"); k != nil {
		v.constV = k
	}
	// objects
	if props := s.Get("properties"); props != nil && props.Kind == ojson.Object {
		v.record = true
		v.params, v.index = buildParams(props, s.Get("required"))
		v.sorder = schemaOrder(v)
	}
	for _, k := range []string{"required", "minProperties", "maxProperties", "propertyNames", "additionalProperties", "patternProperties"} {
		if s.Has(k) {
			v.objHint = true
		}
	}
	if ap := s.Get("additionalProperties"); ap != nil {
		switch {
		case ap.Kind == ojson.Bool && !ap.Bool:
			v.extraOK = false
		case ap.Kind == ojson.Bool:
			v.extraDeclared = true
		default:
			v.extraDeclared = true
			v.extra = ap
		}
	} else if up := s.Get("unevaluatedProperties"); up != nil && up.Kind == ojson.Bool && !up.Bool {
		v.extraOK = false
	}
	if pp := s.Get("patternProperties"); pp != nil && pp.Kind == ojson.Object {
		for _, m := range pp.Members {
			if re, err := regexp.Compile(m.Key); err == nil {
				v.patterns = append(v.patterns, patternProp{re, m.Value})
				v.extraDeclared = true
			}
		}
	}
	// arrays
	for _, k := range []string{"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "additionalItems"} {
		if s.Has(k) {
			v.arrHint = true
		}
	}
	if pi := s.Get("prefixItems"); pi != nil && pi.Kind == ojson.Array {
		v.prefix = pi.Items
	}
	if it := s.Get("items"); it != nil {
		if it.Kind == ojson.Array { // draft-07 tuple form
			v.prefix = it.Items
			if ai := s.Get("additionalItems"); ai != nil {
				v.items = ai
			}
		} else {
			v.items = it
		}
	}
	if v.items != nil && v.items.Kind == ojson.Bool {
		v.itemsNever = !v.items.Bool
		v.items = nil
	}
	// unions
	alts := s.Get("anyOf")
	if o := s.Get("oneOf"); o != nil && (alts == nil || alts.Kind != ojson.Array) {
		alts = o
	}
	if alts != nil && alts.Kind == ojson.Array {
		for _, a := range alts.Items {
			av := c.build(root, a, stack, depth+1)
			if isNullOnly(av) {
				v.nullable = true
				continue
			}
			v.alts = append(v.alts, a)
		}
		if v.nullable && !v.typed {
			v.types = tAll
		}
		v.tag = c.detectTag(root, v.alts, stack, depth)
	}
	if v.nullable {
		v.types |= tNull
	}
	return v
}

func isNullOnly(v *view) bool {
	if v.never {
		return false
	}
	if v.typed && v.types == tNull {
		return true
	}
	if v.constV != nil && v.constV.Kind == ojson.Null {
		return true
	}
	return v.hasEnum && len(v.enum) == 1 && v.enum[0].Kind == ojson.Null
}

func buildParams(props, required *ojson.Value) ([]param, map[string]int) {
	req := map[string]bool{}
	var reqOrder []string
	if required != nil && required.Kind == ojson.Array {
		for _, r := range required.Items {
			if r.Kind == ojson.String && !req[r.Str] {
				req[r.Str] = true
				reqOrder = append(reqOrder, r.Str)
			}
		}
	}
	params := make([]param, 0, len(props.Members))
	for i, m := range props.Members {
		if req[m.Key] {
			params = append(params, param{name: m.Key, schema: m.Value, required: true, order: i})
		}
	}
	// required names with no property schema still have to be given
	for _, r := range reqOrder {
		if props.Get(r) == nil {
			params = append(params, param{name: r, required: true, order: len(props.Members) + len(params)})
		}
	}
	for i, m := range props.Members {
		if !req[m.Key] {
			params = append(params, param{name: m.Key, schema: m.Value, order: i})
		}
	}
	index := make(map[string]int, len(params))
	for i, p := range params {
		index[p.name] = i
	}
	return params, index
}

// detectTag finds the const property that tells the members of a union of
// objects apart: present in every member, a single string value in each,
// all values distinct. The first such property in the first member wins.
func (c *viewCache) detectTag(root *ojson.Value, alts []*ojson.Value, stack []*ojson.Value, depth int) *tagged {
	if len(alts) < 2 {
		return nil
	}
	views := make([]*view, len(alts))
	for i, a := range alts {
		views[i] = c.build(root, a, stack, depth+1)
		if !views[i].record || views[i].types&tObject == 0 {
			return nil
		}
	}
	for _, cand := range views[0].params {
		values := make([]string, 0, len(views))
		seen := map[string]bool{}
		ok := true
		for _, av := range views {
			i, has := av.index[cand.name]
			if !has {
				ok = false
				break
			}
			pv := c.build(root, av.params[i].schema, stack, depth+1)
			val, single := singleString(pv)
			if !single || seen[val] {
				ok = false
				break
			}
			seen[val] = true
			values = append(values, val)
		}
		if !ok {
			continue
		}
		t := &tagged{prop: cand.name, values: values, variants: map[string]*view{}, full: map[string]*view{}, order: map[string]int{}}
		for i, av := range views {
			t.full[values[i]] = av
			t.order[values[i]] = av.params[av.index[cand.name]].order
			t.variants[values[i]] = withoutParam(av, cand.name)
		}
		return t
	}
	return nil
}

func singleString(v *view) (string, bool) {
	if v.constV != nil && v.constV.Kind == ojson.String {
		return v.constV.Str, true
	}
	if v.hasEnum && len(v.enum) == 1 && v.enum[0].Kind == ojson.String {
		return v.enum[0].Str, true
	}
	return "", false
}

func withoutParam(v *view, name string) *view {
	c := *v
	c.params = make([]param, 0, len(v.params))
	for _, p := range v.params {
		if p.name != name {
			c.params = append(c.params, p)
		}
	}
	c.index = make(map[string]int, len(c.params))
	for i, p := range c.params {
		c.index[p.name] = i
	}
	c.sorder = schemaOrder(&c)
	return &c
}
