package term

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
)

// schema converts one TYPE to JSON Schema.
func (cv *conv) schema(n *sexpr.Node) (*ojson.Value, error) {
	switch n.Kind {
	case sexpr.Symbol:
		return cv.word(n)
	case sexpr.Keyword, sexpr.String:
		return ojson.NewObject().Set("const", ojson.NewString(n.Text)), nil
	case sexpr.Number:
		return ojson.NewObject().Set("const", ojson.NewNumber(n.Text)), nil
	case sexpr.Bool:
		return ojson.NewObject().Set("const", ojson.NewBool(n.Bool)), nil
	case sexpr.Nil:
		return typeObj("null"), nil
	}
	if len(n.Items) == 0 {
		return nil, sexpr.Errorf(n, "expected a type, found an empty list ()")
	}
	head := n.Items[0]
	args := n.Items[1:]
	if head.Kind == sexpr.List {
		// ((or ...) :kw v ...): a type with further keywords.
		s, err := cv.schema(head)
		if err != nil {
			return nil, err
		}
		s = asObject(s)
		return s, cv.pairs(s, args)
	}
	if head.Kind != sexpr.Symbol {
		return nil, sexpr.Errorf(head, "expected a type form such as (list T) or (rec ...), found %s at its head", sexpr.Describe(head))
	}
	switch head.Text {
	case "or", "one", "all":
		return cv.union(head.Text, n, args)
	case "enum":
		arr := ojson.NewArray()
		for _, a := range args {
			v, err := dataOf(a, 0)
			if err != nil {
				return nil, err
			}
			arr.Items = append(arr.Items, v)
		}
		return ojson.NewObject().Set("enum", arr), nil
	case "not":
		if len(args) < 1 {
			return nil, sexpr.Errorf(n, "expected (not TYPE)")
		}
		t, err := cv.schema(args[0])
		if err != nil {
			return nil, err
		}
		s := ojson.NewObject().Set("not", t)
		return s, cv.pairs(s, args[1:])
	case "opt":
		return cv.opt(n, args)
	case "const":
		if len(args) < 1 {
			return nil, sexpr.Errorf(n, "expected (const VALUE)")
		}
		v, err := dataOf(args[0], 0)
		if err != nil {
			return nil, err
		}
		s := ojson.NewObject().Set("const", v)
		return s, cv.pairs(s, args[1:])
	case "list":
		return cv.listType(n, args)
	case "tuple":
		return cv.tuple(n, args)
	case "map":
		return cv.mapType(n, args)
	case "rec":
		props, req, pairs, err := cv.recItems(args, n)
		if err != nil {
			return nil, err
		}
		s := typeObj("object").Set("properties", props)
		if len(req) > 0 {
			s.Set("required", strArray(req))
		}
		return s, cv.pairs(s, pairs)
	case "tagged", "tagged-any":
		return cv.tagged(n, args)
	case "json":
		return cv.rawJSON(n, args)
	}
	if cv.p.isTypeWord(head.Text) {
		s, err := cv.word(head)
		if err != nil {
			return nil, err
		}
		s = asObject(s)
		return s, cv.pairs(s, args)
	}
	// The design notes' labelled type, (sql string): a string in a named
	// format.
	if len(args) == 1 && (args[0].Kind == sexpr.Symbol || args[0].Kind == sexpr.List) {
		s, err := cv.schema(args[0])
		if err != nil {
			return nil, err
		}
		s = asObject(s)
		if !s.Has("format") {
			s.Set("format", ojson.NewString(head.Text))
			return s, nil
		}
	}
	return nil, sexpr.Errorf(head, "unknown type %s; expected string, number, integer, bool, null, any, a deftype name, or a form such as (list T), (map K V), (rec ...), (or ...), (opt T)", head.Text)
}

func typeObj(t string) *ojson.Value { return ojson.NewObject().Set("type", ojson.NewString(t)) }

func strArray(ss []string) *ojson.Value {
	arr := ojson.NewArray()
	for _, s := range ss {
		arr.Items = append(arr.Items, ojson.NewString(s))
	}
	return arr
}

// word converts a bare type word or deftype name.
func (cv *conv) word(n *sexpr.Node) (*ojson.Value, error) {
	w := n.Text
	if t, ok := simpleTypes[w]; ok {
		return typeObj(t), nil
	}
	if t, ok := readerTypeAliases[w]; ok {
		return typeObj(t), nil
	}
	switch w {
	case "any":
		return ojson.NewObject(), nil
	case "never":
		return ojson.NewObject().Set("not", ojson.NewObject()), nil
	case "bytes":
		return typeObj("string").Set("contentEncoding", ojson.NewString("base64")), nil
	}
	if _, ok := cv.p.types[w]; ok {
		cv.use(w)
		return ojson.NewObject().Set("$ref", ojson.NewString("#/$defs/"+w)), nil
	}
	return nil, sexpr.Errorf(n, "unknown type %s; expected string, number, integer, bool, null, any, bytes, object, array or a deftype name", w)
}

