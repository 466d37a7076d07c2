package term

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Parsed is a document read back: the tools with reconstructed schemas, and
// the short codes the document declared.
type Parsed struct {
	Set   *toolset.Set
	Codes map[string]string // tool name -> code
}

// Parse reads an MCP-Term document back into a tool list whose input and
// output schemas accept and reject the same instances as the ones it was
// rendered from.
func Parse(src string) (*toolset.Set, error) {
	p, err := ParseDocument(src)
	if err != nil {
		return nil, err
	}
	return p.Set, nil
}

// SeedTag is the property that carries a variant's tag when a document uses
// the design notes' variant style, (deftype Op (i insert ...) (d delete ...)),
// which does not name one.
const SeedTag = "type"

type deftype struct {
	node   *sexpr.Node
	name   string
	schema *ojson.Value
	deps   []string
	state  uint8 // 0 new, 1 converting, 2 done
}

type parser struct {
	types map[string]*deftype
	order []string
}

// conv collects the deftypes one schema refers to.
type conv struct {
	p    *parser
	deps map[string]bool
	used []string
}

func (cv *conv) use(name string) {
	if !cv.deps[name] {
		cv.deps[name] = true
		cv.used = append(cv.used, name)
	}
}

// ParseDocument is Parse that also returns the declared short codes, which
// a caller resolving calls against a document (rather than a live server)
// needs.
func ParseDocument(src string) (*Parsed, error) {
	forms, err := sexpr.Parse(src)
	if err != nil {
		return nil, err
	}
	p := &parser{types: map[string]*deftype{}}
	var declares []*sexpr.Node
	for _, f := range forms {
		switch f.Head() {
		case "declare":
			declares = append(declares, f)
		case "deftype":
			if len(f.Items) < 3 {
				return nil, sexpr.Errorf(f, "expected (deftype Name TYPE [\"doc\"])")
			}
			nm := f.Items[1]
			if nm.Kind != sexpr.Symbol || !validTypeName(nm.Text) {
				return nil, sexpr.Errorf(nm, "expected a type name (a letter or '_', then letters, digits, '_', '.', '-'; not a built-in type word), found %s", sexpr.Describe(nm))
			}
			if _, dup := p.types[nm.Text]; dup {
				return nil, sexpr.Errorf(nm, "type %s is defined twice", nm.Text)
			}
			p.types[nm.Text] = &deftype{node: f, name: nm.Text}
			p.order = append(p.order, nm.Text)
		default:
			return nil, sexpr.Errorf(f, "expected (declare ...) or (deftype ...) at top level, found %s", sexpr.Describe(f))
		}
	}
	for _, name := range p.order {
		if err := p.convertDef(p.types[name]); err != nil {
			return nil, err
		}
	}
	out := &Parsed{Set: &toolset.Set{}, Codes: map[string]string{}}
	owner := map[string]*sexpr.Node{}
	for _, d := range declares {
		server, items, err := declareHeader(d)
		if err != nil {
			return nil, err
		}
		for _, tn := range items {
			t, code, err := p.tool(tn)
			if err != nil {
				return nil, err
			}
			t.Server = server
			if prev, dup := owner[t.Name]; dup {
				return nil, sexpr.Errorf(tn, "tool %s is declared twice (first at %s)", t.Name, prev.Pos)
			}
			owner[t.Name] = tn
			out.Set.Tools = append(out.Set.Tools, t)
			if code != "" {
				out.Codes[t.Name] = code
			}
		}
	}
	// A code must name one tool only, and never another tool's name.
	byCode := map[string]string{}
	for _, t := range out.Set.Tools {
		c, ok := out.Codes[t.Name]
		if !ok {
			continue
		}
		if other, dup := byCode[c]; dup {
			return nil, sexpr.Errorf(owner[t.Name], "short code %s is used by both %s and %s", c, other, t.Name)
		}
		if _, clash := owner[c]; clash && c != t.Name {
			return nil, sexpr.Errorf(owner[t.Name], "short code %s of %s is another tool's name", c, t.Name)
		}
		byCode[c] = t.Name
	}
	return out, nil
}

