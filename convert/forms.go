// Package convert holds the pure renderings of a tool list. Forms lists every
// rendering by the name the CLI (--to) and the token report use, so a new form
// shows up everywhere by being added once here; Renderer renders one tool list
// in every form, whole and per tool, so every view of a tool's figure renders
// it by the same rule.
package convert

import (
	"strings"

	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/dts"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/termtool"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Form is one way of putting a tool list in front of a model.
type Form struct {
	Name        string // json, term, ... (the token report's key)
	CLIName     string // the --to value: json-pretty for json_pretty
	Description string
	// Render returns the whole document for the set, exactly as
	// `mcpterm convert --to CLIName` prints it.
	Render func(set *toolset.Set) (string, error)
}

// Forms lists the renderings in report order.
func Forms() []Form {
	return []Form{
		{Name: "json", CLIName: "json", Description: "model-facing baseline: [{name, description, input_schema}] minified", Render: renderJSON},
		{Name: "json_pretty", CLIName: "json-pretty", Description: "the baseline pretty-printed with two-space indents", Render: renderJSONPretty},
		{Name: "json_full", CLIName: "mcp", Description: "the tools/list result as the server sent it, minified", Render: renderMCP},
		{Name: "term", CLIName: "term", Description: "MCP-Term declarations of what the model receives (name, description, input schema), lossless; see docs/mcp-term.md", Render: termForm("term")},
		{Name: "term_lean", CLIName: "term-lean", Description: "MCP-Term with tool descriptions cut to one sentence and schema descriptions and titles dropped", Render: termForm("term_lean")},
		{Name: "term_full", CLIName: "term-full", Description: "MCP-Term of the whole tool: adds title, annotation flags and outputSchema (-> type); compare with json_full", Render: termForm("term_full")},
		{Name: "term_lazy", CLIName: "term-lazy", Description: "the gateway's term-lazy tool as the model receives it: the how-to and one line per tool, full declarations via (describe CODE)", Render: renderLazy},
		{Name: "dts", CLIName: "dts", Description: "TypeScript declarations: type aliases and an interface Tools", Render: dts.Render},
		{Name: "floor", CLIName: "floor", Description: "the floor: names, descriptions, property names, enum values and types joined by single spaces", Render: renderFloor},
		{Name: "aql_single", CLIName: "aql-single", Description: "MCP-AQL single mode: one mcp_aql tool, operations listed by name, details via introspect", Render: func(s *toolset.Set) (string, error) { return aql.RenderSingle(s, nil) }},
		{Name: "aql_semantic", CLIName: "aql-semantic", Description: "MCP-AQL semantic mode: mcp_aql_create|read|update|delete|execute, details via introspect", Render: func(s *toolset.Set) (string, error) { return aql.RenderSemantic(s, nil) }},
	}
}

// FormsFor is Forms with the AQL renderings classified by the user's
// overrides (--aql-map), so every count agrees with the categories and
// operation names the user chose.
func FormsFor(ov aql.Overrides) []Form {
	forms := Forms()
	if ov == nil {
		return forms
	}
	for i := range forms {
		switch forms[i].Name {
		case "aql_single":
			forms[i].Render = func(s *toolset.Set) (string, error) { return aql.RenderSingle(s, ov) }
		case "aql_semantic":
			forms[i].Render = func(s *toolset.Set) (string, error) { return aql.RenderSemantic(s, ov) }
		}
	}
	return forms
}

// FormByName finds a form by report name or CLI name.
func FormByName(name string) (Form, bool) {
	for _, f := range Forms() {
		if f.Name == name || f.CLIName == name {
			return f, true
		}
	}
	return Form{}, false
}

func renderJSON(set *toolset.Set) (string, error) { return set.Baseline().Compact(), nil }

func renderJSONPretty(set *toolset.Set) (string, error) { return set.Baseline().Pretty(), nil }

func renderMCP(set *toolset.Set) (string, error) { return set.Result().Compact(), nil }

// renderLazy is the term-lazy gateway's one tool for set, model-facing:
// the text `mcpterm serve --mode term-lazy` lists (termtool.LazyTool),
// in the json baseline's shape.
func renderLazy(set *toolset.Set) (string, error) {
	return termtool.LazyTool(termtool.Name, set, nil).ModelFacing(), nil
}

// ToolRenderer renders single tools of set as they appear in the whole
// server's document: Renderer's per-tool text, for callers that still take
// one string per tool (the workbench, until it holds a Renderer). For an
// AQL form the string is the introspect request and answer on two lines.
// Use NewRenderer instead: this one has no AQL overrides.
func ToolRenderer(set *toolset.Set) func(f Form, t *toolset.Tool) (string, error) {
	r := NewRenderer(set, nil)
	return func(f Form, t *toolset.Tool) (string, error) {
		texts, err := r.toolTexts(f, t)
		if err != nil {
			return "", err
		}
		parts := make([]string, len(texts))
		for i, x := range texts {
			parts[i] = x.Text
		}
		return strings.Join(parts, "\n"), nil
	}
}

// Single returns a set holding one tool of s, for per-tool counts.
func Single(s *toolset.Set, t *toolset.Tool) *toolset.Set {
	return &toolset.Set{Server: s.Server, Version: s.Version, Source: s.Source, Tools: []*toolset.Tool{t}}
}

// TermOptions returns the term.Options behind a term form, so commands that
// need the whole term.Document (not just its text) render exactly what the
// form renders.
func TermOptions(formName string) (term.Options, bool) {
	switch formName {
	case "term":
		return term.Options{ModelFacing: true}, true
	case "term_lean":
		return term.Options{Lean: true, ModelFacing: true}, true
	case "term_full":
		return term.Options{}, true
	}
	return term.Options{}, false
}

func renderTerm(opts term.Options) func(*toolset.Set) (string, error) {
	return func(set *toolset.Set) (string, error) {
		d, err := term.Render(set, opts)
		if err != nil {
			return "", err
		}
		return d.Text, nil
	}
}

func termForm(name string) func(*toolset.Set) (string, error) {
	opts, _ := TermOptions(name)
	return renderTerm(opts)
}