func isLiteral(n *sexpr.Node) bool {
	switch n.Kind {
	case sexpr.Keyword, sexpr.String, sexpr.Number, sexpr.Bool, sexpr.Nil:
		return true
	}
	return n.Head() == "const" && len(n.Items) == 2
}

// union reads (or ...), (one ...), (all ...). An (or ...) of values is an
// enum; an (or ...) of bare type words is a type array.
func (cv *conv) union(head string, n *sexpr.Node, args []*sexpr.Node) (*ojson.Value, error) {
	if len(args) == 0 {
		return nil, sexpr.Errorf(n, "expected at least one member in (%s ...)", head)
	}
	if head == "or" {
		allLit, allWords := true, true
		for _, a := range args {
			if !isLiteral(a) {
				allLit = false
			}
			if a.Kind != sexpr.Symbol {
				allWords = false
			} else if _, ok := simpleTypes[a.Text]; !ok {
				allWords = false
			}
		}
		if allLit {
			arr := ojson.NewArray()
			for _, a := range args {
				if a.Kind == sexpr.List {
					a = a.Items[1]
				}
				v, err := dataOf(a, 0)
				if err != nil {
					return nil, err
				}
				arr.Items = append(arr.Items, v)
			}
			return ojson.NewObject().Set("enum", arr), nil
		}
		if allWords && len(args) > 1 {
			arr := ojson.NewArray()
			seen := map[string]bool{}
			for _, a := range args {
				t := simpleTypes[a.Text]
				if seen[t] {
					return nil, sexpr.Errorf(a, "type %s appears twice in (or ...)", a.Text)
				}
				seen[t] = true
				arr.Items = append(arr.Items, ojson.NewString(t))
			}
			return ojson.NewObject().Set("type", arr), nil
		}
	}
	kw := map[string]string{"or": "anyOf", "one": "oneOf", "all": "allOf"}[head]
	// Variants in the design notes' style: (or (filter (cond string)) ...).
	seed := false
	for _, a := range args {
		if cv.p.seedVariant(a) {
			seed = true
		}
	}
	if seed && head != "all" {
		return cv.seedVariants(args, kw)
	}
	arr := ojson.NewArray()
	for _, a := range args {
		s, err := cv.schema(a)
		if err != nil {
			return nil, err
		}
		arr.Items = append(arr.Items, s)
	}
	return ojson.NewObject().Set(kw, arr), nil
}

// opt reads (opt T KW...): T or null. When T is only a type (and keywords
// of that type) the two merge into a type array.
func (cv *conv) opt(n *sexpr.Node, args []*sexpr.Node) (*ojson.Value, error) {
	if len(args) < 1 {
		return nil, sexpr.Errorf(n, "expected (opt TYPE)")
	}
	t, err := cv.schema(args[0])
	if err != nil {
		return nil, err
	}
	outerAnnotationsOnly := true
	for i := 1; i < len(args); i++ {
		if args[i].Kind == sexpr.Keyword && !annotationKeywords[args[i].Text] {
			outerAnnotationsOnly = false
		}
		if args[i].Kind == sexpr.Keyword {
			i++
		}
	}
	var s *ojson.Value
	if types, ok := mergeableType(t); ok && outerAnnotationsOnly {
		s = t
		types.Items = append(types.Items, ojson.NewString("null"))
		s.Set("type", types)
	} else {
		s = ojson.NewObject().Set("anyOf", ojson.NewArray(t, typeObj("null")))
	}
	return s, cv.pairs(s, args[1:])
}

// mergeableType returns a copy of t's type as an array when t is a type
// plus only keywords specific to that type, so "null" can join the array.
func mergeableType(t *ojson.Value) (*ojson.Value, bool) {
	if t.Kind != ojson.Object {
		return nil, false
	}
	ty := t.Get("type")
	if ty == nil {
		return nil, false
	}
	var names []string
	switch ty.Kind {
	case ojson.String:
		names = []string{ty.Str}
	case ojson.Array:
		for _, it := range ty.Items {
			names = append(names, it.Str)
		}
	default:
		return nil, false
	}
	for _, n := range names {
		if n == "null" {
			return nil, false
		}
	}
	for _, m := range t.Members {
		if m.Key == "type" {
			continue
		}
		ok := false
		for _, n := range names {
			if appliesTo(m.Key, n) {
				ok = true
			}
		}
		if !ok {
			return nil, false
		}
	}
	return strArray(names), true
}

