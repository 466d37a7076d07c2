package live

import (
	"fmt"
	"sync"

	"github.com/mcpterm/mcpterm/convert"
	"github.com/mcpterm/mcpterm/convert/aql"
	"github.com/mcpterm/mcpterm/convert/term"
	"github.com/mcpterm/mcpterm/convert/toolset"
	"github.com/mcpterm/mcpterm/ui"
)

// Renderer is the convert form registry plus the per-operation AQL
// introspect answer, which is not a whole-server form: a model fetches it
// for one operation when it needs it.
type Renderer struct {
	ui.FormsRenderer
	Overrides aql.Overrides

	mu      sync.Mutex
	set     *toolset.Set // the set the cached adapter was built for
	adapter *aql.Adapter
	err     error
}

const introspectForm = "aql_introspect"

// Forms adds the introspect view after the registry's forms.
func (r *Renderer) Forms() []string {
	forms := r.FormsRenderer.Forms()
	for _, f := range forms {
		if f == introspectForm {
			return forms
		}
	}
	if len(forms) == 1 && forms[0] == "json_full" {
		return append([]string{introspectForm}, forms...)
	}
	return append(forms, introspectForm)
}

// RenderTool renders one tool; for aql_introspect it is the answer to
// {"operation": "introspect", "params": {"query": "operations", "name": OP}}.
func (r *Renderer) RenderTool(form string, set *toolset.Set, tool *toolset.Tool) (string, error) {
	if form != introspectForm {
		return r.FormsRenderer.RenderTool(form, set, tool)
	}
	a, err := r.adapterFor(set)
	if err != nil {
		return "", err
	}
	op := a.ForTool(tool.Name)
	if op == nil {
		return "", fmt.Errorf("tool %q has no AQL operation", tool.Name)
	}
	return a.OperationDetails(op.Name).Pretty(), nil
}

// Render renders a whole set; aql_introspect is every operation's answer.
func (r *Renderer) Render(form string, set *toolset.Set) (string, error) {
	if form != introspectForm {
		return r.FormsRenderer.Render(form, set)
	}
	a, err := r.adapterFor(set)
	if err != nil {
		return "", err
	}
	return a.RenderIntrospect(), nil
}

func (r *Renderer) adapterFor(set *toolset.Set) (*aql.Adapter, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.set != set {
		r.set = set
		r.adapter, r.err = aql.New(set, r.Overrides, aql.Single)
	}
	return r.adapter, r.err
}

// ToolNote says what a term form left out of the tool (not model-facing
// parts) and what the lean form dropped, as convert/term accounts for it.
func (r *Renderer) ToolNote(form string, set *toolset.Set, tool *toolset.Tool) string {
	switch form {
	case introspectForm:
		return "what a model reads back from introspect for this operation, on top of the upfront AQL tool"
	case "dts":
		return "TypeScript declaration of the model-facing tool"
	}
	o, ok := convert.TermOptions(form)
	if !ok {
		return ""
	}
	d, err := term.Render(convert.Single(set, tool), o)
	if err != nil {
		return ""
	}
	return d.Summary()
}

// Classifier gives each tool its CRUDE category through convert/aql (with
// the user's overrides), cached per tool list.
type Classifier struct {
	Overrides aql.Overrides

	mu    sync.Mutex
	set   *toolset.Set
	cache map[string]string
}

func (c *Classifier) Category(set *toolset.Set, tool *toolset.Tool) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.set != set || c.cache == nil {
		c.set = set
		c.cache = map[string]string{}
		if a, err := aql.New(set, c.Overrides, aql.Single); err == nil {
			for _, op := range a.Ops {
				c.cache[op.Tool.Name] = string(op.Category())
			}
		}
	}
	if cat, ok := c.cache[tool.Name]; ok {
		return cat
	}
	return string(aql.Classify(tool).Category)
}

var (
	_ ui.Renderer   = (*Renderer)(nil)
	_ ui.ToolNoter  = (*Renderer)(nil)
	_ ui.Classifier = (*Classifier)(nil)
)
