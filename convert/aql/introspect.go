package aql

import (
	"strings"
	"unicode/utf8"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// briefMax bounds an operation's description in the operations list: the
// list is what a model reads first, details come from a by-name query.
const briefMax = 120

// introspectDescription describes the built-in operation.
const introspectDescription = "Discover operations and types: query \"operations\" or \"types\", optional name for details"

// brief is the first sentence of a description, cut to briefMax runes.
func brief(desc string) string {
	desc = strings.Join(strings.Fields(desc), " ")
	for i := 0; i+1 < len(desc); i++ {
		if desc[i] == '.' && desc[i+1] == ' ' {
			desc = desc[:i+1]
			break
		}
	}
	if utf8.RuneCountInString(desc) > briefMax {
		r := []rune(desc)
		desc = strings.TrimSpace(string(r[:briefMax-1])) + "…"
	}
	return desc
}

// protocolMeta is the _protocol object of the operations list (introspection 4.1.1).
func (a *Adapter) protocolMeta() *ojson.Value {
	return ojson.NewObject().
		Set("version", ojson.NewString(SpecVersion)).
		Set("mode", ojson.NewString(a.Mode.String())).
		Set("capabilities", ojson.NewObject().
			Set("batch", ojson.NewBool(true)).
			Set("field_selection", ojson.NewBool(true)))
}

// mcpTool is the MCP tool that carries a category in the adapter's mode.
func (a *Adapter) mcpTool(c Category) string {
	if a.Mode == Semantic {
		return c.Tool()
	}
	return SingleTool
}

func opInfo(name string, c Category, desc string) *ojson.Value {
	return ojson.NewObject().
		Set("name", ojson.NewString(name)).
		Set("semantic_category", ojson.NewString(string(c))).
		Set("endpoint", ojson.NewString(c.Family())).
		Set("description", ojson.NewString(brief(desc)))
}

// ListOperations is the data of {"query": "operations"}: _protocol and an
// OperationInfo per operation, introspect included, in CRUDE order.
func (a *Adapter) ListOperations() *ojson.Value {
	list := ojson.NewArray()
	for _, c := range categories {
		if c == Read {
			list.Items = append(list.Items, opInfo("introspect", Read, introspectDescription))
		}
		for _, op := range a.ByCategory(c) {
			list.Items = append(list.Items, opInfo(op.Name, c, op.Tool.Description))
		}
	}
	return ojson.NewObject().Set("_protocol", a.protocolMeta()).Set("operations", list)
}

// OperationDetails is the OperationDetails object for one operation, or nil
// when there is none of that name ("introspect" included).
func (a *Adapter) OperationDetails(name string) *ojson.Value {
	if name == "introspect" {
		return a.introspectDetails()
	}
	op := a.byName[name]
	if op == nil {
		return nil
	}
	c := op.Category()
	// The operation's own flags, as its annotations and mcpterm's rule
	// give them (Operation.ReadOnly): a READ by name alone is not
	// promised read-only.
	ro, de := op.ReadOnly(), op.Destructive()
	o := ojson.NewObject().
		Set("name", ojson.NewString(op.Name)).
		Set("semantic_category", ojson.NewString(string(c))).
		Set("endpoint", ojson.NewString(c.Family())).
		Set("mcpTool", ojson.NewString(a.mcpTool(c)))
	desc := op.Tool.Description
	if desc == "" {
		desc = op.Tool.Title
	}
	o.Set("description", ojson.NewString(desc))
	o.Set("permissions", ojson.NewObject().Set("readOnly", ojson.NewBool(ro)).Set("destructive", ojson.NewBool(de)))
	o.Set("parameters", op.parameterInfos())
	o.Set("returns", op.returns())
	o.Set("examples", ojson.NewArray(ojson.NewObject().Set("request", op.example())))
	return o
}

func (a *Adapter) introspectDetails() *ojson.Value {
	return ojson.NewObject().
		Set("name", ojson.NewString("introspect")).
		Set("semantic_category", ojson.NewString(string(Read))).
		Set("endpoint", ojson.NewString(Read.Family())).
		Set("mcpTool", ojson.NewString(a.mcpTool(Read))).
		Set("description", ojson.NewString(introspectDescription)).
		Set("permissions", ojson.NewObject().Set("readOnly", ojson.NewBool(true)).Set("destructive", ojson.NewBool(false))).
		Set("parameters", ojson.NewArray(
			ojson.NewObject().Set("name", ojson.NewString("query")).Set("type", ojson.NewString("string")).
				Set("required", ojson.NewBool(true)).Set("enum", strArray([]string{"operations", "types"})),
			ojson.NewObject().Set("name", ojson.NewString("name")).Set("type", ojson.NewString("string")).
				Set("required", ojson.NewBool(false)).Set("description", ojson.NewString("an operation or type name, for its details")),
		)).
		Set("returns", ojson.NewObject().Set("name", ojson.NewString("IntrospectionResult")).Set("kind", ojson.NewString("object"))).
		Set("examples", ojson.NewArray(ojson.NewObject().Set("request", introspectRequest("operations", ""))))
}

// parameterInfos renders the spec's ParameterInfo list, in schema order,
// followed by the adapter's own input (UPDATE) and fields parameters.
func (op *Operation) parameterInfos() *ojson.Value {
	b := newWalker(op.ctx)
	list := ojson.NewArray()
	for _, p := range op.Params {
		list.Items = append(list.Items, b.info(p.Name, p.Schema, p.Required, 0))
	}
	if op.Input {
		list.Items = append(list.Items, ojson.NewObject().
			Set("name", ojson.NewString("input")).
			Set("type", ojson.NewString("object")).
			Set("required", ojson.NewBool(false)).
			Set("description", ojson.NewString("the fields to change, beside the identifiers (UPDATE convention)")))
	}
	if op.Fields {
		list.Items = append(list.Items, ojson.NewObject().
			Set("name", ojson.NewString("fields")).
			Set("type", ojson.NewString("array")).
			Set("required", ojson.NewBool(false)).
			Set("description", ojson.NewString("dot paths to keep in the result")).
			Set("items", ojson.NewObject().Set("type", ojson.NewString("string"))))
	}
	return list
}

// returns is the TypeInfo of the result: the output schema's type when the
// tool declares one, else the tool's content.
func (op *Operation) returns() *ojson.Value {
	if op.Tool.OutputSchema != nil {
		o := ojson.NewObject().
			Set("name", ojson.NewString(resultTypeName(op.Name))).
			Set("kind", ojson.NewString("object"))
		copyDescription(o, op.Tool.OutputSchema, nil)
		return o
	}
	return ojson.NewObject().Set("name", ojson.NewString("Content")).Set("kind", ojson.NewString("scalar"))
}

// resultTypeName: "get_todo" -> "GetTodoResult".
func resultTypeName(op string) string {
	var b strings.Builder
	for _, w := range strings.Split(op, "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	b.WriteString("Result")
	return b.String()
}

// example is a request with every required parameter, each holding its
// default, first enum value, or a placeholder of its type; arrays get one
// element and objects their required fields, so the shape is visible.
func (op *Operation) example() *ojson.Value {
	params := ojson.NewObject()
	b := newWalker(op.ctx)
	for _, p := range op.Params {
		if p.Required {
			params.Set(p.Name, exampleValue(b.info(p.Name, p.Schema, true, 0), 0))
		}
	}
	return ojson.NewObject().Set("operation", ojson.NewString(op.Name)).Set("params", params)
}

func exampleValue(info *ojson.Value, depth int) *ojson.Value {
	if d := info.Get("default"); d != nil {
		return d
	}
	if e := info.Get("enum"); e != nil && len(e.Items) > 0 {
		return e.Items[0]
	}
	t := info.Get("type").StringOr("any")
	if i := strings.IndexByte(t, ' '); i >= 0 {
		t = t[:i]
	}
	switch t {
	case "string":
		return ojson.NewString("<" + info.Get("name").StringOr("value") + ">")
	case "integer", "number":
		if m := info.Get("minimum"); m != nil && m.Kind == ojson.Number {
			return m
		}
		return ojson.NewInt(0)
	case "boolean":
		return ojson.NewBool(false)
	case "null":
		return ojson.NewNull()
	case "array":
		if it := info.Get("items"); it != nil && depth < 3 {
			return ojson.NewArray(exampleValue(it, depth+1))
		}
		return ojson.NewArray()
	}
	o := ojson.NewObject()
	if f := info.Get("fields"); f != nil && depth < 3 {
		for _, fi := range f.Items {
			if r := fi.Get("required"); r != nil && r.Bool {
				o.Set(fi.Get("name").StringOr(""), exampleValue(fi, depth+1))
			}
		}
	}
	return o
}

func introspectRequest(query, name string) *ojson.Value {
	p := ojson.NewObject().Set("query", ojson.NewString(query))
	if name != "" {
		p.Set("name", ojson.NewString(name))
	}
	return ojson.NewObject().Set("operation", ojson.NewString("introspect")).Set("params", p)
}

// Introspect answers an introspect request's params (already checked) with
// the full OperationResult.
func (a *Adapter) introspect(query, name string, hasName bool) *ojson.Value {
	switch {
	case query == "operations" && !hasName:
		return Success(a.ListOperations())
	case query == "operations":
		d := a.OperationDetails(name)
		if d == nil {
			d = ojson.NewNull() // the spec wants null, not an error (introspection 4.3)
		}
		return Success(ojson.NewObject().Set("operation", d))
	case !hasName:
		return Success(a.ListTypes())
	}
	d := a.TypeDetails(name)
	if d == nil {
		d = ojson.NewNull()
	}
	return Success(ojson.NewObject().Set("type", d))
}

// IntrospectCost is one introspection exchange: what a model sends and the
// answer it reads back, both as minified JSON, for the token report.
type IntrospectCost struct {
	Operation string // "" for the list and types answers
	Tool      string // the real tool name; "" for the list and types answers
	Category  Category
	Request   string
	Answer    string
}

// IntrospectCosts lists the answers a model would fetch: the operations
// list, the types list, then each operation's details in tool order. Their
// sizes are the cost AQL defers from the upfront tool definitions.
func (a *Adapter) IntrospectCosts() []IntrospectCost {
	out := []IntrospectCost{
		{Request: introspectRequest("operations", "").Compact(), Answer: a.introspect("operations", "", false).Compact()},
		{Request: introspectRequest("types", "").Compact(), Answer: a.introspect("types", "", false).Compact()},
	}
	for _, op := range a.Ops {
		out = append(out, IntrospectCost{
			Operation: op.Name,
			Tool:      op.Tool.Name,
			Category:  op.Category(),
			Request:   introspectRequest("operations", op.Name).Compact(),
			Answer:    a.introspect("operations", op.Name, true).Compact(),
		})
	}
	return out
}

// RenderIntrospect prints IntrospectCosts as JSON Lines, one
// {"request": ..., "response": ...} exchange per line; this is what
// `mcpterm convert --to aql-introspect` shows.
func (a *Adapter) RenderIntrospect() string {
	var b strings.Builder
	for _, c := range a.IntrospectCosts() {
		b.WriteString(`{"request":`)
		b.WriteString(c.Request)
		b.WriteString(`,"response":`)
		b.WriteString(c.Answer)
		b.WriteString("}\n")
	}
	return b.String()
}
