package aql

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// purpose opens each semantic endpoint's description, after the spec's
// CRUDE templates (mcp-integration.md 2.1.1). READ's and CREATE's promises
// hold only when the annotations back them (hints); otherwise
// unbackedPurpose says what the endpoint really is.
var purpose = map[Category]string{
	Create:  "additive operations that add data without removing or overwriting any",
	Read:    "safe, read-only operations",
	Update:  "modifying operations that change existing data, possibly overwriting it",
	Delete:  "destructive operations that remove data; use with caution",
	Execute: "runtime and lifecycle operations; potentially destructive and not idempotent",
}

// unbackedPurpose replaces purpose when the endpoint's hints do not back
// the promise: READ holding an operation the server does not annotate
// read-only (classified by its name alone, say), CREATE holding one that
// may overwrite. A model reads the description, a client the hints; both
// must say the same.
var unbackedPurpose = map[Category]string{
	Read:   "operations that read, by their names; the server does not annotate every one read-only, so they are not promised safe",
	Create: "operations that add data, by their names; the server does not annotate every one non-destructive, so they may overwrite",
}

// purposeOf is the opening of c's description given its hints.
func purposeOf(c Category, readOnly, destructive bool) string {
	specRO, specDE := c.Permissions()
	if (specRO && !readOnly) || (!specDE && destructive) {
		if p, ok := unbackedPurpose[c]; ok {
			return p
		}
	}
	return purpose[c]
}

func (a *Adapter) serverName() string {
	if a.Server != "" {
		return a.Server
	}
	return "this server"
}

const detailsHint = `{"operation":"introspect","params":{"query":"operations","name":"<operation>"}}`

// opNames lists a category's operation names, introspect first for READ.
func (a *Adapter) opNames(c Category) []string {
	var names []string
	if c == Read {
		names = append(names, "introspect")
	}
	for _, op := range a.ByCategory(c) {
		names = append(names, op.Name)
	}
	return names
}

// baseSchema is the input schema every AQL tool uses (mcp-integration.md 3.1).
func baseSchema() *ojson.Value {
	return ojson.NewObject().
		Set("type", ojson.NewString("object")).
		Set("properties", ojson.NewObject().
			Set("operation", ojson.NewObject().Set("type", ojson.NewString("string")).Set("description", ojson.NewString("Operation name"))).
			Set("params", ojson.NewObject().Set("type", ojson.NewString("object")).Set("description", ojson.NewString("Operation parameters")))).
		Set("required", strArray([]string{"operation"}))
}

// singleDescription lists every operation by category, as the spec's
// single-mode template does, and says how to get details.
func (a *Adapter) singleDescription() string {
	var b strings.Builder
	b.WriteString("MCP-AQL adapter for " + a.serverName() + `: every operation goes through this tool as {"operation": "name", "params": {...}}.`)
	for _, c := range categories {
		names := a.opNames(c)
		if len(names) == 0 {
			continue
		}
		b.WriteString("\n" + string(c[:1]) + strings.ToLower(string(c[1:])) + ": " + strings.Join(names, ", "))
	}
	b.WriteString("\nParameters: " + detailsHint)
	return b.String()
}

func (a *Adapter) semanticDescription(c Category) string {
	var b strings.Builder
	ro, de := hints(c, a.ByCategory(c))
	b.WriteString(a.serverName() + ": " + purposeOf(c, ro, de) + `.` + "\n" + `Call as {"operation": "name", "params": {...}}.`)
	b.WriteString("\nOperations: " + strings.Join(a.opNames(c), ", "))
	if c == Read {
		b.WriteString("\nParameters: " + detailsHint)
	} else {
		b.WriteString("\nParameters, via " + Read.Tool() + ": " + detailsHint)
	}
	return b.String()
}

// Tools returns the MCP tool definitions {name, description, inputSchema,
// annotations} a server fronted by this adapter would list: mcp_aql in
// single mode, the non-empty mcp_aql_<category> tools in semantic mode.
// Annotations follow the spec (mcp-integration.md 2.3): a tool is only as
// safe as its riskiest operation, judged by the annotations and mcpterm's
// destructive rule, never by names (hints, Hints): mcp_aql_read is
// readOnlyHint: true only when every operation in it is annotated
// readOnlyHint: true and is not a DELETE.
func (a *Adapter) Tools() []*ojson.Value {
	def := func(name, desc string, ro, de bool) *ojson.Value {
		return ojson.NewObject().
			Set("name", ojson.NewString(name)).
			Set("description", ojson.NewString(desc)).
			Set("inputSchema", baseSchema()).
			Set("annotations", ojson.NewObject().Set("readOnlyHint", ojson.NewBool(ro)).Set("destructiveHint", ojson.NewBool(de)))
	}
	if a.Mode == Single {
		ro, de := a.singleHints()
		return []*ojson.Value{def(SingleTool, a.singleDescription(), ro, de)}
	}
	var out []*ojson.Value
	for _, c := range a.Endpoints() {
		ro, de := hints(c, a.ByCategory(c))
		out = append(out, def(c.Tool(), a.semanticDescription(c), ro, de))
	}
	return out
}

// ToolSet is Tools as a tool list, so the AQL form renders (and counts) in
// exactly the shape of the json baseline.
func (a *Adapter) ToolSet() *toolset.Set {
	s := &toolset.Set{Server: a.Server}
	for _, t := range a.Tools() {
		tool, err := toolset.ToolFromValue(t)
		if err != nil {
			continue // cannot happen: Tools builds valid definitions
		}
		s.Tools = append(s.Tools, tool)
	}
	return s
}

// Render is the model-facing document of the adapter's tools: the same
// minified [{name, description, input_schema}] array as the json form, so
// the token report compares like with like.
func (a *Adapter) Render() string { return a.ToolSet().Baseline().Compact() }

// RenderSingle is `mcpterm convert --to aql-single`.
func RenderSingle(set *toolset.Set, ov Overrides) (string, error) {
	a, err := New(set, ov, Single)
	if err != nil {
		return "", err
	}
	return a.Render(), nil
}

// RenderSemantic is `mcpterm convert --to aql-semantic`.
func RenderSemantic(set *toolset.Set, ov Overrides) (string, error) {
	a, err := New(set, ov, Semantic)
	if err != nil {
		return "", err
	}
	return a.Render(), nil
}

// RenderIntrospectSet is `mcpterm convert --to aql-introspect`: the
// introspection answers a model would fetch, one exchange per line.
func RenderIntrospectSet(set *toolset.Set, ov Overrides, mode Mode) (string, error) {
	a, err := New(set, ov, mode)
	if err != nil {
		return "", err
	}
	return a.RenderIntrospect(), nil
}

// IntrospectCostsFor is Adapter.IntrospectCosts for a tool list, for the
// token report: the upfront forms miss what a model reads back later, and
// these exchanges are that part of the cost.
func IntrospectCostsFor(set *toolset.Set, ov Overrides, mode Mode) ([]IntrospectCost, error) {
	a, err := New(set, ov, mode)
	if err != nil {
		return nil, err
	}
	return a.IntrospectCosts(), nil
}