func (p *parser) convertDef(d *deftype) error {
	if d.state == 2 {
		return nil
	}
	cv := &conv{p: p, deps: map[string]bool{}}
	f := d.node
	rest := f.Items[2:]
	var doc *sexpr.Node
	if n := len(rest); n > 1 && rest[n-1].Kind == sexpr.String {
		doc, rest = rest[n-1], rest[:n-1]
	}
	var s *ojson.Value
	var err error
	if len(rest) == 1 && !p.seedVariant(rest[0]) {
		s, err = cv.schema(rest[0])
	} else {
		s, err = cv.seedVariants(rest, "oneOf")
	}
	if err != nil {
		return err
	}
	if doc != nil {
		s = asObject(s)
		if s.Has("description") {
			return sexpr.Errorf(doc, "type %s has a description twice", d.name)
		}
		s.Set("description", ojson.NewString(doc.Text))
	}
	d.schema, d.deps, d.state = s, cv.used, 2
	return nil
}

// seedVariant recognises the design notes' variant form (CODE NAME PARAM*)
// or (NAME PARAM*): a list whose head is not a type.
func (p *parser) seedVariant(n *sexpr.Node) bool {
	if n.Kind != sexpr.List || len(n.Items) == 0 {
		return false
	}
	h := n.Items[0]
	if h.Kind != sexpr.Symbol {
		return false
	}
	if typeHeads[h.Text] || p.isTypeWord(h.Text) {
		return false
	}
	for _, it := range n.Items[1:] {
		if it.Kind != sexpr.List && !(it.Kind == sexpr.Symbol && it == n.Items[1]) {
			return false
		}
	}
	return true
}

func (p *parser) isTypeWord(s string) bool {
	if _, ok := simpleTypes[s]; ok {
		return true
	}
	if _, ok := readerTypeAliases[s]; ok {
		return true
	}
	if s == "any" || s == "never" || s == "bytes" {
		return true
	}
	_, ok := p.types[s]
	return ok
}