func (cv *conv) listType(n *sexpr.Node, args []*sexpr.Node) (*ojson.Value, error) {
	s := typeObj("array")
	if len(args) == 0 {
		return s, nil
	}
	// The first argument is always the element type, even a :keyword
	// (a list of that constant).
	it, err := cv.schema(args[0])
	if err != nil {
		return nil, err
	}
	s.Set("items", it)
	rest := args[1:]
	for _, k := range []string{"minItems", "maxItems"} {
		if len(rest) > 0 && rest[0].Kind == sexpr.Number {
			if _, ok := atoi(rest[0].Text); !ok {
				return nil, sexpr.Errorf(rest[0], "expected a non-negative integer for %s, found %s", k, rest[0].Text)
			}
			s.Set(k, ojson.NewNumber(rest[0].Text))
			rest = rest[1:]
		}
	}
	return s, cv.pairs(s, rest)
}

// tuple reads (tuple T ...) as prefixItems; the design notes' named tuple
// (tuple (ver number) (blocks (list Block))) reads as a record.
func (cv *conv) tuple(n *sexpr.Node, args []*sexpr.Node) (*ojson.Value, error) {
	named := len(args) > 0
	for _, a := range args {
		if a.Kind != sexpr.List || len(a.Items) < 2 || a.Items[0].Kind != sexpr.Symbol || typeHeads[a.Items[0].Text] || cv.p.isTypeWord(a.Items[0].Text) {
			named = false
		}
	}
	if named {
		props, req, _, err := cv.recItems(args, n)
		if err != nil {
			return nil, err
		}
		s := typeObj("object").Set("properties", props)
		if len(req) > 0 {
			s.Set("required", strArray(req))
		}
		return s, nil
	}
	arr := ojson.NewArray()
	for _, a := range args {
		t, err := cv.schema(a)
		if err != nil {
			return nil, err
		}
		arr.Items = append(arr.Items, t)
	}
	return typeObj("array").Set("prefixItems", arr), nil
}

func (cv *conv) mapType(n *sexpr.Node, args []*sexpr.Node) (*ojson.Value, error) {
	s := typeObj("object")
	if len(args) == 0 {
		return s, nil
	}
	if len(args) < 2 {
		return nil, sexpr.Errorf(n, "expected (map KEY-TYPE VALUE-TYPE)")
	}
	k, err := cv.schema(args[0])
	if err != nil {
		return nil, err
	}
	v, err := cv.schema(args[1])
	if err != nil {
		return nil, err
	}
	s.Set("additionalProperties", v)
	if !isPlainString(k) {
		s.Set("propertyNames", k)
	}
	return s, cv.pairs(s, args[2:])
}

// isPlainString: a map key type that adds nothing (object keys are strings).
func isPlainString(k *ojson.Value) bool {
	if k.Kind != ojson.Object {
		return false
	}
	if len(k.Members) == 0 {
		return true
	}
	return len(k.Members) == 1 && k.Get("type").StringOr("") == "string"
}

// tagged reads (tagged PROP [KW V]* (TAG ITEMS...) ...).
func (cv *conv) tagged(n *sexpr.Node, args []*sexpr.Node) (*ojson.Value, error) {
	if len(args) < 1 || (args[0].Kind != sexpr.Symbol && args[0].Kind != sexpr.String) {
		return nil, sexpr.Errorf(n, "expected (%s PROPERTY (TAG PARAM ...) ...)", n.Items[0].Text)
	}
	prop := args[0].Text
	args = args[1:]
	var pairs []*sexpr.Node
	for len(args) > 0 && args[0].Kind == sexpr.Keyword {
		if len(args) < 2 {
			return nil, sexpr.Errorf(args[0], "expected a value after :%s", args[0].Text)
		}
		pairs = append(pairs, args[0], args[1])
		args = args[2:]
	}
	if len(args) == 0 {
		return nil, sexpr.Errorf(n, "expected at least one variant (TAG PARAM ...)")
	}
	arr := ojson.NewArray()
	seen := map[string]bool{}
	for _, v := range args {
		if v.Kind != sexpr.List || len(v.Items) == 0 || (v.Items[0].Kind != sexpr.Symbol && v.Items[0].Kind != sexpr.String) {
			return nil, sexpr.Errorf(v, "expected a variant (TAG PARAM ...), found %s", sexpr.Describe(v))
		}
		tag := v.Items[0].Text
		if seen[tag] {
			return nil, sexpr.Errorf(v.Items[0], "variant %s appears twice", tag)
		}
		seen[tag] = true
		o, err := cv.variant(prop, tag, v.Items[1:], v, false)
		if err != nil {
			return nil, err
		}
		arr.Items = append(arr.Items, o)
	}
	kw := "oneOf"
	if n.Items[0].Text == "tagged-any" {
		kw = "anyOf"
	}
	s := ojson.NewObject().Set(kw, arr)
	return s, cv.pairs(s, pairs)
}

