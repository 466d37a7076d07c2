package aql

import (
	"fmt"
	"strings"

	"github.com/mcpterm/mcpterm/convert/ojson"
	"github.com/mcpterm/mcpterm/convert/toolset"
)

// Param is one top-level parameter of an operation.
type Param struct {
	// Name is the AQL name: snake_case when the schema's name can be
	// rewritten without a clash, else the schema's name unchanged.
	Name string
	// Real is the property name in the tool's input schema, the key sent
	// upstream. Calls accept it as an alias of Name.
	Real     string
	Required bool
	Schema   *ojson.Value
	types    []string // JSON types admitted at the top level; nil = any
}

// Operation is one tool seen as an AQL operation.
type Operation struct {
	Name   string
	Tool   *toolset.Tool
	Class  Classification
	Params []Param
	// Open is set when the tool's schema accepts parameters it does not
	// declare, which are then passed through instead of rejected.
	Open bool
	// Fields is set when the adapter's client-side `fields` projection is
	// available, i.e. the tool has no parameter of that name itself.
	Fields bool
	// Input is set for UPDATE operations that accept the spec's
	// params.input object (the tool has no "input" parameter of its own).
	Input bool
	ctx   *schemaCtx
}

// Category is the operation's semantic category.
func (op *Operation) Category() Category { return op.Class.Category }

// param finds a parameter by AQL name or by its real schema name.
func (op *Operation) param(key string) (p *Param, alias bool) {
	for i := range op.Params {
		if op.Params[i].Name == key {
			return &op.Params[i], false
		}
	}
	for i := range op.Params {
		if op.Params[i].Real == key {
			return &op.Params[i], true
		}
	}
	return nil, false
}

// ValidParams lists the names a call may use, as VALIDATION_UNKNOWN_PARAM
// reports them: the declared ones, then the adapter's own fields/input.
func (op *Operation) ValidParams() []string {
	out := make([]string, 0, len(op.Params)+2)
	for _, p := range op.Params {
		out = append(out, p.Name)
	}
	if op.Input {
		out = append(out, "input")
	}
	if op.Fields {
		out = append(out, "fields")
	}
	return out
}

// Adapter is a server's tool list seen through MCP-AQL in one mode.
type Adapter struct {
	Server string
	Mode   Mode
	Ops    []*Operation // in the server's tool order
	// Warnings are things the user should hear about but that do not stop
	// the adapter, e.g. override entries naming no tool of this server.
	Warnings []string
	byName   map[string]*Operation
	byTool   map[string]*Operation
	types    []typeEntry
	// unsuggest names tools NOT_FOUND_OPERATION never offers (Unsuggest).
	unsuggest func(tool string) bool
}

// Unsuggest keeps the operations of the tools f reports out of
// NOT_FOUND_OPERATION's did_you_mean and available lists: a policy's
// denied tools, so that a refusal never points at another tool the policy
// refuses. They still resolve, so the policy refuses them with its
// reason. Set it before the adapter is shared; nil suggests every one.
func (a *Adapter) Unsuggest(f func(tool string) bool) { a.unsuggest = f }

func (a *Adapter) suggestable(op *Operation) bool {
	return a.unsuggest == nil || !a.unsuggest(op.Tool.Name)
}

