package aql

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// typeEntry is one type `introspect types` knows: a protocol type, a
// $defs/definitions entry of some tool, or an operation's declared result.
type typeEntry struct {
	name, kind, desc string
	schema           *ojson.Value // nil for protocol types
	ctx              *schemaCtx
	ref              string       // "#/$defs/Name" for definitions, so self-references stop at once
	detail           *ojson.Value // protocol types: the fixed details
}

// protocolTypes are the spec's protocol-level types (introspection 5.3),
// described from the spec's prose.
func protocolTypes() []typeEntry {
	field := func(name, typ string, req bool, desc string) *ojson.Value {
		return ojson.NewObject().Set("name", ojson.NewString(name)).Set("type", ojson.NewString(typ)).
			Set("required", ojson.NewBool(req)).Set("description", ojson.NewString(desc))
	}
	obj := func(name, desc string, fields ...*ojson.Value) typeEntry {
		d := ojson.NewObject().Set("name", ojson.NewString(name)).Set("kind", ojson.NewString("object")).
			Set("description", ojson.NewString(desc)).Set("fields", ojson.NewArray(fields...))
		return typeEntry{name: name, kind: "object", desc: desc, detail: d}
	}
	cats := make([]string, len(categories))
	for i, c := range categories {
		cats[i] = string(c)
	}
	return []typeEntry{
		{name: "SemanticCategory", kind: "enum", desc: "Standard categories for operation classification",
			detail: ojson.NewObject().Set("name", ojson.NewString("SemanticCategory")).Set("kind", ojson.NewString("enum")).
				Set("description", ojson.NewString("Standard categories for operation classification")).Set("values", strArray(cats))},
		obj("OperationInput", "Input of every operation",
			field("operation", "string", true, "the operation to perform"),
			field("params", "object", false, "operation parameters")),
		{name: "OperationResult", kind: "union", desc: "Result of every operation",
			detail: ojson.NewObject().Set("name", ojson.NewString("OperationResult")).Set("kind", ojson.NewString("union")).
				Set("description", ojson.NewString("Result of every operation")).
				Set("members", strArray([]string{"OperationSuccess", "OperationFailure"}))},
		obj("OperationSuccess", "Successful result",
			field("success", "boolean", true, "true"),
			field("data", "any", true, "operation-specific payload")),
		obj("OperationFailure", "Failed result",
			field("success", "boolean", true, "false"),
			field("error", "object", true, "{code, message, details?}")),
		{name: "Content", kind: "scalar", desc: "A tool's result without an output schema: parsed JSON when the tool returns JSON text, else its text or content blocks",
			detail: ojson.NewObject().Set("name", ojson.NewString("Content")).Set("kind", ojson.NewString("scalar")).
				Set("description", ojson.NewString("A tool's result without an output schema: parsed JSON when the tool returns JSON text, else its text or content blocks"))},
		obj("EndpointPermissions", "Permission flags of an operation",
			field("readOnly", "boolean", true, "the operation does not modify state"),
			field("destructive", "boolean", true, "the operation may remove or overwrite state")),
	}
}

// collectTypes gathers protocol types, every tool's $defs (an identical
// definition shared by several tools is listed once; a different one under
// a taken name is prefixed with its operation), and declared result types.
func collectTypes(ops []*Operation) []typeEntry {
	out := protocolTypes()
	index := map[string]int{}
	for i, t := range out {
		index[t.name] = i
	}
	add := func(e typeEntry, op string) {
		if i, ok := index[e.name]; ok {
			if out[i].schema != nil && ojson.Equal(out[i].schema, e.schema) {
				return
			}
			e.name = op + "." + e.name
			if _, ok := index[e.name]; ok {
				return
			}
		}
		index[e.name] = len(out)
		out = append(out, e)
	}
	for _, op := range ops {
		for _, key := range []string{"$defs", "definitions"} {
			defs := op.Tool.InputSchema.Get(key)
			if defs == nil || defs.Kind != ojson.Object {
				continue
			}
			for _, m := range defs.Members {
				ref := "#/" + key + "/" + strings.ReplaceAll(strings.ReplaceAll(m.Key, "~", "~0"), "/", "~1")
				add(typeEntry{name: m.Key, kind: newWalker(op.ctx).kindOf(m.Value), desc: m.Value.Get("description").StringOr(""), schema: m.Value, ctx: op.ctx, ref: ref}, op.Name)
			}
		}
	}
	for _, op := range ops {
		if os := op.Tool.OutputSchema; os != nil {
			add(typeEntry{name: resultTypeName(op.Name), kind: "object", desc: os.Get("description").StringOr(""), schema: os, ctx: &schemaCtx{root: os}}, op.Name)
		}
	}
	return out
}