// rawJSON reads (json "...") and notes the deftypes its $refs name. A
// reference that names no deftype is kept as written: the printer escapes
// schemas with dangling references verbatim, and they stay as broken as the
// server sent them.
func (cv *conv) rawJSON(n *sexpr.Node, args []*sexpr.Node) (*ojson.Value, error) {
	if len(args) != 1 || args[0].Kind != sexpr.String {
		return nil, sexpr.Errorf(n, "expected (json \"...\") holding a JSON Schema")
	}
	v, err := ojson.Parse([]byte(args[0].Text))
	if err != nil {
		return nil, sexpr.Errorf(args[0], "invalid JSON in (json ...): %v", err)
	}
	if v.Kind != ojson.Object && v.Kind != ojson.Bool {
		return nil, sexpr.Errorf(args[0], "(json ...) must hold a schema (an object or a boolean), found a %s", v.Kind)
	}
	var walk func(x *ojson.Value, depth int)
	walk = func(x *ojson.Value, depth int) {
		if depth > ojson.MaxDepth {
			return
		}
		switch x.Kind {
		case ojson.Object:
			for _, m := range x.Members {
				if m.Key == "$ref" && m.Value.Kind == ojson.String {
					if name, ok := defRefName(m.Value.Str); ok {
						if _, known := cv.p.types[name]; known {
							cv.use(name)
						}
					}
					continue
				}
				walk(m.Value, depth+1)
			}
		case ojson.Array:
			for _, it := range x.Items {
				walk(it, depth+1)
			}
		}
	}
	walk(v, 0)
	return v, nil
}

func defRefName(ref string) (string, bool) {
	const p = "#/$defs/"
	if len(ref) <= len(p) || ref[:len(p)] != p {
		return "", false
	}
	return unescapePointer(ref[len(p):]), true
}

// pairs applies :keyword VALUE pairs (and the :closed flag) to s.
func (cv *conv) pairs(s *ojson.Value, items []*sexpr.Node) error {
	for i := 0; i < len(items); i++ {
		k := items[i]
		if k.Kind != sexpr.Keyword {
			return sexpr.Errorf(k, "expected a :keyword, found %s", sexpr.Describe(k))
		}
		if k.Text == "closed" {
			if s.Has("additionalProperties") {
				return sexpr.Errorf(k, ":closed given together with additionalProperties")
			}
			s.Set("additionalProperties", ojson.NewBool(false))
			continue
		}
		if i+1 >= len(items) {
			return sexpr.Errorf(k, "expected a value after :%s", k.Text)
		}
		v := items[i+1]
		i++
		val, err := cv.pairValue(k.Text, v)
		if err != nil {
			return err
		}
		if cur := s.Get(k.Text); cur != nil {
			if k.Text == "required" && cur.Kind == ojson.Array && val.Kind == ojson.Array {
				cur.Items = append(cur.Items, val.Items...)
				continue
			}
			return sexpr.Errorf(k, "keyword :%s is given twice", k.Text)
		}
		s.Set(k.Text, val)
	}
	return nil
}

func (cv *conv) pairValue(kw string, v *sexpr.Node) (*ojson.Value, error) {
	switch classOf(kw) {
	case kwSchema:
		return cv.schema(v)
	case kwSchemaArr:
		if v.Kind != sexpr.List {
			return nil, sexpr.Errorf(v, "expected a list of types after :%s, found %s", kw, sexpr.Describe(v))
		}
		arr := ojson.NewArray()
		for _, it := range v.Items {
			t, err := cv.schema(it)
			if err != nil {
				return nil, err
			}
			arr.Items = append(arr.Items, t)
		}
		return arr, nil
	case kwSchemaMap:
		if v.Kind != sexpr.List || len(v.Items)%2 != 0 {
			return nil, sexpr.Errorf(v, "expected (KEY TYPE ...) after :%s", kw)
		}
		o := ojson.NewObject()
		for i := 0; i < len(v.Items); i += 2 {
			key := v.Items[i]
			if key.Kind != sexpr.Keyword && key.Kind != sexpr.String {
				return nil, sexpr.Errorf(key, "expected a key (:name or \"name\"), found %s", sexpr.Describe(key))
			}
			t, err := cv.schema(v.Items[i+1])
			if err != nil {
				return nil, err
			}
			o.Set(key.Text, t)
		}
		return o, nil
	}
	return dataOf(v, 0)
}