// seedVariants turns variant forms into objects tagged by SeedTag; several
// variants combine with oneOf (deftype) or the given keyword.
func (cv *conv) seedVariants(vs []*sexpr.Node, comb string) (*ojson.Value, error) {
	var out []*ojson.Value
	for _, v := range vs {
		if !cv.p.seedVariant(v) {
			return nil, sexpr.Errorf(v, "expected a variant (TAG PARAM ...) or (CODE TAG PARAM ...), found %s", sexpr.Describe(v))
		}
		items := v.Items
		tag := items[0].Text
		rest := items[1:]
		if len(rest) > 0 && rest[0].Kind == sexpr.Symbol {
			tag, rest = rest[0].Text, rest[1:]
		}
		o, err := cv.variant(SeedTag, tag, rest, v, true)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	if len(out) == 1 {
		return out[0], nil
	}
	return ojson.NewObject().Set(comb, ojson.NewArray(out...)), nil
}

// variant builds one tagged object: the tag property first, then the
// variant's parameters.
// A design-notes variant that has a parameter of its own named like SeedTag
// (seed's (deftype Join (join ... (type :inner|:left|:right) ...))) is read as
// a plain record.
func (cv *conv) variant(tagProp, tag string, items []*sexpr.Node, at *sexpr.Node, seed bool) (*ojson.Value, error) {
	props, req, pairs, err := cv.recItems(items, at)
	if err != nil {
		return nil, err
	}
	all := ojson.NewObject()
	reqArr := ojson.NewArray()
	if props.Has(tagProp) {
		if !seed {
			return nil, sexpr.Errorf(at, "variant %s has a parameter named like its tag property %s", tag, tagProp)
		}
	} else {
		all.Set(tagProp, ojson.NewObject().Set("const", ojson.NewString(tag)))
		reqArr.Items = append(reqArr.Items, ojson.NewString(tagProp))
	}
	all.Members = append(all.Members, props.Members...)
	o := ojson.NewObject().Set("type", ojson.NewString("object")).Set("properties", all)
	for _, r := range req {
		reqArr.Items = append(reqArr.Items, ojson.NewString(r))
	}
	if len(reqArr.Items) > 0 {
		o.Set("required", reqArr)
	}
	if err := cv.pairs(o, pairs); err != nil {
		return nil, err
	}
	return o, nil
}

// recItems reads PARAM*, (opt PARAM*), then keyword pairs (and the :closed
// flag), as records, tool entries and variants write them.
func (cv *conv) recItems(items []*sexpr.Node, at *sexpr.Node) (*ojson.Value, []string, []*sexpr.Node, error) {
	props := ojson.NewObject()
	var req []string
	add := func(n *sexpr.Node, optional bool) error {
		name, s, opt, err := cv.param(n)
		if err != nil {
			return err
		}
		if props.Has(name) {
			return sexpr.Errorf(n, "parameter %s is declared twice", name)
		}
		props.Set(name, s)
		if !optional && !opt {
			req = append(req, name)
		}
		return nil
	}
	for i, it := range items {
		switch {
		case it.Kind == sexpr.Keyword:
			return props, req, items[i:], nil
		case it.Head() == "opt":
			for _, o := range it.Items[1:] {
				if err := add(o, true); err != nil {
					return nil, nil, nil, err
				}
			}
		case it.Kind == sexpr.List:
			if err := add(it, false); err != nil {
				return nil, nil, nil, err
			}
		default:
			return nil, nil, nil, sexpr.Errorf(it, "expected a parameter (name TYPE [\"doc\"]), an (opt ...) group or a :keyword, found %s", sexpr.Describe(it))
		}
	}
	return props, req, nil, nil
}

// param reads (name TYPE ["doc"] [:default V]); the design notes' forms
// (name TYPE DEFAULT) and (name (opt T)) are accepted too, the latter making
// the parameter optional.
func (cv *conv) param(n *sexpr.Node) (string, *ojson.Value, bool, error) {
	if n.Kind != sexpr.List || len(n.Items) == 0 {
		return "", nil, false, sexpr.Errorf(n, "expected a parameter (name TYPE [\"doc\"]), found %s", sexpr.Describe(n))
	}
	nm := n.Items[0]
	if nm.Kind != sexpr.Symbol && nm.Kind != sexpr.String {
		return "", nil, false, sexpr.Errorf(nm, "expected a parameter name (a symbol or a string), found %s", sexpr.Describe(nm))
	}
	if len(n.Items) < 2 {
		return "", nil, false, sexpr.Errorf(n, "parameter %s has no type; expected (%s TYPE)", nm.Text, nm.Text)
	}
	tn := n.Items[1]
	s, err := cv.schema(tn)
	if err != nil {
		return "", nil, false, err
	}
	s = asObject(s)
	optional := tn.Head() == "opt"
	rest := n.Items[2:]
	var doc, def *sexpr.Node
	var defVal *ojson.Value
	for i := 0; i < len(rest); i++ {
		it := rest[i]
		switch {
		case it.Kind == sexpr.String && doc == nil:
			doc = it
		case it.Kind == sexpr.Keyword && it.Text == "default" && i+1 < len(rest) && def == nil:
			def = rest[i+1]
			i++
		case it.Kind != sexpr.List && it.Kind != sexpr.Symbol && it.Kind != sexpr.String && def == nil:
			def = it // positional default, as in (enc :utf8|:base64 :utf8)
		default:
			return "", nil, false, sexpr.Errorf(it, "unexpected %s in parameter %s; expected a \"doc\" string and/or :default VALUE", sexpr.Describe(it), nm.Text)
		}
	}
	if doc != nil {
		if s.Has("description") {
			return "", nil, false, sexpr.Errorf(doc, "parameter %s has a description twice", nm.Text)
		}
		s.Set("description", ojson.NewString(doc.Text))
	}
	if def != nil {
		if defVal, err = dataOf(def, 0); err != nil {
			return "", nil, false, err
		}
		if s.Has("default") {
			return "", nil, false, sexpr.Errorf(def, "parameter %s has a default twice", nm.Text)
		}
		s.Set("default", defVal)
	}
	return nm.Text, s, optional, nil
}

// asObject turns boolean schemas into their object equivalents so keywords
// can be added.
func asObject(s *ojson.Value) *ojson.Value {
	if s.Kind == ojson.Bool {
		if s.Bool {
			return ojson.NewObject()
		}
		return ojson.NewObject().Set("not", ojson.NewObject())
	}
	return s
}

// declareHeader reads the optional :server NAME that opens the declare form
// of one server's tools in a merged list, and returns the tool forms after
// it.
func declareHeader(d *sexpr.Node) (server string, tools []*sexpr.Node, err error) {
	items := d.Items[1:]
	if len(items) == 0 || items[0].Kind != sexpr.Keyword {
		return "", items, nil
	}
	if items[0].Text != "server" {
		return "", nil, sexpr.Errorf(items[0], "expected :server NAME or a tool declaration after declare, found %s", sexpr.Describe(items[0]))
	}
	if len(items) < 2 || (items[1].Kind != sexpr.Symbol && items[1].Kind != sexpr.String) || items[1].Text == "" {
		return "", nil, sexpr.Errorf(items[0], "expected a server name after :server")
	}
	return items[1].Text, items[2:], nil
}