// New builds the adapter for a tool list. ov may be nil. It fails only when
// overrides contradict each other (two tools, one operation name) or name an
// invalid operation; override entries for unknown tools become Warnings.
func New(set *toolset.Set, ov Overrides, mode Mode) (*Adapter, error) {
	a := &Adapter{Server: set.Server, Mode: mode, byName: map[string]*Operation{}, byTool: map[string]*Operation{}}
	names := make([]string, len(set.Tools))
	fixed := make([]string, len(set.Tools))
	seen := map[string]string{}
	for i, t := range set.Tools {
		names[i] = t.Name
		if o, ok := ov[t.Name]; ok && o.Operation != "" {
			if !ValidName(o.Operation) || reserved[o.Operation] {
				return nil, fmt.Errorf("aql map: %q: operation %q is not a valid, unreserved snake_case name", t.Name, o.Operation)
			}
			if prev, dup := seen[o.Operation]; dup {
				return nil, fmt.Errorf("aql map: %q and %q both map to operation %q", prev, t.Name, o.Operation)
			}
			seen[o.Operation] = t.Name
			fixed[i] = o.Operation
		}
	}
	if unknown := ov.unknownTools(func(n string) bool { return set.Find(n) != nil }); len(unknown) > 0 {
		a.Warnings = append(a.Warnings, fmt.Sprintf("aql map: no tool named %s on this server; entry ignored", strings.Join(quoteAll(unknown), ", ")))
	}
	opNames := uniqueNames(names, fixed)
	for i, t := range set.Tools {
		op := &Operation{Name: opNames[i], Tool: t, Class: Classify(t), ctx: &schemaCtx{root: t.InputSchema}}
		if o, ok := ov[t.Name]; ok {
			if o.Category != "" {
				op.Class = Classification{Category: o.Category, Source: "override", Reason: fmt.Sprintf("--aql-map sets %s (would be %s: %s)", o.Category, op.Class.Category, op.Class.Reason)}
			}
			if o.Operation != "" && o.Category == "" {
				op.Class.Reason += "; name from --aql-map"
			}
		}
		op.buildParams()
		a.Ops = append(a.Ops, op)
		a.byName[op.Name] = op
		a.byTool[t.Name] = op
	}
	a.types = collectTypes(a.Ops)
	return a, nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// buildParams reads the top-level parameters and gives each an AQL name.
func (op *Operation) buildParams() {
	w := newWalker(op.ctx)
	sh := w.objectShape(op.Tool.InputSchema)
	op.Open = sh.open
	reals := map[string]bool{}
	for _, p := range sh.props {
		reals[p.name] = true
	}
	// A property keeps its own name when it is already snake_case, or when
	// its snake form would collide with another property or another rewrite.
	used := map[string]bool{}
	for _, p := range sh.props {
		if ValidName(p.name) {
			used[p.name] = true
		}
	}
	for _, p := range sh.props {
		name := p.name
		if !ValidName(name) {
			if sn := SnakeName(name); !reals[sn] && !used[sn] {
				name = sn
				used[sn] = true
			}
		}
		op.Params = append(op.Params, Param{
			Name:     name,
			Real:     p.name,
			Required: sh.required[p.name],
			Schema:   p.schema,
			types:    w.jsonTypes(p.schema),
		})
	}
	taken := func(n string) bool { p, _ := op.param(n); return p != nil }
	op.Fields = !taken("fields")
	op.Input = op.Class.Category == Update && !taken("input")
}

// Operation finds an operation by its AQL name.
func (a *Adapter) Operation(name string) *Operation { return a.byName[name] }

// ForTool finds the operation that stands for a real tool name; with
// Operation it makes the naming reversible.
func (a *Adapter) ForTool(tool string) *Operation { return a.byTool[tool] }

// ByCategory lists the operations of one category, in tool order.
func (a *Adapter) ByCategory(c Category) []*Operation {
	var out []*Operation
	for _, op := range a.Ops {
		if op.Category() == c {
			out = append(out, op)
		}
	}
	return out
}

// Endpoints lists the semantic-mode tools this server needs: every category
// with operations, and always READ, which carries introspect.
func (a *Adapter) Endpoints() []Category {
	var out []Category
	for _, c := range categories {
		if c == Read || len(a.ByCategory(c)) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// Overrides returns the adapter's current choices as a map file, a starting
// point for a user who wants to correct them.
func (a *Adapter) Overrides() Overrides {
	ov := Overrides{}
	for _, op := range a.Ops {
		ov[op.Tool.Name] = Override{Category: op.Category(), Operation: op.Name}
	}
	return ov
}
