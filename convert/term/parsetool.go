package term

import (
	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/sexpr"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

var flagHints = map[string]struct {
	hint string
	val  bool
}{}

func init() {
	for h, f := range hintFlags {
		flagHints[f] = struct {
			hint string
			val  bool
		}{h, true}
		flagHints["not-"+f] = struct {
			hint string
			val  bool
		}{h, false}
	}
}

func (p *parser) tool(n *sexpr.Node) (*toolset.Tool, string, error) {
	if n.Kind != sexpr.List || len(n.Items) == 0 {
		return nil, "", sexpr.Errorf(n, "expected a tool declaration (CODE NAME PARAM* ...), found %s", sexpr.Describe(n))
	}
	items := n.Items
	code, name := "", ""
	h := items[0]
	if h.Kind != sexpr.Symbol && h.Kind != sexpr.String {
		return nil, "", sexpr.Errorf(h, "expected a short code or tool name, found %s", sexpr.Describe(h))
	}
	// (CODE NAME ...) whenever a symbol is followed by a symbol or string;
	// (NAME PARAM ...) otherwise.
	if len(items) > 1 && h.Kind == sexpr.Symbol && (items[1].Kind == sexpr.Symbol && !items[1].IsSym("->") ||
		items[1].Kind == sexpr.String) {
		code, name, items = h.Text, items[1].Text, items[2:]
	} else {
		name, items = h.Text, items[1:]
	}
	if name == "" {
		return nil, "", sexpr.Errorf(h, "tool name is empty")
	}
	cvIn := &conv{p: p, deps: map[string]bool{}}
	cvOut := &conv{p: p, deps: map[string]bool{}}
	var params []*sexpr.Node
	var out, inType, doc, title, extra, task *sexpr.Node
	var inPairs []*sexpr.Node
	closed := false
	ann := ojson.NewObject()
	for i := 0; i < len(items); i++ {
		it := items[i]
		switch {
		case it.IsSym("->"):
			if i+1 >= len(items) {
				return nil, "", sexpr.Errorf(it, "expected a result type after ->")
			}
			if out != nil {
				return nil, "", sexpr.Errorf(it, "tool %s has two result types", name)
			}
			out = items[i+1]
			i++
		case it.Kind == sexpr.Keyword:
			switch {
			case it.Text == "closed":
				closed = true
			case it.Text == "task":
				if i+1 >= len(items) || items[i+1].Kind != sexpr.Symbol || !taskSupports[items[i+1].Text] {
					return nil, "", sexpr.Errorf(it, "expected required, optional or forbidden after :task")
				}
				task = items[i+1]
				i++
			case it.Text == "title":
				if i+1 >= len(items) || items[i+1].Kind != sexpr.String {
					return nil, "", sexpr.Errorf(it, "expected a string after :title")
				}
				title = items[i+1]
				i++
			default:
				f, ok := flagHints[it.Text]
				if !ok {
					return nil, "", sexpr.Errorf(it, "unknown tool flag :%s; expected :ro :destructive :idempotent :open-world (or :not-...), :closed, :task WORD or :title \"T\"", it.Text)
				}
				ann.Set(f.hint, ojson.NewBool(f.val))
			}
		case it.Kind == sexpr.String:
			if doc != nil {
				return nil, "", sexpr.Errorf(it, "tool %s has a second doc string (the first is at %s)", name, doc.Pos)
			}
			doc = it
		case it.Head() == "in":
			inPairs = append(inPairs, it.Items[1:]...)
		case it.Head() == "input":
			if len(it.Items) != 2 {
				return nil, "", sexpr.Errorf(it, "expected (input TYPE)")
			}
			inType = it.Items[1]
		case it.Head() == "json":
			extra = it
		case it.Head() == "opt":
			params = append(params, it)
		case it.Kind == sexpr.Symbol, it.Kind == sexpr.List && (typeHeads[it.Head()] || p.builtinWord(it.Head())):
			// The design notes write the result type positionally.
			if out != nil {
				return nil, "", sexpr.Errorf(it, "tool %s has two result types", name)
			}
			out = it
		case it.Kind == sexpr.List:
			params = append(params, it)
		default:
			return nil, "", sexpr.Errorf(it, "unexpected %s in tool %s", sexpr.Describe(it), name)
		}
	}
	raw := ojson.NewObject().Set("name", ojson.NewString(name))
	if title != nil {
		raw.Set("title", ojson.NewString(title.Text))
	}
	if doc != nil {
		raw.Set("description", ojson.NewString(doc.Text))
	}
	var in *ojson.Value
	if inType != nil {
		if len(params) > 0 || closed || len(inPairs) > 0 {
			return nil, "", sexpr.Errorf(inType, "tool %s gives (input TYPE) and parameters; use one or the other", name)
		}
		s, err := cvIn.schema(inType)
		if err != nil {
			return nil, "", err
		}
		in = s
	} else {
		props, req, pairs, err := cvIn.recItems(params, n)
		if err != nil {
			return nil, "", err
		}
		if len(pairs) > 0 {
			return nil, "", sexpr.Errorf(pairs[0], "unexpected %s among parameters", sexpr.Describe(pairs[0]))
		}
		in = ojson.NewObject().Set("type", ojson.NewString("object")).Set("properties", props)
		if len(req) > 0 {
			arr := ojson.NewArray()
			for _, r := range req {
				arr.Items = append(arr.Items, ojson.NewString(r))
			}
			in.Set("required", arr)
		}
		if closed {
			in.Set("additionalProperties", ojson.NewBool(false))
		}
		if err := cvIn.pairs(in, inPairs); err != nil {
			return nil, "", err
		}
	}
	in, err := p.withDefs(in, cvIn)
	if err != nil {
		return nil, "", err
	}
	raw.Set("inputSchema", in)
	if out != nil {
		s, err := cvOut.schema(out)
		if err != nil {
			return nil, "", err
		}
		if s, err = p.withDefs(s, cvOut); err != nil {
			return nil, "", err
		}
		raw.Set("outputSchema", s)
	}
	if len(ann.Members) > 0 {
		raw.Set("annotations", ann)
	}
	if task != nil {
		raw.Set("execution", ojson.NewObject().Set("taskSupport", ojson.NewString(task.Text)))
	}
	if extra != nil {
		if len(extra.Items) != 2 || extra.Items[1].Kind != sexpr.String {
			return nil, "", sexpr.Errorf(extra, "expected (json \"{...}\") with a JSON object of further tool fields")
		}
		v, err := ojson.Parse([]byte(extra.Items[1].Text))
		if err != nil || v.Kind != ojson.Object {
			return nil, "", sexpr.Errorf(extra.Items[1], "expected a JSON object of further tool fields: %v", errOrKind(err, v))
		}
		merge(raw, v)
	}
	t, err := toolset.ToolFromValue(raw)
	if err != nil {
		return nil, "", sexpr.Errorf(n, "%v", err)
	}
	return t, code, nil
}

func (p *parser) builtinWord(s string) bool {
	if _, ok := simpleTypes[s]; ok {
		return true
	}
	return s == "any" || s == "never" || s == "bytes"
}

func errOrKind(err error, v *ojson.Value) string {
	if err != nil {
		return err.Error()
	}
	return "found a " + v.Kind.String()
}

// merge adds src's members to dst, merging nested objects.
func merge(dst, src *ojson.Value) {
	for _, m := range src.Members {
		if cur := dst.Get(m.Key); cur != nil && cur.Kind == ojson.Object && m.Value.Kind == ojson.Object {
			merge(cur, m.Value)
			continue
		}
		dst.Set(m.Key, m.Value)
	}
}

// withDefs attaches the deftypes a schema needs, transitively, as $defs, in
// document order.
func (p *parser) withDefs(s *ojson.Value, cv *conv) (*ojson.Value, error) {
	if len(cv.used) == 0 {
		return s, nil
	}
	need := map[string]bool{}
	queue := append([]string(nil), cv.used...)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if need[n] {
			continue
		}
		need[n] = true
		queue = append(queue, p.types[n].deps...)
	}
	defs := ojson.NewObject()
	for _, name := range p.order {
		if need[name] {
			defs.Set(name, p.types[name].schema.Clone())
		}
	}
	s = asObject(s)
	if own := s.Get("$defs"); own != nil {
		// A raw escape at the top brought $defs of its own: merge when the
		// names are free, otherwise nest the escape so ours sit at the root.
		clash := own.Kind != ojson.Object
		for _, m := range defs.Members {
			if own.Has(m.Key) {
				clash = true
			}
		}
		if !clash {
			own.Members = append(own.Members, defs.Members...)
			return s, nil
		}
		s = ojson.NewObject().Set("allOf", ojson.NewArray(s))
	}
	s.Set("$defs", defs)
	return s, nil
}