// kindOf is the TypeKind of a schema: enum, union, object or scalar.
func (b *walker) kindOf(s *ojson.Value) string {
	res, _, ok := b.ctx.deref(s)
	if !ok || res == nil || res.Kind != ojson.Object {
		return "scalar"
	}
	branches, _ := b.alternatives(res)
	switch {
	case enumValues(res, branches) != nil:
		return "enum"
	case len(branches) > 1:
		return "union"
	}
	for _, t := range b.jsonTypes(res) {
		if t == "object" {
			return "object"
		}
	}
	return "scalar"
}

// ListTypes is the data of {"query": "types"}.
func (a *Adapter) ListTypes() *ojson.Value {
	list := ojson.NewArray()
	for _, t := range a.types {
		o := ojson.NewObject().Set("name", ojson.NewString(t.name)).Set("kind", ojson.NewString(t.kind))
		if t.desc != "" {
			o.Set("description", ojson.NewString(brief(t.desc)))
		}
		list.Items = append(list.Items, o)
	}
	return ojson.NewObject().Set("types", list)
}

// TypeDetails is the TypeDetails object of a type, or nil.
func (a *Adapter) TypeDetails(name string) *ojson.Value {
	for _, t := range a.types {
		if t.name != name {
			continue
		}
		if t.detail != nil {
			return t.detail.Clone() // shared by every answer; callers may change their copy
		}
		o := ojson.NewObject().Set("name", ojson.NewString(t.name)).Set("kind", ojson.NewString(t.kind))
		if t.desc != "" {
			o.Set("description", ojson.NewString(t.desc))
		}
		b := newWalker(t.ctx)
		if t.ref != "" {
			b.stack = append(b.stack, t.ref)
		}
		res, _, _ := t.ctx.deref(t.schema)
		switch t.kind {
		case "enum":
			branches, _ := b.alternatives(res)
			vals := ojson.NewArray()
			for _, v := range enumValues(res, branches).Items {
				if v.Kind == ojson.String {
					vals.Items = append(vals.Items, v)
				} else {
					vals.Items = append(vals.Items, ojson.NewString(v.Compact()))
				}
			}
			o.Set("values", vals)
		case "union":
			branches, nulls := b.alternatives(res)
			members := ojson.NewArray()
			for _, br := range branches {
				if r := br.Get("$ref"); r != nil && r.Kind == ojson.String {
					members.Items = append(members.Items, ojson.NewString(refName(r.Str)))
				} else {
					members.Items = append(members.Items, ojson.NewString(b.typeName(br)))
				}
			}
			if nulls {
				members.Items = append(members.Items, ojson.NewString("null"))
			}
			o.Set("members", members)
			vs := ojson.NewArray()
			for _, br := range branches {
				vs.Items = append(vs.Items, b.info("", br, false, 1))
			}
			o.Set("variants", vs)
		case "object":
			sh := b.objectShape(res)
			fields := ojson.NewArray()
			for _, p := range sh.props {
				fields.Items = append(fields.Items, b.info(p.name, p.schema, sh.required[p.name], 1))
			}
			o.Set("fields", fields)
		default:
			o.Set("type", ojson.NewString(b.typeName(res)))
		}
		return o
	}
	return nil
}
