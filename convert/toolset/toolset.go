// Package toolset loads MCP tool lists in the shapes people actually keep them
// (a bare array, a tools/list result, a JSON-RPC response, the corpus wrapper)
// and keeps each tool's JSON exactly as the server sent it, key order included.
package toolset

import (
	"fmt"

	"github.com/mcpterm/mcpterm/convert/ojson"
)

// Tool is one MCP tool definition. The parsed fields are views into Raw, which
// stays the source of truth for "what the server sent".
type Tool struct {
	Name         string
	Title        string
	Description  string
	InputSchema  *ojson.Value // never nil after Parse; {"type":"object"} when absent
	OutputSchema *ojson.Value // nil when the tool declares none
	Annotations  Annotations
	Raw          *ojson.Value
	// Server names the upstream server the tool comes from when one list
	// merges several servers' tools (the gateway over a config); empty for
	// a single server's list, whose Set.Server says it. Renderers group
	// tools by it.
	Server string
}

// Annotations are the behaviour hints of MCP. A nil pointer means the server
// did not say; servers are not trusted to tell the truth either way.
type Annotations struct {
	Title           string
	ReadOnlyHint    *bool
	DestructiveHint *bool
	IdempotentHint  *bool
	OpenWorldHint   *bool
}

// ReadOnly reports an explicit readOnlyHint of true.
func (a Annotations) ReadOnly() bool { return a.ReadOnlyHint != nil && *a.ReadOnlyHint }

// Destructive follows the MCP default: a tool that is not read-only is
// destructive unless it says destructiveHint: false.
func (a Annotations) Destructive() bool {
	if a.ReadOnly() {
		return false
	}
	return a.DestructiveHint == nil || *a.DestructiveHint
}

// Set is a server's tool list plus what is known of the server.
type Set struct {
	Server  string
	Version string
	Source  string
	Tools   []*Tool
}

// Find returns the tool with the exact name, or nil.
func (s *Set) Find(name string) *Tool {
	for _, t := range s.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Parse accepts a bare array of tools, {"tools": [...]}, a JSON-RPC response
// {"result": {"tools": [...]}}, or the corpus wrapper {"server", "version",
// "source", "tools"}.
func Parse(data []byte) (*Set, error) {
	root, err := ojson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("tool list: %w", err)
	}
	return FromValue(root)
}

// FromValue is Parse for an already parsed document.
func FromValue(root *ojson.Value) (*Set, error) {
	set := &Set{}
	list := root
	if root.Kind == ojson.Object {
		if res := root.Get("result"); res != nil && res.Kind == ojson.Object {
			root = res
		}
		set.Server = root.Get("server").StringOr("")
		set.Version = root.Get("version").StringOr("")
		set.Source = root.Get("source").StringOr("")
		if si := root.Get("serverInfo"); si != nil {
			set.Server = si.Get("name").StringOr(set.Server)
			set.Version = si.Get("version").StringOr(set.Version)
		}
		list = root.Get("tools")
		if list == nil {
			return nil, fmt.Errorf("tool list: object has no \"tools\" member (want a bare array, {\"tools\": [...]}, or a tools/list response)")
		}
	}
	if list.Kind != ojson.Array {
		return nil, fmt.Errorf("tool list: \"tools\" is a %s, want an array", list.Kind)
	}
	seen := map[string]bool{}
	for i, item := range list.Items {
		t, err := ToolFromValue(item)
		if err != nil {
			return nil, fmt.Errorf("tool list: tools[%d]: %w", i, err)
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("tool list: tools[%d]: duplicate tool name %q", i, t.Name)
		}
		seen[t.Name] = true
		set.Tools = append(set.Tools, t)
	}
	return set, nil
}

// ToolFromValue reads one tool object.
func ToolFromValue(v *ojson.Value) (*Tool, error) {
	if v.Kind != ojson.Object {
		return nil, fmt.Errorf("is a %s, want an object", v.Kind)
	}
	name := v.Get("name")
	if name == nil || name.Kind != ojson.String || name.Str == "" {
		return nil, fmt.Errorf("has no \"name\" string")
	}
	t := &Tool{
		Name:        name.Str,
		Title:       v.Get("title").StringOr(""),
		Description: v.Get("description").StringOr(""),
		Raw:         v,
	}
	t.InputSchema = v.Get("inputSchema")
	if t.InputSchema == nil {
		t.InputSchema = v.Get("input_schema") // Anthropic API shape
	}
	if t.InputSchema == nil {
		t.InputSchema = ojson.NewObject().Set("type", ojson.NewString("object"))
	}
	if t.InputSchema.Kind != ojson.Object && t.InputSchema.Kind != ojson.Bool {
		return nil, fmt.Errorf("tool %q: inputSchema is a %s, want an object", t.Name, t.InputSchema.Kind)
	}
	if out := v.Get("outputSchema"); out != nil && out.Kind == ojson.Object {
		t.OutputSchema = out
	}
	if a := v.Get("annotations"); a != nil && a.Kind == ojson.Object {
		t.Annotations.Title = a.Get("title").StringOr("")
		t.Annotations.ReadOnlyHint = boolPtr(a.Get("readOnlyHint"))
		t.Annotations.DestructiveHint = boolPtr(a.Get("destructiveHint"))
		t.Annotations.IdempotentHint = boolPtr(a.Get("idempotentHint"))
		t.Annotations.OpenWorldHint = boolPtr(a.Get("openWorldHint"))
	}
	return t, nil
}

func boolPtr(v *ojson.Value) *bool {
	if v == nil || v.Kind != ojson.Bool {
		return nil
	}
	b := v.Bool
	return &b
}

// ModelFacing is the tool as an LLM API receives it — {name, description,
// input_schema} — the baseline every token saving is measured against.
func (t *Tool) ModelFacing() *ojson.Value {
	o := ojson.NewObject().Set("name", ojson.NewString(t.Name))
	if t.Description != "" {
		o.Set("description", ojson.NewString(t.Description))
	}
	return o.Set("input_schema", t.InputSchema)
}

// Baseline renders the whole list as a minified JSON array of ModelFacing tools.
func (s *Set) Baseline() *ojson.Value {
	arr := ojson.NewArray()
	for _, t := range s.Tools {
		arr.Items = append(arr.Items, t.ModelFacing())
	}
	return arr
}

// Result renders the list as an MCP tools/list result {"tools": [...]},
// each tool as the server sent it.
func (s *Set) Result() *ojson.Value {
	arr := ojson.NewArray()
	for _, t := range s.Tools {
		arr.Items = append(arr.Items, t.Raw)
	}
	return ojson.NewObject().Set("tools", arr)
}