// dataOf reads MCP-Term data as a JSON value: keywords are strings, (v ...)
// arrays, (obj :k v ...) objects, (json "...") raw JSON.
func dataOf(n *sexpr.Node, depth int) (*ojson.Value, error) {
	if depth > ojson.MaxDepth {
		return nil, sexpr.Errorf(n, "data nested too deeply")
	}
	switch n.Kind {
	case sexpr.Nil:
		return ojson.NewNull(), nil
	case sexpr.Bool:
		return ojson.NewBool(n.Bool), nil
	case sexpr.Number:
		return ojson.NewNumber(n.Text), nil
	case sexpr.String, sexpr.Keyword:
		return ojson.NewString(n.Text), nil
	case sexpr.Symbol:
		return nil, sexpr.Errorf(n, "expected a value, found symbol %s (write strings in double quotes)", n.Text)
	}
	switch n.Head() {
	case "obj":
		o := ojson.NewObject()
		items := n.Items[1:]
		if len(items)%2 != 0 {
			return nil, sexpr.Errorf(n, "expected (obj KEY VALUE ...) with a value for every key")
		}
		for i := 0; i < len(items); i += 2 {
			k := items[i]
			if k.Kind != sexpr.Keyword && k.Kind != sexpr.String {
				return nil, sexpr.Errorf(k, "expected an object key (:key or \"key\"), found %s", sexpr.Describe(k))
			}
			v, err := dataOf(items[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			o.Set(k.Text, v)
		}
		return o, nil
	case "json":
		if len(n.Items) != 2 || n.Items[1].Kind != sexpr.String {
			return nil, sexpr.Errorf(n, "expected (json \"...\") holding one JSON value")
		}
		v, err := ojson.Parse([]byte(n.Items[1].Text))
		if err != nil {
			return nil, sexpr.Errorf(n.Items[1], "invalid JSON in (json ...): %v", err)
		}
		return v, nil
	}
	arr := ojson.NewArray()
	for _, it := range n.Items {
		v, err := dataOf(it, depth+1)
		if err != nil {
			return nil, err
		}
		arr.Items = append(arr.Items, v)
	}
	return arr, nil
}
