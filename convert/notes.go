package convert

import "github.com/mcpterm/mcpterm/convert/term"

// ToolNote says in one line what a form's per-tool text is, and for the
// MCP-Term forms what it leaves out of the tool (parts no model sees) or
// drops from it (the lean form), as convert/term accounts for it, so a
// lossy or partial form says so next to its count. "" for an unknown form
// or tool.
func (r *Renderer) ToolNote(form, tool string) string {
	t := r.tool(tool)
	f, ok := r.Form(form)
	if t == nil || !ok {
		return ""
	}
	if _, isAQL := AQLMode(f.Name); isAQL {
		return "the introspect request for this operation and the answer a model reads back, paid on top of the upfront AQL tools"
	}
	switch f.Name {
	case LazyForm:
		return "the describe call for this tool and the declaration a model reads back, paid on top of the term-lazy tool's one-line listing"
	case "json":
		return "the baseline: what an LLM API receives, {name, description, input_schema} minified"
	case "json_pretty":
		return "the baseline indented"
	case "json_full":
		return "the tool as the server sent it"
	case "dts":
		return "TypeScript declaration of what the model receives (name, description, input schema)"
	case "floor":
		return "every meaningful string with no syntax at all: no lossless notation goes much below it"
	}
	opts, isTerm := TermOptions(f.Name)
	if !isTerm {
		return ""
	}
	if code, ok := r.shortCodes()[t.Name]; ok {
		opts.Codes = map[string]string{t.Name: code}
	}
	d, err := term.Render(Single(r.set, t), opts)
	if err != nil {
		return ""
	}
	if s := d.Summary(); s != "" {
		return s
	}
	return "lossless: the same input schema as the JSON"
}
